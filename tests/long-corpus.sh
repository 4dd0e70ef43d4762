#!/bin/sh
# long-corpus.sh: data/long.pairs and data/long-heldout.pairs are what
# data/make-long writes, byte for byte, and what data/README.md says they
# are: source sentences of 2 to 14 words, 24 training and 12 held-out
# pairs of each length from 3 (8 and 4 of 2 words), none in both files,
# every word given one English word by the gold alignment, every held-out
# word known to the training pairs, and the alignment not the diagonal
# (a colour follows its noun in French and comes before it in English).
# The checks of the files' shape are made here, in Python, from the
# grammar's description, not by the script that wrote them.
. "$srcdir/tests/lib.sh"
if [ -z "${PYTHON3:-}" ] || [ "$PYTHON3" = no ]; then
	echo "python3 is needed to run data/make-long"; exit 77
fi
check "data/make-long runs" "$PYTHON3" "$srcdir/data/make-long" "$TMP"
for f in long.pairs long-heldout.pairs; do
	check "data/$f is what data/make-long writes, byte for byte" \
		cmp "$TMP/$f" "$srcdir/data/$f"
done
cat >"$TMP/shape.py" <<'PY'
import sys
from collections import Counter

COLOURS = {"noir": "black", "noire": "black", "blanc": "white",
           "blanche": "white", "gris": "grey", "grise": "grey",
           "rouge": "red"}

def read(path):
    out = []
    for line in open(path, encoding="utf-8"):
        line = line.split("#")[0].strip()
        if line:
            src, tgt, aln = (f.split() for f in line.split("|||"))
            out.append((src, tgt, aln))
    return out

train, held = read(sys.argv[1]), read(sys.argv[2])
bad = []
def want(cond, what):
    if not cond:
        bad.append(what)

for name, pairs, per, short in (("train", train, 24, 8),
                                ("held-out", held, 12, 4)):
    lens = Counter(len(s) for s, _, _ in pairs)
    want(sorted(lens) == list(range(2, 15)), name + ": lengths 2 to 14")
    want(lens[2] == short and all(lens[n] == per for n in range(3, 15)),
         name + ": pairs of each length %r" % dict(lens))
    for src, tgt, aln in pairs:
        links = [tuple(map(int, a.split("-"))) for a in aln]
        # one English word for each French word: a permutation
        want(len(src) == len(tgt) and
             sorted(i for i, _ in links) == list(range(1, len(src) + 1)) and
             sorted(j for _, j in links) == list(range(1, len(tgt) + 1)),
             name + ": a one-to-one alignment: " + " ".join(src))
        for i, j in links:
            w = src[i - 1]
            if w in COLOURS:
                # the colour comes before its noun in English: it is
                # linked one place left, and its noun one place right
                want(tgt[j - 1] == COLOURS[w] and j == i - 1,
                     name + ": colour %s -> %s" % (w, tgt[j - 1]))
keys = lambda ps: {" ".join(s) for s, _, _ in ps}
want(not keys(train) & keys(held), "no sentence in both files")
want(len(keys(train)) == len(train) and len(keys(held)) == len(held),
     "no sentence twice")
vocab = {w for s, _, _ in train for w in s}
want(all(w in vocab for s, _, _ in held for w in s),
     "every held-out word is in the training pairs")
crossed = sum(any(i != j for i, j in (map(int, a.split("-")) for a in aln))
              for _, _, aln in train)
want(crossed >= len(train) // 3, "a third of the pairs cross or more: %d"
     % crossed)
for b in bad:
    print("not ok:", b)
sys.exit(1 if bad else 0)
PY
check "the corpus has the shape data/README.md gives it" \
	"$PYTHON3" "$TMP/shape.py" "$srcdir/data/long.pairs" \
	"$srcdir/data/long-heldout.pairs"
finish
