#!/usr/bin/env python3
"""train_ref.py: the training of "attn-trace train", done again in PyTorch.

Usage:
    train_ref.py --init INIT.model --pairs FILE [--epochs N] [--scorer S,..]
                 [--align-weight X] [--lr X] [--weight-decay X] [--clip X]
                 [--threads N] [--trace] [--compare C.model [--tolerance X]]

The scorers are dot, general, concat, scaled, location, additive and
location-aware ("all": every one), with the guided-alignment term of
--align-weight, as doc/training.md defines them.  --trace prints the loss
before each epoch and, at the end, every block of weights to 17 digits.

INIT.model may be of Bahdanau's architecture (its line "architecture
bahdanau"): then the encoder is bidirectional, s_0 = tanh(W_init <-h_1),
each step attends with s_{t-1} and the decoder reads [y; c], and the
output reads [s_t; c_t; y_{t-1}] (doc/model.md).

The same model (doc/model.md), the same loss and the same optimiser as
src/train.c, on the CPU in double precision: the cross-entropy of every
teacher-forced prediction, the mean per prediction summed over the scorers;
full batch; the gradient clipped to a global norm; Adam with decoupled
weight decay, as torch.optim.AdamW does it.  It starts from INIT.model, the
weights "attn-trace train --epochs=0" writes for a seed, so both programs
start from the same numbers and should end at about the same loss.

It is written for speed the way one would write it in PyTorch: the pairs
are padded into one batch, and each RNN step, each scorer and the output
are a few tensor operations for the whole batch at once.

It prints one line of "key value" pairs: the epochs, the wall and CPU
seconds the training loop took (without loading torch and the files), the
final loss
(mean cross-entropy per prediction, averaged over the scorers, as
attn-trace prints it) and the token accuracy.  bench/run-train runs it.
With --compare, it also reads C.model, what attn-trace trained from
INIT.model with the same options for the same epochs, prints the largest
difference of a weight (and its block), and exits 1 if it exceeds
--tolerance (default 1e-12, absolute, or relative for a weight above 1).
"""

import argparse
import math
import sys
import time

import torch

SCORERS = ("dot", "general", "concat", "scaled", "location", "additive",
           "location-aware")


# ------------------------------------------------------------------ files

def fields_of(path):
    """(line number, fields) of each line of path that holds something."""
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, start=1):
            line = line.split("#", 1)[0].strip()
            if line:
                yield number, line.split()


def read_model(path):
    """The sizes, the vocabularies and every block of a model file, as
    lists; lenient, for the files attn-trace writes."""
    lines = list(fields_of(path))
    assert lines[0][1] == ["attn-trace-model", "1"], "not a model file"
    E, H, A = (int(lines[k][1][1]) for k in (1, 2, 3))
    sections, current = {}, None
    arch = "luong"
    for _, fields in lines[4:]:
        if fields[0] == "architecture":
            arch = fields[1]
            continue
        if current is None and not fields[0].startswith("["):
            continue  # "positions L"
        if len(fields) == 1 and fields[0].startswith("["):
            current = fields[0][1:-1]
            sections[current] = []
        else:
            sections[current].append(fields)
    model = {"E": E, "H": H, "A": A, "arch": arch}
    out = "output.W_o" if arch == "bahdanau" else "output.W_s"
    for name in ("source", "target", out):
        model[name + ".words"] = [row[0] for row in sections[name]]
        model[name] = [[float(x) for x in row[1:]] for row in sections[name]]
    for name, rows in sections.items():
        if name not in ("source", "target", out):
            model[name] = [[float(x) for x in row] for row in rows]
    return model


def read_pairs(path, src_words, tgt_words):
    """Word indices of each pair, in the model's vocabularies."""
    src = {w.lower(): k for k, w in enumerate(src_words)}
    tgt = {w.lower(): k for k, w in enumerate(tgt_words)}
    pairs = []
    for _, fields in fields_of(path):
        parts = " ".join(fields).split("|||")
        links = None
        if len(parts) > 2:  # the gold alignment: source-target, from 1
            links = [tuple(int(k) for k in link.split("-"))
                     for link in parts[2].split()]
        pairs.append(([src[w.lower()] for w in parts[0].split()],
                      [tgt[w.lower()] for w in parts[1].split()], links))
    return pairs


# ------------------------------------------------------------------ model

