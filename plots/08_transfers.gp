# 08_transfers.gp -- figure 8, transfers: where the time of one product goes
# once the matrices start and end in host memory.  One panel per rung of the
# transfers run (transfers.tsv), the ladder left to right; in each, against the
# square size n (rows with n > 0), the median times of the copy of A and B to
# the device (h2d_ms), the kernel (kernel_ms, in the rung's colour), the copy
# of C back (d2h_ms) and their sum (total_ms), for each kind of host memory
# (host_memory: the first kind solid with filled points, the next dashed with
# open ones).  The copies in blue-greys (triangles up: to the device; down: to
# the host), the sum a broad pale band under the rest.  Log-log axes: the copies grow as n^2, the kernel as n^3.
#
# inputs (gnuplot -e): datadir, out (style.gp)
# The corner names the transfers run (runs.tsv role transfers; the primary
# run when there is none).
# Stops with an error naming the table when transfers.tsv (or rungs.tsv,
# runs.tsv) is missing or empty, or has no square size.
if (!exists("STYLE_LOADED")) {
    _d = ""
    do for [_i = 1:strlen(ARG0)] { if (ARG0[_i:_i] eq "/") { _d = ARG0[1:_i] } }
    load _d."style.gp"
}
eval need("transfers")
f = table("transfers")
role = has_run("transfers") ? "transfers" : "primary"

# the rungs (panels), the kinds of host memory and the sizes present
array PRESENT[NRUNG]
do for [k = 1:NRUNG] { PRESENT[k] = 0 }
MEMS = ""
mem_i(m) = sum [_j = 1:words(MEMS)] (word(MEMS, _j) eq m ? _j : 0)
add_mem(m) = mem_i(m) > 0 ? 0 : (MEMS = MEMS." ".m, 0)
array SIZES[1000]
NS = 0
size_i(v) = sum [_j = 1:NS] (SIZES[_j] == v ? _j : 0)
add_size(v) = size_i(v) > 0 ? 0 : (NS = NS + 1, SIZES[NS] = v, 0)
stats f using (column("n") > 0 ? (PRESENT[int(column("number"))] = 1, add_mem(strcol("host_memory")), add_size(column("n"))) : 0, 0) nooutput
if (NS == 0) { eval stop("no square size (n > 0) in ".f) }
PANELS = ""
do for [k = 1:NRUNG] { if (PRESENT[k]) { PANELS = PANELS.sprintf(" %d", k) } }
NP = words(PANELS)
NM = words(MEMS)
stats f using (column("n") > 0 ? column("n") : NaN) nooutput
nmin = STATS_min
nmax = STATS_max
tlo = 1e30
thi = 0
do for [c in "h2d_ms kernel_ms d2h_ms total_ms"] {
    stats f using (column("n") > 0 ? column(c) : NaN) nooutput
    tlo = STATS_min < tlo ? STATS_min : tlo
    thi = STATS_max > thi ? STATS_max : thi
}

# each (rung, memory) series, its rows adjacent, before any axis is set
do for [p = 1:NP] {
    do for [m = 1:NM] {
        eval keep(sprintf("$S%d_%d", p, m), "transfers", "n h2d_ms kernel_ms d2h_ms total_ms", \
                  sprintf("int(column(\"number\")) == %s && strcol(\"host_memory\") eq \"%s\" && column(\"n\") > 0", word(PANELS, p), word(MEMS, m)))
    }
}

# the parts: copies in blue-greys with triangles up (to the device) and down
# (to the host), the kernel in the rung's colour and point, the sum a broad
# pale band under them; host memory kinds by dash and filled or open points
H2D = "#3C6FA8"
D2H = "#7A8796"
TOTAL = "#C4C4C4"
PT_H2D = 9
PT_D2H = 11
set dashtype 12 (6, 3)
mem_dt(m) = m == 1 ? 1 : 12
mem_pt(pt, m) = m == 1 ? pt : pt - 1

