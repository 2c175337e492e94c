# style.gp -- the look shared by every figure; each plots/NN_name.gp loads it
# first.  It defines:
#   - one fixed colour, point type and dash per rung (linetypes 1..16, in ladder
#     order), used by every figure, and the rung names shown in keys
#     ("03 gpu_naive_global", "13 tf32_mma_sync (TF32)");
#   - the TF32 rungs (tensor cores, a different precision): is_tf32(r), and
#     ref_cublas(r), the cuBLAS line a rung is compared with;
#   - term(fmt): the command that opens the pdfcairo (vector) or pngcairo
#     terminal at the figure's size W x H (inches), same geometry in both;
#   - headline(main, sub): the caption-ready title, top left;
#   - corner(text): the command that puts "GPU name, run date" in the
#     lower right corner;
#   - datarows(f) and problem(f): how a figure checks its input table, so a
#     missing or empty table stops it with an error naming the file.
# Usage inside a figure:  eval headline("...", "..."); eval corner(gpu.", ".date);
#                          do for [fmt in formats] { eval term(fmt); ... }

# ---- inputs every figure may take (gnuplot -e), with their defaults ----------
if (!exists("formats")) formats = "pdf png"   # which files to write
if (!exists("gpu"))  gpu = "unknown GPU"
if (!exists("date")) date = "unknown date"
if (!exists("dpi"))  dpi = 200                # PNG resolution, pixels per inch

# ---- terminals -----------------------------------------------------------------
# Figure size in inches (a figure may set W and H before calling term).  Fonts
# are given in points; the PNG is a 'dpi' rendering of the same page, so text
# and lines have the same size relative to the figure in both files.
W = 7.0
H = 3.6
FONT = "Sans"
FS = 8            # base font size, points
# font strings (gnuplot's "set key font" wants a variable, not an expression)
FONT_SMALL = sprintf("%s,%g", FONT, FS - 1)
FONT_TINY  = sprintf("%s,%g", FONT, FS - 2)
FONT_TITLE = sprintf("%s,%g", FONT, FS + 1)
# (pdfcairo draws linewidth 1 as half a point; pngcairo as one pixel and its
# points at a fixed pixel size, hence the factors on the PNG side.)
term(fmt) = fmt eq "pdf" ? \
    sprintf("set terminal pdfcairo enhanced color size %gin,%gin font '%s,%g' fontscale 1 linewidth 1.2 butt", W, H, FONT, FS) : \
    sprintf("set terminal pngcairo enhanced color size %d,%d font '%s,%g' fontscale %g linewidth %g pointscale %g butt background '#ffffff'", \
            int(W*dpi + 0.5), int(H*dpi + 0.5), FONT, FS, dpi/72.0, 1.2*0.5*dpi/72.0, dpi/72.0)
outfile(fmt) = out.".".fmt

# ---- the rungs: colour, point type, dash -----------------------------------------
# Ladder order (as `bin/mmladder list` prints it); linetype i belongs to the
# i-th rung in every figure.
RUNGS = "host_naive host_restrict gpu_naive_global gpu_naive gpu_tiled gpu_tiled_unrolled gpu_tiled_wpt gpu_regblock gpu_vectorized gpu_double_buffered gpu_warptiled gpu_async_copy tf32_mma_sync tf32_wgmma_tma cublas_fp32 cublas_tf32"
GPU_RUNGS = "gpu_naive_global gpu_naive gpu_tiled gpu_tiled_unrolled gpu_tiled_wpt gpu_regblock gpu_vectorized gpu_double_buffered gpu_warptiled gpu_async_copy tf32_mma_sync tf32_wgmma_tma cublas_fp32 cublas_tf32"
rung(r) = r eq "host_naive" ? 1 : r eq "host_restrict" ? 2 : r eq "gpu_naive_global" ? 3 : \
          r eq "gpu_naive" ? 4 : r eq "gpu_tiled" ? 5 : r eq "gpu_tiled_unrolled" ? 6 : \
          r eq "gpu_tiled_wpt" ? 7 : r eq "gpu_regblock" ? 8 : r eq "gpu_vectorized" ? 9 : \
          r eq "gpu_double_buffered" ? 10 : r eq "gpu_warptiled" ? 11 : r eq "gpu_async_copy" ? 12 : \
          r eq "tf32_mma_sync" ? 13 : r eq "tf32_wgmma_tma" ? 14 : \
          r eq "cublas_fp32" ? 15 : r eq "cublas_tf32" ? 16 : 0
# The rungs that compute in TF32 (tensor cores: 10-bit mantissa products, FP32
# accumulation), a different precision from the rest.  They are labelled TF32
# in every key and compared with cublas_tf32, never with the FP32 line.
TF32_RUNGS = "tf32_mma_sync tf32_wgmma_tma cublas_tf32"
is_tf32(r) = r eq "tf32_mma_sync" || r eq "tf32_wgmma_tma" || r eq "cublas_tf32"
# the cuBLAS reference of rung r: the same precision
ref_cublas(r) = is_tf32(r) ? "cublas_tf32" : "cublas_fp32"
# "03 gpu_naive_global", "13 tf32_mma_sync (TF32)": the number of the rung in
# the ladder, then its name, then "(TF32)" for the TF32 rungs
rung_title(r) = sprintf("%02d %s%s", rung(r), r, is_tf32(r) ? " (TF32)" : "")

