#!/bin/bash
# One GPU's reference set, as data/README.md lists it, on a GPU host and from a
# clean checkout of the commit the set is made from.  Five parts, each within ten
# minutes on an H100 or H200:
#   scripts/reference-runs.sh OUTDIR test
#       the whole test suite, GPU tests included (scripts/gpu-session.sh)
#   scripts/reference-runs.sh OUTDIR measure
#       the paper matrix, the shape suite and the transfers
#   scripts/reference-runs.sh OUTDIR check
#       every rung in a build for compute capability 8.0 alone (make ARCH=80
#       PTX=80; experiments/portability.ini), then, in the native build, the
#       three estimates of each ratio near cuBLAS (experiments/estimates.ini)
#       and make sanitize
#   scripts/reference-runs.sh OUTDIR heldout
#   scripts/reference-runs.sh OUTDIR heldout-kt
#       the held-out corpus's newest draw (experiments/heldout-v3.ini), timed
#       by CUDA events; then again with the second timer on (--kernel-timer)
# The results files and the sanitizer table go to OUTDIR, with the logs; the
# checkout is left as it was found.  The set's reproduction is `make reproduce`
# on another, freshly started machine of the same kind.
set -uo pipefail
out=${1:?usage: scripts/reference-runs.sh OUTDIR test|measure|check|heldout|heldout-kt}
part=${2:?usage: scripts/reference-runs.sh OUTDIR test|measure|check|heldout|heldout-kt}
mkdir -p "$out" || exit 1
if [ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ] || ! git rev-parse HEAD >/dev/null 2>&1; then
    echo "reference-runs.sh: not a clean git checkout; a reference set is made from one" >&2
    git status --short --untracked-files=no >&2
    exit 1
fi
echo "reference-runs.sh: $part at $(git rev-parse HEAD)"
case $part in
test)
    scripts/gpu-session.sh "$out"
    ;;
measure)
    scripts/gpu-session.sh --no-tests "$out" experiments/paper.ini experiments/shapes.ini experiments/transfers.ini
    ;;
check)
    # shellcheck source=scripts/offline-env.sh
    . scripts/offline-env.sh || exit 1
    rc=0
    # The portability build replaces the native one, and make sanitize rewrites
    # its tracked table: one after the other, each from a clean tree.
    make clean > /dev/null
    start=$(date +%s)
    make -j"$(nproc)" ARCH=80 PTX=80 bin/mmladder > "$out/build-arch80.log" 2>&1 || { tail -30 "$out/build-arch80.log"; exit 1; }
    echo "ARCH=80 PTX=80 build: $(( $(date +%s) - start )) s"
    bin/mmladder run experiments/portability.ini -d "$out" > "$out/portability.log" 2>&1 || rc=$?
    echo "portability: exit ${rc}"; tail -1 "$out/portability.log"
    make clean > /dev/null
    make -j"$(nproc)" bin/mmladder build/tests/sanitize-one > "$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 1; }
    e_rc=0
    bin/mmladder run experiments/estimates.ini -d "$out" > "$out/estimates.log" 2>&1 || e_rc=$?
    echo "estimates: exit ${e_rc}"; tail -1 "$out/estimates.log"
    [ "$e_rc" -eq 0 ] || rc=$e_rc
    start=$(date +%s)
    s_rc=0
    JOBS=$(nproc) make sanitize > "$out/sanitize.log" 2>&1 || s_rc=$?
    echo "make sanitize: exit $s_rc after $(( $(date +%s) - start )) s"; tail -2 "$out/sanitize.log"
    [ "$s_rc" -eq 0 ] || rc=$s_rc
    for f in data/sanitizer-*.tsv; do
        git diff --quiet -- "$f" 2>/dev/null && git ls-files --error-unmatch "$f" >/dev/null 2>&1 && continue
        cp "$f" "$out/" && { git checkout -q -- "$f" 2>/dev/null || rm -f "$f"; }
    done
    exit $rc
    ;;
heldout | heldout-kt)
    # shellcheck source=scripts/offline-env.sh
    . scripts/offline-env.sh || exit 1
    make -j"$(nproc)" bin/mmladder > "$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 1; }
    timer=
    [ "$part" = heldout-kt ] && timer=--kernel-timer
    rc=0
    # shellcheck disable=SC2086  # $timer is no word or one
    bin/mmladder run experiments/heldout-v3.ini $timer -d "$out" > "$out/$part.log" 2>&1 || rc=$?
    echo "$part: exit $rc"; tail -1 "$out/$part.log"
    exit $rc
    ;;
*)
    echo "reference-runs.sh: unknown part '$part' (expected test, measure, check, heldout or heldout-kt)" >&2
    exit 1
    ;;
esac
