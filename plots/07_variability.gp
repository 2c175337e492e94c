# 07_variability.gp -- figure 7, variability: every timed sample of each rung's
# best row at one square size (samples.tsv: n = 4096 when the run has it), as
# its deviation from that row's median time (dev_pct), one row of dots per
# rung at the table's position x, the ladder top to bottom.  Dots are spread
# vertically by sample number so that they do not hide each other.  The
# deviation axis is linear within ±0.1 % and logarithmic beyond (asinh), so
# that the quiet rungs and the noisy ones are both readable.  Right of each
# row: its sample count and median time; a row whose stop_rule is not
# "converged" (it stopped on a time or sample limit before its timing settled)
# is marked: a pale red band behind it, and the rule in red.  A sample during
# which a power or thermal clock-event reason was active (throttled = 1;
# schema 6 files with telemetry) is ringed, with a key entry, and its row's
# label counts them (throttled_samples).
#
# inputs (gnuplot -e): datadir, out (style.gp)
# Stops with an error naming the table when samples.tsv (or rungs.tsv,
# runs.tsv) is missing or empty.
if (!exists("STYLE_LOADED")) {
    _d = ""
    do for [_i = 1:strlen(ARG0)] { if (ARG0[_i:_i] eq "/") { _d = ARG0[1:_i] } }
    load _d."style.gp"
}
eval need("samples")
f = table("samples")

# each row of dots (x = 0, 1, ...): its rung, count, median and stop rule
stats f using (column("x")):(column("dev_pct")) nooutput
NX = int(STATS_max_x) + 1
dlo = STATS_min_y
dhi = STATS_max_y
array X_NUM[NX]
array X_N[NX]
array X_MED[NX]
array X_STOP[NX]
array X_THR[NX]
do for [i = 1:NX] { X_NUM[i] = 0; X_THR[i] = 0 }
n_at = 0
stats f using (_i = int(column("x")) + 1, X_NUM[_i] = int(column("number")), X_N[_i] = int(column("samples")), \
               X_MED[_i] = column("median_ms"), X_STOP[_i] = strcol("stop_rule"), X_THR[_i] = int(column("throttled_samples")), \
               n_at = column("n"), 0) nooutput
NTHR = 0
stats f using (NTHR = NTHR + (column("throttled") == 1), 0) nooutput
converged(i) = X_STOP[i] eq "converged"
ms(t) = t >= 100 ? sprintf("%.0f ms", t) : t >= 10 ? sprintf("%.1f ms", t) : t >= 1 ? sprintf("%.2f ms", t) : sprintf("%.3f ms", t)

# deviation axis: linear near 0, logarithmic beyond C per cent; each end the
# next 1-2-5 step beyond the data
C = 0.1
up125(v) = (_e = 10**floor(log10(v) + 1e-9), v <= _e * 1.0001 ? _e : v <= 2 * _e * 1.0001 ? 2 * _e : v <= 5 * _e * 1.0001 ? 5 * _e : 10 * _e)
xmin = dlo < -C ? -up125(-dlo * 1.05) : -2 * C
xmax = dhi > C ? up125(dhi * 1.05) : 2 * C
# a sample's vertical place in its row: a golden-ratio sequence in [-0.3, 0.3]
jitter(s) = 0.6 * ((s * 0.6180339887) - floor(s * 0.6180339887) - 0.5)

H = 1.35 + 0.2 * NX
set nonlinear x via asinh(x / C) inverse C * sinh(x)
set xrange [xmin : xmax]
set xtics () font FONT_SMALL
set xtics add ("" 0)
do for [e = -1:3] {
    if (10**e <= xmax * 1.0001) { set xtics add (sprintf("+%g", 10**e) 10**e) }
    if (-(10**e) >= xmin * 1.0001) { set xtics add (sprintf("−%g", 10**e) -(10**e)) }
}
set mxtics 1
set yrange [-NX + 0.4 : 0.6]
set ytics () scale 0 font FONT_SMALL noenhanced
do for [i = 1:NX] { if (X_NUM[i] > 0) { set ytics add (R_TITLE[X_NUM[i]] -(i - 1)) } }
set grid xtics noytics
set xlabel "deviation of each sample from its row's median time (%)   (asinh axis: linear within ±0.1 %)"
set ylabel ""
set lmargin 24
set rmargin 34
eval headline(sprintf("Variability: every timed sample of each rung's best configuration at n = %d", n_at), \
              "right: samples and median time;  red: stopped on a time or sample limit before converging")
eval corner(run_label("primary"))
# the key: the ring, when a sample is throttled (above the labels, right)
set key at graph 1, graph 1 left bottom Left reverse noopaque nobox samplen 0.5 font FONT_TINY
do for [i = 1:NX] {
    if (X_NUM[i] > 0) {
        eval sprintf("set label %d \"%d samples, %s%s%s\" at graph 1, first %d left offset char 1, 0 front noenhanced font FONT_TINY textcolor rgb '%s'", \
                     100 + i, X_N[i], ms(X_MED[i]), converged(i) ? "" : ", ".X_STOP[i], \
                     X_THR[i] > 0 ? sprintf(", %d throttled", X_THR[i]) : "", -(i - 1), converged(i) ? "#303030" : "#C00000")
    }
}
set arrow 1 from 0, graph 0 to 0, graph 1 nohead lc rgb GUIDE lw 1 back
set label 1 "median" at 0, graph 1 center offset 0, char 0.6 front font FONT_TINY textcolor rgb GUIDE
# rows that did not converge: a pale red band behind their dots
do for [i = 1:NX] {
    if (X_NUM[i] > 0 && !converged(i)) {
        eval sprintf("set object %d rectangle from graph 0, first %g to graph 1, first %g behind fc rgb '#FBE0E0' fs solid 1 noborder", 100 + i, -(i - 1) - 0.45, -(i - 1) + 0.45)
    }
}

do for [fmt in formats] {
    eval term(fmt)
    set output outfile(fmt)
    plot for [i = 1:NX] f using (int(column("x")) == i - 1 ? column("dev_pct") : NaN):(-(i - 1) + jitter(column("sample"))) \
             with points lt X_NUM[i] pt R_PT[X_NUM[i]] ps 0.35 notitle, \
         f using (column("throttled") == 1 ? column("dev_pct") : NaN):(-int(column("x")) + jitter(column("sample"))) \
             with points pt 6 ps 0.8 lw 0.7 lc rgb "#303030" notitle, \
         for [i = 1:(NTHR > 0 ? 1 : 0)] NaN with points pt 6 ps 0.8 lw 0.7 lc rgb "#303030" title "throttled (power cap or heat)"
    set output
}
