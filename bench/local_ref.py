#!/usr/bin/env python3
"""local_ref.py: "attn-trace train --window=local-p" and "attn-trace train
--input-feeding" (Luong's architecture), done again in PyTorch.

Usage:
    local_ref.py --init INIT.model --pairs FILE [--epochs N]
                 [--window-size D] [--lr X] [--weight-decay X] [--clip X]
                 [--threads N]

INIT.model is what "attn-trace train --epochs=0" writes for a seed, with
the same options as the timed run: with [local-p.W_p] and [local-p.v_p] it
trains through local-p with half-width D (--window-size, default 1); with
the line "input-feeding yes" the decoder reads [y_{t-1}; h~_{t-1}],
h~_0 = 0.  The scorers are dot, general and concat; the loss, the clipping
and AdamW are those of bench/train_ref.py (whose files and batch helpers
it borrows), so both programs start from the same numbers and should end at
about the same loss.

local-p, per pair and step (doc/model.md):
    p_t = 1 + (n - 1) sigma(v_p . tanh(W_p s_t))
    window = floor(p_t) - D .. floor(p_t) + D, within 1 .. n
    a_t,j = softmax over the window (e_t)_j * exp(-(j - p_t)^2 / (2 (D/2)^2))
The whole batch at once: a mask for each pair's window, the floor taken
without a gradient, as in attn-trace.

It prints the same line as train_ref.py; bench/run-train runs it.
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


def weights(p, e, S, src_len, src_mask, D):
    """The attention weights from the scores e (B, T, N) with the queries
    S (B, T, H): the softmax, or local-p's when the model has W_p."""
    e = e.masked_fill(~src_mask[:, None, :], -math.inf)
    if "local-p.W_p" not in p:
        return torch.softmax(e, -1)
    n = src_len.to(torch.float64)[:, None]                     # (B, 1)
    v = torch.tanh(S @ p["local-p.W_p"].T) @ p["local-p.v_p"][0]  # (B, T)
    pos = 1.0 + (n - 1.0) * torch.sigmoid(v)
    centre = torch.floor(pos.detach())
    j = torch.arange(1, e.shape[-1] + 1, dtype=torch.float64)
    inside = ((j >= centre[..., None] - D) & (j <= centre[..., None] + D)
              & src_mask[:, None, :])
    align = torch.softmax(e.masked_fill(~inside, -math.inf), -1)
    sigma = D / 2.0
    gauss = torch.exp(-(j - pos[..., None]) ** 2 / (2 * sigma * sigma))
    return align * gauss


def scores(p, name, S, Hs, H):
    """e (B, T, N) of the queries S (B, T, H) against Hs (B, N, H)."""
    if name == "dot":
        return S @ Hs.transpose(1, 2)
    if name == "general":
        return S @ (Hs @ p["general.W"].T).transpose(1, 2)
    W = p["concat.W"]
    u = (S @ W[:, :H].T)[:, :, None, :] + (Hs @ W[:, H:].T)[:, None]
    return torch.tanh(u) @ p["concat.v"][0]


def forward(p, data, scorers, H, D, feed):
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
    if not feed:  # the states are the scorers' common ground
        s, S = h, []
        for t in range(T):
            s = train_ref.rnn(p, "decoder", y[:, t], s)
            S.append(s)
        S = torch.stack(S, 1)
    total, per = 0.0, {}
    ntok = mask.sum()
    for name in scorers:
        if feed:  # each step reads the h~ of the one before
            s, ht = h, torch.zeros(B, H, dtype=torch.float64)
            hts = []
            for t in range(T):
                s = train_ref.rnn(p, "decoder",
                                  torch.cat((y[:, t], ht), -1), s)
                q = s[:, None, :]
                a = weights(p, scores(p, name, q, Hs, H), q, src_len,
                            src_mask, D)
                c = (a @ Hs)[:, 0]
                ht = torch.tanh(torch.cat((c, s), -1) @ p["output.W_c"].T)
                hts.append(ht)
            ht = torch.stack(hts, 1)
        else:
            a = weights(p, scores(p, name, S, Hs, H), S, src_len, src_mask,
                        D)
            ht = torch.tanh(torch.cat((a @ Hs, S), -1) @ p["output.W_c"].T)
        logits = ht @ p["output.W_s"].T
        logp = torch.log_softmax(logits, -1)
        ce = -logp.gather(-1, gold[..., None])[..., 0]
        loss = (ce * mask).sum() / ntok
        right = ((logits.argmax(-1) == gold).double() * mask).sum()
        total = total + loss
        per[name] = (loss.item(), right.item(), ntok.item())
    return total, per


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--init", required=True)
    ap.add_argument("--pairs", required=True)
    ap.add_argument("--epochs", type=int, default=3000)
    ap.add_argument("--window-size", type=int, default=1)
    ap.add_argument("--lr", type=float, default=0.01)
    ap.add_argument("--weight-decay", type=float, default=0.2)
    ap.add_argument("--clip", type=float, default=5.0)
    ap.add_argument("--threads", type=int, default=1)
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

    start, cpu = time.perf_counter(), time.process_time()
    for _ in range(args.epochs):
        opt.zero_grad()
        loss, _ = forward(p, data, SCORERS, model["H"], D, feed)
        loss.backward()
        train_ref.clip_(params, args.clip)
        opt.step()
    seconds = time.perf_counter() - start
    cpu = time.process_time() - cpu

    with torch.no_grad():
        loss, per = forward(p, data, SCORERS, model["H"], D, feed)
    mean = sum(v[0] for v in per.values()) / len(per)
    acc = sum(v[1] / v[2] for v in per.values()) / len(per)
    print("epochs %d seconds %.6f cpu %.6f loss %.9f accuracy %.4f"
          % (args.epochs, seconds, cpu, mean, acc))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
