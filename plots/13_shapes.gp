# 13_shapes.gp -- figure 13, the shape study: at each shape of the suite
# (experiments/shapes.ini), each GPU rung's best as a percentage of cuBLAS at
# the same precision (shapes.tsv: pct_ref), on a log axis, in two panels that
# share the shape axis:
#   top     FP32 (precision fp32), against cublas_fp32;
#   bottom  TF32 (precision tf32), against cublas_tf32.
# x: the suite's shapes at their shape_rank (sorted by class, then FLOPs),
# named below the bottom panel (shape); thin vertical lines between the
# classes (where class_rank changes), each class named above the top panel.
# In a panel, each hand-written rung (dispatch = 0) of its precision as points,
# not joined (the rung's colour and point type, rungs.tsv), spread a little
# across the shape's slot in ladder order so that equal values stay apart;
# the dispatch row (dispatch = 1: the one entry point that picks a rung per
# shape) as a line with open squares through the slot's centre, in a darker
# shade of its rung's colour (dashed for TF32, as everywhere): what one call
# gets against what the ladder can reach.  A line at 100 (cuBLAS) and a light
# guide at 90.  Each panel's key, at its right, names its rungs.
#
# A run with rows of only one precision (a suite run without TF32 rungs, say)
# draws only that panel, at its full height, with the shape names under it; a
# note above its key says which precision the run has no rows of.
#
# inputs (gnuplot -e): datadir, out (style.gp)
# The corner names the run (runs.tsv role shapes).
# Stops with an error naming the table when shapes.tsv (or rungs.tsv,
# runs.tsv) is missing or has no data rows, or has no finite pct_ref.
if (!exists("STYLE_LOADED")) {
    _d = ""
    do for [_i = 1:strlen(ARG0)] { if (ARG0[_i:_i] eq "/") { _d = ARG0[1:_i] } }
    load _d."style.gp"
}
eval need("shapes")
f = table("shapes")

# the shapes (by shape_rank): their labels and classes
stats f using (column("shape_rank")) nooutput
NSH = int(STATS_max)
array SHAPE[NSH]
array CLS[NSH]
array CLSNAME[NSH]
do for [r = 1:NSH] { SHAPE[r] = ""; CLS[r] = 0; CLSNAME[r] = "" }
stats f using (_r = int(column("shape_rank")), SHAPE[_r] = strcol("shape"), \
               CLS[_r] = int(column("class_rank")), CLSNAME[_r] = strcol("class"), 0) nooutput

# per panel p (1: fp32, 2: tf32): the hand-written rungs and the dispatch rows
# present, as lists of numbers in ladder order
pan(x) = strcol("precision") eq "tf32" ? 2 : 1
array HAND[2 * NRUNG]
array DISP[2 * NRUNG]
do for [k = 1:2 * NRUNG] { HAND[k] = 0; DISP[k] = 0 }
stats f using (_i = (pan(0) - 1) * NRUNG + int(column("number")), \
               int(column("dispatch")) == 1 ? (DISP[_i] = 1) : (HAND[_i] = 1), 0) nooutput
array HLIST[2]
array DLIST[2]
do for [p = 1:2] {
    HLIST[p] = ""
    DLIST[p] = ""
    do for [k = 1:NRUNG] {
        if (HAND[(p - 1) * NRUNG + k]) { HLIST[p] = HLIST[p].sprintf(" %d", k) }
        if (DISP[(p - 1) * NRUNG + k]) { DLIST[p] = DLIST[p].sprintf(" %d", k) }
    }
}
PANELS = ""
do for [p = 1:2] { if (words(HLIST[p].DLIST[p]) > 0) { PANELS = PANELS.sprintf(" %d", p) } }
NP = words(PANELS)
PNAME = "FP32 TF32"

# the y range: the data's, with 90 and 100 inside, and a little room at both
# ends; tics at 1, 2 and 5 times the powers of ten
stats f using (column("pct_ref") > 0 ? column("pct_ref") : NaN) nooutput
if (STATS_records == 0) { eval stop("no finite pct_ref in ".f) }
pmin = STATS_min < 90 ? STATS_min : 90
pmax = STATS_max > 100 ? STATS_max : 100
ylo = pmin / 1.25
yhi = pmax * 1.35

# a hand-written rung's place across its shape's slot (ladder order), the
# dispatch line at the centre
SLOTW = 0.75
slot(p, k) = sum [_j = 1:words(HLIST[p])] (int(word(HLIST[p], _j)) == k ? _j : 0)
bx(p, k, r) = r + (words(HLIST[p]) > 1 ? (slot(p, k) - (words(HLIST[p]) + 1) / 2.0) * SLOTW / words(HLIST[p]) : 0)
K = 'int(column("number"))'
R = 'int(column("shape_rank"))'
here(p, k, d) = pan(0) == p && @K == k && int(column("dispatch")) == d

