"""crafted.py: the damaged copies damage-readers.py makes of a good results
file (`damage-readers.py make`): the HDF5 edits, the checksums they are sealed
with again (data/README.md, schema 9), and make_crafted's list of defects, one
a file.  Imported by damage-readers.py; needs h5py (with numpy)."""
import collections
import os
import random
import shutil
import struct
import sys
import zlib

try:
    import h5py
    import numpy as np
except ImportError:
    sys.exit("damage-readers.py: needs h5py and numpy (pip install h5py)")

INT32_MAX = 2**31 - 1

# ---- checksums (data/README.md, schema 9) -----------------------------------------------


def _field_bytes(rec, dt, skip=None):
    out = []
    for name in dt.names:
        if name == skip:
            continue
        t = dt.fields[name][0]
        v = rec[name]
        if t.kind == "S":
            # the reader ends a string within its field: at most size - 1 bytes
            out.append(bytes(v).split(b"\0")[0][: t.itemsize - 1])
        elif t.kind in "iu":
            out.append(struct.pack("<i", int(np.int64(v).astype(np.int32))))
        else:
            out.append(struct.pack("<d", float(v)))
    return b"".join(out)


def row_crcs(rows, samples):
    """Each row's crc32 (as int32), over its fields but crc32, then its samples'."""
    by_row = collections.defaultdict(list)
    for s in samples:
        by_row[int(s["row"])].append(s)
    out = []
    for i, r in enumerate(rows):
        c = zlib.crc32(_field_bytes(r, rows.dtype, "crc32"))
        for s in by_row.get(i, ()):
            c = zlib.crc32(_field_bytes(s, samples.dtype), c)
        out.append(np.uint32(c).astype(np.int32))
    return out


def _bytes(v):
    if isinstance(v, str):
        return v.encode("utf-8", "surrogateescape")
    if isinstance(v, np.ndarray):
        v = v[()]
    return bytes(v)


def attr_text(f, name):
    """An attribute's value as text, as the reader writes it (results_read.c)."""
    aid = f.attrs.get_id(name)
    t = aid.get_type()
    n = aid.get_space().get_simple_extent_npoints()
    cls = t.get_class()
    if n != 1:
        return b"(%d values, not shown)" % n
    if cls == h5py.h5t.STRING:
        if not t.is_variable_str() and t.get_size() > 16 << 20:
            return b"(a string of %d bytes, not shown)" % t.get_size()
        return _bytes(f.attrs[name]).split(b"\0")[0]
    if cls == h5py.h5t.INTEGER:
        return b"%d" % int(f.attrs[name])
    if cls == h5py.h5t.FLOAT:
        return b"%.17g" % float(f.attrs[name])
    return b"(a value of another type, not shown)"


def attrs_crc(f):
    """attrs_crc32 as the writer stores it: zlib's CRC-32, unsigned, in an int64."""
    c = 0
    for name in sorted(f.attrs.keys(), key=lambda k: k.encode()):
        if name != "attrs_crc32":
            c = zlib.crc32(name.encode() + b"\0" + attr_text(f, name) + b"\0", c)
    return c & 0xFFFFFFFF


def seal(path):
    """Recompute every row's crc32 and attrs_crc32 of a schema-9 file."""
    with h5py.File(path, "r+", locking=False) as f:
        if "results" in f and "samples" in f and "crc32" in f["results"].dtype.names \
                and "row" in f["samples"].dtype.names:
            rows, samples = f["results"][:], f["samples"][:]
            rows["crc32"] = row_crcs(rows, samples)
            f["results"][:] = rows
        if "attrs_crc32" in f.attrs and int(f.attrs["attrs_crc32"]) != 0:
            f.attrs.modify("attrs_crc32", np.int64(attrs_crc(f)))


# ---- making the damaged copies ----------------------------------------------------------


def rewrite_table(f, name, new):
    """Replace table `name` by the records `new` (any dtype), chunked as the writer's."""
    old = f[name]
    chunks = old.chunks or (64,)
    del f[name]
    f.create_dataset(name, data=new, chunks=chunks, maxshape=(None,))


def drop_column(a, col):
    names = [n for n in a.dtype.names if n != col]
    out = np.empty(a.shape, dtype=[(n, a.dtype.fields[n][0]) for n in names])
    for n in names:
        out[n] = a[n]
    return out


