#!/usr/bin/python3
"""torch_calc.py: attn-trace calc's JSON against PyTorch.

    torch_calc.py ATTN_TRACE

For every scorer of the registry (attn-trace scorers) and random sizes
(d and d_v from 1 to 16, n from 1 to 12, from a fixed seed), calc is run
with a random query, keys and values on the command line, and every number
of its JSON is recomputed in float64 torch from the query, keys, values and
the weights the JSON reports: each score and its scorer's intermediates,
the terms of each score (their products sum to e, divided by the divisor),
the softmax's max, shifted scores, exps, sum and weights (torch.softmax),
each weighted value and the output.  Every file case also checks that the
same seed draws the same weights and that the weights the JSON reports,
given back in a file, give the same trace.  Numbers must agree within
1e-12 absolute plus 1e-12 relative.  Exit 0, or 1 with the first
disagreement.
"""
import json
import math
import os
import random
import subprocess
import sys
import tempfile

import torch

torch.set_default_dtype(torch.float64)
TOL = 1e-12
CASES_PER_SCORER = 6


class Mismatch(Exception):
    pass


def close(a, b):
    return abs(a - b) <= TOL + TOL * abs(b)


def expect(got, want, path):
    want = torch.as_tensor(want, dtype=torch.float64)
    got = torch.as_tensor(got, dtype=torch.float64)
    if got.shape != want.shape:
        raise Mismatch("%s: shape %s, torch %s" % (path, tuple(got.shape),
                                                    tuple(want.shape)))
    for g, w in zip(got.flatten().tolist(), want.flatten().tolist()):
        if not close(g, w):
            raise Mismatch("%s: %r, torch %r" % (path, g, w))


def scores(scorer, w, q, K):
    """e (n) and the scorer's intermediates by their JSON keys (n rows),
    from the formulas of doc/model.md, not from attn-trace."""
    n, d = K.shape
    T = lambda x: torch.tensor(x)
    if scorer == "dot":
        return K @ q, {}
    if scorer == "scaled":
        dots = K @ q
        return dots / math.sqrt(d), {}
    if scorer == "general":
        wah = K @ T(w["W"]).T
        return wah @ q, {"W_a_h": wah}
    if scorer == "concat":
        pairs = torch.cat([q.expand(n, d), K], dim=1)
        pre = pairs @ T(w["W"]).T
        act = torch.tanh(pre)
        return act @ T(w["v"]), {"pre": pre, "act": act}
    if scorer == "location":
        return T(w["W"]) @ q, {}
    if scorer == "additive":
        waq = T(w["W"]) @ q
        uah = K @ T(w["U"]).T
        pre = waq.expand(n, d) + uah
        act = torch.tanh(pre)
        return act @ T(w["v"]), {"W_a_q": waq.expand(n, d), "U_a_h": uah,
                                 "pre": pre, "act": act}
    if scorer == "location-aware":
        prev = torch.zeros(n)
        prev[0] = 1.0  # alpha_0: one-hot on the first key
        Fw = T(w["F"]).reshape(2, 1, 3)
        f = torch.nn.functional.conv1d(prev.view(1, 1, n), Fw,
                                       padding=1)[0].T
        pre = (T(w["W"]) @ q).expand(n, d) + K @ T(w["V"]).T \
            + f @ T(w["U"]).T + T(w["b"])
        act = torch.tanh(pre)
        return act @ T(w["w"]), {"f": f, "pre": pre, "act": act}
    raise Mismatch("no torch version of the scorer %r" % scorer)


def check(doc, scorer):
    q = torch.tensor(doc["query"])
    K = torch.tensor(doc["keys"])
    V = torch.tensor(doc["values"])
    e, parts = scores(scorer, doc["weights"], q, K)
    expect(doc["e"], e, "e")
    for i, rec in enumerate(doc["scores"]):
        if rec["i"] != i + 1:
            raise Mismatch("scores[%d].i is %r" % (i, rec["i"]))
        expect(rec["e"], e[i], "scores[%d].e" % i)
        for key, want in parts.items():
            if key not in rec:
                raise Mismatch("scores[%d] has no %s" % (i, key))
            expect(rec[key], want[i], "scores[%d].%s" % (i, key))
        if scorer != "location":
            total = sum(a * b for a, b in rec["terms"])
            expect(total / rec.get("divisor", 1.0), e[i],
                   "scores[%d]: the terms' sum" % i)
        if scorer == "scaled":
            expect(rec["divisor"], math.sqrt(K.shape[1]),
                   "scores[%d].divisor" % i)
    sm = doc["softmax"]
    expect(sm["max"], e.max(), "softmax.max")
    expect(sm["shifted"], e - e.max(), "softmax.shifted")
    expect(sm["exp"], torch.exp(e - e.max()), "softmax.exp")
    expect(sm["sum"], torch.exp(e - e.max()).sum(), "softmax.sum")
    alpha = torch.softmax(e, dim=0)
    expect(sm["weights"], alpha, "softmax.weights")
    expect(doc["weighted"], alpha[:, None] * V, "weighted")
    expect(doc["output"], alpha @ V, "output")


