#!/usr/bin/env python3
"""hard_torch_check.py: hard attention (--hard) against PyTorch in float64.

Usage: hard_torch_check.py BINARY MODEL

Loads `attn-trace model --format=json` into the torch modules of
tests/torch_check.py, runs `attn-trace trace --hard --format=json` with
several seeds, rules, scorers and sentences, and recomputes every step
with torch: the scores, α, the cumulative sums, the chosen l (from the u
the trace RECORDS: the draws are replayed, never drawn again), the hard
context h_l and the soft one Σ α h, the rest of the step with c_t = h_l,
and, teacher-forced, the exact view: log p(y_t | l) for every l,
E_α[log p], log Σ_l α_l p(y_t | l) and the Jensen gap.  Every number must
agree to 1e-12 (torch_check.agree).  Exit status 0, 1 on a mismatch, 77
when torch cannot be imported.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import torch_check as tc  # noqa: E402


def choose(torch, alpha, hard, rule):
    """(cumsum, l from 0) as the program must have chosen them, with the
    program's recorded u."""
    n = alpha.shape[0]
    cum = torch.cumsum(alpha, dim=0)
    if rule == "argmax":
        a = alpha.tolist()
        return cum, a.index(max(a))
    u = hard["u"]
    for j in range(n):
        if u < cum[j].item():
            return cum, j
    return cum, max(j for j in range(n) if alpha[j].item() > 0)


def exact(torch, alpha, lp):
    expected = (alpha * lp).sum()
    mask = alpha > 0
    lm = torch.logsumexp(torch.log(alpha[mask]) + lp[mask], dim=0)
    return {"log_p": lp.tolist(), "expected": expected.item(),
            "log_marginal": lm.item(), "jensen_gap": (lm - expected).item()}


LAMBDA_R, LAMBDA_E, DECAY = 0.1, 0.002, 0.9


def learning(torch, e, lp_of, l, state, gstep):
    """The --gradient and --samples pieces of one step, with autograd for
    every derivative: e the scores (n), lp_of(c) log p(y_t | c) for a
    context c, l the chosen word, state["b"] the baseline before the step
    (updated here), gstep the program's step (for the recorded Monte Carlo
    u's, which are replayed)."""
    F = torch.nn.functional
    n = e.shape[0]
    out = {}
    with torch.enable_grad():
        ev = e.detach().clone().requires_grad_(True)
        alpha = F.softmax(ev, dim=0)
        H = -(alpha * torch.log(alpha)).sum()
        dH, = torch.autograd.grad(H, ev, retain_graph=True)
        lp = torch.stack([lp_of(j)[0].detach() for j in range(n)])
        Elp = (alpha * lp).sum()
        dE, = torch.autograd.grad(Elp, ev)
        c, R = lp_of(l, True)
        dc, = torch.autograd.grad(R, c)
    alpha = alpha.detach()
    R = R.item()
    b = state["b"]
    state["b"] = DECAY * b + (1 - DECAY) * R
    onehot = torch.zeros(n, dtype=torch.float64)
    onehot[l] = 1
    sf = LAMBDA_R * (R - b) * (onehot - alpha)
    ent = LAMBDA_E * dH
    # teacher-forced cases always ask for both (main), so both must be there
    if True:
        out["gradient"] = {"R": R, "b": b, "advantage": R - b,
                           "score_function": sf.tolist(),
                           "entropy": H.item(),
                           "entropy_term": ent.tolist(),
                           "backprop": dc.tolist(),
                           "scores": (sf + ent).tolist()}
    if True:
        us = gstep.get("samples", {}).get("u", [])
        cum = torch.cumsum(alpha, dim=0)
        ls, g0, g1 = [], [], []
        for u in us:
            k = next((j for j in range(n) if u < cum[j].item()),
                     max(j for j in range(n) if alpha[j].item() > 0))
            ls.append(k + 1)
            d = -alpha.clone()
            d[k] += 1
            g0.append(lp[k] * d)
            g1.append((lp[k] - b) * d)
        g0, g1 = torch.stack(g0), torch.stack(g1)
        out["samples"] = {
            "l": ls, "exact": dE.tolist(),
            "estimate": g0.mean(0).tolist(),
            "estimate_baseline": g1.mean(0).tolist(),
            "variance": g0.var(0, unbiased=False).sum().item(),
            "variance_baseline": g1.var(0, unbiased=False).sum().item()}
    return out


