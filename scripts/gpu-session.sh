#!/bin/bash
# One session on an offline GPU host: build for the GPU, run the whole test suite
# (GPU tests included) unless --no-tests, then run the experiments named, and
# leave the results and logs in OUTDIR.
# Usage: scripts/gpu-session.sh [--no-tests] OUTDIR [EXPERIMENT.ini ...]
set -uo pipefail
usage="usage: scripts/gpu-session.sh [--no-tests] OUTDIR [EXPERIMENT.ini ...]"
tests=1
[ "${1:-}" = --no-tests ] && { tests=0; shift; }
out=${1:?$usage}
shift
mkdir -p "$out" || exit 1
. scripts/offline-env.sh || exit 1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw \
    --format=csv | tee "$out/gpu.txt"
targets=all
[ $tests = 1 ] && targets="all build/tests/run_tests build/tests/mmladder-faulty build/tests/sanitize-one"
# shellcheck disable=SC2086  # $targets is a list of words
make -j"$(nproc)" $targets > "$out/build.log" 2>&1 || { tail -40 "$out/build.log"; exit 1; }
rc=0
if [ $tests = 1 ]; then
    MMLADDER=bin/mmladder build/tests/run_tests 2>&1 | tee "$out/test.log" | tail -25
    rc=${PIPESTATUS[0]}
    echo "tests exit: $rc"
fi
# The SM clock, power and the active clock-event reasons (0x4: software power
# cap) every 100 ms while the experiments run, beside their results.
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu,clocks_event_reasons.active \
    --format=csv -lms 100 > "$out/clocks.csv" 2>&1 &
logger=$!
for exp in "$@"; do
    start=$(date +%s)
    bin/mmladder run "$exp" -d "$out" > "$out/$(basename "$exp" .ini).log" 2>&1
    run_rc=$?
    echo "$exp: exit $run_rc after $(( $(date +%s) - start )) s"
    tail -60 "$out/$(basename "$exp" .ini).log"
    [ $run_rc -ne 0 ] && rc=$run_rc
done
kill "$logger" 2>/dev/null
exit $rc
