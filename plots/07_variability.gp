# 07_variability.gp -- figure 7, variability: every timed sample of each
# rung's best configuration at one square size (n = 4096), as its deviation
# from the row's median time.  Dots: the raw samples (spread vertically so
# that they do not hide each other); box: lower to upper quartile; bar: the
# median; whiskers: min to max.  The deviation axis is linear within ±0.1 %
# and logarithmic beyond (asinh), so the quiet rungs and the noisy one are
# both readable.
#
# inputs (gnuplot -e): datadir  folder holding variability.tsv and
#                               variability_rows.tsv (scripts/figures.sh)
#                      out      output path without extension (.pdf, .png)
#                      gpu, date  the run, for the corner label
#                      var_n    (optional) the size, for the headline; default 4096
# Stops with an error naming the file when either table is missing or empty.
if (!exists("plotdir")) plotdir = system("dirname '".ARG0."'")
load plotdir."/style.gp"
me = "07_variability"
if (!exists("datadir") || !exists("out")) exit error fail("set datadir and out with gnuplot -e")
if (!exists("var_n")) var_n = 4096
f = datadir."/variability.tsv"
fr = datadir."/variability_rows.tsv"
msg = problem(fr)
if (msg ne "") exit error fail(msg)
msg = problem(f)
if (msg ne "") exit error fail(msg)

# the rungs, in their x order (variability_rows.tsv: row variant x samples
# time_ms_median stop_rule tile wpt opt_level)
R = system(sprintf("awk -F'\t' '!/^#/ && NF { print $3, $2 }' '%s' | sort -n | awk '{ printf \"%%s \", $2 }'", fr))
nr = words(R)
INFO(r) = system(sprintf("awk -F'\t' '$2 == \"%s\" { print $4, $5, $6, $7, $8; exit }' '%s'", r, fr))
config(ts, wpt) = ts > 0 ? (wpt > 0 ? sprintf(", TS %d, WPT %d", ts, wpt) : sprintf(", TS %d", ts)) : ""
right_label(r) = (_i = INFO(r), sprintf("%s samples, %.4g ms%s", word(_i, 1), real(word(_i, 2)), \
                 config(int(word(_i, 4)), int(word(_i, 5)))))
# deterministic vertical spread of sample s: a golden-ratio sequence in [-0.28, 0.28]
C = 0.1
jitter(s) = 0.56 * ((s * 0.6180339887) - floor(s * 0.6180339887) - 0.5)

# the box-plot numbers of each rung, one line per rung in a datablock
# (y, min, lower quartile, median, upper quartile, max); drawn with plot
# styles rather than objects so that they follow the nonlinear axis.
# (Computed before the axis is made nonlinear: stats would see the data
# through it.)
set print $BOX
do for [i = 1:nr] {
    r = word(R, i)
    stats f using (strcol(2) eq r ? $5 : NaN) nooutput
    print sprintf("%d\t%.9g\t%.9g\t%.9g\t%.9g\t%.9g", -(i - 1), STATS_min, STATS_lo_quartile, STATS_median, STATS_up_quartile, STATS_max)
    set label 100 + i right_label(r) at graph 1, first -(i - 1) left offset char 1, 0 noenhanced font FONT_TINY
}
unset print
# deviation axis: linear near 0, logarithmic beyond C percent
stats f using 5 nooutput
dlo = STATS_min
dhi = STATS_max
set nonlinear x via asinh(x / C) inverse C * sinh(x)
# each end: the next 1-2-5 step beyond the data (at least 2 C)
xmin = dlo < -C ? -up125(-dlo * 1.05) : -2 * C
xmax = dhi > C ? up125(dhi * 1.05) : 2 * C
set xrange [xmin : xmax]
# tics at 0 and at each power of ten in range
set xtics ("0" 0)
# (±0.1 unlabelled: next to 0 on this axis there is no room for its label)
do for [k = -1:3] {
    if (10**k <= xmax * 1.0001) { set xtics add ((k < 0 ? "" : sprintf("+%g", 10.0**k)) 10.0**k) }
    if (-10**k >= xmin * 1.0001) { set xtics add ((k < 0 ? "" : sprintf("−%g", 10.0**k)) -10.0**k) }
}
set mxtics 1
set grid xtics noytics
set yrange [-nr + 0.45 : 0.55]
set ytics scale 0 noenhanced font FONT_SMALL
set ytics ("" 1)
do for [i = 1:nr] { set ytics add (rung_title(word(R, i)) -(i - 1)) }
set xlabel "deviation from the row's median time (%)   (asinh scale: linear within ±0.1 %)"
set ylabel ""
# room for the longest rung name, "14 tf32_wgmma_tma (TF32)", and the longest
# right label, "316 samples, 0.9123 ms, TS 128, WPT 128"
set lmargin 22
set rmargin 28
# a taller page when there are more rungs than the 12 the default height holds
H = nr > 12 ? H + 0.2 * (nr - 12) : H
eval headline(sprintf("Variability: every timed sample of each rung at n = %d, its best configuration", var_n), \
              "dots: the samples; box: quartiles; bar: median; whiskers: min to max; right: samples, median, configuration")
set key off
eval corner(gpu.", ".date)

BH = 0.32    # half the height of a box
INK = "#202020"

do for [fmt in formats] {
    eval term(fmt)
    set output outfile(fmt)
    plot for [r in R] f using (strcol(2) eq r ? $5 : NaN):(-$1 + jitter($3)) \
             with points lt rung(r) pt 7 ps 0.35 notitle, \
         $BOX using (($3 + $5) / 2):1:3:5:($1 - BH):($1 + BH) with boxxyerror fs empty dt solid lc rgb INK lw 1.2 notitle, \
         $BOX using 4:($1 - BH):(0):(2 * BH) with vectors nohead dt solid lc rgb INK lw 2.5 notitle, \
         $BOX using 2:1:($3 - $2):(0) with vectors nohead dt solid lc rgb INK lw 1 notitle, \
         $BOX using 5:1:($6 - $5):(0) with vectors nohead dt solid lc rgb INK lw 1 notitle, \
         $BOX using 2:($1 - BH / 2):(0):(BH) with vectors nohead dt solid lc rgb INK lw 1 notitle, \
         $BOX using 6:($1 - BH / 2):(0):(BH) with vectors nohead dt solid lc rgb INK lw 1 notitle
    set output
}
