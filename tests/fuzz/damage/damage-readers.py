#!/usr/bin/env python3
"""damage-readers.py: damaged copies of a good results file, every reader
command run on each, each outcome classified.  A measurement, run by hand; not
part of `make test` or `make fuzz`.  Needs Python 3 and h5py (with numpy).

    damage-readers.py make GOOD.h5 DIR [--seed S] [--cuts 126] [--flips 168]
        DIR/good.h5 (a copy of GOOD), DIR/cut-*.h5 (GOOD cut short at seeded
        lengths), DIR/flip-*.h5 (one seeded bit flipped) and DIR/crafted-*.h5
        (one defect each: a column missing, a schema_version out of range, a
        value that cannot be, a stale checksum, a relabelled GPU, ...), listed
        in DIR/manifest.tsv (file, class, what was done).  In a file of schema 9
        a crafted value change is sealed again (its row's crc32 and attrs_crc32
        recomputed, as data/README.md defines them), so that the check of the
        value itself is what meets it; the class 'crc' leaves them stale.
    damage-readers.py run --bin MMLADDER DIR OUT.tsv [--claims CLAIMS.ini]
                          [--h200 H200.h5] [--jobs 1] [--timeout 120] [--only CLASS]
        every reader command on DIR/good.h5 (the baseline) and on each file of
        the manifest; one line per (file, command): its class and outcome.
    damage-readers.py summary OUT.tsv ... [--dir DIR]
        per class: outcomes of every (file, command), and of each file (its
        worst command); --dir: the manifest to take what is by design from.

Reader commands (GOOD is DIR/good.h5): info, export (TSV, --csv, --samples,
--attrs), table VIEW for each one-file view, table compare FILE GOOD, compare
FILE GOOD, claims --partial with the file in a role, and values with the file
in a role.  A GPU file (one with gpu_fp32_peak_gflops and passed GPU rows)
takes the role h100 of paper/claims.ini, beside --h200 as h200; a host file
takes the role `host` of a small claims file written into DIR, beside
GOOD as `ref`.  --claims names the claims file (e.g. an older commit's, for
that commit's binary).

Outcomes of one command on one file, against the same command on good.h5
(each file's path written FILE in both):
  refused    exit status other than the baseline's, and a reason on stderr
             that names the file
  unnamed    exit status other than the baseline's, no reason naming the file
  flagged    output made, and a line on stdout or stderr (not in the
             baseline's) says it is damaged, incomplete or mismatched
  identical  no such line, the same exit status and output as the baseline's
  different  no such line, output other than the baseline's: a damaged or
             mismatched file presented as sound
  designed   different, where the manifest says that is by design: an
             attribute no check reads, shown as the file holds it (info,
             export --attrs, table runs, values), or a change no check can see
             (schema 8's plausible edits, a rate within the peak's margin)
  unflagged  a run of another GPU, or a role given twice, where the manifest
             says the command must say so (compare, claims, values), and it
             said nothing
  crash      killed by a signal;  hang: not finished within --timeout
"""
import argparse
import collections
import concurrent.futures
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

from crafted import Maker, make_crafted  # beside this script; it needs h5py

VIEWS = ("runs ladder configs speedup samples telemetry transfers shapes suite corpus "
         "corpus-classes corpus-cdf estimates").split()


def cmd_make(args):
    os.makedirs(args.dir, exist_ok=True)
    good = os.path.join(args.dir, "good.h5")
    shutil.copyfile(args.good, good)
    m = Maker(good, args.dir, args.seed)
    size = os.path.getsize(good)
    rng = random.Random(args.seed)
    for k in range(args.cuts):
        at = rng.randrange(0, size)
        name = "cut-%03d-at-%d.h5" % (k, at)
        with open(good, "rb") as fh, open(os.path.join(args.dir, name), "wb") as out:
            out.write(fh.read(at))
        m.manifest.append((name, "truncation", "the first %d of %d bytes" % (at, size), "", ""))
    data = open(good, "rb").read()
    for k in range(args.flips):
        at, bit = rng.randrange(0, size), rng.randrange(8)
        b = bytearray(data)
        b[at] ^= 1 << bit
        name = "flip-%03d-at-%d.%d.h5" % (k, at, bit)
        with open(os.path.join(args.dir, name), "wb") as out:
            out.write(b)
        m.manifest.append((name, "flip", "bit %d of byte %d flipped" % (bit, at), "", ""))
    make_crafted(m)
    with open(os.path.join(args.dir, "manifest.tsv"), "w") as out:
        out.write("file\tclass\twhat\troles\tby_design\n")
        for row in m.manifest:
            out.write("\t".join(row) + "\n")
    kind = "gpu" if m.gpu else "host"
    with open(os.path.join(args.dir, "kind"), "w") as out:
        out.write(kind + "\n")
    if kind == "host":
        with open(os.path.join(args.dir, "host-claims.ini"), "w") as out:
            out.write(HOST_CLAIMS)
    with open(os.path.join(args.dir, "values.tex"), "w") as out:
        out.write(GPU_TEX if kind == "gpu" else HOST_TEX)
    crafted = sum(1 for r in m.manifest if r[1] not in ("truncation", "flip"))
    print("%s: %d cuts, %d flips, %d crafted (%s file, schema %d)" %
          (args.dir, args.cuts, args.flips, crafted, kind, m.schema))