def retype_column(a, col, dtype):
    out = np.empty(a.shape, dtype=[(n, dtype if n == col else a.dtype.fields[n][0])
                                   for n in a.dtype.names])
    for n in a.dtype.names:
        out[n] = a[n].astype(dtype) if n == col else a[n]
    return out


def set_attr(f, name, value, dtype=None):
    if name in f.attrs:
        del f.attrs[name]
    if dtype is None:
        f.attrs[name] = value
    else:
        f.attrs.create(name, value, dtype=dtype)


class Maker:
    def __init__(self, good, out, seed):
        self.good, self.out = good, out
        self.rng = random.Random(seed)
        self.manifest = []
        with h5py.File(good, "r", locking=False) as f:
            self.rows = f["results"][:]
            self.samples = f["samples"][:]
            self.schema = int(f.attrs["schema_version"])
            self.peak = float(f.attrs.get("gpu_fp32_peak_gflops", float("nan")))
        disp = self.rows["disposition"]
        dev = self.rows["device"]
        self.passed = [i for i in range(len(self.rows)) if disp[i] == b"passed"]
        self.gpu_passed = [i for i in self.passed if dev[i] == b"gpu"]
        self.gpu = bool(self.gpu_passed) and self.peak == self.peak
        self.sealed = self.schema >= 9
        self.n = 0

    def add(self, cls, what, edit=None, seal_after=True, raw=None, copy_of=None, roles="",
            design=""):
        """One crafted file: a copy of good (or of copy_of) changed by edit(f) under
        h5py, or by raw(bytes) -> bytes; sealed again in schema 9 unless asked not.
        design: where output unlike the good file's is by design: "dumps" (an
        attribute no check reads, shown as the file holds it by info, export
        --attrs, table runs and values), "all" (a change no check can see)."""
        self.n += 1
        name = "crafted-%03d-%s.h5" % (self.n, cls)
        path = os.path.join(self.out, name)
        shutil.copyfile(copy_of or self.good, path)
        if edit:
            with h5py.File(path, "r+", locking=False, libver=("earliest", "v110")) as f:
                edit(f)
            if self.sealed and seal_after and cls != "plausible":
                seal(path)
        if raw:
            with open(path, "rb") as fh:
                b = fh.read()
            b2 = raw(b)
            if b2 == b:
                raise SystemExit("damage-readers.py: crafted %s changed nothing" % name)
            with open(path, "wb") as fh:
                fh.write(b2)
        if cls == "plausible" and not self.sealed:
            design = "all"   # without checksums no reader can see it
        self.manifest.append((name, cls, what, roles, design))

    def pick(self, among, k=1):
        return self.rng.sample(among, min(k, len(among)))

    # One row's fields set, the rest of the file as it was.
    def row_edit(self, i, **fields):
        def edit(f):
            r = f["results"][i]
            for k, v in fields.items():
                r[k] = v
            f["results"][i] = r
        return edit


def consistent_rate(r, gflops):
    """Fields of row r changed so that it runs at `gflops`, every time consistent."""
    t = float(r["flops"]) / gflops / 1e6
    scale = t / float(r["time_ms_median"])
    return dict(gflops=gflops, time_ms_median=t, time_ms_min=float(r["time_ms_min"]) * scale,
                time_ms_mean=float(r["time_ms_mean"]) * scale,
                time_ms_max=float(r["time_ms_max"]) * scale,
                time_ms_stddev=float(r["time_ms_stddev"]) * scale)


