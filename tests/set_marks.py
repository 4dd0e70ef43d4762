"""set_marks.py: the marks of --set in the text trace (issue 31), checked
from the formula.

Usage: set_marks.py GOLDEN UNEDITED_JSON

GOLDEN is tests/golden/set-marks.txt, the softmax stage of
  trace --scorer=dot --stage=softmax --target='i am'
        --set='step[1].scores[2]=-3' je suis
and UNEDITED_JSON the same trace without --set, as JSON.  From the
unedited scores e_1 this script computes, with Python's math, step 1's
softmax twice: as it was, and with e_1,2 = -3 (the edit).  Each line of
step 1's softmax must show the edited numbers (4 digits), and under it a
line "was" with each unedited number that prints differently, ending in
the column where the edited one ends, and nothing under those that print
the same.  Steps 2 and 3 read nothing of step 1's attention (Luong's
decoder without input feeding, teacher-forced): no marks there.  Exit 0
when all of it holds, 1 when not.
"""
import json
import math
import re
import sys

NUM = re.compile(r"(?<![\w.])-?\d+\.\d+")


def softmax_lines(e):
    """Step 1's softmax as the trace's lines list their numbers."""
    top = max(e)
    shifted = [x - top for x in e]
    ex = [math.exp(x) for x in shifted]
    total = sum(ex)
    alpha = [x / total for x in ex]
    lines = [list(e), [top]]
    lines += [[shifted[i], ex[i]] for i in range(len(e))]
    lines.append(ex + [total])
    lines += [[ex[i], total, alpha[i]] for i in range(len(e))]
    lines.append(alpha)
    return lines


def numbers(line):
    """(text, end column) of each number of line."""
    return [(m.group(), m.end()) for m in NUM.finditer(line)]


def main(golden, unedited):
    text = open(golden, encoding="utf-8").read().split("\n")
    e = json.load(open(unedited, encoding="utf-8"))["runs"][0]["steps"][0][
        "scores"]
    edited = [e[0], -3.0] + e[2:]
    new, old = softmax_lines(edited), softmax_lines(e)
    start = text.index("--- softmax ---") + 1
    body = [ln for ln in text[start:text.index("", start)]]
    mains = [ln for ln in body if not ln.startswith("was")]
    fails = []
    if len(mains) != len(new):
        fails.append("step 1 has %d lines, expected %d" % (len(mains),
                                                           len(new)))
    k = 0
    for want_new, want_old in zip(new, old):
        line = mains[k]
        at = body.index(line)
        got = numbers(line)
        if [g for g, _ in got] != ["%.4f" % x for x in want_new]:
            fails.append("%r: expected %s" % (line, want_new))
        was = body[at + 1] if at + 1 < len(body) and \
            body[at + 1].startswith("was") else ""
        marks = dict((end, g) for g, end in numbers(was))
        for (g, end), x in zip(got, want_old):
            o = "%.4f" % x
            if o != g and marks.get(end) != o:
                fails.append("%r: %s was %s, marked %r" % (line, g, o, was))
            if o == g and end in marks:
                fails.append("%r: %s did not change, marked" % (line, g))
        if len(marks) != sum("%.4f" % x != g
                             for (g, _), x in zip(got, want_old)):
            fails.append("%r: marks %r" % (line, was))
        k += 1
    rest = text[text.index("=== dot, t=2: the decoder reads i ==="):]
    if any(ln.startswith("was") for ln in rest):
        fails.append("steps 2 and 3 are marked")
    if not any(ln.startswith("was") for ln in body):
        fails.append("step 1 has no marks")
    for f in fails:
        print("FAIL " + f)
    print("%d marked lines checked, %d failures"
          % (sum(ln.startswith("was") for ln in body), len(fails)))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
