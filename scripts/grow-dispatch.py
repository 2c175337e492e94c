#!/usr/bin/env python3
"""grow-dispatch.py -- grow the dispatch rule (kernels/gpu/22_dispatch.cu) from tuning runs.

usage: scripts/grow-dispatch.py TUNING.h5... [--mmladder bin/mmladder] [--folds 5]

Reads each run through the binary (`mmladder export --passed`), never HDF5
itself.  For each shape and each dispatch row (FP32: the FP32 rungs a dispatch
may launch; TF32: those and rung 17) it takes every configuration's median time
with K divided by the rung's own rule (split 0), and grows a decision tree:

  - a leaf picks the one configuration whose summed log(time / fastest time)
    over its shapes is least (one unmeasured at a shape of the leaf cannot be
    picked there);
  - a node splits one feature at the threshold that most lowers that sum over
    its two children; where no such split gains, it looks one level ahead: the
    split (at LOOK_CUTS quantiles of each feature) whose two children, each
    split once more or not, lower it most (a gain that needs two features at
    once); a split is kept when it lowers the sum by at least MIN_GAIN and
    leaves MIN_LEAF shapes a side; at most DEPTH levels;
  - each threshold is then the roundest number in the gap between the tuning
    shapes on either side.

Features: 2MNK, M, N, K, min(M, N), MN, the 128 x 128 tiles of C over the SMs,
and whether N and K are multiples of 4.  It prints, per row, the tree as the C
of dispatch_rule, then the fastest configuration's and the tree's geometric-mean
% of cuBLAS at the same precision over the tuning shapes, and the tree's under
k-fold cross-validation (shapes dealt to folds in a fixed order).  A GEMV-like or
short-K configuration, which refuses the shapes it is not for, is picked under
its own guard, with the leaf's best configuration that fits every shape after
it."""
import argparse
import math
import subprocess
import sys

FP32_RUNGS = ("gpu_async_copy", "gpu_splitk", "gpu_streamk", "gpu_gemv", "gpu_short_k")
TF32_RUNGS = FP32_RUNGS + ("tf32_splitk_tma",)
# the shapes a configuration is for (the registry's limits; checked against the skips)
GUARDS = {("gpu_gemv", 256, 8): ("M <= 8", lambda M, N, K: M <= 8),
          ("gpu_gemv", 32, 8): ("N <= 8", lambda M, N, K: N <= 8),
          ("gpu_short_k", 64, 0): ("K <= 64", lambda M, N, K: K <= 64)}
SMS = 132
FEATURES = ("flops", "M", "N", "K", "min(M, N)", "MN", "tiles / sms", "aligned")
DEPTH, MIN_LEAF, MIN_GAIN = 9, 4, 0.5
LOOK_CUTS = 16


def add(values):
    """Their sum, added left to right.  Python 3.12's sum() compensates its
    rounding, and some of the tree's splits are near-ties that the last bits
    decide: this keeps the tree the same under every Python."""
    total = 0.0
    for v in values:
        total += v
    return total


