#!/bin/bash
# make reproduce: re-run the paper's experiments on this machine, redraw every
# figure from the new data, and compare with the shipped reference runs.
#   With a GPU: experiments/paper.ini, shapes.ini and transfers.ini into new files
#              under data/.
#   Without:   experiments/host.ini (the host rungs), the host claims checked on
#              that run, figures from the reference data, and a plain statement
#              of what was not reproduced.
# TOL (default 0.10) is the tolerance of the comparison: |yours/reference - 1|.
# Exit status: 0 done; 1 a run failed, or (without a GPU) a host claim that
# says it holds on any x86-64 core did not hold on this machine's run.
# Where things are and go, for a run that must leave the repository as it was
# (the tests'): REPRODUCE_EXPERIMENTS (default experiments), the experiment
# files; REPRODUCE_CLAIMS (paper/claims.ini); REPRODUCE_DATA (data), the new
# runs; REPRODUCE_OUT (build/reproduce), the logs, comparisons and figures.
set -uo pipefail
BIN=${BIN:-bin/mmladder}
TOL=${TOL:-0.10}
EXPERIMENTS=${REPRODUCE_EXPERIMENTS:-experiments}
CLAIMS=${REPRODUCE_CLAIMS:-paper/claims.ini}
DATA=${REPRODUCE_DATA:-data}
OUT=${REPRODUCE_OUT:-build/reproduce}
mkdir -p "$OUT" "$DATA"

attr() { "$BIN" export "$1" --attrs | awk -F'\t' -v k="$2" '$1 == k { print $2 }'; }
stamp=$(date -u +%Y%m%dT%H%M%SZ)

# The machine, as the new files' names carry it: the GPU's name
# (h100-80gb-hbm3, `mmladder device --file-name`), or cpu without one.
machine=$("$BIN" device --file-name 2>/dev/null) || machine=cpu

# run_into NAME: run $EXPERIMENTS/NAME.ini into
# $DATA/reproduce-NAME-MACHINE-STAMP.h5, its progress on the terminal (stderr)
# and in $OUT/NAME.log; prints the file.
run_into() {
    local file=$DATA/reproduce-$1-$machine-$stamp.h5
    echo "reproduce: running $EXPERIMENTS/$1.ini into $file (log: $OUT/$1.log)" >&2
    "$BIN" run "$EXPERIMENTS/$1.ini" -o "$file" 2>&1 | tee "$OUT/$1.log" >&2
    local rc=${PIPESTATUS[0]}
    if [ "$rc" -ne 0 ]; then
        echo "reproduce: the $1 run failed (exit $rc); see $OUT/$1.log" >&2
        exit 1
    fi
    echo "$file"
}

# The shipped references, as the Makefile names them.
ref_h100=${REF_H100:?set by the Makefile}
ref_h200=${REF_H200:?set by the Makefile}
ref_transfers=${REF_TRANSFERS:-}
ref_shapes_h100=${REF_SHAPES_H100:-}
ref_shapes_h200=${REF_SHAPES_H200:-}

