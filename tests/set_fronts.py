"""set_fronts.py: --set on heatmap, diagram, deck and quiz (issue 31
point 1) against the edited trace's JSON.

Usage: set_fronts.py BINARY TMPDIR

For each case (cases of tests/torch_set.py, read from its CASES, so the
edited JSON of each is checked against PyTorch there), it traces with
`trace --set ... --format=json`, then draws the same edits with every
front end and checks the numbers it drew against that JSON:

- heatmap -o FILE.svg: each cell's number is the edited weight α_t,i at
  the picture's precision (4);
- diagram --all-steps -o DIR: each step's data-alpha (every weight), the
  context's data-values and, in Luong's architecture, the query's (s_t);
- deck -o FILE.html: the weights table's data-w, every step and word;
- quiz --answers: each answer is e_t,i, exp(e_t,i - max)/sum or c_t[k] of
  the edited JSON, and no question asks for a number that --set gives.

Each picture must say it is a what-if, naming every edit ("--set
NAME=VALUE"), and the case must change a number the front end shows
(compared with the unedited JSON), so a front end that draws the
unedited trace fails.  Exit 0 when all agree, 1 otherwise.
"""
import ast
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)


def torch_cases():
    """tests/torch_set.py's CASES, read without importing torch."""
    tree = ast.parse(open(os.path.join(HERE, "torch_set.py"),
                          encoding="utf-8").read())
    for node in tree.body:
        if isinstance(node, ast.Assign) and \
                getattr(node.targets[0], "id", "") == "CASES":
            return ast.literal_eval(node.value)
    raise SystemExit("torch_set.py has no CASES")


# (model, scorer, sentence, edits) of torch_set.py's CASES: a weight of
# the model, a score, a weight, a weight and a context, Bahdanau's state
WANT = [
    ("general", ["general.W[2][3]=0.5", "encoder.W_h[1][4]=-0.25"]),
    ("dot", ["step[2].scores[1]=3"]),
    ("general", ["step[1].alpha[2]=0.9"]),
    ("location-aware", ["step[1].weights[1]=0", "step[2].c[4]=0.25"]),
    ("additive", ["step[1].s[1]=0.5", "step[2].alpha[1]=0.8"]),
]

FAILED = []


def check(ok, what):
    if not ok:
        FAILED.append(what)
        print("not ok: " + what)


def run(binary, args, ok=0):
    p = subprocess.run([binary] + args, capture_output=True, text=True)
    if p.returncode != ok:
        raise SystemExit("%s: exit %d: %s" % (" ".join(args), p.returncode,
                                              p.stderr))
    return p.stdout


def fixed(x, prec=4):
    s = "%.*f" % (prec, x)
    return "0." + "0" * prec if s == "-0." + "0" * prec else s


def canonical(edit):
    """The name and value an edit is written with: step[T].PLAIN[K]."""
    name, value = edit.split("=")
    alias = {"s": "state", "e": "scores", "alpha": "weights",
             "c": "context"}
    m = re.fullmatch(r"step\[(\d+)\]\.(\w+)\[(\d+)\]", name)
    if m:
        name = "step[%s].%s[%s]" % (m.group(1),
                                    alias.get(m.group(2), m.group(2)),
                                    m.group(3))
    return "--set %s=%s" % (name, repr(float(value)).rstrip("0")
                            .rstrip(".") if "." in value else value)


def says_whatif(text, edits, what):
    for e in edits:
        check(canonical(e) in text, "%s names %s" % (what, canonical(e)))


def steps(doc):
    return doc["runs"][0]["steps"]


def heatmap(binary, common, edits, doc, base, tmp):
    out = os.path.join(tmp, "h.svg")
    run(binary, ["heatmap"] + common + ["-o", out])
    svg = open(out, encoding="utf-8").read()
    got = re.findall(r'<text class="value"[^>]*>([^<]*)</text>', svg)
    want = [fixed(a) for s in steps(doc) for a in s["weights"]]
    check(got == want, "heatmap: the cells are the edited weights "
          "(%s, expected %s)" % (got, want))
    unedited = [fixed(a) for s in steps(base) for a in s["weights"]]
    check(want != unedited, "heatmap: the edits change a weight shown")
    lines = re.findall(r'class="subtitle whatif"[^>]*>([^<]*)<', svg)
    check(lines != [], "heatmap: a what-if subtitle")
    says_whatif(" ".join(lines), edits, "heatmap's subtitle")


def floats(s):
    return [float(x) for x in s.split()]


def close(a, b):
    return len(a) == len(b) and all(abs(x - y) <= 1e-12 * (1 + abs(y))
                                     for x, y in zip(a, b))


