#!/bin/sh
# Whose fault is each crash a fuzzing run wrote?  `make fuzz` (scripts/fuzz.sh)
# runs this over libFuzzer's log.
#
#   scripts/fuzz-triage.sh LOG BINARY
#
# The results readers run the HDF5 library in a child process (results.h): a
# file that makes the library misbehave is reported as damaged and the tools go
# on.  Under the fuzzer that child is a fork of the fuzzing process, so a
# sanitizer report in it still writes a crash-* reproducer while the fuzzer
# carries on.  The HDF5 library is Debian's, not instrumented: AddressSanitizer
# sees its errors only where it calls an intercepted function (memcpy, free, ...)
# and UBSan never does.  So a report is the library's when every stack it
# prints (the access, and where the memory was allocated or freed) has the
# library as its first frame outside the sanitizer's runtime; anything else --
# a frame of ours first in any stack (a buffer we sized, a pointer we freed), a
# UBSan report, a report that cannot be found -- is ours.  (One misuse of
# ours would still read as the library's: a pointer the library gave us, freed
# twice through H5free_memory.  The reader frees each such pointer once, on one
# path.)
#
# Prints a line per crash-* reproducer named in LOG:
#   NAME<TAB>library|ours<TAB>what the report says
# BINARY is the fuzz target: its frames without a source line are the
# sanitizer's runtime and libFuzzer.
set -u
if [ $# -ne 2 ]; then
    echo "usage: scripts/fuzz-triage.sh LOG BINARY" >&2
    exit 1
fi
[ -r "$1" ] || { echo "fuzz-triage: $1: cannot read" >&2; exit 1; }
awk -v bin="$(basename "$2")" '
function frame_kind(line) {
    if (line ~ /libhdf5/) return "library"
    if (index(line, "/" bin "+0x") || index(line, "(" bin "+0x")) return "runtime"
    return "ours"
}
function verdict(   i, start, kind, first, stacks, why) {
    for (i = 1; i <= n; i++)
        if (buf[i] ~ /runtime error:/) {
            why = buf[i]; sub(/^.*runtime error: */, "UBSan: ", why); return "ours\t" why
        }
    start = 0
    for (i = 1; i <= n; i++) if (buf[i] ~ /==[0-9]+== ?ERROR: /) start = i
    if (!start) return "ours\tno sanitizer report found before it in the log"
    why = buf[start]; sub(/^.*ERROR: /, "", why); sub(/ on (address )?0x.*/, "", why)
    stacks = 0; first = ""
    for (i = start; i <= n; i++) {
        if (buf[i] ~ /^ *#0 0x/) { stacks++; first = "" }
        if (buf[i] ~ /^ *#[0-9]+ 0x/ && first == "") {
            kind = frame_kind(buf[i])
            if (kind == "runtime") continue
            first = kind
            if (kind == "ours") return "ours\t" why " (" clean(buf[i]) ")"
            if (!lib) lib = clean(buf[i])
        }
    }
    if (!stacks) return "ours\t" why " (no stack in the report)"
    return "library\t" why " (" lib ")"
}
function clean(line) {
    sub(/^ *#[0-9]+ 0x[0-9a-f]+ /, "", line); sub(/ \(BuildId: [0-9a-f]+\)/, "", line)
    return line
}
/Test unit written to / {
    path = $0; sub(/.*Test unit written to /, "", path)
    name = path; sub(/.*\//, "", name)
    lib = ""
    if (name ~ /^crash-/) print name "\t" verdict()
    n = 0
    next
}
{ buf[++n] = $0 }
' "$1"
