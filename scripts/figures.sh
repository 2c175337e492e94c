#!/bin/sh
# figures.sh -- the figures from results files: the binary derives every table
# (`mmladder table`), gnuplot draws them (plots/NN_name.gp, columns by name).
#
# usage: scripts/figures.sh -o OUTDIR -p PRIMARY.h5 [-c OTHER_GPU.h5]
#                           [-t TRANSFERS.h5] [-r REFERENCE.h5 [-n NEW.h5]]
#                           [-R REFERENCE2.h5 -N NEW2.h5] [-s SHAPES.h5] [-H HELDOUT.h5
#                           [-J HELDOUT2.h5]] [-b BIN] [-T TOL]
#
#   -o OUTDIR     where the figures go (NN_name.pdf and .png) and, in OUTDIR/data,
#                 the tables they are drawn from
#   -p PRIMARY    the run most figures show (figures 1-7, and 10)
#   -c OTHER_GPU  the same matrix on another GPU (figure 9)
#   -t TRANSFERS  a run of experiments/transfers.ini (figure 8)
#   -r REFERENCE  the reference a new run is compared with (figure 11)
#   -n NEW        that new run (default PRIMARY)
#   -R, -N        a second pair, another GPU's reference and reproduction
#                 (figure 12)
#   -s SHAPES     a run of experiments/shapes.ini, the shape suite (figure 13)
#   -H HELDOUT    a corpus run, the held-out corpus (experiments/heldout.ini;
#                 figures 14 and 15)
#   -J HELDOUT2   the same corpus on another GPU, drawn beside it in figure 14
#   -b BIN        the harness binary (default bin/mmladder)
#   -T TOL        figure 11's and 12's tolerance band, a fraction (default 0.10)
#
# A figure is skipped, not failed, when its run was not given (figures 8, 9 and
# 11-15) or when its script ends with exit status 3 (style.gp: skip), saying that
# the run has nothing for it: figure 10 draws the telemetry of a schema-6 run, so
# that a PRIMARY of an older schema (or a run without NVML) has none to draw.
#
# Exit status: 0 every figure whose inputs were given was written or skipped;
# 1 bad usage or a table the binary could not derive; 2 some figure script
# failed (each is named on stderr, and its partial output removed).
set -eu
# The labels are UTF-8; under a locale that is not, gnuplot warns that iconv
# failed. C.UTF-8 is built into glibc (Debian 12, Ubuntu 24.04).
LC_ALL=C.UTF-8
export LC_ALL

prog=figures.sh
die() { printf '%s: %s\n' "$prog" "$*" >&2; exit 1; }
usage() { sed -n '/^# usage:/,/^#   -T/p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 1; }

outdir= primary= other= transfers= reference= new= reference2= new2= shapes= heldout= heldout2=
tol=0.10
bin=bin/mmladder
while getopts o:p:c:t:r:n:R:N:s:H:J:b:T:h opt; do
    case $opt in
    o) outdir=$OPTARG ;; p) primary=$OPTARG ;; c) other=$OPTARG ;; t) transfers=$OPTARG ;;
    r) reference=$OPTARG ;; n) new=$OPTARG ;; s) shapes=$OPTARG ;; b) bin=$OPTARG ;;
    R) reference2=$OPTARG ;; N) new2=$OPTARG ;; H) heldout=$OPTARG ;; J) heldout2=$OPTARG ;;
    T) tol=$OPTARG ;;
    *) usage ;;
    esac
