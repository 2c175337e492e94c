#!/bin/sh
# figures.sh -- the paper's figures from results files, with gnuplot.
#
# usage: scripts/figures.sh -o OUTDIR -p PRIMARY.h5 [-c OTHER_GPU.h5]
#                           [-t TRANSFERS.h5] [-r REFERENCE.h5 [-n NEW.h5]] [-b BIN] [-T TOL]
#
#   -o OUTDIR     where the figures go: OUTDIR/NN_name.pdf and .png, and the
#                 tables they are drawn from in OUTDIR/data/*.tsv
#   -p PRIMARY    the run most figures show (figures 1-7)
#   -c OTHER_GPU  a run of the same matrix on another GPU (figure 9)
#   -t TRANSFERS  a run of experiments/transfers.ini (figure 8)
#   -r REFERENCE  the reference run a new run is compared with (figure 10:
#                 NEW / REFERENCE)
#   -n NEW        that new run (default PRIMARY)
#   -b BIN        the harness binary (default bin/mmladder)
#   -T TOL        figure 10's tolerance band, a fraction (default 0.10)
#
# Needs only a POSIX shell, awk, sort, gnuplot (5.4, cairo terminals) and the
# binary: every number comes from `BIN export FILE --passed | --samples | --attrs`.
# Columns are picked by their header name, never by position, so exports that
# gain columns keep working.
#
# Exit status: 0 every figure whose inputs were given was written; 1 bad usage,
# an unreadable input or a failed export; 2 some figure script failed (each is
# named on stderr, and its partial output removed).
set -eu
# The labels are UTF-8; under a locale that is not, gnuplot warns that iconv
# failed. C.UTF-8 is built into glibc (Debian 12, Ubuntu 24.04).
LC_ALL=C.UTF-8
export LC_ALL

prog=figures.sh
die() { printf '%s: %s\n' "$prog" "$*" >&2; exit 1; }
usage() {
    sed -n '/^# usage:/,/^#   -T/p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 1
}

outdir= primary= other= transfers= reference= new= tol=
bin=bin/mmladder
while getopts o:p:c:t:r:n:b:T:h opt; do
    case $opt in
    o) outdir=$OPTARG ;;
    p) primary=$OPTARG ;;
    c) other=$OPTARG ;;
    t) transfers=$OPTARG ;;
    r) reference=$OPTARG ;;
    n) new=$OPTARG ;;
    b) bin=$OPTARG ;;
    T) tol=$OPTARG ;;
    *) usage ;;
    esac
