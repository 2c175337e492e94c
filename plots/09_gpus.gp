# 09_gpus.gp -- figure 9, two GPUs: the ratio of each rung's best GFLOP/s on
# the other run's GPU to the primary run's (gpus.tsv, ratio = other / primary),
# at each square size n (rows with n > 0, no host memory).  One column of points
# per rung, the ladder left to right (its name below); in it, the sizes from
# the smallest (left) to the largest (right), joined.  A line at 1 (the same
# speed) and a band of ±10 %; GPU points outside the band are labelled with
# their size (left of the point in the last rung's column, to stay inside the
# plot).  Colour and point: the rung (rungs.tsv).
#
# The host rungs (device host) measure the two machines' CPUs, not their GPUs:
# they get a narrow panel of their own, with its own scale, left of the GPU
# rungs (ladder order), so that they do not set the GPU panel's range.
#
# inputs (gnuplot -e): datadir, out (style.gp)
#                      band  (optional) the band's half-width, a fraction, 0.10
# The corner names both runs (runs.tsv roles other and primary).
# Stops with an error naming the table when gpus.tsv (or rungs.tsv, runs.tsv)
# is missing or empty, or has no square size.
if (!exists("STYLE_LOADED")) {
    _d = ""
    do for [_i = 1:strlen(ARG0)] { if (ARG0[_i:_i] eq "/") { _d = ARG0[1:_i] } }
    load _d."style.gp"
}
if (!exists("band")) { band = 0.10 }
eval need("gpus")
TBL = "gpus"
f = table(TBL)
chosen(x) = strcol("host_memory") eq "-" && column("n") > 0
dev(x) = strcol("device") eq "host" ? 2 : 1

# per panel d (1: GPU rungs, 2: host rungs): the rungs, the shapes (by
# shape_rank) and the range of the ratio
array PRESENT[2 * NRUNG]
do for [k = 1:2 * NRUNG] { PRESENT[k] = 0 }
array SR[2000]
array NSR[2]
NSR[1] = 0
NSR[2] = 0
sr_i(d, r) = sum [_j = 1:NSR[d]] (SR[(d - 1) * 1000 + _j] == r ? _j : 0)
add_sr(d, r) = sr_i(d, r) > 0 ? 0 : (NSR[d] = NSR[d] + 1, SR[(d - 1) * 1000 + NSR[d]] = r, 0)
stats f using (chosen(0) ? (PRESENT[(dev(0) - 1) * NRUNG + int(column("number"))] = 1, \
                            add_sr(dev(0), int(column("shape_rank")))) : 0, 0) nooutput
if (NSR[1] + NSR[2] == 0) { eval stop("no row at a square size (n > 0) in ".f) }
array RLO[2]
array RHI[2]
# (accumulated here, not with stats' STATS_min: a panel may have no row)
do for [d = 1:2] {
    RLO[d] = 1 - band
    RHI[d] = 1 + band
}
stats f using (chosen(0) ? (_d = dev(0), _r = column("ratio"), \
                            RLO[_d] = _r < RLO[_d] ? _r : RLO[_d], RHI[_d] = _r > RHI[_d] ? _r : RHI[_d]) : 0, 0) nooutput
LIST1 = ""
LIST2 = ""
do for [k = 1:NRUNG] {
    if (PRESENT[k]) { LIST1 = LIST1.sprintf(" %d", k) }
    if (PRESENT[NRUNG + k]) { LIST2 = LIST2.sprintf(" %d", k) }
}
list(d) = d == 1 ? LIST1 : LIST2
slot(d, k) = sum [_j = 1:words(list(d))] (int(word(list(d), _j)) == k ? _j : 0)
sr_pos(d, r) = 1 + sum [_j = 1:NSR[d]] (SR[(d - 1) * 1000 + _j] < r ? 1 : 0)
SLOTW = 0.78
bx(d, k, r) = slot(d, k) + (NSR[d] > 1 ? (sr_pos(d, r) - (NSR[d] + 1) / 2.0) * SLOTW / NSR[d] : 0)
K = 'int(column("number"))'
R = 'int(column("shape_rank"))'
outside(x) = column("ratio") > 1 + band || column("ratio") < 1 - band

