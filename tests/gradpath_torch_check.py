#!/usr/bin/env python3
"""gradpath_torch_check.py: the gradient paths of attn-trace's JSON
(trace --gradient-paths=T) against PyTorch autograd.

Usage:
    gradpath_torch_check.py BINARY MODEL [WINDOW:D,..]

The weights come from BINARY model --format=json, loaded as
tests/torch_check.py loads them (its TorchModel and BahdanauTorch: the
scorers and the windows).  Here the encoder is unrolled by hand, one
tanh step a position (both directions in Bahdanau's architecture), so
that each encoder state is a node of the graph; then the decoder runs
teacher-forced up to step T, and L_T = -log softmax(logits_T)[y_T].

For each source position i (doc/model.md, "The gradient paths"):

    total       torch.autograd.grad(L_T, h_i): every path from h_i
                (Bahdanau's: from ->h_i and <-h_i, concatenated)
    direct      a graph of its own for each i, in which step T's
                attention (its scores and its context) reads a leaf copy
                k_i of h_i in row i, and the states themselves in every
                other row, as everything else does (the recurrence, s_0,
                the other steps' attention): autograd.grad(L_T, k_i)
    recurrence  in that graph, autograd.grad(L_T, h_i): every path but
                the edge from h_i into step T's attention (h_i -> h_{i+1}
                -> step T's attention among them), computed on its own,
                not as total - direct

and their Euclidean norms, and L_T itself, must agree with the
program's "gradient_paths" within 1e-12 absolute plus 1e-12 relative.
It also checks total = direct + recurrence in torch (to 1e-12), so
that the split is a split.  Every step T of the first target is
probed, the first and the last of the others, with every scorer the
model supports (one run of the program for them all).

Prints "ok CASE" or "FAIL CASE: ..." a case, then "N passed, M failed".
Exit status 0, 1 when something failed, 77 when torch cannot be
imported, 2 for bad usage.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True

import torch_check as tc  # noqa: E402


def unroll(torch, rnn, xs, H, suffix=""):
    """The states of one direction of nn.RNN rnn over the inputs xs, in
    the order given, each a node of the graph."""
    W_ih = getattr(rnn, "weight_ih_l0" + suffix)
    W_hh = getattr(rnn, "weight_hh_l0" + suffix)
    b = getattr(rnn, "bias_ih_l0" + suffix) + getattr(rnn, "bias_hh_l0" + suffix)
    h = torch.zeros(H, dtype=torch.float64)
    out = []
    for x in xs:
        h = torch.tanh(W_ih @ x + W_hh @ h + b)
        out.append(h)
    return out


def attend(model, e, q, t, n):
    """The weights of step t; the baseline's window "fixed" puts all of
    it on h_n, the others are torch_check's."""
    torch = model.torch
    if model.window == "fixed":
        alpha = torch.zeros(n, dtype=torch.float64)
        alpha[n - 1] = 1.0
        return alpha
    return model.attend(e, q, t, {})


def loss_at(model, words, target, scorer, T, cut):
    """L_T, the nodes (a list of (n) tensors, or pairs for Bahdanau's)
    and, with cut = i, the leaf copy k_i that step T's attention reads
    in row i (None: no copy)."""
    torch = model.torch
    F = torch.nn.functional
    bahdanau = isinstance(model, tc.BahdanauTorch)
    xs = [model.src[tc.fold(w)][1] for w in words]
    model.words = [model.src[tc.fold(w)][0] for w in words]
    n, H = len(xs), model.H
    if bahdanau:
        D = H // 2
        fwd = unroll(torch, model.encoder, xs, D)
        bwd = unroll(torch, model.encoder, xs[::-1], D, "_reverse")[::-1]
        nodes = list(zip(fwd, bwd))
        Hs = torch.stack([torch.cat([f, b]) for f, b in nodes])
        s = torch.tanh(model.W_init(bwd[0]))
    else:
        nodes = unroll(torch, model.encoder, xs, H)
        Hs = torch.stack(nodes)
        s = nodes[-1]                                   # s_0 = h_n
    K = Hs, None
    if cut is not None:
        k = Hs[cut].detach().clone().requires_grad_(True)
        K = torch.stack([k if j == cut else Hs[j] for j in range(n)]), k
    prev = torch.zeros(n, dtype=torch.float64)
    prev[0] = 1.0
    feed = torch.zeros(H, dtype=torch.float64)
    gold = [model.tgt[tc.fold(w)][0] for w in target] + ["</s>"]
    word = "<s>"
    for t in range(1, T + 1):
        keys = K[0] if t == T else Hs
        y = model.tgt[tc.fold(word)][1]
        if bahdanau:
            e, _ = model.score(scorer, s, keys, prev)
            alpha = attend(model, e, s, t, n)
            c = alpha @ keys
            s = model.decoder(torch.cat([y, c]).unsqueeze(0),
                              s.unsqueeze(0))[0]
            logits = model.W_o(torch.cat([s, c, y]))
        else:
            x = torch.cat([y, feed]) if model.feeding else y
            s = model.decoder(x.unsqueeze(0), s.unsqueeze(0))[0]
            e, _ = model.score(scorer, s, keys, prev)
            alpha = attend(model, e, s, t, n)
            c = alpha @ keys
            feed = torch.tanh(model.W_c(torch.cat([c, s])))
            logits = model.W_s(feed)
        prev = alpha
        word = gold[t - 1]
    k = model.vocab.index(gold[T - 1])
    return -F.log_softmax(logits, dim=0)[k], nodes, K[1]


