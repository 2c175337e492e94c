# 04_speedup.gp -- figure 4, speedup: every rung's best GFLOP/s at n_host, the
# largest square size the host rungs ran at (1024 in the paper's matrix),
# divided by the best host_naive row at that size (its -O level is named in
# the headline).  Horizontal bars on a log scale, the ladder top to bottom.
#
# inputs (gnuplot -e): datadir  folder holding speedup.tsv (scripts/figures.sh)
#                      out      output path without extension (.pdf, .png)
#                      gpu, date  the run, for the corner label
# Stops with an error naming the file when speedup.tsv is missing or empty
# (it is empty when host_naive has no square size).
if (!exists("plotdir")) plotdir = system("dirname '".ARG0."'")
load plotdir."/style.gp"
me = "04_speedup"
if (!exists("datadir") || !exists("out")) exit error fail("set datadir and out with gnuplot -e")
f = datadir."/speedup.tsv"
msg = problem(f)
if (msg ne "") exit error fail(msg)

nbars = datarows(f)
# a taller page when there are more bars than the 12 the default height holds
H = nbars > 12 ? H + 0.2 * (nbars - 12) : H
# the baseline: the host_naive row (speedup 1), its size and -O level
BASE = system(sprintf("awk -F'\t' '$1 == \"host_naive\" { print $2, $3, $7; exit }' '%s'", f))
if (words(BASE) < 3) exit error fail("no host_naive row (the baseline) in ".f)
n_host = int(word(BASE, 1))
base_gflops = real(word(BASE, 2))
base_opt = int(word(BASE, 3))

stats f using 4 nooutput
smin = STATS_min
smax = STATS_max
xlo = 10**floor(log10(smin < 1 ? smin : 1) - 0.3)
# room right of the longest bar for its label
xhi = 10**ceil(log10(smax) + 1.0)

# bar i (0 = top) sits at y = -i
set logscale x 10
set xrange [xlo : xhi]
set format x LOGFMT
set yrange [-nbars + 0.4 : 0.6]
set ytics scale 0 noenhanced font FONT_SMALL
set grid xtics noytics
set xlabel sprintf("speedup over 01 host_naive at -O%d, n = %d   (%.3g GFLOP/s = 1×)", base_opt, n_host, base_gflops) noenhanced
set ylabel ""
# room for the longest rung name, "14 tf32_wgmma_tma (TF32)"
set lmargin 22
eval headline(sprintf("Speedup of each rung over the host baseline at n = %d", n_host), \
              sprintf("in each bar: the rung's best tile width, work per thread or -O level at this n; baseline: 01 host_naive at -O%d", base_opt))
set key off
eval corner(gpu.", ".date)
# the configuration of a row, for its label: "TS 32, WPT 16", "-O3" or ""
config(ts, wpt, opt) = opt > 0 ? sprintf("-O%d", opt) : ts > 0 ? (wpt > 0 ? sprintf("TS %d, WPT %d", ts, wpt) : sprintf("TS %d", ts)) : ""
speedlabel(s) = s >= 100 ? grouped(s)."×" : sprintf("%.3g×", s)
set style fill solid 0.85 border lc rgb "#303030"

do for [fmt in formats] {
    eval term(fmt)
    set output outfile(fmt)
    plot f using (sqrt(xlo * $4)):(-$0):(xlo):($4):(-$0 - 0.36):(-$0 + 0.36):(rung(strcol(1))):ytic(rung_title(strcol(1))) \
             with boxxyerror lc variable notitle, \
         f using ($4 * 1.25):(-$0):(speedlabel($4)) with labels left font FONT_SMALL notitle, \
         f using (xlo * 1.25):(-$0):(config($5, $6, $7)):(ink(strcol(1))) \
             with labels left font FONT_TINY textcolor rgb variable notitle
    set output
}
