#!/usr/bin/env python3
"""hard_torch_check.py: hard attention (--hard) against PyTorch in float64.

Usage: hard_torch_check.py BINARY MODEL [WINDOW:D]

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

With WINDOW:D (local-m:1, local-p:2) the traces use that window, whose
records torch_check's attend() recomputes.  local-p's weights a sum to
less than 1, so the draw, the exact view and the learning signal use
pi = a / sum(a): the "hard" object must carry "sum" and "pi", pi's
gradients are taken by autograd from the softmax over the window of
z_j = e_j - (j - p)^2 / (2 sigma^2) with p a leaf of its own (so the
"score_function_p" and "entropy_term_p" terms are autograd's dlog pi_l/dp
and dH/dp), and every other window must NOT carry "pi".
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


def learning(torch, e, lp_of, l, state, gstep, dist=None):
    """The --gradient and --samples pieces of one step, with autograd for
    every derivative: e the scores (n), lp_of(c) log p(y_t | c) for a
    context c, l the chosen word, state["b"] the baseline before the step
    (updated here), gstep the program's step (for the recorded Monte Carlo
    u's, which are replayed).  dist, if given, is (f, p): the distribution
    drawn from as f(e, p) of the scores and local-p's position p, whose
    gradients on p are checked too; otherwise the softmax of e."""
    F = torch.nn.functional
    n = e.shape[0]
    out = {}
    with torch.enable_grad():
        ev = e.detach().clone().requires_grad_(True)
        pv = None
        if dist is None:
            alpha = F.softmax(ev, dim=0)
        elif dist[1] is None:  # local-m: the softmax over the window
            alpha = dist[0](ev, None)
        else:
            pv = dist[1].detach().clone().requires_grad_(True)
            alpha = dist[0](ev, pv)
        mask = alpha.detach() > 0
        H = -(alpha[mask] * torch.log(alpha[mask])).sum()
        dH = torch.autograd.grad(H, [ev] + ([pv] if pv is not None else []),
                                 retain_graph=True)
        if pv is not None:
            dlogpi = torch.autograd.grad(torch.log(alpha[l]), [ev, pv],
                                         retain_graph=True)
        dH = dH[0] if pv is None else dH
        lp = torch.stack([lp_of(j)[0].detach() for j in range(n)])
        Elp = (alpha * lp).sum()
        dE, = torch.autograd.grad(Elp, ev)
        c, R = lp_of(l, True)
        dc, = torch.autograd.grad(R, c)
    if pv is not None:
        dH_p = dH[1]
        dH = dH[0]
    alpha = alpha.detach()
    R = R.item()
    b = state["b"]
    state["b"] = DECAY * b + (1 - DECAY) * R
    onehot = torch.zeros(n, dtype=torch.float64)
    onehot[l] = 1
    if pv is None:
        sf = LAMBDA_R * (R - b) * (onehot - alpha)
    else:  # autograd's dlog pi_l/de: no closed form here
        sf = LAMBDA_R * (R - b) * dlogpi[0]
    ent = LAMBDA_E * dH
    # teacher-forced cases always ask for both (main), so both must be there
    if True:
        out["gradient"] = {"R": R, "baseline": b, "advantage": R - b,
                           "score_function": sf.tolist(),
                           "entropy": H.item(),
                           "entropy_term": ent.tolist(),
                           "backprop": dc.tolist(),
                           "scores": (sf + ent).tolist()}
        if pv is not None:
            out["gradient"]["score_function_p"] = \
                (LAMBDA_R * (R - b) * dlogpi[1]).item()
            out["gradient"]["entropy_term_p"] = (LAMBDA_E * dH_p).item()
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


def weights(model, e, q, t, words, step):
    """(a, d, dist): the window's weights of step t (recomputed by
    torch_check's attend(), whose records go into step), the distribution
    d the draw is made from (a, or local-p's pi = a / sum a, which step's
    "hard" must carry with the sum), and learning()'s dist (None for
    global; local-m's softmax over the window as a function of the scores;
    local-p's pi as a function of the scores and p, with p)."""
    torch, F = model.torch, model.torch.nn.functional
    if model.window == "global":
        a = F.softmax(e, dim=0)
        step["weights"] = a.tolist()
        return a, a, None
    model.words = [model.src[tc.fold(w)][0] for w in words]
    a = model.attend(e, q, t, step)
    lo, hi = step["window"]["first"], step["window"]["last"]
    n = e.shape[0]
    zero = torch.zeros(n, dtype=torch.float64)
    if model.window != "local-p":
        return a, a, (lambda ev, pv: torch.cat(
            [zero[:lo - 1], F.softmax(ev[lo - 1:hi], dim=0), zero[hi:]]),
            None)
    s = a.sum()
    d = a / s
    step["hard_pi"] = {"sum": s.item(), "pi": d.tolist()}
    sigma = model.D / 2.0

    def pi_of(ev, pv):
        j = torch.arange(lo, hi + 1, dtype=torch.float64)
        z = ev[lo - 1:hi] - (j - pv) ** 2 / (2 * sigma ** 2)
        return torch.cat([zero[:lo - 1], F.softmax(z, dim=0), zero[hi:]])
    p = torch.tensor(step["position"]["p"][0], dtype=torch.float64)
    return a, d, (pi_of, p)