def grads(torch, L, tensors):
    got = torch.autograd.grad(L, tensors, retain_graph=True,
                              allow_unused=True)
    return [torch.zeros_like(x) if g is None else g
            for x, g in zip(tensors, got)]


def node_grads(torch, L, nodes):
    """dL/dh_i for each node (Bahdanau's: [dL/d->h_i; dL/d<-h_i])."""
    if isinstance(nodes[0], tuple):
        flat = [x for pair in nodes for x in pair]
        g = grads(torch, L, flat)
        return [torch.cat([g[2 * i], g[2 * i + 1]])
                for i in range(len(nodes))]
    return grads(torch, L, nodes)


def split(torch, loss, n, word, T):
    """What the program's "gradient_paths" should hold for step T, whose
    target word is word: loss(cut) is (L_T, the nodes h_1 .. h_n, the
    leaf copy k_cut that step T's attention reads, or None)."""
    L, nodes, _ = loss(None)
    total = torch.stack(node_grads(torch, L, nodes))
    direct, rec = [], []
    for i in range(n):
        Li, nodes_i, k = loss(i)
        direct.append(grads(torch, Li, [k])[0])
        rec.append(node_grads(torch, Li, nodes_i)[i])
    direct, rec = torch.stack(direct), torch.stack(rec)
    gap = (direct + rec - total).abs().max().item()
    if gap > 1e-12:
        raise tc.Mismatch("torch: total - direct - recurrence is %.3g"
                          % gap)
    norm = lambda v: v.norm(dim=1).tolist()  # noqa: E731
    return {"t": T, "word": word, "loss": L.item(), "total": total.tolist(),
            "direct": direct.tolist(), "recurrence": rec.tolist(),
            "total_norm": norm(total), "direct_norm": norm(direct),
            "recurrence_norm": norm(rec)}


def paths(model, words, target, scorer, T):
    """What the program's "gradient_paths" should hold."""
    gold = [model.tgt[tc.fold(w)][0] for w in target] + ["</s>"]
    return split(model.torch,
                 lambda cut: loss_at(model, words, target, scorer, T, cut),
                 len(words), gold[T - 1], T)


KEYS = ("t", "word", "loss", "total", "direct", "recurrence",
        "total_norm", "direct_norm", "recurrence_norm")


def main(argv):
    if len(argv) not in (2, 3):
        sys.stderr.write("usage: gradpath_torch_check.py BINARY MODEL "
                         "[WINDOW:D,..]\n")
        return 2
    binary, path = argv[:2]
    windows = [("global", 1)]
    if len(argv) == 3:
        windows = [(w.split(":")[0], int(w.split(":")[1]))
                   for w in argv[2].split(",")]
    sys.stdout.reconfigure(encoding="utf-8")
    try:
        import torch
    except Exception as exc:
        print("skip: torch cannot be imported: %s" % exc)
        return 77
    tc.read_registry(binary)
    torch.set_grad_enabled(False)
    doc = tc.run_json([binary, "model", "--format=json", "--model=" + path])
    model = (tc.BahdanauTorch if doc.get("architecture") == "bahdanau"
             else tc.TorchModel)(torch, doc)
    torch.set_grad_enabled(True)
    passed = failed = 0
    cases = [(w, t) for w, t in tc.cases_for(model) if t is not None]
    for (window, D), (words, target) in [(wd, c) for wd in windows
                                         for c in cases]:
        model.window, model.D = window, D
        scorers = [sc for sc in model.supported if sc in tc.TORCH_SCORERS
                   and (sc != "location" or len(words) <= model.L)]
        # every step of the first target; the first and the last of
        # the others
        steps = range(1, len(target) + 2)
        if (words, target) != cases[0]:
            steps = sorted({1, len(target) + 1})
        for T in steps:
            argv = [binary, "trace", "--model=" + path, "--format=json",
                    "--scorer=" + ",".join(scorers),
                    "--gradient-paths=%d" % T,
                    "--target=" + " ".join(target)]
            if window == "fixed":  # the baseline: no half-width
                argv += ["--window=fixed"]
            elif window != "global":
                argv += ["--window=" + window, "--window-size=%d" % D]
            argv.append(" ".join(words))
            try:
                got = tc.run_json(argv)
            except tc.Mismatch as exc:
                failed += 1
                print("FAIL %s T=%d: %s" % (" ".join(words), T, exc))
                continue
            for run in got["runs"]:
                name = "%s T=%d (%s, D = %d)" % (
                    tc.case_name(run["scorer"], words, target), T, window, D)
                try:
                    g = run.get("gradient_paths")
                    tc.expect_keys(g, KEYS, "$.gradient_paths")
                    tc.expect(g, paths(model, words, target, run["scorer"],
                                       T), "$.gradient_paths")
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