HOST_CLAIMS = """\
; claims over a host run (damage-readers.py): the file as role host, the good copy as ref
[verified_host]
text = {max} points incorrect or failed
value = unverified
runs = host
expect = at_most 0
scope = any

[restrict_over_naive]
text = host_restrict runs at {range} times host_naive
value = ratio host_restrict host_naive
runs = host
shapes = 128 256
expect = between 0.01 100
scope = any

[naive_tflops]
text = host_naive reaches {range} TFLOP/s
value = tflops host_naive
runs = host
shapes = 128 256
expect = at_most 1000
scope = any

[host_agreement]
text = the two runs agree within {range}
value = agreement
runs = host ref
device = host
expect = between 0.001 1000
scope = any
"""

HOST_TEX = r"""\val{host.points} \val{host.passed} \val{host.skipped}
\val{host.gflops.host_naive.128} \val{host.gflops.host_restrict.256}
\val{host.ratio.host_restrict.host_naive.128} \val{host.rows.host}
\val{claim.restrict_over_naive.measured} \val{claim.host_agreement.measured}
"""

GPU_TEX = r"""\val{h100.gpu} \val{h100.points} \val{h100.passed} \val{h100.skipped}
\val{h100.gflops.cublas_fp32.4096} \val{h100.pct_ref.gpu_async_copy.4096}
\val{h100.ratio.cublas_tf32.cublas_fp32.4096} \val{h100.step.gpu_tiled_wpt.4096}
\val{h100.max_rel_err.fp32} \val{h100.rows.gpu}
\val{claim.warptiled_vs_cublas.measured} \val{claim.tf32_cublas_over_fp32.measured}
"""

# ---- running the readers -------------------------------------------------------------------

STRONG = re.compile(r"damaged|incomplete|two gpu models|mismatch|not believed|given twice|"
                    r"is a run on|unreadable|cannot be read|\blost\b|dropped|"
                    r"out of order|cut short|not an hdf5|crashed|did not end", re.I)


def commands(kind, claims, h200, roles, tex):
    """The reader commands, (name, argv) with FILE, GOOD and TMP in argv (what a
    command writes under TMP is compared too); roles "dup": the file's role
    given twice."""
    c = [("info", ["info", "FILE"]), ("export", ["export", "FILE"]),
         ("export-csv", ["export", "FILE", "--csv"]), ("export-samples", ["export", "FILE", "--samples"]),
         ("export-attrs", ["export", "FILE", "--attrs"])]
    for v in VIEWS:
        c.append(("table-" + v, ["table", v, "FILE"]))
    c.append(("table-compare", ["table", "compare", "FILE", "GOOD"]))
    c.append(("compare", ["compare", "FILE", "GOOD"]))
    if kind == "gpu":
        run_roles = ["h100=FILE"] + (["h100=GOOD"] if roles == "dup" else []) + ["h200=" + h200]
    else:
        run_roles = ["host=FILE"] + (["host=GOOD"] if roles == "dup" else []) + ["ref=GOOD"]
    if roles == "dup":
        c[c.index(("table-runs", ["table", "runs", "FILE"]))] = ("table-runs", ["table", "runs", "a=FILE", "a=GOOD"])
    c.append(("claims", ["claims", claims, "--partial"] + run_roles))
    c.append(("values", ["values", "--claims", claims, "--out", "TMP/values.tex", "--tables", "TMP/tables"]
              + run_roles + ["--", tex]))
    return c


