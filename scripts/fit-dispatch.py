#!/usr/bin/env python3
"""fit-dispatch.py -- fit the dispatch model's constants on tuning runs, and judge it.

usage: scripts/fit-dispatch.py TUNING.h5... [--mmladder bin/mmladder] [--folds 5] [--worst N]
                                [--constants | --emit-c | --plans]

Reads each run through the binary (`mmladder export --passed`), never HDF5
itself.  A candidate is one configuration of a rung a dispatch may launch (FP32:
rungs 12, 15, 16, 18, 19, 21 and 22; TF32: those and rungs 17 and 20), with K
divided by the rung's own rule (split 0), on rows that TMA and 16-byte loads
address or not (N and K multiples of 4), with K whole or cut in parts where
the rule cuts it: each of those is code of its own, and a candidate of its own.  Its time is
predicted from what its plan records at the shape (block tile BM x BN, grid,
blocks an SM at once, parts of K; two kernel launches where a second pass adds
the parts), and the SMs of the GPU the runs were made on:

  t = c . (launches, W full, W [last wave], W f, bytes of A and B read,
           bytes of C written S times, waves x 32-deep slices a block,
           waves, 1, bytes the last part of a cut tile adds)

where W is the padded work of one block (ceil(M/BM) BM ceil(N/BN) BN 2K over the
grid), full and f the whole and the fractional waves (grid over blocks at once).
Each candidate's constants c >= 0 are fitted alone, by least squares on the
relative error over the tuning shapes it ran at (Lawson and Hanson's
non-negative least squares).  The pick at a shape is the candidate of least
predicted time.  Printed: per precision, the regret (the pick's time over the
fastest candidate's) as a median and a 90th percentile (nearest rank), the
share of shapes within 10% of the fastest, and the geometric-mean % of cuBLAS at
the same precision of the pick, of the fastest candidate and of the dispatch
row the runs measured, all under k-fold cross-validation (shapes dealt to folds
in a fixed order), then with each part (each file) left out in turn; with
--worst N, the N shapes of most regret; with --constants, each candidate's
constants fitted on every shape.  With --emit-c it prints only those
constants, as kernels/dispatch_model_table.c (the C of dispatch_model[]).
With --plans it prints, for each shape and precision, each candidate measured
there with its recorded plan and the time the constants fitted on every shape
predict (tab-separated, one line each, the pick marked; first a line of the
runs' SM count): what the dispatch
rows must weigh and pick on a GPU like the runs' (tests/test_gpu.c).
"""
import argparse
import csv
import io
import math
import subprocess
import sys

FP32_RUNGS = ("gpu_async_copy", "gpu_splitk", "gpu_streamk", "gpu_gemv", "gpu_short_k", "gpu_tail_split",
              "gpu_shallow_slices")
TF32_RUNGS = FP32_RUNGS + ("tf32_splitk_tma", "tf32_persistent_tma")
# the rungs whose parts of K a second kernel adds (split_k.cuh's split_k_finish)
SECOND_PASS = ("gpu_splitk", "gpu_gemv", "tf32_splitk_tma")
SLICE = 32
NAMES = ("launches", "W full", "W [last]", "W f", "A+B bytes", "C bytes S", "waves slices", "waves",
         "1", "parts' bytes")


def add(values):
    """Summed left to right (Python 3.12's sum() compensates its rounding):
    the same constants under every Python."""
    total = 0.0
    for v in values:
        total += v
    return total


