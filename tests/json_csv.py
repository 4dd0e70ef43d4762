#!/usr/bin/env python3
"""json_csv.py: every number in the CSV of a trace is in its JSON, at the
same place (issue 33).

For each variant below (and a batch), the program writes the same trace as
CSV and as JSON.  Each CSV row (scorer, t, stage, symbol, index, value) is
mapped to a JSON path by the table MAP: the symbol's template names the
key, the run comes from the scorer, the step from t, the source position
from the subscript in the symbol (or from the record's result row, which
comes after its intermediates in the CSV), and the index picks the entry.
The value there must be the same number, parsed from both texts; an empty
CSV value (outside a local window) must be null in the JSON.  A CSV symbol
that no entry of MAP knows fails the test, so a new intermediate in the CSV
cannot go without its JSON key.

Usage: json_csv.py ATTN_TRACE SRCDIR
"""
import csv
import json
import re
import subprocess
import sys

PROG, SRC = (sys.argv[1], sys.argv[2]) if len(sys.argv) > 2 else ("", ".")
TGT = "--target=i am a student"
# the variants: tests/schema.py validates these traces too
VARIANTS = [
    ["--scorer=all"],
    ["--scorer=all", TGT],
    ["--arch=bahdanau", "--scorer=all"],
    ["--scorer=all", "--window=local-m"],
    ["--scorer=all", "--window=local-m", "--window-size=0"],
    ["--scorer=all", "--window=local-p", "--model=%s/data/localp4.model" % SRC],
    ["--window=local-p", "--scorer=additive", "--window-size=2",
     "--model=%s/tests/data/localp-bahdanau.model" % SRC,
     "--target=one two", "un deux trois deux un"],
    ["--input-feeding", "--scorer=all"],
    ["--hard", "--gradient", "--samples=4", "--scorer=all", TGT],
    ["--hard=argmax", "--scorer=dot,general"],
    ["--hard", "--gradient", "--samples=3", "--window=local-p",
     "--model=%s/data/localp4.model" % SRC, TGT],
    ["--hard", "--arch=bahdanau", "--gradient", "--samples=2", TGT],
    ["--model=%s/tests/data/tiny.model" % SRC, "--scorer=all", "un deux trois"],
    ["--scorer=all", "--window=fixed", TGT],
    ["--arch=bahdanau", "--window=fixed", "--hard", "--gradient", TGT],
    ["--scorer=all", "--gradient-paths", TGT],
    ["--arch=bahdanau", "--window=fixed", "--gradient-paths=2",
     "--stage=softmax", TGT],
]
SELF_VARIANTS = [[], ["--causal"], ["--target=european economic area",
                                     "zone économique européenne"]]
BATCH = ["--batch=%s/data/heldout.pairs" % SRC, "--scorer=dot,concat",
         "--jobs=2"]

N = r"(\d+)"


def enc(i):
    return ["encoder", i - 1]


def step(ctx):
    return ["runs", ctx["run"], "steps", ctx["t"] - 1]


def st(*keys):
    return lambda m, c: step(c) + list(keys)


def part(key):
    """A scorer's intermediate of source word ctx["i"] (from e_t,i)."""
    return lambda m, c: step(c) + ["parts", key, c["i"] - 1]


def gp(key, row=0):
    """The run's gradient_paths[key], its row match[row] - 1 if row (the
    source word of a vector); the row's t must be the paths' t."""
    def path(m, c):
        assert c["doc"]["runs"][c["run"]]["gradient_paths"]["t"] == c["t"]
        return (["runs", c["run"], "gradient_paths", key]
                + ([int(m[row]) - 1] if row else []))
    return path


