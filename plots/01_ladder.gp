# 01_ladder.gp -- figure 1, the ladder: GFLOP/s against n for every rung at
# square sizes n = M = N = K, each point the rung's best tile width / WPT / -O
# level at that n; cuBLAS FP32 (solid) and TF32 (dashed) as the reference
# lines, and the GPU's FP32 peak as a horizontal line.  The tensor-core rungs
# (13 tf32_mma_sync, 14 tf32_wgmma_tma) and cuBLAS TF32 compute in TF32: they
# are dashed, their key entries say "(TF32)", and the headline says so when
# the table has any of them.
#
# inputs (gnuplot -e): datadir  folder holding ladder.tsv (scripts/figures.sh)
#                      out      output path without extension (.pdf, .png)
#                      gpu, date  the run, for the corner label
#                      peak     FP32 peak, GFLOP/s (attribute gpu_fp32_peak_gflops);
#                               required when the table has GPU rows
# Stops with an error naming the file when ladder.tsv is missing or empty.
if (!exists("plotdir")) plotdir = system("dirname '".ARG0."'")
load plotdir."/style.gp"
me = "01_ladder"
if (!exists("datadir") || !exists("out")) exit error fail("set datadir and out with gnuplot -e")
f = datadir."/ladder.tsv"
msg = problem(f)
if (msg ne "") exit error fail(msg)

# rows per rung (0: the rung was not run; it gets no key entry)
nrows(r) = int(system(sprintf("awk -F'\t' '$1 == \"%s\" { n++ } END { print n + 0 }' '%s'", r, f)))
ngpu = 0
do for [r in GPU_RUNGS] { ngpu = ngpu + nrows(r) }
ntf32 = 0
do for [r in TF32_RUNGS] { ntf32 = ntf32 + nrows(r) }
has_peak = exists("peak") ? (peak > 0) : 0
if (ngpu > 0 && !has_peak) exit error fail(need_num("peak"))

stats f using 2 nooutput
nmin = STATS_min
nmax = STATS_max
stats f using 3 nooutput
gmin = has_peak ? (STATS_min < peak ? STATS_min : peak) : STATS_min
gmax = has_peak ? (STATS_max > peak ? STATS_max : peak) : STATS_max

set logscale x 2
set logscale y 10
set xrange [nmin / 1.25 : nmax * 1.25]
set yrange [10**floor(log10(gmin)) : 10**ceil(log10(gmax * 1.5))]
set format y LOGFMT
eval "set xtics (".xtics_at(f, 2, "").")"
set mxtics 1
set xlabel "matrix size n   (C = A·B, all three matrices n × n)"
set ylabel "GFLOP/s   (2n^3 / median time)"
eval headline("The ladder: GFLOP/s of each rung against matrix size, FP32".(ntf32 > 0 ? " and TF32 (dashed)" : ""), \
              "each point is the rung's best tile width, work per thread and -O level at that n; dotted: the GPU's FP32 peak")
# one key column for all 16 rungs: a taller page than style.gp's default, and
# a key line no taller than its font
H = 4.4
set key outside right center vertical maxcols 1 width -2 spacing 1.0 font FONT_SMALL

if (has_peak) {
    set arrow 1 from graph 0, first peak to graph 1, first peak nohead lt 20 lw 2 front
    set label 1 sprintf("FP32 peak %.1f TFLOP/s", peak / 1000.0) at graph 0.02, first peak left offset 0, char 0.9 front font FONT_SMALL textcolor rgb "#404040"
}

eval corner(gpu.", ".date)
do for [fmt in formats] {
    eval term(fmt)
    set output outfile(fmt)
    plot for [r in RUNGS] f using (strcol(1) eq r ? $2 : NaN):3 \
        with linespoints lt rung(r) title (nrows(r) > 0 ? rung_title(r) : "")
    set output
}