done
shift $((OPTIND - 1))
[ $# -eq 0 ] || die "unexpected argument '$1'"
[ -n "$outdir" ] && [ -n "$primary" ] || usage
[ -z "$new" ] || [ -n "$reference" ] || die "-n NEW.h5 needs -r REFERENCE.h5"
[ -z "$new2$reference2" ] || { [ -n "$new2" ] && [ -n "$reference2" ]; } ||
    die "-R REFERENCE2.h5 and -N NEW2.h5 go together"
[ -z "$heldout2" ] || [ -n "$heldout" ] || die "-J HELDOUT2.h5 needs -H HELDOUT.h5"
case $outdir$tol in *\'*) die "OUTDIR and TOL may not contain a single quote" ;; esac
[ -x "$bin" ] || die "no harness binary at '$bin' (build it with make, or give -b BIN)"
command -v gnuplot >/dev/null 2>&1 || die "gnuplot not found (Debian: apt-get install gnuplot-nox)"
new=${new:-$primary}
plots=$(cd "$(dirname "$0")/../plots" && pwd) || die "no plots/ folder next to scripts/"

data=$outdir/data
mkdir -p "$data" || die "cannot create $data"
# Tables of an earlier call into OUTDIR go: a figure whose run was not given this
# time is skipped, never drawn from them.
rm -f "$data"/*.tsv || die "cannot clear the old tables in $data"
# table NAME VIEW [ARGS...]: `BIN table VIEW ARGS` into DATA/NAME.tsv
table() {
    name=$1
    shift
    "$bin" table "$@" > "$data/$name.tsv" || die "'$bin table $*' failed"
}
runs="primary=$primary"
table rungs rungs
table ladder ladder "$primary"
table configs configs "$primary"
table speedup speedup "$primary"
table samples samples "$primary"
table telemetry telemetry "$primary"
[ -z "$other" ] || { table gpus compare "$other" "$primary"; runs="$runs other=$other"; }
[ -z "$transfers" ] || { table transfers transfers "$transfers"; runs="$runs transfers=$transfers"; }
[ -z "$reference" ] || { table repro compare "$new" "$reference"; runs="$runs reference=$reference new=$new"; }
[ -z "$reference2" ] || { table repro2 compare "$new2" "$reference2"; runs="$runs reference2=$reference2 new2=$new2"; }
[ -z "$shapes" ] || { table shapes shapes "$shapes"; runs="$runs shapes=$shapes"; }
[ -z "$heldout" ] || {
    table heldout corpus-cdf "$heldout"
    table heldout_corpus corpus "$heldout"
    runs="$runs heldout=$heldout"
}
[ -z "$heldout2" ] || { table heldout2 corpus-cdf "$heldout2"; runs="$runs heldout2=$heldout2"; }
# shellcheck disable=SC2086  # one word per run
table runs runs $runs

failed= ran=0 skipped=0
# figure NAME NEEDS [SCRIPT SETTINGS]: plots/SCRIPT.gp (default NAME.gp) into
# OUTDIR/NAME.{pdf,png}, with the gnuplot SETTINGS, if the table NEEDS was
# made; skipped when the script ends with status 3 (it said why on stderr)
figure() {
    name=$1 needs=$2 script=${3:-$1} settings=${4:-}
    rm -f "$outdir/$name.pdf" "$outdir/$name.png"
    if [ -n "$needs" ] && [ ! -f "$data/$needs.tsv" ]; then
        printf '%s: %s skipped: needs its run (%s)\n' "$prog" "$name" "$needs"
        skipped=$((skipped + 1))
        return 0
    fi
    printf '%s: %s\n' "$prog" "$name"
    rc=0
    gnuplot -e "datadir='$data'; out='$outdir/$name'; tol=$tol; $settings" "$plots/style.gp" \
        "$plots/$script.gp" || rc=$?
    case $rc in
    0) ran=$((ran + 1)) ;;
    3)
        rm -f "$outdir/$name.pdf" "$outdir/$name.png"
        printf '%s: %s skipped: nothing to draw in the run (above)\n' "$prog" "$name"
        skipped=$((skipped + 1))
        ;;
    *)
        rm -f "$outdir/$name.pdf" "$outdir/$name.png"
        printf '%s: figure %s failed (plots/%s.gp)\n' "$prog" "$name" "$script" >&2
        failed="$failed $name"
        ;;
    esac
}
figure 01_ladder ""
figure 02_tile_width ""
figure 03_work_per_thread ""
figure 04_speedup ""
figure 05_host ""
figure 06_roofline ""
figure 07_variability ""
figure 08_transfers transfers
figure 09_gpus gpus
figure 11_reproduction repro
figure 12_reproduction_h200 repro2 11_reproduction "pair='2'"
figure 10_telemetry ""
figure 13_shapes shapes
figure 14_heldout heldout
figure 15_heldout_roofline heldout_corpus

if [ -n "$failed" ]; then
    printf '%s: %d figure(s) written to %s, %d skipped; FAILED:%s\n' "$prog" "$ran" "$outdir" \
        "$skipped" "$failed" >&2
    exit 2
fi
printf '%s: %d figure(s) written to %s, %d skipped\n' "$prog" "$ran" "$outdir" "$skipped"
