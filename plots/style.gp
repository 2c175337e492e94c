# style.gp -- what every figure shares; each plots/NN_name.gp loads it first
# (scripts/figures.sh also names it before the figure: it is read once).
#
# gnuplot only draws.  Every number, every rung and every label comes from the
# tables `bin/mmladder table` wrote into datadir (scripts/figures.sh), read by
# column NAME; nothing here or in a figure computes a ratio, a best or an
# intensity, and no rung is named here: the registry's view (rungs.tsv) gives
# the ladder's rungs in order with their device, precision, colour, point type
# and key title, so that a rung registered in harness/core/registry.c appears in
# every figure with no edit to plots/.
#
# inputs (gnuplot -e): datadir  the folder of the tables (rungs.tsv, runs.tsv, ...)
#                      out      output path without extension (.pdf and .png)
#                      formats  (optional) "pdf png"
#                      dpi      (optional) PNG pixels per inch, 200
#
# It defines:
#   - me: the figure's name (the last part of out), which every error starts with;
#   - table(name): the path of datadir/name.tsv; eval count("name"): NROWS,
#     its data rows (0 when it is missing); eval need("name"): stop with
#     "NN_name: missing or empty table .../name.tsv" unless the table has data
#     rows (NROWS: how many); eval stop("text"): stop with "NN_name: text";
#     eval skip("text"): the same with exit status 3, for a run that has nothing
#     for the figure to draw (scripts/figures.sh reports it as skipped);
#   - the registry, from rungs.tsv, as arrays indexed by the rung's number
#     (1 .. NRUNG): R_NAME, R_DEVICE, R_PREC, R_ISREF, R_COLOUR, R_RGB, R_PT,
#     R_TITLE, R_SEEDS (1: the seeds' kernels and cuBLAS, 0: past the seeds);
#     linetype k is rung k (its colour and point type; dashed when its precision
#     is TF32, thicker when it is a reference); pt_open(k), the open point;
#   - the runs, from runs.tsv: run_gpu(role), run_date(role), run_cpu(role),
#     run_peak(role), run_bw(role), run_clock(role) (the GPU's maximum SM
#     clock, MHz), has_run(role), run_label(role); gpu_short(name): "H100";
#   - term(fmt), outfile(fmt): pdfcairo and pngcairo at the same W x H inches;
#   - headline(main, sub), corner(text): the title, top left, and the run's
#     GPU and date, bottom right;
#   - mix(rgb, t): a colour t of the way to white (for shades of a rung's colour);
#   - grouped(x): 12345.6 as "12,346"; times(shape): "1000x1500x700" as
#     "1000×1500×700".
if (!exists("datadir") || !exists("out")) {
    exit error "figure: set datadir and out with gnuplot -e \"datadir='...'; out='...'\""
}
me = out
do for [_i = 1:strlen(out)] { if (out[_i:_i] eq "/") { me = out[_i + 1:] } }

if (!exists("formats")) { formats = "pdf png" }
if (!exists("dpi")) { dpi = 200 }

# ---- tables ----------------------------------------------------------------------
set encoding utf8
set datafile separator "\t"
set datafile columnheaders
table(name) = datadir."/".name.".tsv"
# A plot that always has one point, so that a missing table is a warning (and
# then this error), not gnuplot's own.
$ONE << EOD
one
1
EOD
# eval count("name"): NROWS, the table's data rows (0 when it is missing)
count(name) = sprintf("set table $CHECK; plot '%s' using (1) with table, $ONE using (0) with table; unset table; NROWS = |$CHECK| - 1", table(name))
need(name) = count(name).sprintf("; if (NROWS < 1) { print '%s: missing or empty table %s (no data rows)'; exit error '%s: no data in %s.tsv' }", \
                                 me, table(name), me, name)
# eval stop("text"): stop the figure with "NN_name: text" (printed whole: an
# error message of gnuplot's is cut at 120 characters)
stop(text) = sprintf("print '%s: %s'; exit error '%s: stopped (above)'", me, text, me)
# eval skip("text"): print "NN_name: text" and end with exit status 3: the
# runs given have nothing for this figure (not an error of the figure's own)
skip(text) = sprintf("print '%s: %s'; exit status 3", me, text)

