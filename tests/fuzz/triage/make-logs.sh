#!/bin/sh
# Writes the libFuzzer logs that tests/test_damaged.c gives scripts/fuzz-triage.sh:
# one run of reports.c per kind of report, its paths made relative.
#   tests/fuzz/triage/make-logs.sh      (from the repository's root; needs clang
#                                        with libFuzzer and the HDF5 headers)
set -eu
dir=tests/fuzz/triage
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bin=$work/fuzz_triage_reports
${FUZZ_CC:-clang} -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
    $(pkg-config --cflags hdf5 2>/dev/null || echo -I/usr/include/hdf5/serial) \
    "$dir/reports.c" -o "$bin" \
    $(pkg-config --libs hdf5 2>/dev/null || echo -L/usr/lib/x86_64-linux-gnu/hdf5/serial -lhdf5)
for kind in L B O U S T M A; do
    mkdir -p "$work/seed-$kind" "$work/art-$kind"
    printf 'X%szzzzzzzz' "$kind" > "$work/seed-$kind/input"
    limit=
    [ "$kind" = M ] && limit=-malloc_limit_mb=256
    REPORTS_H5=$work/scratch.h5 REPORTS_DAMAGED=tests/fuzz/results/corpus/found-member-size-4gb.h5 \
    REPORTS_MB=512 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
        "$bin" -runs=0 -timeout=1 $limit -artifact_prefix="$work/art-$kind/" \
        "$work/seed-$kind" > "$work/log" 2>&1 || true
    grep -q 'Test unit written to ' "$work/log" || { echo "make-logs: kind $kind made no report:" >&2;
                                                     cat "$work/log" >&2; exit 1; }
    sed -e "s|$work/|build/fuzz/|g" -e "s|$(pwd)/||g" "$work/log" > "$dir/log-$kind"
done
echo "make-logs: $dir/log-L log-B log-O log-U log-S log-T log-M log-A"