def diagram(binary, common, edits, doc, base, tmp, luong):
    d = os.path.join(tmp, "steps")
    run(binary, ["diagram", "--all-steps"] + common + ["-o", d])
    changed = 0
    for t, s in enumerate(steps(doc), 1):
        svg = open(os.path.join(d, "step-%d.svg" % t),
                   encoding="utf-8").read()
        alpha = [float(x) for x in re.findall(r'data-alpha="([^"]*)"', svg)]
        check(close(alpha, s["weights"]), "diagram step %d: the weights "
              "%s, expected %s" % (t, alpha, s["weights"]))
        ctx = re.search(r'class="context" data-values="([^"]*)"', svg)
        check(ctx and close(floats(ctx.group(1)), s["context"]),
              "diagram step %d: the context" % t)
        if luong:
            q = re.search(r'class="query" data-values="([^"]*)"', svg)
            check(q and close(floats(q.group(1)), s["state"]),
                  "diagram step %d: the query s_t" % t)
        b = steps(base)[t - 1] if t <= len(steps(base)) else None
        changed |= b is None or b["weights"] != s["weights"] or \
            b["context"] != s["context"] or b["state"] != s["state"]
        lines = re.findall(r'class="whatif"[^>]*>([^<]*)<', svg)
        check(lines != [], "diagram step %d: a what-if line" % t)
        says_whatif(" ".join(lines), edits, "diagram's line")
    check(changed, "diagram: the edits change a number drawn")


def deck(binary, common, edits, doc, tmp):
    out = os.path.join(tmp, "deck.html")
    run(binary, ["deck"] + common + ["-o", out])
    html = open(out, encoding="utf-8").read()
    got = [float(x) for x in re.findall(r'<td[^>]*data-w="([^"]*)"', html)]
    want = [a for s in steps(doc) for a in s["weights"]]
    check(close(got, want), "deck: the weights table is the edited "
          "weights (%s, expected %s)" % (got, want))
    slides = len(re.findall(r'<section class="slide"', html))
    notes = re.findall(r'<p class="whatif">([^<]*)</p>', html)
    check(slides > 1 and len(notes) == slides - 1,
          "deck: every slide but the title says what-if (%d of %d)"
          % (len(notes), slides))
    says_whatif(notes[0] if notes else "", edits, "deck's slides")


def given(edits, kind, t, ix):
    """Whether --set gives the number a question asks for (quiz_given)."""
    for e in edits:
        m = re.fullmatch(r"step\[(\d+)\]\.(\w+)\[(\d+)\]=.*", e)
        if not m or int(m.group(1)) != t:
            continue
        key = {"s": "state", "e": "scores", "alpha": "weights",
               "c": "context"}.get(m.group(2), m.group(2))
        k = int(m.group(3))
        if (kind, key) in (("e", "scores"), ("α", "weights")) and k == ix:
            return True
        if kind == "c" and (key == "weights" or
                            (key == "context" and k == ix)):
            return True
    return False


def quiz(binary, common, edits, doc):
    text = run(binary, ["quiz", "--answers", "--count=12", "--seed=7"]
               + common)
    answers = re.findall(r"\(answer: (e|α|c)_(\d+)(?:,(\d+)|\[(\d+)\]) = "
                         r"(\S+)\)", text)
    check(len(answers) == 12, "quiz: 12 answers (%d)" % len(answers))
    for kind, t, i, k, v in answers:
        t = int(t)
        s = steps(doc)[t - 1]
        ix = int(i or k)
        if kind == "e":
            want = s["scores"][ix - 1]
        elif kind == "α":
            want = s["softmax"]["exp"][ix - 1] / s["softmax"]["sum"][0]
        else:
            want = s["context"][ix - 1]
        check(abs(float(v) - want) <= 0.5e-4 + 1e-12,
              "quiz: %s_%d,%d = %s, expected %.6f" % (kind, t, ix, v, want))
        check(not given(edits, kind, t, ix),
              "quiz: %s_%d,%d is given by --set, not asked" % (kind, t, ix))
    check("what-if: " in text, "quiz: the header says what-if")
    says_whatif(" ".join(text.split()), edits, "quiz's header")


def main():
    binary, tmp = sys.argv[1], sys.argv[2]
    cases = torch_cases()
    for scorer, edits in WANT:
        case = [c for c in cases if c[1] == scorer and c[3] == edits]
        check(len(case) == 1, "%s %s is a case of torch_set.py"
              % (scorer, edits))
        if not case:
            continue
        model, _, sentence, _ = case[0][:4]
        common = ["--scorer=" + scorer] + \
            (["--model=" + os.path.join(TOP, model)] if model else []) + \
            ["--set=" + e for e in edits] + [sentence]
        unedited = [a for a in common if not a.startswith("--set=")]
        doc = json.loads(run(binary, ["trace", "--format=json"] + common))
        base = json.loads(run(binary, ["trace", "--format=json"] +
                              unedited))
        before = len(FAILED)
        heatmap(binary, common, edits, doc, base, tmp)
        diagram(binary, common, edits, doc, base, tmp,
                doc.get("architecture", "luong") != "bahdanau" and
                not (model and "bahdanau" in model))
        deck(binary, common, edits, doc, tmp)
        quiz(binary, common, edits, doc)
        print("%s %s: %s" % ("ok" if len(FAILED) == before else "not ok",
                             scorer, " ".join(edits)))
    print("%d failed" % len(FAILED))
    return 1 if FAILED else 0


if __name__ == "__main__":
    sys.exit(main())
