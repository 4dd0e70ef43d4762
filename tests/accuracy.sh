#!/bin/sh
# accuracy.sh: attn-trace accuracy (doc/accuracy.md).  Its figures are
# recomputed from per-pair greedy traces (trace --batch --format=jsonl,
# counted by tests/accuracy_check.py), for a model half-trained here on
# data/long.pairs (so that some words come out right and some wrong) and
# for toy4's scorers on data/heldout.pairs; the text, CSV and JSON agree;
# the output does not depend on the locale; the SVG chart's text is 20 px
# or more at 1920 wide and it has a line for each model; bad input is
# refused with FILE:LINE:COL and nothing written.
. "$srcdir/tests/lib.sh"
if [ -z "${PYTHON3:-}" ] || [ "$PYTHON3" = no ]; then
	echo "python3 is needed to check the figures"; exit 77
fi
long="$srcdir/data/long.pairs"
held="$srcdir/data/long-heldout.pairs"
check "a model half-trained on data/long.pairs" \
	"$ATTN_TRACE" train --pairs="$long" -o "$TMP/half.model" -q \
	--epochs=150 --scorer=general --jobs=1
# the sources alone, so that the batch decodes greedily
grep -v '^#' "$held" | sed 's/|||.*//' >"$TMP/held.src"
grep -v '^#' "$srcdir/data/heldout.pairs" | sed 's/|||.*//' \
	>"$TMP/toyheld.src"

# recompute: line k of the report is the model and scorer traced
recompute() { # WHAT PAIRS SOURCES REPORT LINE TRACE-OPTIONS...
	what=$1 pairs=$2 src=$3 report=$4 line=$5
	shift 5
	"$ATTN_TRACE" trace --batch="$src" --format=jsonl --quiet "$@" \
		>"$TMP/traces.jsonl"
	check "$what: recomputed from per-pair traces" \
		"$PYTHON3" "$srcdir/tests/accuracy_check.py" "$pairs" \
		"$TMP/traces.jsonl" "$report" "$line"
}
run_cmd accuracy --pairs="$held" --model="$TMP/half.model" \
	--model="$TMP/half.model" --scorer=dot --model="$TMP/half.model" \
	--format=json
expect_status 0 "accuracy of three lines, JSON"
cp "$TMP/out" "$TMP/half.json"
recompute "half-trained, general" "$held" "$TMP/held.src" "$TMP/half.json" \
	0 --model="$TMP/half.model" --scorer=general
recompute "half-trained, general (a second --model)" "$held" \
	"$TMP/held.src" "$TMP/half.json" 1 --model="$TMP/half.model" \
	--scorer=general
recompute "half-trained, dot (--scorer before the third --model)" "$held" \
	"$TMP/held.src" "$TMP/half.json" 2 --model="$TMP/half.model" \
	--scorer=dot
run_cmd accuracy --pairs="$srcdir/data/heldout.pairs" --scorer=all \
	--format=json
expect_status 0 "toy4, every scorer, on data/heldout.pairs"
cp "$TMP/out" "$TMP/toy.json"
k=0
for sc in $("$ATTN_TRACE" options --values=scorer trace | grep -v '^@\|^all$'); do
	recompute "toy4 $sc" "$srcdir/data/heldout.pairs" "$TMP/toyheld.src" \
		"$TMP/toy.json" "$k" --scorer="$sc"
	k=$((k + 1))
done

# the text and the CSV say what the JSON says
run_cmd accuracy --pairs="$held" --model="$TMP/half.model" --format=csv
cp "$TMP/out" "$TMP/half.csv"
run_cmd accuracy --pairs="$held" --model="$TMP/half.model"
cp "$TMP/out" "$TMP/half.txt"
cat >"$TMP/agree.py" <<'PY'
import csv, json, sys
line = json.load(open(sys.argv[1]))["lines"][0]
rows = list(csv.DictReader(open(sys.argv[2])))
text = open(sys.argv[3]).read().splitlines()
counts = line["by_length"] + [dict(line["all"], length="all")]
bad = 0
for c, r in zip(counts, rows):
    for k in ("length", "pairs", "words", "words_right", "exact"):
        bad += str(c[k]) != r[k]
    for k in ("word_accuracy", "exact_accuracy"):
        bad += float(r[k]) != c[k]
    # the table's row: length, pairs, word and exact match in percent
    row = [l.split() for l in text if l.split()[:1] == [str(c["length"])]
           and l.endswith("%")]
    want = [str(c["length"]), str(c["pairs"]),
            "%.1f%%" % (100 * c["word_accuracy"]),
            "%.1f%%" % (100 * c["exact_accuracy"])]
    bad += row != [want]
