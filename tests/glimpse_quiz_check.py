#!/usr/bin/env python3
"""glimpse_quiz_check.py: the glimpse quiz (attn-trace quiz --model=
glimpse6 IMAGE.pgm) against values worked out here.

Usage: glimpse_quiz_check.py BINARY IMAGE.pgm [IMAGE.pgm ...]

For each image and several seeds, `quiz --answers --count=21` asks three
questions of each of the seven kinds.  Each answer is recomputed here
from the model's weights (glimpse --format=model), the image read by a
reader of our own (caption_torch_check.read_pgm) and the JSON trace of
the same seed (glimpse --format=json, which glimpse_torch_check.py checks
against PyTorch): l-hat = tanh(W_l h + b_l) from h_{t-1}, l = l-hat +
sigma eps, a periphery block's mean from the pixels, phi = tanh(W_g x +
b_g), h = tanh(W_h h + W_x phi + b_h), softmax(z), (l - l-hat)/sigma^2
(= eps/sigma, the form the question offers to work by hand).
Every vector the prompt shows must be the one it names, rounded, and the
answer recomputed from the prompt's rounded numbers must be within the
quiz's own tolerance (so the question can be answered by hand).  Exit 0,
or 1 with the first difference.
"""

import json
import math
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from caption_torch_check import read_pgm  # noqa: E402

SEEDS = (1, 3, 29)


class Bad(Exception):
    pass


def run(binary, *args):
    out = subprocess.run([binary] + list(args), check=True,
                         stdout=subprocess.PIPE,
                         env=dict(os.environ, LC_ALL="C.UTF-8")).stdout
    return out.decode("utf-8")


def dot(a, b):
    return sum(x * y for x, y in zip(a, b))


def questions(text):
    """[(kind, t, symbol, answer, prompt lines)] of --answers output, the
    wrapped lines (4 spaces in) joined to the line they continue."""
    lines = []
    for line in text.splitlines():
        if line.startswith("    ") and lines:
            lines[-1] += " " + line.strip()
        else:
            lines.append(line)
    out, cur = [], None
    for line in lines:
        m = re.match(r"question \d+ of \d+: (\w+) (?:at|after) glimpse "
                     r"(\d+)$", line)
        if m:
            cur = [m.group(1), int(m.group(2)), None, None, []]
            out.append(cur)
            continue
        m = re.match(r"\(answer: (.*) = (-?\d+\.\d+)\)$", line)
        if m and cur:
            cur[2], cur[3] = m.group(1), float(m.group(2))
        elif cur and cur[3] is None:
            cur[4].append(line)
    return out


def shown(prompt, label):
    """The numbers of the prompt line "  LABEL  (n)  [a, b]" or
    "  LABEL = a"."""
    for line in prompt:
        m = re.match(r"  (\S.*?)\s+\(\d+\)\s+\[(.*)\]$", line)
        if m and m.group(1) == label:
            return [float(v) for v in m.group(2).split(",")]
        m = re.match(r"  (\S+) = (-?\d+\.\d+)$", line)
        if m and m.group(1) == label:
            return [float(m.group(2))]
    raise Bad("the prompt shows no %s: %s" % (label, prompt))


def near_rounded(got, want, what):
    for g, w in zip(got, want):
        if abs(g - round(w, 4)) > 0.51e-4:
            raise Bad("%s: the prompt shows %r, expected %r rounded"
                      % (what, got, want))
    if len(got) != len(want):
        raise Bad("%s: %d numbers shown, %d expected" % (what, len(got),
                                                         len(want)))


def softmax(z):
    mx = max(z)
    e = [math.exp(v - mx) for v in z]
    return [v / sum(e) for v in e]