# Colours: host rungs in earth tones, hand-written GPU rungs in distinct hues,
# the TF32 rungs dashed (as cuBLAS TF32 is), the cuBLAS references black (FP32,
# solid) and purple (TF32, dashed).  COLOURS: one per linetype 1..16;
# rung_rgb(r) is rung r's colour as a number (for mixing shades).
COLOURS = "#8C510A #D8A300 #D62728 #FF7F0E #2CA02C #17A2B8 #1F4FB4 #E377C2 #8C564B #7F7F00 #00897B #C2185B #00A3E0 #6B9E00 #000000 #7B3294"
rung_rgb(r) = rung(r) > 0 ? int("0x".word(COLOURS, rung(r))[2:]) : 0x808080
set linetype 1  lc rgb word(COLOURS, 1)  lw 2.0 pt 5  ps 0.8 dt solid   # host_naive          brown, square
set linetype 2  lc rgb word(COLOURS, 2)  lw 2.0 pt 15 ps 0.9 dt solid   # host_restrict       gold, pentagon
set linetype 3  lc rgb word(COLOURS, 3)  lw 2.0 pt 9  ps 0.9 dt solid   # gpu_naive_global    red, triangle
set linetype 4  lc rgb word(COLOURS, 4)  lw 2.0 pt 11 ps 0.9 dt solid   # gpu_naive           orange, inverted triangle
set linetype 5  lc rgb word(COLOURS, 5)  lw 2.0 pt 7  ps 0.8 dt solid   # gpu_tiled           green, circle
set linetype 6  lc rgb word(COLOURS, 6)  lw 2.0 pt 15 ps 0.9 dt solid   # gpu_tiled_unrolled  teal, pentagon
set linetype 7  lc rgb word(COLOURS, 7)  lw 2.0 pt 13 ps 0.9 dt solid   # gpu_tiled_wpt       blue, diamond
set linetype 8  lc rgb word(COLOURS, 8)  lw 2.0 pt 7  ps 0.8 dt solid   # gpu_regblock        pink, circle
set linetype 9  lc rgb word(COLOURS, 9)  lw 2.0 pt 9  ps 0.9 dt solid   # gpu_vectorized      brown-grey, triangle
set linetype 10 lc rgb word(COLOURS, 10) lw 2.0 pt 13 ps 0.9 dt solid   # gpu_double_buffered olive, diamond
set linetype 11 lc rgb word(COLOURS, 11) lw 2.0 pt 11 ps 0.9 dt solid   # gpu_warptiled       sea green, inverted triangle
set linetype 12 lc rgb word(COLOURS, 12) lw 2.0 pt 5  ps 0.8 dt solid   # gpu_async_copy      raspberry, square
set linetype 13 lc rgb word(COLOURS, 13) lw 2.0 pt 13 ps 0.9 dt (6,3)   # tf32_mma_sync       azure, diamond (TF32: dashed)
set linetype 14 lc rgb word(COLOURS, 14) lw 2.0 pt 15 ps 0.9 dt (6,3)   # tf32_wgmma_tma      lime, pentagon (TF32: dashed)
set linetype 15 lc rgb word(COLOURS, 15) lw 2.5 pt 5  ps 0.6 dt solid   # cublas_fp32 (reference) black
set linetype 16 lc rgb word(COLOURS, 16) lw 2.5 pt 5  ps 0.6 dt (6,3)   # cublas_tf32 (reference) purple, dashed
# each rung's point type, filled (as in its linetype) and open
PTS = "5 15 9 11 7 15 13 7 9 13 11 5 13 15 5 5"
pt_filled(r) = rung(r) > 0 ? int(word(PTS, rung(r))) : 1
pt_open(r) = rung(r) > 0 ? int(word(PTS, rung(r))) - 1 : 1
# ink(r): a text colour readable on a bar filled with rung r's colour
ink(r) = (r eq "host_restrict" || r eq "gpu_naive" || r eq "gpu_tiled" || r eq "gpu_tiled_unrolled" || \
          r eq "tf32_mma_sync" || r eq "tf32_wgmma_tma") ? 0x000000 : 0xFFFFFF
# Linetypes 20 and up, for guides (peak lines, y = x, bands).
set linetype 20 lc rgb "#606060" lw 1.0 dt (2,3) pt 0            # guide, dotted grey
# Dash patterns for a second axis of a line figure (e.g. tile width).
set dashtype 11 (1, 3)           # dotted
set dashtype 12 (5, 4)           # dashed
set linetype 21 lc rgb "#B0B0B0" lw 1.0 dt solid pt 0            # guide, light grey
# Fill shades for a second axis of a bar figure (lightest first).
SHADE1 = 0.35
SHADE2 = 0.65
SHADE3 = 1.0

