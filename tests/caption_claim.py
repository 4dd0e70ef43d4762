#!/usr/bin/env python3
"""caption_claim.py: what data/caption4.model's comment claims, counted
again from the program's JSON traces with nothing of its C measure.

Usage: caption_claim.py BINARY MODEL TRAIN.captions HELDOUT.captions SCORER

For every training image, greedy decoding must give its caption exactly
(then </s>).  For every held-out image, teacher-forced on its caption,
each place word (top, bottom, left, right, middle) must have its largest
weight on a cell that the object's box (the .captions file's last field)
covers by a pixel or more, cell i (from 0) being pixel rows 2(i // 3) ..
+1 and columns 2(i % 3) .. +1.  Prints the counts; exit 1 when a training
caption is wrong or a held-out place word looks elsewhere.
"""
import json
import os
import subprocess
import sys

PLACES = {"top", "bottom", "left", "right", "middle"}


def images(path):
    base = os.path.dirname(path)
    for line in open(path, encoding="utf-8"):
        if line.startswith("#") or not line.strip():
            continue
        f, _cls, caption, box = [x.strip() for x in line.split("|||")]
        yield (os.path.join(base, f), caption.split(),
               [int(v) for v in box.split()])


def trace(binary, model, scorer, image, caption=None):
    argv = [binary, "caption", "--model=" + model, "--format=json",
            "--scorer=" + scorer, image]
    if caption:
        argv.insert(2, "--target=" + " ".join(caption))
    out = subprocess.run(argv, stdout=subprocess.PIPE, check=True).stdout
    return json.loads(out)["runs"][0]


def covers(box, cell):
    r0, c0, h, w = box
    rows = range(2 * (cell // 3), 2 * (cell // 3) + 2)
    cols = range(2 * (cell % 3), 2 * (cell % 3) + 2)
    return any(r0 <= r < r0 + h and c0 <= c < c0 + w
               for r in rows for c in cols)


def main(argv):
    binary, model, train, heldout, scorer = argv
    exact = total = 0
    for image, caption, _ in images(train):
        total += 1
        exact += trace(binary, model, scorer, image)["output"] == \
            caption + ["</s>"]
    on = places = 0
    for image, caption, box in images(heldout):
        run = trace(binary, model, scorer, image, caption)
        for t, word in enumerate(caption):
            if word in PLACES:
                w = run["steps"][t]["weights"]
                places += 1
                on += covers(box, w.index(max(w)))
    print("%s: training captions exact %d/%d; held-out place words on "
          "the object %d/%d" % (scorer, exact, total, on, places))
    return 0 if exact == total and on == places else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