def luong_trace(model, got, scorers, words, target, rule):
    torch, F = model.torch, model.torch.nn.functional
    src = [model.src[tc.fold(w)] for w in words]
    x = torch.stack([e for _, e in src]).unsqueeze(0)
    Hs, last = model.encoder(x, torch.zeros(1, 1, model.H,
                                            dtype=torch.float64))
    Hs = Hs[0]
    n = len(src)
    tgt = [model.tgt[tc.fold(w)][0] for w in target] if target else None
    runs = []
    for r, scorer in enumerate(scorers):
        gsteps = got["runs"][r]["steps"]
        steps = []
        s = last[0, 0]
        state = {"b": 0.0}
        word = "<s>"
        prev = torch.zeros(n, dtype=torch.float64)
        prev[0] = 1.0
        for t in range(len(gsteps)):
            y = model.tgt[tc.fold(word)][1]
            s = model.decoder(y.unsqueeze(0), s.unsqueeze(0))[0]
            e, _ = model.score(scorer, s, Hs, prev)
            alpha = F.softmax(e, dim=0)
            prev = alpha
            cum, l = choose(torch, alpha, gsteps[t]["hard"], rule)
            c = Hs[l]
            joined = torch.cat([c, s])
            att = torch.tanh(model.W_c(joined))
            logits = model.W_s(att)
            probs = F.softmax(logits, dim=0)
            step = {"t": t + 1, "state": s.tolist(), "scores": e.tolist(),
                    "weights": alpha.tolist(),
                    "context": (alpha @ Hs).tolist(),
                    "hard": {"rule": rule, "cumsum": cum.tolist(),
                             "l": l + 1, "context": c.tolist()},
                    "concat": joined.tolist(), "attentional": att.tolist(),
                    "output": {"logits": logits.tolist(),
                               "probs": probs.tolist()}}
            if target is not None:
                yt = tgt[t] if t < len(tgt) else "</s>"
                k = model.vocab.index(yt)
                lp = torch.stack([
                    F.log_softmax(model.W_s(torch.tanh(model.W_c(
                        torch.cat([Hs[j], s])))), dim=0)[k]
                    for j in range(n)])
                step["exact"] = dict(exact(torch, alpha, lp), y=yt,
                                     given_past=False)

                def lp_of(j, grad=False, s=s, k=k):
                    c = Hs[j].detach().clone().requires_grad_(grad)
                    return c, F.log_softmax(model.W_s(torch.tanh(model.W_c(
                        torch.cat([c, s])))), dim=0)[k]
                step.update(learning(torch, e, lambda j, g=False:
                                     lp_of(j, g) if g else (lp_of(j)[1],),
                                     l, state, gsteps[t]))
                word = yt
            else:
                word = got["runs"][r]["output"][t]
            steps.append(step)
        runs.append({"scorer": scorer, "steps": steps})
    return {"runs": runs}


