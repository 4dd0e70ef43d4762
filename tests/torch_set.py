"""torch_set.py: --set NAME=VALUE checked against PyTorch (issue 31).

Usage: torch_set.py BINARY

For each case, the program traces with some --set edits in JSON; this
script reads the model's unedited weights (BINARY model --format=json),
applies the same edits itself to that document from their names (its own
reading of the syntax of doc/trace-format.md, "What-if: --set": a model
section, then indices from 1, a vocabulary row by its word), checks the
trace's "set" record (each name, value and old value), and recomputes the
whole trace with tests/torch_check.py's independent torch models.  It
also checks that the edits changed the trace, so a --set that is ignored
fails.

An edit of a step's value, step[T].KEY[K]=VALUE (KEY state or s, scores
or e, weights or alpha, context or c), is not made to the model: the
torch recomputation itself replaces that entry of its own tensor at step
T (TorchModel.override), before anything reads it, and everything after
is torch's arithmetic from there; the weights are not renormalised.  The
old value each step's "set" records is checked against torch's value
before the override.  Exit 0 when every case agrees, 1 when one does not, 77 without
torch.
"""
import copy
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import torch_check as tc  # noqa: E402

# (model file or None for the built-in, scorer, sentence, edits, and
# optionally the trace's window as (name, D))
CASES = [
    (None, "dot", "je suis étudiant", ["source[je][2]=-1.5"]),
    (None, "general", "je suis étudiant",
     ["general.W[2][3]=0.5", "encoder.W_h[1][4]=-0.25"]),
    (None, "concat", "je suis", ["concat.v[2]=3", "decoder.b[1]=0.7"]),
    (None, "additive", "je suis étudiant",
     ["additive.U[3][1]=-2", "target[<s>][1]=0.9"]),
    (None, "dot", "je suis étudiant", ["output.W_c[2][2]=1.25"]),
    ("tests/data/bahdanau.model", "additive", "un deux trois",
     ["source[2][1]=0.5", "decoder.W_s[1][2]=-0.8"]),
    # a step's value: Luong's global attention with each scorer
    (None, "dot", "je suis étudiant", ["step[2].scores[1]=3"]),
    (None, "general", "je suis étudiant", ["step[1].alpha[2]=0.9"]),
    (None, "concat", "je suis étudiant", ["step[1].s[3]=0.1"]),
    (None, "scaled", "je suis étudiant", ["step[2].weights[3]=0.7"]),
    (None, "location", "je suis étudiant", ["step[1].state[2]=-0.9"]),
    (None, "additive", "je suis étudiant",
     ["additive.U[3][1]=-2", "step[1].e[3]=2"]),
    (None, "location-aware", "je suis étudiant",
     ["step[1].weights[1]=0", "step[2].c[4]=0.25"]),
    ("tests/data/feed.model", "general", "un deux trois",
     ["step[1].state[1]=0.5"]),
    ("tests/data/localp.model", "general", "un deux trois",
     ["step[1].s[2]=0.3", "step[2].alpha[1]=0.5"], ("local-p", 1)),
    ("tests/data/localp.model", "dot", "un deux trois deux",
     ["step[2].e[1]=2", "step[3].weights[4]=0.5"], ("local-m", 1)),
    (None, "dot", "je suis étudiant",
     ["step[1].alpha[3]=0.5", "step[2].state[2]=0"], ("fixed", 0)),
    # Bahdanau's: s_t after the step's attention, the query of step t + 1
    ("tests/data/bahdanau.model", "additive", "un deux trois",
     ["step[1].s[1]=0.5", "step[2].alpha[1]=0.8"]),
    ("tests/data/bahdanau.model", "additive", "un deux trois",
     ["step[1].scores[3]=1.5", "step[2].context[2]=-1"]),
]

# a step's value's spellings (doc/trace-format.md) and their plain names
STEP_KEYS = {"state": "state", "s": "state", "scores": "scores",
             "e": "scores", "weights": "weights", "alpha": "weights",
             "context": "context", "c": "context"}


def parse(text):
    """name=value into (section, [index strings], value)."""
    m = re.fullmatch(r"([^\[=]+)((?:\[[^\]]*\])*)=(.*)", text)
    return m.group(1), re.findall(r"\[([^\]]*)\]", m.group(2)), \
        float(m.group(3))


def row_of(keys, ix):
    """A row index from 1 or a word, into the list keys."""
    return int(ix) - 1 if ix.isdigit() else keys.index(ix)


