#!/usr/bin/env python3
"""schema.py: the JSON Schemas doc/trace.schema.json and
doc/model.schema.json (draft 2020-12) accept what the program writes and
refuse what it must not (issue 33).

Validated with python3-jsonschema (Debian's): every JSON golden in
tests/golden, a trace of every variant of tests/json_csv.py (and the same
in JSON Lines), self- and cross-attention, the lines of a batch against
$defs/batch_line, and the models built in, in data/, lessons/models and
tests/data.  Then documents with a key taken out, a key added and a
one-row matrix written flat must each fail.

Usage: schema.py ATTN_TRACE SRCDIR
"""
import copy
import glob
import json
import os
import subprocess
import sys

import jsonschema

PROG, SRC = sys.argv[1], sys.argv[2]
sys.argv[1:] = [PROG, SRC]
sys.path.insert(0, os.path.join(SRC, "tests"))
import json_csv  # noqa: E402  (the variants)

V = jsonschema.Draft202012Validator
with open(os.path.join(SRC, "doc", "trace.schema.json"), encoding="utf-8") as f:
    TRACE = json.load(f)
with open(os.path.join(SRC, "doc", "model.schema.json"), encoding="utf-8") as f:
    MODEL = json.load(f)
V.check_schema(TRACE)
V.check_schema(MODEL)
LINE = dict(TRACE, **{"$ref": "#/$defs/batch_line"})
del LINE["oneOf"]
checked = 0


def out(*args):
    p = subprocess.run([PROG] + list(args), capture_output=True)
    if p.returncode:
        sys.exit("%s: exit %d: %s" % (" ".join(args), p.returncode,
                                     p.stderr.decode()))
    return p.stdout.decode("utf-8")


def valid(schema, doc, what):
    global checked
    e = jsonschema.exceptions.best_match(V(schema).iter_errors(doc))
    if e is not None:
        while e.context:  # the branch of a oneOf that came closest
            e = jsonschema.exceptions.best_match(e.context)
        sys.exit("%s: %s at %s" % (what, e.message[:300],
                                   list(e.absolute_path)))
    checked += 1


def invalid(schema, doc, what):
    if V(schema).is_valid(doc):
        sys.exit("%s: the schema accepts it" % what)
    print("ok - refused: %s" % what)


for path in sorted(glob.glob(os.path.join(SRC, "tests", "golden", "*.json"))):
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    valid(MODEL if doc.get("format", "").startswith("attn-trace-model")
          else TRACE, doc, path)
print("ok - %d JSON goldens" % checked)

for args in json_csv.VARIANTS:
    valid(TRACE, json.loads(out("trace", "--format=json", *args)),
          "trace " + " ".join(args))
    for line in out("trace", "--format=jsonl", *args).splitlines():
        valid(TRACE, json.loads(line), "trace --format=jsonl " + " ".join(args))
for args in json_csv.SELF_VARIANTS:
    valid(TRACE, json.loads(out("self", "--format=json", *args)),
          "self " + " ".join(args))
valid(TRACE, json.loads(out("trace", "--format=json", "--arch=all")),
      "trace --arch=all")
valid(TRACE, json.loads(out("trace", "--format=json", "--stage=softmax",
                            "--scorer=all")), "trace --stage=softmax")
# --set: a model's number and a step's values, in both architectures
for arch in ("luong", "bahdanau"):
    valid(TRACE, json.loads(out("trace", "--format=json", "--arch=" + arch,
                                "--scorer=all", "--set=step[1].alpha[2]=0.9",
                                "--set=step[1].s[1]=0.5",
                                "--set=decoder.b[1]=0.1")),
          "trace --set --arch=" + arch)
lines = out("trace", "--format=jsonl", *json_csv.BATCH).splitlines()
for line in lines:
    valid(LINE, json.loads(line), "batch line")
valid(TRACE, json.loads(out("trace", "--format=json", *json_csv.BATCH)),
      "batch as one JSON array")
print("ok - traces of %d variants, self and cross, a batch of %d lines"
      % (len(json_csv.VARIANTS), len(lines)))

models = ["toy4", "handset4", "bahdanau4", "self4", "localp4", "feed4",
          "hard4", "longattn8", "longfixed8"]
