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
fails.  Exit 0 when every case agrees, 1 when one does not, 77 without
torch.
"""
import copy
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import torch_check as tc  # noqa: E402

# (model file or None for the built-in, scorer, sentence, edits)
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
]


def parse(text):
    """name=value into (section, [index strings], value)."""
    m = re.fullmatch(r"([^\[=]+)((?:\[[^\]]*\])*)=(.*)", text)
    return m.group(1), re.findall(r"\[([^\]]*)\]", m.group(2)), \
        float(m.group(3))


def row_of(keys, ix):
    """A row index from 1 or a word, into the list keys."""
    return int(ix) - 1 if ix.isdigit() else keys.index(ix)


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


def check_case(torch, binary, case):
    path, scorer, sentence, sets = case
    top = os.environ.get("srcdir", ".")
    margs = ["--model=" + os.path.join(top, path)] if path else []
    doc = tc.run_json([binary, "model", "--format=json"] + margs)
    argv = [binary, "trace", "--format=json", "--scorer=" + scorer] + margs
    plain = tc.run_json(argv + [sentence])
    got = tc.run_json(argv + ["--set=" + s for s in sets] + [sentence])
    record = got.get("set")
    if not isinstance(record, list) or len(record) != len(sets):
        raise tc.Mismatch("\"set\" is %r, expected %d edits"
                          % (record, len(sets)))
    for s, r in zip(sets, record):
        old = edit(doc, s)
        tc.expect(r["name"], s.split("=")[0], "set.name")
        tc.expect(r["value"], parse(s)[2], "set.value")
        tc.expect(r["old"], old, "set.old")
    if doc.get("architecture") == "bahdanau":
        model = tc.BahdanauTorch(torch, doc)
    else:
        model = tc.TorchModel(torch, doc)
    want = model.trace([scorer], sentence.split(), None)
    got.pop("set")
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