# the GPUs' short names: "NVIDIA H100 80GB HBM3" -> "H100"
OG = gpu_short(run_gpu("other"))
PG = gpu_short(run_gpu("primary"))
if (OG eq PG) { OG = run_gpu("other"); PG = run_gpu("primary") }

H = 3.7
NG = words(LIST1)
NH = words(LIST2)
# geometry: the host panel (if any), then the GPU panel, widths by their rungs
X0 = 0.1
X1 = 0.99
GAP = NH > 0 ? 0.085 : 0
HW = NH > 0 ? NH + 0.8 : 0
UNIT = (X1 - X0 - GAP) / (NG + HW)
YB = 1.25 / H
YT = 1 - 0.92 / H
labels = 'eval headline(sprintf("Two GPUs: each rung''s best GFLOP/s on %s over %s, at each size n", OG, PG), sprintf("in each rung, n from small to large, left to right;  band: ±%g %%;  GPU points outside it labelled with n", 100 * band)); eval corner(sprintf("%s, %s   over   %s, %s", run_gpu("other"), run_date("other"), run_gpu("primary"), run_date("primary")))'

do for [fmt in formats] {
    eval term(fmt)
    set output outfile(fmt)
    set multiplot
    eval labels
    set key off
    do for [d = 2:1:-1] {
        N = d == 1 ? NG : NH
        if (N > 0) {
            L = list(d)
            left = d == 2 ? X0 : X0 + HW * UNIT + GAP
            set lmargin at screen left
            set rmargin at screen left + (d == 1 ? NG : HW) * UNIT
            set bmargin at screen YB
            set tmargin at screen YT
            set xrange [0.4 : N + (d == 2 ? 0.8 : 0.6)]
            set xtics () scale 0 rotate by 35 right font FONT_SMALL noenhanced
            do for [i = 1:N] { set xtics add (R_TITLE[int(word(L, i))] i) }
            set grid noxtics ytics
            pad = 0.08 * (RHI[d] - RLO[d])
            set yrange [RLO[d] - pad : RHI[d] + pad]
            set format y "%.2f"
            set ylabel ((d == 2 || NH == 0) ? sprintf("GFLOP/s on %s / on %s", OG, PG) : "") noenhanced
            set title (d == 1 ? "GPU rungs" : "host rungs\n(own scale)") offset 0, (d == 1 ? -0.7 : -0.3)
            set object 1 rectangle from graph 0, first 1 - band to graph 1, first 1 + band behind fc rgb BAND fs solid 1 noborder
            set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead lc rgb GUIDE lw 1 back
            do for [i = 1:N - 1] { eval sprintf("set arrow %d from %g, graph 0 to %g, graph 1 nohead lc rgb '#DDDDDD' lw 0.8 back", 10 + i, i + 0.5, i + 0.5) }
            plot for [w in L] f using (chosen(0) && dev(0) == d && @K == int(w) ? bx(d, int(w), @R) : NaN):(column("ratio")) \
                     with linespoints lt int(w) lw 1.2 ps 0.7 notitle, \
                 f using (chosen(0) && d == 1 && dev(0) == d && outside(0) && bx(d, @K, @R) < N - 0.5 ? bx(d, @K, @R) : NaN):(column("ratio")):(strcol("shape")) \
                     with labels left offset char 0.6, 0 font FONT_TINY notitle, \
                 f using (chosen(0) && d == 1 && dev(0) == d && outside(0) && bx(d, @K, @R) >= N - 0.5 ? bx(d, @K, @R) : NaN):(column("ratio")):(strcol("shape")) \
                     with labels right offset char -0.6, 0 font FONT_TINY notitle
            unset arrow
            unset object 1
            unset label
        }
    }
    unset multiplot
    set output
}