def step_edit(text):
    """step[T].KEY[K]=VALUE into (T, plain name, K from 0, value), or
    None for an edit of the model."""
    m = re.fullmatch(r"step\[(\d+)\]\.(\w+)\[(\d+)\]=(.*)", text)
    if not m:
        return None
    return (int(m.group(1)), STEP_KEYS[m.group(2)], int(m.group(3)) - 1,
            float(m.group(4)))


def step_name(edit):
    """The canonical name of a step's edit: step[T].PLAIN[K]."""
    return "step[%d].%s[%d]" % (edit[0], edit[1], edit[2] + 1)


def edit(doc, text):
    """Applies one edit to the model document; returns the old value."""
    section, ixs, value = parse(text)
    if section in ("source", "target"):
        vocab = doc[section + "_embeddings"]
        row = vocab[list(vocab)[row_of(list(vocab), ixs[0])]]
        col = int(ixs[1]) - 1
    else:
        group, key = section.rsplit(".", 1)
        mat = doc[group][key]
        if len(ixs) == 1:
            row, col = mat, int(ixs[0]) - 1
        else:
            row, col = mat[int(ixs[0]) - 1], int(ixs[1]) - 1
    old, row[col] = row[col], value
    return old


def check_record(doc, sets, record):
    """The trace's top-level "set" against the edits sets (applied to
    the model document doc here); returns the steps' edits."""
    if not isinstance(record, list) or len(record) != len(sets):
        raise tc.Mismatch("\"set\" is %r, expected %d edits"
                          % (record, len(sets)))
    steps = []
    for s, r in zip(sets, record):
        st = step_edit(s)
        if st is None:
            old = edit(doc, s)
            tc.expect(r["name"], s.split("=")[0], "set.name")
            tc.expect(r["old"], old, "set.old")
        else:
            steps.append(st)
            tc.expect(r["name"], step_name(st), "set.name")
            tc.expect([r["step"], r["what"], r["index"]],
                      [st[0], st[1], st[2] + 1], "set.step/what/index")
            if st[1] == "weights":
                tc.expect(r.get("renormalised"), False, "set.renormalised")
        tc.expect(r["value"], float(s.split("=")[-1]), "set.value")
    return steps


def check_step_olds(got, model, steps):
    """Each step's "set" (popped from got) against torch's old values."""
    for run in got["runs"]:
        for step in run["steps"]:
            want = [{"name": step_name(st), "value": st[3],
                     "old": model.set_old[st[:3]]}
                    for st in steps if st[0] == step["t"]]
            tc.expect(step.pop("set", []), want,
                      "step %d's set" % step["t"])


def check_case(torch, binary, case):
    path, scorer, sentence, sets = case[:4]
    window = case[4] if len(case) > 4 else ("global", 1)
    top = os.environ.get("srcdir", ".")
    margs = ["--model=" + os.path.join(top, path)] if path else []
    doc = tc.run_json([binary, "model", "--format=json"] + margs)
    argv = [binary, "trace", "--format=json", "--scorer=" + scorer] + margs
    if window[0] != "global":
        argv += ["--window=" + window[0]]
    if window[0] not in ("global", "fixed"):
        argv += ["--window-size=%d" % window[1]]
    plain = tc.run_json(argv + [sentence])
    got = tc.run_json(argv + ["--set=" + s for s in sets] + [sentence])
    steps = check_record(doc, sets, got.get("set"))
    if doc.get("architecture") == "bahdanau":
        model = tc.BahdanauTorch(torch, doc)
    else:
        model = tc.TorchModel(torch, doc)
    model.window, model.D = window
    model.overrides, model.set_old = steps, {}
    want = model.trace([scorer], sentence.split(), None)
    got.pop("set")
    check_step_olds(got, model, steps)
    tc.check_trace(got, copy.deepcopy(want))
    try:
        tc.check_trace(plain, want)
    except tc.Mismatch:
        return
    raise tc.Mismatch("the edited trace equals the unedited one")


def main(argv):
    try:
        import torch
    except ImportError as exc:
        print("skip: torch cannot be imported: %s" % exc)
        return 77
    torch.set_grad_enabled(False)
    binary = argv[0]
    tc.read_registry(binary)
    failed = 0
    for case in CASES:
        name = "%s %s %s" % (case[1], " ".join(case[3]), case[0] or "")
        try:
            check_case(torch, binary, case)
        except (tc.Mismatch, KeyError, ValueError, RuntimeError) as exc:
            failed += 1
            print("FAIL %s: %s" % (name, exc))
        else:
            print("ok %s" % name)
    print("%d passed, %d failed" % (len(CASES) - failed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
