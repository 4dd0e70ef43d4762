#!/usr/bin/env python3
"""glimpse_ref.py: the glimpse model's training recipe (doc/model.md,
"Glimpses"; attn-trace glimpse --train) in PyTorch, float64, for
bench/run-glimpse to time against attn-trace.

Usage: glimpse_ref.py TRAIN.captions HELDOUT.captions [EPOCHS] [SEED]

The same sizes (H = D = 8, T = 3, sigma 0.3), objective (cross-entropy,
REINFORCE with a learned baseline b_t, reward 1 for the right class, the
advantages held as constants, lambda 1), Adam (0.9, 0.999, 1e-8, lr
0.01, one update an epoch from the mean over the images), and one normal
draw a glimpse, all the images of an epoch at once (batched).  Its own
random start and draws (torch.manual_seed), so its figures are its own,
not attn-trace's bits.  Prints the training seconds (CPU) and, with the
mean policy, the classes right and the glimpses whose fovea overlaps the
object's box, on both sets.
"""

import os
import sys
import time

import torch
import torch.nn.functional as F


def load(path):
    """(images (N, h, w), classes (N,), boxes (N, 4), class names)."""
    base, imgs, cls, boxes, names = os.path.dirname(path), [], [], [], []
    for line in open(path, encoding="utf-8"):
        if line.startswith("#") or not line.strip():
            continue
        f, c, _, box = [p.strip() for p in line.split("|||")]
        words = [w for w in open(os.path.join(base, f)).read().split("\n")
                 if not w.startswith("#")]
        nums = " ".join(words).split()
        w, h, mx = int(nums[1]), int(nums[2]), int(nums[3])
        px = [int(v) / mx for v in nums[4:4 + w * h]]
        imgs.append(torch.tensor(px, dtype=torch.float64).reshape(h, w))
        if c not in names:
            names.append(c)
        cls.append(names.index(c))
        boxes.append([int(v) for v in box.split()])
    return torch.stack(imgs), torch.tensor(cls), torch.tensor(boxes), names


def retina(pad, l, h, w):
    """The corners (N, 2) and the retina (N, 8) of each image at l."""
    lc = l.detach().clamp(-1, 1)
    R = torch.floor((lc[:, 0] + 1) / 2 * h + 0.5).long()
    C = torch.floor((lc[:, 1] + 1) / 2 * w + 0.5).long()
    n = torch.arange(pad.shape[0])[:, None, None]
    off = torch.arange(4)
    rows = (R[:, None] + off)[:, :, None]        # padded by 2: R-2+2
    cols = (C[:, None] + off)[:, None, :]
    region = pad[n, rows, cols]                  # (N, 4, 4)
    fovea = region[:, 1:3, 1:3].reshape(-1, 4)
    peri = F.avg_pool2d(region[:, None], 2).reshape(-1, 4)
    return torch.stack([R, C], 1), torch.cat([fovea, peri], 1)


def forward(P, pad, h, w, eps, T):
    """Runs every image; returns z, per-step log pi, corners."""
    N, H = pad.shape[0], P["W_h"].shape[0]
    hs = torch.zeros(N, H, dtype=torch.float64)
    logps, corners = [], []
    for t in range(T):
        l_hat = torch.tanh(F.linear(hs, P["W_l"], P["b_l"]))
        l = (l_hat + SIGMA * eps[t]).detach()
        logps.append(torch.distributions.Normal(l_hat, SIGMA)
                     .log_prob(l).sum(1))
        rc, rho = retina(pad, l, h, w)
        corners.append(rc)
        g = torch.tanh(F.linear(torch.cat([rho, l], 1), P["W_g"], P["b_g"]))
        hs = torch.tanh(F.linear(hs, P["W_h"]) +
                        F.linear(g, P["W_x"], P["b_h"]))
    return F.linear(hs, P["W_c"], P["b_c"]), logps, corners


SIGMA = 0.3


def measure(P, imgs, cls, boxes, T):
    h, w = imgs.shape[1:]
    pad = F.pad(imgs, (2, 2, 2, 2))
    with torch.no_grad():
        z, _, corners = forward(P, pad, h, w,
                                torch.zeros(T, imgs.shape[0], 2,
                                            dtype=torch.float64), T)
    right = int((z.argmax(1) == cls).sum())
    on = 0
    for rc in corners:
        for (R, C), (r0, c0, bh, bw) in zip(rc.tolist(), boxes.tolist()):
            on += any(r0 <= r < r0 + bh and c0 <= c < c0 + bw
                      for r in (R - 1, R) for c in (C - 1, C))
    return right, imgs.shape[0], on, T * imgs.shape[0]


def main():
    train, heldout = sys.argv[1], sys.argv[2]
    epochs = int(sys.argv[3]) if len(sys.argv) > 3 else 3000
    torch.manual_seed(int(sys.argv[4]) if len(sys.argv) > 4 else 1)
    torch.set_num_threads(1)
    imgs, cls, boxes, names = load(train)
    H, D, T, K = 8, 8, 3, len(names)
    shapes = {"W_l": (2, H), "b_l": (2,), "W_g": (D, 10), "b_g": (D,),
              "W_h": (H, H), "W_x": (H, D), "b_h": (H,), "W_c": (K, H),
              "b_c": (K,), "baseline": (T,)}
    P = {}
    for k, s in shapes.items():
        v = torch.zeros(s, dtype=torch.float64)
        if len(s) == 2:
            v.uniform_(-s[1] ** -0.5, s[1] ** -0.5)
        P[k] = v.requires_grad_(True)
    opt = torch.optim.Adam(P.values(), lr=0.01, betas=(0.9, 0.999),
                           eps=1e-8)
    h, w = imgs.shape[1:]
    pad = F.pad(imgs, (2, 2, 2, 2))
    t0 = time.process_time()
    for _ in range(epochs):
        eps = torch.randn(T, imgs.shape[0], 2, dtype=torch.float64)
        z, logps, _ = forward(P, pad, h, w, eps, T)
        R = (z.argmax(1) == cls).double()
        J = F.cross_entropy(z, cls, reduction="sum")
        for t in range(T):
            A = (R - P["baseline"][t]).detach()
            J = J - (A * logps[t]).sum() + \
                0.5 * ((R - P["baseline"][t]) ** 2).sum()
        opt.zero_grad()
        (J / imgs.shape[0]).backward()
        opt.step()
    secs = time.process_time() - t0
    print("pytorch: %d epochs in %.2f s CPU" % (epochs, secs))
    print("pytorch train: %d/%d right, %d/%d glimpses on the object"
          % measure(P, imgs, cls, boxes, T))
    himgs, hcls, hboxes, hnames = load(heldout)
    hcls = torch.tensor([names.index(hnames[c]) for c in hcls.tolist()])
    print("pytorch heldout: %d/%d right, %d/%d glimpses on the object"
          % measure(P, himgs, hcls, hboxes, T))


if __name__ == "__main__":
    main()
