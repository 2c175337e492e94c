# 03_work_per_thread.gp -- figure 3, work per thread: GFLOP/s against WPT, the
# outputs each thread computes, for the tile widths TS 16 and 32 at the large
# square sizes (n >= 2048).  Colour and point: the rung (rungs.tsv), its shade
# the size (lighter: smaller n); dash: TS (dashed 16, solid 32).
#
# Which rows (configs.tsv): the data choose them, not a rung name.  A row is
# drawn when its configuration has a work-per-thread axis (wpt > 0) whose
# outputs form one column of the tile (thread_rows = wpt, thread_cols = 1) and
# a block tile equal to its tile (block_rows = block_cols = tile): the seeds'
# WPT kernel (gpu_tiled_wpt in the paper's runs).  The register-blocked rungs
# past the seeds, whose WPT outputs form a square (thread_cols > 1), fall
# outside it.
#
# inputs (gnuplot -e): datadir, out (style.gp)
#                      tiles  (optional) the tile widths drawn, default "16 32"
#                      nmin   (optional) the smallest size drawn, default 2048
# Stops with an error naming the table when configs.tsv (or rungs.tsv,
# runs.tsv) is missing or empty, or has no such row.
if (!exists("STYLE_LOADED")) {
    _d = ""
    do for [_i = 1:strlen(ARG0)] { if (ARG0[_i:_i] eq "/") { _d = ARG0[1:_i] } }
    load _d."style.gp"
}
if (!exists("tiles")) { tiles = "16 32" }
if (!exists("nmin")) { nmin = 2048 }
eval need("configs")
f = table("configs")
in_tiles(t) = (sum [_j = 1:words(tiles)] (int(word(tiles, _j)) == t ? 1 : 0)) > 0
chosen(x) = column("n") >= nmin && column("wpt") > 0 && column("thread_rows") == column("wpt") && \
            column("thread_cols") == 1 && column("block_rows") == column("tile") && \
            column("block_cols") == column("tile") && in_tiles(int(column("tile")))

# the series (rung, tile, n), the tiles, the sizes and the WPT values present
array SK[1000]
array ST[1000]
array SN[1000]
NSER = 0
ser_i(k, t, n) = sum [_j = 1:NSER] (SK[_j] == k && ST[_j] == t && SN[_j] == n ? _j : 0)
add_ser(k, t, n) = ser_i(k, t, n) > 0 ? 0 : (NSER = NSER + 1, SK[NSER] = k, ST[NSER] = t, SN[NSER] = n, 0)
array TILES[100]
NT = 0
tile_i(t) = sum [_j = 1:NT] (TILES[_j] == t ? _j : 0)
add_tile(t) = tile_i(t) > 0 ? 0 : (NT = NT + 1, TILES[NT] = t, 0)
array SIZES[1000]
NS = 0
size_i(v) = sum [_j = 1:NS] (SIZES[_j] == v ? _j : 0)
add_size(v) = size_i(v) > 0 ? 0 : (NS = NS + 1, SIZES[NS] = v, 0)
array WPTS[100]
NW = 0
wpt_i(v) = sum [_j = 1:NW] (WPTS[_j] == v ? _j : 0)
add_wpt(v) = wpt_i(v) > 0 ? 0 : (NW = NW + 1, WPTS[NW] = v, 0)
stats f using (chosen(0) ? (add_ser(int(column("number")), int(column("tile")), int(column("n"))), \
                            add_tile(int(column("tile"))), add_size(int(column("n"))), \
                            add_wpt(int(column("wpt")))) : 0, 0) nooutput
if (NSER == 0) { eval stop(sprintf("no row in %s with a WPT column of outputs per thread at tile widths %s and n >= %d (wpt > 0, thread_rows = wpt, thread_cols = 1, block_rows = block_cols = tile)", f, tiles, nmin)) }
stats f using (chosen(0) ? column("wpt") : NaN):(chosen(0) ? column("gflops") : NaN) nooutput
wmin = STATS_min_x
wmax = STATS_max_x
gmax = STATS_max_y

# each series' rows, adjacent and in WPT order (configs.tsv sorts a rung's
# rows by tile, then WPT, then shape), before any axis is set
do for [s = 1:NSER] {
    eval keep(sprintf("$S%d", s), "configs", "wpt gflops", \
              sprintf("int(column(\"number\")) == %d && column(\"tile\") == %d && column(\"n\") == %d && chosen(0)", SK[s], ST[s], SN[s]))
}

# shades by size (lighter: smaller), dashes by tile (solid: the largest)
size_rank(v) = 1 + sum [_j = 1:NS] (SIZES[_j] < v ? 1 : 0)
tile_rank(v) = 1 + sum [_j = 1:NT] (TILES[_j] < v ? 1 : 0)
size_shade(n) = NS > 1 ? 0.6 * (NS - size_rank(n)) / (NS - 1.0) : 0
set dashtype 12 (6, 3)
set dashtype 11 (2, 3)
tile_dt(t) = tile_rank(t) == NT ? 1 : tile_rank(t) == NT - 1 ? 12 : 11

H = 3.0
set logscale x 2
set xrange [wmin / 1.3 : wmax * 1.3]
set xtics ()
do for [i = 1:NW] { set xtics add (sprintf("%d", WPTS[i]) WPTS[i]) }
set mxtics 1
set yrange [0 : gmax * 1.1]
set format y "%.0f"
set xlabel "work per thread WPT   (outputs of C per thread: one column of the tile)"
set ylabel "GFLOP/s"
set lmargin 9
TL = ""
do for [i = 1:NT] { TL = TL.(i > 1 ? " and " : "").sprintf("%d", TILES[i]) }
eval headline("Work per thread: GFLOP/s against WPT, large square sizes", \
              sprintf("each thread computes WPT outputs of one column of the TS × TS tile; TS = %s (dashed: the smaller); n ≥ %d", TL, nmin))
eval corner(run_label("primary"))
set key outside right center vertical Left reverse noopaque nobox width 1 samplen 3.5 spacing 1.15 font FONT_SMALL maxrows NSER

do for [fmt in formats] {
    eval term(fmt)
    set output outfile(fmt)
    plot for [s = 1:NSER] sprintf("$S%d", s) using (column("wpt")):(column("gflops")) \
        with linespoints lt SK[s] lc rgb mix(R_RGB[SK[s]], size_shade(SN[s])) dt tile_dt(ST[s]) lw 2 ps 1.0 \
        title sprintf("%s, TS %d, n = %d", R_TITLE[SK[s]], ST[s], SN[s])
    set output
}
