# 09_gpus.gp -- figure 9, two GPUs side by side: each GPU rung's best GFLOP/s
# at the large square sizes (n >= 2048) on the primary run's GPU against the
# other run's GPU.  Left: one point per (rung, n), other against primary,
# log-log, with the y = x line and ±10 % guides.  Right: the ratio
# other / primary per rung and n, as bars from 1.
#
# inputs (gnuplot -e): datadir  folder holding gpus.tsv (scripts/figures.sh)
#                      out      output path without extension (.pdf, .png)
#                      gpu, date      the primary run (x axis)
#                      o_gpu, o_date  the other run (y axis)
# Stops with an error naming the file when gpus.tsv is missing or empty
# (it is empty when the runs share no GPU rung at n >= 2048).
if (!exists("plotdir")) plotdir = system("dirname '".ARG0."'")
load plotdir."/style.gp"
me = "09_gpus"
if (!exists("datadir") || !exists("out")) exit error fail("set datadir and out with gnuplot -e")
if (!exists("o_gpu")) o_gpu = "other GPU"
if (!exists("o_date")) o_date = "unknown date"
f = datadir."/gpus.tsv"
msg = problem(f)
if (msg ne "") exit error fail(msg)

# the rungs present, in table (ladder) order, and the sizes, smallest first
R = system(sprintf("awk -F'\t' '!/^#/ && NF && !($1 in s) { s[$1] = 1; printf \"%%s \", $1 }' '%s'", f))
nr = words(R)
SIZES = system(sprintf("awk -F'\t' '!/^#/ && NF { print $2 }' '%s' | sort -n | uniq | tr '\\n' ' '", f))
ns = words(SIZES)
size_i(n) = sum [i = 1:ns] (int(word(SIZES, i)) == n ? i : 0)
rung_i(r) = sum [i = 1:nr] (word(R, i) eq r ? i : 0)
# a shade of a rung's colour (rung_rgb, style.gp) for size n: lighter for smaller n
mix(c, t) = int((c >> 16 & 255) + (255 - (c >> 16 & 255)) * t) * 65536 + \
            int((c >> 8 & 255) + (255 - (c >> 8 & 255)) * t) * 256 + int((c & 255) + (255 - (c & 255)) * t)
shade(r, n) = mix(rung_rgb(r), ns > 1 ? 0.6 * (ns - size_i(n)) / (ns - 1.0) : 0)
# point size for size n: larger for larger n
psize(n) = 0.6 + 0.35 * (size_i(n) - 1)

stats f using 3 nooutput
glo = STATS_min
ghi = STATS_max
stats f using 4 nooutput
glo = STATS_min < glo ? STATS_min : glo
ghi = STATS_max > ghi ? STATS_max : ghi
stats f using 5 nooutput
rlo = STATS_min
rhi = STATS_max
# short GPU names for axis labels: "NVIDIA H100 80GB HBM3" -> "H100"
short(g) = words(g) > 1 && word(g, 1) eq "NVIDIA" ? word(g, 2) : g
pgpu = short(gpu)
ogpu = short(o_gpu)
if (pgpu eq ogpu) { pgpu = gpu; ogpu = o_gpu }
BW = 0.8 / ns
# the left panel's key lists up to 14 GPU rungs (03-16) in one column, right
# of the square scatter, where no point can be: hence the height
H = 4.4
LEFT = 0.47   # the left panel's share of the width
bx(r, n) = rung_i(r) - 0.4 + BW * (size_i(n) - 0.5)

do for [fmt in formats] {
    eval term(fmt)
    set output outfile(fmt)
    set multiplot
    eval headline(sprintf("Two GPUs: each rung's best GFLOP/s at n ≥ %d, %s against %s", int(word(SIZES, 1)), ogpu, pgpu), \
                  "left: a point per rung (numbered as on the right) and size, larger for larger n; y = x solid, ±10 % dotted")
    eval corner(o_gpu.", ".o_date."   against   ".gpu.", ".date)

    # ---- left: the scatter
    set size LEFT, 1
    set origin 0, 0
    set lmargin 8
    set rmargin 9
    set bmargin 4.6
    set logscale xy 10
    lo = 10**floor(log10(glo / 1.3))
    hi = 10**ceil(log10(ghi * 1.3))
    set xrange [lo : hi]
    set yrange [lo : hi]
    set format x LOGFMT
    set format y LOGFMT
    set xtics autofreq norotate enhanced font ""
    set grid xtics ytics
    set size ratio -1
    set xlabel sprintf("GFLOP/s on %s", pgpu) noenhanced
    set ylabel sprintf("GFLOP/s on %s", ogpu) noenhanced
    # the key gives the rungs' numbers only; the right panel names them
    set key at graph 1.04, graph 1 left top vertical maxcols 1 maxrows 16 nobox width -1 font FONT_TINY samplen 0.8 spacing 1.0 title ""
    plot x with lines lt 21 lc rgb "#606060" lw 1 notitle, \
         1.1 * x with lines lt 20 notitle, x / 1.1 with lines lt 20 notitle, \
         for [r in R] f using (strcol(1) eq r ? $3 : NaN):4:(psize($2)) \
             with points lt rung(r) pt pt_filled(r) ps variable title sprintf("%02d%s", rung(r), is_tf32(r) ? " TF32" : "")

    # ---- right: the ratios
    unset label
    unset logscale
    set size noratio
    set size 1 - LEFT, 1
    set origin LEFT, 0
    set lmargin 8
    set rmargin 1
    set xrange [0.4 : nr + 0.6]
    set yrange [(rlo < 0.98 ? rlo - 0.02 : 0.96) : (rhi > 1.02 ? rhi + 0.02 : 1.04)]
    set format x "%g"
    set format y "%.2f"
    set xtics scale 0 noenhanced rotate by 45 right font FONT_TINY
    set xtics ("" 1)
    do for [i = 1:nr] { set xtics add (rung_title(word(R, i)) i) }
    set grid noxtics ytics
    set xlabel ""
    set ylabel sprintf("GFLOP/s, %s / %s", ogpu, pgpu) noenhanced
    set bmargin 9
    # the sizes' key above the panel, where no bar can be
    set key at graph 1, graph 1 right bottom horizontal maxrows 1 maxcols auto width 0 font FONT_TINY samplen 1.5 title "" noenhanced
    plot 1 with lines lt 21 lc rgb "#303030" lw 1 notitle, \
         f using (bx(strcol(1), $2)):(($5 + 1) / 2):(bx(strcol(1), $2) - BW / 2 * 0.9):(bx(strcol(1), $2) + BW / 2 * 0.9):(1):5:(shade(strcol(1), $2)) \
             with boxxyerror fs solid 1 border lc rgb "#303030" lc rgb variable notitle, \
         for [i = 1:ns] NaN with boxes fs solid 1 border lc rgb "#303030" \
             lc rgb mix(0x505050, ns > 1 ? 0.6 * (ns - i) / (ns - 1.0) : 0) title "n = ".word(SIZES, i)

    unset multiplot
    set output
}
