#!/usr/bin/env python3
"""caption_formats.py: an image's trace in CSV, JSONL and Markdown holds
the values of its JSON trace.

Usage:
    caption_formats.py BINARY MODEL IMAGE.pgm CAPTION

Runs `BINARY trace --model=MODEL --scorer=all --hard --seed=7
--target=CAPTION --gradient --samples=3 IMAGE` in each format and checks,
number by number against the JSON trace (the reference here, which
tests/caption_torch_check.py checks against PyTorch):

    jsonl     one line, the same document as the JSON, every number equal
    csv       every encoding row (REC_PATCH's patch_i, W_patch.patch_i,
              sum, h_i for each cell; h-bar, W_init.h-bar, s_0) equals
              its JSON value exactly, each row's cell named in "source";
              every step's e_t,i, alpha_t, u_t and output ŷ_t equal the
              step's JSON "scores", "weights", hard "u" and
              output "probs"; every other step row is a number of that
              step's JSON
    markdown  the encoding table (patch_i and h_i of each cell) and every
              step's table (e_t,i and alpha_t,i of each cell) equal the
              JSON rounded to the 4 digits shown (within 0.5e-4)

Prints "ok CHECK" or "FAIL CHECK: ..." a check; exit 0, or 1 when one
failed, 2 for bad usage.
"""

import csv
import io
import json
import re
import subprocess
import sys


class Mismatch(Exception):
    pass


def run(argv):
    proc = subprocess.run(argv, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, timeout=120)
    if proc.returncode != 0:
        raise Mismatch("%s exited %d: %s" % (" ".join(argv[1:3]),
                                             proc.returncode,
                                             proc.stderr.decode()))
    return proc.stdout.decode("utf-8")


def numbers(v, out):
    """Every number in the JSON value v, appended to out."""
    if isinstance(v, bool):
        return out
    if isinstance(v, (int, float)):
        out.append(float(v))
    elif isinstance(v, list):
        for x in v:
            numbers(x, out)
    elif isinstance(v, dict):
        for x in v.values():
            numbers(x, out)
    return out


def check_jsonl(doc, text):
    lines = text.splitlines()
    if len(lines) != 1:
        raise Mismatch("expected one line, found %d" % len(lines))
    if json.loads(lines[0]) != doc:
        raise Mismatch("the line is not the JSON document")


ENC = (("patch_", "pixels"), ("W_patch·patch_", "W_patch_x"),
       ("h_", "annotation"))
INIT = {"h̄ = Σ_i h_i / 9": "mean", "W_init·h̄": "W_init_mean",
        "s_0": "state"}


def enc_value(doc, row):
    """The JSON value of an encoding row of the CSV."""
    sym, k = row["symbol"], int(row["index"]) - 1
    if sym in INIT:
        return doc["initial"][INIT[sym]][k]
    cells = doc["source"]
    i = cells.index(row["source"])
    if sym == "sum":
        return doc["encoder"][i]["pre"][k]
    for prefix, key in ENC:
        if sym == "%s%d" % (prefix, i + 1):
            return doc["encoder"][i][key][k]
    raise Mismatch("encoding row %r: no JSON value" % (row,))


def step_value(step, row, t):
    """The JSON value of the rows checked one to one, or None."""
    sym, k = row["symbol"], int(row["index"]) - 1
    if sym.startswith("e_%d," % t):
        return step["scores"][int(sym.split(",")[1].split()[0]) - 1]
    if sym == "α_%d" % t:
        return step["weights"][k]
    if sym == "u_%d" % t:
        return step["hard"]["u"]
    if sym == "ŷ_%d" % t:
        return step["output"]["probs"][k]
    return None