for d in ("data", "lessons/models", "tests/data"):
    models += sorted(
        p for p in glob.glob(os.path.join(SRC, d, "*.model"))
        # a glimpse model (attn-trace glimpse, doc/model-format.md) is
        # not an attention model: model.schema.json is not its schema
        if "\nattn-trace-glimpse " not in open(p, encoding="utf-8").read())
import tempfile  # noqa: E402
tmp = tempfile.mkdtemp()
h1 = os.path.join(tmp, "h1.model")  # H = 1: one-row matrices
out("train", "--pairs=" + os.path.join(SRC, "data", "toy.pairs"), "--hidden=1",
    "--epochs=0", "--scorer=all", "-o", h1)
models.append(h1)
for m in models:
    valid(MODEL, json.loads(out("model", "--format=json", "--model=" + m)),
          "model " + m)
print("ok - %d models" % len(models))
os.remove(h1)
os.rmdir(tmp)

# attn-trace caption: the cells of the patch encoder and s_0 from their mean
cap = json.loads(out("caption", "--format=json", "--scorer=all",
                     "--model=" + os.path.join(SRC, "tests", "data",
                                               "caption-random.model"),
                     "--target=a bar on the left",
                     os.path.join(SRC, "data", "images", "train",
                                  "bar-x0.pgm")))
valid(TRACE, cap, "caption --scorer=all")
# the same image through 'trace' (an image model reads it as its
# sentence), with --hard, the REINFORCE terms and the Monte Carlo draws
hard = json.loads(out("trace", "--format=json", "--scorer=all", "--hard",
                      "--seed=7", "--gradient", "--samples=3",
                      "--model=caption4", "--target=a bar on the left",
                      os.path.join(SRC, "data", "images", "train",
                                   "bar-x0.pgm")))
valid(TRACE, hard, "trace --model=caption4 --hard IMAGE")
for path in (["encoder", 0, "pixels"], ["initial", "mean"]):
    bad = copy.deepcopy(cap)
    parent = bad
    for k in path[:-1]:
        parent = parent[k]
    del parent[path[-1]]
    invalid(TRACE, bad, "a caption trace without " + "/".join(map(str, path)))

# what must fail
doc = json.loads(out("trace", "--format=json", "--scorer=all"))
for path in (["runs"], ["source"], ["encoder", 0, "W_h_h"],
             ["runs", 0, "steps", 0, "output", "probs"],
             ["runs", 0, "steps", 0, "softmax", "exp"],
             ["runs", 0, "steps", 0, "W_c_concat"]):
    bad = copy.deepcopy(doc)
    parent = bad
    for k in path[:-1]:
        parent = parent[k]
    del parent[path[-1]]
    invalid(TRACE, bad, "a trace without " + "/".join(map(str, path)))
bad = copy.deepcopy(doc)
bad["runs"][0]["steps"][0]["surprise"] = [1]
invalid(TRACE, bad, "a step with a key no format defines")
bad = copy.deepcopy(doc)
bad["runs"][0]["steps"][0]["scores"][0] = "1.5"
invalid(TRACE, bad, "a score written as a string")
line = json.loads(lines[0])
del line["line"]
invalid(LINE, line, "a batch line without its line")
hard = json.loads(out("trace", "--format=json", "--hard", "--gradient",
                      "--samples=2", json_csv.TGT))
del hard["runs"][0]["steps"][0]["samples"]["variance"]
invalid(TRACE, hard, "samples without variance")
# the gradient paths, valid in both architectures, refused without a key
for arch in ("luong", "bahdanau"):
    paths = json.loads(out("trace", "--format=json", "--arch=" + arch,
                           "--scorer=all", "--gradient-paths",
                           json_csv.TGT))
    valid(TRACE, paths, "--gradient-paths, " + arch)
del paths["runs"][0]["gradient_paths"]["recurrence"]
invalid(TRACE, paths, "gradient paths without recurrence")
model = json.loads(out("model", "--format=json"))
for key in ("output", "decoder", "embedding_dim"):
    bad = copy.deepcopy(model)
    del bad[key]
    invalid(MODEL, bad, "a model without " + key)
bad = copy.deepcopy(model)
bad["general"]["W"] = bad["general"]["W"][0]
invalid(MODEL, bad, "a one-row matrix written as a flat list")
print("%d documents valid" % checked)