def make_crafted(m):
    rows, n = m.rows, len(m.rows)
    passed = m.passed
    p3 = [passed[0], m.pick(passed)[0], passed[-1]]   # first, a seeded one, last passed row

    # -- the schema's columns
    for col in ["gflops", "disposition", "M", "time_ms_median", "variant", "device"]:
        m.add("columns", "/results without column %s" % col,
              lambda f, c=col: rewrite_table(f, "results", drop_column(f["results"][:], c)))
    m.add("columns", "/samples without column time_ms",
          lambda f: rewrite_table(f, "samples", drop_column(f["samples"][:], "time_ms")))
    m.add("columns", "/results with an unknown column 'bogus'",
          lambda f: rewrite_table(f, "results", _with_bogus(f["results"][:])))
    m.add("columns", "/results column gflops stored as int32",
          lambda f: rewrite_table(f, "results", retype_column(f["results"][:], "gflops", "<i4")))
    m.add("columns", "/results column gflops stored as float32 (values rounded)",
          lambda f: rewrite_table(f, "results", retype_column(f["results"][:], "gflops", "<f4")))
    m.add("columns", "no /samples table", lambda f: f.__delitem__("samples"))
    m.add("columns", "identity: every table and attribute rewritten unchanged by h5py",
          lambda f: rewrite_table(f, "results", f["results"][:]))
    if m.schema >= 9:
        m.add("columns", "/results without crc32 (schema_version still 9)",
              lambda f: rewrite_table(f, "results", drop_column(f["results"][:], "crc32")))

    # -- schema_version
    for v in [99, 0, -1, 10, 1000000]:
        m.add("schema", "schema_version = %d" % v, lambda f, v=v: set_attr(f, "schema_version", v, "<i8"))
    m.add("schema", "schema_version missing", lambda f: f.attrs.__delitem__("schema_version"))
    m.add("schema", "schema_version a string '%d'" % m.schema,
          lambda f: set_attr(f, "schema_version", str(m.schema)))
    m.add("schema", "schema_version a float %d.0" % m.schema,
          lambda f: set_attr(f, "schema_version", float(m.schema), "<f8"))
    m.add("schema", "schema_version %d (columns of a later schema present)" % (m.schema - 1),
          lambda f: set_attr(f, "schema_version", m.schema - 1, "<i8"))
    m.add("schema", "schema_version 5 (columns of later schemas present)",
          lambda f: set_attr(f, "schema_version", 5, "<i8"))
    if m.schema >= 9:
        i = p3[1]
        r = rows[i]

        def downgrade(f, i=i, r=r):
            set_attr(f, "schema_version", 8, "<i8")
            fs = consistent_rate(r, float(r["gflops"]) * 1.3)
            m.row_edit(i, **fs)(f)
        m.add("schema", "schema_version 8 and row %d 30%% faster, its crc32 stale" % i,
              lambda f: (downgrade(f), f.attrs.modify("attrs_crc32", np.int64(attrs_crc(f)))),
              seal_after=False)

    # -- integers stored wider than 32 bits
    def wide(f, col, i, v):
        a = retype_column(f["results"][:], col, "<i8")
        a[col][i] = v
        rewrite_table(f, "results", a)
    m.add("int64", "M as int64, values unchanged", lambda f: wide(f, "M", 0, rows["M"][0]))
    for v, i in [(2**31, p3[0]), (2**32 + int(rows["M"][p3[1]]), p3[1]), (2**40, p3[2])]:
        def big(f, v=v, i=i):
            a = retype_column(f["results"][:], "M", "<i8")
            r = a[i]
            a["M"][i] = v
            a["flops"][i] = 2.0 * v * int(r["N"]) * int(r["K"])
            a["gflops"][i] = a["flops"][i] / float(r["time_ms_median"]) / 1e6
            rewrite_table(f, "results", a)
        m.add("int64", "row %d: M = %d as int64 (flops and gflops to match)" % (i, v), big)
    m.add("int64", "row %d: K = -2^33 as int64" % p3[1], lambda f: wide(f, "K", p3[1], -2**33))
    m.add("int64", "/samples row index as int64, one 2^32 + its row",
          lambda f: _wide_sample_row(f))

    # -- complete and planned_points
    keep_half = n // 2

    def cut_rows(f, k):
        f["results"].resize((k,))
        s = f["samples"][:]
        s = s[s["row"] < k]
        f["samples"].resize((len(s),))
        if len(s):
            f["samples"][:] = s
    m.add("complete", "complete = 1, rows cut to %d of %d" % (keep_half, n), lambda f: cut_rows(f, keep_half))
    m.add("complete", "complete = 1, rows cut to 0 of %d" % n, lambda f: cut_rows(f, 0))
    m.add("complete", "complete = 1, last row cut", lambda f: cut_rows(f, n - 1))
    m.add("complete", "complete = 0, every row there (killed after the last row)",
          lambda f: f.attrs.modify("complete", np.int64(0)), design="dumps")
    m.add("complete", "complete = 2", lambda f: f.attrs.modify("complete", np.int64(2)))
    m.add("complete", "complete missing", lambda f: f.attrs.__delitem__("complete"), design="dumps")
    m.add("complete", "complete a string '1', rows cut to %d" % keep_half,
          lambda f: (set_attr(f, "complete", "1"), cut_rows(f, keep_half)))
    m.add("planned", "planned_points missing", lambda f: f.attrs.__delitem__("planned_points"))
    m.add("planned", "planned_points missing, rows cut to %d" % keep_half,
          lambda f: (f.attrs.__delitem__("planned_points"), cut_rows(f, keep_half)))
    m.add("planned", "planned_points = -1, rows cut to %d" % keep_half,
          lambda f: (f.attrs.modify("planned_points", np.int64(-1)), cut_rows(f, keep_half)))
    m.add("planned", "planned_points = -%d" % n, lambda f: f.attrs.modify("planned_points", np.int64(-n)))
    m.add("planned", "planned_points a string, rows cut to %d" % keep_half,
          lambda f: (set_attr(f, "planned_points", str(n)), cut_rows(f, keep_half)))
    m.add("planned", "planned_points = 0", lambda f: f.attrs.modify("planned_points", np.int64(0)))
    m.add("planned", "planned_points = %d (rows %d)" % (n + 10, n),
          lambda f: f.attrs.modify("planned_points", np.int64(n + 10)))
    m.add("planned", "planned_points = %d, complete = 0, rows cut to %d (an honest killed run)"
          % (n, keep_half),
          lambda f: (f.attrs.modify("complete", np.int64(0)), cut_rows(f, keep_half)))

    # -- attributes of odd types, unreadable attributes
    peak_read = "" if m.gpu else "dumps"   # a host run's peak is read by no check
    m.add("attrs", "gpu_fp32_peak_gflops a string", lambda f: set_attr(f, "gpu_fp32_peak_gflops", "66908"),
          design=peak_read)
    m.add("attrs", "gpu_fp32_peak_gflops an array of 2",
          lambda f: set_attr(f, "gpu_fp32_peak_gflops", np.array([1.0, 2.0])), design=peak_read)
    m.add("attrs", "gpu_name an integer", lambda f: set_attr(f, "gpu_name", 100, "<i8"), design="dumps")
    m.add("attrs", "hostname an array of 3 strings",
          lambda f: set_attr(f, "hostname", np.array([b"a", b"b", b"c"])), design="dumps")
    m.add("attrs", "an attribute of compound type added",
          lambda f: set_attr(f, "odd", np.zeros(1, dtype=[("a", "<i4"), ("b", "<f8")])[0]), design="dumps")
    m.add("attrs", "experiment_text of 17 MB (over the reader's 16 MB)",
          lambda f: set_attr(f, "experiment_text", np.bytes_(b"x" * (17 << 20))), design="dumps")
    m.add("attrs", "cpu_model of non-UTF-8 bytes (fixed-length)",
          lambda f: set_attr(f, "cpu_model", np.bytes_(b"\xff\xfe\x80 cpu")), design="dumps")
    m.add("attrs", "raw bytes: the name 'gpu_name' overwritten with 'gpu_nXme'",
          raw=lambda b: b.replace(b"gpu_name", b"gpu_nXme"), design="" if m.sealed else "dumps")
    m.add("attrs", "raw bytes: the name 'planned_points' overwritten with 'planned_pointz'",
          raw=lambda b: b.replace(b"planned_points", b"planned_pointz"))
    m.add("attrs", "raw bytes: the global heap signature (GCOL) overwritten",
          raw=lambda b: b.replace(b"GCOL", b"GCOX", 1))
    m.add("attrs", "raw bytes: the first attribute-info/B-tree signature (BTHD) overwritten",
          raw=lambda b: b.replace(b"BTHD", b"BTHX", 1))

    # -- values: rates above the peak (GPU files)
    if m.gpu:
        fp32 = [i for i in m.gpu_passed if rows["precision"][i] == b"fp32"]
        tf32 = [i for i in m.gpu_passed if rows["precision"][i] == b"tf32"]
        for i, x in [(m.pick(fp32)[0], 1.5), (m.pick(fp32)[0], 20.0)]:
            m.add("peak", "row %d (fp32) at %.1f x the file's FP32 peak, times to match" % (i, x),
                  m.row_edit(i, **consistent_rate(rows[i], m.peak * x)))
        if tf32:
            i = m.pick(tf32)[0]
            m.add("peak", "row %d (tf32) at 40 x the FP32 peak, times to match" % i,
                  m.row_edit(i, **consistent_rate(rows[i], m.peak * 40)))
        i = m.pick(fp32)[0]
        m.add("peak", "row %d (fp32) at 1.05 x the FP32 peak (within the 10%% margin, by design)" % i,
              m.row_edit(i, **consistent_rate(rows[i], m.peak * 1.05)), design="all")
        i = m.pick(fp32)[0]
        m.add("peak", "row %d at 1.5 x the peak, gpu_fp32_peak_gflops missing" % i,
              lambda f, i=i: (m.row_edit(i, **consistent_rate(rows[i], m.peak * 1.5))(f),
                              f.attrs.__delitem__("gpu_fp32_peak_gflops")))
        i = m.pick(fp32)[0]
        m.add("peak", "gpu_fp32_peak_gflops = 1 (every GPU rate above it)",
              lambda f: f.attrs.modify("gpu_fp32_peak_gflops", np.float64(1.0)))
        m.add("peak", "gpu_fp32_peak_gflops = NaN, row %d at 1.5 x the peak" % i,
              lambda f, i=i: (m.row_edit(i, **consistent_rate(rows[i], m.peak * 1.5))(f),
                              f.attrs.modify("gpu_fp32_peak_gflops", np.float64("nan"))))
    else:
        i = p3[1]
        m.add("peak", "host row %d at 10^7 GFLOP/s, times to match (a host file records no peak)" % i,
              m.row_edit(i, **consistent_rate(rows[i], 1e7)))

    # -- values: times and rates that cannot be
    for k, v in enumerate([float("nan"), float("inf"), 0.0, -1.0]):
        i = p3[k % 3]
        m.add("time", "row %d: time_ms_median = %r" % (i, v), m.row_edit(i, time_ms_median=v))
    for k, v in enumerate([float("nan"), float("inf"), 0.0, -1.0]):
        i = p3[(k + 1) % 3]
        m.add("gflops", "row %d: gflops = %r" % (i, v), m.row_edit(i, gflops=v))
    i = p3[1]
    m.add("time", "row %d: time_ms_min above its median" % i,
          m.row_edit(i, time_ms_min=float(rows[i]["time_ms_median"]) * 2))
    m.add("time", "row %d: time_ms_stddev = -1" % i, m.row_edit(i, time_ms_stddev=-1.0))
    m.add("time", "row %d: samples = 0 (passed)" % i, m.row_edit(i, samples=0))
    m.add("time", "row %d: time_ms_max = NaN" % p3[2], m.row_edit(p3[2], time_ms_max=float("nan")))
    m.add("time", "sample 0 of row %d: time_ms = NaN" % p3[1], lambda f: _sample_edit(f, p3[1], 0, time_ms=float("nan")))
    m.add("time", "sample 1 of row %d: time_ms = -1" % p3[0], lambda f: _sample_edit(f, p3[0], 1, time_ms=-1.0))
    # a NaN in a group's first row (a rung at a shape with several configurations)
    groups = collections.defaultdict(list)
    for j in passed:
        r = rows[j]
        groups[(r["variant"], r["M"], r["N"], r["K"], r["host_memory"])].append(j)
    multi = [g for g in groups.values() if len(g) > 1]
    for g in m.rng.sample(multi, min(2, len(multi))):
        m.add("nan-first", "row %d, the first of its group of %d: gflops = NaN" % (g[0], len(g)),
              m.row_edit(g[0], gflops=float("nan")))
        m.add("nan-first", "row %d, the first of its group of %d: time_ms_median = NaN, gflops = 1e9"
              % (g[0], len(g)), m.row_edit(g[0], time_ms_median=float("nan"), gflops=1e9))
    for i, x in [(p3[0], 1.5), (p3[1], 1 + 1e-6), (p3[2], 0.5)]:
        m.add("consistency", "row %d: gflops x %g (not flops / median time)" % (i, x),
              m.row_edit(i, gflops=float(rows[i]["gflops"]) * x))
    m.add("consistency", "row %d: gflops x (1 + 1e-12) (within rounding, by design)" % p3[1],
          m.row_edit(p3[1], gflops=float(rows[p3[1]]["gflops"]) * (1 + 1e-12)), design="all")
    m.add("consistency", "row %d: rel_err = NaN (passed)" % p3[1], m.row_edit(p3[1], rel_err=float("nan")))
    m.add("consistency", "row %d: max_rel_err = 10 x its tolerance (passed)" % p3[0],
          m.row_edit(p3[0], max_rel_err=float(rows[p3[0]]["tolerance"]) * 10))
    m.add("consistency", "row %d: max_rel_err = NaN (passed)" % p3[2],
          m.row_edit(p3[2], max_rel_err=float("nan")))
    m.add("flops", "row %d: flops x 2 (gflops to match)" % p3[0],
          m.row_edit(p3[0], flops=float(rows[p3[0]]["flops"]) * 2, gflops=float(rows[p3[0]]["gflops"]) * 2))
    m.add("flops", "row %d: M + 1, flops and gflops as they were" % p3[1],
          m.row_edit(p3[1], M=int(rows[p3[1]]["M"]) + 1))
    skipped = [j for j in range(n) if rows["disposition"][j] == b"skipped"]
    if skipped:
        j = m.pick(skipped)[0]
        m.add("flops", "row %d (skipped): flops = 0" % j, m.row_edit(j, flops=0.0))
        m.add("strings", "row %d: skipped made passed (its times zero)" % j, m.row_edit(j, disposition=b"passed"))

    # -- strings no writer writes
    for i, (col, v) in zip([p3[0], p3[1], p3[2], p3[0], p3[1], p3[2], p3[1], p3[0], p3[2]],
                           [("disposition", b"passd"), ("disposition", b""), ("disposition", b"PASSED"),
                            ("disposition", b"damaged"), ("device", b"cpu"), ("device", b""),
                            ("precision", b"fp16"), ("precision", b"FP32"), ("variant", b"gpu_bogus")]):
        m.add("strings", "row %d: %s = %r" % (i, col, v.decode()), m.row_edit(i, **{col: v}),
              design="all" if col == "variant" else "")   # a newer binary's rung: read
    m.add("strings", "row %d: disposition 'recording' amid committed rows" % p3[1],
          m.row_edit(p3[1], disposition=b"recording"))
    m.add("strings", "last row: disposition 'recording' (complete = 1)", m.row_edit(n - 1, disposition=b"recording"))

    # -- plausible edits: a value changed within reason, checksums left as they were
    #    (only a checksum can find these: schema 9's; in schema 8 they read as sound)
    i = p3[1]
    m.add("plausible", "row %d: 30%% faster, times and gflops to match" % i,
          m.row_edit(i, **consistent_rate(rows[i], float(rows[i]["gflops"]) * 1.3)))
    m.add("plausible", "row %d: passed made incorrect" % p3[0], m.row_edit(p3[0], disposition=b"incorrect"))
    j = p3[2]
    Mv = INT32_MAX
    m.add("plausible", "row %d: M = INT_MAX, flops and gflops to match" % j,
          m.row_edit(j, M=Mv, flops=2.0 * Mv * int(rows[j]["N"]) * int(rows[j]["K"]),
                     gflops=2.0 * Mv * int(rows[j]["N"]) * int(rows[j]["K"]) / float(rows[j]["time_ms_median"]) / 1e6))
    m.add("plausible", "sample 0 of row %d: time_ms = 2 x" % p3[1], lambda f: _sample_edit(f, p3[1], 0, scale=2))
    m.add("plausible", "experiment_name changed", lambda f: f.attrs.modify("experiment_name", "other"))

    # -- stale checksums (schema 9)
    if m.schema >= 9:
        i = p3[1]
        m.add("crc", "row %d: variant renamed to host_restrict/gpu_naive, crc32 stale" % p3[0],
              m.row_edit(p3[0], variant=b"gpu_naive" if rows["device"][p3[0]] == b"gpu" else
                         (b"host_naive" if rows["variant"][p3[0]] != b"host_naive" else b"host_restrict")),
              seal_after=False)
        m.add("crc", "sample 2 of row %d: t_s x 2, crc32 stale" % i,
              lambda f: _sample_edit_field(f, i, 2, "t_s", 2.0), seal_after=False)
        m.add("crc", "row %d: crc32 = 0" % p3[2], m.row_edit(p3[2], crc32=0), seal_after=False)
        a, b = p3[0], p3[2]
        m.add("crc", "rows %d and %d: crc32 swapped" % (a, b),
              lambda f: _swap_crc(f, a, b), seal_after=False)
        m.add("crc", "row %d: reason set, crc32 stale" % p3[0],
              m.row_edit(p3[0], reason=b"edited"), seal_after=False)
        for what, edit in [
                ("gpu_name changed", lambda f: f.attrs.modify("gpu_name", "NVIDIA H200")),
                ("planned_points + 1", lambda f: f.attrs.modify("planned_points", np.int64(n + 1))),
                ("complete = 0", lambda f: f.attrs.modify("complete", np.int64(0))),
                ("experiment_name changed", lambda f: f.attrs.modify("experiment_name", "other")),
                ("an attribute added", lambda f: set_attr(f, "added", "x")),
                ("hostname deleted", lambda f: f.attrs.__delitem__("hostname")),
                ("attrs_crc32 = 0 and gpu_name changed",
                 lambda f: (f.attrs.modify("gpu_name", "NVIDIA H200"), f.attrs.modify("attrs_crc32", np.int64(0)))),
                ("attrs_crc32 deleted and gpu_name changed",
                 lambda f: (f.attrs.modify("gpu_name", "NVIDIA H200"), f.attrs.__delitem__("attrs_crc32"))),
                ("attrs_crc32 deleted and planned_points changed, rows cut",
                 lambda f: (f.attrs.__delitem__("attrs_crc32"), f.attrs.modify("planned_points", np.int64(keep_half)),
                            cut_rows(f, keep_half))),
                ("attrs_crc32 a string", lambda f: set_attr(f, "attrs_crc32", "123")),
                ("attrs_crc32 deleted, nothing else", lambda f: f.attrs.__delitem__("attrs_crc32"))]:
            m.add("attrs-crc", what + ", attrs_crc32 stale", edit, seal_after=False)

    # -- duplicated rows
    def dup_append(f, i, samples_too, planned):
        a = f["results"][:]
        a = np.concatenate([a, a[i:i + 1]])
        rewrite_table(f, "results", a)
        if samples_too:
            s = f["samples"][:]
            add = s[s["row"] == i].copy()
            add["row"] = len(a) - 1
            rewrite_table(f, "samples", np.concatenate([s, add]))
        if planned:
            f.attrs.modify("planned_points", np.int64(len(a)))
    i = p3[1]
    m.add("duplicates", "row %d appended again, without its samples" % i, lambda f: dup_append(f, i, False, False))
    m.add("duplicates", "row %d appended again with its samples, planned_points + 1" % i,
          lambda f: dup_append(f, i, True, True))
    if skipped:
        j = skipped[-1]
        m.add("duplicates", "row %d (skipped) appended again, planned_points + 1" % j,
              lambda f: dup_append(f, j, False, True))
        k = [x for x in skipped if x != j]
        if k:
            m.add("duplicates", "row %d (skipped) copied over row %d (skipped)" % (j, k[0]),
                  lambda f: _copy_row(f, j, k[0]))
    g = m.rng.choice(multi) if multi else p3[:2]
    m.add("duplicates", "row %d copied over row %d (same rung and shape), samples as they were" % (g[0], g[1]),
          lambda f: _copy_row(f, g[0], g[1]))

    # -- samples pointing at rows that do not exist
    ns = len(m.samples)
    m.add("samples", "the last sample's row = rows + 5", lambda f: _sample_at(f, ns - 1, row=n + 5))
    m.add("samples", "the last sample's row = -1", lambda f: _sample_at(f, ns - 1, row=-1))
    m.add("samples", "sample 0's row = 2^31 - 1", lambda f: _sample_at(f, 0, row=INT32_MAX))
    m.add("samples", "20 samples of row rows + 3 appended", lambda f: _append_samples(f, n + 3, 20))
    m.add("samples", "samples of row %d given to row %d" % (p3[1], p3[1] + 1),
          lambda f: _move_samples(f, p3[1], p3[1] + 1))
    m.add("samples", "samples in reverse order", lambda f: _reverse_samples(f))
    m.add("samples", "sample 1 of row %d numbered 0 again" % p3[1], lambda f: _sample_edit(f, p3[1], 1, sample=0))

    # -- GPU runs relabelled, and roles
    if m.gpu:
        m.add("roles", "gpu_name 'NVIDIA H200' (an H100 run relabelled)",
              lambda f: f.attrs.modify("gpu_name", "NVIDIA H200"), design="dumps;flag=compare,claims,values")
        m.add("roles", "gpu_name 'NVIDIA H100 PCIe' (another H100 model; claims roles say H100)",
              lambda f: f.attrs.modify("gpu_name", "NVIDIA H100 PCIe"), design="dumps;flag=compare")
        m.add("roles", "gpu_name missing", lambda f: f.attrs.__delitem__("gpu_name"),
              design="dumps;flag=claims,values")
        m.add("roles", "gpu_name empty", lambda f: f.attrs.modify("gpu_name", ""),
              design="dumps;flag=claims,values")
        m.add("roles", "raw bytes: 'H100' in gpu_name's value overwritten with 'H200'",
              raw=lambda b: b.replace(b"NVIDIA H100 80GB HBM3", b"NVIDIA H200 80GB HBM3"),
              design="dumps;flag=compare,claims,values")
        m.add("roles", "the role given twice (claims and values: h100=FILE h100=GOOD; table runs)",
              lambda f: None, roles="dup", design="flag=claims,values,table-runs")
    else:
        m.add("roles", "gpu_name 'NVIDIA H100 80GB HBM3' on a host run",
              lambda f: f.attrs.modify("gpu_name", "NVIDIA H100 80GB HBM3"), design="dumps;flag=compare")
        m.add("roles", "the role given twice (claims and values: host=FILE host=GOOD; table runs)",
              lambda f: None, roles="dup", design="flag=claims,values,table-runs")

    # -- (added last, so that the files before keep their numbers) dimensions past
    #    INT_MAX stored wider, the row's flops and times to match at its own rate
    def wide_plausible(f, col, i, v, dtype):
        a = retype_column(f["results"][:], col, dtype)
        r = a[i]
        a[col][i] = v
        mnk = [float(v) if c == col else float(r[c]) for c in "MNK"]
        a["flops"][i] = 2.0 * mnk[0] * mnk[1] * mnk[2]
        scale = a["flops"][i] / float(rows[i]["flops"])
        for t in ("time_ms_min", "time_ms_median", "time_ms_mean", "time_ms_max", "time_ms_stddev"):
            a[t][i] = float(r[t]) * scale
        a["gflops"][i] = a["flops"][i] / a["time_ms_median"][i] / 1e6
        rewrite_table(f, "results", a)
    for col, v, i, dtype in [("M", 2**31, p3[1], "<i8"), ("N", 2**31 + 7, p3[2], "<i8"),
                             ("K", 3 * 10**9, p3[0], "<u4")]:
        m.add("int64", "row %d: %s = %d stored as %s, flops and times to match (its own rate)"
              % (i, col, v, "uint32" if dtype == "<u4" else "int64"),
              lambda f, col=col, v=v, i=i, dtype=dtype: wide_plausible(f, col, i, v, dtype))