def check_csv(doc, text):
    rows = list(csv.DictReader(io.StringIO(text)))
    runs = {r["scorer"]: r for r in doc["runs"]}
    enc = one = other = 0
    pools = {}
    for row in rows:
        v = float(row["value"])
        if row["t"] == "0":
            want = enc_value(doc, row)
            enc += 1
        else:
            t = int(row["t"])
            step = runs[row["scorer"]]["steps"][t - 1]
            want = step_value(step, row, t)
            if want is None:
                key = (row["scorer"], t)
                if key not in pools:
                    pools[key] = set(numbers(step, []))
                if v not in pools[key]:
                    raise Mismatch("%s t=%d %s[%s] = %r is no number of "
                                   "the JSON step" % (row["scorer"], t,
                                                      row["symbol"],
                                                      row["index"], v))
                other += 1
                continue
            one += 1
        if v != want:
            raise Mismatch("%s t=%s %s[%s]: CSV %r, JSON %r"
                           % (row["scorer"], row["t"], row["symbol"],
                              row["index"], v, want))
    cells = len(doc["source"])
    if enc != cells * 4 * 4 + 3 * 4:
        raise Mismatch("%d encoding rows, expected %d" % (enc,
                                                          cells * 16 + 12))
    return "%d encoding rows, %d step rows one to one, %d in their step" \
        % (enc, one, other)


VEC = re.compile(r"`\[([^\]]*)\]`")


def close(a, b, what):
    if abs(a - b) > 0.5e-4 + 1e-12:
        raise Mismatch("%s: Markdown %r, JSON %r" % (what, a, b))


def check_markdown(doc, text):
    runs = {r["scorer"]: r for r in doc["runs"]}
    scorer, t, enc, cells = None, 0, 0, 0
    for line in text.splitlines():
        m = re.match(r"## (\S+) scorer", line)
        if m:
            scorer, t = m.group(1), 0
            continue
        m = re.match(r"### t=(\d+)", line)
        if m:
            t = int(m.group(1))
            continue
        m = re.match(r"\| (\d+) \| ([a-z-]+) \| (.*) \|$", line)
        if not m:
            continue
        i = int(m.group(1)) - 1
        if m.group(2) != doc["source"][i]:
            raise Mismatch("row %d names %r" % (i + 1, m.group(2)))
        if scorer is None:  # the encoding table: patch_i, h_i
            vecs = [[float(x) for x in v.split(",")]
                    for v in VEC.findall(m.group(3))]
            for k, key in enumerate(("pixels", "annotation")):
                for j, x in enumerate(vecs[k]):
                    close(x, doc["encoder"][i][key][j],
                          "encoding %s[%d][%d]" % (key, i, j))
            enc += 1
        else:  # a step: e_t,i, alpha_t,i
            e, a = [float(x) for x in m.group(3).split(" | ")[:2]]
            step = runs[scorer]["steps"][t - 1]
            close(e, step["scores"][i], "%s t=%d e[%d]" % (scorer, t, i))
            close(a, step["weights"][i], "%s t=%d α[%d]" % (scorer, t, i))
            cells += 1
    want = sum(len(r["steps"]) for r in doc["runs"]) * len(doc["source"])
    if enc != len(doc["source"]) or cells != want:
        raise Mismatch("%d encoding rows and %d step rows, expected %d "
                       "and %d" % (enc, cells, len(doc["source"]), want))
    return "%d encoding rows, %d step rows" % (enc, cells)


def main(argv):
    if len(argv) != 4:
        sys.stderr.write("usage: caption_formats.py BINARY MODEL IMAGE "
                         "CAPTION\n")
        return 2
    binary, model, image, caption = argv
    sys.stdout.reconfigure(encoding="utf-8")
    base = [binary, "trace", "--model=" + model, "--scorer=all", "--hard",
            "--seed=7", "--target=" + caption, "--gradient", "--samples=3"]
    failed = 0
    try:
        doc = json.loads(run(base + ["--format=json", image]))
    except (Mismatch, ValueError) as exc:
        print("FAIL json: %s" % exc)
        return 1
    for fmt, check in (("jsonl", check_jsonl), ("csv", check_csv),
                       ("markdown", check_markdown)):
        try:
            said = check(doc, run(base + ["--format=" + fmt, image]))
        except (Mismatch, KeyError, ValueError, IndexError) as exc:
            failed += 1
            print("FAIL %s: %s" % (fmt, exc))
        else:
            print("ok %s%s" % (fmt, ": " + said if said else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