# ---- common look -----------------------------------------------------------------
set encoding utf8
set border 3 lw 1.0
set tics nomirror out scale 0.6
set mxtics default
set mytics default
set grid xtics ytics lt 21 lw 0.5 dt (1,3)
set key noenhanced opaque box lc rgb "#C0C0C0" samplen 2.5 spacing 1.1 width 0.5
set title font FONT_TITLE
set datafile separator "\t"
set datafile commentschars "#"
set datafile missing "-"
# log-scale tic labels as powers of ten
LOGFMT = "10^{%L}"

# ---- headline and corner label ------------------------------------------------------
# The caption-ready title goes top left (a main line and a smaller second
# line), the run ("GPU name, run date") bottom right, below the x-axis label.
# Margins (character heights) leave room for both.
set tmargin 4.2
set bmargin 4.6
# eval headline("Main line", "second line")
headline(main, sub) = sprintf("set label 1001 \"%s\" at screen 0.008, screen 1 left offset 0, char -1.0 front noenhanced font FONT_TITLE; set label 1002 \"%s\" at screen 0.008, screen 1 left offset 0, char -2.3 front noenhanced font FONT_SMALL textcolor rgb '#303030'", main, sub)
# eval corner("NVIDIA H100 80GB HBM3, 2026-11-22 03:23 UTC")
corner(text) = sprintf("set label 1000 \"%s\" at screen 0.995, screen 0 right offset 0, char 0.8 front noenhanced font FONT_TINY textcolor rgb '#505050'", text)

# ---- tics at the values of a column --------------------------------------------------
# xtics_at(f, col, filter): the argument of "set xtics (...)", one tic labelled
# with each distinct value of column col of table f (optionally only on lines
# whose column 1 equals filter; "" for all).  eval "set xtics (".xtics_at(...).")"
xtics_at(f, col, filter) = system(sprintf("awk -F'\t' -v c=%d -v r='%s' '!/^#/ && NF && (r == \"\" || $1 == r) && !($c in s) { s[$c] = 1; printf \"%%s\\\"%%s\\\" %%s\", (n++ ? \", \" : \"\"), $c, $c }' '%s'", col, filter, f))

# ---- numbers in labels ------------------------------------------------------------------
# grouped(x): x rounded to an integer, with thousands separated by commas
grouped(x) = grouped_int(int(x + 0.5))
grouped_int(i) = i >= 1000 ? grouped_int(int(i / 1000)).sprintf(",%03d", i % 1000) : sprintf("%d", i)

# ---- 1-2-5 tics on a log axis -----------------------------------------------------------
# tics125(lo, hi): the argument of "set ytics (...)": 1, 2, 5 x 10^k from lo to
# hi, labelled with %g; for log axes spanning a decade or two, where powers of
# ten alone leave too few tics.
tics125_from(v, hi, acc) = v > hi * 1.0001 ? acc : \
    tics125_from(v * (tics125_m(v) == 2 ? 2.5 : 2), hi, acc.(acc eq "" ? "" : ", ").sprintf("\"%g\" %g", v, v))
tics125_m(v) = int(v / 10**floor(log10(v) + 1e-9) + 0.5)
tics125_start(lo) = (_d = 10**floor(log10(lo) + 1e-9), lo <= _d * 1.0001 ? _d : lo <= 2 * _d * 1.0001 ? 2 * _d : lo <= 5 * _d * 1.0001 ? 5 * _d : 10 * _d)
tics125(lo, hi) = tics125_from(tics125_start(lo), hi, "")
# up125(v): the smallest 1, 2 or 5 x 10^k that is >= v (v > 0)
up125(v) = (_e = 10**floor(log10(v) + 1e-9), v <= _e * 1.0001 ? _e : v <= 2 * _e * 1.0001 ? 2 * _e : v <= 5 * _e * 1.0001 ? 5 * _e : 10 * _e)
# a log range a little beyond [lo, hi]
logpad = 1.25

# ---- input checks ---------------------------------------------------------------
# datarows(f): -1 if f is missing or empty, else its number of data lines
# (lines that are neither blank nor '#' comments).
datarows(f) = int(system(sprintf("if test -s '%s'; then awk '!/^#/ && NF { n++ } END { print n + 0 }' '%s'; else echo -1; fi", f, f)))
# problem(f): "" when f has data rows, else what is wrong with it
problem(f) = (_n = datarows(f), _n < 0 ? "missing or empty data file ".f : _n == 0 ? "no data rows in ".f : "")
# fail(text): the message a figure stops with: "NN_name: text", one line
fail(text) = me.": ".text
# need a numeric input variable; returns "" or what is wrong
need_num(name) = exists(name) ? (value(name) > 0 ? "" : sprintf("variable %s must be > 0 (got %g)", name, value(name))) : "variable ".name." not set (gnuplot -e \"".name."=...\")"
