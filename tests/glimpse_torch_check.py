#!/usr/bin/env python3
"""glimpse_torch_check.py: the glimpse model (attn-trace glimpse) against
PyTorch in float64.

Usage: glimpse_torch_check.py BINARY IMAGES_DIR [MODEL]

Loads `attn-trace glimpse --format=model` (MODEL, default the built-in
glimpse6) into torch tensors, runs `attn-trace glimpse --format=json` on
several images with several seeds, with and without --class and --mean,
and recomputes every number of every step with torch:

- u: SplitMix64 replayed here (checked against published outputs) from
  the seed, two draws a glimpse, the top 53 bits times 2^-53;
- eps by Box-Muller from those u; l = l_hat + sigma eps;
- log pi and its gradient: torch.distributions.Normal(l_hat, sigma)
  .log_prob(l).sum(), and d/dl_hat of it by torch.autograd with l fixed;
- the corner: the nearest pixel corner of l clamped to [-1, 1];
- the image read here from its PGM file (raw values, maxval, pixels =
  raw / maxval), not from the JSON;
- the retina by slicing the zero-padded image: the fovea 2x2 and the
  periphery 4x4 through F.avg_pool2d;
- g = tanh(F.linear([retina; l], W_g, b_g)); the core with nn.RNNCell
  (tanh; weight_ih W_x, weight_hh W_h, bias_ih b_h, bias_hh 0);
- z = F.linear(h_T, W_c, b_c), p = softmax(z), the class; with --class
  the loss F.cross_entropy, the reward and A_t = R - b_t.

Every number must agree to 1e-12 (torch_check.agree).  Exit status 0, 1
on a mismatch, 77 when torch cannot be imported.
"""

import json
import math
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import torch_check as tc  # noqa: E402
from caption_torch_check import read_pgm  # noqa: E402

M64 = (1 << 64) - 1


def splitmix64(state):
    state = (state + 0x9E3779B97F4A7C15) & M64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return state, z ^ (z >> 31)


def check_splitmix():
    st, outs = 0, []
    for _ in range(3):
        st, x = splitmix64(st)
        outs.append(x)
    assert outs == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4,
                    0x06C45D188009454F], outs


def run(binary, *args):
    out = subprocess.run([binary, "glimpse"] + list(args), check=True,
                         stdout=subprocess.PIPE).stdout
    return json.loads(out.decode("utf-8"))


def corner(v, n):
    v = min(1.0, max(-1.0, v))
    return int(math.floor((v + 1.0) / 2.0 * n + 0.5))