# (stages, regex, path(match, ctx), sets): sets names what a result row
# tells the rows before it (walked from the end): "i" the source position,
# "rnn" which RNN record ("enc", "fwd", "bwd", "dec").
MAP = [
    # the encoder (Bahdanau's too)
    ("encoding", r"x_" + N, lambda m, c: enc(int(m[1])) + ["embedding"], None),
    ("encoding", r"h_" + N, lambda m, c: enc(int(m[1])) + [
        "annotation" if c["bahdanau"] else "state"], "enc"),
    ("encoding", r"→h_" + N, lambda m, c: enc(int(m[1])) + ["forward"], "fwd"),
    ("encoding", r"←h_" + N, lambda m, c: enc(int(m[1])) + ["backward"], "bwd"),
    ("encoding", r"W_x(\^[fb])?·x_" + N,
     lambda m, c: enc(c["i"]) + c["parts"] + ["W_x_x"], None),
    ("encoding", r"W_h(\^[fb])?·[→←]?h_" + N,
     lambda m, c: enc(c["i"]) + c["parts"] + ["W_h_h"], None),
    ("encoding", r"sum", lambda m, c: enc(c["i"]) + c["parts"] + ["pre"], None),
    ("encoding", r"W_init·←h_1", lambda m, c: ["initial", "W_init_h"], None),
    ("encoding", r"s_0", lambda m, c: ["initial", "state"], None),
    # the decoder's update (Luong's and Bahdanau's)
    ("decoder", r"y_" + N, st("embedding"), None),
    ("decoder", r"W_x·(y_\d+|\[y_\d+; h̃_\d+\])", st("W_x_x"), None),
    ("decoder", r"W_h·s_" + N, st("W_h_h"), None),
    ("decoder", r"W_y·y_" + N, st("W_y_y"), None),
    ("decoder", r"U·s_" + N, st("U_s"), None),
    ("decoder", r"C·c_" + N, st("C_c"), None),
    ("decoder", r"sum", st("pre"), None),
    ("decoder", r"s_" + N, st("state"), None),
    # scoring
    ("scoring", r"s_" + N, st("query"), None),  # Bahdanau's s_{t-1}
    ("scoring", r"e_(\d+),(\d+)",
     lambda m, c: step(c) + ["scores", int(m[2]) - 1], "score"),
    ("scoring", r"W_a·h_" + N, part("W_a_h"), None),
    ("scoring", r"\[s_\d+; h_\d+\]", part("concat"), None),
    ("scoring", r"W_a·\[s_\d+; h_\d+\]", part("pre"), None),
    ("scoring", r"tanh\(W_a·\[s_\d+; h_\d+\]\)", part("act"), None),
    ("scoring", r"s_\d+·h_\d+", part("dot"), None),
    ("scoring", r"U_a·h_\d+(, the same at every step)?", part("U_a_h"), None),
    ("scoring", r"W_a·s_" + N, part("W_a_q"), None),
    ("scoring", r"W_a·s_\d+ \+ U_a·h_\d+( \+ U_f·f_\d+,\d+ \+ b_a)?",
     part("pre"), None),
    ("scoring", r"tanh\(W_a·s_\d+ \+ U_a·h_\d+( \+ U_f·f_\d+,\d+ \+ b_a)?\)",
     part("act"), None),
    ("scoring", r"\(α_\d+,\d+; α_\d+,\d+; α_\d+,\d+\)", part("window"), None),
    ("scoring", r"F_1 times them, term by term", part("F1_terms"), None),
    ("scoring", r"F_2 times them, term by term", part("F2_terms"), None),
    ("scoring", r"f_\d+,\d+: the two sums", part("f"), None),
    ("scoring", r"U_f·f_\d+,\d+", part("U_f"), None),
    # softmax and the windows
    ("softmax", r"max", st("softmax", "max"), None),
    ("softmax", r"sum", st("softmax", "sum"), None),
    ("softmax", r"e - max", st("softmax", "shifted"), None),
    ("softmax", r"exp\(e - max\)", st("softmax", "exp"), None),
    ("softmax", r"α_" + N, st("weights"), None),
    ("softmax", r"align_" + N, st("align"), None),
    ("softmax", r"a_" + N, st("weights"), None),
    ("softmax", r"window", None, None),  # first and last: special
    ("softmax", r"window_" + N, st("window", "positions"), None),
    ("softmax", r"W_p·s_" + N, st("position", "W_p_q"), None),
    ("softmax", r"tanh\(W_p·s_\d+\)", st("position", "tanh_W_p_q"), None),
    ("softmax", r"v_p·tanh\(W_p·s_\d+\)", st("position", "v_p_tanh"), None),
    ("softmax", r"sigmoid\(v_p·tanh\(W_p·s_\d+\)\)", st("position", "sigmoid"),
     None),
    ("softmax", r"p_" + N, st("position", "p"), None),
    ("softmax", r"exp\(-\(j - p_\d+\)²/\(2σ²\)\)", st("gaussian", "factors"),
     None),
    ("softmax", r"Σ_j a_\d+,j", st("gaussian", "sum"), None),
    # the weighted sum, and hard attention's records
    ("weighted-sum", r"[αa]_\d+,(\d+)·h_\d+",
     lambda m, c: step(c) + ["weighted", int(m[1]) - 1], None),
    ("weighted-sum", r"c\^soft_" + N, st("context"), None),
    ("weighted-sum", r"c_" + N,
     lambda m, c: step(c) + (["hard", "context"] if c["hard"] else ["context"]),
     None),
    ("weighted-sum", r"cumsum_" + N, st("hard", "cumsum"), None),
    ("weighted-sum", r"u_" + N, st("hard", "u"), None),
    ("weighted-sum", r"Σ_j a_\d+,j \(below \d+: l is drawn from π_\d+\)",
     st("hard", "sum"), None),
    ("weighted-sum", r"π_\d+ = a_\d+ / Σ_j a_\d+,j", st("hard", "pi"), None),
    ("weighted-sum", r"log P\(y_\d+ \| l\)", st("exact", "log_p"), None),
    ("weighted-sum", r"E_[απ]\[log P\(y_\d+ \| l\)\]", st("exact", "expected"),
     None),
    ("weighted-sum", r"log Σ_l [απ]_\d+,l·P\(y_\d+ \| l\)",
     st("exact", "log_marginal"), None),
    ("weighted-sum", r"gap_" + N, st("exact", "jensen_gap"), None),
    ("weighted-sum", r"R = log P\(y_\d+ \| l\)", st("gradient", "R"), None),
    ("weighted-sum", r"R̄", st("gradient", "baseline"), None),
    ("weighted-sum", r"R - R̄", st("gradient", "advantage"), None),
    ("weighted-sum", r"λ_r·\(R - R̄\)·\(onehot_l - [απ]_\d+\)",
     st("gradient", "score_function"), None),
    ("weighted-sum", r"entropy\([απ]_\d+\)", st("gradient", "entropy"), None),
    ("weighted-sum", r"λ_e·∂entropy/∂e_\d+", st("gradient", "entropy_term"),
     None),
    ("weighted-sum", r"∂R/∂c_\d+ \(backpropagated into h_l\)",
     st("gradient", "backprop"), None),
    ("weighted-sum", r"λ_r·\(R - R̄\)·\(l - Σ_j π_\d+,j·j\)/σ²",
     st("gradient", "score_function_p"), None),
    ("weighted-sum", r"λ_e·∂entropy/∂p_\d+", st("gradient", "entropy_term_p"),
     None),
    ("weighted-sum", r"g_" + N, st("gradient", "scores"), None),
    ("weighted-sum", r"u \(Monte Carlo\)", st("samples", "u"), None),
    ("weighted-sum", r"l \(Monte Carlo\)", st("samples", "l"), None),
    ("weighted-sum", r"exact ∂E_[απ]\[log P\]/∂e_\d+", st("samples", "exact"),
     None),
    ("weighted-sum", r"estimate, no baseline", st("samples", "estimate"), None),
    ("weighted-sum", r"estimate, with R̄", st("samples", "estimate_baseline"),
     None),
    ("weighted-sum", r"variance, no baseline", st("samples", "variance"), None),
    ("weighted-sum", r"variance, with R̄", st("samples", "variance_baseline"),
     None),
    ("weighted-sum", r"ĝ_" + N, st("samples", "estimate_baseline"), None),
    # concat and output (Bahdanau's concatenation is in its output stage)
    ("concat", r"\[c_\d+; s_\d+\]", st("concat"), None),
    ("concat", r"W_c·\[c_\d+; s_\d+\]", st("W_c_concat"), None),
    ("concat", r"h̃_" + N, st("attentional"), None),
    ("output", r"\[s_\d+; c_\d+; y_\d+\]", st("concat"), None),
    ("output", r"W_[so]·(h̃_\d+|\[s_\d+; c_\d+; y_\d+\])", st("output", "logits"),
     None),
    ("output", r"ŷ_" + N, st("output", "probs"), None),
    # the gradient paths (--gradient-paths): the run's, whatever --stage
    ("output", r"L_" + N, gp("loss"), None),
    ("output", r"∂L_\d+/∂h_" + N, gp("total", 1), None),
    ("output", r"∂L_\d+/∂h_" + N + " direct", gp("direct", 1), None),
    ("output", r"∂L_\d+/∂h_" + N + " through the recurrence",
     gp("recurrence", 1), None),
    ("output", r"‖∂L_\d+/∂h_i‖", gp("total_norm"), None),
    ("output", r"‖direct‖", gp("direct_norm"), None),
    ("output", r"‖through the recurrence‖", gp("recurrence_norm"), None),
]
MAP = [(s, re.compile(rx + r"\Z"), f, sets) for s, rx, f, sets in MAP]
RNN_PARTS = {"enc": [], "fwd": ["forward_parts"], "bwd": ["backward_parts"]}