bad += len(rows) != len(counts)
sys.exit(bad != 0)
PY
check "the CSV and the table say what the JSON says" \
	"$PYTHON3" "$TMP/agree.py" "$TMP/half.json" "$TMP/half.csv" \
	"$TMP/half.txt"
check "the text plot has a row a tenth and a column a length" \
	sh -c "grep -c '^ *[0-9]*% |' '$TMP/half.txt' | grep -qx 11 &&
	       grep -q '^         2  3  4  5  6  7  8  9 10 11 12 13 14\$' '$TMP/half.txt'"

# the same bytes under a locale that writes 0,5, and every time
for f in text csv json svg; do
	"$ATTN_TRACE" accuracy --pairs="$held" --model="$TMP/half.model" \
		--format=$f >"$TMP/c.$f"
	LC_ALL=de_DE.UTF-8 LANG=de_DE.UTF-8 "$ATTN_TRACE" accuracy \
		--pairs="$held" --model="$TMP/half.model" --format=$f \
		>"$TMP/de.$f" 2>/dev/null
	check "--format=$f: the same bytes under de_DE.UTF-8" \
		cmp -s "$TMP/c.$f" "$TMP/de.$f"
done

# the chart
run_cmd accuracy --pairs="$held" --model="$TMP/half.model" \
	--scorer=dot --model="$TMP/half.model" --format=svg -o "$TMP/c2.svg"
expect_status 0 "an SVG chart of two lines to -o"
check "the chart: text 20 px or more at 1920 wide, level, no overlap" \
	"$PYTHON3" "$srcdir/tests/svg_fontsize.py" --strict "$TMP/c2.svg"
check "the chart: a solid and a dashed line a model, a legend entry each" \
	"$PYTHON3" -c "
import sys, xml.etree.ElementTree as ET
ns = '{http://www.w3.org/2000/svg}'
r = ET.parse(sys.argv[1]).getroot()
lines = r.findall(ns + 'polyline')
dashed = [l for l in lines if l.get('stroke-dasharray')]
texts = [t.text for t in r.iter(ns + 'text')]
want = [sys.argv[2] + ' general', sys.argv[2] + ' dot']
sys.exit(not (len(lines) == 4 and len(dashed) == 2 and
              all(w in texts for w in want) and
              'source sentence length (words)' in texts and
              'accuracy (%)' in texts and
              all(len(l.get('points').split()) == 13 for l in lines)))
" "$TMP/c2.svg" half.model

# errors: FILE:LINE:COL, a non-zero exit, nothing written
printf 'le chat dort ||| the cat sleeps\nle chat ||| \n' >"$TMP/bad.pairs"
run_cmd accuracy --pairs="$TMP/bad.pairs" --model="$TMP/half.model" \
	-o "$TMP/no.svg" --format=svg
expect_status 1 "a pair without target words"
expect_err "bad.pairs:2:12: expected target words" "... at FILE:LINE:COL"
check "... and no file written" test ! -e "$TMP/no.svg"
printf 'le chat vole ||| the cat flies\n' >"$TMP/word.pairs"
run_cmd accuracy --pairs="$TMP/word.pairs" --model="$TMP/half.model"
expect_status 1 "a word the model does not know"
expect_err "word.pairs:1:9: expected a source word of" "... at FILE:LINE:COL"
check "... and nothing on standard output" test ! -s "$TMP/out"
printf 'zone zone zone zone zone zone zone zone zone ||| area\n' \
	>"$TMP/nine.pairs"
run_cmd accuracy --pairs="$TMP/nine.pairs" --scorer=location
expect_status 1 "9 words for the location scorer's 8 positions"
expect_err "nine.pairs:1:1: the location scorer" "... at FILE:LINE:COL"
run_cmd accuracy --model="$TMP/half.model"
expect_status 2 "no --pairs"
run_cmd accuracy --pairs="$held" --model="$TMP/half.model" --window=local-m
expect_status 2 "a --window after the last --model"
expect_err "apply to the --model options after them" "... says why"
run_cmd accuracy --pairs="$held" --format=png
expect_status 2 "an unknown --format"
expect_err "expected text, csv, json or svg" "... lists the formats"
run_cmd accuracy --pairs="$held" -o "$held"
expect_status 2 "-o onto the pairs file"
finish