def recompute(torch, F, m, image, draw, seed, truth):
    """The trace as torch computes it, as a dict shaped like the JSON."""
    T, H, sigma = m["steps"], m["hidden"], m["sigma"]
    W = {k: torch.tensor(m[k], dtype=torch.float64)
         for k in ("W_l", "b_l", "W_g", "b_g", "W_h", "W_x", "b_h",
                   "W_c", "b_c", "baseline")}
    img = torch.tensor(image["pixels"], dtype=torch.float64)
    hgt, wid = img.shape
    pad = F.pad(img, (2, 2, 2, 2))
    cell = torch.nn.RNNCell(m["glimpse"], H, nonlinearity="tanh").double()
    with torch.no_grad():
        cell.weight_ih.copy_(W["W_x"])
        cell.weight_hh.copy_(W["W_h"])
        cell.bias_ih.copy_(W["b_h"])
        cell.bias_hh.zero_()
    h = torch.zeros(H, dtype=torch.float64)
    state, steps = seed, []
    for t in range(T):
        s = {"t": t + 1, "h_prev": h.tolist()}
        a_l = F.linear(h, W["W_l"], W["b_l"])
        l_hat = torch.tanh(a_l).detach().requires_grad_(True)
        u = [0.0, 0.0]
        if draw == "sample":
            for k in range(2):
                state, x = splitmix64(state)
                u[k] = (x >> 11) * 2.0 ** -53
        u_t = torch.tensor(u, dtype=torch.float64)
        r = torch.sqrt(-2.0 * torch.log1p(-u_t[0]))
        eps = torch.stack([r * torch.cos(2 * math.pi * u_t[1]),
                           r * torch.sin(2 * math.pi * u_t[1])])
        if draw == "mean":
            eps = torch.zeros(2, dtype=torch.float64)
        l = (l_hat + sigma * eps).detach()
        logp = torch.distributions.Normal(l_hat, sigma).log_prob(l).sum()
        (grad,) = torch.autograd.grad(logp, l_hat)
        R, C = corner(l[0].item(), hgt), corner(l[1].item(), wid)
        fovea = pad[R + 1:R + 3, C + 1:C + 3].reshape(-1)
        peri = F.avg_pool2d(pad[R:R + 4, C:C + 4].reshape(1, 1, 4, 4),
                            2).reshape(-1)
        x = torch.cat([fovea, peri, l])
        a_g = F.linear(x, W["W_g"], W["b_g"])
        g = torch.tanh(a_g)
        a_h = F.linear(h, W["W_h"]) + F.linear(g, W["W_x"], W["b_h"])
        h = cell(g.reshape(1, -1), h.reshape(1, -1)).reshape(-1).detach()
        s.update({"a_l": a_l.tolist(), "l_hat": l_hat.tolist(), "u": u,
                  "eps": eps.tolist(), "l": l.tolist(),
                  "log_pi": logp.item(), "dlog_pi_dl_hat": grad.tolist(),
                  "corner": [R, C], "fovea": fovea.tolist(),
                  "periphery": peri.tolist(), "x": x.tolist(),
                  "a_g": a_g.tolist(), "g": g.tolist(),
                  "a_h": a_h.tolist(), "h": h.tolist()})
        steps.append(s)
    z = F.linear(h, W["W_c"], W["b_c"])
    p = torch.softmax(z, dim=0)
    pred = int(torch.argmax(z).item())
    want = dict(image)
    want.update({"steps": steps, "z": z.tolist(), "p": p.tolist(),
            "class": m["classes"][pred], "sigma": sigma, "draw": draw,
            "classes": m["classes"]})
    if truth is not None:
        y = m["classes"].index(truth)
        R = 1.0 if pred == y else 0.0
        want.update({
            "true_class": truth, "reward": R,
            "loss": F.cross_entropy(z.reshape(1, -1),
                                    torch.tensor([y])).item(),
            "baseline": W["baseline"].tolist(),
            "advantage": (R - W["baseline"]).tolist()})
    return want


def main():
    binary, images = sys.argv[1], sys.argv[2]
    model = sys.argv[3] if len(sys.argv) > 3 else "glimpse6"
    try:
        import torch
        import torch.nn.functional as F
    except ImportError:
        print("torch cannot be imported")
        return 77
    check_splitmix()
    m = run(binary, "--format=model", "--model=" + model)
    cases = []
    for name, cls in (("train/bar-x0.pgm", "bar"), ("train/box-y0-x0.pgm",
                      "box"), ("heldout/dot-y0-x0.pgm", "dot"),
                      ("train/dot-y5-x5.pgm", "dot")):
        path = os.path.join(images, name)
        if not os.path.exists(path):
            continue
        for seed in (1, 29, 18446744073709551615):
            cases.append((path, "sample", seed, cls if seed != 29 else None))
        cases.append((path, "mean", 1, cls))
    if len(cases) < 12:
        print("not ok - too few images found in %s" % images)
        return 1
    n = 0
    for path, draw, seed, cls in cases:
        args = ["--format=json", "--model=" + model, "--seed=%d" % seed, path]
        if draw == "mean":
            args.insert(0, "--mean")
        if cls:
            args.insert(0, "--class=" + cls)
        doc = run(binary, *args)
        image = dict(read_pgm(path)[4], image=path)
        want = recompute(torch, F, m, image, draw, seed, cls)
        try:
            tc.expect(doc, want, path)
        except tc.Mismatch as e:
            print("not ok - %s %s seed %d: %s" % (path, draw, seed, e))
            return 1
        if cls is None and "true_class" in doc:
            print("not ok - %s: a trace without --class has a true class"
                  % path)
            return 1
        n += 1
    print("ok - %d glimpse traces agree with torch to 1e-12, every step"
          % n)
    return 0


if __name__ == "__main__":
    sys.exit(main())