def run(args):
    p = subprocess.run([PROG, "trace"] + args, capture_output=True)
    if p.returncode:
        sys.exit("%s %s: exit %d: %s" % (PROG, " ".join(args), p.returncode,
                                       p.stderr.decode()))
    return p.stdout.decode("utf-8")


def at(doc, path):
    for k in path:
        doc = doc[k]
    return doc


def check_trace(rows, doc, what):
    """Maps each CSV row (a dict) to doc; returns the number checked."""
    runs = {r["scorer"]: k for k, r in enumerate(doc["runs"])}
    ctx = {"doc": doc, "i": 0, "parts": [], "bahdanau": doc.get("architecture") ==
           "bahdanau", "hard": doc.get("selection") == "hard"}
    done, seen = 0, set()
    for row in reversed(rows):  # a record's result comes after its parts
        stage, sym = row["stage"], row["symbol"]
        ctx["run"] = runs.get(row["scorer"], -1)
        ctx["t"] = int(row["t"])
        for stages, rx, path_of, sets in MAP:
            m = rx.match(sym)
            if stage == stages and m:
                break
        else:
            sys.exit("%s: no JSON place for the CSV row %s" % (what, row))
        if sets == "score":
            ctx["i"] = int(m[2])
        elif sets:
            ctx["i"], ctx["parts"] = int(m[1]), RNN_PARTS[sets]
        k = int(row["index"])
        if path_of is None:  # the window's first and last positions
            path, k = step(ctx) + ["window", ("first", "last")[k - 1]], 1
        else:
            path = path_of(m, ctx)
        try:
            got = at(doc, path)
            if isinstance(got, list):
                got = got[k - 1]
            elif k != 1:
                raise IndexError("a number has no entry %d" % k)
        except (KeyError, IndexError, TypeError) as e:
            sys.exit("%s: CSV row %s: JSON %s has no value (%r)"
                     % (what, dict(row), path, e))
        if path[2:3] == ["gradient_paths"]:
            seen.add((tuple(path), k))
        want = None if row["value"] == "" else float(row["value"])
        if (got is None) != (want is None) or (want is not None and
                                               float(got) != want):
            sys.exit("%s: CSV row %s: JSON %s[%d] is %r"
                     % (what, dict(row), path, k, got))
        done += 1
    gradpaths_whole(doc, seen, what)
    return done


