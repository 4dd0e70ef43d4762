#!/usr/bin/env python3
"""benchtool.py: the helpers of bench/run (standard library only).

    benchtool.py gen N FILE
        Writes N toy sentence pairs to FILE, the same N pairs every time.
    benchtool.py time [--runs K] [--stdout FILE] -- COMMAND ARG...
        Runs COMMAND K times (default 1) and prints one line:
        "WALL_MEDIAN CPU_MEDIAN WALL_MIN" in seconds, where CPU is the user
        plus system time of the command and its children.  Exits 1 if any
        run fails.
    benchtool.py compare REF.jsonl GOT.jsonl [--tol T]
        Checks that two JSON Lines traces hold the same traces (matched by
        "line"), with the same keys in the same order, the same strings, and
        numbers that agree to T (default 1e-9, relative to max(1, |x|)).
        Prints what it compared; exits 1 at the first difference.
"""

import json
import os
import resource
import statistics
import subprocess
import sys
import time

# ------------------------------------------------------------------ gen

# Words that both built-in models know (data/toy4.model, data/handset4.model).
SOURCE_WORDS = ["je", "suis", "étudiant", "zone", "économique", "européenne"]
PAIRS = [
    ("je suis étudiant", "i am a student"),
    ("zone économique européenne", "european economic area"),
]


class Lcg:
    """A 64-bit linear congruential generator (Knuth's MMIX constants), so
    that the pairs do not depend on the Python version."""

    def __init__(self, seed):
        self.x = seed & 0xFFFFFFFFFFFFFFFF

    def below(self, n):
        self.x = (self.x * 6364136223846793005 + 1442695040888963407) \
            & 0xFFFFFFFFFFFFFFFF
        return (self.x >> 33) % n


def vary_case(rng, sentence):
    """Each word lower case (3 in 5), Capitalised (1 in 5) or UPPER."""
    out = []
    for w in sentence.split():
        k = rng.below(5)
        out.append(w if k < 3 else w.capitalize() if k == 3 else w.upper())
    return " ".join(out)


def gen(n, path):
    """The mix, per 20 pairs: 7 of the first pair with its translation, 5 of
    the second, 1 with the other pair's translation (teacher forcing of a
    wrong target), 4 of the two sentences decoded greedily, 3 greedy lines
    of 1 to 6 words drawn from the source vocabulary.  A comment line
    starts the file; the pairs follow one a line."""
    rng = Lcg(20240401)
    with open(path, "w", encoding="utf-8") as f:
        f.write("# %d toy pairs for bench/run (benchtool.py gen)\n" % n)
        for _ in range(n):
            k = rng.below(20)
            if k < 7:
                src, tgt = PAIRS[0]
            elif k < 12:
                src, tgt = PAIRS[1]
            elif k < 13:
                src, tgt = PAIRS[rng.below(2)][0], PAIRS[rng.below(2)][1]
            elif k < 17:
                src, tgt = PAIRS[rng.below(2)][0], None
            else:
                words = [SOURCE_WORDS[rng.below(len(SOURCE_WORDS))]
                         for _ in range(1 + rng.below(6))]
                src, tgt = " ".join(words), None
            line = vary_case(rng, src)
            if tgt is not None:
                line += " ||| " + vary_case(rng, tgt)
            f.write(line + "\n")
    return 0


# ------------------------------------------------------------------ time

def cpu_children():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def time_cmd(args):
    runs, stdout = 1, os.devnull
    while args and args[0] != "--":
        a = args.pop(0)
        if a == "--runs":
            runs = int(args.pop(0))
        elif a == "--stdout":
            stdout = args.pop(0)
        else:
            raise SystemExit("benchtool.py time: unknown option %r" % a)
    cmd = args[1:]
    if not cmd or runs < 1:
        raise SystemExit("usage: benchtool.py time [--runs K] "
                         "[--stdout FILE] -- COMMAND ARG...")
    walls, cpus = [], []
    for _ in range(runs):
        with open(stdout, "wb") as out:
            c0 = cpu_children()
            t0 = time.perf_counter()
            rc = subprocess.call(cmd, stdout=out)
            t1 = time.perf_counter()
            c1 = cpu_children()
        if rc != 0:
            sys.stderr.write("benchtool.py: %s exited with %d\n"
                             % (" ".join(cmd), rc))
            return 1
        walls.append(t1 - t0)
        cpus.append(c1 - c0)
    print("%.6f %.6f %.6f" % (statistics.median(walls),
                              statistics.median(cpus), min(walls)))
    return 0


# ------------------------------------------------------------------ compare

class Mismatch(Exception):
    pass


def same(ref, got, tol, path, stats):
    """Raises Mismatch at the first difference between ref and got."""
    num = (int, float)
    if isinstance(ref, bool) or isinstance(got, bool):
        if ref is not got:
            raise Mismatch("%s: %r != %r" % (path, ref, got))
    elif isinstance(ref, num) and isinstance(got, num):
        diff = abs(ref - got)
        if diff > tol * max(1.0, abs(ref)):
            raise Mismatch("%s: %r != %r (differ by %.3g)"
                           % (path, ref, got, diff))
        stats["numbers"] += 1
        stats["maxdiff"] = max(stats["maxdiff"], diff)
    elif isinstance(ref, dict) and isinstance(got, dict):
        if list(ref) != list(got):
            raise Mismatch("%s: keys %s != %s" % (path, list(ref), list(got)))
        for k in ref:
            same(ref[k], got[k], tol, "%s.%s" % (path, k), stats)
    elif isinstance(ref, list) and isinstance(got, list):
        if len(ref) != len(got):
            raise Mismatch("%s: %d items != %d" % (path, len(ref), len(got)))
        for k, (a, b) in enumerate(zip(ref, got)):
            same(a, b, tol, "%s[%d]" % (path, k), stats)
    elif type(ref) is not type(got) or ref != got:
        raise Mismatch("%s: %r != %r" % (path, ref, got))


def load(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def compare(args):
    tol = 1e-9
    if "--tol" in args:
        k = args.index("--tol")
        tol = float(args[k + 1])
        del args[k:k + 2]
    if len(args) != 2:
        raise SystemExit("usage: benchtool.py compare REF GOT [--tol T]")
    ref, got = load(args[0]), load(args[1])
    stats = {"numbers": 0, "maxdiff": 0.0}
    try:
        if not ref:
            raise Mismatch("%s holds no traces" % args[0])
        if [r.get("line") for r in ref] != [g.get("line") for g in got]:
            raise Mismatch("the files trace different lines")
        for r, g in zip(ref, got):
            same(r, g, tol, "line %s" % r.get("line"), stats)
    except Mismatch as exc:
        print("MISMATCH: %s" % exc)
        return 1
    print("%d traces, %d numbers, max |difference| %.3g (tolerance %g)"
          % (len(ref), stats["numbers"], stats["maxdiff"], tol))
    return 0


def main(argv):
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if argv else 2
    cmd, args = argv[0], argv[1:]
    if cmd == "gen" and len(args) == 2:
        return gen(int(args[0]), args[1])
    if cmd == "time":
        return time_cmd(args)
    if cmd == "compare":
        return compare(args)
    raise SystemExit("benchtool.py: unknown command; see --help")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
