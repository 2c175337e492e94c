# 15_heldout_roofline.gp -- figure 15, the held-out corpus on the roofline: each
# shape of a corpus run (heldout_corpus.tsv, the view corpus) at its intensity
# (FLOP per byte of A and B read and C written once: the least any kernel must
# move), the fastest hand-written rung's GFLOP/s there (best_gflops, filled,
# coloured by the shape's class) and cuBLAS's at the same precision
# (ref_gflops, small open grey), in two panels side by side:
#   left   FP32 (precision fp32), under the FP32 peak and the copy roof;
#   right  TF32 (precision tf32), under the copy roof (the run records no TF32
#          peak, so none is drawn).
# The copy roof is the run's measured copy bandwidth (runs.tsv, role heldout:
# copy_gbs) times the intensity: a shape left of where it meets the peak is
# memory-bound, and a point above it had bytes served by L2 (a product whose
# operands fit there, run again and again).  The roof's label says the
# bandwidth is this run's own measurement (each run measures its own, and the
# paper run's, in figure 6, differs in the last digits).  cuBLAS's open rings
# are drawn last, over the filled points, so that none is hidden.  Each panel
# names its precision in its top left corner, above the copy roof where no
# point can be; one key for both panels, below them, off the points.  A run
# without one precision draws the other alone.
#
# inputs (gnuplot -e): datadir, out (style.gp)
if (!exists("me")) {
    _d = ARG0[1:strstrt(ARG0, "15_heldout_roofline.gp") - 1]
    load _d."style.gp"
}
eval need("heldout_corpus")
f = table("heldout_corpus")
peak = run_peak("heldout")
bw = run_bw("heldout")
if (!(bw > 0)) { eval stop("no copy_gbs for the heldout run in ".table("runs")) }

PNAME = "FP32 TF32"
PANELS = ""
do for [p = 1:2] {
    stats f using (strcol("precision") eq (p == 1 ? "fp32" : "tf32") ? column("intensity") : NaN) nooutput
    if (STATS_records > 0) { PANELS = PANELS.sprintf(" %d", p) }
}
NP = words(PANELS)
if (NP == 0) { eval skip("no fp32 or tf32 rows in ".f) }

# the ranges: every point's, and the roofs' corner, with room
stats f using (column("intensity") > 0 ? column("intensity") : NaN) nooutput
if (STATS_records == 0) { eval stop("no positive intensity in ".f) }
xlo = 10**floor(log10(STATS_min))
xhi = 10**ceil(log10(STATS_max))
stats f using (column("best_gflops") > 0 ? column("best_gflops") : NaN):(column("ref_gflops") > 0 ? column("ref_gflops") : NaN) nooutput
gmin = STATS_min_x < STATS_min_y ? STATS_min_x : STATS_min_y
gmax = STATS_max_x > STATS_max_y ? STATS_max_x : STATS_max_y
ylo = 10**floor(log10(gmin))
yhi = 10**ceil(log10((peak > gmax ? peak : gmax) * 1.5))

CLASSES = "gemv short_k few rest"
ctitle(c) = c == 1 ? "GEMV-like" : c == 2 ? "short K" : c == 3 ? "few rows or columns" : "the rest"
CCOLOR = "#1B9E77 #D95F02 #7570B3 #202020"
CPT = "7 5 9 13"

H = 3.6
X0 = 0.09
X1 = 0.965
GAP = 0.07
PW = (X1 - X0 - (NP - 1) * GAP) / NP
pleft(i) = X0 + (i - 1) * (PW + GAP)
YT = 1 - 0.75 / H
YB = 1.0 / H
KEYY = 0.47 / H

here(p) = strcol("precision") eq (p == 1 ? "fp32" : "tf32")
roof(x, p) = p == 1 && peak > 0 && bw * x > peak ? peak : bw * x
sub = "filled: the fastest hand-written rung at each shape, by class;   open grey: cuBLAS at that precision;   line: the roofs"

set logscale xy 10
set xrange [xlo : xhi]
set yrange [ylo : yhi]
set format x "%g"
set format y LOGFMT
set mxtics 10
set mytics 10
set grid xtics ytics nomxtics nomytics
set xlabel "FLOP per byte of A, B and C moved once" font FONT_SMALL
set samples 400

do for [fmt in formats] {
    eval term(fmt)
    set output outfile(fmt)
    set multiplot
    eval headline("The held-out corpus on the roofline: each shape's GFLOP/s against the bytes it must move", sub)
    eval corner(sprintf("held-out corpus: %s", run_label("heldout")))
    set tmargin at screen YT
    set bmargin at screen YB
    do for [i = 1:NP] {
        p = int(word(PANELS, i))
        set lmargin at screen pleft(i)
        set rmargin at screen pleft(i) + PW
        set ylabel (i == 1 ? "GFLOP/s" : "") offset 0, 0
        set label 1 sprintf("copy bandwidth measured in this run:\n%s GB/s × intensity", grouped(bw)) \
            at xlo * 1.3, bw * xlo * 1.3 left rotate by 33 offset char -0.6, char 2.0 front font FONT_TINY textcolor rgb GUIDE
        if (p == 1 && peak > 0) {
            set label 2 sprintf("FP32 peak %.1f TFLOP/s", peak / 1000.0) at xhi / 1.3, peak right \
                offset 0, char 0.6 front font FONT_TINY textcolor rgb GUIDE
        }
        set label 3 word(PNAME, p) at graph 0.03, graph 0.93 left front font FONT_SMALL
        # the key, below the panels: drawn by the first, the others none
        if (i == 1) {
            set key at screen 0.5, screen KEYY center top vertical maxrows 2 Left reverse noopaque nobox \
                width 0 samplen 1 spacing 1.0 font FONT_SMALL
        } else { set key off }
        plot roof(x, p) with lines lc rgb "#404040" lw 2 notitle, \
             for [c = 1:4] f using (here(p) && strcol("class") eq word(CLASSES, c) ? column("intensity") : NaN):(column("best_gflops")) \
                 with points pt int(word(CPT, c)) ps 0.55 lc rgb word(CCOLOR, c) title ctitle(c), \
             f using (here(p) ? column("intensity") : NaN):(column("ref_gflops")) \
                 with points pt 6 ps 0.55 lw 1 lc rgb "#808080" title "cuBLAS"
        unset label
    }
    unset multiplot
    set output
}