def run(binary, args):
    p = subprocess.run([binary, "calc", "-f", "json"] + args,
                       capture_output=True, text=True)
    if p.returncode != 0 or p.stderr:
        raise Mismatch("calc %s: exit %d: %s" % (" ".join(args),
                                                p.returncode, p.stderr))
    return json.loads(p.stdout)


def numbers(rows):
    return ";".join(",".join(repr(x) for x in r) for r in rows)


def weight_file(doc, scorer, path):
    """The query, keys, values and the JSON's weights as a calc file."""
    with open(path, "w") as f:
        f.write("# written by torch_calc.py\nquery %s\n"
                % " ".join(repr(x) for x in doc["query"]))
        for k in doc["keys"]:
            f.write("key %s\n" % " ".join(repr(x) for x in k))
        for v in doc["values"]:
            f.write("value %s\n" % ", ".join(repr(x) for x in v))
        for key, w in doc["weights"].items():
            rows = w if w and isinstance(w[0], list) else [w]
            for r in rows:
                f.write("%s.%s %s\n" % (scorer, key,
                                        " ".join(repr(x) for x in r)))


def main(argv):
    binary = argv[1]
    sys.dont_write_bytecode = True
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import registry
    rng = random.Random(31)
    count = 0
    tmp = tempfile.mkdtemp()
    path = os.path.join(tmp, "calc.txt")
    try:
        for scorer, _ in registry.scorers(binary):
            for case in range(CASES_PER_SCORER):
                d, dv = rng.randint(1, 16), rng.randint(1, 16)
                n = rng.randint(1, 12)
                if case == 0:
                    d = 16  # the largest size, each scorer
                q = [round(rng.uniform(-2, 2), 6) for _ in range(d)]
                K = [[round(rng.uniform(-2, 2), 6) for _ in range(d)]
                     for _ in range(n)]
                V = [[round(rng.uniform(-2, 2), 6) for _ in range(dv)]
                     for _ in range(n)]
                seed = str(rng.randint(0, 2**40))
                args = ["-s", scorer, "--seed=" + seed,
                        "--query=" + numbers([q]), "--keys=" + numbers(K),
                        "--values=" + numbers(V)]
                where = "%s d=%d d_v=%d n=%d seed=%s" % (scorer, d, dv, n,
                                                         seed)
                try:
                    doc = run(binary, args)
                    if (doc["d"], doc["d_v"], doc["n"]) != (d, dv, n):
                        raise Mismatch("sizes %r" % ((doc["d"], doc["d_v"],
                                                      doc["n"]),))
                    expect(doc["query"], q, "query")
                    expect(doc["keys"], K, "keys")
                    expect(doc["values"], V, "values")
                    check(doc, scorer)
                    if run(binary, args) != doc:
                        raise Mismatch("the same seed drew other weights")
                    weight_file(doc, scorer, path)
                    again = run(binary, ["-s", scorer, path])
                    if again["weights_from"] != ("file" if doc["weights"]
                                                 else "none"):
                        raise Mismatch("the file's weights were not read")
                    for key in ("weights", "e", "softmax", "output"):
                        if again[key] != doc[key]:
                            raise Mismatch("the file gives another %s"
                                           % key)
                except Mismatch as err:
                    print("FAIL %s: %s" % (where, err))
                    return 1
                count += 1
    finally:
        if os.path.exists(path):
            os.unlink(path)
        os.rmdir(tmp)
    print("ok: %d calc traces agree with torch (every scorer, d and d_v "
          "1 to 16)" % count)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
