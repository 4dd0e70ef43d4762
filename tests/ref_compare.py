#!/usr/bin/env python3
"""ref_compare.py: check attn-trace's JSON traces against tests/ref/attn_ref.py.

Usage:
    ref_compare.py BINARY [MODEL]

For every case in CASES it runs

    BINARY trace --model=MODEL --format=json --scorer=S [--target=T] SENTENCE

and the independent Python reference on the same input, parses both
outputs as JSON and walks the keys of the trace format side by side:
strings must be equal, numbers must agree within 1e-12 absolute plus 1e-12
relative, and lists must have the same length.  Keys the program prints
beyond the ones checked here are ignored, except inside a step's "parts"
(the scorer's intermediates), which must hold exactly the reference's keys,
and be absent when the reference has none.

Prints "ok CASE" or "FAIL CASE: PATH: ..." (the first difference) for each
case.  Exit status: 0 if all cases agree, 1 if any differs or cannot be
run, 77 (the automake code for "skipped") if BINARY does not exist.
MODEL defaults to data/toy4.model of the source tree.  The cases are the
two toy phrase pairs when MODEL knows their words (data/toy4.model and
data/handset4.model do); for any other model they are made from its own
vocabularies (see cases_for).  Each is tried with every scorer the model
has the weights for, and with "all".  The location scorer runs only on
sentences of at most L words (its "positions L"): on a model that has it,
one more sentence of L + 1 words (the source words over again) is traced
with "all", which leaves location out there, and with "location", which
both the program and the reference must refuse ("ok ... refused").
"""

import json
import math
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REFERENCE = os.path.join(HERE, "ref", "attn_ref.py")
DEFAULT_MODEL = os.path.join(HERE, os.pardir, "data", "toy4.model")

ABS_TOL = 1e-12
REL_TOL = 1e-12
TIMEOUT = 60

# (sentence, target or None) for the toy model.  The last ones mix upper
# and lower case, including accented capitals, which must still match the
# vocabulary.
TOY_INPUTS = [
    ("je suis étudiant", None),
    ("je suis étudiant", "i am a student"),
    ("zone économique européenne", None),
    ("zone économique européenne", "european economic area"),
    ("JE Suis ÉTUDIANT", None),
    ("JE Suis ÉTUDIANT", "I AM a Student"),
    ("Zone ÉCONOMIQUE Européenne", "European ECONOMIC area"),
]
# The scorers to try: the program's registry ('attn-trace scorers',
# tests/registry.py) and "all", set by main().
SCORERS = []


def mixed_case(words):
    """Every other word in capitals, the rest capitalised."""
    return [w.upper() if k % 2 == 0 else w[:1].upper() + w[1:]
            for k, w in enumerate(words)]


def cases_for(model_path):
    """The (sentence, target, scorer, refused) cases to run on this model;
    refused is True when both must refuse the case."""
    sys.dont_write_bytecode = True  # leave no __pycache__ in the source tree
    sys.path.insert(0, os.path.join(HERE, "ref"))
    import attn_ref
    model = attn_ref.load_model(model_path)
    known = all(model.src.find(w) >= 0
                for s, _ in TOY_INPUTS for w in s.split())
    known = known and all(model.tgt.find(w) >= 0
                          for _, t in TOY_INPUTS if t for w in t.split())
    if known:
        inputs = TOY_INPUTS
    else:
        # Another model: its source words in file order (at most six), the
        # same backwards, the first word alone and a mixed-case sentence,
        # with and without a target made of its ordinary target words.
        src = model.src.words[:6]
        tgt = [w for w in model.tgt.words if w not in ("<s>", "</s>")][:6]
        sentences = [src, src[::-1], src[:1], mixed_case(src)]
        inputs = []
        for words in sentences:
            inputs.append((" ".join(words), None))
            if tgt:
                inputs.append((" ".join(words), " ".join(tgt)))
        if tgt:
            inputs.append((" ".join(src), " ".join(mixed_case(tgt[::-1]))))
    if "location" in model.scorers:
        words = model.src.words
        inputs = list(inputs) + [(" ".join(words[k % len(words)]
                                           for k in range(model.L + 1)), None)]
    cases = []
    for s, t in inputs:
        for sc in SCORERS:
            if sc != "all" and sc not in model.scorers:
                continue
            cases.append((s, t, sc,
                          sc == "location" and len(s.split()) > model.L))
    return cases

