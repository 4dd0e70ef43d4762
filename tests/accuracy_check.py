#!/usr/bin/env python3
"""accuracy_check.py: recomputes `attn-trace accuracy` from per-pair traces
and compares it with what the command wrote.

usage: accuracy_check.py PAIRS TRACES.jsonl REPORT.json LINE

PAIRS is the pairs file; TRACES.jsonl the greedy traces of its source
sentences, one a line in the file's order (`trace --batch --format=jsonl`
with one scorer, fed the source sides alone); REPORT.json the output of
`accuracy --format=json`; LINE the index (from 0) of the report's line
that those traces belong to.  The figures are worked out here from the
definition in doc/accuracy.md, not read from the report: for each pair,
the output (the trace's output words, without a final </s>) against the
target, position by position, and exact match; summed by source length.
Exits 1 with the differences if any count or share differs."""
import json
import sys
from collections import defaultdict


def pairs(path):
    out = []
    for line in open(path, encoding="utf-8"):
        line = line.split("#")[0].strip()
        if line:
            fields = line.split("|||")
            out.append((fields[0].split(), fields[1].split()))
    return out


def expected(ps, traces):
    by_len = defaultdict(lambda: {"pairs": 0, "exact": 0, "words": 0,
                                  "words_right": 0})
    for (src, tgt), tr in zip(ps, traces):
        assert tr["source"] == src, (tr["source"], src)
        out = tr["runs"][0]["output"]
        if out and out[-1] == "</s>":
            out = out[:-1]
        right = sum(1 for j, w in enumerate(tgt)
                    if j < len(out) and out[j].lower() == w.lower())
        exact = len(out) == len(tgt) and right == len(tgt)
        for key in (len(src), "all"):
            c = by_len[key]
            c["pairs"] += 1
            c["exact"] += exact
            c["words"] += len(tgt)
            c["words_right"] += right
    return by_len


def main(argv):
    ps = pairs(argv[1])
    traces = [json.loads(l) for l in open(argv[2], encoding="utf-8")]
    if len(traces) != len(ps):
        sys.exit("%d traces for %d pairs" % (len(traces), len(ps)))
    line = json.load(open(argv[3], encoding="utf-8"))["lines"][int(argv[4])]
    want = expected(ps, traces)
    got = {c["length"]: c for c in line["by_length"]}
    got["all"] = line["all"]
    bad = []
    if set(got) != set(want):
        bad.append("lengths: got %s, expected %s"
                   % (sorted(map(str, got)), sorted(map(str, want))))
    for key, w in want.items():
        g = got.get(key, {})
        for k, v in w.items():
            if g.get(k) != v:
                bad.append("length %s: %s %s, expected %s"
                           % (key, k, g.get(k), v))
        shares = (("word_accuracy", w["words_right"] / w["words"]),
                  ("exact_accuracy", w["exact"] / w["pairs"]))
        for k, v in shares:
            if g.get(k) != v:
                bad.append("length %s: %s %r, expected %r"
                           % (key, k, g.get(k), v))
    for b in bad:
        print(b)
    nonzero = sum(1 for k, w in want.items() if k != "all" and
                  0 < w["words_right"] < w["words"])
    print("%d lengths, %d with some words right and some wrong"
          % (len(want) - 1, nonzero))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