done
shift $((OPTIND - 1))
[ $# -eq 0 ] || die "unexpected argument '$1'"
[ -n "$outdir" ] || { printf '%s: -o OUTDIR is required\n' "$prog" >&2; usage; }
[ -n "$primary" ] || { printf '%s: -p PRIMARY.h5 is required\n' "$prog" >&2; usage; }
case $outdir in *\'*) die "OUTDIR may not contain a single quote: '$outdir'" ;; esac
[ -z "$new" ] || [ -n "$reference" ] || die "-n NEW.h5 needs -r REFERENCE.h5"
for f in "$primary" "$other" "$transfers" "$reference" "$new"; do
    [ -z "$f" ] || [ -r "$f" ] || die "cannot read results file '$f'"
done
[ -x "$bin" ] || die "no harness binary at '$bin' (build it with make, or give -b BIN)"
command -v gnuplot >/dev/null 2>&1 || die "gnuplot not found (Debian: apt-get install gnuplot-nox)"
if [ -n "$tol" ]; then
    awk -v t="$tol" 'BEGIN { exit !(t + 0 > 0 && t + 0 < 1) }' || die "-T TOL must be a fraction in (0, 1), got '$tol'"
fi

plotdir=$(cd "$(dirname "$0")/../plots" && pwd) || die "no plots/ folder next to scripts/"
data=$outdir/data
mkdir -p "$data" || die "cannot create $data"

# ---- exports ---------------------------------------------------------------------
# export FILE.h5 WHAT OUT.tsv: one `BIN export` into a file; a failed export or
# one without a single data row stops the driver.
export_to() {
    "$bin" export "$1" "--$2" > "$3" || die "'$bin export $1 --$2' failed"
    [ "$(awk 'NR > 1 { n++ } END { print n + 0 }' "$3")" -gt 0 ] ||
        die "'$bin export $1 --$2' printed no data rows"
}
# attr FILE.tsv NAME: the value of one root attribute from an --attrs export
attr() { awk -F'\t' -v k="$2" '$1 == k { print $2; found = 1; exit } END { exit !found }' "$1"; }
# the run's start as "2026-11-22 03:23 UTC" (created_utc is 2026-11-22T03:23:44Z)
run_date() {
    d=$(attr "$1" created_utc) || return 1
    printf '%s\n' "$d" | awk '{ sub(/T/, " "); print substr($0, 1, 16) " UTC" }'
}
# positive: its input if that is a number > 0, else nothing (and status 1)
positive() { awk '/^[0-9]*[.]?[0-9]+([eE][-+]?[0-9]+)?$/ && $0 + 0 > 0 { print; ok = 1 } END { exit !ok }'; }
# quoted FILE.tsv NAME FALLBACK: an attribute's value, or FALLBACK, without
# quotes (it goes into gnuplot strings)
quoted() { { attr "$1" "$2" || echo "$3"; } | tr -d "'\""; }

# export_run FILE NAME: FILE's passed rows and attributes as NAME_rows.tsv and
# NAME_attrs.tsv; nothing when FILE is empty (the option was not given)
export_run() {
    [ -n "$1" ] || return 0
    export_to "$1" passed "$data/$2_rows.tsv"
    export_to "$1" attrs "$data/$2_attrs.tsv"
}

export_run "$primary" primary
export_to "$primary" samples "$data/primary_samples.tsv"
export_run "$other" other
export_run "$transfers" transfers
if [ -n "$reference" ]; then
    export_run "$reference" reference
    export_run "${new:-$primary}" new
fi

# ---- derived tables ----------------------------------------------------------------
# "Square size" below means M = N = K, a multiple of 32 (sized(), below).
# Every program below starts with this prelude.  Each input file's header line
# maps column names to positions (col[file number, name]); v(name) is that
# column of the current line.  A column in `need` that a header lacks stops the
# program with exit 2 and a message.  Rows are ordered by `order`, the rung's
# place in the ladder (unknown rungs after the known ones); the list is the
# ladder as `bin/mmladder list` prints it, and as RUNGS in plots/style.gp.
AWK_PRELUDE='
BEGIN {
    FS = OFS = "\t"
    nr = split("host_naive host_restrict gpu_naive_global gpu_naive gpu_tiled gpu_tiled_unrolled gpu_tiled_wpt gpu_regblock gpu_vectorized gpu_double_buffered gpu_warptiled gpu_async_copy tf32_mma_sync tf32_wgmma_tma cublas_fp32 cublas_tf32", rn, " ")
    for (i = 1; i <= nr; i++) order[rn[i]] = i
}
FNR == 1 {
    fno++
    for (i = 1; i <= NF; i++) col[fno, $i] = i
    # need: the columns each file must have, "file 1 names|file 2 names|..."
    # (one list for all files when there is no "|")
    np = split(need, pn, "|")
    nn = split(pn[fno <= np ? fno : 1], w, " ")
    for (i = 1; i <= nn; i++)
        if (!((fno, w[i]) in col)) {
            printf "figures.sh: %s: no column \"%s\" in the export header\n", FILENAME, w[i] > "/dev/stderr"
            bad = 1
            exit 2
        }
    next
}
function v(name) { return $(col[fno, name]) }
function rank(r) { return (r in order) ? order[r] : 99 }
function square() { return v("M") == v("N") && v("N") == v("K") }
# a "square size": M = N = K and a multiple of 32, the widest tile of the seeds (not the
# block tiles of rungs 08-14, up to 256: that would drop n = 128).  This keeps
# the sizes axis of the experiments (128 ... 8192) and leaves out square odd
# shapes such as 4095, which are there to exercise the edge guards and would
# sit next to 4096 on every size axis.
function sized() { return square() && v("M") % 32 == 0 }
'
# table OUT.tsv HEADER-COMMENT NEED AWK-BODY FILE...: run the prelude plus
# AWK-BODY over FILE..., sort its output on the leading sort keys it prints
# (every line: key1 TAB key2 TAB key3 TAB data...), drop the keys, and write
# OUT.tsv with the comment on top.  When the program fails (a column is
# missing), OUT.tsv is not written: the figures that need it then stop, naming
# it, and the driver goes on with the others.
table() {
    out=$1 comment=$2 need=$3 body=$4
    shift 4
    tmp=$out.tmp
    rm -f "$out"
    if awk -v need="$need" "$AWK_PRELUDE
$body" "$@" > "$tmp"; then
        {
            printf '%s\n' "$comment" | sed 's/^/# /'
            sort -t "$(printf '\t')" -k1,1n -k2,2n -k3,3n "$tmp" | cut -f4-
        } > "$out"
    else
        printf '%s: could not build %s from %s\n' "$prog" "$(basename "$out")" "$*" >&2
    fi
    rm -f "$tmp"
}
BASE='variant M N K tile wpt opt_level gflops'

# BEST: per (variant, square size n), the fastest row's GFLOP/s (best[]) and
# its tile, wpt and opt_level (cfg[]).  Shared by ladder.tsv and speedup.tsv.
BEST='
sized() { k = v("variant") SUBSEP v("M")
    if (!(k in best) || v("gflops") + 0 > best[k] + 0) {
        best[k] = v("gflops"); cfg[k] = v("tile") OFS v("wpt") OFS v("opt_level")
    }
}'

# ladder.tsv (figure 1, and 4's sizes): for every rung and square size n, the
# best GFLOP/s over its tile widths, WPTs and -O levels at that n.
table "$data/ladder.tsv" \
"ladder.tsv: best GFLOP/s of each rung at each square size n = M = N = K
(a multiple of 32: the odd square shapes, such as 4095, are left out),
over the rung's tile widths (TS), work per thread (WPT) and host -O levels;
tile/wpt/opt_level are those of the fastest row (0: the rung has no such axis).
columns: variant n gflops tile wpt opt_level" \
"$BASE" "$BEST
END {
    if (bad) exit 2
    for (k in best) { split(k, p, SUBSEP)
        print rank(p[1]), p[2], 0, p[1], p[2], best[k], cfg[k] }
}" "$data/primary_rows.tsv"

# tiles.tsv (figure 2): GFLOP/s of the two tiled rungs for each tile width
# TS and square size n (there is one row per point; the best if repeated).
table "$data/tiles.tsv" \
"tiles.tsv: GFLOP/s of gpu_tiled and gpu_tiled_unrolled at each tile width TS
and square size n.
columns: variant tile n gflops" \
"$BASE" '
(v("variant") == "gpu_tiled" || v("variant") == "gpu_tiled_unrolled") && sized() {
    k = v("variant") SUBSEP v("tile") SUBSEP v("M")
    if (!(k in g) || v("gflops") + 0 > g[k] + 0) g[k] = v("gflops")
}
END {
    if (bad) exit 2
    for (k in g) { split(k, p, SUBSEP); print rank(p[1]), p[2], p[3], p[1], p[2], p[3], g[k] }
}' "$data/primary_rows.tsv"

# wpt.tsv (figure 3): gpu_tiled_wpt's GFLOP/s for each tile width TS, square
# size n >= 2048 and work per thread WPT (WPT must divide TS: other pairs are
# skipped by design and absent).
table "$data/wpt.tsv" \
"wpt.tsv: GFLOP/s of gpu_tiled_wpt for each tile width TS, square size n >= 2048
and work per thread WPT.
columns: tile n wpt gflops" \
"$BASE" '
v("variant") == "gpu_tiled_wpt" && sized() && v("M") >= 2048 {
    k = v("tile") SUBSEP v("M") SUBSEP v("wpt")
    if (!(k in g) || v("gflops") + 0 > g[k] + 0) g[k] = v("gflops")
}
END {
    if (bad) exit 2
    for (k in g) { split(k, p, SUBSEP); print p[1], p[2], p[3], p[1], p[2], p[3], g[k] }
}' "$data/primary_rows.tsv"

# speedup.tsv (figure 4): at n_host, the largest square size host_naive was
# run at, each rung's best GFLOP/s and its speedup over the best host_naive
# (over -O levels) at that size.
table "$data/speedup.tsv" \
"speedup.tsv: at the largest square size n that host_naive ran at, each rung's
best GFLOP/s (over TS, WPT, -O) and its speedup over the best host_naive row
at that n (the baseline's -O level is in its own row).
columns: variant n gflops speedup tile wpt opt_level" \
"$BASE" "$BEST
END {
    if (bad) exit 2
    nh = 0
    for (k in best) { split(k, p, SUBSEP); if (p[1] == \"host_naive\" && p[2] + 0 > nh) nh = p[2] + 0 }
    if (nh == 0) exit 0
    base = best[\"host_naive\" SUBSEP nh]
    for (k in best) { split(k, p, SUBSEP)
        if (p[2] + 0 == nh) print rank(p[1]), 0, 0, p[1], p[2], best[k], best[k] / base, cfg[k] }
}" "$data/primary_rows.tsv"

# host.tsv (figure 5): host rungs, one line per shape, GFLOP/s of each
# (rung, -O level): a table gnuplot draws as clustered bars.
table "$data/host.tsv" \
"host.tsv: GFLOP/s of the host rungs per shape (n for square shapes, else MxNxK;
square shapes first, then the others by FLOP count), per rung and -O level;
'-' where a point was not measured.
columns: shape naive_O1 naive_O2 naive_O3 restrict_O1 restrict_O2 restrict_O3" \
"$BASE flops" '
v("variant") == "host_naive" || v("variant") == "host_restrict" {
    s = square() ? v("M") : v("M") "x" v("N") "x" v("K")
    fl[s] = v("flops"); sq[s] = square()
    k = s SUBSEP (v("variant") == "host_naive" ? 1 : 2) SUBSEP v("opt_level")
    if (!(k in g) || v("gflops") + 0 > g[k] + 0) g[k] = v("gflops")
}
END {
    if (bad) exit 2
    for (s in fl) {
        line = s
        for (r = 1; r <= 2; r++) for (o = 1; o <= 3; o++)
            line = line OFS (((s, r, o) in g) ? g[s, r, o] : "-")
        print (sq[s] ? 0 : 1), sprintf("%.0f", fl[s]), 0, line
    }
}' "$data/primary_rows.tsv"

# roofline.tsv (figure 6): at the largest square size of the GPU rungs, every
# GPU configuration (rung, TS, WPT) with its GFLOP/s, and whether it is the
# rung's best.
table "$data/roofline.tsv" \
"roofline.tsv: GFLOP/s of every GPU configuration (rung, TS, WPT) at the largest
square size n the GPU rungs ran at; best = 1 on each rung's fastest configuration.
columns: variant n tile wpt gflops best" \
"$BASE device" '
v("device") == "gpu" && sized() {
    k = v("variant") SUBSEP v("M") SUBSEP v("tile") SUBSEP v("wpt")
    if (!(k in g) || v("gflops") + 0 > g[k] + 0) g[k] = v("gflops")
    if (v("M") + 0 > nmax) nmax = v("M") + 0
}
END {
    if (bad) exit 2
    for (k in g) { split(k, p, SUBSEP)
        if (p[2] + 0 == nmax && (!(p[1] in b) || g[k] + 0 > b[p[1]] + 0)) { b[p[1]] = g[k]; bk[p[1]] = k } }
    for (k in g) { split(k, p, SUBSEP)
        if (p[2] + 0 == nmax) print rank(p[1]), p[3], p[4], p[1], p[2], p[3], p[4], g[k], (bk[p[1]] == k) }
}' "$data/primary_rows.tsv"

# variability_rows.tsv and variability.tsv (figure 7): each rung's fastest
# row at square n = VAR_N, and every timed sample of those rows as a deviation
# from the row's median.  x numbers the rungs present 0, 1, ... in ladder order:
# the position of each box.  VAR_N is 4096 when the run has it (the paper's
# matrix does), else its largest GPU square size (else its largest square size).
VAR_N=$(awk -v need="$BASE device" "$AWK_PRELUDE"'
sized() { if (v("M") == 4096) has = 1
          if (v("device") == "gpu" && v("M") + 0 > g) g = v("M") + 0
          if (v("M") + 0 > a) a = v("M") + 0 }
END { if (bad) exit 2; print has ? 4096 : g ? g : a }' "$data/primary_rows.tsv") || VAR_N=4096
VAR_PICK='
fno == 1 && sized() && v("M") == '$VAR_N' {
    r = v("variant")
    if (!(r in best) || v("gflops") + 0 > best[r] + 0) {
        best[r] = v("gflops"); row[r] = v("row"); med[r] = v("time_ms_median")
        info[r] = v("samples") OFS v("time_ms_median") OFS v("stop_rule") OFS v("tile") OFS v("wpt") OFS v("opt_level")
    }
    next
}
function number_rungs(   r, q) {
    for (r in row) {
        x[r] = 0
        for (q in row) if (rank(q) < rank(r) || (rank(q) == rank(r) && q < r)) x[r]++
        xrow[row[r]] = x[r]; name[row[r]] = r; mrow[row[r]] = med[r]
    }
}'
table "$data/variability_rows.tsv" \
"variability_rows.tsv: each rung's fastest row (over TS, WPT, -O) at square n = $VAR_N;
x numbers the rungs present in ladder order.
columns: row variant x samples time_ms_median stop_rule tile wpt opt_level" \
"$BASE row samples time_ms_median stop_rule" "$VAR_PICK
END {
    if (bad) exit 2
    number_rungs()
    for (r in row) print x[r], 0, 0, row[r], r, x[r], info[r]
}" "$data/primary_rows.tsv"
table "$data/variability.tsv" \
"variability.tsv: every timed sample of the rows in variability_rows.tsv
(each rung's fastest row at n = $VAR_N), with its deviation from the row's median.
columns: x variant sample time_ms dev_pct  (dev_pct = 100 * (time_ms / median - 1))" \
"$BASE row samples time_ms_median stop_rule|row sample time_ms" "$VAR_PICK
fno == 2 && FNR == 2 { number_rungs() }
fno == 2 && (v(\"row\") in xrow) {
    r = v(\"row\")
    print xrow[r], v(\"sample\"), 0, xrow[r], name[r], v(\"sample\"), v(\"time_ms\"), 100 * (v(\"time_ms\") / mrow[r] - 1)
}
END { if (bad) exit 2 }" "$data/primary_rows.tsv" "$data/primary_samples.tsv"

# transfers.tsv (figure 8): from the transfers run, for each rung, square size
# n and host memory kind, the median host-to-device copy (A and B), kernel and
# device-to-host copy (C) times.
if [ -n "$transfers" ]; then
table "$data/transfers.tsv" \
"transfers.tsv: median times (ms) of the host-to-device copy of A and B, the kernel,
and the device-to-host copy of C, per rung, square size n and host memory kind
(pinned first).  total_ms = h2d + kernel + d2h.
columns: variant n host_memory h2d_ms kernel_ms d2h_ms total_ms" \
"$BASE host_memory time_ms_median h2d_ms_median d2h_ms_median" '
(v("host_memory") == "pinned" || v("host_memory") == "pageable") && sized() {
    print rank(v("variant")), v("M"), (v("host_memory") == "pinned" ? 0 : 1), v("variant"), v("M"), v("host_memory"), \
        v("h2d_ms_median"), v("time_ms_median"), v("d2h_ms_median"), \
        v("h2d_ms_median") + v("time_ms_median") + v("d2h_ms_median")
}
END { if (bad) exit 2 }' "$data/transfers_rows.tsv"
fi

# gpus.tsv (figure 9): each GPU rung's best GFLOP/s at the large square sizes
# (n >= 2048) on the primary GPU and on the other one, and their ratio.
if [ -n "$other" ]; then
table "$data/gpus.tsv" \
"gpus.tsv: best GFLOP/s of each GPU rung (over TS, WPT) at square n >= 2048 on the
primary run's GPU (gflops_p) and the other run's GPU (gflops_o); ratio = o / p.
Only (rung, n) measured in both runs.
columns: variant n gflops_p gflops_o ratio" \
"$BASE device" '
v("device") == "gpu" && sized() && v("M") >= 2048 {
    k = v("variant") SUBSEP v("M")
    if (!((fno, k) in g) || v("gflops") + 0 > g[fno, k] + 0) g[fno, k] = v("gflops")
    seen[k] = 1
}
END {
    if (bad) exit 2
    for (k in seen) if (((1, k) in g) && ((2, k) in g)) { split(k, p, SUBSEP)
        print rank(p[1]), p[2], 0, p[1], p[2], g[1, k], g[2, k], g[2, k] / g[1, k] }
}' "$data/primary_rows.tsv" "$data/other_rows.tsv"
fi

# repro.tsv (figure 10): each rung's best GFLOP/s per square size in the
# primary (new) run and in the reference run, and new / reference.
if [ -n "$reference" ]; then
table "$data/repro.tsv" \
"repro.tsv: best GFLOP/s of each rung (over TS, WPT, -O) per square size n in the
new run (-n, else the primary; gflops_new) and the reference run (gflops_ref);
ratio = new / ref.  Only (rung, n) measured in both runs.
columns: variant n gflops_new gflops_ref ratio" \
"$BASE" '
sized() {
    k = v("variant") SUBSEP v("M")
    if (!((fno, k) in g) || v("gflops") + 0 > g[fno, k] + 0) g[fno, k] = v("gflops")
    seen[k] = 1
}
END {
    if (bad) exit 2
    for (k in seen) if (((1, k) in g) && ((2, k) in g)) { split(k, p, SUBSEP)
        print rank(p[1]), p[2], 0, p[1], p[2], g[1, k], g[2, k], g[1, k] / g[2, k] }
}' "$data/new_rows.tsv" "$data/reference_rows.tsv"
fi

# ---- figures -------------------------------------------------------------------------
# attr_vars ATTRS.tsv PREFIX: gnuplot -e assignments from one results file's
# attributes: PREFIXgpu (the GPU's name), PREFIXdate (the run's start, marked
# when the run did not finish) and, where recorded, PREFIXpeak (FP32 peak,
# GFLOP/s) and PREFIXbw (measured device copy bandwidth, GB/s).
attr_vars() {
    a=$1 prefix=$2
    d=$(run_date "$a" || echo "undated")
    [ "$(attr "$a" complete || echo 1)" = 1 ] || d="$d, incomplete run"
    printf "%sgpu='%s'; %sdate='%s'; " "$prefix" "$(quoted "$a" gpu_name "no GPU")" "$prefix" "$d"
    p=$(attr "$a" gpu_fp32_peak_gflops | positive || true)
    b=$(attr "$a" gpu_copy_bandwidth_gbs | positive || true)
    [ -z "$p" ] || printf '%speak=%s; ' "$prefix" "$p"
    [ -z "$b" ] || printf '%sbw=%s; ' "$prefix" "$b"
}
vars_p="datadir='$data'; plotdir='$plotdir'; $(attr_vars "$data/primary_attrs.tsv" '')"

failed=
ran=0
# figure NAME EXTRA-VARS: run plots/NAME.gp writing OUTDIR/NAME.pdf and .png
figure() {
    name=$1 extra=$2
    rm -f "$outdir/$name.pdf" "$outdir/$name.png"
    printf '%s: %s\n' "$prog" "$name"
    if gnuplot -e "$vars_p $extra out='$outdir/$name'" "$plotdir/$name.gp"; then
        ran=$((ran + 1))
    else
        rm -f "$outdir/$name.pdf" "$outdir/$name.png"
        printf '%s: figure %s failed (plots/%s.gp)\n' "$prog" "$name" "$name" >&2
        failed="$failed $name"
    fi
}
skip() {
    rm -f "$outdir/$1.pdf" "$outdir/$1.png"
    printf '%s: %s skipped: needs %s\n' "$prog" "$1" "$2"
}

figure 01_ladder ""
figure 02_tile_width ""
figure 03_work_per_thread ""
figure 04_speedup ""
figure 05_host ""
figure 06_roofline ""
figure 07_variability "var_n=$VAR_N;"
if [ -n "$transfers" ]; then
    figure 08_transfers "$(attr_vars "$data/transfers_attrs.tsv" t_)"
else
    skip 08_transfers "-t TRANSFERS.h5"
fi
if [ -n "$other" ]; then
    figure 09_gpus "$(attr_vars "$data/other_attrs.tsv" o_)"
else
    skip 09_gpus "-c OTHER_GPU.h5"
fi
if [ -n "$reference" ]; then
    figure 10_reproduction "$(attr_vars "$data/new_attrs.tsv" '') $(attr_vars "$data/reference_attrs.tsv" r_) ${tol:+tol=$tol;}"
else
    skip 10_reproduction "-r REFERENCE.h5"
fi

if [ -n "$failed" ]; then
    printf '%s: %d figure(s) written to %s; FAILED:%s\n' "$prog" "$ran" "$outdir" "$failed" >&2
    exit 2
fi
printf '%s: %d figure(s) written to %s\n' "$prog" "$ran" "$outdir"