def features(shape, plan, sms):
    M, N, K = shape
    bm, bn, grid, res, S, launches = plan
    slots = max(res, 1) * sms
    padded = (-(-M // bm) * bm * -(-N // bn) * bn if bm and bn else M * N) * 2.0 * K
    W = padded / max(grid, 1)
    waves = max(grid, 1) / slots
    full = math.floor(waves)
    f = waves - full
    ab = 4.0 * (M * K * (-(-N // bn) if bn else 1) + K * N * (-(-M // bm) if bm else 1))
    return (float(launches), W * full, W * (f > 0), W * f, ab, 4.0 * M * N * S,
            math.ceil(waves) * K / S / SLICE, float(math.ceil(waves)), 1e-3,
            4.0 * S * bm * bn * (S > 1))


def solve(A, b):
    """A x = b by Gaussian elimination with partial pivoting (A small, square);
    None where A is singular."""
    n = len(A)
    m = [row[:] + [b[i]] for i, row in enumerate(A)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        if abs(m[p][c]) < 1e-12:
            return None
        m[c], m[p] = m[p], m[c]
        for r in range(c + 1, n):
            q = m[r][c] / m[c][c]
            for k in range(c, n + 1):
                m[r][k] -= q * m[c][k]
    x = [0.0] * n
    for c in range(n - 1, -1, -1):
        x[c] = (m[c][n] - add(m[c][k] * x[k] for k in range(c + 1, n))) / m[c][c]
    return x


def nnls(X, y, iters=200):
    """min |X c - y| over c >= 0 (Lawson and Hanson), X a list of rows."""
    n = len(X[0])
    G = [[add(r[i] * r[j] for r in X) for j in range(n)] for i in range(n)]
    h = [add(r[i] * yy for r, yy in zip(X, y)) for i in range(n)]
    c, P = [0.0] * n, set()
    for _ in range(iters):
        w = [h[i] - add(G[i][j] * c[j] for j in range(n)) for i in range(n)]
        free = [i for i in range(n) if i not in P and w[i] > 1e-10]
        if not free:
            break
        P.add(max(free, key=lambda i: w[i]))
        while True:
            idx = sorted(P)
            z = solve([[G[i][j] for j in idx] for i in idx], [h[i] for i in idx])
            if z is None:
                P.discard(idx[-1])
                break
            if all(v > 0 for v in z):
                c = [0.0] * n
                for i, v in zip(idx, z):
                    c[i] = v
                break
            alpha = min(c[i] / (c[i] - v) for i, v in zip(idx, z) if v <= 0)
            for i, v in zip(idx, z):
                c[i] += alpha * (v - c[i])
            P = {i for i in idx if c[i] > 1e-15}
    return c


def fit(rows):
    """Constants of one candidate from its (features, time) rows: least squares
    on the relative error, columns scaled to at most 1."""
    if len(rows) < 3:
        return None
    X = [[x / t for x in f] for f, t in rows]
    scale = [max(max(abs(r[i]) for r in X), 1e-30) for i in range(len(X[0]))]
    c = nnls([[v / s for v, s in zip(r, scale)] for r in X], [1.0] * len(X))
    return [v / s for v, s in zip(c, scale)]


def read_runs(files, mmladder):
    """shape -> {candidate: (time, plan)}, shape -> {precision: cuBLAS time,
    'dispatch ' + precision: dispatch row's time}, shape -> file, the SMs."""
    cand, ref, part, sms = {}, {}, {}, None
    for path in files:
        out = subprocess.run([mmladder, "export", path, "--passed"], capture_output=True, text=True)
        if out.returncode != 0:
            sys.exit(f"fit-dispatch.py: {path}: {out.stderr.strip()}")
        for r in csv.DictReader(io.StringIO(out.stdout), delimiter="\t"):
            s = (int(r["M"]), int(r["N"]), int(r["K"]))
            part[s] = path
            v, t = r["variant"], float(r["time_ms_median"])
            if v in ("cublas_fp32", "cublas_tf32"):
                ref.setdefault(s, {})[v[7:]] = t
            elif v in ("dispatch_fp32", "dispatch_tf32"):
                ref.setdefault(s, {})["dispatch " + v[9:]] = t
            elif v in TF32_RUNGS:
                S = max(int(r["k_splits"]), 1)
                plan = (int(r["block_rows"]), int(r["block_cols"]), int(r["grid_blocks"]),
                        int(r["blocks_per_sm"]), S, 2 if v in SECOND_PASS and S > 1 else 1)
                key = (v, int(r["tile"]), int(r["wpt"]), s[1] % 4 == 0 and s[2] % 4 == 0, S > 1)
                cand.setdefault(s, {})[key] = (t, plan)
        n = device_sms(path, mmladder)
        if sms is not None and n != sms:
            sys.exit(f"fit-dispatch.py: {path}: a GPU of {n} SMs, the runs before it {sms}: one GPU's runs")
        sms = n
    return cand, ref, part, sms


def device_sms(path, mmladder):
    """The SM count of the GPU a run was made on (its root attribute gpu_sm_count)."""
    out = subprocess.run([mmladder, "export", path, "--attrs"], capture_output=True, text=True)
    for line in out.stdout.splitlines():
        name, _, value = line.partition("\t")
        if name == "gpu_sm_count" and value.isdigit() and int(value) > 0:
            return int(value)
    sys.exit(f"fit-dispatch.py: {path}: no gpu_sm_count attribute (a run on a GPU has one)")


def fit_models(cand, sms, rungs, train):
    """Each candidate of these rungs fitted on the training shapes: candidate ->
    constants (None where it ran at fewer than three)."""
    rows = {}
    for s in train:
        for c, (t, plan) in cand[s].items():
            if c[0] in rungs:
                rows.setdefault(c, []).append((features(s, plan, sms), t))
    return {c: fit(r) for c, r in sorted(rows.items())}


def predict(model, shape, plans, sms):
    """Each candidate's predicted time at the shape from its plan, and the pick:
    the least (the first of equals in candidate order, as the C table's)."""
    pred = {c: add(a * b for a, b in zip(model[c], features(shape, p, sms))) for c, p in plans.items()}
    return pred, min(sorted(pred), key=lambda c: pred[c])


def judge(cand, ref, sms, prec, train, test):
    """The picks at the test shapes of the model fitted on the training ones."""
    rungs = FP32_RUNGS if prec == "fp32" else TF32_RUNGS
    model = fit_models(cand, sms, rungs, train)
    out = []
    for s in test:
        avail = {c: v for c, v in cand[s].items() if c[0] in rungs and model.get(c)}
        if not avail or prec not in ref.get(s, {}):
            continue
        pred, pick = predict(model, s, {c: v[1] for c, v in avail.items()}, sms)
        best = min(v[0] for v in avail.values())
        out.append((s, avail[pick][0] / best, ref[s][prec] / avail[pick][0], ref[s][prec] / best,
                    ref[s][prec] / ref[s]["dispatch " + prec] if "dispatch " + prec in ref[s] else float("nan"),
                    pick))
    return out


def summary(label, out):
    reg = sorted(o[1] for o in out)
    n = len(reg)
    gm = lambda xs: 100 * math.exp(add(math.log(x) for x in xs) / len(xs))
    disp = [o[4] for o in out if o[4] == o[4]]
    print(f"{label}: {n} shapes, regret median {reg[(n - 1) // 2]:.3f}, p90 {reg[math.ceil(0.9 * n) - 1]:.3f}, "
          f"within 10% {100 * sum(r <= 1.1 for r in reg) / n:.1f}%; % of cuBLAS (geometric mean) "
          f"pick {gm([o[2] for o in out]):.1f} (lowest {100 * min(o[2] for o in out):.1f}), "
          f"fastest {gm([o[3] for o in out]):.1f}, measured dispatch row "
          f"{gm(disp) if disp else float('nan'):.1f}")


def emit_c(model, files):
    """The fitted constants as the C table of kernels/dispatch_model_table.c."""
    print("/* The dispatch model's constants: generated by scripts/fit-dispatch.py --emit-c")
    print(" * from " + ",\n *      ".join(f.split("/")[-1] for f in files) + ";")
    print(" * a test holds this file to what it fits from the shipped runs.  Each")
    print(" * candidate's terms in the order of dispatch_model_features (kernels/dispatch.h). */")
    print('#include "dispatch.h"')
    print()
    print("const struct dispatch_candidate dispatch_model[] = {")
    for c, k in model.items():
        if not k:
            continue
        print(f'    {{"{c[0]}", {c[1]}, {c[2]}, {int(c[3])}, {int(c[4])}, {int(c[0] not in FP32_RUNGS)}, '
              f'{int(c[0] in SECOND_PASS)},')
        vals = [f"{v:.17g}" for v in k]
        print("     {" + ",\n      ".join(", ".join(vals[i:i + 4]) for i in range(0, len(vals), 4)) + "}},")
    print("};")
    print("const int dispatch_model_count = (int)(sizeof dispatch_model / sizeof dispatch_model[0]);")


def print_plans(cand, model, shapes, sms):
    """Per shape and precision, each candidate with its plan and predicted time."""
    print(f"# gpu_sm_count {sms}")
    print("M\tN\tK\tprecision\trung\ttile\twpt\tblock_rows\tblock_cols\tgrid_blocks\t"
          "blocks_per_sm\tk_splits\tlaunches\tpredicted_ms\tpick")
    for s in shapes:
        for prec, rungs in (("fp32", FP32_RUNGS), ("tf32", TF32_RUNGS)):
            avail = {c: v[1] for c, v in cand[s].items() if c[0] in rungs and model.get(c)}
            if not avail:
                continue
            pred, pick = predict(model, s, avail, sms)
            for c in sorted(pred):
                print("\t".join(str(v) for v in (*s, prec, c[0], c[1], c[2], *avail[c])) +
                      f"\t{pred[c]:.17g}\t{int(c == pick)}")


def main():
    ap = argparse.ArgumentParser(description="fit and judge the dispatch model on tuning runs")
    ap.add_argument("files", nargs="+")
    ap.add_argument("--mmladder", default="bin/mmladder")
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--worst", type=int, default=0)
    ap.add_argument("--constants", action="store_true")
    ap.add_argument("--emit-c", action="store_true")
    ap.add_argument("--plans", action="store_true")
    a = ap.parse_args()
    if a.folds < 2:
        sys.exit(f"fit-dispatch.py: --folds {a.folds}: expected 2 or more")
    cand, ref, part, sms = read_runs(a.files, a.mmladder)
    shapes = sorted(cand)
    if a.emit_c:
        emit_c(fit_models(cand, sms, TF32_RUNGS, shapes), a.files)
        return
    if a.plans:
        print_plans(cand, fit_models(cand, sms, TF32_RUNGS, shapes), shapes, sms)
        return
    for prec in ("fp32", "tf32"):
        cv = []
        for k in range(a.folds):
            test = shapes[k::a.folds]
            held = set(test)
            cv += judge(cand, ref, sms, prec, [s for s in shapes if s not in held], test)
        summary(f"{prec}, {a.folds}-fold", cv)
        for o in sorted(cv, key=lambda o: -o[1])[:a.worst]:
            print(f"    {o[0][0]}x{o[0][1]}x{o[0][2]}: regret {o[1]:.2f}, pick {o[5][0]} {o[5][1]}/{o[5][2]}")
        for path in a.files:
            test = [s for s in shapes if part[s] == path]
            left = judge(cand, ref, sms, prec, [s for s in shapes if part[s] != path], test)
            if left:
                summary(f"    {prec}, without {path.split('/')[-1]}", left)
        if a.constants:
            model = fit_models(cand, sms, FP32_RUNGS if prec == "fp32" else TF32_RUNGS, shapes)
            print(f"{prec} constants, fitted on all {len(shapes)} shapes: " + "; ".join(NAMES))
            for c, k in model.items():
                if k:
                    print(f"    {c[0]} {c[1]}/{c[2]} {'aligned' if c[3] else 'unaligned'}, "
                          f"{'K cut' if c[4] else 'K whole'}: "
                          + " ".join(f"{v:.4g}" for v in k))


if __name__ == "__main__":
    main()
