#!/bin/bash
# make-corpus.sh NEW_MMLADDER -- the seed files of corpus/ that this tree's
# writer makes: results files of the current schema as the readers meet them,
# sound and damaged.  NEW_MMLADDER is a build of this tree (bin/mmladder; no GPU
# needed).  Run from the repository root; needs Python's h5py (cut-run.py).
# Writes corpus/schemaN-* anew for the current schema N and keeps every other
# file of corpus/:
#   - found-*.h5: inputs the fuzzer found that a reader once mishandled, kept as
#     seeds so that every run tries them again;
#   - schema3-* and schema4-*: the seeds of older writers (H5TB tables,
#     compressed; the first crash-consistent schema), made by this script as it
#     was with builds of commits 7644cbf (schema 3) and e12826b (schema 4).
# The current schema's seeds: small host runs (complete, and killed with
# SIGKILL: the SWMR writer's mark stays set), experiments/quick.ini with few
# host samples (host rows and the GPU rows skipped for want of a GPU), a few
# rows of three shipped GPU runs (data/references.mk: the paper matrix, the
# estimates and the held-out corpus, the last two with the second timer's
# columns, the last of schema 10 itself) cut by cut-run.py, and damaged
# copies (cut in half; eight bytes overwritten in the superblock, the metadata
# and the data).
set -euo pipefail
new=${1:?usage: make-corpus.sh NEW_MMLADDER}
out=tests/fuzz/results/corpus
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
schema=$(sed -n 's/^#define RESULTS_SCHEMA_VERSION \([0-9]*\)$/\1/p' harness/results/file.h)
s=schema$schema
cat > "$work/e.ini" <<INI
[experiment]
name = seed
seed = 1
[sampling]
host_min_samples = 3
host_max_samples = 5
host_min_time_ms = 0.001
host_timeout_ms = 100
[s]
variants = host_naive host_restrict
sizes = 4 5
opt_levels = 2
INI
mkdir -p "$out" && find "$out" -maxdepth 1 -type f -name "$s-*" -delete
"$new" run "$work/e.ini" -o "$out/$s-host-complete.h5" > /dev/null
sed 's/^host_timeout_ms = 300$/&\nhost_min_samples = 2\nhost_max_samples = 3\nhost_min_time_ms = 0.001/' \
    experiments/quick.ini > "$work/quick.ini"
# (exit 3 without a GPU: its GPU points are recorded as skipped)
"$new" run "$work/quick.ini" -o "$out/$s-quick.h5" > /dev/null 2>&1 || [ $? -eq 3 ]
# A run killed outright: the SWMR writer's mark stays set.
sed 's/sizes = 4 5/sizes = 100 101 102 103 104 105 106 107 108/; s/host_max_samples = 5/host_max_samples = 300/; s/host_min_samples = 3/host_min_samples = 300/' \
    "$work/e.ini" > "$work/k.ini"
"$new" run "$work/k.ini" -o "$out/$s-host-killed.h5" > /dev/null & pid=$!
sleep 0.5; kill -KILL "$pid"; wait "$pid" || true
# shellcheck source=/dev/null
. data/references.mk
python3 tests/fuzz/results/cut-run.py "$REF_H100" "$out/$s-gpu-paper-cut.h5"
python3 tests/fuzz/results/cut-run.py "$REF_ESTIMATES_H100" "$out/$s-gpu-estimates-cut.h5"
python3 tests/fuzz/results/cut-run.py "$REF_KT_HELDOUT_H100" "$out/$s-gpu-heldout-cut.h5"
for f in "$s-gpu-estimates-cut" "$s-gpu-heldout-cut"; do
    "$new" info "$out/$f.h5" > "$work/info" && grep -q '^rows: .* 0 damaged), .*, complete$' "$work/info" ||
        { echo "make-corpus: $out/$f.h5 is not read as sound and complete" >&2; exit 1; }
done
for f in "$s-quick" "$s-gpu-paper-cut"; do
    "$new" info "$out/$f.h5" > "$work/info" && grep -q '^rows: .* 0 damaged), .*, complete$' "$work/info" ||
        { echo "make-corpus: $out/$f.h5 is not read as sound and complete" >&2; exit 1; }
    size=$(stat -c %s "$out/$f.h5")
    head -c $((size / 2)) "$out/$f.h5" > "$out/$f-truncated.h5"
    for at in 20 600 $((size / 3)) $((size - 200)); do
        cp "$out/$f.h5" "$out/$f-flipped-$at.h5"
        printf '\377\377\377\377\377\377\377\377' |
            dd of="$out/$f-flipped-$at.h5" bs=1 seek="$at" conv=notrunc status=none
    done
done
ls -l "$out"