# The shape of a trace: a dict maps each checked key to the shape of its
# value, a one-element list means "a list of these", and "str" / "num" are
# leaves.  "target" is checked separately: it is there only when given.
# "same" is a value whose shape is the reference's own: an object with
# exactly the reference's keys, lists of the same length, numbers and
# strings as for "num" and "str".  A key in OPTIONAL must be in the
# program's output exactly when it is in the reference's.
NUMS = ["num"]
OPTIONAL = {"parts"}
STEP = {
    "t": "num",
    "input": "str",
    "state": NUMS,
    "parts": "same",
    "scores": NUMS,
    "weights": NUMS,
    "weighted": [NUMS],
    "context": NUMS,
    "concat": NUMS,
    "attentional": NUMS,
    "output": {"token": "str", "probs": NUMS},
}
TRACE = {
    "format": "str",
    "source": ["str"],
    "encoder": [{"token": "str", "embedding": NUMS, "state": NUMS}],
    "runs": [{"scorer": "str", "steps": [STEP]}],
}


# Bahdanau's architecture (the reference says "architecture": "bahdanau"):
# the encoder's forward and backward states and annotations, s_0, and each
# step's query, decoder terms, state and [s_t; c_t; y_{t-1}].
BAHDANAU_STEP = {
    "t": "num",
    "input": "str",
    "query": NUMS,
    "parts": "same",
    "scores": NUMS,
    "weights": NUMS,
    "weighted": [NUMS],
    "context": NUMS,
    "W_y_y": NUMS,
    "U_s": NUMS,
    "C_c": NUMS,
    "pre": NUMS,
    "state": NUMS,
    "concat": NUMS,
    "output": {"token": "str", "probs": NUMS},
}
BAHDANAU_TRACE = {
    "format": "str",
    "architecture": "str",
    "source": ["str"],
    "encoder": [{"token": "str", "embedding": NUMS, "forward": NUMS,
                 "backward": NUMS, "annotation": NUMS}],
    "initial": {"state": NUMS, "W_init_h": NUMS},
    "runs": [{"scorer": "str", "steps": [BAHDANAU_STEP]}],
}


class Mismatch(Exception):
    pass


def show(value):
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 60 else text[:57] + "..."


def is_number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def close(a, b):
    if math.isnan(a) or math.isnan(b):
        return False
    if a == b:
        return True
    return abs(a - b) <= ABS_TOL + REL_TOL * max(abs(a), abs(b))


def compare(shape, got, want, path):
    """Raises Mismatch at the first place where got (the program's value)
    differs from want (the reference's value)."""
    if shape == "same":
        compare_same(got, want, path)
    elif shape == "str":
        if not isinstance(got, str) or got != want:
            raise Mismatch("%s: binary %s, reference %s" % (path, show(got), show(want)))
    elif shape == "num":
        if not is_number(got):
            raise Mismatch("%s: binary %s is not a number, reference %s"
                           % (path, show(got), show(want)))
        if not close(float(got), float(want)):
            raise Mismatch("%s: binary %r, reference %r (differ by %.3g)"
                           % (path, got, want, abs(float(got) - float(want))))
    elif isinstance(shape, list):
        if not isinstance(got, list):
            raise Mismatch("%s: binary %s is not a list" % (path, show(got)))
        if len(got) != len(want):
            raise Mismatch("%s: binary has %d items, reference %d"
                           % (path, len(got), len(want)))
        for i, (g, w) in enumerate(zip(got, want)):
            compare(shape[0], g, w, "%s[%d]" % (path, i))
    else:
        if not isinstance(got, dict):
            raise Mismatch("%s: binary %s is not an object" % (path, show(got)))
        for key, sub in shape.items():
            if key in OPTIONAL and key not in want:
                if key in got:
                    raise Mismatch("%s.%s: binary has %s, reference none"
                                   % (path, key, show(got[key])))
                continue
            if key not in got:
                raise Mismatch("%s.%s: missing in binary output" % (path, key))
            compare(sub, got[key], want[key], "%s.%s" % (path, key))


def compare_same(got, want, path):
    """compare() for a value shaped like the reference's value want."""
    if isinstance(want, dict):
        if not isinstance(got, dict):
            raise Mismatch("%s: binary %s is not an object" % (path, show(got)))
        for key in want:
            if key not in got:
                raise Mismatch("%s.%s: missing in binary output" % (path, key))
        for key in got:
            if key not in want:
                raise Mismatch("%s.%s: binary has %s, reference none"
                               % (path, key, show(got[key])))
        for key in want:
            compare_same(got[key], want[key], "%s.%s" % (path, key))
    elif isinstance(want, list):
        compare(["same"], got, want, path)
    elif isinstance(want, str):
        compare("str", got, want, path)
    else:
        compare("num", got, want, path)


