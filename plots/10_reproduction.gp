# 10_reproduction.gp -- figure 10, reproduction: a new run divided by the
# reference run, each rung's best GFLOP/s at each square size, with a band
# for the tolerance (±tol).  Drawn only when a new run is given
# (scripts/figures.sh -r REFERENCE.h5: the primary run is the new one).
#
# inputs (gnuplot -e): datadir  folder holding repro.tsv (scripts/figures.sh)
#                      out      output path without extension (.pdf, .png)
#                      gpu, date      the new run
#                      r_gpu, r_date  the reference run
#                      tol      (optional) the band's half-width, a fraction; default 0.10
# Stops with an error naming the file when repro.tsv is missing or empty (it
# is empty when the two runs share no rung at any square size).
if (!exists("plotdir")) plotdir = system("dirname '".ARG0."'")
load plotdir."/style.gp"
me = "10_reproduction"
if (!exists("datadir") || !exists("out")) exit error fail("set datadir and out with gnuplot -e")
if (!exists("tol")) tol = 0.10
if (!(tol > 0 && tol < 1)) exit error fail(sprintf("tol must be a fraction in (0, 1), got %g", tol))
if (!exists("r_gpu")) r_gpu = "reference GPU"
if (!exists("r_date")) r_date = "unknown date"
f = datadir."/repro.tsv"
msg = problem(f)
if (msg ne "") exit error fail(msg)

R = system(sprintf("awk -F'\t' '!/^#/ && NF && !($1 in s) { s[$1] = 1; printf \"%%s \", $1 }' '%s'", f))
# points outside the band, for the headline
nout = int(system(sprintf("awk -F'\t' -v t=%g '!/^#/ && NF && ($5 > 1 + t || $5 < 1 - t) { k++ } END { print k + 0 }' '%s'", tol, f)))
npts = datarows(f)

stats f using 2 nooutput
nmin = STATS_min
nmax = STATS_max
stats f using 5 nooutput
rlo = STATS_min < 1 - tol ? STATS_min : 1 - tol
rhi = STATS_max > 1 + tol ? STATS_max : 1 + tol

set logscale x 2
set xrange [nmin / 1.25 : nmax * 1.25]
eval "set xtics (".xtics_at(f, 2, "").")"
set mxtics 1
set yrange [rlo - 0.15 * (rhi - rlo) : rhi + 0.15 * (rhi - rlo)]
set format y "%.2f"
set xlabel "matrix size n   (n × n × n)"
set ylabel "GFLOP/s, new run / reference run"
eval headline(sprintf("Reproduction: the new run against the reference, best GFLOP/s per rung and size"), \
              sprintf("grey band: ±%g %% of the reference; %d of %d points outside it", 100 * tol, nout, npts))
# one key column for up to 16 rungs, as in figure 1
H = 4.4
set key outside right center vertical maxcols 1 width -2 spacing 1.0 font FONT_SMALL
eval corner("new: ".gpu.", ".date."   reference: ".r_gpu.", ".r_date)

do for [fmt in formats] {
    eval term(fmt)
    set output outfile(fmt)
    plot '+' using 1:(1 - tol):(1 + tol) with filledcurves fc rgb "#E4E4E4" fs solid 1 noborder notitle, \
         1 with lines lt 21 lc rgb "#606060" lw 1 notitle, \
         for [r in R] f using (strcol(1) eq r ? $2 : NaN):5 with linespoints lt rung(r) title rung_title(r)
    set output
}
