# 06_roofline.gp -- figure 6, the roofline: every FP32 GPU configuration
# (configs.tsv) at the run's largest square size n, its GFLOP/s against its
# arithmetic intensity, under the run's ceilings (runs.tsv, role primary): the
# FP32 peak (peak_gflops) and the copy bandwidth measured in this run
# (copy_gbs) times the intensity; the roof's label says whose measurement it
# is, since every run measures its own (figure 15 draws the held-out run's).
#
# The intensity is the table's: the global-load model of each configuration
# (intensity: FLOP per byte of A and B read from global memory, harness/views/derive.h);
# the compulsory intensity of the shape (each matrix moved once:
# compulsory_intensity) is a dotted vertical guide.  The model counts loads
# issued, not DRAM bytes: a point above the bandwidth roof has its loads served
# by L1/L2.  Filled: each rung's best configuration there (best = 1); open: its
# others.  Points of rungs that share an intensity are spread sideways a little
# (22 per cent apart, in ladder order, around the true value: a filled point's
# width, so that 10-12, which share one intensity and lie within 12 per cent of
# each other in GFLOP/s, stand side by side) so that none hides another.
#
# Left out: the TF32 rungs (precision tf32) compute on tensor cores under
# another roof; the references (is_reference = 1, no intensity: a library) are
# drawn as horizontal lines at their GFLOP/s.  The key is below the plot.
#
# inputs (gnuplot -e): datadir, out (style.gp)
# Stops with an error naming the table when configs.tsv (or rungs.tsv,
# runs.tsv) is missing or empty, has no FP32 GPU row with an intensity, or
# runs.tsv has no peak or bandwidth for the primary run.
if (!exists("STYLE_LOADED")) {
    _d = ""
    do for [_i = 1:strlen(ARG0)] { if (ARG0[_i:_i] eq "/") { _d = ARG0[1:_i] } }
    load _d."style.gp"
}
eval need("configs")
f = table("configs")
peak = run_peak("primary")
bw = run_bw("primary")
if (!(peak > 0) || !(bw > 0)) { eval stop("no peak_gflops or copy_gbs for the primary run in ".table("runs")) }

# the size: the largest square n of a GPU row (accumulated here, not with
# stats' STATS_max: there may be no such row)
nbig = 0
stats f using (strcol("device") eq "gpu" && column("n") > nbig ? nbig = column("n") : 0, 0) nooutput
if (nbig == 0) { eval stop("no GPU row at a square size (device gpu, n > 0) in ".f) }
fp32gpu(x) = strcol("device") eq "gpu" && strcol("precision") eq "fp32" && column("n") == nbig
modelled(x) = fp32gpu(0) && column("intensity") > 0
# the rungs drawn (points; lines for references)
array PRESENT[NRUNG]
do for [k = 1:NRUNG] { PRESENT[k] = 0 }
nmod = 0
stats f using (fp32gpu(0) && (R_ISREF[int(column("number"))] || column("intensity") > 0) ? PRESENT[int(column("number"))] = 1 : 0, \
               nmod = nmod + (modelled(0) ? 1 : 0), 0) nooutput
if (nmod == 0) { eval stop(sprintf("no FP32 GPU row with an intensity at n = %d in %s", nbig, f)) }
stats f using (modelled(0) ? column("intensity") : NaN):(modelled(0) ? column("gflops") : NaN) nooutput
imin = STATS_min_x
gmin = STATS_min_y
stats f using (modelled(0) ? column("compulsory_intensity") : NaN) nooutput
compulsory = STATS_max

# sideways spread: the rungs that have a point at the same intensity, spread
# around it in ladder order, SPREAD apart
array PI[1000]
array PR[1000]
NPAIR = 0
pair_i(i, k) = sum [_j = 1:NPAIR] (PI[_j] == i && PR[_j] == k ? _j : 0)
add_pair(i, k) = pair_i(i, k) > 0 ? 0 : (NPAIR = NPAIR + 1, PI[NPAIR] = i, PR[NPAIR] = k, 0)
stats f using (modelled(0) ? add_pair(column("intensity"), int(column("number"))) : 0, 0) nooutput
SPREAD = 1.22
before(i, k) = sum [_j = 1:NPAIR] (PI[_j] == i && PR[_j] < k ? 1 : 0)
sharing(i) = sum [_j = 1:NPAIR] (PI[_j] == i ? 1 : 0)
spread(i, k) = SPREAD**(before(i, k) - (sharing(i) - 1) / 2.0)
MOD = ""
REFS = ""
do for [k = 1:NRUNG] {
    if (PRESENT[k] && !R_ISREF[k]) { MOD = MOD.sprintf(" %d", k) }
    if (PRESENT[k] && R_ISREF[k]) { REFS = REFS.sprintf(" %d", k) }
}
NMOD = words(MOD)
roof(x) = bw * x < peak ? bw * x : peak