def parameters(model):
    """Every block of the model file (the scorers' too: a file holds the
    weights of the scorers it was trained with) as a leaf tensor that
    requires a gradient."""
    return {name: torch.tensor(rows, dtype=torch.float64, requires_grad=True)
            for name, rows in model.items()
            if isinstance(rows, list) and not name.endswith(".words")}


def batch(pairs, bos, eos):
    """Padded index tensors and masks for the whole corpus, and the gold
    alignment: gold[b, t, i] = 1 when source word i + 1 is linked to the
    target word step t + 1 predicts, links[b, t] = 1 when it has links."""
    B = len(pairs)
    N = max(len(p[0]) for p in pairs)
    T = max(len(p[1]) for p in pairs) + 1
    src = torch.zeros(B, N, dtype=torch.long)
    src_len = torch.tensor([len(p[0]) for p in pairs])
    inputs = torch.zeros(B, T, dtype=torch.long)
    gold = torch.zeros(B, T, dtype=torch.long)
    mask = torch.zeros(B, T, dtype=torch.float64)
    align = torch.zeros(B, T, N, dtype=torch.float64)
    for b, (s, t, links) in enumerate(pairs):
        src[b, :len(s)] = torch.tensor(s)
        inputs[b, :len(t) + 1] = torch.tensor([bos] + t)
        gold[b, :len(t) + 1] = torch.tensor(t + [eos])
        mask[b, :len(t) + 1] = 1.0
        for i, j in links or ():
            align[b, j - 1, i - 1] = 1.0
    src_mask = torch.arange(N)[None, :] < src_len[:, None]
    linked = align.sum(-1) > 0
    return src, src_len, src_mask, inputs, gold, mask, align, linked


def score(p, name, Q, Hs, H, prev=None):
    """The scores (B, T, N) of the queries Q (B, T, H) against Hs (B, N, H);
    prev (B, T, N), the weights of the step before, for location-aware."""
    if name in ("dot", "scaled"):
        e = Q @ Hs.transpose(1, 2)
        return e / math.sqrt(H) if name == "scaled" else e
    if name == "general":
        return Q @ (Hs @ p["general.W"].T).transpose(1, 2)
    if name == "location":
        return Q @ p["location.W"][:Hs.shape[1]].T
    if name == "concat":
        W = p["concat.W"]
        u = (Q @ W[:, :H].T)[:, :, None, :] + (Hs @ W[:, H:].T)[:, None]
        return torch.tanh(u) @ p["concat.v"][0]
    if name == "additive":
        u = ((Q @ p["additive.W"].T)[:, :, None, :]
             + (Hs @ p["additive.U"].T)[:, None])
        return torch.tanh(u) @ p["additive.v"][0]
    # location-aware: f_t = F * alpha_{t-1}, a cross-correlation, "same"
    B, T, N = prev.shape
    f = torch.nn.functional.conv1d(prev.reshape(B * T, 1, N),
                                   p["location-aware.F"][:, None, :],
                                   padding=1)            # (B T, 2, N)
    f = f.reshape(B, T, 2, N).transpose(2, 3)            # (B, T, N, 2)
    u = ((Q @ p["location-aware.W"].T)[:, :, None, :]
         + (Hs @ p["location-aware.V"].T)[:, None]
         + f @ p["location-aware.U"].T + p["location-aware.b"][0])
    return torch.tanh(u) @ p["location-aware.w"][0]


def attend(p, name, Q, Hs, H, src_mask, prev=None):
    """alpha (B, T, N): the softmax of the scores over each sentence."""
    e = score(p, name, Q, Hs, H, prev)
    return torch.softmax(e.masked_fill(~src_mask[:, None, :], -math.inf), -1)


def align_loss(alpha, align, linked):
    """The guided-alignment term of each step (B, T): -log of the weight on
    the gold words, 0 for a step whose word has no link."""
    mass = (alpha * align).sum(-1)
    return -torch.log(torch.where(linked, mass, torch.ones_like(mass)))


def rnn(p, prefix, x, h):
    """One Elman step for the whole batch."""
    return torch.tanh(x @ p[prefix + ".W_x"].T + h @ p[prefix + ".W_h"].T
                      + p[prefix + ".b"][0])