def gradpaths_whole(doc, seen, what):
    """Every number of each run's gradient_paths had its CSV row."""
    for r, run in enumerate(doc["runs"]):
        g = run.get("gradient_paths")
        if g is None:
            continue
        at_ = ("runs", r, "gradient_paths")
        want = {(at_ + ("loss",), 1)}
        for key in ("total", "direct", "recurrence"):
            want |= {(at_ + (key, i), k + 1) for i, row in enumerate(g[key])
                     for k in range(len(row))}
        for key in ("total_norm", "direct_norm", "recurrence_norm"):
            want |= {(at_ + (key,), k + 1) for k in range(len(g[key]))}
        if want - seen:
            sys.exit("%s: the CSV lacks %d numbers of the gradient paths, "
                     "such as %s" % (what, len(want - seen),
                                     min(want - seen)))


SELF_HEADER = {"format", "model", "attention", "causal", "position",
               "d_model", "num_heads", "d_k", "heads_shown", "source",
               "queries", "records"}


def self_cells(name, stage, head, mat):
    for i, row in enumerate(mat):
        for j, x in enumerate(row):
            yield (stage, head, name, i + 1, j + 1, x)


def check_self(args):
    """Self- and cross-attention: the CSV's cells (stage, head, matrix,
    row, col, value) are the JSON's weights, then each record's
    intermediates with a plain name and its value, cell for cell in the
    same order; -inf in the CSV is null in the JSON."""
    what = "self " + " ".join(args)
    p = [PROG, "self"] + args
    rows = list(csv.DictReader(subprocess.run(
        p + ["--format=csv"], check=True, capture_output=True).stdout
        .decode().splitlines()))
    doc = json.loads(subprocess.run(p + ["--format=json"], check=True,
                                    capture_output=True).stdout)
    want = []
    for k, v in doc.items():
        if k not in SELF_HEADER:
            want += self_cells(k, "", "", v)
    for r in doc["records"]:
        head = str(r.get("head", ""))
        for k, v in r.items():
            if k not in ("stage", "name", "head", "rows", "columns", "value"):
                want += self_cells(k, r["stage"], head, v)
        want += self_cells(r["name"], r["stage"], head, r["value"])
    got = [(r["stage"], r["head"], r["matrix"], int(r["row"]), int(r["col"]),
            None if r["value"] == "-inf" else float(r["value"]))
           for r in rows]
    if len(got) != len(want):
        sys.exit("%s: %d CSV cells, %d JSON cells" % (what, len(got),
                                                       len(want)))
    for g, w in zip(got, want):
        if g != w:
            sys.exit("%s: CSV cell %s, JSON cell %s" % (what, g, w))
    print("ok - %s: %d CSV numbers found in the JSON" % (what, len(got)))
    return len(got)


