#!/usr/bin/env python3
"""hard_ref.py: "attn-trace train --hard" done again in PyTorch.

Usage:
    hard_ref.py --init INIT.model --pairs FILE [--epochs N] [--seed N]
                [--scorer LIST|all] [--align-weight X] [--lr X]
                [--window global|local-m|local-p] [--window-size D]
                [--weight-decay X] [--clip X] [--threads N]

The same algorithm as src/train.c's train --hard (doc/training.md,
doc/model.md "Learning it"), on the CPU in double precision, full batch,
with every scorer of train_ref.py and in the architecture of INIT.model:
Luong's (location-aware reads the soft weights alpha_{t-1}, step by step)
or Bahdanau's (each step scores s_{t-1}, draws, and the decoder RNN and
the output read c_t = h_l, so the later steps depend on the draws), with
input feeding when INIT.model has it (the decoder reads [y; h~_{t-1}],
h~_{t-1} made with the drawn h_l), and through local-m's window or
local-p's (whose weights a = align * Gaussian sum to less than 1: l is
drawn from pi = a / sum a, and the surrogate below has pi for alpha,
written as the log-softmax over the window of z_j = e_j - (j - p_t)^2 /
(2 sigma^2), so that autograd takes its gradient to the scores and,
through p_t = 1 + (n - 1) sigmoid(v_p . tanh(W_p q)), to W_p, v_p and the
query q; floor(p_t), the window's place, is held constant):

  - each teacher-forced step draws u from SplitMix64 (state --seed at the
    start, one number a step in the order epoch, pair, scorer, step: the
    trainer's order), and l is the first j with u < α_1 + .. + α_j;
  - the context is h_l; the loss is the mean of -R = -log p(y_t | l)
    (plus --align-weight times the guided-alignment term);
  - the gradient is autograd's through h_l (and in Bahdanau's through the
    decoder over time), plus, on the scores, the
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
from train_ref import (SCORERS, align_loss, batch, clip_,  # noqa: E402
                       fields_of, parameters, read_model, read_pairs, rnn,
                       score)

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


def draw(alpha, u, src_len):
    """l (B,) or (B, T) from the weights alpha (B, N) or (B, T, N) and the
    u's (B,) or (B, T): the first j with u < alpha_1 + .. + alpha_j, or
    the sentence's last word."""
    with torch.no_grad():
        hit = u[..., None] < torch.cumsum(alpha, -1)
        last = (src_len - 1).reshape((-1,) + (1,) * (u.dim() - 1))
        return torch.where(hit.any(-1), hit.int().argmax(-1),
                           last.expand_as(u))


def encode(p, data, arch, H):
    """The encoder states Hs (B, N, H) and the decoder's s_0 (B, H)."""
    src, src_len, src_mask = data[:3]
    B, N = src.shape
    x = p["source"][src]
    if arch == "bahdanau":
        D = H // 2
        hf, fwd = torch.zeros(B, D, dtype=torch.float64), []
        for i in range(N):
            hf = rnn(p, "forward", x[:, i], hf)
            fwd.append(hf)
        hb, bwd = torch.zeros(B, D, dtype=torch.float64), [None] * N
        for i in range(N - 1, -1, -1):  # from each sentence's last word
            new = rnn(p, "backward", x[:, i], hb)
            hb = torch.where(src_mask[:, i:i + 1], new, hb)
            bwd[i] = hb
        Hs = torch.cat((torch.stack(fwd, 1), torch.stack(bwd, 1)), -1)
        return Hs, torch.tanh(bwd[0] @ p["decoder.W_init"].T)
    h, states = torch.zeros(B, H, dtype=torch.float64), []
    for i in range(N):
        new = rnn(p, "encoder", x[:, i], h)
        h = torch.where(src_mask[:, i:i + 1], new, h)
        states.append(new)
    return torch.stack(states, 1), h


def local_m(src_len, N, t0, T, D):
    """The local-m windows (B, T, N) of steps t0 + 1 .. t0 + T: True for
    j in min(t, n) - D .. min(t, n) + D within 1 .. n; None: global."""
    if D is None:
        return None
    t = torch.arange(t0 + 1, t0 + T + 1)[None, :, None]
    centre = torch.minimum(t, src_len[:, None, None])
    j = torch.arange(1, N + 1)[None, None, :]
    return ((j >= centre - D) & (j <= centre + D)
            & (j <= src_len[:, None, None]))


