#!/usr/bin/env python3
"""caption_torch_check.py: every number of 'attn-trace caption' against
PyTorch.

Usage:
    caption_torch_check.py BINARY MODEL IMAGE.pgm [IMAGE.pgm ...]

It asks the program for the image model's weights (BINARY model
--format=json --model=MODEL) and checks the patch encoder's against the
model file's [patch.*] sections, read here.  Then for each image, with
every scorer the model supports one at a time and with --scorer=all, greedy
and teacher-forced (the caption in the image's comment, "# NAME.pgm:
CAPTION (class C) ..." as data/images/make-images.py writes it),
it runs

    BINARY caption --model=MODEL --format=json --scorer=S [--target=C] IMAGE

and recomputes everything the trace holds with torch, in float64:

    the image      read here from the PGM file (P2 or P5), pixel / maxval
    patch_i        torch.nn.functional.unfold(image, kernel_size=2,
                   stride=2): column i is cell i's 2x2 pixels, row-major,
                   the cells in reading order
    h_i            tanh(nn.Linear(4, H)(patch_i) + pos_i), W_patch and
                   b_patch, pos_i row i of P, the cells' places
    s_0            tanh(W_init mean_i h_i)
    each step      the scorer, the softmax over the nine cells, the
                   context, nn.RNNCell on [y_{t-1}; c_t] with s_{t-1}, the
                   logits W_o [s_t; c_t; y_{t-1}], their softmax, the word

Then, through 'BINARY trace --model=MODEL --hard=RULE --seed=N IMAGE'
(the tracing command reading an image), greedy and teacher-forced with
--gradient and --samples, it checks the --hard trace with
tests/hard_torch_check.py's Bahdanau step program from the patch
encoder's states: the cell drawn from the trace's recorded u (which must
lie in [0, 1)), the hard context h_l, the exact view and the REINFORCE
terms (score function, entropy, backpropagated part, the Monte Carlo
estimates) by autograd.

The decoder, the scorers and the comparison are tests/torch_check.py's
(BahdanauTorch, TorchModel.score, expect): the program's Bahdanau step
program is the one that decodes a caption.  Numbers must agree within
1e-12 absolute plus 1e-12 relative.

Prints "ok CASE" or "FAIL CASE: PATH: ..." a case, then "N passed, M
failed".  Exit status 0, 1 when something failed, 77 when torch cannot be
imported or BINARY does not exist, 2 for bad usage.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, HERE)
import torch_check as tc  # noqa: E402


def read_pgm(path):
    """(height, width, pixels in [0, 1] row-major, caption or None, the
    trace's "input" without "image"): a reader of its own, P2 and P5 with
    maxval below 256."""
    data = open(path, "rb").read()
    caption = None
    for line in data.split(b"\n"):   # "# NAME.pgm: CAPTION (class C), ..."
        if line.startswith(b"# ") and b" (class " in line:
            caption = line.split(b": ", 1)[1].split(b" (class ")[0]
            caption = caption.decode("utf-8").strip()
    fields, pos = [], 0
    while len(fields) < 4:
        while data[pos:pos + 1].isspace():
            pos += 1
        if data[pos:pos + 1] == b"#":
            while data[pos:pos + 1] not in (b"\n", b""):
                pos += 1
            continue
        start = pos
        while not data[pos:pos + 1].isspace():
            pos += 1
        fields.append(data[start:pos])
    magic, width, height, maxval = (fields[0], int(fields[1]),
                                    int(fields[2]), int(fields[3]))
    if magic == b"P5":
        raw = list(data[pos + 1:pos + 1 + width * height])
    else:
        raw = [int(v) for v in data[pos:].split(b"\n#")[0].split()]
        raw = raw[:width * height]
    pixels = [v / maxval for v in raw]
    rows = [list(range(r * width, (r + 1) * width)) for r in range(height)]
    given = {"pgm": magic.decode(), "width": width, "height": height,
             "maxval": maxval, "raw": [[raw[k] for k in r] for r in rows],
             "pixels": [[pixels[k] for k in r] for r in rows]}
    return height, width, pixels, caption, given


def read_patch_sections(path):
    """The [patch.*] sections of the model file: {"W": rows, ...}."""
    out, cur = {}, None
    for line in open(path, encoding="utf-8"):
        line = line.split("#")[0].strip()
        if line.startswith("["):
            name = line[1:-1]
            cur = name[len("patch."):] if name.startswith("patch.") else None
            if cur:
                out[cur] = []
        elif line and cur:
            out[cur].append([float(v) for v in line.split()])
    if "b" in out:
        out["b"] = out["b"][0]
    return out


class CaptionTorch(tc.BahdanauTorch):
    """BahdanauTorch with the patch encoder in place of the word
    encoder."""

    def __init__(self, torch, doc):
        super().__init__(torch, doc)
        patch = doc["patch"]
        self.patch = torch.nn.Linear(4, self.H, bias=True).double()
        self.patch.weight.copy_(self.tensor(patch["W"]))
        self.patch.bias.copy_(self.tensor(patch["b"]))
        self.P = self.tensor(patch["P"])                      # 9 x H
        self.W_init0 = self.linear(patch["W_init"], self.H, self.H)
        self.cells = list(doc["source_embeddings"])

    def encode(self, height, width, pixels):
        torch = self.torch
        F = torch.nn.functional
        image = self.tensor(pixels).reshape(1, 1, height, width)
        cols = F.unfold(image, kernel_size=2, stride=2)[0]    # 4 x 9
        patches = cols.T                                      # 9 x 4
        wx = patches @ self.patch.weight.T
        pre = wx + self.patch.bias + self.P
        Hs = torch.tanh(self.patch(patches) + self.P)
        mean = Hs.mean(dim=0)
        w_init = self.W_init0(mean)
        encoder = [{"token": self.cells[i], "pixels": patches[i].tolist(),
                    "W_patch_x": wx[i].tolist(),
                    "b": self.patch.bias.tolist(), "pos": self.P[i].tolist(),
                    "pre": pre[i].tolist(), "annotation": Hs[i].tolist()}
                   for i in range(patches.shape[0])]
        initial = {"state": torch.tanh(w_init).tolist(),
                   "mean": mean.tolist(), "W_init_mean": w_init.tolist()}
        return Hs, w_init, encoder, initial

    def caption(self, scorers, image, target):
        """The whole trace: BahdanauTorch.trace's decoder from the
        patch encoder's states."""
        Hs, w_init, encoder, initial = self.encode(*image)
        saved = self.encoder, self.W_init
        self.encoder = lambda x, h0: (Hs.unsqueeze(0), None)
        self.W_init = lambda h: w_init   # W_init mean_i h_i, not <-h_1
        try:
            cells = " ".join(self.cells)
            want = self.trace(scorers, cells.split(), target)
        finally:
            self.encoder, self.W_init = saved
        want["encoder"] = encoder
        want["initial"] = initial
        want["encoder_kind"] = "patch"
        return want


def hard_trace(model, got, scorers, image, target, rule):
    """The --hard trace of the image: hard_torch_check's Bahdanau step
    program (the draw replayed from the trace's recorded u, the hard
    context h_l, the exact view and, teacher-forced, the REINFORCE terms
    by autograd) from the patch encoder's states, and the encoder's
    records."""
    import hard_torch_check as ht
    Hs, w_init, encoder, initial = model.encode(*image)
    saved = model.encoder, model.W_init
    model.encoder = lambda x, h0: (Hs.unsqueeze(0), None)
    model.W_init = lambda h: w_init
    model.window, model.D = "global", 1
    try:
        want = ht.bahdanau_trace(model, got, scorers, model.cells, target,
                                 rule)
    finally:
        model.encoder, model.W_init = saved
    want["encoder"] = encoder
    want["initial"] = initial
    for r in got["runs"]:
        for st in r["steps"]:
            u = st["hard"].get("u")
            if rule == "sample" and not (isinstance(u, float)
                                         and 0.0 <= u < 1.0):
                raise tc.Mismatch("step %d: u %r is not in [0, 1)"
                                  % (st["t"], u))
            if target and "score_function" not in st.get("gradient", {}):
                raise tc.Mismatch("step %d: no REINFORCE terms" % st["t"])
    return want


def hard_cases(binary, model_path, model, path, image, report):
    """'attn-trace trace --model=MODEL --hard IMAGE', greedy and teacher-
    forced with --gradient and --samples, under several seeds."""
    scorers = [sc for sc in model.supported
               if sc in tc.TORCH_SCORERS and sc != "location"]
    for seed, rule, target in ((0, "sample", None),
                               (1, "argmax", image[3]),
                               (7, "sample", image[3]),
                               (18446744073709551615, "sample", image[3])):
        name = "%s --hard=%s seed %d %s" % (
            os.path.basename(path), rule, seed,
            "teacher-forced" if target else "greedy")
        argv = [binary, "trace", "--model=" + model_path, "--format=json",
                "--scorer=" + ",".join(scorers), "--hard=" + rule,
                "--seed=%d" % seed]
        if target:
            argv += ["--target=" + target, "--gradient",
                     "--samples=%d" % (5 + seed % 50)]
        try:
            got = tc.run_json(argv + [path])
            if got.get("seed") != seed or got.get("hard_rule") != rule:
                raise tc.Mismatch("header: seed %r rule %r"
                                  % (got.get("seed"), got.get("hard_rule")))
            want = hard_trace(model, got, scorers, image[:3],
                              target.split() if target else None, rule)
            tc.expect(got, want, "$")
        except (tc.Mismatch, KeyError, TypeError, ValueError,
                RuntimeError) as exc:
            report(name, exc)
        else:
            report(name, None)


def check_model(doc, path):
    patch = read_patch_sections(path)
    if sorted(patch) != ["P", "W", "W_init", "b"]:
        raise tc.Mismatch("%s: expected the sections [patch.W], [patch.b], "
                          "[patch.P], [patch.W_init], found %s"
                          % (path, sorted(patch)))
    tc.expect(doc["patch"], patch, "$.patch", "the model file")


def main(argv):
    if len(argv) < 3:
        sys.stderr.write("usage: caption_torch_check.py BINARY MODEL "
                         "IMAGE.pgm...\n")
        return 2
    binary, model_path, images = argv[0], argv[1], argv[2:]
    sys.stdout.reconfigure(encoding="utf-8")
    try:
        import torch
    except Exception as exc:
        print("skip: torch cannot be imported: %s" % exc)
        return 77
    if not os.path.exists(binary):
        print("skip: %s does not exist" % binary)
        return 77
    torch.set_grad_enabled(False)
    tc.read_registry(binary)
    passed = failed = 0

    def report(name, exc):
        nonlocal passed, failed
        if exc is None:
            passed += 1
            print("ok %s" % name)
        else:
            failed += 1
            print("FAIL %s: %s" % (name, exc))

    try:
        doc = tc.run_json([binary, "model", "--format=json",
                           "--model=" + model_path])
        check_model(doc, model_path)
        model = CaptionTorch(torch, doc)
    except (tc.Mismatch, KeyError, TypeError, ValueError) as exc:
        report("model: %s" % model_path, exc)
        print("%d passed, %d failed" % (passed, failed))
        return 1
    report("model: %s" % model_path, None)
    runnable = [sc for sc in model.supported if sc in tc.TORCH_SCORERS]
    for path in images:
        image = read_pgm(path)
        for target in (None, image[3]):
            for label, scorers in ([(sc, [sc]) for sc in runnable] +
                                   [("all", runnable)]):
                name = "%s %s %s" % (os.path.basename(path), label,
                                     "teacher-forced" if target else "greedy")
                argv = [binary, "caption", "--model=" + model_path,
                        "--format=json", "--scorer=" + label, path]
                if target:
                    argv.insert(2, "--target=" + target)
                try:
                    got = tc.run_json(argv)
                    want = model.caption(scorers, image[:3],
                                         target.split() if target else None)
                    want["input"] = dict(image[4], image=path)
                    tc.check_trace(got, want)
                except (tc.Mismatch, KeyError, TypeError, ValueError) as exc:
                    report(name, exc)
                else:
                    report(name, None)
        hard_cases(binary, model_path, model, path, image, report)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