if device=$("$BIN" device 2>&1); then
    echo "reproduce: on $device"
    for e in paper shapes transfers; do   # what `mmladder plan` expects each to take
        printf 'reproduce: %s/%s.ini: ' "$EXPERIMENTS" "$e"
        "$BIN" plan "$EXPERIMENTS/$e.ini" | grep ' points, ' || echo "(no estimate)"
    done
    new=$(run_into paper) || exit 1
    new_shapes=$(run_into shapes) || exit 1
    new_transfers=$(run_into transfers) || exit 1
    # Compare with the reference taken on the same GPU model, if we ship one.
    name=$(attr "$new" gpu_name)
    ref=$ref_h100 other=$ref_h200
    if [ -n "$ref_h200" ] && [ "$(attr "$ref_h200" gpu_name)" = "$name" ]; then
        ref=$ref_h200 other=$ref_h100
    fi
    own_model=1
    [ "$(attr "$ref" gpu_name)" = "$name" ] || {
        own_model=0
        echo "reproduce: no reference run on a $name ships here; comparing with $(attr "$ref" gpu_name)"
    }
    echo
    echo "Your run $new against the reference $ref (tolerance ±$(awk -v t="$TOL" 'BEGIN{print t*100}')%):"
    "$BIN" compare "$new" "$ref" --tolerance "$TOL" | tee "$OUT/comparison.txt"
    if [ "$own_model" = 0 ]; then
        # Another GPU: the claims that hold on any GPU, checked on this run; the
        # others name the reference GPU model and are said to, not failed.
        echo
        echo "The claims on your $name run (those about the reference GPUs are not evaluated):"
        "$BIN" claims "$CLAIMS" --mine "$new" h100="$ref_h100" h200="$ref_h200" \
            | tee "$OUT/claims.txt" || true
    fi
    # The shape suite against the suite's reference of the same GPU model, if one ships.
    ref_shapes=
    for f in $ref_shapes_h100 $ref_shapes_h200; do
        [ "$(attr "$f" gpu_name)" = "$name" ] && ref_shapes=$f
    done
    echo
    if [ -n "$ref_shapes" ]; then
        echo "Your shape suite $new_shapes against the reference $ref_shapes:"
        "$BIN" compare "$new_shapes" "$ref_shapes" --tolerance "$TOL" | tee "$OUT/comparison-shapes.txt"
    else
        echo "reproduce: no shape-suite reference on a $name ships here; your run is drawn in"
        echo "           figure 13 and its claims are checked below, not compared."
    fi
    echo
    echo "The shape-suite claims on your run:"
    "$BIN" claims "$CLAIMS" --mine "$new_shapes" shapes_h100="$ref_shapes_h100" \
        ${ref_shapes_h200:+shapes_h200="$ref_shapes_h200"} | tee "$OUT/claims-shapes.txt" || true
    fig_args=(-p "$new" -c "$other" -r "$ref" -s "$new_shapes")
    [ -n "$new_transfers" ] && fig_args+=(-t "$new_transfers")
else
    echo "reproduce: $device"
    echo "reproduce: NOT reproduced here: the paper's GPU rows, which need a CUDA GPU."
    printf 'reproduce: running the host rungs instead: %s/host.ini: ' "$EXPERIMENTS"
    "$BIN" plan "$EXPERIMENTS/host.ini" | grep ' points, ' || echo "(no estimate)"
    new=$(run_into host) || exit 1
    echo
    echo "Your host rows ($new) beside the reference's host rows ($ref_h100), reported, not"
    echo "held to a tolerance: another CPU, and one core's timings vary from run to run."
    "$BIN" compare "$new" "$ref_h100" --tolerance "$TOL" | tee "$OUT/comparison.txt"
    echo
    echo "The host claims on your run ($new), on this machine's CPU ($(attr "$new" cpu_model)):"
    echo "one that holds on any x86-64 core must hold here; one about the reference"
    echo "machines' CPUs is reported, never failed."
    "$BIN" claims "$CLAIMS" --mine "$new" | tee "$OUT/claims-host.txt"
    host_claims=${PIPESTATUS[0]}
    fig_args=(-p "$ref_h100" -c "$ref_h200")
    [ -n "$ref_shapes_h100" ] && fig_args+=(-s "$ref_shapes_h100")
    [ -n "$ref_transfers" ] && fig_args+=(-t "$ref_transfers")
    ref_repro=${REF_REPRO:-}
    echo
    if [ -n "$ref_repro" ]; then
        fig_args+=(-r "$ref_h100" -n "$ref_repro")
        echo "reproduce: figure 11 compares a new GPU run of experiments/paper.ini with the"
        echo "           reference; without a GPU it is drawn from the shipped runs ($ref_repro"
        echo "           against $ref_h100), as make figures draws it."
    else
        echo "reproduce: figure 11 needs a GPU run of experiments/paper.ini to compare with the"
        echo "           reference; none is made here, so it is not drawn."
    fi
fi

if command -v gnuplot >/dev/null; then
    scripts/figures.sh -o "$OUT/figures" -b "$BIN" "${fig_args[@]}" || exit 1
    echo "reproduce: figures in $OUT/figures/"
else
    echo "reproduce: gnuplot is not installed here, so no figures were drawn. Draw them on a"
    echo "           machine with gnuplot: scripts/figures.sh -o $OUT/figures ${fig_args[*]}"
fi
if [ "${host_claims:-0}" -ne 0 ]; then
    echo "reproduce: FAILED: a host claim that says it holds on any x86-64 core did not hold" >&2
    echo "           on this run, or the claims could not be checked ($OUT/claims-host.txt)" >&2
    exit 1
fi
exit 0
