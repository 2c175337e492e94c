# 06_roofline.gp -- figure 6, the roofline: achieved GFLOP/s of each GPU
# configuration at the largest square size against its arithmetic intensity,
# under the GPU's ceilings: the FP32 peak (attribute gpu_fp32_peak_gflops) and
# the measured device copy bandwidth (gpu_copy_bandwidth_gbs) times the
# intensity.
#
# Arithmetic intensity (FLOP per byte of global-memory traffic), from the
# kernels' global loads and stores, 4-byte floats, 2 FLOP per multiply-add:
#   gpu_naive          each output loads a row of A and a column of B, 2K
#                      floats, for 2K FLOP: 2 / (2 * 4) = 0.25
#   gpu_naive_global   as gpu_naive plus one store of C per k step (the
#                      kernel stores its running sum every step): 2 / (3 * 4) = 1/6
#   gpu_tiled, gpu_tiled_unrolled, gpu_tiled_wpt, and the block-tiled rungs 08-12
#   (gpu_regblock, gpu_vectorized, gpu_double_buffered, gpu_warptiled,
#   gpu_async_copy: a BT x BT tile of C loads BT rows of A and BT columns of B,
#   BT/4 FLOP/B, BT their tile; gpu_async_copy's tile 256 is 128 rows x 256
#   columns: 128*256 / (2 * (128 + 256)) = 42.7 FLOP/B)
#                      per TS x TS tile of C: TS*K + K*TS loads for 2*TS*TS*K
#                      FLOP, TS times fewer loads: 0.25 * TS.  WPT changes the
#                      reuse in registers and shared memory, not global traffic.
#   cublas_fp32        not modelled: its achieved GFLOP/s is drawn as a line
#   tf32_mma_sync, tf32_wgmma_tma, cublas_tf32
#                      left out: they compute in TF32 on the tensor cores, a
#                      different precision, not under the FP32 roof (no point,
#                      no key entry)
# The intensity counts loads and stores issued, not DRAM bytes: a point above
# the bandwidth roof is being served from L1/L2.
#
# inputs (gnuplot -e): datadir  folder holding roofline.tsv (scripts/figures.sh)
#                      out      output path without extension (.pdf, .png)
#                      gpu, date  the run, for the corner label
#                      peak     FP32 peak, GFLOP/s
#                      bw       measured device copy bandwidth, GB/s
# Stops with an error naming the file when roofline.tsv is missing or empty,
# or naming the variable when peak or bw is not given.
if (!exists("plotdir")) plotdir = system("dirname '".ARG0."'")
load plotdir."/style.gp"
me = "06_roofline"
if (!exists("datadir") || !exists("out")) exit error fail("set datadir and out with gnuplot -e")
f = datadir."/roofline.tsv"
msg = problem(f)
if (msg ne "") exit error fail(msg)
msg = need_num("peak")
if (msg ne "") exit error fail(msg." (attribute gpu_fp32_peak_gflops)")
msg = need_num("bw")
if (msg ne "") exit error fail(msg." (attribute gpu_copy_bandwidth_gbs)")

ai(r, ts) = r eq "gpu_naive_global" ? 1.0 / 6 : r eq "gpu_naive" ? 0.25 : \
            (r eq "gpu_tiled" || r eq "gpu_tiled_unrolled" || r eq "gpu_tiled_wpt" || \
             r eq "gpu_regblock" || r eq "gpu_vectorized" || r eq "gpu_double_buffered" || \
             r eq "gpu_warptiled" || r eq "gpu_async_copy") && ts > 0 ? \
            (r eq "gpu_async_copy" && ts == 256 ? 128.0 * 256 / (2 * (128 + 256)) : 0.25 * ts) : NaN
roof(x) = bw * x < peak ? bw * x : peak
ridge = peak / bw
# cuBLAS FP32's achieved GFLOP/s (0 when absent)
cublas = real(system(sprintf("awk -F'\t' '$1 == \"cublas_fp32\" && $6 == 1 { v = $5 } END { print v + 0 }' '%s'", f)))
n = int(system(sprintf("awk -F'\t' '!/^#/ && NF { print $2; exit }' '%s'", f)))
modelled = int(system(sprintf("awk -F'\t' '$1 ~ /^gpu_/ { k++ } END { print k + 0 }' '%s'", f)))
if (modelled == 0) exit error fail("no hand-written FP32 GPU rung (gpu_*; the TF32 rungs are left off this roofline) in ".f)

