#!/usr/bin/python3
"""calc_md.py: attn-trace calc's Markdown read back against its JSON.

    calc_md.py ATTN_TRACE

For every scorer of the registry and random sizes (d, d_v 1 to 16, n 1 to
12, digits 0 to 8, from a fixed seed), calc is run twice with the same
query, keys and values, -f json and -f markdown -p P.  The Markdown is
parsed back (the inputs' table, each score's row: e, its terms, its
divisor and intermediates, the softmax's max and sum, each key's shifted
score, exp, weight and weighted value, the output), and every number must
equal the JSON's rounded to P digits (torch_calc.py checks the JSON
against PyTorch).  Every number of the JSON must be found.  Exit 0, or 1
with the first disagreement.
"""
import json
import os
import random
import re
import subprocess
import sys

NUM = r"-?\d+(?:\.\d+)?"


class Mismatch(Exception):
    pass


def nums(s):
    return [float(x) for x in re.findall(NUM, s)]


def same(what, md, js, prec):
    """md (numbers read back) against js (the JSON's), to prec digits."""
    if len(md) != len(js):
        raise Mismatch("%s: %d numbers in the Markdown, %d in the JSON"
                       % (what, len(md), len(js)))
    for a, b in zip(md, js):
        if abs(a - b) > 0.5 * 10 ** -prec + 1e-12 * max(1, abs(b)):
            raise Mismatch("%s: Markdown %r, JSON %r (%d digits)"
                           % (what, a, b, prec))


def code(cell):
    """The numbers of the `...` parts of a table cell, in order."""
    return [nums(c) for c in re.findall(r"`([^`]*)`", cell)]


def cells(line):
    return [c.strip() for c in line.strip().strip("|").split("|")]


def rows(md, heading):
    """The table rows (cells) of the section under '## heading'."""
    sec = md.split("## " + heading + "\n", 1)[1].split("\n## ", 1)[0]
    lines = [ln for ln in sec.splitlines() if ln.startswith("|")]
    return [cells(ln) for ln in lines[2:]], sec


def check_inputs(md, js, prec):
    want = [("s_1", js["query"])]
    want += [("h_%d" % (i + 1), k) for i, k in enumerate(js["keys"])]
    want += [("v_%d" % (i + 1), v) for i, v in enumerate(js["values"])]
    for key, w in js["weights"].items():
        for j, row in enumerate(w if isinstance(w[0], list) else [w]):
            want.append(("%s.%s[%d]" % (js["scorer"], key, j + 1), row))
    got, _ = rows(md, "Inputs")
    if len(got) != len(want):
        raise Mismatch("Inputs: %d rows, %d expected" % (len(got),
                                                         len(want)))
    for (label, v), row in zip(want, got):
        if row[0].replace("\\", "") != label:
            raise Mismatch("Inputs: row %r, expected %r" % (row[0], label))
        same("Inputs " + label, code(row[1])[0], v, prec)


def check_scores(md, js, prec):
    got, _ = rows(md, "Scores")
    if len(got) != js["n"]:
        raise Mismatch("Scores: %d rows for n = %d" % (len(got), js["n"]))
    for s, row in zip(js["scores"], got):
        same("e_%d" % s["i"], nums(row[0] + " " + row[1]), [s["i"], s["e"]],
             prec)
        terms = [x for t in s["terms"] for x in t]
        same("e_%d's terms" % s["i"], nums(row[2]),
             terms + ([s["divisor"]] if "divisor" in s else []), prec)
        mids = [k for k in s if k not in ("i", "e", "terms", "divisor")]
        parts = [p.split(" = ", 1) for p in row[3].split("; ") if p]
        if [p[0].replace("\\", "") for p in parts] != mids:
            raise Mismatch("e_%d's intermediates %r, JSON %r"
                           % (s["i"], row[3], mids))
        for (k, v), key in zip(parts, mids):
            same("e_%d's %s" % (s["i"], key), code(v)[0], s[key], prec)


def check_sum(md, js, prec):
    sm = js["softmax"]
    got, sec = rows(md, "Softmax and the weighted sum")
    m = re.search(r"max = (%s), sum = (%s)" % (NUM, NUM), sec)
    same("max and sum", [float(m.group(1)), float(m.group(2))],
         [sm["max"], sm["sum"]], prec)
    if len(got) != js["n"]:
        raise Mismatch("softmax: %d rows for n = %d" % (len(got), js["n"]))
    for i, row in enumerate(got):
        same("softmax row %d" % (i + 1), nums(" ".join(row[:4])),
             [i + 1, sm["shifted"][i], sm["exp"][i], sm["weights"][i]],
             prec)
        same("α_%d·v_%d" % (i + 1, i + 1), code(row[4])[0],
             js["weighted"][i], prec)
    out = re.search(r"The output c_1 = Σ_i α_i·v_i = `([^`]*)`", sec)
    same("the output", nums(out.group(1)), js["output"], prec)


def run(binary, args):
    p = subprocess.run([binary, "calc"] + args, capture_output=True,
                       text=True)
    if p.returncode != 0 or p.stderr:
        raise Mismatch("calc %s: exit %d: %s" % (" ".join(args),
                                                p.returncode, p.stderr))
    return p.stdout


def main(argv):
    binary = argv[1]
    sys.dont_write_bytecode = True
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import registry
    rng = random.Random(314)
    count = 0
    try:
        for scorer, _ in registry.scorers(binary):
            for case in range(3):
                d, dv, n = (rng.randint(1, 16), rng.randint(1, 16),
                            rng.randint(1, 12))
                prec = rng.randint(0, 8) if case else 4
                vec = lambda k: ",".join("%.6f" % rng.uniform(-2, 2)
                                         for _ in range(k))
                args = ["-s", scorer, "--seed", str(rng.randint(0, 999)),
                        "--query=" + vec(d),
                        "--keys=" + ";".join(vec(d) for _ in range(n)),
                        "--values=" + ";".join(vec(dv) for _ in range(n))]
                js = json.loads(run(binary, ["-f", "json"] + args))
                md = run(binary, ["-f", "markdown", "-p", str(prec)] + args)
                check_inputs(md, js, prec)
                check_scores(md, js, prec)
                check_sum(md, js, prec)
                count += 1
    except Mismatch as e:
        print("calc_md.py: %s" % e)
        return 1
    print("calc_md.py: %d cases, every number of the JSON in the Markdown"
          % count)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
