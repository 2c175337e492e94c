#!/bin/sh
# paper-numbers.sh -- every number the paper prints, from the results files.
#
# usage: scripts/paper-numbers.sh [-b BIN] [-p H100.h5] [-c H200.h5]
#                                 [-t TRANSFERS.h5] [-r REPRODUCTION.h5] OUT.tex
#
#   -p  the paper matrix on the first GPU    (default $REF_H100, else
#       as data/references.mk names it)
#   -c  the paper matrix on the second GPU   (default $REF_H200, else
#       as data/references.mk names it)
#   -t  experiments/transfers.ini on the first GPU (default $REF_TRANSFERS)
#   -r  a second run of the paper matrix, compared with -p (default $REF_REPRO)
#   (defaults not in the environment come from data/references.mk)
#   -b  the harness binary (default bin/mmladder)
#
# Writes OUT.tex, one \newcommand per number, and next to it the table bodies
# the paper \input's: table-ladder.tex, table-host.tex, table-hardware.tex,
# table-transfers.tex (rows only; the paper owns the headers).
#
# The files are read through the binary only (`export --passed | --attrs`, the
# plain export for the point counts, `compare --tsv`, `list`), with awk.  Columns
# are found by their header name, never by position.
#
# Macro names.  \Num + the words below, each word capitalised, every digit spelt
# out (0 Zero, 1 One, ... 9 Nine), so "h100" becomes HOneZeroZero and "n4096"
# NFourZeroNineSix:
#   RUN       HOneZeroZero (-p), HTwoZeroZero (-c), Xfer (-t), Repro (-r)
#   RUNG      the variant name: GpuTiledWpt, CublasFpThreeTwo, HostNaive, ...
#   SHAPE     N<n> for n = M = N = K, else M<m>N<n>K<k>
#   CONFIG    Ts<ts>[Wpt<wpt>] for tiled rungs, O<level> for host rungs
#   \Num<RUN><attribute>            provenance: GpuName, GpuSmCount, PeakTflops, ...
#   \Num<RUN>Gflops<RUNG><SHAPE>[<CONFIG>]   GFLOP/s (no CONFIG: the rung's best)
#   \Num<RUN>Best<RUNG><SHAPE>      the best configuration, as text
#   \Num<RUN>PctCublas<RUNG><SHAPE> best GFLOP/s as % of the cuBLAS rung of the same
#                                   precision at that shape: cublas_tf32 for the TF32
#                                   rungs (tf32_mma_sync, tf32_wgmma_tma, and
#                                   cublas_tf32 itself: 100), cublas_fp32 for the FP32
#                                   rungs.  A rung's precision is the "precision"
#                                   column of its rows in the export (fp32, tf32);
#                                   a TF32 rung is never given as % of cublas_fp32.
#   \Num<RUN>PctPeak<RUNG><SHAPE>   best GFLOP/s as % of the FP32 peak
#   \Num<RUN>Ratio<RUNG>Over<RUNG><SHAPE>   best / best, and ...Cmp... the word
#                                   "faster than", "slower than" or "as fast as"
#   \NumSize<SHAPE>, \NumTile<ts>, \NumWpt<wpt>   the design values themselves
# and the named families documented where they are emitted below.  Step
# (LargestStep/SmallestStep) compares each hand-written rung with the one before
# it of the same precision, so no step goes from an FP32 rung to a TF32 one.
#
# table-ladder.tex: per GPU rung and (GPU, size) its best GFLOP/s and the %
# column, the % of the same-precision cuBLAS rung as for PctCublas; the TF32
# rows' % cells carry a dagger, "$^\dagger$", for the paper's table note
# (their reference is cublas_tf32, not cublas_fp32).
#
# A value that the data cannot supply is written as \MissingDatum{name}; the
# script then names every such value on stderr and exits 1 (after writing OUT,
# so that scripts/check-paper.sh can name them too).  Exit status: 0 every
# value found; 1 bad usage, unreadable input, a failed export or a missing value.
set -eu

prog=paper-numbers.sh
die() { printf '%s: %s\n' "$prog" "$*" >&2; exit 1; }

bin=bin/mmladder
# The environment (as make exports it) wins over data/references.mk.
h100=${REF_H100:-} h200=${REF_H200:-} xfer=${REF_TRANSFERS:-} repro=${REF_REPRO:-}
. data/references.mk
h100=${h100:-$REF_H100} h200=${h200:-$REF_H200}
xfer=${xfer:-$REF_TRANSFERS} repro=${repro:-$REF_REPRO}
# the tolerance the reproduction is judged by (mmladder compare --tolerance)
cmp_tol=0.10
while getopts b:p:c:t:r:h opt; do
    case $opt in
    b) bin=$OPTARG ;;
    p) h100=$OPTARG ;;
    c) h200=$OPTARG ;;
    t) xfer=$OPTARG ;;
    r) repro=$OPTARG ;;
    *) sed -n '3,4p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 1 ;;
    esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || die "one output file expected (usage: $prog [-b BIN] [-p|-c|-t|-r FILE.h5] OUT.tex)"
out=$1
outdir=$(dirname "$out")
[ -x "$bin" ] || die "no harness binary at '$bin' (build it with make, or give -b BIN)"
for f in "$h100" "$h200" "$xfer" "$repro"; do
    [ -r "$f" ] || die "cannot read results file '$f'"
done
mkdir -p "$outdir" || die "cannot create $outdir"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/paper-numbers.XXXXXX") || die "cannot create a temporary folder"
trap 'rm -rf "$tmp"' EXIT INT TERM

# x FILE ARGS...: one binary call into a file; it must succeed and print data.
x() {
    dest=$1
    shift
    "$bin" "$@" > "$tmp/$dest" || die "'$bin $*' failed"
    [ "$(awk 'NR > 1 { n++ } END { print n + 0 }' "$tmp/$dest")" -gt 0 ] ||
        die "'$bin $*' printed no data rows"
}
x h100.rows.tsv export "$h100" --passed
x h100.all.tsv export "$h100"
x h100.attrs.tsv export "$h100" --attrs
x h200.rows.tsv export "$h200" --passed
x h200.all.tsv export "$h200"
x h200.attrs.tsv export "$h200" --attrs
x xfer.xfer.tsv export "$xfer" --passed
x xfer.attrs.tsv export "$xfer" --attrs
x repro.all.tsv export "$repro"
x repro.attrs.tsv export "$repro" --attrs
x repro.cmp.tsv compare "$repro" "$h100" --tolerance "$cmp_tol" --tsv
# The ladder: `list` prints "#  variant  seed name  dev  ..." with a number in
# front of every rung; keep rank, variant and device (host/gpu).
"$bin" list > "$tmp/list.txt" || die "'$bin list' failed"
awk 'BEGIN { OFS = "\t"; print "rank", "variant", "device" }
     $1 ~ /^[0-9]+$/ { d = ""; for (i = 3; i <= NF; i++) if ($i == "gpu" || $i == "host") { d = $i; break }
                       if (d != "") print $1 + 0, $2, d }' "$tmp/list.txt" > "$tmp/ladder.list.tsv"
[ "$(awk 'NR > 1' "$tmp/ladder.list.tsv" | wc -l)" -gt 0 ] || die "'$bin list' printed no rungs"

