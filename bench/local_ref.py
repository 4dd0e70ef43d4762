#!/usr/bin/env python3
"""local_ref.py: "attn-trace train --window=local-m|local-p|fixed" and
"attn-trace train --input-feeding", done again in PyTorch.

Usage:
    local_ref.py --init INIT.model --pairs FILE [--epochs N]
                 [--window auto|global|local-m|local-p|fixed] [--window-size D]
                 [--scorer S,..] [--lr X] [--weight-decay X] [--clip X]
                 [--threads N] [--compare C.model [--tolerance X]]

INIT.model is what "attn-trace train --epochs=0" writes for a seed, with
the same options as the timed run.  The window (--window, default auto:
local-p if the model has [local-p.W_p] and [local-p.v_p], else global) has
half-width D (--window-size, default 1); with the line "input-feeding yes"
the decoder reads [y_{t-1}; h~_{t-1}], h~_0 = 0; with "architecture
bahdanau" the model is Bahdanau's (bench/train_ref.py), whose query, and
so p_t, is s_{t-1}.  The scorers (--scorer, default dot,general,concat;
"all": the seven) are bench/train_ref.py's, location-aware reading the
window's final weights of the step before (a_{t-1} under local-p); the
loss, the clipping and AdamW are those of bench/train_ref.py (whose files
and batch helpers it borrows), so both programs start from the same
numbers and should end at about the same loss.

local-m, per pair and step t: the softmax of the scores over
min(t, n) - D .. min(t, n) + D, within 1 .. n.  local-p (doc/model.md):
    p_t = 1 + (n - 1) sigma(v_p . tanh(W_p q))   q = s_t, or s_{t-1}
    window = floor(p_t) - D .. floor(p_t) + D, within 1 .. n
    a_t,j = softmax over the window (e_t)_j * exp(-(j - p_t)^2 / (2 (D/2)^2))
The whole batch at once: a mask for each pair's window, the floor taken
without a gradient, as in attn-trace.  fixed (no attention): the softmax
of e_t,n alone, weight 1 on h_n whatever the score, and gradient 0 on it.

It prints the same line as train_ref.py; bench/run-train runs it.  With
--compare, it also reads C.model, what attn-trace trained from INIT.model
with the same options for the same epochs, prints the largest difference
of a weight (and its block), and exits 1 if it exceeds --tolerance
(default 1e-12, absolute, or relative for a weight above 1).
"""

import argparse
import math
import os
import sys
import time

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import train_ref  # noqa: E402  (its files, batch and optimiser helpers)

SCORERS = ("dot", "general", "concat")
WINDOWS = ("auto", "global", "local-m", "local-p", "fixed")


def feeding(path):
    """True if the model file has the line "input-feeding yes"."""
    return any(f[:2] == ["input-feeding", "yes"]
               for _, f in train_ref.fields_of(path))


def parameters(model):
    p = train_ref.parameters(dict(model, arch="luong"))
    for name in ("local-p.W_p", "local-p.v_p"):
        if name in model:
            p[name] = torch.tensor(model[name], dtype=torch.float64,
                                   requires_grad=True)
    return p


def weights(p, e, S, src_len, src_mask, D, window, steps):
    """The attention weights from the scores e (B, T, N) of the queries
    S (B, T, H) at the steps steps (T, from 1), through the window: the
    softmax, local-m's or local-p's."""
    e = e.masked_fill(~src_mask[:, None, :], -math.inf)
    if window == "global":
        return torch.softmax(e, -1)
    if window == "fixed":  # no attention: the softmax of e_n alone, 1 on h_n
        j = torch.arange(1, e.shape[-1] + 1)
        last = j[None, None, :] == src_len[:, None, None]
        return torch.softmax(e.masked_fill(~last, -math.inf), -1)
    n = src_len.to(torch.float64)[:, None]                     # (B, 1)
    if window == "local-p":
        v = torch.tanh(S @ p["local-p.W_p"].T) @ p["local-p.v_p"][0]
        pos = 1.0 + (n - 1.0) * torch.sigmoid(v)               # (B, T)
        centre = torch.floor(pos.detach())
    else:  # local-m: p_t = min(t, n)
        centre = torch.minimum(steps.to(torch.float64)[None, :], n)
    j = torch.arange(1, e.shape[-1] + 1, dtype=torch.float64)
    inside = ((j >= centre[..., None] - D) & (j <= centre[..., None] + D)
              & src_mask[:, None, :])
    align = torch.softmax(e.masked_fill(~inside, -math.inf), -1)
    if window == "local-m":
        return align
    sigma = D / 2.0
    gauss = torch.exp(-(j - pos[..., None]) ** 2 / (2 * sigma * sigma))
    return align * gauss