xlo = 10**floor(log10(imin / 2))
xhi = compulsory * 2.5
ylo = 10**floor(log10((gmin < roof(xlo) ? gmin : roof(xlo)) / 1.5))
set logscale xy 10
set xrange [xlo : xhi]
set yrange [ylo : peak * 3]
set format x "%g"
set format y LOGFMT
set mytics 10
set xlabel "arithmetic intensity, the load model   (FLOP per byte of A and B loaded from global memory)"
set ylabel "GFLOP/s"
set lmargin 8
eval headline(sprintf("Roofline: every FP32 GPU configuration at n = %d under the GPU's ceilings", nbig), \
              "filled: each rung's best configuration; open: its others (spread sideways a little by rung);  TF32 rungs left out")
eval corner(run_label("primary"))
NKEY = NMOD + words(REFS)
KEYROWS = int((NKEY + 2) / 3)
H = 3.3 + 0.19 * KEYROWS
KEYH = (0.19 * KEYROWS + 0.12) / H
set bmargin at screen KEYH + 0.62 / H
set tmargin at screen 1 - 0.62 / H
set key at screen 0.5, screen KEYH center top vertical maxrows KEYROWS Left reverse noopaque nobox width 1 samplen 2.5 spacing 1.3 font FONT_SMALL
# (the peak's label ends left of the compulsory intensity's dotted line)
set label 1 sprintf("FP32 peak %.1f TFLOP/s", peak / 1000.0) at compulsory / 1.15, peak right offset 0, char 0.95 front font FONT_SMALL textcolor rgb "#202020"
set label 2 sprintf("copy bandwidth measured in this run: %s GB/s × intensity", grouped(bw)) at xlo * 1.5, roof(xlo * 1.5) left offset char 0.5, char -0.5 front font FONT_SMALL textcolor rgb "#202020"
set arrow 3 from compulsory, graph 0 to compulsory, graph 1 nohead lc rgb GUIDE lw 1.5 dt (2, 3) back
set label 3 sprintf("compulsory intensity at n = %d:\neach matrix moved once, %s FLOP/B", nbig, grouped(compulsory)) \
    at compulsory, graph 0.13 right offset char -0.6, 0 front font FONT_TINY textcolor rgb GUIDE
set label 4 "above the bandwidth roof:\nloads served by L1/L2" at xlo * 1.3, peak / 3 left front font FONT_TINY textcolor rgb GUIDE
# the references' lines, labelled where they start
do for [w in REFS] {
    stats f using (fp32gpu(0) && int(column("number")) == int(w) ? column("gflops") : NaN) nooutput
    eval sprintf("set label %d \"%s: a library, no load model\" at xlo * 1.3, %g left offset 0, char 0.6 front font FONT_TINY noenhanced", 10 + int(w), R_TITLE[int(w)], STATS_max)
}
set samples 400
K = 'int(column("number"))'

do for [fmt in formats] {
    eval term(fmt)
    set output outfile(fmt)
    plot roof(x) with lines lc rgb "#404040" lw 3 notitle, \
         for [w in MOD] f using (modelled(0) && @K == int(w) && column("best") == 0 ? column("intensity") * spread(column("intensity"), int(w)) : NaN):(column("gflops")) \
             with points lt int(w) pt pt_open(int(w)) ps 1.1 lw 1.5 notitle, \
         for [w in MOD] f using (modelled(0) && @K == int(w) && column("best") == 1 ? column("intensity") * spread(column("intensity"), int(w)) : NaN):(column("gflops")) \
             with points lt int(w) pt R_PT[int(w)] ps 1.25 title R_TITLE[int(w)], \
         for [w in REFS] f using (fp32gpu(0) && @K == int(w) ? xlo : NaN):(column("gflops")):(xhi - xlo):(0) \
             with vectors nohead lt int(w) title R_TITLE[int(w)]
    set output
}
