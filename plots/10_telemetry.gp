# 10_telemetry.gp -- figure 10, clock and power through a headline run: every
# GPU sample of the primary run that recorded NVML telemetry (telemetry.tsv,
# one row per sample, by t_s: seconds since the run began, at the sample's
# end), in two panels that share the time axis:
#   top     the mean SM clock over the sample (clock_mhz), under the GPU's
#           maximum SM clock (runs.tsv max_clock_mhz, role primary) as a
#           dashed guide;
#   bottom  the mean board power over the sample (power_w).
# Points in the rung's colour and point type; a sample during which a power or
# thermal clock-event reason was active (throttled = 1) is ringed in both
# panels.  Behind the points, the shapes in the order the run measured them
# (the table's consecutive rows of one `shape`: a run measures its GPU points
# shape by shape) as alternately shaded bands, each named above the top panel
# where the name fits ("n = 4096" for a square shape, "1000×1500×700" for
# another).  One key for both panels, below them: every rung drawn, in
# ladder order.
#
# inputs (gnuplot -e): datadir, out (style.gp)
# Stops with an error naming the table when rungs.tsv or runs.tsv is missing or
# empty.  When telemetry.tsv is missing or has no data rows (a results file of
# schema < 6 has no telemetry; a run without NVML recorded none) it prints
# "10_telemetry: no telemetry in the run (.../telemetry.tsv has no data rows)"
# and ends with exit status 3, which scripts/figures.sh reports as skipped,
# not failed (style.gp: skip).
if (!exists("STYLE_LOADED")) {
    _d = ""
    do for [_i = 1:strlen(ARG0)] { if (ARG0[_i:_i] eq "/") { _d = ARG0[1:_i] } }
    load _d."style.gp"
}
eval count("telemetry")
if (NROWS < 1) {
    eval skip("no telemetry in the run (".table("telemetry")." has no data rows: a results file of schema < 6, or a run without NVML)")
}
f = table("telemetry")

# the rungs drawn, and the bands: runs of consecutive rows of one shape, each
# from its first sample's time to the next one's first (the last to its end)
array PRESENT[NRUNG]
do for [k = 1:NRUNG] { PRESENT[k] = 0 }
MAXB = 500
array B_T[MAXB + 1]
array B_NAME[MAXB]
NB = 0
_prev = ""
shape_name(s) = strstrt(s, "x") == 0 ? "n = ".s : times(s)
new_band(s, t) = s eq _prev || NB >= MAXB ? 0 : (NB = NB + 1, B_T[NB] = t, B_NAME[NB] = shape_name(s), _prev = s, 0)
stats f using (PRESENT[int(column("number"))] = 1, new_band(strcol("shape"), column("t_s")), 0) nooutput
stats f using (column("t_s")):(column("clock_mhz")) nooutput
tmin = STATS_min_x
tmax = STATS_max_x
cmin = STATS_min_y
cmax = STATS_max_y
B_T[NB + 1] = tmax
stats f using (column("power_w")) nooutput
pmax = STATS_max
maxclock = run_clock("primary")
if (maxclock > 0) { cmax = cmax > maxclock ? cmax : maxclock }
NTHROTTLED = 0
stats f using (NTHROTTLED = NTHROTTLED + (column("throttled") == 1), 0) nooutput
ALL = ""
do for [k = 1:NRUNG] { if (PRESENT[k]) { ALL = ALL.sprintf(" %d", k) } }
KEYCOLS = 3
KEYROWS = int((words(ALL) + 2 + KEYCOLS - 1) / KEYCOLS)

