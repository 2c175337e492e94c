#!/bin/sh
# same-outputs.sh capture DIR | compare DIR -- every output a user sees of the
# binary, for a change that must not change any of them (a refactoring):
#   capture DIR   runs each command below and writes, per command, one file
#                 DIR/NAME: the command line, its standard output, its standard
#                 error and its exit status (and, for values, the files it wrote)
#   compare DIR   runs them again into a fresh directory and compares each file
#                 byte for byte with DIR's; names every one that differs or is
#                 missing on either side, says how many were compared, exits 1
#                 when one differs
# The commands: --help; list, list --markdown, list and plan of every
# experiments/*.ini; info, every export mode and every table view of every
# data/*.h5; compare (and table compare) of the pairs below; the claims as make
# check-claims and scripts/readme.sh run them; values as make paper runs it.
# Run from the repository's root.  BIN (default bin/mmladder); REF_RUNS
# (ROLE=FILE ..., as the Makefile's; default: from data/references.mk), PENDING
# (the Makefile's --pending ROLE,..., or empty) and
# HISTORY (default paper/claims-history.tsv).  `make same-outputs-capture
# DIR=...` and `make same-outputs DIR=...` set them.
set -eu
usage() { echo "usage: scripts/same-outputs.sh capture|compare DIR" >&2; exit 2; }
[ $# = 2 ] || usage
mode=$1 dir=$2
case $mode in capture|compare) ;; *) usage ;; esac
bin=${BIN:-bin/mmladder}
history=${HISTORY:-paper/claims-history.tsv}
[ -x "$bin" ] || { echo "same-outputs.sh: no binary at '$bin'" >&2; exit 2; }
if [ -z "${REF_RUNS:-}" ]; then
    # shellcheck disable=SC1091  # the Makefile includes it too
    . data/references.mk
    REF_RUNS="h100=$REF_H100 h200=$REF_H200 transfers=$REF_TRANSFERS repro=$REF_REPRO
      shapes_h100=$REF_SHAPES_H100 shapes_h200=$REF_SHAPES_H200
      portability_h100=$REF_PORTABILITY_H100 repro_shapes_h100=$REF_REPRO_SHAPES_H100
      repro_transfers_h100=$REF_REPRO_TRANSFERS_H100 transfers_h200=$REF_TRANSFERS_H200
      portability_h200=$REF_PORTABILITY_H200 repro_h200=$REF_REPRO_H200
      repro_shapes_h200=$REF_REPRO_SHAPES_H200 repro_transfers_h200=$REF_REPRO_TRANSFERS_H200
      estimates_h100=$REF_ESTIMATES_H100 estimates_h200=$REF_ESTIMATES_H200
      heldout_h100=$REF_HELDOUT_H100 heldout_h200=$REF_HELDOUT_H200
      repro_heldout_h100=$REF_REPRO_HELDOUT_H100 kt_heldout_h100=$REF_KT_HELDOUT_H100
      kt_heldout_h200=$REF_KT_HELDOUT_H200 x2_shapes_h100=$REF_X2_SHAPES_H100
      x2_one_shapes_h100=$REF_X2_ONE_SHAPES_H100"
fi
# a role data/references.mk leaves empty is a run not yet made: left out
# shellcheck disable=SC2086  # one word per run
REF_RUNS=$(printf '%s\n' $REF_RUNS | grep -v '=$' | tr '\n' ' ')
# The outputs of a compare go beside DIR, so that DIR itself is never touched.
if [ "$mode" = capture ]; then
    [ ! -e "$dir" ] || { echo "same-outputs.sh: $dir exists; capture writes a new one" >&2; exit 2; }
    out=$dir
else
    [ -d "$dir" ] || { echo "same-outputs.sh: no captured directory $dir" >&2; exit 2; }
    out=$(mktemp -d "${TMPDIR:-/tmp}/same-outputs.XXXXXX")
fi
mkdir -p "$out"
# values writes its files under a fixed path, so that the messages that name
# them are the same in both modes.
scratch=build/same-outputs-scratch
rm -rf "$scratch"
mkdir -p "$scratch"

# one NAME ARGS...: the binary with ARGS, into $out/NAME
one() {
    _name=$1; shift
    {
        printf '$ mmladder'; printf ' %s' "$@"; printf '\n--- stdout\n'
        rc=0; "$bin" "$@" > "$scratch/stdout" 2> "$scratch/stderr" || rc=$?
        cat "$scratch/stdout"; printf '\n--- stderr\n'; cat "$scratch/stderr"
        printf '\n--- exit %s\n' "$rc"
    } > "$out/$_name"
}