cat > "$tmp/numbers.awk" <<'AWK'
BEGIN {
    FS = "\t"
    split("Zero One Two Three Four Five Six Seven Eight Nine", DW, " ")
    nmiss = 0; fatal = 0
    RUNTOK["h100"] = "h100"; RUNTOK["h200"] = "h200"; RUNTOK["xfer"] = "xfer"; RUNTOK["repro"] = "repro"
}
function die(msg) { printf "paper-numbers.sh: %s\n", msg > "/dev/stderr"; fatal = 1; exit 1 }
function basename(f) { sub(/.*\//, "", f); return f }
# c(name): the named column of the current record
function c(name) {
    if (!((src, name) in HDR)) die(src ": no column \"" name "\" in the export header")
    return $(HDR[src, name])
}

# ---- names, text and numbers -------------------------------------------------------
# spell("h100 gflops gpu_tiled n4096"): HOneZeroZeroGflopsGpuTiledNFourZeroNineSix
function spell(s,   o, i, ch, prev) {
    o = ""; prev = ""
    for (i = 1; i <= length(s); i++) {
        ch = substr(s, i, 1)
        if (ch ~ /[0-9]/) { o = o DW[ch + 1]; prev = "d" }
        else if (ch ~ /[A-Za-z]/) { if (prev != "l") ch = toupper(ch); o = o ch; prev = "l" }
        else prev = "s"
    }
    return o
}
function def(key, val,   name) {
    name = "Num" spell(key)
    if (name in DEFD) die("macro \\" name " emitted twice (" key ")")
    DEFD[name] = 1
    if (val == "") { val = "\\MissingDatum{" name "}"; MISS[++nmiss] = name " (" key ")" }
    printf "\\newcommand{\\%s}{%s}\n", name, val
}
function tex(s) {
    gsub(/\\/, "\001", s); gsub(/[{}_%&#$]/, "\\\\&", s)
    gsub(/\^/, "\\textasciicircum{}", s); gsub(/~/, "\\textasciitilde{}", s)
    gsub(/\001/, "\\textbackslash{}", s)
    return s
}
# a path as text that may break after "/" and "-"
function texpath(s) { s = tex(s); gsub(/[\/-]/, "&\\allowbreak{}", s); return s }
function grp(s,   r) {
    r = ""
    while (length(s) > 3) { r = "\\," substr(s, length(s) - 2) r; s = substr(s, 1, length(s) - 3) }
    return s r
}
function fint(x) { if (x == "") return ""; x = sprintf("%.0f", x); return x ~ /^-/ ? "-" grp(substr(x, 2)) : grp(x) }
# GFLOP/s: integers from 100, else three significant figures
function fg(x) { if (x == "") return ""; x += 0; return x >= 100 ? fint(x) : x >= 10 ? sprintf("%.1f", x) : sprintf("%.2f", x) }
# ratios: two decimals below 10
function fr(x) { if (x == "") return ""; x += 0; return x >= 100 ? fint(x) : x >= 10 ? sprintf("%.1f", x) : sprintf("%.2f", x) }
# percentages: one decimal below 100 (99.95 and up, which would print as 100.0, as 100)
function fp(x) { if (x == "") return ""; x += 0; return x >= 99.95 ? fint(x) : sprintf("%.1f", x) }
# milliseconds: three significant figures
function fms(x) { if (x == "") return ""; x += 0; return x >= 100 ? fint(x) : x >= 10 ? sprintf("%.1f", x) : x >= 1 ? sprintf("%.2f", x) : sprintf("%.3f", x) }
function f1(x) { if (x == "") return ""; return sprintf("%.1f", x) }
function fsci(x,   s, m, e) {
    if (x == "") return ""
    s = sprintf("%.1e", x); m = s; sub(/e.*/, "", m); e = s; sub(/.*e/, "", e); e += 0
    return "\\ensuremath{" m "\\times10^{" e "}}"
}
function ratio(a, b) { return (a == "" || b == "" || b + 0 == 0) ? "" : a / b }
function pct(a, b) { return (a == "" || b == "" || b + 0 == 0) ? "" : 100 * a / b }
function cmpword(r) { if (r == "") return ""; return r > 1.02 ? "faster than" : r < 0.98 ? "slower than" : "as fast as" }
function stopword(s) { return s == "converged" ? "converged" : s == "timeout" ? "timed out" : s == "max_samples" ? "reached the sample limit" : s == "long_point" ? "took one long sample" : "" }
# how a ratio ranging over lo..hi compares with 1
function verdict(lo, hi) {
    return lo > 1.1 ? "faster at every shape" : hi < 0.9 ? "slower at every shape" : \
        lo > 1 ? "no slower at any shape" : hi < 1 ? "no faster at any shape" : "faster at some shapes and slower at others"
}
function absdev(r) { return r > 1 ? r - 1 : 1 - r }

# ---- shapes and configurations -----------------------------------------------------
function shkey(m, n, k) { return m "x" n "x" k }
function shtok(s,   p) { split(s, p, "x"); return (p[1] == p[2] && p[2] == p[3]) ? "n" p[1] : "m" p[1] " n" p[2] " k" p[3] }
# shape as text: n for a square, else M x N x K; shtext3: always M x N x K
function shtext3(s,   p) { split(s, p, "x"); return "\\ensuremath{" p[1] "{\\times}" p[2] "{\\times}" p[3] "}" }
function shtext(s,   p) {
    split(s, p, "x")
    return (p[1] == p[2] && p[2] == p[3]) ? p[1] : "\\ensuremath{" p[1] "{\\times}" p[2] "{\\times}" p[3] "}"
}
function square(s,   p) { split(s, p, "x"); return p[1] == p[2] && p[2] == p[3] }
function shn(s,   p) { split(s, p, "x"); return p[1] + 0 }
function shflops(s,   p) { split(s, p, "x"); return 2 * p[1] * p[2] * p[3] }
function cfkey(t, w, o) { return (t + 0) "," (w + 0) "," (o + 0) }
function cftok(k,   p) { split(k, p, ","); return p[1] > 0 ? ("ts" p[1] (p[2] > 0 ? " wpt" p[2] : "")) : p[3] > 0 ? "o" p[3] : "" }
function cftext(k,   p) {
    split(k, p, ",")
    if (p[1] > 0) return "TS\\,=\\," p[1] (p[2] > 0 ? ", WPT\\,=\\," p[2] : "")
    if (p[3] > 0) return "\\mbox{\\texttt{-O" p[3] "}}"
    return "--"
}
function cfshort(k,   p) {   # the same, compact: TS/WPT, for a cell's superscript
    split(k, p, ",")
    if (p[1] > 0) return p[1] (p[2] > 0 ? "/" p[2] : "")
    return cftext(k)
}
function cfts(k, p) { split(k, p, ","); return p[1] + 0 }
function cfwpt(k, p) { split(k, p, ","); return p[2] + 0 }
function cfopt(k, p) { split(k, p, ","); return p[3] + 0 }

# ---- input -----------------------------------------------------------------------------
FNR == 1 {
    src = basename(FILENAME)
    run = src; sub(/\..*/, "", run)
    kind = src; sub(/^[^.]*\./, "", kind); sub(/\.[^.]*$/, "", kind)
    for (i = 1; i <= NF; i++) HDR[src, $i] = i
    HAVE[run] = 1
    next
}
kind == "list" { v = c("variant"); RANK[v] = c("rank") + 0; DEV[v] = c("device"); LAD[RANK[v]] = v
                 if (RANK[v] > nlad) nlad = RANK[v]; next }
kind == "attrs" { A[run, c("name")] = c("value"); next }
kind == "all" {
    NPTS[run]++; DISP[run, c("disposition")]++
    next
}
kind == "rows" {
    v = c("variant"); s = shkey(c("M"), c("N"), c("K")); k = cfkey(c("tile"), c("wpt"), c("opt_level"))
    g = c("gflops") + 0
    if (!((run, v, s, k) in G) || g > G[run, v, s, k]) G[run, v, s, k] = g
    if (!((run, v, s) in B) || g > B[run, v, s]) {
        B[run, v, s] = g; BK[run, v, s] = k; CLK[run, v, s] = c("sm_clock_mhz") + 0
        SEED[v] = c("seed_name"); gsub(/_\(/, " (", SEED[v])
        if (SEED[v] ~ /^\(/) gsub(/_/, " ", SEED[v])   # "(past_the_seeds)": spaces in the export
        BS[run, v, s] = c("samples"); BST[run, v, s] = c("stop_rule")
        BRS[run, v, s] = c("time_ms_median") > 0 ? c("time_ms_stddev") / c("time_ms_median") : ""
    }
    VR[run, v] = 1; SH[run, s] = 1; VS[run, v, s] = 1
    if (!((v, k) in CFSEEN)) { CFSEEN[v, k] = 1; NCF[v]++; CF[v, NCF[v]] = k }
    if (!(s in ALLSH)) { ALLSH[s] = 1; nsh++; SHL[nsh] = s }
    d = c("device"); p = c("precision")
    if ((v in PREC) && PREC[v] != p) die(src ": rung " v " has rows of two precisions, " PREC[v] " and " p)
    PREC[v] = p
    NROWS[run, d]++; NSAMP[run] += c("samples"); STOP[run, d, c("stop_rule")]++
    if (d == "gpu") {
        rs = c("time_ms_stddev") / c("time_ms_median")
        NRS[run]++; RSD[run, NRS[run]] = rs
        if (c("stop_rule") == "converged") NCONV[run]++
        if (p == "tf32" && (!((run, "tf32clk") in MINCLK) || c("sm_clock_mhz") + 0 < MINCLK[run, "tf32clk"]))
            MINCLK[run, "tf32clk"] = c("sm_clock_mhz") + 0
        # the tutorials' tile widths and WPTs (the block tiles and WPTs of the
        # rungs past them are named where those rungs are described)
        if (v ~ /^gpu_tiled/ && c("tile") + 0 > 0) { TILES[c("tile") + 0] = 1 }
        if (v == "gpu_tiled_wpt" && c("wpt") + 0 > 0) { WPTS[c("wpt") + 0] = 1 }
        if (square(s)) GSZ[shn(s)] = 1; else GSH[s] = 1
    } else {
        if (c("opt_level") + 0 > 0) OPTS[c("opt_level") + 0] = 1
        if (square(s)) HSZ[shn(s)] = 1; else HSH[s] = 1
    }
    e = c("rel_err") / c("tolerance")
    if (!(run in ERRMAX) || e > ERRMAX[run]) ERRMAX[run] = e
    if (c("rel_err") + 0 > RELMAX[run, p]) RELMAX[run, p] = c("rel_err") + 0
    TOL[run, p, c("K") + 0] = c("tolerance")
    next
}
kind == "xfer" {
    v = c("variant"); n = c("M"); mem = c("host_memory")
    if (c("M") != c("N") || c("N") != c("K") || mem == "" || mem == "-") next
    X[v, n, mem, "h2d"] = c("h2d_ms_median"); X[v, n, mem, "d2h"] = c("d2h_ms_median")
    X[v, n, mem, "kernel"] = c("time_ms_median")
    XV[v] = 1; XN[n + 0] = 1; XM[mem] = 1
    next
}
kind == "cmp" {
    v = c("variant"); d = (v in DEV) ? DEV[v] : (v ~ /^host_/ ? "host" : "gpu")
    r = c("ratio") + 0
    CN[d]++; if (c("within") == "yes") CIN[d]++
    if (absdev(r) > CDEV[d]) CDEV[d] = absdev(r)
    if (c("config") != c("ref_config")) CDIFF[d]++
    next
}

# ---- output ----------------------------------------------------------------------------
# sorted NUMBERS from the keys of an array: into L[1..n]; returns n
function sortkeys(arr, L,   k, n, i, j, t) {
    n = 0
    for (k in arr) L[++n] = k + 0
    for (i = 2; i <= n; i++) { t = L[i]; for (j = i - 1; j >= 1 && L[j] > t; j--) L[j + 1] = L[j]; L[j + 1] = t }
    return n
}
function joinl(L, n, sep,   i, s) { s = ""; for (i = 1; i <= n; i++) s = s (i > 1 ? sep : "") L[i]; return s }
# shapes in print order: square by n, then the others by FLOP count
function shapeorder(   i, j, t) {
    for (i = 1; i <= nsh; i++) SHO[i] = SHL[i]
    for (i = 2; i <= nsh; i++) { t = SHO[i]
        for (j = i - 1; j >= 1 && shlt(t, SHO[j]); j--) SHO[j + 1] = SHO[j]
        SHO[j + 1] = t }
}
function shlt(a, b) {
    if (square(a) != square(b)) return square(a)
    return shflops(a) < shflops(b)
}
function gf(r, v, s, k) { return ((r, v, s, k) in G) ? G[r, v, s, k] : "" }
# the cuBLAS rung a rung is compared with: the same precision (TF32 rungs with
# cublas_tf32, never with the FP32 line)
function cublasref(v) { return PREC[v] == "tf32" ? "cublas_tf32" : "cublas_fp32" }
function istf32(v) { return PREC[v] == "tf32" }
function best(r, v, s) { return ((r, v, s) in B) ? B[r, v, s] : "" }
function attr(r, n) { return ((r, n) in A) ? A[r, n] : "" }
function median(r,   i, j, t, n, L) {
    n = NRS[r]; for (i = 1; i <= n; i++) L[i] = RSD[r, i]
    for (i = 2; i <= n; i++) { t = L[i]; for (j = i - 1; j >= 1 && L[j] > t; j--) L[j + 1] = L[j]; L[j + 1] = t }
    if (n == 0) return ""
    return n % 2 ? L[(n + 1) / 2] : (L[n / 2] + L[n / 2 + 1]) / 2
}
function cudaver(x) { if (x == "") return ""; return int(x / 1000) "." int((x % 1000) / 10) }
function rule(r, which, key,   s, p, i, n, kv) {
    s = attr(r, which "_sampling_rule"); n = split(s, p, " ")
    for (i = 1; i <= n; i++) { split(p[i], kv, "="); if (kv[1] == key) return kv[2] }
    return ""
}

function emit_attrs(r, R,   v, s) {
    def(R " gpu name", tex(attr(r, "gpu_name")))
    s = attr(r, "gpu_name"); sub(/^NVIDIA /, "", s); def(R " gpu short name", tex(s))
    sub(/ .*/, "", s); def(R " gpu model", tex(s))
    def(R " gpu cc", attr(r, "gpu_cc"))
    def(R " gpu sm count", attr(r, "gpu_sm_count"))
    def(R " gpu max clock mhz", fint(attr(r, "gpu_max_clock_mhz")))
    def(R " gpu mem clock mhz", fint(attr(r, "gpu_mem_clock_mhz")))
    def(R " gpu mem bus bits", fint(attr(r, "gpu_mem_bus_bits")))
    v = attr(r, "gpu_l2_bytes"); def(R " gpu l2 mib", v == "" ? "" : sprintf("%.0f", v / 1048576))
    v = attr(r, "gpu_global_mem_bytes"); def(R " gpu mem gib", v == "" ? "" : sprintf("%.0f", v / 1073741824))
    def(R " gpu datasheet bw", fint(attr(r, "gpu_mem_bandwidth_gbs")))
    def(R " gpu copy bw", fint(attr(r, "gpu_copy_bandwidth_gbs")))
    def(R " gpu copy bw pct", fp(pct(attr(r, "gpu_copy_bandwidth_gbs"), attr(r, "gpu_mem_bandwidth_gbs"))))
    def(R " gpu lanes per sm", attr(r, "gpu_fp32_lanes_per_sm"))
    v = attr(r, "gpu_fp32_peak_gflops"); def(R " peak tflops", v == "" ? "" : f1(v / 1000))
    def(R " peak gflops", fint(v))
    def(R " cuda runtime", cudaver(attr(r, "cuda_runtime_version")))
    def(R " cuda driver", cudaver(attr(r, "cuda_driver_version")))
    def(R " nvcc version", tex(attr(r, "nvcc_version")))
    def(R " nvcc flags", tex(attr(r, "nvccflags")))
    s = attr(r, "cc_version"); v = s; sub(/[ (].*/, "", v); sub(/-real$/, "", v); sub(/.* /, "", s)
    def(R " cc version", s == "" ? "" : tex(v " " s))
    def(R " host kernel cflags", tex(attr(r, "host_kernel_cflags")))
    def(R " cpu model", tex(attr(r, "cpu_model")))
    def(R " cpu count", attr(r, "cpu_count"))
    s = attr(r, "os"); sub(/ [^ ]*$/, "", s); def(R " os", tex(s))
    s = attr(r, "git_commit"); def(R " git short", substr(s, 1, 7))
    s = attr(r, "git_dirty"); def(R " git state", s == "" ? "" : s == 0 ? "with no local changes" : s == 1 ? "with local changes" : "with local changes unknown")
    s = attr(r, "created_utc"); def(R " date", substr(s, 1, 10))
    def(R " time", substr(s, 12, 5))
    def(R " wall s", fint(attr(r, "wall_time_s")))
    v = attr(r, "wall_time_s"); def(R " wall min", v == "" ? "" : f1(v / 60))
    def(R " seed", attr(r, "seed"))
    def(R " schema", attr(r, "schema_version"))
}

function emit_counts(r, R) {
    def(R " points", NPTS[r] + 0 ? NPTS[r] : "")
    def(R " passed", DISP[r, "passed"] + 0)
    def(R " skipped", DISP[r, "skipped"] + 0)
    def(R " incorrect", DISP[r, "incorrect"] + 0)
    def(R " failed", DISP[r, "failed"] + 0)
}

function emit_sampling(r, R,   w, ks, n, i, key, val) {
    n = split("min_samples max_samples min_time_ms timeout_ms target_rel_stddev long_point_ms", ks, " ")
    for (w = 1; w <= 2; w++) {
        which = w == 1 ? "gpu" : "host"
        for (i = 1; i <= n; i++) {
            key = ks[i]; val = rule(r, which, key)
            if (key == "target_rel_stddev") { def(R " " which " rule target pct", val == "" ? "" : sprintf("%g", 100 * val)); continue }
            if (key == "long_point_ms") { def(R " " which " rule long point s", val == "" ? "" : sprintf("%g", val / 1000)); continue }
            def(R " " which " rule " key, fint(val))
        }
    }
}

# per paper run: rows, sampling, verification
function emit_paper(r, R,   i, j, s, v, k, n, ts, b, cb, pk, prev, key, w, u, t, L, lo, hi, o, rr, d, st, nl, sts, tk, g, bw, from, hv, lv, ai, a) {
    def(R " gpu rows", NROWS[r, "gpu"] + 0); def(R " host rows", NROWS[r, "host"] + 0)
    def(R " samples", fint(NSAMP[r]))
    split("converged timeout max_samples long_point", sts, " ")
    for (d = 1; d <= 2; d++) for (st = 1; st <= 4; st++)
        def(R " stop " (d == 1 ? "gpu" : "host") " " sts[st], STOP[r, d == 1 ? "gpu" : "host", sts[st]] + 0)
    def(R " rel std median pct", fp(100 * median(r)))
    def(R " converged pct", fp(pct(NCONV[r], NRS[r])))
    def(R " err max pct tol", (r in ERRMAX) ? fp(100 * ERRMAX[r]) : "")
    def(R " rel err max fp32", fsci(RELMAX[r, "fp32"]))
    def(R " rel err max tf32", fsci(RELMAX[r, "tf32"]))
    for (key in TOL) { split(key, tk, SUBSEP); if (tk[1] == r) def(R " tol " tk[2] " k" tk[3], fsci(TOL[key])) }
    def(R " tf32 clock min", fint(MINCLK[r, "tf32clk"]))
    pk = attr(r, "gpu_fp32_peak_gflops")

    for (i = 1; i <= nsh; i++) {
        s = SHO[i]; if (!((r, s) in SH)) continue
        prev = ""
        for (j = 1; j <= nlad; j++) {
            v = LAD[j]; if (!((r, v, s) in VS)) continue
            b = best(r, v, s)
            def(R " gflops " v " " shtok(s), fg(b))
            def(R " best " v " " shtok(s), cftext(BK[r, v, s]))
            def(R " clock " v " " shtok(s), fint(CLK[r, v, s]))
            def(R " samples " v " " shtok(s), fint(BS[r, v, s]))
            def(R " stop " v " " shtok(s), stopword(BST[r, v, s]))
            def(R " rel std pct " v " " shtok(s), BRS[r, v, s] == "" ? "" : sprintf("%.2f", 100 * BRS[r, v, s]))
            for (n = 1; n <= NCF[v]; n++) {
                k = CF[v, n]
                if (cftok(k) != "" && ((r, v, s, k) in G)) def(R " gflops " v " " shtok(s) " " cftok(k), fg(G[r, v, s, k]))
            }
            if ((r, cublasref(v), s) in B) def(R " pct cublas " v " " shtok(s), fp(pct(b, B[r, cublasref(v), s])))
            if (DEV[v] == "gpu" && pk != "") def(R " pct peak " v " " shtok(s), fp(pct(b, pk)))
            # Ratio/Cmp: this rung's best over every earlier rung's best at the shape
            for (w = 1; w < j; w++) {
                u = LAD[w]; if (!((r, u, s) in VS)) continue
                rr = ratio(b, best(r, u, s))
                def(R " ratio " v " over " u " " shtok(s), fr(rr))
                def(R " cmp " v " over " u " " shtok(s), cmpword(rr))
            }
        }
        # Unroll: gpu_tiled_unrolled / gpu_tiled at one tile width (UnrollGain), and
        # gpu_tiled_wpt at WPT 1 / gpu_tiled_unrolled (WptOneOverUnrolled): same loop.
        for (n = 1; n <= NCF["gpu_tiled"]; n++) {
            k = CF["gpu_tiled", n]; ts = cfts(k)
            rr = ratio(gf(r, "gpu_tiled_unrolled", s, k), gf(r, "gpu_tiled", s, k))
            if (rr != "") {
                def(R " unroll gain " shtok(s) " ts" ts, fr(rr))
                if (!((r, "ulo") in MM) || rr < MM[r, "ulo"]) MM[r, "ulo"] = rr
                if (!((r, "uhi") in MM) || rr > MM[r, "uhi"]) MM[r, "uhi"] = rr
                if (shflops(s) >= 2 * 1024 ^ 3) {
                    if (!((r, "ulol") in MM) || rr < MM[r, "ulol"]) MM[r, "ulol"] = rr
                    if (!((r, "uhil") in MM) || rr > MM[r, "uhil"]) MM[r, "uhil"] = rr
                }
            }
            rr = ratio(gf(r, "gpu_tiled_wpt", s, cfkey(ts, 1, 0)), gf(r, "gpu_tiled_unrolled", s, k))
            if (rr != "") {
                def(R " wpt one over unrolled " shtok(s) " ts" ts, fr(rr))
                if (!((r, "w1dev") in MM) || absdev(rr) > MM[r, "w1dev"]) MM[r, "w1dev"] = absdev(rr)
            }
        }
        # TileRatio: one rung's GFLOP/s at one tile width over another, same shape
        split("gpu_tiled gpu_tiled_unrolled", t, " ")
        for (w = 1; w <= 2; w++) {
            v = t[w]
            for (n = 1; n <= NCF[v]; n++) for (o = 1; o <= NCF[v]; o++) {
                if (n == o) continue
                rr = ratio(gf(r, v, s, CF[v, n]), gf(r, v, s, CF[v, o]))
                if (rr != "") def(R " tile ratio " v " " shtok(s) " " cftok(CF[v, n]) " over " cftok(CF[v, o]), fr(rr))
            }
        }
        # Wpt: per tile width, the best WPT (WptBest), its gain over WPT 1 (WptGain), the
        # block's threads TS*TS/WPT at the best (WptThreads), and the best
        # configuration whose block is narrower than a warp over the best other one
        # (SubWarpRatio; a warp is 32 threads)
        for (n = 1; n <= NCF["gpu_tiled"]; n++) {
            ts = cfts(CF["gpu_tiled", n]); lo = ""; hi = ""; b = ""; bw = ""
            for (o = 1; o <= NCF["gpu_tiled_wpt"]; o++) {
                k = CF["gpu_tiled_wpt", o]; if (cfts(k) != ts || !((r, "gpu_tiled_wpt", s, k) in G)) continue
                g = G[r, "gpu_tiled_wpt", s, k]
                if (b == "" || g > b) { b = g; bw = cfwpt(k) }
                if (ts * ts / cfwpt(k) < 32) { if (lo == "" || g > lo) lo = g } else { if (hi == "" || g > hi) hi = g }
            }
            if (b == "") continue
            def(R " wpt best " shtok(s) " ts" ts, bw)
            def(R " wpt threads " shtok(s) " ts" ts, ts * ts / bw)
            def(R " wpt gain " shtok(s) " ts" ts, fr(ratio(b, gf(r, "gpu_tiled_wpt", s, cfkey(ts, 1, 0)))))
            if (lo != "" && hi != "") def(R " sub warp ratio " shtok(s) " ts" ts, fr(ratio(lo, hi)))
        }
        # host: RestrictRatio host_restrict / host_naive at one -O level
        for (o = 1; o <= 9; o++) {
            rr = ratio(gf(r, "host_restrict", s, cfkey(0, 0, o)), gf(r, "host_naive", s, cfkey(0, 0, o)))
            if (rr == "") continue
            def(R " restrict ratio " shtok(s) " o" o, fr(rr))
            def(R " restrict cmp " shtok(s) " o" o, cmpword(rr))
            if (!((r, "rlo", o) in MM) || rr < MM[r, "rlo", o]) MM[r, "rlo", o] = rr
            if (!((r, "rhi", o) in MM) || rr > MM[r, "rhi", o]) MM[r, "rhi", o] = rr
            OSEEN[o] = 1
        }
        for (o = 2; o <= 9; o++) {
            rr = ratio(gf(r, "host_naive", s, cfkey(0, 0, o)), gf(r, "host_naive", s, cfkey(0, 0, 1)))
            if (rr != "") def(R " opt ratio host_naive " shtok(s) " o" o " over o1", fr(rr))
        }
        # speedup of every rung over the best host_naive at the same shape
        if ((r, "host_naive", s) in B)
            for (j = 1; j <= nlad; j++) { v = LAD[j]
                if (DEV[v] == "gpu" && ((r, v, s) in B)) def(R " over host " v " " shtok(s), fint(ratio(B[r, v, s], B[r, "host_naive", s]))) }
    }
    # Step: along the hand-written GPU rungs (not cuBLAS), each rung's best over the
    # best of the GPU rung before it of the same precision (the first TF32 rung has
    # no step: it is not compared with an FP32 rung); LargestStep/SmallestStep name
    # the rung and ratio
    for (i = 1; i <= nsh; i++) {
        s = SHO[i]; lo = ""; hi = ""; delete PREV
        for (j = 1; j <= nlad; j++) {
            v = LAD[j]; if (DEV[v] != "gpu" || v ~ /^cublas/ || !((r, v, s) in B)) continue
            prev = (PREC[v] in PREV) ? PREV[PREC[v]] : ""
            if (prev != "") {
                rr = B[r, v, s] / B[r, prev, s]
                if (hi == "" || rr > hi) { hi = rr; hv = v }
                if (lo == "" || rr < lo) { lo = rr; lv = v }
            }
            PREV[PREC[v]] = v
        }
        if (hi == "") continue
        def(R " largest step rung " shtok(s), "\\texttt{" tex(hv) "}"); def(R " largest step ratio " shtok(s), fr(hi))
        def(R " smallest step rung " shtok(s), "\\texttt{" tex(lv) "}"); def(R " smallest step ratio " shtok(s), fr(lo))
    }
    # ImpliedBwPct: the DRAM traffic a rung's best GFLOP/s would need if no load
    # were served by a cache, as % of the measured copy bandwidth.  FLOP per byte:
    # gpu_naive_global 2/12 (two loads and a store of C per multiply-add),
    # gpu_naive 2/8 (two loads), the tiled rungs TS/4 (each load feeds TS
    # multiply-adds), TS of the best configuration.
    for (i = 1; i <= nsh; i++) {
        s = SHO[i]
        for (j = 1; j <= nlad; j++) {
            v = LAD[j]; if (!((r, v, s) in B)) continue
            ai = v == "gpu_naive_global" ? 2 / 12 : v == "gpu_naive" ? 2 / 8 : \
                 (v ~ /^gpu_tiled/ && cfts(BK[r, v, s]) > 0) ? cfts(BK[r, v, s]) / 4 : ""
            if (ai == "") continue
            def(R " intensity " v " " shtok(s), fr(ai))
            def(R " implied bw pct " v " " shtok(s), fp(pct(B[r, v, s] / ai, attr(r, "gpu_copy_bandwidth_gbs"))))
        }
    }
    # Trend: from one square size to the next, does a rung's best GFLOP/s rise, fall
    # or stay level (within 2%)?  Trend<RUNG><SHAPE>To<SHAPE>
    nl = sortkeys(SQ, L)
    for (j = 1; j <= nlad; j++) {
        v = LAD[j]
        for (i = 1; i < nl; i++) {
            a = shkey(L[i], L[i], L[i]); b = shkey(L[i + 1], L[i + 1], L[i + 1])
            if (!((r, v, a) in B) || !((r, v, b) in B)) continue
            rr = B[r, v, b] / B[r, v, a]
            def(R " trend " v " " shtok(a) " to " shtok(b), rr > 1.02 ? "rises" : rr < 0.98 ? "falls" : "stays level")
        }
    }
    def(R " unroll gain min", fr(MM[r, "ulo"])); def(R " unroll gain max", fr(MM[r, "uhi"]))
    def(R " unroll gain min large", fr(MM[r, "ulol"])); def(R " unroll gain max large", fr(MM[r, "uhil"]))
    def(R " unroll verdict", MM[r, "ulo"] == "" ? "" : MM[r, "ulo"] > 1 ? "faster at every size and tile width" : "not faster everywhere")
    def(R " wpt one over unrolled max dev pct", ((r, "w1dev") in MM) ? fp(100 * MM[r, "w1dev"]) : "")
    # RestrictMin/Max/Verdict: over the host shapes, at each -O level
    for (o in OSEEN) {
        lo = MM[r, "rlo", o]; hi = MM[r, "rhi", o]
        def(R " restrict min o" o, fr(lo)); def(R " restrict max o" o, fr(hi))
        def(R " restrict verdict o" o, verdict(lo, hi))
    }
    # RestrictMinHigh/MaxHigh/VerdictHigh: the same over every -O level above 1, on
    # this run's host and the other paper run's host together
    lo = ""; hi = ""
    for (key in MM) {
        split(key, tk, SUBSEP)
        if ((tk[1] != "h100" && tk[1] != "h200") || tk[3] + 0 < 2) continue
        if (tk[2] == "rlo" && (lo == "" || MM[key] < lo)) lo = MM[key]
        if (tk[2] == "rhi" && (hi == "" || MM[key] > hi)) hi = MM[key]
    }
    if (r == "h200") {
        def("restrict min high", fr(lo)); def("restrict max high", fr(hi))
        def("restrict verdict high", lo == "" ? "" : verdict(lo, hi))
    }
    # TsBestFrom: the smallest square n from which the widest tile is best at every larger square n
    split("gpu_tiled gpu_tiled_unrolled gpu_tiled_wpt", t, " ")
    nl = sortkeys(GSZ, L)
    for (w = 1; w <= 3; w++) {
        v = t[w]; from = ""
        vmax = 0   # the widest tile this rung is built for
        for (o = 1; o <= NCF[v]; o++) if (cfts(CF[v, o]) + 0 > vmax) vmax = cfts(CF[v, o]) + 0
        for (i = nl; i >= 1; i--) {
            s = shkey(L[i], L[i], L[i]); if (!((r, v, s) in BK)) continue
            if (cfts(BK[r, v, s]) == vmax) from = L[i]; else break
        }
        def(R " widest tile best from " v, from)
    }
}

function emit_tables(   i, j, s, v, k, n, w, line, cfg, cells, sz, rr, r, row, L, nl, o, mems, kind) {
    # table-ladder.tex: GPU rungs; per (GPU, the two largest square sizes): best GFLOP/s
    # and % of the cuBLAS rung of the same precision (cublasref: cublas_tf32 for the
    # TF32 rows, whose % cell carries a dagger for the table note, cublas_fp32 for
    # the others); the configuration column is the first cell's best, and a cell
    # whose best differs carries its own in a superscript.
    nl = sortkeys(GSZ, L)
    sz[1] = L[nl - 1]; sz[2] = L[nl]
    def("table size a", sz[1]); def("table size b", sz[2])
    f = OUTDIR "/table-ladder.tex"
    printf "%% generated by scripts/paper-numbers.sh -- do not edit\n" > f
    for (j = 1; j <= nlad; j++) {
        v = LAD[j]; if (DEV[v] != "gpu") continue
        s = shkey(sz[1], sz[1], sz[1]); cfg = ((("h100", v, s) in BK) ? BK["h100", v, s] : "")
        line = sprintf("%02d & \\texttt{%s} & \\texttt{%s} & %s", RANK[v], tex(v), tex(SEED[v]), cftext(cfg))
        for (r = 1; r <= 2; r++) for (i = 1; i <= 2; i++) {
            run = r == 1 ? "h100" : "h200"; s = shkey(sz[i], sz[i], sz[i])
            if (!((run, v, s) in B)) { line = line " & \\MissingDatum{" v "} & \\MissingDatum{}"; MISS[++nmiss] = "table-ladder " run " " v " " sz[i]; continue }
            cells = fg(B[run, v, s]) (BK[run, v, s] != cfg ? "\\textsuperscript{" cfshort(BK[run, v, s]) "}" : "")
            rr = pct(B[run, v, s], best(run, cublasref(v), s))
            if (rr == "") { MISS[++nmiss] = "table-ladder " run " " v " " sz[i] " % of " cublasref(v); rr = "\\MissingDatum{}" } else rr = fp(rr)
            line = line " & " cells " & " rr (istf32(v) ? "$^\\dagger$" : "")
        }
        print line " \\\\" > f
    }
    close(f)

    # table-host.tex: one line per host shape: host_restrict / host_naive GFLOP/s at
    # each -O level, on the first GPU's host, then on the second's.
    f = OUTDIR "/table-host.tex"
    printf "%% generated by scripts/paper-numbers.sh -- do not edit\n" > f
    no = sortkeys(OPTS, OL)
    for (i = 1; i <= nsh; i++) {
        s = SHO[i]; if (!(("h100", "host_naive", s) in B) && !(("h200", "host_naive", s) in B)) continue
        line = shtext(s)
        for (w = 1; w <= 2; w++) { run = w == 1 ? "h100" : "h200"
            for (o = 1; o <= no; o++) { k = cfkey(0, 0, OL[o])
                rr = ratio(gf(run, "host_restrict", s, k), gf(run, "host_naive", s, k))
                if (rr == "") MISS[++nmiss] = "table-host " run " " s " -O" OL[o]
                line = line " & " (rr == "" ? "\\MissingDatum{}" : fr(rr)) } }
        print line " \\\\" > f
    }
    close(f)

    # table-hardware.tex: the two GPUs side by side
    f = OUTDIR "/table-hardware.tex"
    printf "%% generated by scripts/paper-numbers.sh -- do not edit\n" > f
    hw("GPU", "gpu_name", "name", f)
    hw("compute capability", "gpu_cc", "raw", f)
    hw("SMs", "gpu_sm_count", "raw", f)
    hw("max.\\ SM clock (MHz)", "gpu_max_clock_mhz", "int", f)
    hw("FP32 lanes per SM", "gpu_fp32_lanes_per_sm", "raw", f)
    hw("FP32 peak (TFLOP/s)", "gpu_fp32_peak_gflops", "tflops", f)
    hw("L2 cache (MiB)", "gpu_l2_bytes", "mib", f)
    hw("memory (GiB)", "gpu_global_mem_bytes", "gib", f)
    hw("memory bus (bits)", "gpu_mem_bus_bits", "int", f)
    hw("memory clock (MHz)", "gpu_mem_clock_mhz", "int", f)
    hw("bandwidth (GB/s)", "gpu_mem_bandwidth_gbs", "int", f)
    hw("measured copy (GB/s)", "gpu_copy_bandwidth_gbs", "int", f)
    hw("CUDA runtime / driver", "cuda_runtime_version", "cuda", f)
    hw("nvcc", "nvcc_version", "raw", f)
    hw("host CPUs (cores)", "cpu_count", "raw", f)
    hw("run start (UTC)", "created_utc", "date", f)
    hw("run length (s)", "wall_time_s", "int", f)
    close(f)

    # table-transfers.tex: cublas_fp32 in the transfers run, per square n: the copies
    # (pinned, pageable), the kernel (pinned run) and the copies' share of the total
    f = OUTDIR "/table-transfers.tex"
    printf "%% generated by scripts/paper-numbers.sh -- do not edit\n" > f
    nl = sortkeys(XN, L)
    for (i = 1; i <= nl; i++) {
        n = L[i]; v = "cublas_fp32"
        if (!((v, n, "pinned", "h2d") in X) || !((v, n, "pageable", "h2d") in X)) continue
        line = n
        line = line " & " fms(X[v, n, "pinned", "h2d"]) " & " fms(X[v, n, "pageable", "h2d"])
        line = line " & " fms(X[v, n, "pinned", "d2h"]) " & " fms(X[v, n, "pageable", "d2h"])
        line = line " & " fms(X[v, n, "pinned", "kernel"])
        line = line " & " fp(copyshare(v, n, "pinned")) " & " fp(copyshare(v, n, "pageable"))
        print line " \\\\" > f
    }
    close(f)
}
function copyshare(v, n, mem,   cp) {
    cp = X[v, n, mem, "h2d"] + X[v, n, mem, "d2h"]
    return pct(cp, cp + X[v, n, mem, "kernel"])
}
function hwval(r, key, how,   s) {
    s = attr(r, key); if (s == "") return "\\MissingDatum{}"
    if (how == "name") { sub(/^NVIDIA /, "", s); return tex(s) }
    if (how == "int") return fint(s)
    if (how == "tflops") return f1(s / 1000)
    if (how == "mib") return sprintf("%.0f", s / 1048576)
    if (how == "gib") return sprintf("%.0f", s / 1073741824)
    if (how == "cuda") return cudaver(s) " / " cudaver(attr(r, "cuda_driver_version"))
    if (how == "date") { sub(/T/, " ", s); return substr(s, 1, 16) }
    return tex(s)
}
function hw(label, key, how, f,   a, b) {
    a = hwval("h100", key, how); b = hwval("h200", key, how)
    if (a ~ /MissingDatum/ || b ~ /MissingDatum/) MISS[++nmiss] = "table-hardware " key
    print label " & " a " & " b " \\\\" > f
}

function emit_transfers(   L, nl, i, n, v, mem, t, q, bh, bd, lo, hi, kd, hk, any) {
    emit_attrs("xfer", "xfer")
    for (v in XV) any = 1
    if (!any) { def("xfer rows", ""); return }
    nl = sortkeys(XN, L)
    for (v in XV) for (i = 1; i <= nl; i++) {
        n = L[i]
        for (mem in XM) {
            if (!((v, n, mem, "h2d") in X)) continue
            t = v " n" n " " mem
            def("xfer h2d ms " t, fms(X[v, n, mem, "h2d"]))
            def("xfer d2h ms " t, fms(X[v, n, mem, "d2h"]))
            def("xfer kernel ms " t, fms(X[v, n, mem, "kernel"]))
            def("xfer total ms " t, fms(X[v, n, mem, "h2d"] + X[v, n, mem, "d2h"] + X[v, n, mem, "kernel"]))
            # bandwidths: A and B in (2 n^2 floats), C out (n^2 floats), decimal GB/s
            bh = ratio(2 * n * n * 4 / 1e6, X[v, n, mem, "h2d"]); bd = ratio(n * n * 4 / 1e6, X[v, n, mem, "d2h"])
            def("xfer h2d gbs " t, f1(bh)); def("xfer d2h gbs " t, f1(bd))
            def("xfer copy pct " t, fp(copyshare(v, n, mem)))
            if (!((mem, "bhlo") in XX) || bh < XX[mem, "bhlo"]) XX[mem, "bhlo"] = bh
            if (!((mem, "bhhi") in XX) || bh > XX[mem, "bhhi"]) XX[mem, "bhhi"] = bh
            if (!((mem, "bdhi") in XX) || bd > XX[mem, "bdhi"]) XX[mem, "bdhi"] = bd
        }
        if ((v, n, "pinned", "h2d") in X && (v, n, "pageable", "h2d") in X) {
            q = v " n" n
            def("xfer h2d pageable over pinned " q, fr(ratio(X[v, n, "pageable", "h2d"], X[v, n, "pinned", "h2d"])))
            def("xfer d2h pageable over pinned " q, fr(ratio(X[v, n, "pageable", "d2h"], X[v, n, "pinned", "d2h"])))
            kd = absdev(ratio(X[v, n, "pageable", "kernel"], X[v, n, "pinned", "kernel"]))
            if (!("kdev" in XX) || kd > XX["kdev"]) XX["kdev"] = kd
            hk = ratio(X[v, n, "pinned", "h2d"] + X[v, n, "pinned", "d2h"], X[v, n, "pinned", "kernel"])
            def("xfer copy over kernel " q " pinned", fr(hk))
            if (hk > 1) { if (!((v, "cross") in XX) || n + 0 > XX[v, "cross"]) XX[v, "cross"] = n + 0 }
        }
    }
    for (mem in XM) {
        def("xfer h2d gbs min " mem, f1(XX[mem, "bhlo"])); def("xfer h2d gbs max " mem, f1(XX[mem, "bhhi"]))
        def("xfer d2h gbs max " mem, f1(XX[mem, "bdhi"]))
    }
    v = attr("xfer", "wall_time_s"); t = attr("repro", "wall_time_s")
    def("reproduce wall min", (v == "" || t == "") ? "" : f1((v + t) / 60))
    def("xfer kernel dev pct", ("kdev" in XX) ? fp(100 * XX["kdev"]) : "")
    # the largest n at which the pinned copies still take longer than the kernel
    for (v in XV) def("xfer copy exceeds kernel up to " v, ((v, "cross") in XX) ? XX[v, "cross"] : "")
    nl = sortkeys(XN, L); def("xfer sizes", joinl(L, nl, ", ")); def("xfer n min", L[1]); def("xfer n max", L[nl])
}

function emit_compare(   d, n, w) {
    def("repro tol pct", sprintf("%g", 100 * CMPTOL))
    n = CN["gpu"] + CN["host"]; w = CIN["gpu"] + CIN["host"]
    def("repro pairs", n ? n : ""); def("repro within", n ? w + 0 : "")
    for (d = 1; d <= 2; d++) {
        dv = d == 1 ? "gpu" : "host"
        def("repro " dv " pairs", CN[dv] ? CN[dv] : "")
        def("repro " dv " within", CN[dv] ? CIN[dv] + 0 : "")
        def("repro " dv " outside", CN[dv] ? CN[dv] - CIN[dv] : "")
        def("repro " dv " max dev pct", CN[dv] ? fp(100 * CDEV[dv]) : "")
        def("repro " dv " config differs", CN[dv] ? CDIFF[dv] + 0 : "")
    }
}

function emit_cross(   i, s, j, v, rr, lo, hi, k, lov, los, hiv, his) {
    # H200 over H100 for every GPU rung and shape (HTwoZeroZeroOverHOneZeroZero<RUNG><SHAPE>),
    # and its range over the rungs other than gpu_naive_global at square n >= 2048
    for (i = 1; i <= nsh; i++) {
        s = SHO[i]
        for (j = 1; j <= nlad; j++) {
            v = LAD[j]; if (DEV[v] != "gpu") continue
            rr = ratio(best("h200", v, s), best("h100", v, s)); if (rr == "") continue
            def("h200 over h100 " v " " shtok(s), fr(rr))
            if (square(s) && shn(s) >= 2048 && v != "gpu_naive_global") {
                if (lo == "" || rr < lo) { lo = rr; lov = v; los = s }
                if (hi == "" || rr > hi) { hi = rr; hiv = v; his = s }
            }
        }
    }
    def("h200 over h100 others min", fr(lo)); def("h200 over h100 others max", fr(hi))
    def("h200 over h100 others min rung", lo == "" ? "" : "\\texttt{" tex(lov) "}"); def("h200 over h100 others min size", lo == "" ? "" : shtext(los))
    def("h200 over h100 others max rung", hi == "" ? "" : "\\texttt{" tex(hiv) "}"); def("h200 over h100 others max size", hi == "" ? "" : shtext(his))
    def("h200 over h100 datasheet bw", fr(ratio(attr("h200", "gpu_mem_bandwidth_gbs"), attr("h100", "gpu_mem_bandwidth_gbs"))))
    def("h200 over h100 copy bw", fr(ratio(attr("h200", "gpu_copy_bandwidth_gbs"), attr("h100", "gpu_copy_bandwidth_gbs"))))
    def("h200 over h100 l2", fr(ratio(attr("h200", "gpu_l2_bytes"), attr("h100", "gpu_l2_bytes"))))
    def("same commit", attr("h200", "git_commit") == "" ? "" : attr("h200", "git_commit") == attr("h100", "git_commit") ? "the same commit" : "different commits")
    def("same sm clock", (attr("h200", "gpu_sm_count") == attr("h100", "gpu_sm_count") && \
        attr("h200", "gpu_max_clock_mhz") == attr("h100", "gpu_max_clock_mhz")) ? "the same" : "different")
}

function emit_design(   L, n, i, s, k, t, nh) {
    n = sortkeys(GSZ, L); def("gpu sizes", joinl(L, n, ", ")); def("gpu n min", L[1]); def("gpu n max", L[n])
    for (i = 1; i <= n; i++) def("size n" L[i], L[i])
    n = sortkeys(HSZ, L); def("host sizes", joinl(L, n, ", ")); def("host n max", L[n])
    for (i = 1; i <= n; i++) if (!(L[i] in GSZ)) def("size n" L[i], L[i])
    t = ""; nh = 0
    for (i = 1; i <= nsh; i++) { s = SHO[i]; if (!(s in GSH) && !(s in HSH)) continue
        def("size " shtok(s), shtext(s))
        if (s in GSH) t = t (t == "" ? "" : ", ") shtext3(s)
    }
    def("gpu shapes", t)
    t = ""; for (i = 1; i <= nsh; i++) { s = SHO[i]; if (s in HSH) t = t (t == "" ? "" : ", ") shtext3(s) }
    def("host shapes", t)
    n = sortkeys(TILES, L); def("tiles", joinl(L, n, ", ")); MAXTILE = L[n]
    for (i = 1; i <= n; i++) {
        def("tile" L[i], L[i])
        def("threads ts" L[i], L[i] * L[i])                 # one thread per output of a TS x TS tile
        def("smem kib ts" L[i], sprintf("%g", 2 * L[i] * L[i] * 4 / 1024))   # two float tiles
    }
    def("tile max", L[n])
    n = sortkeys(WPTS, L); def("wpts", joinl(L, n, ", ")); def("wpt max", L[n])
    for (i = 1; i <= n; i++) def("wpt" L[i], L[i])
    n = sortkeys(OPTS, L); t = ""; for (i = 1; i <= n; i++) t = t (i > 1 ? ", " : "") "\\mbox{\\texttt{-O" L[i] "}}"
    def("opt levels", t)
    # the largest square size's operand footprint, to set against the L2
    def("rungs", nlad)
}

END {
    if (fatal) exit 1
    for (r in RUNTOK) if (!(r in HAVE)) die("no input for run " r)
    if (nlad == 0) die("no rungs listed")
    shapeorder()
    # the ladder as measured: the listed rungs that either paper run has rows for,
    # numbered 1, 2, ... in list order (the binary may know rungs the data predate)
    np = 0
    for (j = 1; j <= nlad; j++) {
        v = LAD[j]
        if (!(("h100", v) in VR) && !(("h200", v) in VR)) continue
        PL[++np] = v; RANK[v] = np
    }
    for (k in VR) { split(k, u, SUBSEP); if (!(u[2] in RANK) || RANK[u[2]] > np || PL[RANK[u[2]]] != u[2]) die("rung " u[2] " in the data is not listed by the binary") }
    for (j = 1; j <= np; j++) LAD[j] = PL[j]
    nlad = np
    # a square "size" is a multiple of 32, the seeds' widest tile (the sizes axis);
    # other squares (4095) are edge-guard shapes, as in scripts/figures.sh (sized()).
    # Not the widest tile of all rungs: the block tiles of rungs 08-14 (up to 256)
    # would put n = 128 among the odd shapes.
    for (k in GSZ) if (k % 32) { delete GSZ[k]; GSH[shkey(k, k, k)] = 1 }
    for (k in HSZ) if (k % 32) { delete HSZ[k]; HSH[shkey(k, k, k)] = 1 }
    for (k in GSZ) SQ[k] = 1
    for (k in HSZ) SQ[k] = 1
    printf "%% generated by scripts/paper-numbers.sh from the results files -- do not edit\n"
    printf "%% h100: %s\n%% h200: %s\n%% transfers: %s\n%% reproduction: %s\n", F_H100, F_H200, F_XFER, F_REPRO
    printf "\\providecommand{\\MissingDatum}[1]{\\textbf{??}}\n"
    def("file h100", texpath(F_H100)); def("file h200", texpath(F_H200))
    def("file xfer", texpath(F_XFER)); def("file repro", texpath(F_REPRO))
    emit_design()
    emit_attrs("h100", "h100"); emit_counts("h100", "h100"); emit_sampling("h100", "h100"); emit_paper("h100", "h100")
    emit_attrs("h200", "h200"); emit_counts("h200", "h200"); emit_sampling("h200", "h200"); emit_paper("h200", "h200")
    emit_attrs("repro", "repro"); emit_counts("repro", "repro")
    emit_cross()
    emit_transfers()
    emit_compare()
    emit_tables()
    if (nmiss) {
        for (i = 1; i <= nmiss; i++) printf "paper-numbers.sh: no data for %s\n", MISS[i] > "/dev/stderr"
        exit 1
    }
}
AWK

status=0
awk -v OUTDIR="$outdir" -v CMPTOL="$cmp_tol" \
    -v F_H100="$h100" -v F_H200="$h200" -v F_XFER="$xfer" -v F_REPRO="$repro" \
    -f "$tmp/numbers.awk" "$tmp/ladder.list.tsv" \
    "$tmp/h100.all.tsv" "$tmp/h100.attrs.tsv" "$tmp/h100.rows.tsv" \
    "$tmp/h200.all.tsv" "$tmp/h200.attrs.tsv" "$tmp/h200.rows.tsv" \
    "$tmp/xfer.attrs.tsv" "$tmp/xfer.xfer.tsv" \
    "$tmp/repro.all.tsv" "$tmp/repro.attrs.tsv" "$tmp/repro.cmp.tsv" > "$out.tmp" || status=$?
if [ ! -s "$out.tmp" ]; then
    rm -f "$out.tmp"
    die "no macros written"
fi
mv "$out.tmp" "$out"
[ "$status" -eq 0 ] || die "some values are missing from the data (see above); $out marks them \\MissingDatum"
n=$(grep -c '^\\newcommand' "$out")
printf '%s: %s macros into %s, tables into %s/table-*.tex\n' "$prog" "$n" "$out" "$outdir"
