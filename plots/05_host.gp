# 05_host.gp -- figure 5, the host rungs: GFLOP/s of host_naive and
# host_restrict at -O1, -O2 and -O3 for every host shape (square sizes, then
# the odd shapes), as clustered bars.  Colour: the rung; shade: the -O level
# (lighter = lower).
#
# inputs (gnuplot -e): datadir  folder holding host.tsv (scripts/figures.sh)
#                      out      output path without extension (.pdf, .png)
#                      gpu, date  the run, for the corner label
# Stops with an error naming the file when host.tsv is missing or empty.
if (!exists("plotdir")) plotdir = system("dirname '".ARG0."'")
load plotdir."/style.gp"
me = "05_host"
if (!exists("datadir") || !exists("out")) exit error fail("set datadir and out with gnuplot -e")
f = datadir."/host.tsv"
msg = problem(f)
if (msg ne "") exit error fail(msg)

# the largest GFLOP/s in columns 2..7 ('-' where not measured)
gmax = real(system(sprintf("awk -F'\t' '!/^#/ && NF { for (i = 2; i <= 7; i++) if ($i != \"-\" && $i + 0 > m) m = $i + 0 } END { print m + 0 }' '%s'", f)))
if (gmax <= 0) exit error fail("no host GFLOP/s in ".f)
ngroups = datarows(f)

# shape label: "1024" -> "1024", "333x555x777" -> "333×555" over "×777"
shape(s) = strstrt(s, "x") == 0 ? s : shape_mn(s, strstrt(s, "x"))
shape_mn(s, p) = s[1:p - 1]."×".shape_k(s[p + 1:], strstrt(s[p + 1:], "x"))
shape_k(s, p) = s[1:p - 1]."\n×".s[p + 1:]
shade(o) = o == 1 ? SHADE1 : o == 2 ? SHADE2 : SHADE3

set style data histogram
set style histogram clustered gap 1.5
set boxwidth 0.9 relative
set xrange [-0.6 : ngroups - 0.4]
set yrange [0 : gmax * 1.55]
set xtics scale 0 noenhanced font FONT_SMALL
set grid noxtics ytics
set xlabel "shape   (n: all matrices n × n;  M×N×K: C is M × N, the inner dimension K)" offset 0, -0.6
set bmargin 5.2
set ylabel "GFLOP/s"
eval headline("Host rungs: the triple loop at -O1, -O2, -O3, with and without __restrict", \
              "01 host_naive accumulates in C[i][j] through memory; 02 host_restrict lets the compiler keep it in a register")
# the key: one column per rung, in the head room above the bars
set key inside top center vertical maxrows 3 width 1 font FONT_SMALL
eval corner(gpu.", ".date)

do for [fmt in formats] {
    eval term(fmt)
    set output outfile(fmt)
    plot for [k = 0:5] f using (column(2 + k)):xtic(shape(strcol(1))) \
        lt (k < 3 ? 1 : 2) fs solid shade(k % 3 + 1) border lc rgb "#303030" \
        title sprintf("%s -O%d", rung_title(k < 3 ? "host_naive" : "host_restrict"), k % 3 + 1)
    set output
}
