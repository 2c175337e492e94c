# 02_tile_width.gp -- figure 2, the tile width: GFLOP/s against the square size
# n (configs.tsv, rows with n > 0) of each rung that tiles with one output per
# thread, at each of its tile widths TS.  Colour and point: the rung (rungs.tsv);
# shade and dash: TS (lighter and dashed for smaller tiles, solid for the
# largest).
#
# Which rows: the data choose them, not a list of rung names.  A row is drawn
# when its configuration has a tile (tile > 0), no work-per-thread axis
# (wpt = 0) and one output per thread (thread_rows = thread_cols = 1): the
# shared-memory tiled kernels whose only knob is the tile width (the seeds'
# gpu_tiled and gpu_tiled_unrolled in the paper's runs).  The WPT rung (wpt > 0,
# figure 3) and the register-blocked rungs (several outputs per thread) fall
# outside it; a new rung of the same kind would fall inside it.
#
# inputs (gnuplot -e): datadir, out (style.gp)
# Stops with an error naming the table when configs.tsv (or rungs.tsv,
# runs.tsv) is missing or empty, or has no such row.
if (!exists("STYLE_LOADED")) {
    _d = ""
    do for [_i = 1:strlen(ARG0)] { if (ARG0[_i:_i] eq "/") { _d = ARG0[1:_i] } }
    load _d."style.gp"
}
eval need("configs")
f = table("configs")
chosen(x) = column("n") > 0 && column("tile") > 0 && column("wpt") == 0 && \
            column("thread_rows") == 1 && column("thread_cols") == 1

# the series (rung, tile), the tiles and the sizes present
array SK[1000]
array ST[1000]
NSER = 0
ser_i(k, t) = sum [_j = 1:NSER] (SK[_j] == k && ST[_j] == t ? _j : 0)
add_ser(k, t) = ser_i(k, t) > 0 ? 0 : (NSER = NSER + 1, SK[NSER] = k, ST[NSER] = t, 0)
array TILES[100]
NT = 0
tile_i(t) = sum [_j = 1:NT] (TILES[_j] == t ? _j : 0)
add_tile(t) = tile_i(t) > 0 ? 0 : (NT = NT + 1, TILES[NT] = t, 0)
array SIZES[1000]
NS = 0
size_i(v) = sum [_j = 1:NS] (SIZES[_j] == v ? _j : 0)
add_size(v) = size_i(v) > 0 ? 0 : (NS = NS + 1, SIZES[NS] = v, 0)
stats f using (chosen(0) ? (add_ser(int(column("number")), int(column("tile"))), \
                            add_tile(int(column("tile"))), add_size(column("n"))) : 0, 0) nooutput
if (NSER == 0) { eval stop("no row in ".f." with a tile, no WPT and one output per thread (tile > 0, wpt = 0, thread_rows = thread_cols = 1) at a square size") }
stats f using (chosen(0) ? column("n") : NaN):(chosen(0) ? column("gflops") : NaN) nooutput
nmin = STATS_min_x
nmax = STATS_max_x
gmin = STATS_min_y
gmax = STATS_max_y

# a tile's place among the tiles, smallest first, and its shade and dash
tile_rank(t) = 1 + sum [_j = 1:NT] (TILES[_j] < t ? 1 : 0)
tile_shade(t) = NT > 1 ? 0.55 * (NT - tile_rank(t)) / (NT - 1.0) : 0
set dashtype 11 (2, 3)
set dashtype 12 (6, 3)
tile_dt(t) = tile_rank(t) == NT ? 1 : tile_rank(t) == NT - 1 ? 12 : 11

H = 3.0
set logscale x 2
set logscale y 10
set xrange [nmin / 1.25 : nmax * 1.25]
set yrange [gmin / 1.5 : gmax * 1.6]
set xtics ()
do for [i = 1:NS] { set xtics add (sprintf("%d", SIZES[i]) SIZES[i]) }
set mxtics 1
set format y "%g"
set ytics (100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000, 100000)
set xlabel "matrix size n   (n × n × n)"
set ylabel "GFLOP/s"
set lmargin 9
TL = ""
do for [i = 1:NT] { TL = TL.(i > 1 ? ", " : "").sprintf("%d", TILES[i]) }
eval headline("Tile width: the shared-memory tiled rungs at each tile width TS", \
              "TS × TS tiles of A and B in shared memory, one output per thread; TS = ".TL."; lighter and dashed: smaller TS")
eval corner(run_label("primary"))
set key outside right center vertical Left reverse noopaque nobox width 1 samplen 3.5 spacing 1.15 font FONT_SMALL

do for [fmt in formats] {
    eval term(fmt)
    set output outfile(fmt)
    plot for [s = 1:NSER] f using (int(column("number")) == SK[s] && column("tile") == ST[s] && chosen(0) ? column("n") : NaN):(column("gflops")) \
        with linespoints lt SK[s] lc rgb mix(R_RGB[SK[s]], tile_shade(ST[s])) dt tile_dt(ST[s]) lw 2 ps 1.0 \
        title sprintf("%s, TS %d", R_TITLE[SK[s]], ST[s])
    set output
}