def run_one(binary, argv, src, good, timeout):
    """argv run on a copy of src named TMP/t.h5 (every file's path as long as
    the baseline's); its exit status, stdout, stderr and files written under
    TMP, with TMP written TMP and the good file's path GOOD."""
    tmp = tempfile.mkdtemp(prefix="damage-")
    os.mkdir(os.path.join(tmp, "tables"))
    path = os.path.join(tmp, "t.h5")
    shutil.copyfile(src, path)
    full = [binary] + [a.replace("FILE", path).replace("GOOD", good).replace("TMP", tmp) for a in argv]
    t0 = time.monotonic()
    try:
        p = subprocess.run(full, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
        rc, out, err = p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired as e:
        rc, out, err = "hang", e.stdout or b"", e.stderr or b""
    secs = time.monotonic() - t0
    os.unlink(path)
    extra = b""
    for root, _, files in sorted(os.walk(tmp)):
        for fn in sorted(files):
            with open(os.path.join(root, fn), "rb") as fh:
                extra += fn.encode() + b"\n" + fh.read()
    shutil.rmtree(tmp, ignore_errors=True)

    def norm(b):
        return b.decode("utf-8", "replace").replace(good, "GOOD").replace(tmp, "TMP")
    return rc, norm(out), norm(err), norm(extra), secs


def new_lines(lines, base):
    """The lines of `lines` not in `base` (as multisets)."""
    left = collections.Counter(base)
    out = []
    for l in lines:
        if left[l] > 0:
            left[l] -= 1
        else:
            out.append(l)
    return out


def classify(res, base):
    rc, out, err, extra, _ = res
    brc, bout, berr, bextra, _ = base
    if rc == "hang":
        return "hang", ""
    if rc < 0:
        return "crash", "signal %d" % -rc
    new_err = new_lines(err.splitlines(), berr.splitlines())
    new_out = [l for l in new_lines(out.splitlines(), bout.splitlines()) if STRONG.search(l)]
    same = rc == brc and out == bout and extra == bextra
    first = (new_err + new_out + [""])[0][:200]
    if rc != 0 and not (same and not new_err):
        return ("refused" if any("TMP/t.h5" in l for l in new_err) else "unnamed"), first
    if any(STRONG.search(l) for l in new_err + new_out):
        return "flagged", first
    if same:
        return "identical", first
    return "different", first


def cmd_run(args):
    d = args.dir
    kind = open(os.path.join(d, "kind")).read().strip()
    good = os.path.abspath(os.path.join(d, "good.h5"))
    claims = args.claims or (os.path.join(d, "host-claims.ini") if kind == "host" else "paper/claims.ini")
    if kind == "gpu" and not args.h200:
        sys.exit("damage-readers.py: a GPU file needs --h200 (a good H200 run of the same experiment)")
    h200 = os.path.abspath(args.h200) if args.h200 else ""
    tex = os.path.abspath(os.path.join(d, "values.tex"))
    manifest = [l.rstrip("\n").split("\t") for l in open(os.path.join(d, "manifest.tsv"))][1:]
    if args.only:
        manifest = [m for m in manifest if m[1] in args.only.split(",")]
    binary = os.path.abspath(args.bin)
    baselines = {}
    for name, argv in commands(kind, claims, h200, "", tex):
        baselines[("", name)] = run_one(binary, argv, good, good, args.timeout)
    skip = set()
    for (roles, name), b in sorted(baselines.items()):
        print("baseline %-16s exit %s, %d bytes out, %d bytes of files%s" % (
            name, b[0], len(b[1]), len(b[3]), (", stderr: " + b[2].splitlines()[0][:100]) if b[2] else ""))
        if b[0] != 0:   # a command this binary does not have, or that fails on the good file
            skip.add(name)
    if skip:
        print("left out (failing on good.h5): " + " ".join(sorted(skip)))
    jobs = []
    for fn, cls, what, roles, design in manifest:
        path = os.path.abspath(os.path.join(d, fn))
        for name, argv in commands(kind, claims, h200, roles, tex):
            if name not in skip:
                jobs.append((fn, cls, what, roles, design, name, argv, path))

    def work(j):
        fn, cls, what, roles, design, name, argv, path = j
        res = run_one(binary, argv, path, good, args.timeout)
        outcome, note = classify(res, baselines[("", name)])   # a duplicated role: against one
        return (fn, cls, name, outcome, str(res[0]), "%.2f" % res[4], note.replace("\t", " "), what)
    with open(args.out, "w") as out, concurrent.futures.ThreadPoolExecutor(args.jobs) as ex:
        out.write("file\tclass\tcommand\toutcome\trc\tseconds\tfirst_new_line\twhat\n")
        out.write("#baseline\t\t\t\t%s\n" % " ".join("%s=%s" % (k[1], v[0]) for k, v in baselines.items() if not k[0]))
        for row in ex.map(work, jobs):
            out.write("\t".join(row) + "\n")
            out.flush()
    cmd_summary(argparse.Namespace(tsv=[args.out], dir=[d]))


# The commands that show the root attributes as the file holds them.
DUMPS = ("info", "export-attrs", "table-runs", "values")
OUTCOMES = ["refused", "flagged", "identical", "designed", "different", "unflagged", "unnamed",
            "crash", "hang"]
WORST = ["crash", "hang", "different", "unflagged", "unnamed", "flagged", "refused", "designed",
         "identical"]


def by_design(outcome, cmd, design):
    """An outcome as the manifest's by_design takes it: "dumps" (different in
    DUMPS is by design), "all" (different anywhere is), "flag=CMD,..." (those
    commands must say the file is mismatched: output as the good file's there is
    a mismatch presented as sound), joined by ";"."""
    parts = dict((p.split("=", 1) + [""])[:2] for p in design.split(";") if p)
    if outcome == "different" and ("all" in parts or ("dumps" in parts and cmd in DUMPS)):
        return "designed"
    if outcome in ("identical", "designed", "different") and cmd in parts.get("flag", "").split(","):
        return "unflagged"
    return outcome


def cmd_summary(args):
    """Per class: outcomes of every output, then of each file by its worst output."""
    design = {}
    for d in args.dir or []:
        for l in list(open(os.path.join(d, "manifest.tsv")))[1:]:
            f = l.rstrip("\n").split("\t")
            design[f[0]] = f[4] if len(f) > 4 else ""
    for tsv in args.tsv:
        rows = [l.rstrip("\n").split("\t") for l in open(tsv) if not l.startswith(("file\t", "#"))]
        per_out = collections.defaultdict(collections.Counter)
        per_file = collections.defaultdict(dict)
        slow = []
        for fn, cls, cmd, outcome, rc, secs, note, what in rows:
            outcome = by_design(outcome, cmd, design.get(fn, ""))
            per_out[cls][outcome] += 1
            prev = per_file[cls].get(fn)
            if prev is None or WORST.index(outcome) < WORST.index(prev):
                per_file[cls][fn] = outcome
            if float(secs) > 5:
                slow.append((float(secs), fn, cmd))
        head = " ".join("%9s" % o for o in OUTCOMES)
        print("%s\n%-12s %5s | outputs: %s | files by their worst output: %s" % (tsv, "class", "files", head, head))
        order = ["truncation", "flip"] + sorted(c for c in per_out if c not in ("truncation", "flip"))
        tot_o, tot_f = collections.Counter(), collections.Counter()

        def line(name, nfiles, o, fc):
            print("%-12s %5d |          %s |                              %s" % (
                name, nfiles, " ".join("%9d" % o[k] for k in OUTCOMES), " ".join("%9d" % fc[k] for k in OUTCOMES)))
        for cls in [c for c in order if c in per_out]:
            fc = collections.Counter(per_file[cls].values())
            if cls not in ("truncation", "flip"):
                tot_o.update(per_out[cls])
                tot_f.update(fc)
            line(cls, len(per_file[cls]), per_out[cls], fc)
        line("crafted", sum(tot_f.values()), tot_o, tot_f)
        if slow:
            print("slowest: %.1f s (%s %s); %d outputs over 5 s" % (max(slow) + (len(slow),)))
        print()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("make")
    p.add_argument("good")
    p.add_argument("dir")
    p.add_argument("--seed", type=int, default=31)
    p.add_argument("--cuts", type=int, default=126)
    p.add_argument("--flips", type=int, default=168)
    p = sub.add_parser("run")
    p.add_argument("--bin", required=True)
    p.add_argument("dir")
    p.add_argument("out")
    p.add_argument("--claims")
    p.add_argument("--h200")
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--timeout", type=float, default=120)
    p.add_argument("--only", help="classes, comma-separated")
    p = sub.add_parser("summary")
    p.add_argument("tsv", nargs="+")
    p.add_argument("--dir", action="append", help="a DIR whose manifest says what is by design")
    args = ap.parse_args()
    {"make": cmd_make, "run": cmd_run, "summary": cmd_summary}[args.cmd](args)


if __name__ == "__main__":
    main()