def forward(p, data, scorers, H, lam):
    """The summed loss, and per scorer (mean loss, right predictions)."""
    src, src_len, src_mask, inputs, gold, mask, align, linked = data
    B, N = src.shape
    # step 1: the encoder; a state stops changing after the last word
    x = p["source"][src]
    h = torch.zeros(B, H, dtype=torch.float64)
    states = []
    for i in range(N):
        new = rnn(p, "encoder", x[:, i], h)
        h = torch.where(src_mask[:, i:i + 1], new, h)
        states.append(new)
    Hs = torch.stack(states, 1)                      # (B, N, H)
    # the decoder states, teacher-forced, from s_0 = h_n
    y = p["target"][inputs]
    s, S = h, []
    for t in range(inputs.shape[1]):
        s = rnn(p, "decoder", y[:, t], s)
        S.append(s)
    S = torch.stack(S, 1)                            # (B, T, H)
    total, per = 0.0, {}
    ntok = mask.sum()
    for name in scorers:
        # steps 2-3: the weights of every step against every h_i, at once,
        # or step by step for location-aware, which reads the last step's
        if name != "location-aware":
            alpha = attend(p, name, S, Hs, H, src_mask)
        else:
            prev = torch.zeros(B, N, dtype=torch.float64)
            prev[:, 0] = 1.0
            steps = []
            for t in range(S.shape[1]):
                prev = attend(p, name, S[:, t:t + 1], Hs, H, src_mask,
                              prev[:, None])[:, 0]
                steps.append(prev)
            alpha = torch.stack(steps, 1)
        # steps 4-5: context, h~ and the output
        c = alpha @ Hs
        ht = torch.tanh(torch.cat((c, S), -1) @ p["output.W_c"].T)
        logits = ht @ p["output.W_s"].T
        logp = torch.log_softmax(logits, -1)
        ce = -logp.gather(-1, gold[..., None])[..., 0]
        if lam:
            ce = ce + lam * align_loss(alpha, align, linked)
        loss = (ce * mask).sum() / ntok
        right = ((logits.argmax(-1) == gold).double() * mask).sum()
        total = total + loss
        per[name] = (loss.item(), right.item(), ntok.item())
    return total, per


def forward_bahdanau(p, data, scorers, H, lam):
    """forward() for Bahdanau's architecture: the decoder's states depend
    on attention, so each scorer runs its own, step by step."""
    src, src_len, src_mask, inputs, gold, mask, align, linked = data
    B, N = src.shape
    D = H // 2
    x = p["source"][src]
    hf = torch.zeros(B, D, dtype=torch.float64)
    fwd = []
    for i in range(N):
        hf = rnn(p, "forward", x[:, i], hf)
        fwd.append(hf)
    hb = torch.zeros(B, D, dtype=torch.float64)
    bwd = [None] * N
    for i in range(N - 1, -1, -1):   # from each sentence's own last word
        new = rnn(p, "backward", x[:, i], hb)
        hb = torch.where(src_mask[:, i:i + 1], new, hb)
        bwd[i] = hb
    Hs = torch.cat((torch.stack(fwd, 1), torch.stack(bwd, 1)), -1)
    s0 = torch.tanh(bwd[0] @ p["decoder.W_init"].T)
    return decode_bahdanau(p, data, scorers, H, lam, Hs, s0)


def decode_bahdanau(p, data, scorers, H, lam, Hs, s0):
    """forward_bahdanau()'s decoder from the states Hs (B, N, H) and s_0
    (B, H), whatever encoded them (bench/caption_ref.py's patches too)."""
    src, src_len, src_mask, inputs, gold, mask, align, linked = data
    B, N = src.shape
    y = p["target"][inputs]
    total, per = 0.0, {}
    ntok = mask.sum()
    for name in scorers:
        s, logits, alphas = s0, [], []
        prev = torch.zeros(B, N, dtype=torch.float64)
        prev[:, 0] = 1.0
        for t in range(inputs.shape[1]):
            alpha = attend(p, name, s[:, None], Hs, H, src_mask,
                           prev[:, None])                # (B, 1, N)
            prev = alpha[:, 0]
            alphas.append(prev)
            c = (alpha @ Hs)[:, 0]
            s = torch.tanh(y[:, t] @ p["decoder.W_y"].T + s @ p["decoder.W_s"].T
                           + c @ p["decoder.W_c"].T + p["decoder.b"][0])
            logits.append(torch.cat((s, c, y[:, t]), -1) @ p["output.W_o"].T)
        logits = torch.stack(logits, 1)
        logp = torch.log_softmax(logits, -1)
        ce = -logp.gather(-1, gold[..., None])[..., 0]
        if lam:
            ce = ce + lam * align_loss(torch.stack(alphas, 1), align, linked)
        loss = (ce * mask).sum() / ntok
        right = ((logits.argmax(-1) == gold).double() * mask).sum()
        total = total + loss
        per[name] = (loss.item(), right.item(), ntok.item())
    return total, per