H = 3.9 + 0.15 * KEYROWS
# geometry, in screen fractions: the clock panel over the power panel, the key
# below them
X0 = 0.1
X1 = 0.915
KEYH = (0.15 * KEYROWS + 0.12) / H
YB = KEYH + 0.55 / H
YT = 1 - 0.88 / H
GAP = 0.12 / H
YM = YB + 0.5 * (YT - YB - GAP)
span = tmax - tmin
pad = 0.01 * span
set xrange [tmin - pad : tmax + pad]
set xtics font FONT_SMALL
set mxtics 2
set ytics font FONT_SMALL
# the shapes: shaded bands (every other one), named where the name fits (a
# character of FONT_TINY taken as 0.05 inch)
inch_per_s = (X1 - X0) * W / (span + 2 * pad)
fits(i) = (B_T[i + 1] - B_T[i]) * inch_per_s >= 0.05 * strlen(B_NAME[i]) + 0.03
bands = 'do for [i = 1:NB] { if (i % 2 == 0) { eval sprintf("set object %d rectangle from first %.6g, graph 0 to first %.6g, graph 1 behind fc rgb \"#EEEEEE\" fs solid 1 noborder", 10 + i, B_T[i], B_T[i + 1]) } }'
band_names = 'do for [i = 1:NB] { if (fits(i)) { eval sprintf("set label %d \"%s\" at first %.6g, graph 1 center offset 0, char 0.55 front noenhanced font FONT_TINY textcolor rgb GUIDE", 10 + i, B_NAME[i], 0.5 * (B_T[i] + B_T[i + 1])) } }'
sub = sprintf("one point per timed sample: its mean SM clock and power (NVML);   ringed: throttled by power or heat (%d of %d)", NTHROTTLED, NROWS)
labels = 'eval headline("Clock and power through the run: every GPU sample against the time since the run began", sub); eval corner(run_label("primary"))'

RING = "#303030"
do for [fmt in formats] {
    eval term(fmt)
    set output outfile(fmt)
    set multiplot
    eval labels
    set key off
    set lmargin at screen X0
    set rmargin at screen X1

    # top: the SM clock
    set tmargin at screen YT
    set bmargin at screen YM + GAP
    set format x ""
    set xlabel ""
    set ylabel "SM clock (MHz)"
    set yrange [cmin - 0.06 * (cmax - cmin + 1) : cmax + 0.05 * (cmax - cmin + 1)]
    eval bands
    eval band_names
    if (maxclock > 0) {
        set arrow 1 from graph 0, first maxclock to graph 1, first maxclock nohead lc rgb GUIDE lw 1.2 dt (4, 3) back
        set label 1 sprintf("max %.0f", maxclock) at graph 1, first maxclock left offset char 0.5, 0 front font FONT_TINY textcolor rgb GUIDE
    }
    plot for [w in ALL] f using (int(column("number")) == int(w) ? column("t_s") : NaN):(column("clock_mhz")) \
             with points lt int(w) ps 0.3 notitle, \
         f using (column("throttled") == 1 ? column("t_s") : NaN):(column("clock_mhz")) \
             with points pt 6 ps 0.6 lw 0.6 lc rgb RING notitle
    unset label
    unset arrow
    unset object

    # bottom: the power, and the key for both panels
    set tmargin at screen YM
    set bmargin at screen YB
    set format x "%g"
    set xlabel "time since the run began (s)" offset 0, 0.3
    set ylabel "board power (W)"
    set yrange [0 : pmax * 1.08]
    eval bands
    set key at screen 0.5, screen KEYH center top vertical maxrows KEYROWS Left reverse noopaque nobox width 0 samplen 1.5 spacing 1.0 font FONT_SMALL
    plot for [w in ALL] f using (int(column("number")) == int(w) ? column("t_s") : NaN):(column("power_w")) \
             with points lt int(w) ps 0.3 notitle, \
         f using (column("throttled") == 1 ? column("t_s") : NaN):(column("power_w")) \
             with points pt 6 ps 0.6 lw 0.6 lc rgb RING notitle, \
         for [w in ALL] NaN with points lt int(w) ps 0.8 title R_TITLE[int(w)], \
         NaN with points pt 6 ps 0.9 lw 0.6 lc rgb RING title "throttled", \
         NaN with lines lc rgb GUIDE lw 1.2 dt (4, 3) title "maximum SM clock"
    unset object
    unset multiplot
    set output
}