def finish_hard(step):
    """Moves weights()'s "hard_pi" into step["hard"]."""
    extra = step.pop("hard_pi", None)
    if extra:
        step["hard"].update(extra)


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
            win = {}
            a, alpha, dist = weights(model, e, s, t + 1, words, win)
            prev = a
            cum, l = choose(torch, alpha, gsteps[t]["hard"], rule)
            c = Hs[l]
            joined = torch.cat([c, s])
            att = torch.tanh(model.W_c(joined))
            logits = model.W_s(att)
            probs = F.softmax(logits, dim=0)
            step = {"t": t + 1, "state": s.tolist(), "scores": e.tolist(),
                    "context": (a @ Hs).tolist(),
                    "hard": {"rule": rule, "cumsum": cum.tolist(),
                             "l": l + 1, "context": c.tolist()},
                    "concat": joined.tolist(), "attentional": att.tolist(),
                    "output": {"logits": logits.tolist(),
                               "probs": probs.tolist()}}
            step.update(win)
            finish_hard(step)
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
                                     l, state, gsteps[t], dist))
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
            win = {}
            a, alpha, dist = weights(model, e, s, t + 1, words, win)
            prev = a
            cum, l = choose(torch, alpha, gsteps[t]["hard"], rule)
            c = Hs[l]

            def readout(ctx):
                s_new = model.decoder(torch.cat([y, ctx]).unsqueeze(0),
                                      s.unsqueeze(0))[0]
                return s_new, model.W_o(torch.cat([s_new, ctx, y]))
            s_new, logits = readout(c)
            step = {"t": t + 1, "query": s.tolist(), "scores": e.tolist(),
                    "context": (a @ Hs).tolist(),
                    "hard": {"rule": rule, "cumsum": cum.tolist(),
                             "l": l + 1, "context": c.tolist()},
                    "state": s_new.tolist(),
                    "output": {"logits": logits.tolist(),
                               "probs": F.softmax(logits, dim=0).tolist()}}
            step.update(win)
            finish_hard(step)
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
                                     l, state, gsteps[t], dist))
                word = yt
            else:
                word = got["runs"][r]["output"][t]
            steps.append(step)
            s = s_new
        runs.append({"scorer": scorer, "steps": steps})
    return {"runs": runs}


def main(argv):
    if len(argv) not in (2, 3):
        sys.stderr.write("usage: hard_torch_check.py BINARY MODEL "
                         "[WINDOW:D]\n")
        return 2
    binary, model_path = argv[:2]
    window, D = ("global", 1)
    if len(argv) == 3:
        window, D = argv[2].split(":")[0], int(argv[2].split(":")[1])
    sys.stdout.reconfigure(encoding="utf-8")
    try:
        import torch
    except Exception as exc:
        print("skip: torch cannot be imported: %s" % exc)
        return 77
    torch.set_grad_enabled(False)
    tc.read_registry(binary)
    doc = tc.run_json([binary, "model", "--format=json",
                       "--model=" + model_path])
    bahdanau = doc.get("architecture") == "bahdanau"
    model = (tc.BahdanauTorch if bahdanau else tc.TorchModel)(torch, doc)
    trace = bahdanau_trace if bahdanau else luong_trace
    model.window, model.D = window, D
    passed = failed = 0
    cases = tc.cases_for(model)
    runnable = [sc for sc in model.supported if sc != "location"]
    for seed in (0, 1, 12345, 18446744073709551615):
        for rule in ("sample", "argmax") if seed == 1 else ("sample",):
            for words, target in cases:
                argv = [binary, "trace", "--model=" + model_path,
                        "--format=json", "--scorer=" + ",".join(runnable),
                        "--hard=" + rule, "--seed=%d" % seed,
                        "--window=" + window, "--window-size=%d" % D]
                if target is not None:
                    argv.append("--target=" + " ".join(target))
                    argv += ["--gradient", "--samples=%d" % (7 + seed % 50)]
                argv.append(" ".join(words))
                name = "%s:%d seed %d %s %s" % (window, D, seed, rule,
                                          tc.case_name("all", words, target))
                try:
                    got = tc.run_json(argv)
                    if got.get("seed") != seed or got.get("hard_rule") != rule:
                        raise tc.Mismatch("header: seed %r rule %r" % (
                            got.get("seed"), got.get("hard_rule")))
                    want = trace(model, got, runnable, words, target, rule)
                    tc.expect(got, want, "$")
                    for r in got["runs"]:
                        for st in r["steps"]:
                            if window != "local-p" and ("pi" in st["hard"]
                                                        or "sum" in st["hard"]):
                                raise tc.Mismatch("step %d: %s's weights are "
                                                  "a distribution, yet the "
                                                  "trace has pi" % (st["t"],
                                                                    window))
                            gap = st.get("exact", {}).get("jensen_gap", 0)
                            if gap < -1e-12:
                                raise tc.Mismatch("step %d: Jensen gap %r < 0"
                                                  % (st["t"], gap))
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
