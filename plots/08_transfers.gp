# 08_transfers.gp -- figure 8, transfers: where the time of one product goes
# once the matrices start and end in host memory.  For each rung in the
# transfers run, each square size n and each kind of host memory (pinned,
# pageable), one bar stacked from the median times of the host-to-device copy
# of A and B, the kernel, and the device-to-host copy of C, as shares of their
# sum; the sum itself (ms) is written above the bar.  One panel per rung.
#
# inputs (gnuplot -e): datadir  folder holding transfers.tsv (scripts/figures.sh)
#                      out      output path without extension (.pdf, .png)
#                      t_gpu, t_date  the transfers run, for the corner label
#                               (gpu, date, of the primary run, if these are absent)
# Stops with an error naming the file when transfers.tsv is missing or empty
# (it is empty when the run has no pinned or pageable rows at square sizes).
if (!exists("plotdir")) plotdir = system("dirname '".ARG0."'")
load plotdir."/style.gp"
me = "08_transfers"
if (!exists("datadir") || !exists("out")) exit error fail("set datadir and out with gnuplot -e")
if (!exists("t_gpu")) t_gpu = gpu
if (!exists("t_date")) t_date = date
f = datadir."/transfers.tsv"
msg = problem(f)
if (msg ne "") exit error fail(msg)

# the rungs present (table order is ladder order) and the sizes, smallest first
R = system(sprintf("awk -F'\t' '!/^#/ && NF && !($1 in s) { s[$1] = 1; printf \"%%s \", $1 }' '%s'", f))
nr = words(R)
SIZES = system(sprintf("awk -F'\t' '!/^#/ && NF { print $2 }' '%s' | sort -n | uniq | tr '\\n' ' '", f))
ns = words(SIZES)
size_i(n) = sum [i = 1:ns] (int(word(SIZES, i)) == n ? i : 0)
# bar position: size group i at x = i, pinned left of centre, pageable right
bx(n, mem) = size_i(n) + (mem eq "pinned" ? -0.2 : 0.2)
BW2 = 0.17    # half a bar's width
H2D_COLOUR = "#9CB9D6"
D2H_COLOUR = "#5E6B7A"
ms(t) = t >= 100 ? sprintf("%.0f", t) : t >= 10 ? sprintf("%.1f", t) : t >= 1 ? sprintf("%.2f", t) : sprintf("%.3f", t)

set xrange [0.45 : ns + 0.55]
set yrange [0 : 130]
set grid noxtics ytics
set xtics scale 0 noenhanced font FONT_TINY
# a tic under each bar (P, U), and the size under each pair
set xtics ("" 1)
do for [i = 1:ns] {
    set xtics add ("P" i - 0.2, "U" i + 0.2)
    set label 800 + i word(SIZES, i) at first i, graph 0 center offset 0, char -2.1 font FONT_TINY
}
set xlabel "n   (P: pinned, U: pageable host memory)" noenhanced font FONT_SMALL offset 0, -0.9
eval headline("Transfers: host-to-device copy, kernel and device-to-host copy of one product", \
              "median times as shares of their sum, the kernel in its rung's colour; above each bar: the sum in ms")
eval corner(t_gpu.", ".t_date)

# the legend, bottom left: a swatch and a label per copy (the kernel's colour
# is its rung's, named above each panel)
legend(i, colour, text) = sprintf("set object %d rect from screen %g, screen 0.025 to screen %g, screen 0.055 fc rgb '%s' fs solid 1 border lc rgb '#303030' front; set label %d '%s' at screen %g, screen 0.04 left front font FONT_TINY", \
    900 + i, 0.01 + (i - 1) * 0.3, 0.035 + (i - 1) * 0.3, colour, 900 + i, text, 0.042 + (i - 1) * 0.3)
eval legend(1, H2D_COLOUR, "copy of A and B to the device")
eval legend(2, D2H_COLOUR, "copy of C back to the host")
set key off

W = 7.0
H = 3.6
set tmargin 5
set bmargin 6
# panels side by side between these screen x coordinates
PX0 = 0.125
PX1 = 0.99
PGAP = 0.04
PW = (PX1 - PX0 - (nr - 1) * PGAP) / nr
do for [fmt in formats] {
    eval term(fmt)
    set output outfile(fmt)
    set multiplot
    do for [k = 1:nr] {
        r = word(R, k)
        set lmargin at screen PX0 + (k - 1) * (PW + PGAP)
        set rmargin at screen PX0 + (k - 1) * (PW + PGAP) + PW
        set title rung_title(r) noenhanced font FONT_SMALL offset 0, -0.5
        set ytics 0, 20, 100 format (k == 1 ? "%g%%" : "")
        if (k == 1) { set ylabel "share of the summed time" } else { unset ylabel }
        plot f using (strcol(1) eq r ? bx($2, strcol(3)) : NaN):(50 * $4 / $7):(bx($2, strcol(3)) - BW2):(bx($2, strcol(3)) + BW2):(0):(100 * $4 / $7) \
                 with boxxyerror fs solid 1 border lc rgb "#303030" lc rgb H2D_COLOUR notitle, \
             f using (strcol(1) eq r ? bx($2, strcol(3)) : NaN):(100 * ($4 + $5 / 2) / $7):(bx($2, strcol(3)) - BW2):(bx($2, strcol(3)) + BW2):(100 * $4 / $7):(100 * ($4 + $5) / $7) \
                 with boxxyerror fs solid 1 border lc rgb "#303030" lt rung(r) dt solid notitle, \
             f using (strcol(1) eq r ? bx($2, strcol(3)) : NaN):(100 * ($4 + $5 + $6 / 2) / $7):(bx($2, strcol(3)) - BW2):(bx($2, strcol(3)) + BW2):(100 * ($4 + $5) / $7):(100) \
                 with boxxyerror fs solid 1 border lc rgb "#303030" lc rgb D2H_COLOUR notitle, \
             f using (strcol(1) eq r ? bx($2, strcol(3)) : NaN):(100):(ms($7)) \
                 with labels left rotate by 90 offset 0, char 0.3 font FONT_TINY notitle
    }
    unset multiplot
    set output
}