def scores(p, name, S, Hs, H, prev=None):
    """e (B, T, N) of the queries S (B, T, H) against Hs (B, N, H); prev
    (B, T, N), the final weights of the step before, for location-aware."""
    return train_ref.score(p, name, S, Hs, H, prev)


def one_hot_first(B, N):
    """alpha_0 (B, N): one-hot on the first source word."""
    prev = torch.zeros(B, N, dtype=torch.float64)
    prev[:, 0] = 1.0
    return prev


def cross_entropy(logits, gold, mask):
    """The mean cross-entropy of the logits (B, T, V) against gold, over
    the predictions of mask, and (that mean, right predictions, their
    count)."""
    logp = torch.log_softmax(logits, -1)
    ce = -logp.gather(-1, gold[..., None])[..., 0]
    ntok = mask.sum()
    loss = (ce * mask).sum() / ntok
    right = ((logits.argmax(-1) == gold).double() * mask).sum()
    return loss, (loss.item(), right.item(), ntok.item())


def forward(p, data, scorers, H, D, feed, window="local-p"):
    """The summed loss, and per scorer (mean loss, right predictions)."""
    src, src_len, src_mask, inputs, gold, mask = data[:6]
    B, N = src.shape
    x = p["source"][src]
    h = torch.zeros(B, H, dtype=torch.float64)
    states = []
    for i in range(N):
        new = train_ref.rnn(p, "encoder", x[:, i], h)
        h = torch.where(src_mask[:, i:i + 1], new, h)
        states.append(new)
    Hs = torch.stack(states, 1)
    y = p["target"][inputs]
    T = inputs.shape[1]
    steps = torch.arange(1, T + 1)
    if not feed:  # the states are the scorers' common ground
        s, S = h, []
        for t in range(T):
            s = train_ref.rnn(p, "decoder", y[:, t], s)
            S.append(s)
        S = torch.stack(S, 1)
    total, per = 0.0, {}
    for name in scorers:
        if feed or name == "location-aware":
            # step by step: each step reads the h~ of the one before, or
            # the weights of the one before
            s, ht = h, torch.zeros(B, H, dtype=torch.float64)
            prev, hts = one_hot_first(B, N), []
            for t in range(T):
                if feed:
                    s = train_ref.rnn(p, "decoder",
                                      torch.cat((y[:, t], ht), -1), s)
                else:
                    s = S[:, t]
                q = s[:, None, :]
                a = weights(p, scores(p, name, q, Hs, H, prev[:, None]), q,
                            src_len, src_mask, D, window, steps[t:t + 1])
                prev = a[:, 0]
                c = (a @ Hs)[:, 0]
                ht = torch.tanh(torch.cat((c, s), -1) @ p["output.W_c"].T)
                hts.append(ht)
            ht = torch.stack(hts, 1)
        else:
            a = weights(p, scores(p, name, S, Hs, H), S, src_len, src_mask,
                        D, window, steps)
            ht = torch.tanh(torch.cat((a @ Hs, S), -1) @ p["output.W_c"].T)
        logits = ht @ p["output.W_s"].T
        loss, per[name] = cross_entropy(logits, gold, mask)
        total = total + loss
    return total, per