def weights(p, name, Q, Hs, H, src_mask, prev, inside=None, lp=None):
    """(z, a, d): the logits z (B, T, N) of the distribution d the draw is
    made from, and the window's weights a; prev (B, T, N) for
    location-aware.  Global and local-m (inside: the window): z is e,
    masked to the sentence or the window, and d = a = softmax(z).
    local-p (lp: (src_len, D)): a = align * exp(-(j - p)^2 / (2 sigma^2))
    over floor(p) - D .. floor(p) + D within 1 .. n, and z = e - (j -
    p)^2 / (2 sigma^2) there, so that d = softmax(z) = a / sum a."""
    e = score(p, name, Q, Hs, H, prev)
    if lp is not None:
        src_len, D = lp
        N = e.shape[-1]
        n = src_len[:, None].double()
        v = torch.tanh(Q @ p["local-p.W_p"].T) @ p["local-p.v_p"][0]
        pos = 1 + (n - 1) * torch.sigmoid(v)                  # (B, T)
        centre = torch.floor(pos.detach())[..., None]
        j = torch.arange(1, N + 1, dtype=torch.float64)[None, None, :]
        inside = ((j >= centre - D) & (j <= centre + D)
                  & (j <= src_len[:, None, None]))
        e = e.masked_fill(~inside, -math.inf)
        sq = (j - pos[..., None]) ** 2 / (2 * (D / 2.0) ** 2)
        a = torch.softmax(e, -1) * torch.exp(-sq)
        return e - sq, a, torch.softmax(e - sq, -1)
    e = e.masked_fill(~src_mask[:, None, :] if inside is None else ~inside,
                      -math.inf)
    a = torch.softmax(e, -1)
    return e, a, a


def drawn(a, d, lp):
    """What the draw reads: local-p's a / sum a, summed and divided as the
    trainer does (no gradient flows through a draw); else d."""
    if lp is None:
        return d
    with torch.no_grad():
        return a / a.sum(-1, keepdim=True)


def decode_feed(p, name, Hs, s0, data, H, U, D, lp=None):
    """Luong's with input feeding: the decoder reads [y_{t-1}; h~_{t-1}],
    h~_0 = 0, and h~_{t-1} was made with c_{t-1} = h_l, so each step runs
    after the draws before it."""
    src_len, src_mask, inputs = data[1], data[2], data[3]
    B, N = src_mask.shape
    y = p["target"][inputs]
    s, ht = s0, torch.zeros(B, H, dtype=torch.float64)
    prev = torch.zeros(B, N, dtype=torch.float64)
    prev[:, 0] = 1.0
    es, alphas, ds, ls, logits = [], [], [], [], []
    for t in range(inputs.shape[1]):
        s = rnn(p, "decoder", torch.cat((y[:, t], ht), -1), s)
        e, a, d = weights(p, name, s[:, None], Hs, H, src_mask,
                          prev[:, None], local_m(src_len, N, t, 1, D), lp)
        prev = a[:, 0]
        l = draw(drawn(a, d, lp)[:, 0], U[:, t], src_len)
        c = Hs[torch.arange(B), l]
        ht = torch.tanh(torch.cat((c, s), -1) @ p["output.W_c"].T)
        logits.append(ht @ p["output.W_s"].T)
        es.append(e[:, 0])
        alphas.append(prev)
        ds.append(d[:, 0])
        ls.append(l)
    return (torch.stack(es, 1), torch.stack(alphas, 1), torch.stack(ls, 1),
            torch.stack(logits, 1), torch.stack(ds, 1))


def states(p, s0, inputs):
    """Luong's teacher-forced decoder states (B, T, H), without input
    feeding the same for every scorer."""
    y = p["target"][inputs]
    s, S = s0, []
    for t in range(inputs.shape[1]):
        s = rnn(p, "decoder", y[:, t], s)
        S.append(s)
    return torch.stack(S, 1)


def decode_luong(p, name, Hs, S, data, H, U, D=None, lp=None):
    """Luong's, from the decoder states S: e, alpha (step by step for
    location-aware, which reads the soft alpha_{t-1}), the draws, and the
    logits with c_t = h_l."""
    src_len, src_mask = data[1], data[2]
    B, N = src_mask.shape
    if name != "location-aware":
        e, alpha, d = weights(p, name, S, Hs, H, src_mask, None,
                              local_m(src_len, N, 0, S.shape[1], D), lp)
    else:
        prev = torch.zeros(B, N, dtype=torch.float64)
        prev[:, 0] = 1.0
        es, alphas, ds = [], [], []
        for t in range(S.shape[1]):
            e, a, d = weights(p, name, S[:, t:t + 1], Hs, H, src_mask,
                              prev[:, None], local_m(src_len, N, t, 1, D),
                              lp)
            prev = a[:, 0]
            es.append(e[:, 0])
            alphas.append(prev)
            ds.append(d[:, 0])
        e, alpha = torch.stack(es, 1), torch.stack(alphas, 1)
        d = torch.stack(ds, 1)
    l = draw(drawn(alpha, d, lp), U, src_len)
    c = Hs.gather(1, l[..., None].expand(-1, -1, H))
    ht = torch.tanh(torch.cat((c, S), -1) @ p["output.W_c"].T)
    return e, alpha, l, ht @ p["output.W_s"].T, d


