# 01_ladder.gp -- figure 1, the ladder: each rung's best configuration at each
# square size n (ladder.tsv, rows with n > 0), in two panels side by side that
# share the size axis (log):
#   left   the tutorials' rungs (rungs.tsv from_seeds = 1: host and GPU), as
#          GFLOP/s on a log axis, with the reference lines (is_reference = 1:
#          cuBLAS, thicker) and the run's FP32 peak (runs.tsv peak_gflops, role
#          primary) as a dotted guide: the whole climb, seven decades;
#   right  the rungs past the tutorials (from_seeds = 0), as % of cuBLAS at the
#          same precision (ladder.tsv pct_ref) on a linear axis, with cuBLAS as
#          the line at 100: on the left's log axis these rungs share one band a
#          factor of two wide, here they stand apart.
# TF32 rungs are dashed and keyed "(TF32)" (the registry's title).  One key for
# both panels, below them: every rung the table has, in ladder order.
#
# inputs (gnuplot -e): datadir, out (style.gp)
# Stops with an error naming the table when ladder.tsv (or rungs.tsv,
# runs.tsv) is missing or has no data rows, or has no square size.
if (!exists("STYLE_LOADED")) {
    _d = ""
    do for [_i = 1:strlen(ARG0)] { if (ARG0[_i:_i] eq "/") { _d = ARG0[1:_i] } }
    load _d."style.gp"
}
eval need("ladder")
f = table("ladder")

# the rungs with a square size, and the sizes (tics)
array PRESENT[NRUNG]
do for [k = 1:NRUNG] { PRESENT[k] = 0 }
array SIZES[1000]
NS = 0
size_i(v) = sum [_j = 1:NS] (SIZES[_j] == v ? _j : 0)
add_size(v) = size_i(v) > 0 ? 0 : (NS = NS + 1, SIZES[NS] = v, 0)
stats f using (column("n") > 0 ? (PRESENT[int(column("number"))] = 1, add_size(column("n"))) : 0, 0) nooutput
if (NS == 0) { eval stop("no square size (n > 0) in ".f) }
stats f using (column("n") > 0 ? column("n") : NaN):(column("n") > 0 ? column("gflops") : NaN) nooutput
nmin = STATS_min_x
nmax = STATS_max_x
gmin = STATS_min_y
gmax = STATS_max_y
peak = run_peak("primary")
if (peak > 0) { gmax = gmax > peak ? gmax : peak }

# each panel's rungs as a list of numbers (the references in the left one
# only: on the right they are the line at 100), and the key's
in_panel(k, p) = PRESENT[k] && (p == 1 ? (R_ISREF[k] || R_SEEDS[k] == 1) : (!R_ISREF[k] && R_SEEDS[k] == 0))
LIST1 = ""
LIST2 = ""
ALL = ""
do for [k = 1:NRUNG] {
    if (in_panel(k, 1)) { LIST1 = LIST1.sprintf(" %d", k) }
    if (in_panel(k, 2)) { LIST2 = LIST2.sprintf(" %d", k) }
    if (PRESENT[k]) { ALL = ALL.sprintf(" %d", k) }
}
KEYCOLS = 3
KEYROWS = int((words(ALL) + KEYCOLS - 1) / KEYCOLS)
# the right panel's top: its rungs' largest pct_ref, 100 (cuBLAS) at least,
# up to the next 10 above it
in2(k) = sum [_j = 1:words(LIST2)] (int(word(LIST2, _j)) == k ? 1 : 0)
stats f using (column("n") > 0 && in2(int(column("number"))) ? column("pct_ref") : NaN) nooutput
pmax = STATS_records > 0 && STATS_max > 100 ? STATS_max : 100
ptop = 10 * ceil((pmax + 4) / 10.0)

H = 3.5 + 0.15 * KEYROWS
set logscale x 2
set xrange [nmin / 1.3 : nmax * 1.3]
set xtics () font FONT_SMALL
do for [i = 1:NS] { set xtics add (sprintf("%d", SIZES[i]) SIZES[i]) }
set mxtics 1
set xlabel "matrix size n   (n × n × n)" offset 0, 0.3
# each panel's y axis and guides (the labels are set again for each panel:
# each clears them)
left_y = 'set logscale y 10; set yrange [10**floor(log10(gmin)) : 10**ceil(log10(gmax * 1.5))]; set ytics auto; set mytics 10; set format y LOGFMT; set ylabel "GFLOP/s   (2n³ / median time)" offset 0.6, 0; if (peak > 0) { set arrow 1 from graph 0, first peak to graph 1, first peak nohead lc rgb GUIDE lw 1.5 dt (2, 3) back; set label 1 sprintf("FP32 peak %.1f TFLOP/s", peak / 1000.0) at graph 0.02, first peak left offset 0, char 0.6 front font FONT_TINY textcolor rgb GUIDE }'
right_y = 'unset logscale y; set yrange [0 : ptop]; set ytics 0, 20; set mytics 2; set format y "%g"; set ylabel "% of cuBLAS at the same precision" offset 0.2, 0; set arrow 1 from graph 0, first 100 to graph 1, first 100 nohead lc rgb "#000000" lw LW_REF back; set label 1 "cuBLAS = 100" at graph 0.02, first 100 left offset 0, char 0.6 front font FONT_TINY'
labels = 'eval headline("The ladder: each rung''s best against the matrix size", "each point: the rung''s best configuration at that n;   thick: the reference lines (cuBLAS);   dashed: TF32 (tensor cores)"); eval corner(run_label("primary"))'

# geometry, in screen fractions: two panels side by side (room between them
# for the right one's y label), the key below
X0 = 0.085
X1 = 0.99
GAP = 0.085
PW = (X1 - X0 - GAP) / 2
KEYH = (0.15 * KEYROWS + 0.12) / H
YB = KEYH + 0.55 / H
YT = 1 - 0.72 / H

do for [fmt in formats] {
    eval term(fmt)
    set output outfile(fmt)
    set multiplot
    set key off
    do for [p = 1:2] {
        set lmargin at screen X0 + (p - 1) * (PW + GAP)
        set rmargin at screen X0 + (p - 1) * (PW + GAP) + PW
        set bmargin at screen YB
        set tmargin at screen YT
        eval labels
        if (p == 1) {
            set title "the tutorials' rungs, host and GPU: GFLOP/s" offset 0, -0.7
            eval left_y
            plot for [w in LIST1] f using (int(column("number")) == int(w) && column("n") > 0 ? column("n") : NaN):(column("gflops")) \
                with linespoints lt int(w) notitle
        } else {
            set title "the rungs past the tutorials: % of cuBLAS" offset 0, -0.7
            eval right_y
            # the second panel draws the key for both, below them: every
            # rung drawn, in ladder order, column by column
            set key at screen 0.5, screen KEYH center top vertical maxrows KEYROWS Left reverse noopaque nobox width 0 samplen 2.5 spacing 1.0 font FONT_SMALL
            plot for [w in LIST2] f using (int(column("number")) == int(w) && column("n") > 0 ? column("n") : NaN):(column("pct_ref")) \
                    with linespoints lt int(w) notitle, \
                 for [w in ALL] NaN with linespoints lt int(w) title R_TITLE[int(w)]
        }
        unset label
        unset arrow
    }
    unset multiplot
    set output
}