def bahdanau_trace(model, got, scorers, words, target, rule):
    torch, F = model.torch, model.torch.nn.functional
    D = model.H // 2
    src = [model.src[tc.fold(w)] for w in words]
    x = torch.stack([e for _, e in src]).unsqueeze(0)
    Hs, _ = model.encoder(x, torch.zeros(2, 1, D, dtype=torch.float64))
    Hs = Hs[0]
    n = len(src)
    s0 = torch.tanh(model.W_init(Hs[0, D:]))
    tgt = [model.tgt[tc.fold(w)][0] for w in target] if target else None
    runs = []
    for r, scorer in enumerate(scorers):
        gsteps = got["runs"][r]["steps"]
        steps = []
        s = s0
        state = {"b": 0.0}
        word = "<s>"
        prev = torch.zeros(n, dtype=torch.float64)
        prev[0] = 1.0
        for t in range(len(gsteps)):
            y = model.tgt[tc.fold(word)][1]
            e, _ = model.score(scorer, s, Hs, prev)
            alpha = F.softmax(e, dim=0)
            prev = alpha
            cum, l = choose(torch, alpha, gsteps[t]["hard"], rule)
            c = Hs[l]

            def readout(ctx):
                s_new = model.decoder(torch.cat([y, ctx]).unsqueeze(0),
                                      s.unsqueeze(0))[0]
                return s_new, model.W_o(torch.cat([s_new, ctx, y]))
            s_new, logits = readout(c)
            step = {"t": t + 1, "query": s.tolist(), "scores": e.tolist(),
                    "weights": alpha.tolist(),
                    "context": (alpha @ Hs).tolist(),
                    "hard": {"rule": rule, "cumsum": cum.tolist(),
                             "l": l + 1, "context": c.tolist()},
                    "state": s_new.tolist(),
                    "output": {"logits": logits.tolist(),
                               "probs": F.softmax(logits, dim=0).tolist()}}
            if target is not None:
                yt = tgt[t] if t < len(tgt) else "</s>"
                k = model.vocab.index(yt)
                lp = torch.stack([F.log_softmax(readout(Hs[j])[1], dim=0)[k]
                                  for j in range(n)])
                step["exact"] = dict(exact(torch, alpha, lp), y=yt,
                                     given_past=True)

                def lp_of(j, grad=False, k=k, readout=readout):
                    c = Hs[j].detach().clone().requires_grad_(grad)
                    return c, F.log_softmax(readout(c)[1], dim=0)[k]
                step.update(learning(torch, e, lambda j, g=False:
                                     lp_of(j, g) if g else (lp_of(j)[1],),
                                     l, state, gsteps[t]))
                word = yt
            else:
                word = got["runs"][r]["output"][t]
            steps.append(step)
            s = s_new
        runs.append({"scorer": scorer, "steps": steps})
    return {"runs": runs}


def main(argv):
    if len(argv) != 2:
        sys.stderr.write("usage: hard_torch_check.py BINARY MODEL\n")
        return 2
    binary, model_path = argv
    sys.stdout.reconfigure(encoding="utf-8")
    try:
        import torch
    except Exception as exc:
        print("skip: torch cannot be imported: %s" % exc)
        return 77
    torch.set_grad_enabled(False)
    doc = tc.run_json([binary, "model", "--format=json",
                       "--model=" + model_path])
    bahdanau = doc.get("architecture") == "bahdanau"
    model = (tc.BahdanauTorch if bahdanau else tc.TorchModel)(torch, doc)
    trace = bahdanau_trace if bahdanau else luong_trace
    passed = failed = 0
    cases = tc.cases_for(model)
    runnable = [sc for sc in model.supported if sc != "location"]
    for seed in (0, 1, 12345, 18446744073709551615):
        for rule in ("sample", "argmax") if seed == 1 else ("sample",):
            for words, target in cases:
                argv = [binary, "trace", "--model=" + model_path,
                        "--format=json", "--scorer=" + ",".join(runnable),
                        "--hard=" + rule, "--seed=%d" % seed]
                if target is not None:
                    argv.append("--target=" + " ".join(target))
                    argv += ["--gradient", "--samples=%d" % (7 + seed % 50)]
                argv.append(" ".join(words))
                name = "seed %d %s %s" % (seed, rule,
                                          tc.case_name("all", words, target))
                try:
                    got = tc.run_json(argv)
                    if got.get("seed") != seed or got.get("hard_rule") != rule:
                        raise tc.Mismatch("header: seed %r rule %r" % (
                            got.get("seed"), got.get("hard_rule")))
                    want = trace(model, got, runnable, words, target, rule)
                    tc.expect(got, want, "$")
                    if target is None and any("exact" in st for r in
                                              got["runs"] for st in r["steps"]):
                        raise tc.Mismatch("a greedy trace has an exact view")
                except (tc.Mismatch, KeyError, RuntimeError) as exc:
                    failed += 1
                    print("FAIL %s: %s" % (name, exc))
                    continue
                passed += 1
                print("ok %s" % name)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