config(ts, wpt) = ts > 0 ? (wpt > 0 ? sprintf("TS %d, WPT %d", ts, wpt) : sprintf("TS %d", ts)) : ""
# key entry of a rung: its name and best configuration, "" when absent
BESTCFG(r) = system(sprintf("awk -F'\t' '$1 == \"%s\" && $6 == 1 { print $3, $4; exit }' '%s'", r, f))
best_title(r) = (_c = BESTCFG(r), words(_c) < 2 ? "" : \
    rung_title(r).(config(int(word(_c, 1)), int(word(_c, 2))) eq "" ? "" : ": ".config(int(word(_c, 1)), int(word(_c, 2)))))

xlo = 0.05
xhi = 10**ceil(log10(ridge * 3))
ylo = 10**floor(log10(roof(xlo)))
set logscale xy 10
set xrange [xlo : xhi]
set yrange [ylo : peak * 3]
set format x "%g"
set format y LOGFMT
set xlabel "arithmetic intensity   (FLOP per byte of global loads and stores)"
set ylabel "GFLOP/s"
eval headline(sprintf("Roofline: the hand-written FP32 rungs at n = %d under the GPU's ceilings", n), \
              "filled: each rung's best configuration; open: its other TS and WPT; intensity 0.25 FLOP/B, × TS when tiled")
# the key (up to ten rungs, 03-12) in the empty bottom right, below the points:
# a taller page than style.gp's default leaves it room there
H = 4.4
set key inside right bottom vertical width -6 font FONT_TINY samplen 1 spacing 0.85
eval corner(gpu.", ".date)

# the roofs, labelled along their lines
set label 1 sprintf("FP32 peak %.1f TFLOP/s", peak / 1000.0) at xhi / 1.2, peak right offset 0, char 0.9 front font FONT_SMALL textcolor rgb "#202020"
# (the bandwidth roof's label, along its line, is set in the loop below)
set label 3 "WPT: more reuse in registers\nand shared memory, the same\nglobal loads: the same intensity" \
    at 0.28, roof(0.28) / 2.4 left front font FONT_TINY textcolor rgb "#303030"
# under the cuBLAS line (or the peak), in the empty top left
set label 4 "points above the bandwidth roof:\ntheir loads are served by L1/L2" at xlo * 1.2, (cublas > 0 ? cublas : peak) / 3.8 left front font FONT_TINY textcolor rgb "#303030"
if (cublas > 0) {
    set arrow 1 from graph 0, first cublas to graph 1, first cublas nohead lt rung("cublas_fp32") lw 1.5 back
    set label 5 sprintf("%s achieved %.1f TFLOP/s (intensity not modelled)", rung_title("cublas_fp32"), cublas / 1000.0) \
        at xlo * 1.2, cublas left offset 0, char -0.9 front noenhanced font FONT_TINY
}

do for [fmt in formats] {
    eval term(fmt)
    # a first pass to learn the plot area, then the bandwidth label's angle:
    # slope 1 on log-log axes, scaled by the pixels per decade of each axis
    set output "/dev/null"
    unset label 2
    plot roof(x) notitle
    angle = 180 / pi * atan(((GPVAL_TERM_YMAX - GPVAL_TERM_YMIN) / log10(GPVAL_Y_MAX / GPVAL_Y_MIN)) / \
                            ((GPVAL_TERM_XMAX - GPVAL_TERM_XMIN) / log10(GPVAL_X_MAX / GPVAL_X_MIN)))
    set label 2 sprintf("measured copy bandwidth %.0f GB/s", bw) at xlo * 1.5, roof(xlo * 1.5) left rotate by angle offset 0, char -0.8 front font FONT_SMALL textcolor rgb "#202020"
    set output outfile(fmt)
    set samples 400
    plot roof(x) with lines lt 1 lc rgb "#404040" lw 2.5 notitle, \
         for [r in GPU_RUNGS] f using (strcol(1) eq r && $6 == 0 ? ai(r, $3) : NaN):5 \
             with points lt rung(r) pt pt_open(r) ps 1.0 lw 1.2 notitle, \
         for [r in GPU_RUNGS] f using (strcol(1) eq r && $6 == 1 ? ai(r, $3) : NaN):5 \
             with points lt rung(r) pt pt_filled(r) ps 1.5 \
             title (r eq "cublas_fp32" || is_tf32(r) ? "" : best_title(r))
    set output
}