one help --help
one usage
one list list
one list-markdown list --markdown
one device device
for ini in experiments/*.ini; do
    base=$(basename "$ini" .ini)
    one "list-$base" list "$ini"
    one "plan-$base" plan "$ini"
done
one plan-shard-paper plan experiments/paper.ini --shard 1/3
one table-rungs table rungs
views="runs ladder configs speedup samples telemetry transfers shapes suite corpus corpus-classes
       corpus-cdf estimates"
for f in data/*.h5; do
    base=$(basename "$f" .h5)
    one "info-$base" info "$f"
    one "export-$base" export "$f"
    one "export-csv-$base" export "$f" --csv
    for m in passed samples attrs; do
        one "export-$m-$base" export "$f" --$m
        one "export-csv-$m-$base" export "$f" --csv --$m
    done
    for v in $views; do one "table-$v-$base" table "$v" "$f"; done
done
one table-runs-all table runs data/*.h5
. data/references.mk
pairs="$REF_REPRO:$REF_H100 $REF_REPRO_H200:$REF_H200 $REF_H200:$REF_H100
       $REF_REPRO_SHAPES_H100:$REF_SHAPES_H100 $REF_REPRO_SHAPES_H200:$REF_SHAPES_H200
       $REF_REPRO_TRANSFERS_H100:$REF_TRANSFERS $REF_REPRO_TRANSFERS_H200:$REF_TRANSFERS_H200
       $REF_REPRO_HELDOUT_H100:$REF_HELDOUT_H100 $REF_KT_HELDOUT_H100:$REF_HELDOUT_H100
       $REF_X2_SHAPES_H100:$REF_X2_ONE_SHAPES_H100 $REF_SHAPES_H200:$REF_SHAPES_H100"
for p in $pairs; do
    new=${p%%:*} ref=${p#*:}
    if [ -z "$new" ] || [ -z "$ref" ]; then continue; fi   # a run not yet made
    pair=$(basename "$new" .h5)--$(basename "$ref" .h5)
    one "compare-$pair" compare "$new" "$ref"
    one "compare-tsv-$pair" compare "$new" "$ref" --tsv
    one "table-compare-$pair" table compare "$new" "$ref"
done
# shellcheck disable=SC2086  # one word per run
{
    one claims claims paper/claims.ini --history "$history" ${PENDING:-} $REF_RUNS
    one claims-markdown claims paper/claims.ini --markdown --history "$history" ${PENDING:-} $REF_RUNS
    one claims-headline claims paper/claims.ini --text async_copy_vs_cublas,wgmma_vs_cublas_tf32 $REF_RUNS
    one claims-reproduce claims paper/claims.ini --text paper_time,reproduction,reproduction_h200 $REF_RUNS
    one claims-mine claims paper/claims.ini --partial --mine "$REF_REPRO" $REF_RUNS
    one values values --claims paper/claims.ini --history "$history" --out "$scratch/values.tex" \
        --tables "$scratch" $REF_RUNS -- paper/*.tex
}
for f in "$scratch"/*; do
    case $f in */stdout|*/stderr) continue ;; esac
    cp "$f" "$out/values-file-$(basename "$f")"
done
rm -rf "$scratch"

n=$(ls "$out" | wc -l)
if [ "$mode" = capture ]; then
    echo "same-outputs.sh: $n outputs of $bin captured in $dir"
    exit 0
fi
rc=0 compared=0
for f in "$dir"/* "$out"/*; do
    name=$(basename "$f")
    [ -e "$dir/$name" ] || { echo "only in the new outputs: $name"; rc=1; continue; }
    [ -e "$out/$name" ] || { echo "missing from the new outputs: $name"; rc=1; continue; }
    [ "$f" = "$dir/$name" ] || continue
    compared=$((compared + 1))
    cmp -s "$dir/$name" "$out/$name" || { echo "differs: $name"; rc=1; }
done
echo "same-outputs.sh: $compared outputs compared byte for byte with $dir$([ $rc = 0 ] && echo ': all the same')"
[ $rc = 0 ] && rm -rf "$out" || echo "same-outputs.sh: the new outputs are in $out"
exit $rc
