#!/usr/bin/env python3
"""glimpse_formats_check.py: attn-trace glimpse's JSON Lines, CSV and
Markdown hold every value of its JSON trace (issue 29), and the JSON
validates against doc/glimpse.schema.json.  The JSON trace itself is
checked number by number against PyTorch by glimpse_torch_check.py;
here each other format is read back on its own terms and compared with
it: JSON Lines exactly, CSV exactly (shortest round-trip numbers, the
symbol a JSON key, i and j its indices from 1), Markdown to its
--precision digits.  A --batch list gives the same traces as the images
one by one, with their lines.

Usage: glimpse_formats_check.py ATTN_TRACE SRCDIR TMPDIR
"""
import csv
import io
import json
import os
import re
import subprocess
import sys

import jsonschema

PROG, SRC, TMP = sys.argv[1:4]
IMG = os.path.join(SRC, "data", "images")
with open(os.path.join(SRC, "doc", "glimpse.schema.json"), encoding="utf-8") as f:
    SCHEMA = json.load(f)
V = jsonschema.Draft202012Validator
V.check_schema(SCHEMA)
fails = 0


def ok(cond, what):
    global fails
    print("%s - %s" % ("ok" if cond else "not ok", what))
    if not cond:
        fails += 1


def run(*args):
    p = subprocess.run([PROG, "glimpse"] + list(args), capture_output=True)
    if p.returncode:
        sys.exit("glimpse %s: exit %d: %s" % (" ".join(args), p.returncode,
                                             p.stderr.decode()))
    return p.stdout.decode("utf-8")


def from_csv(text, batch=False):
    """The traces a CSV holds, rebuilt as JSON objects from its rows
    alone, keyed by image (and line in a batch)."""
    rows = list(csv.DictReader(io.StringIO(text)))
    docs = {}
    for r in rows:
        key = (int(r["line"]) if batch else 0, r["image"])
        d = docs.setdefault(key, {"kind": "glimpse", "image": r["image"],
                                  "steps": []})
        if batch:
            d["line"] = int(r["line"])
        t, sym = int(r["t"]), r["symbol"]
        num = None if r["value"] == "" else float(r["value"])
        val = r["name"] if num is None else num
        if sym == "seed":
            val = int(r["name"])
        if t > 0:
            while len(d["steps"]) < t:
                d["steps"].append({"t": len(d["steps"]) + 1})
            d = d["steps"][t - 1]
        if r["i"] == "":
            d[sym] = val
            continue
        arr = d.setdefault(sym, [])
        i = int(r["i"]) - 1
        if r["j"] != "":
            while len(arr) <= i:
                arr.append([])
            arr = arr[i]
            i = int(r["j"]) - 1
        ok_place = len(arr) == i
        if not ok_place:
            sys.exit("CSV row out of order: %r" % r)
        arr.append(val)
    for d in docs.values():  # whole numbers, as JSON writes them
        for k in ("height", "width", "reward"):
            if k in d and d[k] == int(d[k]):
                d[k] = int(d[k])
        for s in d["steps"]:
            s["corner"] = [int(x) for x in s["corner"]]
    return docs


def near(a, b, prec):
    return abs(a - b) <= 0.5 * 10 ** -prec + 1e-9


def md_nums(s):
    return [float(x) for x in re.findall(r"-?\d+\.\d+|-?\d+", s)]


def from_md(text, doc, prec):
    """Every number of the Markdown handout against doc's, to prec
    digits; returns how many were compared."""
    n = 0
    def same(got, want, what):
        nonlocal n
        if len(got) != len(want) or not all(near(a, b, prec)
                                            for a, b in zip(got, want)):
            sys.exit("markdown %s: %s, the JSON %s" % (what, got, want))
        n += len(want)
    rows = re.findall(r"^\| (\d+) \|((?: -?\d+\.\d+ \|)+)$", text.split("## Glimpse 1")[0], re.M)
    same([v for _, r in rows for v in md_nums(r)],
         [v for row in doc["pixels"] for v in row], "pixels")
    head = text.split("\n\n")[1]
    same(md_nums(re.search(r"σ = (\S+),", head).group(1)), [doc["sigma"]], "σ")
    ok_seed = re.search(r"seed (\d+);", head)
    if int(ok_seed.group(1)) != doc["seed"] or doc["draw"] not in head:
        sys.exit("markdown heading: %s" % head)
    parts = re.split(r"^## Glimpse \d+ of \d+$", text, flags=re.M)[1:]
    parts[-1], tail = parts[-1].split("## The class")
    for s, part in zip(doc["steps"], parts):
        vec = lambda label: md_nums(re.search(
            r"^" + re.escape(label) + r"[^`\n]*`\[([^\]]*)\]`", part,
            re.M).group(1))
        row = lambda label: md_nums(re.search(
            r"^\| " + re.escape(label) + r"[^|]*\|(.*)$", part,
            re.M).group(1))
        t = s["t"]
        same(vec("h_%d" % (t - 1)), s["h_prev"], "h_prev")
        for label, key in (("W_l·h", "a_l"), ("l̂_", "l_hat"), ("u ", "u"),
                           ("ε ", "eps"), ("l_%d " % t, "l"),
                           ("∂ log π", "dlog_pi_dl_hat"),
                           ("corner", "corner")):
            same(row(label), s[key], "%s of glimpse %d" % (key, t))
        same(md_nums(re.search(r"^log π\(.*\) = (\S+)$", part,
                               re.M).group(1)), [s["log_pi"]], "log_pi")
        for label, key in (("fovea", "fovea"), ("periphery", "periphery"),
                           ("[ρ_%d; l_%d]" % (t, t), "x"), ("W_g·", "a_g"),
                           ("φ_%d" % t, "g"), ("W_h·h", "a_h"),
                           ("h_%d = tanh" % t, "h")):
            same(vec(label), s[key], "%s of glimpse %d" % (key, t))
    cls = re.findall(r"^\| (\d+) \| (\S+) \| (\S+) \| (\S+) \|$", tail, re.M)
    if [c for _, c, _, _ in cls] != doc["classes"]:
        sys.exit("markdown classes: %s" % cls)
    same([float(z) for _, _, z, _ in cls], doc["z"], "z")
    same([float(p) for _, _, _, p in cls], doc["p"], "p")
    if "Class: **%s**" % doc["class"] not in tail:
        sys.exit("markdown: the class %s is not named" % doc["class"])
    if "true_class" in doc:
        m = re.search(r"True class: \*\*(\S+)\*\*; loss -log ŷ\[true class\] = (\S+), "
                      r"reward R = (\S+)$", tail, re.M)
        if m.group(1) != doc["true_class"]:
            sys.exit("markdown: true class %s" % m.group(1))
        same([float(m.group(2)), float(m.group(3))],
             [doc["loss"], doc["reward"]], "loss and reward")
        bt = re.findall(r"^\| (\d+) \| (\S+) \| (\S+) \|$", tail, re.M)
        same([float(b) for _, b, _ in bt], doc["baseline"], "baseline")
        same([float(a) for _, _, a in bt], doc["advantage"], "advantage")
    elif "True class" in tail:
        sys.exit("markdown: a true class without --class")
    return n