def forward_bahdanau(p, data, scorers, H, D, window):
    """forward() for Bahdanau's architecture (train_ref.forward_bahdanau)
    through the window, whose query is s_{t-1}."""
    src, src_len, src_mask, inputs, gold, mask = data[:6]
    B, N = src.shape
    x = p["source"][src]
    hf = torch.zeros(B, H // 2, dtype=torch.float64)
    fwd = []
    for i in range(N):
        hf = train_ref.rnn(p, "forward", x[:, i], hf)
        fwd.append(hf)
    hb = torch.zeros(B, H // 2, dtype=torch.float64)
    bwd = [None] * N
    for i in range(N - 1, -1, -1):   # from each sentence's own last word
        new = train_ref.rnn(p, "backward", x[:, i], hb)
        hb = torch.where(src_mask[:, i:i + 1], new, hb)
        bwd[i] = hb
    Hs = torch.cat((torch.stack(fwd, 1), torch.stack(bwd, 1)), -1)
    s0 = torch.tanh(bwd[0] @ p["decoder.W_init"].T)
    y = p["target"][inputs]
    steps = torch.arange(1, inputs.shape[1] + 1)
    total, per = 0.0, {}
    for name in scorers:
        s, logits, prev = s0, [], one_hot_first(B, N)
        for t in range(inputs.shape[1]):
            q = s[:, None]                                   # s_{t-1}
            a = weights(p, scores(p, name, q, Hs, H, prev[:, None]), q,
                        src_len, src_mask, D, window, steps[t:t + 1])
            prev = a[:, 0]
            c = (a @ Hs)[:, 0]
            s = torch.tanh(y[:, t] @ p["decoder.W_y"].T
                           + s @ p["decoder.W_s"].T
                           + c @ p["decoder.W_c"].T + p["decoder.b"][0])
            logits.append(torch.cat((s, c, y[:, t]), -1) @ p["output.W_o"].T)
        logits = torch.stack(logits, 1)
        loss, per[name] = cross_entropy(logits, gold, mask)
        total = total + loss
    return total, per


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--init", required=True)
    ap.add_argument("--pairs", required=True)
    ap.add_argument("--epochs", type=int, default=3000)
    ap.add_argument("--window", choices=WINDOWS, default="auto")
    ap.add_argument("--window-size", type=int, default=1)
    ap.add_argument("--scorer", default=",".join(SCORERS))
    ap.add_argument("--lr", type=float, default=0.01)
    ap.add_argument("--weight-decay", type=float, default=0.2)
    ap.add_argument("--clip", type=float, default=5.0)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--compare", metavar="C.model")
    ap.add_argument("--tolerance", type=float, default=1e-12)
    args = ap.parse_args(argv)
    torch.set_num_threads(args.threads)

    model = train_ref.read_model(args.init)
    feed = feeding(args.init)
    words = model["target.words"]
    pairs = train_ref.read_pairs(args.pairs, model["source.words"], words)
    data = train_ref.batch(pairs, words.index("<s>"), words.index("</s>"))
    p = parameters(model)
    params = list(p.values())
    opt = torch.optim.AdamW(params, lr=args.lr, betas=(0.9, 0.999),
                            eps=1e-8, weight_decay=args.weight_decay)
    D = args.window_size
    window = args.window
    if window == "auto":
        window = "local-p" if "local-p.W_p" in p else "global"
    scorers = (train_ref.SCORERS if args.scorer == "all"
               else tuple(args.scorer.split(",")))
    if model["arch"] == "bahdanau":
        def fwd():
            return forward_bahdanau(p, data, scorers, model["H"], D, window)
    else:
        def fwd():
            return forward(p, data, scorers, model["H"], D, feed, window)

    start, cpu = time.perf_counter(), time.process_time()
    for _ in range(args.epochs):
        opt.zero_grad()
        loss, _ = fwd()
        loss.backward()
        train_ref.clip_(params, args.clip)
        opt.step()
    seconds = time.perf_counter() - start
    cpu = time.process_time() - cpu

    with torch.no_grad():
        loss, per = fwd()
    return train_ref.finish(p, per, args.epochs, seconds, cpu,
                            args.compare, args.tolerance)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
