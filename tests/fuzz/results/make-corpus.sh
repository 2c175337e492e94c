#!/bin/bash
# make-corpus.sh NEW_MMLADDER OLD_MMLADDER -- the seed files of corpus/: results
# files as the readers meet them, sound and damaged.  NEW_MMLADDER is a build of
# this tree; OLD_MMLADDER a build from before schema 4 (H5TB tables, compressed),
# e.g. of commit 7644cbf.  Run from the repository root; writes corpus/ anew,
# keeping corpus/found-*.h5: inputs the fuzzer found that a reader once
# mishandled, kept as seeds so that every run tries them again.
set -euo pipefail
new=${1:?usage: make-corpus.sh NEW_MMLADDER OLD_MMLADDER} old=${2:?OLD_MMLADDER}
out=tests/fuzz/results/corpus
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
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
mkdir -p "$out" && find "$out" -maxdepth 1 -type f ! -name 'found-*' -delete
"$new" run "$work/e.ini" -o "$out/schema4-complete.h5" > /dev/null
"$old" run "$work/e.ini" -o "$out/schema3-complete.h5" > /dev/null
# A run killed outright: the SWMR writer's mark stays set.
sed 's/sizes = 4 5/sizes = 40 41 42 43 44 45 46 47 48/; s/host_max_samples = 5/host_max_samples = 2000/; s/host_min_samples = 3/host_min_samples = 2000/' \
    "$work/e.ini" > "$work/k.ini"
"$new" run "$work/k.ini" -o "$out/schema4-killed.h5" > /dev/null & pid=$!
sleep 0.5; kill -KILL "$pid"; wait "$pid" || true
# Damaged copies: cut short, and bytes overwritten in the superblock, in the
# metadata and in the data.
for f in schema4-complete schema3-complete; do
    size=$(stat -c %s "$out/$f.h5")
    head -c $((size / 2)) "$out/$f.h5" > "$out/$f-truncated.h5"
    for at in 20 600 $((size / 3)) $((size - 200)); do
        cp "$out/$f.h5" "$out/$f-flipped-$at.h5"
        printf '\377\377\377\377\377\377\377\377' |
            dd of="$out/$f-flipped-$at.h5" bs=1 seek="$at" conv=notrunc status=none
    done
done
ls -l "$out"
