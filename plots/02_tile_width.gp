# 02_tile_width.gp -- figure 2, the tile width: GFLOP/s of gpu_tiled and
# gpu_tiled_unrolled for each tile width TS (8, 16, 32) at each square size.
# Colour and point: the rung; dash: TS (dotted 8, dashed 16, solid 32).
#
# inputs (gnuplot -e): datadir  folder holding tiles.tsv (scripts/figures.sh)
#                      out      output path without extension (.pdf, .png)
#                      gpu, date  the run, for the corner label
# Stops with an error naming the file when tiles.tsv is missing or empty.
if (!exists("plotdir")) plotdir = system("dirname '".ARG0."'")
load plotdir."/style.gp"
me = "02_tile_width"
if (!exists("datadir") || !exists("out")) exit error fail("set datadir and out with gnuplot -e")
f = datadir."/tiles.tsv"
msg = problem(f)
if (msg ne "") exit error fail(msg)

# the (rung, TS) series present, as "rung:TS" words in table order
SERIES = system(sprintf("awk -F'\t' '!/^#/ && NF && !(($1 \":\" $2) in s) { s[$1 \":\" $2] = 1; printf \"%%s:%%s \", $1, $2 }' '%s'", f))
srung(s) = s[1:strstrt(s, ":") - 1]
sts(s) = int(s[strstrt(s, ":") + 1:])
# dash per tile width: 8 dotted, 16 dashed, 32 solid
ts_dt(ts) = ts == 8 ? 11 : ts == 16 ? 12 : 1

stats f using 3 nooutput
nmin = STATS_min
nmax = STATS_max
stats f using 4 nooutput
gmin = STATS_min
gmax = STATS_max

set logscale x 2
set logscale y 10
set xrange [nmin / 1.25 : nmax * 1.25]
ylo = gmin / logpad
yhi = gmax * logpad
set yrange [ylo : yhi]
eval "set ytics (".tics125(ylo, yhi).")"
eval "set xtics (".xtics_at(f, 3, "").")"
set mxtics 1
set xlabel "matrix size n   (n × n × n)"
set ylabel "GFLOP/s"
eval headline("Tile width: shared-memory tiling with TS × TS tiles, TS = 8, 16, 32", \
              "rolled inner loop (05, gpu_tiled) against the fully unrolled one (06, gpu_tiled_unrolled)")
set key inside right bottom vertical width -2 font FONT_SMALL
eval corner(gpu.", ".date)

do for [fmt in formats] {
    eval term(fmt)
    set output outfile(fmt)
    plot for [s in SERIES] f using (strcol(1) eq srung(s) && $2 == sts(s) ? $3 : NaN):4 \
        with linespoints lt rung(srung(s)) lw 2 dt ts_dt(sts(s)) ps 1.0 \
        title sprintf("%s, TS %d", rung_title(srung(s)), sts(s))
    set output
}