PH = NP == 2 ? 1.8 : 2.2
# below the lowest panel: the shapes' names, upright (BOT inches)
BOT = 1.2
H = 0.8 + NP * PH + (NP - 1) * 0.12 + BOT
# geometry: the panels one over the other, each key at its panel's right
X0 = 0.085
X1 = 0.70
YT = 1 - 0.8 / H
YB = BOT / H
GAP = 0.12 / H
PHS = (YT - YB - (NP - 1) * GAP) / NP
ptop(i) = YT - (i - 1) * (PHS + GAP)

absent = NP == 2 ? "" : sprintf("(no %s rows\nin this run)", word(PNAME, 3 - int(word(PANELS, 1))))
sub = "points: the hand-written rungs, each at its best configuration;   line: dispatch, one entry point that picks a rung per shape"
labels = 'eval headline("The shape suite: each rung''s best as % of cuBLAS at the same precision", sub); eval corner(sprintf("shape suite: %s", run_label("shapes")))'

set xrange [0.4 : NSH + 0.6]
set logscale y 10
set yrange [ylo : yhi]
set ytics () font FONT_SMALL
do for [e = int(floor(log10(ylo) + 1e-9)) : int(ceil(log10(yhi)))] {
    do for [m in "1 2 5"] {
        v = int(m) * 10.0**e
        if (v >= ylo && v <= yhi) { set ytics add (sprintf("%g", v) v) }
    }
}
set mytics 10
set grid noxtics ytics nomytics
# the shapes' names under the lowest panel only (the tics are the x's own
# labels, so that `set format x` does not hide them)
shape_tics(named) = 'set xtics () scale 0; do for [r = 1:NSH] { set xtics add ('.(named ? 'SHAPE[r]' : '""').' r) }'
# (upright: a slot is narrower than a slanted name needs, and slanted names
# overlapped their neighbours)
set xtics rotate by 90 right offset 0, 0.3 font FONT_TINY noenhanced
# the dispatch line: its rung's colour, darker by t (mix, style.gp, is lighter)
shade(c, t) = int((c >> 16 & 255) * (1 - t)) * 65536 + int((c >> 8 & 255) * (1 - t)) * 256 + int((c & 255) * (1 - t))
# between the classes: a thin vertical line; above the top panel: the names
seps = 'do for [r = 2:NSH] { if (CLS[r] != CLS[r - 1]) { eval sprintf("set arrow %d from %g, graph 0 to %g, graph 1 nohead lc rgb \"#B0B0B0\" lw 0.8 back", 10 + r, r - 0.5, r - 0.5) } }'
cstart(r) = r == 1 || CLS[r] != CLS[r - 1]
cend(r) = r == NSH || CLS[r] != CLS[r + 1]
class_names = '_c0 = 1; do for [r = 1:NSH] { if (cstart(r)) { _c0 = r }; if (cend(r)) { eval sprintf("set label %d \"%s\" at %g, graph 1 center offset 0, char 0.6 front noenhanced font FONT_TINY textcolor rgb \"#303030\"", 100 + r, CLSNAME[r], 0.5 * (_c0 + r)) } }'
guides = 'set arrow 1 from graph 0, first 100 to graph 1, first 100 nohead lc rgb "#000000" lw 1.4 back; set arrow 2 from graph 0, first 90 to graph 1, first 90 nohead lc rgb "#A0A0A0" lw 0.8 dt (4, 3) back; set label 1 "cuBLAS = 100" at graph 1, first 100 left offset char 0.5, 0.45 front font FONT_TINY; set label 2 "90" at graph 1, first 90 left offset char 0.5, -0.45 front font FONT_TINY textcolor rgb GUIDE'

do for [fmt in formats] {
    eval term(fmt)
    set output outfile(fmt)
    set multiplot
    eval labels
    set key off
    set lmargin at screen X0
    set rmargin at screen X1
    do for [i = 1:NP] {
        p = int(word(PANELS, i))
        set tmargin at screen ptop(i)
        set bmargin at screen ptop(i) - PHS
        set ylabel sprintf("%% of cuBLAS %s", word(PNAME, p)) offset 0.8, 0
        eval shape_tics(i == NP)
        eval seps
        eval guides
        if (i == 1) { eval class_names }
        if (NP == 1) { set label 3 absent at screen X1 + 0.022, screen ptop(i) left offset 0, char -0.5 front noenhanced font FONT_SMALL textcolor rgb GUIDE }
        set key at screen X1 + 0.022, screen ptop(i) - PHS left bottom vertical Left reverse noopaque nobox \
            width 0 samplen 1.8 spacing 1.05 font FONT_SMALL title word(PNAME, p) left
        HL = HLIST[p]
        DL = DLIST[p]
        plot for [w in HL] f using (here(p, int(w), 0) ? bx(p, int(w), @R) : NaN):(column("pct_ref")) \
                 with points lt int(w) ps 0.68 title R_TITLE[int(w)], \
             for [w in DL] f using (here(p, int(w), 1) ? @R : NaN):(column("pct_ref")) \
                 with linespoints lc rgb shade(R_RGB[int(w)], 0.35) lw 1.3 dt rung_dt(int(w)) pt 4 ps 0.95 \
                 title R_TITLE[int(w)]
        unset arrow
        unset label
    }
    unset multiplot
    set output
}