CASES = [
    ["train/bar-x0.pgm", "--class=bar"],
    ["heldout/dot-y1-x4.pgm", "--seed=7"],
    ["train/box-y0-x0.pgm", "--mean", "--class=dot"],
]
for args in CASES:
    path = [os.path.join(IMG, args[0])] + args[1:]
    what = " ".join(args)
    doc = json.loads(run("-f", "json", *path))
    V(SCHEMA).validate(doc)
    ok(True, "%s: the JSON validates against doc/glimpse.schema.json" % what)
    lines = run("-f", "jsonl", *path).splitlines()
    ok(len(lines) == 1 and json.loads(lines[0]) == doc,
       "%s: jsonl is the JSON on one line" % what)
    got = from_csv(run("-f", "csv", *path))
    ok(list(got.values()) == [doc],
       "%s: csv holds every value of the JSON, exactly" % what)
    for prec in (4, 2):
        n = from_md(run("-f", "markdown", "-p", str(prec), *path), doc, prec)
        ok(n > 200, "%s: markdown -p %d: %d numbers agree with the JSON"
           % (what, prec, n))

# a --batch list, relative paths from its directory, against the images
# one by one
lst = os.path.join(TMP, "images.list")
with open(lst, "w", encoding="utf-8") as f:
    f.write("# two images\n%s ||| bar\n\n%s\n" % (
        os.path.relpath(os.path.join(IMG, "train", "bar-x0.pgm"), TMP),
        os.path.abspath(os.path.join(IMG, "heldout", "dot-y1-x4.pgm"))))
one = [json.loads(run("-f", "json", "--seed=3",
                      os.path.join(IMG, "train", "bar-x0.pgm"), "--class=bar")),
       json.loads(run("-f", "json", "--seed=3",
                      os.path.abspath(os.path.join(IMG, "heldout", "dot-y1-x4.pgm"))))]
batch = json.loads(run("-f", "json", "--seed=3", "--batch=" + lst))
V(SCHEMA).validate(batch)
ok([b.pop("line") for b in batch] == [2, 4], "batch: the lines 2 and 4")
for b, o in zip(batch, one):
    b.pop("image"), o.pop("image")
ok(batch == one, "batch json: the traces of the images one by one")
jl = [json.loads(x) for x in run("-f", "jsonl", "--seed=3",
                                 "--batch=" + lst).splitlines()]
for x in jl:
    V(SCHEMA["$defs"]["batch_line"] | {"$defs": SCHEMA["$defs"]}).validate(x)
ok([x["line"] for x in jl] == [2, 4] and
   [dict((k, v) for k, v in x.items() if k not in ("line", "image"))
    for x in jl] == one, "batch jsonl: a line each, the same traces")
cs = from_csv(run("-f", "csv", "--seed=3", "--batch=" + lst), batch=True)
ok([k[0] for k in cs] == [2, 4] and
   [dict((k, v) for k, v in d.items() if k not in ("line", "image"))
    for d in cs.values()] == one, "batch csv: the line column, the same values")
md = run("-f", "markdown", "--seed=3", "--batch=" + lst).split("\n---\n\n")
ok(len(md) == 2 and all(from_md(m, o, 4) > 200 for m, o in zip(md, one)),
   "batch markdown: a section an image, its numbers the JSON's")

# the schema refuses what the program must not write
doc = json.loads(run("-f", "json", os.path.join(IMG, "train", "bar-x0.pgm"),
                     "--class=bar"))
for bad, what in (({k: v for k, v in doc.items() if k != "p"}, "no p"),
                  (dict(doc, extra=1), "a key added"),
                  ({k: v for k, v in doc.items() if k != "loss"},
                   "a loss missing beside true_class"),
                  (dict(doc, steps=[{k: v for k, v in doc["steps"][0].items()
                                     if k != "log_pi"}]), "a step without log_pi")):
    ok(not V(SCHEMA).is_valid(bad), "the schema refuses a trace with " + what)
sys.exit(1 if fails else 0)