def main():
    total = sum(check_self(args) for args in SELF_VARIANTS)
    for args in VARIANTS:
        what = "trace " + " ".join(args)
        rows = list(csv.DictReader(run(args + ["--format=csv"]).splitlines()))
        doc = json.loads(run(args + ["--format=json"]))
        if not rows:
            sys.exit(what + ": no CSV rows")
        n = check_trace(rows, doc, what)
        print("ok - %s: %d CSV numbers found in the JSON" % (what, n))
        total += n
    # a batch: the CSV's pair column is the JSON line's "line"
    batch = BATCH
    rows = list(csv.DictReader(run(batch + ["--format=csv"]).splitlines()))
    docs = {d["line"]: d for d in
            map(json.loads, run(batch + ["--format=jsonl"]).splitlines())}
    by_pair = {}
    for row in rows:
        by_pair.setdefault(int(row["pair"]), []).append(row)
    if sorted(by_pair) != sorted(docs) or len(docs) < 2:
        sys.exit("batch: CSV pairs %s, JSON lines %s"
                 % (sorted(by_pair), sorted(docs)))
    n = sum(check_trace(r, docs[p], "batch line %d" % p)
            for p, r in by_pair.items())
    print("ok - batch of %d pairs: %d CSV numbers found in the JSON"
          % (len(docs), n))
    print("%d numbers in all" % (total + n))


if __name__ == "__main__":
    main()
