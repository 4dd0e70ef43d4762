#!/usr/bin/env python3
"""self_torch_check.py: attn-trace self against torch.nn.MultiheadAttention.

Usage:
    self_torch_check.py BINARY MODEL

It reads the model's weights from BINARY model --format=json --model=MODEL
and loads "self" and "cross" into nn.MultiheadAttention(d_model, 2,
bias=False, batch_first=True) in float64: in_proj_weight = [W_Q; W_K; W_V],
out_proj.weight = W_O.  For a few sentences, with and without --causal and
--no-position, for self-attention and (with --target) cross-attention, it
runs BINARY self --format=json and checks against torch, within 1e-12
absolute plus 1e-12 relative:

  - X = embedding + PE, the embeddings from the model JSON and PE from its
    formula, computed here;
  - Q, K, V (torch.nn.functional.linear with the weights);
  - per head the scores, the masked scores (null for -inf), the weights
    A (need_weights=True, average_attn_weights=False) and
    Z = A V_h (from torch's A and V);
  - concat(Z_1, Z_2) and the output (the module's output);
  - the causal mask: exactly the entries j > i are null, and weigh 0.
"""
import json
import math
import subprocess
import sys

import torch

torch.set_default_dtype(torch.float64)
TOL = 1e-12
failures = 0
checked = 0


def close(a, b):
    return abs(a - b) <= TOL + TOL * abs(b)


def check_mat(what, got, want):
    global failures, checked
    want = [[float(x) for x in row] for row in want]
    if len(got) != len(want) or any(len(g) != len(w) for g, w in zip(got, want)):
        print(f"FAIL {what}: shape {len(got)}x{len(got[0]) if got else 0}, "
              f"expected {len(want)}x{len(want[0]) if want else 0}")
        failures += 1
        return
    for i, (g, w) in enumerate(zip(got, want)):
        for j, (x, y) in enumerate(zip(g, w)):
            checked += 1
            if x is None or math.isinf(y):
                if not (x is None and math.isinf(y) and y < 0):
                    print(f"FAIL {what}[{i}][{j}]: {x}, expected {y}")
                    failures += 1
            elif not close(x, y):
                print(f"FAIL {what}[{i}][{j}]: {x!r}, expected {y!r}")
                failures += 1


def pe(n, d):
    P = torch.zeros(n, d)
    for p in range(n):
        for c in range(d):
            a = p / 10000 ** ((c - c % 2) / d)
            P[p, c] = math.cos(a) if c % 2 else math.sin(a)
    return P


def mha(group):
    W = {k: torch.tensor(group[k], dtype=torch.float64) for k in ("W_Q", "W_K", "W_V", "W_O")}
    d = W["W_Q"].shape[0]
    m = torch.nn.MultiheadAttention(d, 2, bias=False, batch_first=True)
    with torch.no_grad():
        m.in_proj_weight.copy_(torch.cat([W["W_Q"], W["W_K"], W["W_V"]]))
        m.out_proj.weight.copy_(W["W_O"])
    return m, W


def run(binary, model, args):
    out = subprocess.run([binary, "self", "--model=" + model, "--format=json"]
                         + args, check=True, capture_output=True, text=True)
    return by_name(json.loads(out.stdout))


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