def clip_(params, clip):
    """Scales the gradients to global norm clip at most, as train.c does."""
    norm = math.sqrt(sum(float((q.grad * q.grad).sum()) for q in params))
    if clip > 0 and norm > clip:
        for q in params:
            q.grad.mul_(clip / norm)


def compare(p, path, tolerance):
    """The largest difference between the weights p and those of the model
    file at path, and its block; exit status 1 above tolerance."""
    other = read_model(path)
    worst, where = 0.0, None
    for name, q in p.items():
        theirs = torch.tensor(other[name], dtype=torch.float64)
        mine = q.detach()
        diff = float(((mine - theirs).abs()
                      / torch.clamp(theirs.abs(), min=1.0)).max())
        if diff > worst or where is None:
            worst, where = diff, name
    missing = sorted(set(k for k, v in other.items() if isinstance(v, list)
                         and not k.endswith(".words")) - set(p))
    print("largest difference from %s: %.3g in %s%s"
          % (path, worst, where,
             "; blocks it alone has: " + " ".join(missing) if missing
             else ""))
    return 0 if worst <= tolerance and not missing else 1


def finish(p, per, epochs, seconds, cpu, compare_to=None, tolerance=1e-12):
    """Prints the line of a reference's run (the epochs, the seconds of
    its training loop, the final loss and accuracy from per, forward()'s
    second value) and, with compare_to, compare()'s; its exit status."""
    mean = sum(v[0] for v in per.values()) / len(per)
    acc = sum(v[1] / v[2] for v in per.values()) / len(per)
    print("epochs %d seconds %.6f cpu %.6f loss %.9f accuracy %.4f"
          % (epochs, seconds, cpu, mean, acc))
    return compare(p, compare_to, tolerance) if compare_to else 0


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--init", required=True)
    ap.add_argument("--pairs", required=True)
    ap.add_argument("--epochs", type=int, default=3000)
    ap.add_argument("--scorer", default="all")
    ap.add_argument("--lr", type=float, default=0.01)
    ap.add_argument("--weight-decay", type=float, default=0.2)
    ap.add_argument("--clip", type=float, default=5.0)
    ap.add_argument("--align-weight", type=float, default=0.0)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--compare", metavar="C.model")
    ap.add_argument("--tolerance", type=float, default=1e-12)
    ap.add_argument("--trace", action="store_true",
                    help="print the loss before each epoch, and the weights")
    args = ap.parse_args(argv)
    torch.set_num_threads(args.threads)
    scorers = SCORERS if args.scorer == "all" else tuple(args.scorer.split(","))

    model = read_model(args.init)
    words = model["target.words"]
    pairs = read_pairs(args.pairs, model["source.words"], words)
    data = batch(pairs, words.index("<s>"), words.index("</s>"))
    p = parameters(model)
    params = list(p.values())
    opt = torch.optim.AdamW(params, lr=args.lr, betas=(0.9, 0.999),
                            eps=1e-8, weight_decay=args.weight_decay)

    fwd = forward_bahdanau if model["arch"] == "bahdanau" else forward
    start, cpu = time.perf_counter(), time.process_time()
    for _ in range(args.epochs):
        opt.zero_grad()
        loss, per = fwd(p, data, scorers, model["H"], args.align_weight)
        if args.trace:
            print("epoch %d loss %.17g" % (_, sum(v[0] for v in per.values())
                                           / len(per)))
        loss.backward()
        clip_(params, args.clip)
        opt.step()
    seconds = time.perf_counter() - start
    cpu = time.process_time() - cpu

    with torch.no_grad():
        loss, per = fwd(p, data, scorers, model["H"], args.align_weight)
    if args.trace:
        for name, q in p.items():
            print(name, " ".join("%.17g" % x for x in q.detach().flatten()))
    return finish(p, per, args.epochs, seconds, cpu, args.compare,
                  args.tolerance)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
