# 14_heldout.gp -- figure 14, shapes nobody tuned for: over a corpus run (the
# held-out corpus, experiments/heldout.ini), the distribution of each shape's
# % of cuBLAS at the same precision (heldout.tsv, the view corpus-cdf), in two
# panels side by side:
#   left   FP32 (precision fp32), against cublas_fp32;
#   right  TF32 (precision tf32), against cublas_tf32 (an FP32 rung may be the
#          fastest there: a call that allows TF32 may get FP32's result).
# x: % of cuBLAS (pct_ref), on a log axis; y: the share of shapes at or below
# it (share), as steps.  Two series a panel: the fastest hand-written rung at
# each shape (series best, solid) and the dispatch row, one entry point that
# picks a rung per shape (series dispatch, dashed).  Where the same corpus was
# run on a second GPU (heldout2.tsv, run heldout2), its two series are drawn
# in the same panels in blue, the first GPU's in black and orange.  Guides at
# 90 and at cuBLAS = 100, named above the panel (below, the curves pass
# through their names); the corner names the runs.  Each panel names its
# precision and its count of shapes in its top left corner, which the curves
# (rising to the right) leave empty; one key for both panels, below them, off
# the curves.  A run without one precision draws the other alone.
if (!exists("me")) {
    _d = ARG0[1:strstrt(ARG0, "14_heldout.gp") - 1]
    load _d."style.gp"
}
eval need("heldout")
f = table("heldout")
TWO = has_run("heldout2")
if (TWO) { eval need("heldout2") }
g = table(TWO ? "heldout2" : "heldout")
G1 = gpu_short(run_gpu("heldout"))
G2 = gpu_short(run_gpu("heldout2"))

PNAME = "FP32 TF32"
PANELS = ""
do for [p = 1:2] {
    stats f using (strcol("precision") eq (p == 1 ? "fp32" : "tf32") ? column("share") : NaN) nooutput
    if (STATS_records > 0) { PANELS = PANELS.sprintf(" %d", p) }
}
NP = words(PANELS)
if (NP == 0) { eval skip("no fp32 or tf32 rows in ".f) }

# the x range: the data's (both runs'), with 90 and 100 inside, and a little room
stats f using (column("pct_ref") > 0 ? column("pct_ref") : NaN) nooutput
if (STATS_records == 0) { eval stop("no finite pct_ref in ".f) }
pmin = STATS_min < 90 ? STATS_min : 90
pmax = STATS_max > 100 ? STATS_max : 100
if (TWO) {
    stats g using (column("pct_ref") > 0 ? column("pct_ref") : NaN) nooutput
    if (STATS_records == 0) { eval stop("no finite pct_ref in ".g) }
    pmin = STATS_min < pmin ? STATS_min : pmin
    pmax = STATS_max > pmax ? STATS_max : pmax
}
xlo = pmin / 1.15
xhi = pmax * 1.15
array NS[2]
do for [p = 1:2] {
    stats f using (strcol("precision") eq (p == 1 ? "fp32" : "tf32") && strcol("series") eq "best" ? column("rank") : NaN) nooutput
    NS[p] = STATS_records > 0 ? int(STATS_max) : 0
}

H = 3.25
X0 = 0.08
X1 = 0.98
GAP = 0.07
PW = (X1 - X0 - (NP - 1) * GAP) / NP
pleft(i) = X0 + (i - 1) * (PW + GAP)
YT = 1 - 0.75 / H
YB = 0.86 / H
KEYY = 0.33 / H

sub = "solid: the fastest hand-written rung at each shape;   dashed: dispatch, one entry point that picks a rung per shape"
CORNER = TWO ? sprintf("held-out corpus: %s;  %s", run_label("heldout"), run_label("heldout2")) \
             : sprintf("held-out corpus: %s", run_label("heldout"))
labels = 'eval headline("Shapes nobody tuned for: the share of shapes at or below each % of cuBLAS", sub); eval corner(CORNER)'
guides = 'set arrow 1 from first 100, graph 0 to first 100, graph 1 nohead lc rgb "#000000" lw 1.4 back; set arrow 2 from first 90, graph 0 to first 90, graph 1 nohead lc rgb "#A0A0A0" lw 0.8 dt (4, 3) back; set label 1 "cuBLAS" at first 100, graph 1 left offset char 0.3, char 0.5 front font FONT_TINY; set label 2 "90" at first 90, graph 1 right offset char -0.3, char 0.5 front font FONT_TINY textcolor rgb GUIDE'
here(p, s) = strcol("precision") eq (p == 1 ? "fp32" : "tf32") && strcol("series") eq s

set logscale x 10
set xrange [xlo : xhi]
set yrange [0 : 1]
set xtics () font FONT_SMALL
do for [e = int(floor(log10(xlo) + 1e-9)) : int(ceil(log10(xhi)))] {
    do for [m in "1 2 5"] {
        v = int(m) * 10.0**e
        if (v >= xlo && v <= xhi) { set xtics add (sprintf("%g", v) v) }
    }
}
set mxtics 10
set ytics 0.25 font FONT_SMALL
set grid xtics ytics nomxtics
set xlabel "% of cuBLAS at the same precision" font FONT_SMALL

do for [fmt in formats] {
    eval term(fmt)
    set output outfile(fmt)
    set multiplot
    eval labels
    set tmargin at screen YT
    set bmargin at screen YB
    do for [i = 1:NP] {
        p = int(word(PANELS, i))
        set lmargin at screen pleft(i)
        set rmargin at screen pleft(i) + PW
        set ylabel (i == 1 ? "share of shapes" : "") offset 1, 0
        set format y (i == 1 ? "%g" : "")
        eval guides
        set label 3 sprintf("%s\n%d shapes", word(PNAME, p), NS[p]) at graph 0.03, graph 0.9 left front font FONT_SMALL
        # the key, below the panels: drawn by the first, the others none
        if (i == 1) {
            set key at screen 0.5, screen KEYY center top vertical maxrows 1 Left reverse noopaque nobox \
                width 1 samplen 2.2 spacing 1.0 font FONT_SMALL
        } else { set key off }
        plot f using (here(p, "best") ? column("pct_ref") : NaN):(column("share")) \
                 with steps lc rgb "#202020" lw 1.8 title (TWO ? "fastest rung, ".G1 : "fastest rung"), \
             f using (here(p, "dispatch") ? column("pct_ref") : NaN):(column("share")) \
                 with steps lc rgb "#D95F02" lw 1.6 dt (6, 3) title (TWO ? "dispatch, ".G1 : "dispatch"), \
             for [t = 1:TWO] g using (here(p, "best") ? column("pct_ref") : NaN):(column("share")) \
                 with steps lc rgb "#1F78B4" lw 1.4 title "fastest rung, ".G2, \
             for [t = 1:TWO] g using (here(p, "dispatch") ? column("pct_ref") : NaN):(column("share")) \
                 with steps lc rgb "#6BAED6" lw 1.3 dt (6, 3) title "dispatch, ".G2
        unset arrow
        unset label
    }
    unset multiplot
    set output
}