H = 3.5
set logscale x 2
set logscale y 10
set xrange [nmin / 1.3 : nmax * 1.3]
set yrange [10**floor(log10(tlo)) : 10**ceil(log10(thi))]
set xtics () font FONT_SMALL
do for [i = 1:NS] { set xtics add (sprintf("%d", SIZES[i]) SIZES[i]) }
set mxtics 1
set mytics 10
set format y "%g"
set xlabel "matrix size n   (n × n × n)" offset 0, 0.3
ML = ""
do for [m = 1:NM] { ML = ML.(m > 1 ? ", " : "").word(MEMS, m).(m == 1 ? " solid" : " dashed") }
labels = 'eval headline("Transfers: the copies and the kernel of one product, matrices in host memory", "median times of the copies, the kernel and their sum;  host memory: ".ML); eval corner(run_label(role))'

# geometry: panels side by side, the key below them
X0 = 0.095
X1 = 0.99
GAP = 0.03
PW = (X1 - X0 - (NP - 1) * GAP) / NP
KEYH = 0.5 / H
YB = KEYH + 0.55 / H
YT = 1 - 0.72 / H

do for [fmt in formats] {
    eval term(fmt)
    set output outfile(fmt)
    set multiplot
    eval labels
    set key off
    do for [p = 1:NP] {
        k = int(word(PANELS, p))
        set lmargin at screen X0 + (p - 1) * (PW + GAP)
        set rmargin at screen X0 + (p - 1) * (PW + GAP) + PW
        set bmargin at screen YB
        set tmargin at screen YT
        set title R_TITLE[k] offset 0, -0.7
        if (p == 1) { set ylabel "median time (ms)"; set format y "%g" } else { set ylabel ""; set format y "" }
        if (p == NP) {
            set key at screen 0.5, screen KEYH center top vertical maxrows 2 Left reverse noopaque nobox width 1 samplen 3 spacing 1.1 font FONT_SMALL
        }
        plot for [m = 1:NM] sprintf("$S%d_%d", p, m) using (column("n")):(column("total_ms")) \
                 with lines lc rgb TOTAL lw 7 dt mem_dt(m) notitle, \
             for [m = 1:NM] sprintf("$S%d_%d", p, m) using (column("n")):(column("h2d_ms")) \
                 with linespoints lc rgb H2D lw 1.8 dt mem_dt(m) pt mem_pt(PT_H2D, m) ps 0.9 notitle, \
             for [m = 1:NM] sprintf("$S%d_%d", p, m) using (column("n")):(column("d2h_ms")) \
                 with linespoints lc rgb D2H lw 1.8 dt mem_dt(m) pt mem_pt(PT_D2H, m) ps 0.9 notitle, \
             for [m = 1:NM] sprintf("$S%d_%d", p, m) using (column("n")):(column("kernel_ms")) \
                 with linespoints lt k lw 2.2 dt mem_dt(m) pt mem_pt(R_PT[k], m) ps 0.9 notitle, \
             for [i = 1:(p == NP ? 1 : 0)] NaN with linespoints lc rgb H2D lw 1.8 pt PT_H2D title "A and B to the device", \
             for [i = 1:(p == NP ? 1 : 0)] NaN with linespoints lc rgb D2H lw 1.8 pt PT_D2H title "C to the host", \
             for [i = 1:(p == NP ? 1 : 0)] NaN with lines lc rgb "#606060" lw 2.2 title "kernel (rung's colour)", \
             for [i = 1:(p == NP ? 1 : 0)] NaN with lines lc rgb TOTAL lw 7 title "sum", \
             for [m = 1:(p == NP ? NM : 0)] NaN with linespoints lc rgb "#606060" lw 1.5 dt mem_dt(m) pt mem_pt(7, m) title word(MEMS, m)
        unset label
    }
    unset multiplot
    set output
}