def decode_bahdanau(p, name, Hs, s0, data, H, U, D=None, lp=None):
    """Bahdanau's: each step scores s_{t-1}, draws l, and the RNN and the
    output read c_t = h_l, so s_t carries the draws."""
    src_len, src_mask, inputs = data[1], data[2], data[3]
    B, N = src_mask.shape
    y = p["target"][inputs]
    s = s0
    prev = torch.zeros(B, N, dtype=torch.float64)
    prev[:, 0] = 1.0
    es, alphas, ds, ls, logits = [], [], [], [], []
    for t in range(inputs.shape[1]):
        e, a, d = weights(p, name, s[:, None], Hs, H, src_mask,
                          prev[:, None], None, lp)
        prev = a[:, 0]
        ds.append(d[:, 0])
        l = draw(drawn(a, d, lp)[:, 0], U[:, t], src_len)
        c = Hs[torch.arange(B), l]
        s = torch.tanh(y[:, t] @ p["decoder.W_y"].T + s @ p["decoder.W_s"].T
                       + c @ p["decoder.W_c"].T + p["decoder.b"][0])
        logits.append(torch.cat((s, c, y[:, t]), -1) @ p["output.W_o"].T)
        es.append(e[:, 0])
        alphas.append(prev)
        ls.append(l)
    return (torch.stack(es, 1), torch.stack(alphas, 1), torch.stack(ls, 1),
            torch.stack(logits, 1), torch.stack(ds, 1))


def forward(p, data, scorers, H, U, base, decay, arch="luong", lam=0.0,
            feed=False, D=None, lp=None):
    """The objective (loss + surrogate) and, per scorer, (mean loss,
    right); updates base (the baselines) in place.  D: local-m's
    half-width, None for the global window; lp: (src_len, D) for
    local-p."""
    gold, mask, align, linked = data[4:8]
    valid = mask.bool()
    ntok = mask.sum()
    pow0, M = decay
    Hs, s0 = encode(p, data, arch, H)
    dec = (decode_bahdanau if arch == "bahdanau" else
           decode_feed if feed else decode_luong)
    if dec is decode_luong:
        s0 = states(p, s0, data[3])  # what it decodes from
    total, per = 0.0, {}
    for k, name in enumerate(scorers):
        e, alpha, l, logits, d = dec(p, name, Hs, s0, data, H, U[k], D, lp)
        R = torch.log_softmax(logits, -1).gather(-1, gold[..., None])[..., 0]
        ce = -R
        if lam:
            ce = ce + lam * align_loss(alpha, align, linked)
        loss = (ce * mask).sum() / ntok
        # the baselines before each step, in the order pairs, steps
        with torch.no_grad():
            r = R[valid]
            b = pow0 * base[k] + M @ r
            base[k] = DECAY * b[-1] + (1 - DECAY) * r[-1]
            adv = torch.zeros_like(R)
            adv[valid] = r - b
        loga = torch.log_softmax(e, -1)
        logal = loga.gather(-1, l[..., None])[..., 0]
        ent = -(d * torch.where(d > 0, loga, torch.zeros_like(loga))).sum(-1)
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
    ap.add_argument("--align-weight", type=float, default=0.0)
    ap.add_argument("--window", choices=("global", "local-m", "local-p"),
                    default="global")
    ap.add_argument("--window-size", type=int, default=1)
    ap.add_argument("--threads", type=int, default=1)
    args = ap.parse_args(argv)
    torch.set_num_threads(args.threads)
    wanted = SCORERS if args.scorer == "all" else args.scorer.split(",")
    scorers = [s for s in SCORERS if s in wanted]  # the registry's order

    model = read_model(args.init)
    feed = any(f[:2] == ["input-feeding", "yes"]
               for _, f in fields_of(args.init))
    D = args.window_size if args.window == "local-m" else None
    lp_D = args.window_size if args.window == "local-p" else None
    words = model["target.words"]
    pairs = read_pairs(args.pairs, model["source.words"], words)
    data = batch(pairs, words.index("<s>"), words.index("</s>"))
    lp = (data[1], lp_D) if lp_D is not None else None
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
                           (pow0, M), model["arch"], args.align_weight,
                           feed, D, lp)
        total.backward()
        clip_(params, args.clip)
        opt.step()
    seconds = time.perf_counter() - start
    cpu = time.process_time() - cpu

    with torch.no_grad():
        _, per = forward(p, data, scorers, model["H"], Us[args.epochs], base,
                         (pow0, M), model["arch"], args.align_weight,
                         feed, D, lp)
    mean = sum(v[0] for v in per.values()) / len(per)
    acc = sum(v[1] / v[2] for v in per.values()) / len(per)
    print("epochs %d seconds %.6f cpu %.6f loss %.9f accuracy %.4f"
          % (args.epochs, seconds, cpu, mean, acc))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
