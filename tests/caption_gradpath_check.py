#!/usr/bin/env python3
"""caption_gradpath_check.py: the gradient paths over an image's cells
(trace --model=IMAGE_MODEL --gradient-paths=T IMAGE.pgm) against PyTorch
autograd.

Usage:
    caption_gradpath_check.py BINARY MODEL IMAGE.pgm [IMAGE.pgm ...]

The weights come from BINARY model --format=json and the model file's
[patch.*] sections, loaded as caption_torch_check.py loads them
(CaptionTorch); each image is read by its own reader.  Each cell's
annotation h_i = tanh(W_patch·patch_i + b_patch + pos_i) is a node of its
own, s_0 = tanh(W_init·mean_i h_i), and Bahdanau's decoder runs
teacher-forced on the image's caption up to step T, L_T = -log
softmax(logits_T)[y_T].  For each cell i, as gradpath_torch_check.py does
for a sentence's words:

    total       autograd.grad(L_T, h_i), every path;
    direct      in a graph where step T's attention reads a leaf copy k_i
                of h_i in row i: autograd.grad(L_T, k_i);
    recurrence  in that graph, autograd.grad(L_T, h_i): every other
                path, here through s_0 (the mean of the cells) and the
                attention of the steps before T, computed on its own;

and their norms and L_T must agree with the program's "gradient_paths"
within 1e-12 absolute plus relative; total = direct + recurrence is
checked in torch.  Every step T of each caption is probed with every
scorer torch_check knows.  Exit 0, 1 on a difference, 77 without torch.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True

import torch_check as tc  # noqa: E402
from caption_torch_check import (CaptionTorch, read_patch_sections,  # noqa
                                 read_pgm)
from gradpath_torch_check import KEYS, split  # noqa: E402


def loss_at(model, image, target, scorer, T, cut):
    """L_T, the annotation nodes and, with cut = i, the leaf copy k_i
    that step T's attention reads in row i (None: no copy)."""
    torch = model.torch
    F = torch.nn.functional
    height, width, pixels = image
    img = model.tensor(pixels).reshape(1, 1, height, width)
    patches = F.unfold(img, kernel_size=2, stride=2)[0].T     # 9 x 4
    nodes = [torch.tanh(model.patch(patches[i]) + model.P[i])
             for i in range(patches.shape[0])]
    Hs = torch.stack(nodes)
    n = len(nodes)
    s = torch.tanh(model.W_init0(Hs.mean(dim=0)))
    K = Hs, None
    if cut is not None:
        k = Hs[cut].detach().clone().requires_grad_(True)
        K = torch.stack([k if j == cut else Hs[j] for j in range(n)]), k
    model.words = list(model.cells)
    prev = torch.zeros(n, dtype=torch.float64)
    prev[0] = 1.0
    gold = list(target) + ["</s>"]
    word = "<s>"
    for t in range(1, T + 1):
        keys = K[0] if t == T else Hs
        y = model.tgt[tc.fold(word)][1]
        e, _ = model.score(scorer, s, keys, prev)
        alpha = model.attend(e, s, t, {})
        c = alpha @ keys
        s = model.decoder(torch.cat([y, c]).unsqueeze(0), s.unsqueeze(0))[0]
        logits = model.W_o(torch.cat([s, c, y]))
        prev = alpha
        word = gold[t - 1]
    k = model.vocab.index(gold[T - 1])
    return -F.log_softmax(logits, dim=0)[k], nodes, K[1]


def paths(model, image, target, scorer, T):
    gold = list(target) + ["</s>"]
    return split(model.torch,
                 lambda cut: loss_at(model, image, target, scorer, T, cut),
                 len(model.cells), gold[T - 1], T)


def main(argv):
    if len(argv) < 3:
        sys.stderr.write("usage: caption_gradpath_check.py BINARY MODEL "
                         "IMAGE.pgm...\n")
        return 2
    binary, path, images = argv[0], argv[1], argv[2:]
    sys.stdout.reconfigure(encoding="utf-8")
    try:
        import torch
    except Exception as exc:
        print("skip: torch cannot be imported: %s" % exc)
        return 77
    tc.read_registry(binary)
    torch.set_grad_enabled(False)
    doc = tc.run_json([binary, "model", "--format=json", "--model=" + path])
    if "patch" not in doc and os.path.exists(path):
        doc["patch"] = read_patch_sections(path)
    model = CaptionTorch(torch, doc)
    model.window, model.D = "global", 1
    torch.set_grad_enabled(True)
    passed = failed = 0
    scorers = [sc for sc in model.supported if sc in tc.TORCH_SCORERS]
    for img in images:
        height, width, pixels, caption = read_pgm(img)[:4]
        target = caption.split()
        for T in range(1, len(target) + 2):
            argv = [binary, "trace", "--model=" + path, "--format=json",
                    "--scorer=" + ",".join(scorers),
                    "--gradient-paths=%d" % T,
                    "--target=" + " ".join(target), img]
            try:
                got = tc.run_json(argv)
            except tc.Mismatch as exc:
                failed += 1
                print("FAIL %s T=%d: %s" % (img, T, exc))
                continue
            for run in got["runs"]:
                name = "%s %s T=%d" % (os.path.basename(img), run["scorer"],
                                       T)
                try:
                    g = run.get("gradient_paths")
                    tc.expect_keys(g, KEYS, "$.gradient_paths")
                    tc.expect(g, paths(model, (height, width, pixels),
                                       target, run["scorer"], T),
                              "$.gradient_paths")
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