def check_run(binary, model, mj, args):
    tr = run(binary, model, args)
    cross = any(a.startswith("--target=") for a in args)
    causal = "--causal" in args
    position = "--no-position" not in args
    name = " ".join(args)
    assert tr["attention"] == ("cross" if cross else "self"), name
    assert tr["causal"] == causal and tr["position"] == position, name
    m, W = mha(mj["cross" if cross else "self"])
    d = W["W_Q"].shape[0]
    dk = d // 2
    se, te = mj["source_embeddings"], mj["target_embeddings"]
    Ekv = torch.tensor([se[w] for w in tr["source"]], dtype=torch.float64)
    Eq = torch.tensor([(te if cross else se)[w] for w in tr["queries"]], dtype=torch.float64)
    n, nq = Ekv.shape[0], Eq.shape[0]
    Xkv = Ekv + (pe(n, d) if position else 0)
    Xq = Eq + (pe(nq, d) if position else 0)
    check_mat(name + " X_kv", tr["X_kv"], Xkv.tolist())
    check_mat(name + " X_q", tr["X_q"], Xq.tolist())
    # the parts of X: the embeddings and the positional encodings
    check_mat(name + " E", tr["E"], Ekv.tolist())
    if cross:
        check_mat(name + " E_q", tr["E_q"], Eq.tolist())
    if position:
        check_mat(name + " PE", tr["PE"], pe(n, d).tolist())
        if cross:
            check_mat(name + " PE_q", tr["PE_q"], pe(nq, d).tolist())
    else:
        assert "PE" not in tr and "PE_q" not in tr, name
    F = torch.nn.functional
    Q, K, V = F.linear(Xq, W["W_Q"]), F.linear(Xkv, W["W_K"]), F.linear(Xkv, W["W_V"])
    check_mat(name + " Q", tr["Q"], Q.tolist())
    check_mat(name + " K", tr["K"], K.tolist())
    check_mat(name + " V", tr["V"], V.tolist())
    mask = None
    if causal:
        mask = torch.triu(torch.ones(nq, n, dtype=torch.bool), diagonal=1)
    with torch.no_grad():
        out, A = m(Xq.unsqueeze(0), Xkv.unsqueeze(0), Xkv.unsqueeze(0),
                   need_weights=True, average_attn_weights=False,
                   attn_mask=mask)
    assert len(tr["heads"]) == 2, name
    zs = []
    for h, hd in enumerate(tr["heads"]):
        sl = slice(h * dk, (h + 1) * dk)
        S = Q[:, sl] @ K[:, sl].T / math.sqrt(dk)
        check_mat(f"{name} head {h+1} S", hd["S"], S.tolist())
        # the record's parts: the head's slices, the products, the scale
        check_mat(f"{name} head {h+1} Q_h", hd["Q_h"], Q[:, sl].tolist())
        check_mat(f"{name} head {h+1} K_h", hd["K_h"], K[:, sl].tolist())
        check_mat(f"{name} head {h+1} V_h", hd["V_h"], V[:, sl].tolist())
        check_mat(f"{name} head {h+1} QK", hd["QK"],
                  (Q[:, sl] @ K[:, sl].T).tolist())
        check_mat(f"{name} head {h+1} scale", hd["scale"], [[math.sqrt(dk)]])
        Sm = S.masked_fill(mask, -math.inf) if causal else S
        check_mat(f"{name} head {h+1} S_masked", hd["S_masked"], Sm.tolist())
        # the softmax's parts, row by row: max, shifted, exp, sum
        mx = Sm.max(dim=1, keepdim=True).values
        check_mat(f"{name} head {h+1} max", hd["max"], mx.tolist())
        check_mat(f"{name} head {h+1} shifted", hd["shifted"], (Sm - mx).tolist())
        ex = torch.exp(Sm - mx)
        check_mat(f"{name} head {h+1} exp", hd["exp"], ex.tolist())
        check_mat(f"{name} head {h+1} sum", hd["sum"],
                  ex.sum(dim=1, keepdim=True).tolist())
        check_mat(f"{name} head {h+1} A", hd["A"], A[0, h].tolist())
        Z = A[0, h] @ V[:, sl]
        zs.append(Z)
        check_mat(f"{name} head {h+1} Z", hd["Z"], Z.tolist())
        if causal:
            for i in range(nq):
                for j in range(n):
                    if j > i and hd["A"][i][j] != 0:
                        print(f"FAIL {name} head {h+1}: A[{i}][{j}] masked "
                              f"but {hd['A'][i][j]}")
                        global failures
                        failures += 1
    C = torch.cat(zs, dim=1)
    check_mat(name + " concat", tr["concat"], C.tolist())
    check_mat(name + " output", tr["output"], out[0].tolist())


def main():
    binary, model = sys.argv[1], sys.argv[2]
    mj = json.loads(subprocess.run([binary, "model", "--format=json",
                                    "--model=" + model], check=True,
                                   capture_output=True, text=True).stdout)
    src = list(mj["source_embeddings"])
    tgt = [w for w in mj["target_embeddings"] if w not in ("<s>", "</s>")]
    sents = [src[:3], list(reversed(src)), src[1:2]]
    targets = [tgt[:3], list(reversed(tgt)), tgt[:1]]
    for s in sents:
        for extra in ([], ["--causal"], ["--no-position"],
                      ["--causal", "--no-position"]):
            check_run(binary, model, mj, extra + s)
            if "cross" in mj:
                for t in targets:
                    check_run(binary, model, mj,
                              extra + ["--target=" + " ".join(t)] + s)
    print(f"{checked} numbers checked, {failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