# eval keep("$NAME", "configs", "n gflops", "column(\"tile\") == 16"): the rows
# of a table for which the condition holds, with those (numeric) columns under
# their names, into datablock $NAME: a series whose rows are not adjacent in
# its table can then be drawn as one line.  (It copies; it computes nothing.)
_cols_head(c, i) = i > words(c) ? "" : (i > 1 ? "\t" : "").word(c, i)._cols_head(c, i + 1)
_cols_using(c, i) = i > words(c) ? "" : (i > 1 ? ":" : "")."(column(\"".word(c, i)."\"))"._cols_using(c, i + 1)
keep(db, name, cols, cond) = sprintf("set print %s; print \"%s\"; unset print; set table %s append separator tab; plot '%s' using %s with table if (%s); unset table", \
                                     db, _cols_head(cols, 1), db, table(name), _cols_using(cols, 1), cond)

# ---- the registry (rungs.tsv) ------------------------------------------------------
eval need("rungs")
stats table("rungs") using (column("number")) nooutput
NRUNG = int(STATS_max)
array R_NAME[NRUNG]
array R_DEVICE[NRUNG]
array R_PREC[NRUNG]
array R_ISREF[NRUNG]
array R_COLOUR[NRUNG]
array R_RGB[NRUNG]
array R_PT[NRUNG]
array R_TITLE[NRUNG]
array R_SEEDS[NRUNG]
do for [k = 1:NRUNG] { R_NAME[k] = ""; R_TITLE[k] = ""; R_ISREF[k] = 0; R_RGB[k] = 0x808080; R_COLOUR[k] = "#808080"; R_PT[k] = 7; R_PREC[k] = ""; R_DEVICE[k] = ""; R_SEEDS[k] = 0 }
stats table("rungs") using (_k = int(column("number")), \
    R_NAME[_k] = strcol("rung"), R_DEVICE[_k] = strcol("device"), R_PREC[_k] = strcol("precision"), \
    R_ISREF[_k] = int(column("is_reference")), R_COLOUR[_k] = strcol("colour"), \
    R_RGB[_k] = int("0x".strcol("colour")[2:]), R_PT[_k] = int(column("point")), \
    R_TITLE[_k] = strcol("title"), R_SEEDS[_k] = int(column("from_seeds")), 0) nooutput
is_tf32(k) = R_PREC[k] eq "tf32"
pt_open(k) = R_PT[k] - 1
# line widths: a rung, a reference (cuBLAS) line
LW = 1.6
LW_REF = 2.8
do for [k = 1:NRUNG] {
    eval sprintf("set linetype %d lc rgb '%s' lw %g pt %d ps 0.8 dt %s", k, R_COLOUR[k], \
                 R_ISREF[k] ? LW_REF : LW, R_PT[k], is_tf32(k) ? "(8,4)" : "solid")
}
# dash of rung k, for figures that set their own line properties
rung_dt(k) = is_tf32(k) ? 2 : 1
set dashtype 2 (8, 4)

# ---- the runs (runs.tsv) -----------------------------------------------------------
eval need("runs")
NRUNS = NROWS
array RUN_ROLE[NRUNS]
array RUN_GPU[NRUNS]
array RUN_DATE[NRUNS]
array RUN_CPU[NRUNS]
array RUN_PEAK[NRUNS]
array RUN_BW[NRUNS]
array RUN_CLOCK[NRUNS]
_k = 0
stats table("runs") using (_k = _k + 1, RUN_ROLE[_k] = strcol("role"), RUN_GPU[_k] = strcol("gpu"), \
    RUN_DATE[_k] = strcol("date"), RUN_CPU[_k] = strcol("cpu"), RUN_PEAK[_k] = column("peak_gflops"), \
    RUN_BW[_k] = column("copy_gbs"), RUN_CLOCK[_k] = column("max_clock_mhz"), 0) nooutput
run_i(role) = sum [_j = 1:NRUNS] (RUN_ROLE[_j] eq role ? _j : 0)
has_run(role) = run_i(role) > 0
run_gpu(role) = has_run(role) ? RUN_GPU[run_i(role)] : "unknown GPU"
run_date(role) = has_run(role) ? RUN_DATE[run_i(role)] : "undated"
run_cpu(role) = has_run(role) ? RUN_CPU[run_i(role)] : "unknown CPU"
run_peak(role) = has_run(role) ? RUN_PEAK[run_i(role)] : NaN
run_bw(role) = has_run(role) ? RUN_BW[run_i(role)] : NaN
run_clock(role) = has_run(role) ? RUN_CLOCK[run_i(role)] : NaN
# "NVIDIA H100 80GB HBM3, 2026-11-23 09:39 UTC"
run_label(role) = run_gpu(role).", ".run_date(role)
# "NVIDIA H100 80GB HBM3" as "H100"
gpu_short(g) = words(g) > 1 && word(g, 1) eq "NVIDIA" ? word(g, 2) : g

