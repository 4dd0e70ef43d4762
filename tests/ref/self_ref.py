#!/usr/bin/env python3
"""self_ref.py: an independent pure-Python self- and cross-attention, and
the comparison of attn-trace self's JSON with it.

Usage:
    self_ref.py BINARY MODEL

No numpy, no torch: lists of floats, the formulas of doc/model.md written
out again. It reads the weights from BINARY model --format=json, runs
BINARY self --format=json on a few sentences (self and cross, with and
without --causal and --no-position) and compares every matrix, within
1e-12 absolute plus 1e-12 relative.
"""
import json
import math
import subprocess
import sys

TOL = 1e-12


def matvec(W, x):
    return [sum(w * v for w, v in zip(row, x)) for row in W]


def pe(pos, d):
    return [(math.cos if c % 2 else math.sin)(pos / 10000 ** ((c - c % 2) / d))
            for c in range(d)]


def attend(W, Eq, Ekv, causal, position):
    d = len(W["W_Q"])
    dk = d // 2
    Xq = [[e + (p if position else 0) for e, p in zip(row, pe(i, d))]
          for i, row in enumerate(Eq)]
    Xkv = [[e + (p if position else 0) for e, p in zip(row, pe(j, d))]
           for j, row in enumerate(Ekv)]
    Q = [matvec(W["W_Q"], x) for x in Xq]
    K = [matvec(W["W_K"], x) for x in Xkv]
    V = [matvec(W["W_V"], x) for x in Xkv]
    heads, Zs = [], []
    for h in range(2):
        f = range(h * dk, (h + 1) * dk)
        S = [[sum(q[c] * k[c] for c in f) / math.sqrt(dk) for k in K]
             for q in Q]
        M = [[-math.inf if causal and j > i else s for j, s in enumerate(r)]
             for i, r in enumerate(S)]
        A = []
        for r in M:
            mx = max(r)
            e = [0.0 if s == -math.inf else math.exp(s - mx) for s in r]
            A.append([x / sum(e) for x in e])
        Z = [[sum(a[j] * V[j][c] for j in range(len(V))) for c in f]
             for a in A]
        heads.append({"S": S, "S_masked": M, "A": A, "Z": Z})
        Zs.append(Z)
    C = [z1 + z2 for z1, z2 in zip(*Zs)]
    Y = [matvec(W["W_O"], c) for c in C]
    return {"X_q": Xq, "X_kv": Xkv, "Q": Q, "K": K, "V": V, "heads": heads,
            "concat": C, "output": Y}


ALIAS = {"scores": "S", "scores_masked": "S_masked", "emb": "E",
         "emb_q": "E_q"}


def by_name(tr):
    """An attn-trace-self/3 JSON trace, whose records are a list
    (doc/trace-format.md), with its matrices under one name each: X_q and X_kv (the
    record X is both for self-attention), Q, K, V, concat, output, and
    heads[h] for head h + 1 with S, S_masked (S itself without --causal,
    which records no mask), A, Z and each record's intermediates.  The
    trace's names "scores", "scores_masked", "emb" and "emb_q" are S,
    S_masked, E and E_q here, the names of the arithmetic below."""
    assert tr["format"] == "attn-trace-self/3", tr["format"]
    out = {k: v for k, v in tr.items() if k != "records"}
    out["heads"] = [{} for _ in tr["heads_shown"]]
    for r in tr["records"]:
        dst = out["heads"][tr["heads_shown"].index(r["head"])] \
            if "head" in r else out
        for key, v in r.items():
            if key not in ("stage", "name", "head", "rows", "columns",
                           "value"):
                dst[ALIAS.get(key, key)] = v
        name = {"X": "X_kv"}.get(r["name"], r["name"])
        name = ALIAS.get(name, name)
        dst[name] = r["value"]
        if r["name"] == "X" and "X_q" not in out:
            out["X_q"] = r["value"]
    for hd in out["heads"]:
        hd.setdefault("S_masked", hd["S"])
    return out


bad = 0
count = 0


def same(what, got, want):
    global bad, count
    if isinstance(want, list):
        if not isinstance(got, list) or len(got) != len(want):
            print(f"FAIL {what}: shape")
            bad += 1
            return
        for k, (g, w) in enumerate(zip(got, want)):
            same(f"{what}[{k}]", g, w)
        return
    count += 1
    if want == -math.inf:
        ok = got is None
    else:
        ok = got is not None and abs(got - want) <= TOL + TOL * abs(want)
    if not ok:
        print(f"FAIL {what}: {got!r}, expected {want!r}")
        bad += 1


def main():
    binary, model = sys.argv[1], sys.argv[2]
    def run(*args):
        return json.loads(subprocess.run([binary, *args, "--model=" + model],
                                         check=True, capture_output=True,
                                         text=True).stdout)
    mj = run("model", "--format=json")
    src = list(mj["source_embeddings"])
    tgt = [w for w in mj["target_embeddings"] if w not in ("<s>", "</s>")]
    for s in (src[:3], src[::-1]):
        for flags in ([], ["--causal"], ["--no-position", "--causal"]):
            for t in ([None] + ([tgt[:2], tgt[::-1]] if "cross" in mj else [])):
                args = flags + (["--target=" + " ".join(t)] if t else [])
                tr = by_name(run("self", "--format=json", *args, *s))
                g = mj["cross" if t else "self"]
                Eq = [mj["target_embeddings" if t else "source_embeddings"][w]
                      for w in (t or s)]
                Ekv = [mj["source_embeddings"][w] for w in s]
                want = attend(g, Eq, Ekv, "--causal" in flags,
                              "--no-position" not in flags)
                name = " ".join(args + s)
                for key in ("X_q", "X_kv", "Q", "K", "V", "concat", "output"):
                    same(f"{name} {key}", tr[key], want[key])
                for h in range(2):
                    for key in ("S", "S_masked", "A", "Z"):
                        same(f"{name} head {h+1} {key}", tr["heads"][h][key],
                             want["heads"][h][key])
    print(f"{count} numbers compared, {bad} differ")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
