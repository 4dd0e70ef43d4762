#!/usr/bin/env python3
"""train_ref.py: the training of "attn-trace train", done again in PyTorch.

Usage:
    train_ref.py --init INIT.model --pairs FILE [--epochs N] [--scorer S]
                 [--lr X] [--weight-decay X] [--clip X] [--threads N]

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
"""

import argparse
import math
import sys
import time

import torch

SCORERS = ("dot", "general", "concat")


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
        line = " ".join(fields)
        left, right = line.split("|||")[:2]  # a third field: alignment
        pairs.append(([src[w.lower()] for w in left.split()],
                      [tgt[w.lower()] for w in right.split()]))
    return pairs


# ------------------------------------------------------------------ model

def parameters(model):
    """Every block as a leaf tensor that requires a gradient."""
    names = ("source", "target", "encoder.W_x", "encoder.W_h", "encoder.b",
             "decoder.W_x", "decoder.W_h", "decoder.b", "general.W",
             "concat.W", "concat.v", "output.W_c", "output.W_s")
    if model["arch"] == "bahdanau":
        names = ("source", "target", "forward.W_x", "forward.W_h",
                 "forward.b", "backward.W_x", "backward.W_h", "backward.b",
                 "decoder.W_init", "decoder.W_y", "decoder.W_s",
                 "decoder.W_c", "decoder.b", "general.W", "concat.W",
                 "concat.v", "output.W_o")
    return {name: torch.tensor(model[name], dtype=torch.float64,
                               requires_grad=True) for name in names}


def batch(pairs, bos, eos):
    """Padded index tensors and masks for the whole corpus."""
    B = len(pairs)
    N = max(len(s) for s, _ in pairs)
    T = max(len(t) for _, t in pairs) + 1
    src = torch.zeros(B, N, dtype=torch.long)
    src_len = torch.tensor([len(s) for s, _ in pairs])
    inputs = torch.zeros(B, T, dtype=torch.long)
    gold = torch.zeros(B, T, dtype=torch.long)
    mask = torch.zeros(B, T, dtype=torch.float64)
    for b, (s, t) in enumerate(pairs):
        src[b, :len(s)] = torch.tensor(s)
        inputs[b, :len(t) + 1] = torch.tensor([bos] + t)
        gold[b, :len(t) + 1] = torch.tensor(t + [eos])
        mask[b, :len(t) + 1] = 1.0
    src_mask = torch.arange(N)[None, :] < src_len[:, None]
    return src, src_len, src_mask, inputs, gold, mask


def rnn(p, prefix, x, h):
    """One Elman step for the whole batch."""
    return torch.tanh(x @ p[prefix + ".W_x"].T + h @ p[prefix + ".W_h"].T
                      + p[prefix + ".b"][0])


def forward(p, data, scorers, H):
    """The summed loss, and per scorer (mean loss, right predictions)."""
    src, src_len, src_mask, inputs, gold, mask = data
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
        # step 2: the scores e_t,i of every step against every h_i
        if name == "dot":
            e = S @ Hs.transpose(1, 2)
        elif name == "general":
            e = S @ (Hs @ p["general.W"].T).transpose(1, 2)
        else:
            W = p["concat.W"]
            u = (S @ W[:, :H].T)[:, :, None, :] + (Hs @ W[:, H:].T)[:, None]
            e = torch.tanh(u) @ p["concat.v"][0]
        e = e.masked_fill(~src_mask[:, None, :], -math.inf)
        # steps 3-5: softmax, context, h~ and the output
        alpha = torch.softmax(e, -1)
        c = alpha @ Hs
        ht = torch.tanh(torch.cat((c, S), -1) @ p["output.W_c"].T)
        logits = ht @ p["output.W_s"].T
        logp = torch.log_softmax(logits, -1)
        ce = -logp.gather(-1, gold[..., None])[..., 0]
        loss = (ce * mask).sum() / ntok
        right = ((logits.argmax(-1) == gold).double() * mask).sum()
        total = total + loss
        per[name] = (loss.item(), right.item(), ntok.item())
    return total, per


def scores(p, name, q, Hs, H):
    """The scores of the queries q (B, H) against Hs (B, N, H)."""
    if name == "dot":
        return (Hs @ q[:, :, None])[..., 0]
    if name == "general":
        return (Hs @ p["general.W"].T @ q[:, :, None])[..., 0]
    W = p["concat.W"]
    u = (q @ W[:, :H].T)[:, None, :] + Hs @ W[:, H:].T
    return torch.tanh(u) @ p["concat.v"][0]


def forward_bahdanau(p, data, scorers, H):
    """forward() for Bahdanau's architecture: the decoder's states depend
    on attention, so each scorer runs its own, step by step."""
    src, src_len, src_mask, inputs, gold, mask = data
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
    y = p["target"][inputs]
    total, per = 0.0, {}
    ntok = mask.sum()
    for name in scorers:
        s, logits = s0, []
        for t in range(inputs.shape[1]):
            e = scores(p, name, s, Hs, H).masked_fill(~src_mask, -math.inf)
            c = (torch.softmax(e, -1)[:, None, :] @ Hs)[:, 0]
            s = torch.tanh(y[:, t] @ p["decoder.W_y"].T + s @ p["decoder.W_s"].T
                           + c @ p["decoder.W_c"].T + p["decoder.b"][0])
            logits.append(torch.cat((s, c, y[:, t]), -1) @ p["output.W_o"].T)
        logits = torch.stack(logits, 1)
        logp = torch.log_softmax(logits, -1)
        ce = -logp.gather(-1, gold[..., None])[..., 0]
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


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--init", required=True)
    ap.add_argument("--pairs", required=True)
    ap.add_argument("--epochs", type=int, default=3000)
    ap.add_argument("--scorer", default="all")
    ap.add_argument("--lr", type=float, default=0.01)
    ap.add_argument("--weight-decay", type=float, default=0.2)
    ap.add_argument("--clip", type=float, default=5.0)
    ap.add_argument("--threads", type=int, default=1)
    args = ap.parse_args(argv)
    torch.set_num_threads(args.threads)
    scorers = SCORERS if args.scorer == "all" else (args.scorer,)

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
        loss, _ = fwd(p, data, scorers, model["H"])
        loss.backward()
        clip_(params, args.clip)
        opt.step()
    seconds = time.perf_counter() - start
    cpu = time.process_time() - cpu

    with torch.no_grad():
        loss, per = fwd(p, data, scorers, model["H"])
    mean = sum(v[0] for v in per.values()) / len(per)
    acc = sum(v[1] / v[2] for v in per.values()) / len(per)
    print("epochs %d seconds %.6f cpu %.6f loss %.9f accuracy %.4f"
          % (args.epochs, seconds, cpu, mean, acc))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
