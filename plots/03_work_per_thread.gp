# 03_work_per_thread.gp -- figure 3, work per thread: GFLOP/s of gpu_tiled_wpt
# against WPT for tile widths TS 16 and 32 at the large square sizes
# (n >= 2048).  Dash: TS, as in figure 2 (dashed 16, solid 32); shade of the
# rung's colour: n (lighter = smaller).
#
# inputs (gnuplot -e): datadir  folder holding wpt.tsv (scripts/figures.sh)
#                      out      output path without extension (.pdf, .png)
#                      gpu, date  the run, for the corner label
#                      tiles    (optional) tile widths to show, default "16 32"
# Stops with an error naming the file when wpt.tsv is missing, empty, or has
# no row at the chosen tile widths.
if (!exists("plotdir")) plotdir = system("dirname '".ARG0."'")
load plotdir."/style.gp"
me = "03_work_per_thread"
if (!exists("datadir") || !exists("out")) exit error fail("set datadir and out with gnuplot -e")
if (!exists("tiles")) tiles = "16 32"
f = datadir."/wpt.tsv"
msg = problem(f)
if (msg ne "") exit error fail(msg)

# the (TS, n) series present at the chosen tile widths, as "TS:n" words
SERIES = system(sprintf("awk -F'\t' -v t=' %s ' '!/^#/ && NF && index(t, \" \" $1 \" \") && !(($1 \":\" $2) in s) { s[$1 \":\" $2] = 1; printf \"%%s:%%s \", $1, $2 }' '%s'", tiles, f))
if (words(SERIES) == 0) exit error fail("no rows at tile widths ".tiles." in ".f)
sts(s) = int(s[1:strstrt(s, ":") - 1])
sn(s) = int(s[strstrt(s, ":") + 1:])
ts_dt(ts) = ts == 8 ? 11 : ts == 16 ? 12 : 1
# the sizes, smallest first, and a shade of the rung's blue for each
SIZES = system(sprintf("awk -F'\t' '!/^#/ && NF { print $2 }' '%s' | sort -n | uniq | tr '\\n' ' '", f))
nsizes = words(SIZES)
size_i(n) = (_k = 0, sum [i = 1:nsizes] (int(word(SIZES, i)) == n ? i : 0))
# mix the rung colour (rung_rgb, style.gp) with white: the largest n gets the full colour
RC = rung_rgb("gpu_tiled_wpt")
mixw(c, t) = int(c + (255 - c) * t)
shade(n) = (_t = nsizes > 1 ? 0.55 * (nsizes - size_i(n)) / (nsizes - 1.0) : 0, \
            mixw(RC >> 16 & 255, _t) * 65536 + mixw(RC >> 8 & 255, _t) * 256 + mixw(RC & 255, _t))

stats f using 3 nooutput
wmax = STATS_max
stats f using 4 nooutput
gmax = STATS_max

set logscale x 2
set xrange [0.8 : wmax * 1.25]
eval "set xtics (".xtics_at(f, 3, "").")"
set mxtics 1
set yrange [0 : gmax * 1.12]
set format y "%.0f"
set xlabel "work per thread WPT   (outputs of C computed by each thread)"
set ylabel "GFLOP/s"
eval headline("Work per thread: 07 gpu_tiled_wpt against WPT, large square sizes", \
              "each thread computes WPT outputs of one column of the TS × TS tile; WPT must divide TS")
set key inside center bottom vertical maxrows 3 width 0 font FONT_SMALL
eval corner(gpu.", ".date)

do for [fmt in formats] {
    eval term(fmt)
    set output outfile(fmt)
    plot for [s in SERIES] f using ($1 == sts(s) && $2 == sn(s) ? $3 : NaN):4 \
        with linespoints lt rung("gpu_tiled_wpt") lc rgb shade(sn(s)) lw 2 dt ts_dt(sts(s)) ps 1.0 \
        title sprintf("TS %d, n = %d", sts(s), sn(s))
    set output
}
