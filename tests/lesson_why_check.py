#!/usr/bin/env python3
"""lesson_why_check.py: the accuracy figures lesson 3 quotes, recomputed
from per-pair greedy traces by the definition of doc/accuracy.md
(tests/accuracy_check.py's expected()), not read from the program.

usage: lesson_why_check.py PAIRS ATTN.jsonl BASE.jsonl LESSON.txt

ATTN.jsonl and BASE.jsonl are the greedy traces of PAIRS' sources by
longattn8 and by longfixed8 through the fixed window; LESSON.txt is
`lesson 3 --plain` with its lines joined.  Exits 1 with what differs."""
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from accuracy_check import expected, pairs  # noqa: E402


def shares(path, traces):
    ps = pairs(path)
    by_len = expected(ps, [json.loads(l) for l in open(traces,
                                                       encoding="utf-8")])
    word = {k: c["words_right"] / c["words"] for k, c in by_len.items()}
    exact = {k: c["exact"] / c["pairs"] for k, c in by_len.items()}
    return word, exact


def main(argv):
    aw, ae = shares(argv[1], argv[2])
    bw, be = shares(argv[1], argv[3])
    text = open(argv[4], encoding="utf-8").read()
    pat = (r"the baseline gets (\S+) of the words right; on pairs of 12 "
           r"words, only (\S+), and (\S+) at 14\. .* Attention's holds: "
           r"(\S+) at 3 words, (\S+) at 12 and (\S+) at 14\. Of whole "
           r"sentences, attention gets (\S+) exactly right, the baseline "
           r"(\S+)\.")
    m = re.search(pat, text)
    if not m:
        sys.exit("lesson 3's page 'Reading the chart' not found")
    want = [bw[3], bw[12], bw[14], aw[3], aw[12], aw[14], ae["all"],
            be["all"]]
    bad = ["%s quoted, %.2f recomputed" % (g, w)
           for g, w in zip(m.groups(), want) if g != "%.2f" % w]
    # the claims of the page, from the recomputed figures
    if not (bw[12] < bw[3] and bw[14] < bw[3]):
        bad.append("the baseline's accuracy does not fall")
    if min(aw[3], aw[12], aw[14]) < 0.85:
        bad.append("attention's accuracy does not hold at 0.85")
    if bad:
        sys.exit("\n".join(bad))


if __name__ == "__main__":
    main(sys.argv)
