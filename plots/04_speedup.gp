# 04_speedup.gp -- figure 4, speedup: each rung's best GFLOP/s at the largest
# square size the baseline ran at, over the baseline's (speedup.tsv: speedup,
# config, and the baseline's name in baseline), as horizontal bars on a log
# scale, the ladder top to bottom.  In each bar: the rung's best configuration
# there; right of it: the speedup.  Colour: the rung (rungs.tsv); TF32 rungs
# lighter with a dashed outline (and "(TF32)" in their name), references
# (cuBLAS) thicker bars.
#
# inputs (gnuplot -e): datadir, out (style.gp)
# Stops with an error naming the table when speedup.tsv (or rungs.tsv,
# runs.tsv) is missing or empty (it is empty when the baseline has no square
# size).
if (!exists("STYLE_LOADED")) {
    _d = ""
    do for [_i = 1:strlen(ARG0)] { if (ARG0[_i:_i] eq "/") { _d = ARG0[1:_i] } }
    load _d."style.gp"
}
eval need("speedup")
f = table("speedup")

# the rungs present (bar i from the top: the i-th of them in ladder order),
# the size, and the baseline's row
array PRESENT[NRUNG]
do for [k = 1:NRUNG] { PRESENT[k] = 0 }
n_at = 0
base_k = 0
base_cfg = ""
base_gflops = NaN
stats f using (PRESENT[int(column("number"))] = 1, n_at = column("n"), \
               strcol("rung") eq strcol("baseline") ? (base_k = int(column("number")), base_cfg = strcol("config"), base_gflops = column("gflops")) : 0, \
               0) nooutput
if (base_k == 0) { eval stop("no row of the baseline (column baseline) in ".f) }
nbars = sum [k = 1:NRUNG] PRESENT[k]
slot(k) = sum [_j = 1:k] PRESENT[_j]
stats f using (column("speedup")) nooutput
smin = STATS_min
smax = STATS_max
xlo = 10**floor(log10(smin < 1 ? smin : 1) - 0.5)
xhi = 10**ceil(log10(smax) + 0.8)

# text on a bar: black on light colours, white on dark ones
ink(c) = 0.299 * (c >> 16 & 255) + 0.587 * (c >> 8 & 255) + 0.114 * (c & 255) > 140 ? 0x000000 : 0xFFFFFF
fill_of(k) = is_tf32(k) ? mix(R_RGB[k], 0.45) : R_RGB[k]
speedlabel(s) = s >= 100 ? grouped(s)."×" : sprintf("%.3g×", s)
cfg_text(s) = s eq "-" ? "" : s

H = 1.45 + 0.19 * nbars
set logscale x 10
set xrange [xlo : xhi]
set format x LOGFMT
set yrange [-nbars - 0.6 : -0.4]
set ytics () scale 0 font FONT_SMALL noenhanced
do for [k = 1:NRUNG] { if (PRESENT[k]) { set ytics add (R_TITLE[k] -slot(k)) } }
set grid xtics noytics
set mxtics 10
set xlabel sprintf("speedup over %s at n = %d   (%s, %.3g GFLOP/s = 1×)", R_TITLE[base_k], n_at, cfg_text(base_cfg), base_gflops) noenhanced
set ylabel ""
set lmargin 24
set rmargin 2
set tmargin 4.2
set bmargin 4.8
eval headline(sprintf("Speedup of each rung over the host baseline at n = %d", n_at), \
              "each rung's best configuration at this n, in its bar;  thick: references;  lighter, dashed outline: TF32 (tensor cores)")
eval corner(run_label("primary"))
set key off
# half a bar's height: references (cuBLAS) thicker
bh(k) = R_ISREF[k] ? 0.44 : 0.32
y(k) = -slot(k)
K = 'int(column("number"))'
set style fill solid 1.0

do for [fmt in formats] {
    eval term(fmt)
    set output outfile(fmt)
    plot f using (sqrt(xlo * column("speedup"))):(y(@K)):(xlo):(column("speedup")):(y(@K) - bh(@K)):(y(@K) + bh(@K)):(fill_of(@K)) \
             with boxxyerror fs solid 1 noborder fc rgb variable notitle, \
         f using (is_tf32(@K) ? sqrt(xlo * column("speedup")) : NaN):(y(@K)):(xlo):(column("speedup")):(y(@K) - bh(@K)):(y(@K) + bh(@K)):(R_RGB[@K]) \
             with boxxyerror fs empty lc rgb variable lw 2.5 dt (4, 2) notitle, \
         f using (column("speedup") * 1.3):(y(@K)):(speedlabel(column("speedup"))) \
             with labels left font FONT_SMALL notitle, \
         f using (xlo * 1.25):(y(@K)):(cfg_text(strcol("config"))):(ink(fill_of(@K))) \
             with labels left font FONT_TINY textcolor rgb variable noenhanced notitle
    set output
}
