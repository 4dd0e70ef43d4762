#!/usr/bin/env python3
"""hard_ref.py: "attn-trace train --hard" done again in PyTorch.

Usage:
    hard_ref.py --init INIT.model --pairs FILE [--epochs N] [--seed N]
                [--scorer LIST] [--lr X] [--weight-decay X] [--clip X]
                [--threads N]

The same algorithm as src/train.c's train --hard (doc/training.md,
doc/model.md "Learning it"), in Luong's architecture, on the CPU in double
precision, full batch:

  - each teacher-forced step draws u from SplitMix64 (state --seed at the
    start, one number a step in the order epoch, pair, scorer, step: the
    trainer's order), and l is the first j with u < α_1 + .. + α_j;
  - the context is h_l; the loss is the mean of -R = -log p(y_t | l);
  - the gradient is autograd's through h_l, plus, on the scores, the
    score-function and entropy terms, through the surrogate
    -(1/N) Σ [λ_r (R - b) log α_l + λ_e H(α)] with R and b held constant;
  - b, one per scorer, b <- 0.9 b + 0.1 R after every step from 0, carried
    across pairs and epochs (computed per epoch in closed form);
  - the gradient clipped to a global norm, then AdamW.

The u's are drawn before the clock starts, so both programs use the very
same numbers.  After training, one more pass with the next u's measures
the loss, as attn-trace does.  It starts from INIT.model, the weights
"attn-trace train --epochs=0" writes, and reuses train_ref.py's readers.
It prints "epochs N seconds S cpu C loss L accuracy A".
"""

import argparse
import math
import os
import sys
import time

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from train_ref import batch, clip_, parameters, read_model, read_pairs, rnn  # noqa: E402

SCORERS = ("dot", "general", "concat")  # the registry's order
LAMBDA_R, LAMBDA_E, DECAY = 0.1, 0.002, 0.9
MASK64 = (1 << 64) - 1


def draws(seed, epochs, pairs, scorers, T):
    """The u's of each pass (epochs + 1 of them), a (S, B, T) tensor each,
    drawn by SplitMix64 in the trainer's order."""
    state, out = seed, []
    for _ in range(epochs + 1):
        U = torch.zeros(len(scorers), len(pairs), T, dtype=torch.float64)
        for b, pair in enumerate(pairs):
            tgt = pair[1]
            for s in range(len(scorers)):
                for t in range(len(tgt) + 1):
                    state = (state + 0x9E3779B97F4A7C15) & MASK64
                    z = state
                    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
                    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
                    z ^= z >> 31
                    U[s, b, t] = (z >> 11) * 2.0 ** -53
        out.append(U)
    return out


