#!/bin/sh
# calc.sh: attn-trace calc, attention on any vectors (issue 31): every
# scorer against PyTorch for random sizes 1 to 16 (tests/torch_calc.py),
# a file with weights, and nothing written on an error.  The bad inputs
# are in tests/bad/cases.tsv.
. "$srcdir/tests/lib.sh"

# general with W_a = I is the dot product: the same scores, by the
# formula, 1·0.2 + 0.5·1 = 0.7, 1·1 + 0.5·(-1) = 0.5, 1·0.5 + 0.5·0.5 = 0.75
run_cmd calc -s general -f json "$srcdir/tests/data/calc.txt"
expect_status 0 "calc reads tests/data/calc.txt"
check "its scores are s·(I·h_i): 0.7, 0.5, 0.75" \
	grep -qF '"e": [0.7, 0.5, 0.75]' "$TMP/out"
check "its weights are the file's" grep -qF '"weights_from": "file"' "$TMP/out"
# with values one-hot, the output is the weights themselves, α_i =
# exp(e_i) / Σ exp(e_j): by hand 0.3484, 0.2853, 0.3663
run_cmd calc -s general -p 4 "$srcdir/tests/data/calc.txt"
check "the output of one-hot values is α (0.3484, 0.2853, 0.3663)" \
	grep -qF 'the output c_1 = Σ_i α_1,i·v_i        (3)   [ 0.3484,  0.2853,  0.3663]' "$TMP/out"
check "the weighted sum names the values v_i" \
	grep -qF 'α_1,2·v_2 = 0.2853×v_2' "$TMP/out"

# jsonl: the JSON on one line, the same object
"$ATTN_TRACE" calc -f json -s additive --query=1,2 --keys='1,0;0,1' >"$TMP/a.json"
"$ATTN_TRACE" calc -f jsonl -s additive --query=1,2 --keys='1,0;0,1' >"$TMP/a.jsonl"
check "-f jsonl is one line" test "$(wc -l <"$TMP/a.jsonl")" -eq 1
check "-f jsonl is -f json joined" test "$(tr -d '\n' <"$TMP/a.json" | sed 's/  */ /g')" = "$(tr -d '\n' <"$TMP/a.jsonl")"

# -o: written whole, or not at all
run_cmd calc -o "$TMP/good.json" -f json --query=1 --keys='1;2'
check "-o FILE holds the JSON" grep -q '"output"' "$TMP/good.json"
run_cmd calc -o "$TMP/bad.json" --query=1 --keys='1;x'
expect_status 2 "a bad key is a usage error"
check "and -o FILE is not written" test ! -e "$TMP/bad.json"

# numbers read and written with '.' under a comma locale: e = 0.75, 1.5,
# α_2 = 1 / (1 + e^-0.75) = 0.6792, output 0.5·0.3208 + 1·0.6792 = 0.8396
if locale -a 2>/dev/null | grep -qi '^de_DE.utf-\{0,1\}8$'; then
	LC_ALL=de_DE.UTF-8 "$ATTN_TRACE" calc --query=1.5 --keys='0.5;1' \
		>"$TMP/out" 2>"$TMP/err"
	check "under de_DE.UTF-8 the output is 0.8396, with a point" \
		grep -qF '(1)   [ 0.8396]' "$TMP/out"
fi

# CSV: the key a row is about is in one column, "source", on every row
# (a probe found k1 under "source" for the scores but under "word" for
# the softmax): worked out from each row's symbol and index, for a scorer
# with intermediates of its own (concat's [s_1; h_2], W_a·..., tanh(...))
for s in dot concat; do
	"$ATTN_TRACE" calc -s "$s" -f csv --query=1,0,2 \
		--keys='1,0,1;0,1,1;2,1,0' >"$TMP/$s.csv"
	check "calc -s $s -f csv: every row's key under source, word empty" \
		"$PYTHON3" -c 'import csv, re, sys
rows = list(csv.DictReader(open(sys.argv[1], encoding="utf-8")))
keyed = 0
for r in rows:
    sym, i = r["symbol"], r["index"]
    m = (re.fullmatch(r"e_1,([0-9]+)", sym) or
         re.fullmatch(r"α_1,([0-9]+)·v_([0-9]+)", sym) or
         re.search(r"h_([0-9]+)\]?\)?$", sym))
    if m: want = "k" + m.group(1)
    elif sym in ("e - max", "exp(e - max)", "α_1"): want = "k" + i
    elif sym in ("max", "sum", "c_1"): want = ""
    else: sys.exit("a row not foreseen: %r" % r)
    keyed += want != ""
    if r["source"] != want or r["word"] != "":
        sys.exit("%s[%s]: source %r word %r, wanted source %r" %
                 (sym, i, r["source"], r["word"], want))
sys.exit(keyed < 15)' "$TMP/$s.csv"
done

torch_python_find
if [ -n "$torch_python" ]; then
	check "calc agrees with torch, every scorer, d and d_v 1 to 16" \
		"$torch_python" "$srcdir/tests/torch_calc.py" "$ATTN_TRACE"
	check "calc's Markdown holds the JSON's numbers, every scorer" \
		"$torch_python" "$srcdir/tests/calc_md.py" "$ATTN_TRACE"
else
	echo "# no Python here can import torch: torch_calc.py skipped"
fi
finish
