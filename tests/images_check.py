#!/usr/bin/env python3
"""images_check.py: the shipped toy images (data/images/) are what
data/README.md says, checked with a reader of its own (no attn-trace).

usage: images_check.py DIR   (DIR holds train.captions, heldout.captions)

Checks: every image listed exists and every .pgm is listed once; each is
a 6x6 plain PGM of maxval 255; the object's pixels (every pixel of 153 or
more) lie inside the bounding box the captions give, and the others are
0 or 0.2 (51); the class is the caption's second word; the caption names
the cell of the object's centre (dots and boxes) or its column or row of
cells (bars) in the documented words; 44 training and 20 held-out images,
every held-out caption also a training one.  Prints what fails, exits 1."""
import os
import re
import sys

WORDS = {"a", "dot", "bar", "box", "at", "on", "in", "the", "top",
         "bottom", "left", "right", "middle", "down", "across"}
ROWS = ("top", "middle", "bottom")
COLS = ("left", "middle", "right")
bad = []


def read_p2(path):
    text = open(path, encoding="ascii").read()
    tokens = re.sub(r"#[^\n]*", " ", text).split()
    if tokens[0] != "P2":
        raise ValueError("not P2")
    w, h, m = int(tokens[1]), int(tokens[2]), int(tokens[3])
    vals = [int(t) for t in tokens[4:]]
    if len(vals) != w * h:
        raise ValueError("%d values" % len(vals))
    return w, h, m, [vals[r * w:(r + 1) * w] for r in range(h)]


def where(cls, box):
    """The words that place the object, worked out from its box."""
    r, c, h, w = box
    if cls == "bar" and h == 6:
        return ["on the left", "down the middle", "on the right"][c // 2]
    if cls == "bar":
        return ["at the top", "across the middle", "at the bottom"][r // 2]
    cr, cc = (r + (h - 1) // 2) // 2, (c + (w - 1) // 2) // 2
    if (cr, cc) == (1, 1):
        return "in the middle"
    if cr == 1:
        return "on the " + COLS[cc]
    if cc == 1:
        return "at the " + ROWS[cr]
    return "at the %s %s" % (ROWS[cr], COLS[cc])


def check_image(d, line):
    f, cls, cap, box = [x.strip() for x in line.split("|||")]
    box = [int(x) for x in box.split()]
    w, h, m, px = read_p2(os.path.join(d, f))
    if (w, h, m) != (6, 6, 255):
        bad.append("%s: %dx%d maxval %d" % (f, w, h, m))
    r0, c0, bh, bw = box
    for r in range(6):
        for c in range(6):
            inside = r0 <= r < r0 + bh and c0 <= c < c0 + bw
            v = px[r][c]
            if v >= 153 and not inside:
                bad.append("%s: bright pixel (%d, %d) outside %s" %
                           (f, r, c, box))
            if not inside and v not in (0, 51):
                bad.append("%s: background %d" % (f, v))
    bright = sum(v >= 153 for row in px for v in row)
    want = {"dot": 1, "bar": 6, "box": 8}[cls]
    if bright != want:
        bad.append("%s: %d bright pixels, a %s has %d" % (f, bright, cls,
                                                         want))
    words = cap.split()
    if words[:2] != ["a", cls] or " ".join(words[2:]) != where(cls, box):
        bad.append("%s: caption '%s', expected 'a %s %s'" %
                   (f, cap, cls, where(cls, box)))
    if not set(words) <= WORDS:
        bad.append("%s: words outside the vocabulary: %s" %
                   (f, set(words) - WORDS))
    return f, cap


def main(d):
    caps = {}
    listed = []
    for part, n in (("train", 44), ("heldout", 20)):
        lines = [l for l in open(os.path.join(d, part + ".captions"),
                                 encoding="ascii")
                 if l.strip() and not l.startswith("#")]
        if len(lines) != n:
            bad.append("%s: %d images, expected %d" % (part, len(lines), n))
        got = [check_image(d, l) for l in lines]
        caps[part] = {c for _, c in got}
        listed += [f for f, _ in got]
        for f in os.listdir(os.path.join(d, part)):
            if "%s/%s" % (part, f) not in listed:
                bad.append("%s/%s is not listed" % (part, f))
    if len(listed) != len(set(listed)):
        bad.append("an image is listed twice")
    if not caps["heldout"] <= caps["train"]:
        bad.append("held-out captions not trained: %s" %
                   (caps["heldout"] - caps["train"]))
    for b in bad:
        print("not ok - " + b)
    print("%d images, %d faults" % (len(listed), len(bad)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