def compare_trace(got, want):
    if want.get("architecture") == "bahdanau":
        compare(BAHDANAU_TRACE, got, want, "$")
    elif "architecture" in got:
        raise Mismatch("$.architecture: binary has %s, the reference none"
                       % show(got["architecture"]))
    else:
        compare(TRACE, got, want, "$")
    if "target" in want:
        if "target" not in got:
            raise Mismatch("$.target: missing in binary output")
        compare(["str"], got["target"], want["target"], "$.target")
    elif "target" in got:
        raise Mismatch("$.target: binary has %s, but no target was given"
                       % show(got["target"]))


def run_json(argv, who):
    try:
        proc = subprocess.run(argv, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, timeout=TIMEOUT)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise Mismatch("%s could not be run: %s" % (who, exc))
    if proc.returncode != 0:
        err = proc.stderr.decode("utf-8", "replace").strip()
        raise Mismatch("%s exited with status %d: %s" % (who, proc.returncode, err))
    try:
        return json.loads(proc.stdout.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise Mismatch("%s printed no valid JSON: %s" % (who, exc))


def run_refused(argv, who):
    """Runs argv, which must fail (a status other than 0) with a message."""
    try:
        proc = subprocess.run(argv, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, timeout=TIMEOUT)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise Mismatch("%s could not be run: %s" % (who, exc))
    if proc.returncode == 0:
        raise Mismatch("%s did not refuse it" % who)
    if not proc.stderr.strip():
        raise Mismatch("%s refused it (status %d) without a message"
                       % (who, proc.returncode))


def case_name(sentence, target, scorer):
    name = "%s: %s" % (scorer, sentence)
    if target is not None:
        name += " -> %s" % target
    return name


def main(argv):
    if len(argv) not in (1, 2, 3):
        sys.stderr.write("usage: ref_compare.py BINARY [MODEL [WINDOW,..]]\n")
        return 2
    binary = argv[0]
    model = argv[1] if len(argv) >= 2 else DEFAULT_MODEL
    windows = argv[2].split(",") if len(argv) == 3 else ["global"]
    if not os.path.exists(binary):
        print("skip: %s does not exist" % binary)
        return 77
    sys.stdout.reconfigure(encoding="utf-8")
    global SCORERS
    sys.dont_write_bytecode = True  # no __pycache__ in the source tree
    sys.path.insert(0, os.path.join(HERE, "ref"))
    import attn_ref
    import registry
    SCORERS = [name for name, _ in registry.scorers(binary)] + ["all"]
    failures = 0
    for sc in SCORERS[:-1]:
        if sc not in attn_ref.SCORERS:
            failures += 1
            print("FAIL scorer %s: the program's registry has it, and "
                  "tests/ref/attn_ref.py has no reference for it" % sc)
    for wd in windows:
        if wd not in registry.windows(binary) or wd not in attn_ref.WINDOWS:
            failures += 1
            print("FAIL window %s: not in the program's registry (%s), or "
                  "tests/ref/attn_ref.py has no reference for it (%s)"
                  % (wd, ", ".join(registry.windows(binary)),
                     ", ".join(attn_ref.WINDOWS)))
    ncases = 0
    try:
        cases = cases_for(model)
    except Exception as exc:  # the reference cannot read the model
        print("FAIL reading %s with the reference: %s" % (model, exc))
        return 1
    for window, (sentence, target, scorer, refused) in \
            [(w, c) for w in windows for c in cases]:
        ncases += 1
        name = case_name(sentence, target, scorer)
        prog = [binary, "trace", "--model=" + model, "--format=json",
                "--scorer=" + scorer]
        ref = [sys.executable, REFERENCE, model, "--scorer", scorer]
        if window != "global":
            name += " (%s)" % window
            prog.append("--window=" + window)
            ref += ["--window", window]
        if target is not None:
            prog.append("--target=" + target)
            ref += ["--target", target]
        prog.append(sentence)
        ref.append(sentence)
        if refused:
            name += " refused"
        try:
            if refused:
                run_refused(ref, "the reference")
                run_refused(prog, "the binary")
                print("ok %s" % name)
                continue
            want = run_json(ref, "the reference")
            got = run_json(prog, "the binary")
            compare_trace(got, want)
        except Mismatch as exc:
            failures += 1
            print("FAIL %s: %s" % (name, exc))
            continue
        print("ok %s" % name)
    print("%d passed, %d failed" % (ncases + len(SCORERS) - 1 - failures,
                                    failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
