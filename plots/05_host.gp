# 05_host.gp -- figure 5, the host rungs: GFLOP/s of every host row
# (configs.tsv, device host) at each shape and -O level, as clustered bars: a
# cluster per shape (square sizes, then the other shapes: shape_rank), a bar
# per rung and -O level in it.  Colour: the rung (rungs.tsv); shade: the -O
# level (lighter: lower).  The corner names the run's CPU, not its GPU.
#
# inputs (gnuplot -e): datadir, out (style.gp)
# Stops with an error naming the table when configs.tsv (or rungs.tsv,
# runs.tsv) is missing or empty, or has no host row.
if (!exists("STYLE_LOADED")) {
    _d = ""
    do for [_i = 1:strlen(ARG0)] { if (ARG0[_i:_i] eq "/") { _d = ARG0[1:_i] } }
    load _d."style.gp"
}
eval need("configs")
f = table("configs")
host(x) = strcol("device") eq "host"

# the host shapes (by shape_rank), the (rung, -O level) bars and the levels
array HR[1000]
array HL[1000]
NH = 0
hr_i(r) = sum [_j = 1:NH] (HR[_j] == r ? _j : 0)
add_shape(r, label) = hr_i(r) > 0 ? 0 : (NH = NH + 1, HR[NH] = r, HL[NH] = label, 0)
array PK[100]
array PO[100]
NP = 0
pair_i(k, o) = sum [_j = 1:NP] (PK[_j] == k && PO[_j] == o ? _j : 0)
add_pair(k, o) = pair_i(k, o) > 0 ? 0 : (NP = NP + 1, PK[NP] = k, PO[NP] = o, 0)
array OPTS[10]
NO = 0
opt_i(o) = sum [_j = 1:NO] (OPTS[_j] == o ? _j : 0)
add_opt(o) = opt_i(o) > 0 ? 0 : (NO = NO + 1, OPTS[NO] = o, 0)
stats f using (host(0) ? (add_shape(int(column("shape_rank")), strcol("shape")), \
                          add_pair(int(column("number")), int(column("opt_level"))), \
                          add_opt(int(column("opt_level")))) : 0, 0) nooutput
if (NH == 0) { eval stop("no host row (device host) in ".f) }
stats f using (host(0) ? column("gflops") : NaN) nooutput
gmax = STATS_max

# positions: cluster c at x = c; its bars side by side, in ladder order, then -O
cluster(r) = 1 + sum [_j = 1:NH] (HR[_j] < r ? 1 : 0)
pair_rank(k, o) = 1 + sum [_j = 1:NP] (PK[_j] < k || (PK[_j] == k && PO[_j] < o) ? 1 : 0)
BW = 0.84 / NP
bx(r, k, o) = cluster(r) + (pair_rank(k, o) - (NP + 1) / 2.0) * BW
opt_rank(o) = 1 + sum [_j = 1:NO] (OPTS[_j] < o ? 1 : 0)
shade(k, o) = mix(R_RGB[k], NO > 1 ? 0.62 * (NO - opt_rank(o)) / (NO - 1.0) : 0)

H = 3.0
set xrange [0.45 : NH + 0.55]
set yrange [0 : gmax * 1.6]
set xtics () scale 0 font FONT_SMALL
do for [i = 1:NH] { set xtics add (times(HL[i]) cluster(HR[i])) }
set grid noxtics ytics
set format y "%g"
set xlabel "shape   (n: all three matrices n × n;  M×N×K: C is M × N, the inner dimension K)"
set ylabel "GFLOP/s"
set lmargin 8
eval headline("Host rungs: GFLOP/s at each -O level and shape", \
              "every host row of the run; colour: the rung; lighter: a lower -O level")
eval corner(run_cpu("primary").", ".run_date("primary"))
set key inside top center vertical maxrows NO Left reverse opaque box width 1 samplen 1.5 spacing 1.1 font FONT_SMALL
set style fill solid 1.0 border lc rgb "#303030"
K = 'int(column("number"))'
O = 'int(column("opt_level"))'
R = 'int(column("shape_rank"))'

do for [fmt in formats] {
    eval term(fmt)
    set output outfile(fmt)
    plot f using (host(0) ? bx(@R, @K, @O) : NaN):(column("gflops") / 2):(bx(@R, @K, @O) - BW * 0.45):(bx(@R, @K, @O) + BW * 0.45):(0):(column("gflops")):(shade(@K, @O)) \
             with boxxyerror fs solid 1 border lc rgb "#303030" fc rgb variable notitle, \
         for [p = 1:NP] NaN with boxes fs solid 1 border lc rgb "#303030" fc rgb shade(PK[p], PO[p]) \
             title sprintf("%s -O%d", R_TITLE[PK[p]], PO[p])
    set output
}
