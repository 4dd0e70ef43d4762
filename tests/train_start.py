#!/usr/bin/env python3
"""train_start.py: the random start of `train` reproduced from --seed by
doc/training.md's table and draw order alone (issue 33).

For each recipe, `train --epochs=0` writes the starting weights; this
script draws them again with its own SplitMix64 in the order the doc
gives (the sections in the model file's order: the vocabularies, the
RNNs, the scorers in registry order, local-p, the output; each row-major,
a number only where the start is drawn) and the ranges of the doc's
table, and the two must be the same doubles.

Usage: train_start.py ATTN_TRACE SRCDIR
"""
import math
import os
import subprocess
import sys
import tempfile

PROG, SRC = sys.argv[1], sys.argv[2]
PAIRS = os.path.join(SRC, "data", "toy.pairs")
M64 = (1 << 64) - 1


class SplitMix64:
    def __init__(self, seed):
        self.s = seed & M64

    def next(self):
        self.s = (self.s + 0x9E3779B97F4A7C15) & M64
        z = self.s
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
        return z ^ (z >> 31)

    def uniform(self, r):
        u = (self.next() >> 11) * 2.0 ** -53
        return -r + (r - -r) * u


def sections(path):
    """[(name, rows)], each row a list of floats (a word's row without
    its word), in file order."""
    out, cur = [], None
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            if line.startswith("["):
                cur = (line[1:-1], [])
                out.append(cur)
            elif cur is not None:
                fields = line.split()
                try:
                    cur[1].append([float(x) for x in fields])
                except ValueError:  # a word, then its numbers
                    cur[1].append([float(x) for x in fields[1:]])
    return out


ZERO = {"encoder.W_h", "forward.W_h", "backward.W_h", "encoder.b",
        "decoder.b", "forward.b", "backward.b"}
IDENTITY = {"decoder.W_h", "decoder.W_s"}  # Luong's W_h, Bahdanau's U


def replay(secs, seed, H):
    """The start the doc's table gives, drawn in the doc's order."""
    rng = SplitMix64(seed)
    want = []
    for name, rows in secs:
        cols = len(rows[0])
        if name in ("source", "target"):
            m = [[rng.uniform(1.0) for _ in range(cols)] for _ in rows]
        elif name in ZERO:
            m = [[0.0] * cols for _ in rows]
        elif name in IDENTITY:
            m = [[1.0 if i == j else 0.0 for j in range(cols)]
                 for i in range(len(rows))]
        elif name == "output.W_c":  # the c_t half drawn, the s_t half 0
            r = 1.0 / math.sqrt(2 * H)
            m = [[rng.uniform(r) if j < H else 0.0 for j in range(cols)]
                 for _ in rows]
        else:  # W_x, W_init, W_y, C, every scorer's, W_p, v_p, W_s, W_o
            r = 1.0 / math.sqrt(cols)
            m = [[rng.uniform(r) for _ in range(cols)] for _ in rows]
        want.append((name, m))
    return want


RECIPES = [
    (["--scorer=all", "--seed=7"], 7, 4, [
        "source", "target", "encoder.W_x", "encoder.W_h", "encoder.b",
        "decoder.W_x", "decoder.W_h", "decoder.b", "general.W", "concat.W",
        "concat.v", "location.W", "additive.W", "additive.U", "additive.v",
        "location-aware.W", "location-aware.V", "location-aware.U",
        "location-aware.b", "location-aware.w", "location-aware.F",
        "output.W_c", "output.W_s"]),
    (["--scorer=location-aware,dot", "--hidden=3", "--attention=2",
      "--embedding=5"], 1, 3, None),
    (["--scorer=all", "--arch=bahdanau", "--seed=3"], 3, 4, [
        "source", "target", "forward.W_x", "forward.W_h", "forward.b",
        "backward.W_x", "backward.W_h", "backward.b", "decoder.W_init",
        "decoder.W_y", "decoder.W_s", "decoder.W_c", "decoder.b",
        "general.W", "concat.W", "concat.v", "location.W", "additive.W",
        "additive.U", "additive.v", "location-aware.W", "location-aware.V",
        "location-aware.U", "location-aware.b", "location-aware.w",
        "location-aware.F", "output.W_o"]),
    (["--scorer=concat", "--window=local-p", "--seed=18446744073709551615"],
     (1 << 64) - 1, 4, [
        "source", "target", "encoder.W_x", "encoder.W_h", "encoder.b",
        "decoder.W_x", "decoder.W_h", "decoder.b", "concat.W", "concat.v",
        "local-p.W_p", "local-p.v_p", "output.W_c", "output.W_s"]),
    (["--scorer=general", "--input-feeding", "--seed=5"], 5, 4, None),
]

tmp = tempfile.mkdtemp()
out = os.path.join(tmp, "start.model")
for args, seed, H, order in RECIPES:
    subprocess.run([PROG, "train", "--pairs=" + PAIRS, "--epochs=0",
                    "--quiet", "-o", out] + args, check=True)
    got = sections(out)
    what = "train " + " ".join(args)
    if order is not None and [n for n, _ in got] != order:
        sys.exit("%s: sections %s, the doc's order %s"
                 % (what, [n for n, _ in got], order))
    for (name, rows), (_, want) in zip(got, replay(got, seed, H)):
        if rows != want:
            sys.exit("%s: [%s] is not the doc's start" % (what, name))
    print("ok - %s: %d sections drawn as the doc says"
          % (what, len(got)))
os.remove(out)
os.rmdir(tmp)