def block(pix, hgt, wid, row, col, k):
    b = k - 5
    r0, c0 = row - 2 + 2 * (b // 2), col - 2 + 2 * (b % 2)
    vals = []
    for r in (r0, r0 + 1):
        for c in (c0, c0 + 1):
            inside = 0 <= r < hgt and 0 <= c < wid
            vals.append(pix[r * wid + c] if inside else 0.0)
    return vals


def solve(kind, t, k, m, tr, img, prompt):
    """(the answer from the full-precision numbers, the answer from the
    prompt's rounded ones), each after checking what the prompt shows."""
    st = tr["steps"][t - 1]
    hgt, wid, pix = img[0], img[1], img[2]
    W = m
    if kind == "place":
        near_rounded(shown(prompt, "h_%d" % (t - 1)), st["h_prev"], "h")
        near_rounded(shown(prompt, "W_l[%d]" % k), W["W_l"][k - 1], "W_l")
        exact = math.tanh(dot(W["W_l"][k - 1], st["h_prev"]) +
                          W["b_l"][k - 1])
        rnd = math.tanh(dot(shown(prompt, "W_l[%d]" % k),
                            shown(prompt, "h_%d" % (t - 1))) +
                        shown(prompt, "b_l[%d]" % k)[0])
    elif kind == "draw":
        near_rounded(shown(prompt, "ε_%d" % t), st["eps"], "eps")
        exact = st["l_hat"][k - 1] + W["sigma"] * st["eps"][k - 1]
        rnd = (shown(prompt, "l̂_%d" % t)[k - 1] +
               shown(prompt, "σ")[0] * shown(prompt, "ε_%d" % t)[k - 1])
    elif kind == "retina":
        vals = block(pix, hgt, wid, st["corner"][0], st["corner"][1], k)
        got = [float(x) for line in prompt for x in
               re.findall(r"^  row \d+, column \d+: (-?\d+\.\d+)", line)]
        near_rounded(got, vals, "the block's pixels")
        exact, rnd = sum(vals) / 4, sum(got) / 4
    elif kind == "glimpse":
        x = st["x"]
        near_rounded(shown(prompt, "[ρ_%d; l_%d]" % (t, t)), x, "x")
        exact = math.tanh(dot(W["W_g"][k - 1], x) + W["b_g"][k - 1])
        rnd = math.tanh(dot(shown(prompt, "W_g[%d]" % k),
                            shown(prompt, "[ρ_%d; l_%d]" % (t, t))) +
                        shown(prompt, "b_g[%d]" % k)[0])
    elif kind == "core":
        near_rounded(shown(prompt, "φ_%d" % t), st["g"], "phi")
        exact = math.tanh(dot(W["W_h"][k - 1], st["h_prev"]) +
                          dot(W["W_x"][k - 1], st["g"]) + W["b_h"][k - 1])
        rnd = math.tanh(dot(shown(prompt, "W_h[%d]" % k),
                            shown(prompt, "h_%d" % (t - 1))) +
                        dot(shown(prompt, "W_x[%d]" % k),
                            shown(prompt, "φ_%d" % t)) +
                        shown(prompt, "b_h[%d]" % k)[0])
    elif kind == "class":
        near_rounded(shown(prompt, "z"), tr["z"], "z")
        exact = softmax(tr["z"])[k - 1]
        rnd = softmax(shown(prompt, "z"))[k - 1]
    else:  # reinforce
        exact = (st["l"][k - 1] - st["l_hat"][k - 1]) / W["sigma"] ** 2
        near_rounded(shown(prompt, "l_%d" % t), st["l"], "l")
        near_rounded(shown(prompt, "ε_%d" % t), st["eps"], "eps")
        # (l - l-hat)/sigma^2 from 4 decimals can be 1e-3 off: the
        # question offers eps/sigma, the same number, to work it from
        rnd = shown(prompt, "ε_%d" % t)[k - 1] / shown(prompt, "σ")[0]
    return exact, rnd


def index_of(kind, symbol, classes):
    if kind == "class":
        return classes.index(re.match(r"ŷ\[(.*)\]$", symbol).group(1)) + 1
    return int(re.search(r"\[(\d+)\]$", symbol).group(1))


def main(argv):
    binary, images = argv[0], argv[1:]
    m = json.loads(run(binary, "glimpse", "--format=model"))
    n = 0
    kinds = set()
    for path in images:
        img = read_pgm(path)
        for seed in SEEDS:
            tr = json.loads(run(binary, "glimpse", "--format=json",
                                "--seed=%d" % seed, path))
            text = run(binary, "quiz", "--model=glimpse6", "--answers",
                       "--count=21", "--seed=%d" % seed, path)
            if ("attn-trace glimpse --model=glimpse6 --seed=%d %s"
                    % (seed, path)) not in " ".join(text.split()):
                raise Bad("the header does not say how to trace it")
            qs = questions(text)
            if len(qs) != 21:
                raise Bad("%s seed %d: %d questions" % (path, seed, len(qs)))
            for kind, t, sym, ans, prompt in qs:
                k = index_of(kind, sym, m["classes"])
                exact, rnd = solve(kind, t, k, m, tr, img, prompt)
                tol = 0.0005 * (1 + abs(exact))
                if abs(ans - round(exact, 4)) > 0.51e-4:
                    raise Bad("%s seed %d %s: answer %r, worked out %r"
                              % (path, seed, sym, ans, exact))
                if abs(rnd - exact) > tol:
                    raise Bad("%s seed %d %s: from the numbers shown %r, "
                              "not within %g of %r" % (path, seed, sym,
                                                       rnd, tol, exact))
                kinds.add(kind)
                n += 1
    if len(kinds) != 7:
        raise Bad("asked only %s" % sorted(kinds))
    print("ok - %d glimpse quiz answers agree with values worked out here,"
          " each answerable from the numbers shown" % n)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except Bad as e:
        print("not ok - %s" % e)
        sys.exit(1)