def features(M, N, K):
    tiles = ((M + 127) // 128) * ((N + 127) // 128)
    return (2.0 * M * N * K, M, N, K, min(M, N), float(M) * N, tiles / SMS,
            int(N % 4 == 0 and K % 4 == 0))


def read(path, mmladder):
    out = subprocess.run([mmladder, "export", "--passed", path], check=True, capture_output=True,
                         text=True).stdout.splitlines()
    head = out[0].split("\t")
    col = {name: i for i, name in enumerate(head)}
    for line in out[1:]:
        f = line.split("\t")
        yield (f[col["variant"]], f[col["precision"]], int(f[col["M"]]), int(f[col["N"]]),
               int(f[col["K"]]), int(f[col["tile"]]), int(f[col["wpt"]]), int(f[col["split"]]),
               float(f[col["time_ms_median"]]))


def load(paths, mmladder):
    """{tf32: {shape: {config: ms}}}, {tf32: {shape: cuBLAS ms}}"""
    times = {0: {}, 1: {}}
    ref = {0: {}, 1: {}}
    for path in paths:
        for variant, prec, M, N, K, tile, wpt, split, ms in read(path, mmladder):
            shape = (M, N, K)
            if variant in ("cublas_fp32", "cublas_tf32"):
                ref[int(variant == "cublas_tf32")][shape] = ms
                continue
            if split != 0:
                continue
            for tf32, rungs in ((0, FP32_RUNGS), (1, TF32_RUNGS)):
                if variant in rungs:
                    times[tf32].setdefault(shape, {})[(variant, tile, wpt)] = ms
    for tf32 in (0, 1):   # the guards say what the runs skipped, no more and no less
        for shape, t in times[tf32].items():
            for cfg, (_, fits) in GUARDS.items():
                if (cfg in t) != fits(*shape) and any(c[0] == cfg[0] for c in t):
                    sys.exit(f"grow-dispatch: {cfg} at {shape}: measured {cfg in t}, its guard "
                             f"says {fits(*shape)}")
    return times, ref


def leaf(shapes, times, configs, need_all=False):
    """(cost, config): the configuration least in summed log(time / fastest)."""
    best = (math.inf, None)
    for c in configs:
        if need_all and c in GUARDS:
            continue
        cost = 0.0
        for s in shapes:
            t = times[s]
            if c not in t:
                cost = math.inf
                break
            cost += math.log(t[c] / min(t.values()))
        if cost < best[0]:
            best = (cost, c)
    return best


def roundest(lo, hi):
    """The number with fewest significant digits in (lo, hi], nearest their middle."""
    mid = math.sqrt(lo * hi) if lo > 0 else hi / 2
    for digits in range(1, 8):
        e = math.floor(math.log10(hi)) - digits + 1
        step = 10.0 ** e
        cand = [round(k * step, max(0, -e))
                for k in range(math.floor(lo / step) + 1, math.floor(hi / step) + 1)]
        if cand:
            v = min(cand, key=lambda x: abs(math.log(x / mid)) if mid > 0 else x)
            return int(v) if v == int(v) and abs(v) < 1e15 else v
    return hi


def best_split(shapes, times, configs):
    """(left + right cost, feature, lo, hi): the one split that most lowers the
    summed cost, each side at least MIN_LEAF shapes; None if there is none."""
    # per shape and configuration, log(time / fastest), or None where unmeasured
    logs = [[math.log(times[s][c] / min(times[s].values())) if c in times[s] else None
             for c in configs] for s in shapes]
    best = None
    for fi in range(len(FEATURES)):
        order = sorted(range(len(shapes)), key=lambda i: features(*shapes[i])[fi])
        total = [add(logs[i][j] or 0.0 for i in order) for j in range(len(configs))]
        gaps = [sum(logs[i][j] is None for i in order) for j in range(len(configs))]
        run, miss = [0.0] * len(configs), [0] * len(configs)
        for n, i in enumerate(order[:-1]):
            for j, v in enumerate(logs[i]):
                if v is None:
                    miss[j] += 1
                else:
                    run[j] += v
            lo, hi = features(*shapes[i])[fi], features(*shapes[order[n + 1]])[fi]
            if lo == hi or n + 1 < MIN_LEAF or len(shapes) - n - 1 < MIN_LEAF:
                continue
            left = min(run[j] for j in range(len(configs)) if not miss[j]) \
                if any(not m for m in miss) else math.inf
            right = min((total[j] - run[j] for j in range(len(configs)) if gaps[j] == miss[j]),
                        default=math.inf)
            if best is None or left + right < best[0]:
                best = (left + right, fi, lo, hi)
    return best


def look_ahead(shapes, times, configs):
    """The split whose two sides, each split once more (or not), cost least: for
    a gain that needs two features at once (no split of one alone gains, as
    outputs of 33-64 columns, where the best tile turns on the product's size).
    Each feature is cut at LOOK_CUTS quantiles of the shapes' values."""
    best = None
    for fi in range(len(FEATURES)):
        values = sorted(features(*s)[fi] for s in shapes)
        cuts = sorted({values[len(values) * q // LOOK_CUTS] for q in range(1, LOOK_CUTS)})
        for cut in cuts:
            left = [s for s in shapes if features(*s)[fi] < cut]
            right = [s for s in shapes if features(*s)[fi] >= cut]
            if len(left) < MIN_LEAF or len(right) < MIN_LEAF:
                continue
            cost = 0.0
            for side in (left, right):
                alone = leaf(side, times, configs)[0]
                once = best_split(side, times, configs) if len(side) >= 2 * MIN_LEAF else None
                cost += min(alone, once[0]) if once else alone
            if best is None or cost < best[0]:
                lo = max(features(*s)[fi] for s in left)
                best = (cost, fi, lo, cut)
    return best


def grow(shapes, times, configs, depth):
    cost, cfg = leaf(shapes, times, configs)
    node = {"cost": cost, "config": cfg, "shapes": shapes}
    if depth == 0 or len(shapes) < 2 * MIN_LEAF:
        return node
    best = best_split(shapes, times, configs)
    if depth >= 2 and (best is None or not cost - best[0] >= MIN_GAIN):
        best = look_ahead(shapes, times, configs)
    if best is None or not cost - best[0] >= MIN_GAIN:
        return node
    _, fi, lo, hi = best
    left = [s for s in shapes if features(*s)[fi] <= lo]
    right = [s for s in shapes if features(*s)[fi] >= hi]
    node.update(feature=fi, threshold=roundest(lo, hi) if FEATURES[fi] != "aligned" else 1,
                left=grow(left, times, configs, depth - 1),
                right=grow(right, times, configs, depth - 1))
    return node


def pick(node, shape):
    while "feature" in node:
        v = features(*shape)[node["feature"]]
        node = node["left"] if v < node["threshold"] else node["right"]
    return node


def choose(node, shape, times):
    """What the emitted rule launches at shape: the leaf's configuration under its guard."""
    n = pick(node, shape)
    c = n["config"]
    if c in GUARDS and not GUARDS[c][1](*shape):
        c = n["fallback"]
    return c


def finish(node, times, configs):
    """Give each leaf whose pick has a guard the best configuration that fits all."""
    if "feature" in node:
        finish(node["left"], times, configs)
        finish(node["right"], times, configs)
    else:
        node["fallback"] = leaf(node["shapes"], times, configs, need_all=True)[1]


def emit(node, indent, upper=None):
    """The tree as C: nested ifs; upper holds the bounds on M, N and K that the
    conditions above imply (so that a guard they imply is left out)."""
    upper = upper or {}
    pad = " " * indent

    def call(c):
        if c == ("gpu_splitk", 16, 32):   # where the GPU gives a block its shared memory
            return 'PICK("gpu_splitk", narrow, narrow == 16 ? 32 : 64);'
        return f'PICK("{c[0]}", {c[1]}, {c[2]});'

    if "feature" not in node:
        c, note = node["config"], f'   /* {len(node["shapes"])} shapes */'
        if c in GUARDS:
            var, bound = GUARDS[c][0].split(" <= ")
            if upper.get(var, math.inf) > int(bound):
                return [f"{pad}if ({GUARDS[c][0]}) {call(c)}{note}", pad + call(node["fallback"])]
        return [pad + call(c) + note]
    name = FEATURES[node["feature"]]
    expr = {"min(M, N)": "(M < N ? M : N)"}.get(name, name)
    cond = "!aligned" if name == "aligned" else f"{expr} < {node['threshold']}"
    below = dict(upper)
    if name in ("M", "N", "K"):
        below[name] = min(upper.get(name, math.inf), math.ceil(node["threshold"]) - 1)
    inner = emit(node["left"], indent + 4, below)
    rest = emit(node["right"], indent, upper)
    code = lambda line: line.split("   /*")[0].strip()
    if len(inner) == 2 and code(inner[1]) == code(rest[0]) and inner[0].lstrip().startswith("if ("):
        # if (a) { if (b) X; Y } Y  ->  if (a && b) X; Y
        inner_cond, pick_x = code(inner[0])[4:].split(") PICK", 1)
        note = inner[0][len(inner[0].split("   /*")[0]):]
        count = lambda line: int(line.split("/* ")[1].split(" ")[0]) if "/* " in line else 0
        rest[0] = f"{rest[0].split('   /*')[0]}   /* {count(inner[1]) + count(rest[0])} shapes */"
        # a guard on the same variable that is tighter says it all (M < 10 && M <= 8)
        var, _, bound = inner_cond.partition(" <= ")
        if name == var and bound.isdigit() and int(bound) < node["threshold"]:
            return [f"{pad}if ({inner_cond}) PICK{pick_x}{note}"] + rest
        return [f"{pad}if ({cond} && {inner_cond}) PICK{pick_x}{note}"] + rest
    if len(inner) == 1:
        lines = [f"{pad}if ({cond}) {inner[0].strip()}"]
    else:
        lines = [f"{pad}if ({cond}) {{"] + inner + [f"{pad}}}"]
    return lines + rest


def pct(shapes, times, ref, choice):
    logs = [math.log(ref[s] / times[s][choice(s)]) for s in shapes]
    return 100 * math.exp(add(logs) / len(logs))


def main():
    global DEPTH, MIN_LEAF, MIN_GAIN
    ap = argparse.ArgumentParser()
    ap.add_argument("runs", nargs="+")
    ap.add_argument("--mmladder", default="bin/mmladder")
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--depth", type=int, default=DEPTH)
    ap.add_argument("--min-leaf", type=int, default=MIN_LEAF)
    ap.add_argument("--min-gain", type=float, default=MIN_GAIN)
    a = ap.parse_args()
    DEPTH, MIN_LEAF, MIN_GAIN = a.depth, a.min_leaf, a.min_gain
    times, ref = load(a.runs, a.mmladder)
    for tf32 in (0, 1):
        t = times[tf32]
        shapes = sorted(s for s in t if s in ref[tf32])
        configs = sorted({c for s in shapes for c in t[s]})
        tree = grow(shapes, t, configs, DEPTH)
        finish(tree, t, configs)
        print(f"/* {'TF32' if tf32 else 'FP32'}: {len(shapes)} shapes, {len(configs)} configurations */")
        print("\n".join(emit(tree, 4)))
        fastest = pct(shapes, t, ref[tf32], lambda s: min(t[s], key=t[s].get))
        fitted = pct(shapes, t, ref[tf32], lambda s: choose(tree, s, t))
        held = []
        for k in range(a.folds):
            train = [s for i, s in enumerate(shapes) if i % a.folds != k]
            test = [s for i, s in enumerate(shapes) if i % a.folds == k]
            sub = grow(train, t, configs, DEPTH)
            finish(sub, t, configs)
            held += [math.log(ref[tf32][s] / t[s][choose(sub, s, t)]) for s in test]
        cv = 100 * math.exp(add(held) / len(held))
        print(f"/* % of cuBLAS {'TF32' if tf32 else 'FP32'} (geometric mean): fastest configuration "
              f"{fastest:.1f}, this tree {fitted:.1f}, {a.folds}-fold cross-validated {cv:.1f} */\n")


if __name__ == "__main__":
    main()