# ---- terminals ---------------------------------------------------------------------
# The paper places every figure across both columns at its own size, never
# scaled (paper/main.tex, \placefig, which stops the build on a figure of
# another width): W is the text width, 7 inches (letter paper, margins of 0.75
# inch), and fonts are in points as printed, none under 7 (superscripts
# included: make paper runs scripts/check-lettering.sh on every figure).  A
# figure may change H before term(), never W.  The PNG is a dpi rendering of
# the same page.  (Measured: both cairo terminals
# draw a font at 4/3 of its size times fontscale, in points (pdf) or pixels
# (png); pdfcairo a linewidth of 1 as half a point, a point type at 1/72 inch
# per pointscale; pngcairo both in pixels.  Hence the factors, which make
# text, lines and points the size given, and the same in both files.)
W = 7.0
H = 4.0
FONT = "Sans"
FS = 8.5
FONT_SMALL = sprintf("%s,%g", FONT, 8)
FONT_TINY = sprintf("%s,%g", FONT, 7)
FONT_TITLE = sprintf("%s,%g", FONT, 10)
# (pdfcairo cuts its page to whole points: both files take W and H rounded to
# points, the PDF's given 0.4 pt over, which the cut takes away)
to_pt(x) = int(x * 72 + 0.5) / 72.0
pdf_in(x) = (int(x * 72 + 0.5) + 0.4) / 72.0
term(fmt) = fmt eq "pdf" ? \
    sprintf("set terminal pdfcairo enhanced color size %.6fin,%.6fin font '%s,%g' fontscale 0.75 linewidth 1 butt", pdf_in(W), pdf_in(H), FONT, FS) : \
    sprintf("set terminal pngcairo enhanced color size %d,%d font '%s,%g' fontscale %g linewidth %g pointscale %g butt background '#ffffff'", \
            int(to_pt(W) * dpi + 0.5), int(to_pt(H) * dpi + 0.5), FONT, FS, 0.75 * dpi / 72.0, 0.5 * dpi / 72.0, dpi / 72.0)
outfile(fmt) = out.".".fmt

# ---- look ----------------------------------------------------------------------------
set border 3 lw 1.0
set tics nomirror out scale 0.6
set grid xtics ytics lc rgb "#C8C8C8" lw 0.5 dt (1, 2)
set key noenhanced opaque box lc rgb "#C0C0C0" samplen 2.5 spacing 1.1
set title noenhanced font FONT_SMALL
# powers of ten with the exponent at SUP_PT points (an enhanced-text
# superscript is otherwise drawn at 0.8 of its font, under 7 points)
SUP_PT = 7.5
LOGFMT = sprintf("10^{/=%g %%L}", SUP_PT)
GUIDE = "#505050"
BAND = "#E2E2E2"
# colour rgb (an integer) taken t of the way to white
mix(c, t) = int((c >> 16 & 255) + (255 - (c >> 16 & 255)) * t) * 65536 + \
            int((c >> 8 & 255) + (255 - (c >> 8 & 255)) * t) * 256 + int((c & 255) + (255 - (c & 255)) * t)
# 12345.6 -> "12,346"
grouped(x) = grouped_int(int(x + 0.5))
grouped_int(i) = i >= 1000 ? grouped_int(int(i / 1000)).sprintf(",%03d", i % 1000) : sprintf("%d", i)
# a shape as the tables name it, "1000x1500x700", as "1000×1500×700"
times(s) = (_p = strstrt(s, "x"), _p == 0 ? s : s[1:_p - 1]."×".times(s[_p + 1:]))

# ---- title and corner ---------------------------------------------------------------
set tmargin 4.5
set bmargin 4.8
# eval headline("Main line", "second line"): top left, a main line and a smaller one
headline(main, sub) = sprintf("set label 1001 \"%s\" at screen 0.008, screen 1 left offset 0, char -1.0 front noenhanced font FONT_TITLE; set label 1002 \"%s\" at screen 0.008, screen 1 left offset 0, char -2.3 front noenhanced font FONT_SMALL textcolor rgb '#303030'", main, sub)
# eval corner(run_label("primary")): bottom right
corner(text) = sprintf("set label 1000 \"%s\" at screen 0.995, screen 0 right offset 0, char 0.6 front noenhanced font FONT_TINY textcolor rgb '#505050'", text)

STYLE_LOADED = 1
