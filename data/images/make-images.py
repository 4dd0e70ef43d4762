#!/usr/bin/env python3
"""make-images.py: writes attn-trace's toy image set (data/images/).

    python3 data/images/make-images.py OUTDIR

writes OUTDIR/train/*.pgm, OUTDIR/heldout/*.pgm, OUTDIR/train.captions
and OUTDIR/heldout.captions; `make images` runs it into data/images/, and
tests/images.sh checks that doing so gives the shipped bytes.  Python 3
alone, no third-party module; the same bytes on every machine (integer
arithmetic and a fixed seed).  The recipe is in data/README.md.

Every image is 6x6 pixels, plain PGM (P2), maxval 255, read as three by
three cells of 2x2 pixels: rows top, middle, bottom; columns left,
middle, right.  On a dark background it holds one object, of one of
three classes:

  dot  one pixel, anywhere (36 places): "a dot at the top left", "a dot
       at the top", "a dot on the left", "a dot in the middle", ...
       (the cell it is in);
  bar  a line of 6 pixels, down a column or across a row (12 places):
       "a bar on the left", "a bar down the middle", "a bar on the
       right", "a bar at the top", "a bar across the middle", "a bar at
       the bottom" (the column or row of cells it is in);
  box  the 8 pixels around a 3x3 square (16 places): "a box at the top
       left", "a box at the top", ... (the cell of its centre pixel).

The object's pixels are 153, 204 or 255 (0.6, 0.8 or 1 of white) and each
background pixel is 51 (0.2) with probability 1/8, else 0, both drawn
from SplitMix64 with seed 29, one draw an image for the intensity and one
a background pixel, in the order the images are listed.  Of the places
that share a caption, one is held out (the one whose index, counting in
reading order from 0, is the caption's number, in order of first use
from 0, modulo their count); a caption with one place is not: 44
training images and 20 held-out ones, every held-out caption also in the
training set.
"""
import os
import sys

MASK = (1 << 64) - 1
SIDE = 6
MAXVAL = 255
ROWS = ("top", "middle", "bottom")
COLS = ("left", "middle", "right")


class SplitMix64:
    """The generator of doc/training.md's --hard draws (Steele et al.)."""

    def __init__(self, seed):
        self.state = seed & MASK

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)


def caption(what, r, c):
    """ "a WHAT" and the words for the cell (r, c), 0 to 2 each."""
    if r == 1 and c == 1:
        return "a %s in the middle" % what
    if r == 1:
        return "a %s on the %s" % (what, COLS[c])
    if c == 1:
        return "a %s at the %s" % (what, ROWS[r])
    return "a %s at the %s %s" % (what, ROWS[r], COLS[c])


def places():
    """Every object: (name, class, caption, pixels, (row, col, h, w))."""
    out = []
    for y in range(SIDE):
        for x in range(SIDE):
            out.append(("dot-y%d-x%d" % (y, x), "dot",
                        caption("dot", y // 2, x // 2), [(y, x)],
                        (y, x, 1, 1)))
    down = ("a bar on the left", "a bar down the middle", "a bar on the right")
    across = ("a bar at the top", "a bar across the middle",
              "a bar at the bottom")
    for x in range(SIDE):
        out.append(("bar-x%d" % x, "bar", down[x // 2],
                    [(y, x) for y in range(SIDE)], (0, x, SIDE, 1)))
    for y in range(SIDE):
        out.append(("bar-y%d" % y, "bar", across[y // 2],
                    [(y, x) for x in range(SIDE)], (y, 0, 1, SIDE)))
    for y in range(SIDE - 2):
        for x in range(SIDE - 2):
            ring = [(y + i, x + j) for i in range(3) for j in range(3)
                    if (i, j) != (1, 1)]
            cap = caption("box", (y + 1) // 2, (x + 1) // 2)
            out.append(("box-y%d-x%d" % (y, x), "box", cap, ring,
                        (y, x, 3, 3)))
    return out


def split(objs):
    """Marks each object held out (True) or not, by the rule above."""
    captions = []
    for o in objs:
        if o[2] not in captions:
            captions.append(o[2])
    held = []
    for o in objs:
        same = [p for p in objs if p[2] == o[2]]
        k = captions.index(o[2]) % len(same)
        held.append(len(same) > 1 and same[k] is o)
    return held


def pgm(name, cls, caption, pixels, rng):
    """The text of the P2 file of one image."""
    level = 153 + 51 * (rng.next() % 3)
    img = [[0] * SIDE for _ in range(SIDE)]
    for y in range(SIDE):
        for x in range(SIDE):
            img[y][x] = 51 if rng.next() % 8 == 0 else 0
    for (y, x) in pixels:
        img[y][x] = level
    lines = ["P2", "# %s.pgm: %s (class %s), made by "
             "data/images/make-images.py" % (name, caption, cls),
             "%d %d" % (SIDE, SIDE), "%d" % MAXVAL]
    lines += [" ".join("%3d" % v for v in row) for row in img]
    return "\n".join(lines) + "\n"


HEADER = """\
# {part}.captions: the {what} of attn-trace's toy images, written by
# data/images/make-images.py (data/README.md).  One image a line:
#   FILE ||| CLASS ||| CAPTION ||| ROW COL HEIGHT WIDTH
# FILE is relative to this file; CLASS is dot, bar or box; the last field
# is the object's bounding box in pixels, rows and columns from 0 at the
# top left.
"""


def main(argv):
    if len(argv) != 2:
        sys.stderr.write("usage: make-images.py OUTDIR\n")
        return 2
    out = argv[1]
    rng = SplitMix64(29)
    objs = places()
    held = split(objs)
    lists = {"train": [], "heldout": []}
    for o, h in zip(objs, held):
        part = "heldout" if h else "train"
        name, cls, caption, pixels, box = o
        text = pgm(name, cls, caption, pixels, rng)
        os.makedirs(os.path.join(out, part), exist_ok=True)
        with open(os.path.join(out, part, name + ".pgm"), "w",
                  encoding="ascii", newline="\n") as f:
            f.write(text)
        lists[part].append("%s/%s.pgm ||| %s ||| %s ||| %d %d %d %d" %
                           ((part, name, cls, caption) + box))
    for part, what in (("train", "training set"),
                       ("heldout", "held-out set")):
        with open(os.path.join(out, part + ".captions"), "w",
                  encoding="ascii", newline="\n") as f:
            f.write(HEADER.format(part=part, what=what))
            f.write("\n".join(lists[part]) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
