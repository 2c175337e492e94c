#!/bin/sh
# Whose fault is each crash, timeout or out-of-memory a fuzzing run wrote?
# `make fuzz` (scripts/fuzz.sh) runs this over libFuzzer's log, or, for a target
# run in fork mode, over the log of each reproducer replayed alone.
#
#   scripts/fuzz-triage.sh LOG BINARY
#
# The results readers run the HDF5 library in a child process in the tools
# (results.h): a file that makes the library misbehave is reported as damaged
# and the tools go on.  The results fuzzer runs the library in its own process
# (results_wire.c: RESULTS_READ_IN_PROCESS), so that libFuzzer sees the
# readers' coverage: there a crash, hang or huge allocation of the library ends
# the fuzzing process (in fork mode, one of its jobs) and leaves a reproducer.
# The HDF5 library is Debian's, not instrumented: AddressSanitizer sees its
# errors only where it calls an intercepted function (memcpy, free, ...), or
# when it faults, and UBSan never does.  So a report is the library's when every
# stack it prints (the access, and where the memory was allocated or freed; for
# a timeout, where the process was; for an out-of-memory, the allocation over
# the limit, or the largest one live) has the library as its first frame
# outside the sanitizer's runtime, libFuzzer and the C library (a fault in
# memcpy or a wait in read(2) is the caller's); anything else -- a frame of ours
# first in any stack (a buffer we sized, a pointer we freed, a loop of ours),
# a UBSan report, a report that cannot be found -- is ours.  (Two cases of ours
# would still read as the library's: a pointer the library gave us, freed twice
# through H5free_memory -- the reader frees each such pointer once, on one path;
# and a loop of ours that calls the library so often that a timeout finds the
# process inside it -- the reader's loops are bounded by the file's size.)
#
# Prints a line per crash-*, timeout-* and oom-* reproducer named in LOG:
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
    # the C library: by its file, or by its sources as its debug information names them
    if (line ~ /\/(libc|libpthread|libm|ld-linux[^ ]*)\.so/ ||
        line ~ / (csu|nptl|signal|stdlib|string|sysdeps|libio|malloc|misc|posix|io)\/[^ ]*:[0-9]+/)
        return "runtime"
    return "ours"
}
function verdict(   i, start, kind, first, stacks, why, only_first, named) {
    for (i = 1; i <= n; i++)
        if (buf[i] ~ /runtime error:/) {
            why = buf[i]; sub(/^.*runtime error: */, "UBSan: ", why); return "ours\t" why
        }
    start = 0
    for (i = 1; i <= n; i++) if (buf[i] ~ /==[0-9]+== ?ERROR: /) start = i
    if (!start) return "ours\tno sanitizer report found before it in the log"
    why = buf[start]; sub(/^.*ERROR: /, "", why); sub(/ on (unknown )?(address )?(0x|\().*/, "", why)
    sub(/: memory ranges \[.*\) overlap$/, "", why)
    only_first = why ~ /out-of-memory/
    stacks = 0; first = ""
    for (i = start; i <= n; i++) {
        if (buf[i] ~ /^ *#0 0x/) { if (only_first && stacks) break; stacks++; first = "" }
        if (buf[i] !~ /^ *#[0-9]+ 0x/) continue
        kind = frame_kind(buf[i])
        if (first == "") {
            if (kind == "runtime") continue
            first = kind
            if (kind == "ours") return "ours\t" why " (" clean(buf[i]) ")"
            if (!lib) lib = clean(buf[i])
        }
        # what to call it: the first library function of the first stack with a name
        if (stacks == 1 && kind == "library" && !named && buf[i] ~ / in [^ ]/) named = clean(buf[i])
    }
    if (!stacks) return "ours\t" why " (no stack in the report)"
    if (!lib) return "ours\t" why " (no frame outside the runtime)"
    return "library\t" why " (" (named ? named : lib) ")"
}
function clean(line) {
    sub(/^ *#[0-9]+ 0x[0-9a-f]+ /, "", line); sub(/ \(BuildId: [0-9a-f]+\)/, "", line)
    return line
}
function judge(name) { lib = ""; print name "\t" verdict(); n = 0 }
# A timeout is written before its report, the rest after theirs.
/Test unit written to / {
    path = $0; sub(/.*Test unit written to /, "", path)
    name = path; sub(/.*\//, "", name)
    if (name ~ /^timeout-/) { pending = name; n = 0; next }
    if (name ~ /^(crash|oom)-/) judge(name)
    n = 0
    next
}
pending != "" && /^SUMMARY: libFuzzer: timeout/ { judge(pending); pending = ""; next }
{ buf[++n] = $0 }
END { if (pending != "") judge(pending) }
' "$1"