def _with_bogus(a):
    out = np.zeros(a.shape, dtype=[(n, a.dtype.fields[n][0]) for n in a.dtype.names] + [("bogus", "<i4")])
    for k in a.dtype.names:
        out[k] = a[k]
    return out


def _wide_sample_row(f):
    s = retype_column(f["samples"][:], "row", "<i8")
    s["row"][len(s) // 2] += 2**32
    rewrite_table(f, "samples", s)


def _sample_index(f, row, k):
    s = f["samples"][:]
    idx = np.nonzero(s["row"] == row)[0]
    return int(idx[k]) if len(idx) > k else None


def _sample_edit(f, row, k, time_ms=None, sample=None, scale=None):
    j = _sample_index(f, row, k)
    if j is None:
        raise SystemExit("damage-readers.py: row %d has no sample %d" % (row, k))
    s = f["samples"][j]
    if time_ms is not None:
        s["time_ms"] = time_ms
    if scale is not None:
        s["time_ms"] = float(s["time_ms"]) * scale
    if sample is not None:
        s["sample"] = sample
    f["samples"][j] = s


def _sample_edit_field(f, row, k, field, scale):
    j = _sample_index(f, row, k)
    s = f["samples"][j]
    s[field] = float(s[field]) * scale
    f["samples"][j] = s


def _sample_at(f, j, **fields):
    s = f["samples"][j]
    for k, v in fields.items():
        s[k] = v
    f["samples"][j] = s


def _append_samples(f, row, count):
    s = f["samples"][:]
    add = np.zeros(count, dtype=s.dtype)
    add["row"] = row
    add["sample"] = np.arange(count)
    add["time_ms"] = 1.0
    rewrite_table(f, "samples", np.concatenate([s, add]))


def _move_samples(f, a, b):
    s = f["samples"][:]
    s["row"][s["row"] == a] = b
    f["samples"][:] = s


def _reverse_samples(f):
    f["samples"][:] = f["samples"][:][::-1]


def _swap_crc(f, a, b):
    r = f["results"][:]
    r["crc32"][a], r["crc32"][b] = r["crc32"][b], r["crc32"][a]
    f["results"][:] = r


def _copy_row(f, src, dst):
    f["results"][dst] = f["results"][src]