def forward(p, data, scorers, H, U, base, decay):
    """The objective (loss + surrogate) and, per scorer, (mean loss,
    right); updates base (the baselines) in place."""
    src, src_len, src_mask, inputs, gold, mask = data[:6]
    B, N = src.shape
    x = p["source"][src]
    h = torch.zeros(B, H, dtype=torch.float64)
    states = []
    for i in range(N):
        new = rnn(p, "encoder", x[:, i], h)
        h = torch.where(src_mask[:, i:i + 1], new, h)
        states.append(new)
    Hs = torch.stack(states, 1)
    y = p["target"][inputs]
    s, S = h, []
    for t in range(inputs.shape[1]):
        s = rnn(p, "decoder", y[:, t], s)
        S.append(s)
    S = torch.stack(S, 1)
    valid = mask.bool()
    ntok = mask.sum()
    pow0, M = decay
    total, per = 0.0, {}
    for k, name in enumerate(scorers):
        if name == "dot":
            e = S @ Hs.transpose(1, 2)
        elif name == "general":
            e = S @ (Hs @ p["general.W"].T).transpose(1, 2)
        else:
            W = p["concat.W"]
            u = (S @ W[:, :H].T)[:, :, None, :] + (Hs @ W[:, H:].T)[:, None]
            e = torch.tanh(u) @ p["concat.v"][0]
        e = e.masked_fill(~src_mask[:, None, :], -math.inf)
        alpha = torch.softmax(e, -1)
        with torch.no_grad():
            cum = torch.cumsum(alpha, -1)
            hit = U[k][..., None] < cum
            l = torch.where(hit.any(-1), hit.int().argmax(-1),
                            (src_len - 1)[:, None].expand_as(hit[..., 0]))
        c = Hs.gather(1, l[..., None].expand(-1, -1, H))
        ht = torch.tanh(torch.cat((c, S), -1) @ p["output.W_c"].T)
        logits = ht @ p["output.W_s"].T
        R = torch.log_softmax(logits, -1).gather(-1, gold[..., None])[..., 0]
        loss = -(R * mask).sum() / ntok
        # the baselines before each step, in the order pairs, steps
        with torch.no_grad():
            r = R[valid]
            b = pow0 * base[k] + M @ r
            base[k] = DECAY * b[-1] + (1 - DECAY) * r[-1]
            adv = torch.zeros_like(R)
            adv[valid] = r - b
        loga = torch.log_softmax(e, -1)
        logal = loga.gather(-1, l[..., None])[..., 0]
        ent = -(alpha * torch.where(alpha > 0, loga, torch.zeros_like(loga))).sum(-1)
        surrogate = -((LAMBDA_R * adv * logal + LAMBDA_E * ent) * mask).sum() / ntok
        right = ((logits.argmax(-1) == gold).double() * mask).sum()
        total = total + loss + surrogate
        per[name] = (loss.item(), right.item(), ntok.item())
    return total, per


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--init", required=True)
    ap.add_argument("--pairs", required=True)
    ap.add_argument("--epochs", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--scorer", default="dot,general,concat")
    ap.add_argument("--lr", type=float, default=0.01)
    ap.add_argument("--weight-decay", type=float, default=0.2)
    ap.add_argument("--clip", type=float, default=5.0)
    ap.add_argument("--threads", type=int, default=1)
    args = ap.parse_args(argv)
    torch.set_num_threads(args.threads)
    scorers = [s for s in SCORERS if s in args.scorer.split(",")]

    model = read_model(args.init)
    words = model["target.words"]
    pairs = read_pairs(args.pairs, model["source.words"], words)
    data = batch(pairs, words.index("<s>"), words.index("</s>"))
    K = int(data[5].sum())
    k = torch.arange(K, dtype=torch.float64)
    pow0 = DECAY ** k
    diff = k[:, None] - k[None, :] - 1
    M = torch.where(diff >= 0, (1 - DECAY) * DECAY ** diff.clamp_min(0),
                    torch.zeros(K, K, dtype=torch.float64))
    Us = draws(args.seed, args.epochs, pairs, scorers, data[3].shape[1])
    p = parameters(model)
    params = list(p.values())
    opt = torch.optim.AdamW(params, lr=args.lr, betas=(0.9, 0.999),
                            eps=1e-8, weight_decay=args.weight_decay)
    base = [0.0] * len(scorers)

    start, cpu = time.perf_counter(), time.process_time()
    for epoch in range(args.epochs):
        opt.zero_grad()
        total, _ = forward(p, data, scorers, model["H"], Us[epoch], base,
                           (pow0, M))
        total.backward()
        clip_(params, args.clip)
        opt.step()
    seconds = time.perf_counter() - start
    cpu = time.process_time() - cpu

    with torch.no_grad():
        _, per = forward(p, data, scorers, model["H"], Us[args.epochs], base,
                         (pow0, M))
    mean = sum(v[0] for v in per.values()) / len(per)
    acc = sum(v[1] / v[2] for v in per.values()) / len(per)
    print("epochs %d seconds %.6f cpu %.6f loss %.9f accuracy %.4f"
          % (args.epochs, seconds, cpu, mean, acc))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
