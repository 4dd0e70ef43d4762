#!/usr/bin/env python3
"""present_check.py: checks the screens of "attn-trace tui --present" that
tests/tui-present.sh captured, against the JSON trace of the same sentence.

usage: present_check.py TRACE.json COLS DIR

DIR holds f1.txt, f2.txt, ... (the screens met going right from the
first) and b1.txt, ... (going left from the last back to the first).  The
screens must come in this order: a screen a source word, then for each
decoder step its decoder, scoring, softmax, weighted sum, concatenation
and output screens and then its picture; each must be numbered "N / TOTAL"
with N its place, and show its main numbers (h_i, s_t, e_t, alpha_t, c_t,
the attentional state, the output word; the picture its alpha_t) without
"more below", except on the output screen, which must show its output word
first.  Going left must give the same screens back.  At COLS >= 140 the
text must use the width: the text of each screen with a narrative
spans more than 100 columns.  Exits 1 with the first failure."""
import json
import os
import re
import sys

STAGES = ["decoder", "scoring", "softmax", "weighted sum", "concatenation",
          "output"]


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def num(v):
    return "%.4f" % v


def expected(tr):
    """(what, numbers, extra) for each screen, in order."""
    out = []
    for i, e in enumerate(tr["encoder"], 1):
        out.append(("stage 1 of 7: encoding   word %d" % i, e["state"], None))
    for st in tr["runs"][0]["steps"]:
        t = st["t"]
        vals = {"decoder": st["state"], "scoring": st["scores"],
                "softmax": st["weights"], "weighted sum": st["context"],
                "concatenation": st["attentional"], "output": []}
        for k, name in enumerate(STAGES, 2):
            extra = ("output word: " + st["output"]["token"]
                     if name == "output" else None)
            out.append(("stage %d of 7: %s   step t=%d" % (k, name, t),
                        vals[name], extra))
        out.append(("the picture of step t=%d" % t, st["weights"],
                    "── s_%d" % t))
    return out


def span(scr):
    """The columns from the leftmost start to the rightmost end of the
    text: the lines below the "screen N of" line and above the weight bars
    or the keys."""
    lines = scr.splitlines()
    at = next(k for k, l in enumerate(lines) if re.search(r"screen \d+ of", l))
    text = []
    for l in lines[at + 1:-1]:
        if l.lstrip().startswith("attention weights"):
            break
        if l.strip():
            text.append(l.rstrip())
    left = min(len(l) - len(l.lstrip()) for l in text)
    return max(len(l) for l in text) - left


def main():
    tr = json.load(open(sys.argv[1], encoding="utf-8"))
    cols, d = int(sys.argv[2]), sys.argv[3]
    want = expected(tr)
    total = len(want)
    fwd = []
    for n in range(1, total + 1):
        p = os.path.join(d, "f%d.txt" % n)
        if not os.path.exists(p):
            fail("screen %d was not captured" % n)
        fwd.append(open(p, encoding="utf-8").read())
    for n, (scr, (what, vals, extra)) in enumerate(zip(fwd, want), 1):
        band = scr.splitlines()[0]
        m = re.search(r"(\d+) / (\d+)\s*$", band)
        if not m or (int(m.group(1)), int(m.group(2))) != (n, total):
            fail("screen %d: its counter reads %r, not %d / %d"
                 % (n, m.group(0) if m else band, n, total))
        if "screen %d of %d" % (n, total) not in scr:
            fail("screen %d: the where line does not say screen %d of %d"
                 % (n, n, total))
        if what not in scr:
            fail("screen %d should be %r:\n%s" % (n, what, scr))
        for v in vals:
            if num(v) not in scr:
                fail("screen %d (%s): %s is not on screen:\n%s"
                     % (n, what, num(v), scr))
        if extra and extra not in scr:
            fail("screen %d (%s): %r is not on screen:\n%s"
                 % (n, what, extra, scr))
        if "output" in what and not re.search(r"output word: .*\n(.*\n)*.*"
                                              r"softmax\(W_s", scr):
            fail("screen %d (%s) does not lead with its output word:\n%s"
                 % (n, what, scr))
        if "more below" in scr and "output" not in what:
            fail("screen %d (%s) hides its end (\"more below\"):\n%s"
                 % (n, what, scr))
        if cols >= 140 and "picture" not in what and span(scr) <= 100:
            fail("screen %d (%s): its text spans %d of %d columns"
                 % (n, what, span(scr), cols))
    for n in range(total, 0, -1):
        p = os.path.join(d, "b%d.txt" % n)
        if not os.path.exists(p):
            fail("going left, screen %d was not captured" % n)
        if open(p, encoding="utf-8").read() != fwd[n - 1]:
            fail("going left, screen %d is not the one going right" % n)
    print("%d screens in order, numbered 1 to %d, each with its numbers"
          % (total, total))


main()
