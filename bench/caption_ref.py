#!/usr/bin/env python3
"""caption_ref.py: the training of "attn-trace caption --captions=FILE"
(doc/model.md, "Attention over an image") done again in PyTorch, for
bench/run-caption to time against attn-trace.

Usage:
    caption_ref.py --init INIT.model --captions FILE [--epochs N]
                   [--scorer S,..] [--compare C.model [--tolerance X]]

INIT.model is what "attn-trace caption --captions=FILE --epochs=0 -o
INIT.model" writes for a seed, so both programs start from the same
weights.  Each image is a pair whose source is the nine cells and whose
target is its caption, each place word (top, bottom, left, right,
middle) linked to the cells its object's box covers by at least a
pixel; the patch encoder h_i = tanh(W_patch patch_i + b_patch + pos_i),
s_0 = tanh(W_init mean_i h_i), then train_ref.py's decoder of Bahdanau's
architecture, its loss with guided alignment 0.3, its clipping (5) and
torch.optim.AdamW (lr 0.01, weight decay 0.2), full batch, float64,
the 44 images as one batch.  The word encoder's blocks take no part.

Prints train_ref.py's line (epochs, wall and CPU seconds of the training
loop alone, final loss, token accuracy); with --compare, the largest
difference from C.model, what attn-trace trained from INIT.model for the
same epochs, and exit status 1 above --tolerance (default 1e-12).
"""

import argparse
import os
import sys
import time

import torch
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True
sys.path.insert(0, HERE)
import glimpse_ref  # noqa: E402
import train_ref as tr  # noqa: E402

PLACE_WORDS = ("top", "bottom", "left", "right", "middle")
UNUSED = ("source", "forward.W_x", "forward.W_h", "forward.b",
          "backward.W_x", "backward.W_h", "backward.b", "decoder.W_init")


def captions(path):
    """The caption of each image of the .captions file, in its order."""
    out = []
    for line in open(path, encoding="utf-8"):
        if line.startswith("#") or not line.strip():
            continue
        out.append(line.split("|||")[2].split())
    return out


def on_object(box, cell):
    """Whether cell (0 .. 8) shares a pixel with box (row, col, h, w)."""
    r, c = 2 * (cell // 3), 2 * (cell % 3)
    br, bc, bh, bw = box
    return r < br + bh and br < r + 2 and c < bc + bw and bc < c + 2


def pairs_of(path, model):
    """train_ref.batch()'s pairs: the cells, the caption, the links."""
    tgt = {w: k for k, w in enumerate(model["target.words"])}
    _, _, boxes, _ = glimpse_ref.load(path)
    out = []
    for words, box in zip(captions(path), boxes.tolist()):
        links = [(i + 1, j + 1) for j, w in enumerate(words)
                 if w in PLACE_WORDS for i in range(9) if on_object(box, i)]
        out.append((list(range(9)), [tgt[w] for w in words], links))
    return out


def forward(p, data, patches, scorers, H, lam):
    """The patch encoder, then train_ref's Bahdanau decoder."""
    Hs = torch.tanh(patches @ p["patch.W"].T + p["patch.b"][0]
                    + p["patch.P"])                      # (B, 9, H)
    s0 = torch.tanh(Hs.mean(1) @ p["patch.W_init"].T)
    return tr.decode_bahdanau(p, data, scorers, H, lam, Hs, s0)


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--init", required=True)
    ap.add_argument("--captions", required=True)
    ap.add_argument("--epochs", type=int, default=3000)
    ap.add_argument("--scorer", default="dot,general")
    ap.add_argument("--compare", metavar="C.model")
    ap.add_argument("--tolerance", type=float, default=1e-12)
    args = ap.parse_args(argv)
    torch.set_num_threads(1)
    scorers = tuple(args.scorer.split(","))

    model = tr.read_model(args.init)
    words = model["target.words"]
    data = tr.batch(pairs_of(args.captions, model), words.index("<s>"),
                    words.index("</s>"))
    images, _, _, _ = glimpse_ref.load(args.captions)
    patches = F.unfold(images[:, None], kernel_size=2,
                       stride=2).transpose(1, 2)          # (B, 9, 4)
    p = tr.parameters(model)
    params = [q for name, q in p.items() if name not in UNUSED]
    opt = torch.optim.AdamW(params, lr=0.01, betas=(0.9, 0.999), eps=1e-8,
                            weight_decay=0.2)
    start, cpu = time.perf_counter(), time.process_time()
    for _ in range(args.epochs):
        opt.zero_grad()
        loss, per = forward(p, data, patches, scorers, model["H"], 0.3)
        loss.backward()
        tr.clip_(params, 5.0)
        opt.step()
    seconds = time.perf_counter() - start
    cpu = time.process_time() - cpu
    with torch.no_grad():
        loss, per = forward(p, data, patches, scorers, model["H"], 0.3)
    return tr.finish(p, per, args.epochs, seconds, cpu, args.compare,
                     args.tolerance)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
