#!/bin/sh
# self.sh: attn-trace self from the command line: its options, formats,
# errors and -o (the numbers are checked by check_self, and by
# self_torch_check.py against PyTorch).
. "$srcdir/tests/lib.sh"

run_cmd self --help
expect_status 0 "self --help"
check "--help names --causal" grep -q -- '--causal' "$TMP/out"

run_cmd self zone économique européenne
expect_status 0 "self on self4"
check "the five stages in order" sh -c "grep '^--- ' '$TMP/out' | cut -c5-6 | tr -d '\n' | grep -qx '1.2.3.4.3.4.5.'"

run_cmd self --heads=2 je suis étudiant
expect_status 0 "--heads=2"
check "--heads=2 shows head 2 alone" sh -c "! grep -q 'head 1' '$TMP/out' && grep -q '^--- 3. head 2' '$TMP/out'"

run_cmd self --causal je suis étudiant
check "--causal shows the masked scores" grep -q '^e_1,3 = .* -> -inf$' "$TMP/out"

# fewer queries than keys: the rows of k_j and v_j run past the queries
run_cmd self --target=i je suis étudiant
expect_status 0 "cross-attention with one query and three keys"
check "each key's row names its word" sh -c "grep -q '^k_3\[h1\] (étudiant) ' '$TMP/out' && grep -q '^v_3\[h2\] (étudiant) ' '$TMP/out'"

run_cmd self --no-position je suis étudiant
check "--no-position adds no PE" sh -c "grep -q '^positions: none' '$TMP/out' && ! grep -q 'PE(' '$TMP/out'"

run_cmd self --format=jsonl --target="european economic area" zone économique européenne
expect_status 0 "--format=jsonl with --target"
check "JSON Lines: one line" test "$(wc -l <"$TMP/out")" -eq 1
if [ -n "${PYTHON3:-}" ] && [ "$PYTHON3" != no ]; then
	check "JSON Lines parses, cross-attention, two heads" "$PYTHON3" -c '
import json, sys
t = json.load(open(sys.argv[1]))
assert t["attention"] == "cross" and t["heads_shown"] == [1, 2]
assert t["queries"] == ["european", "economic", "area"]
heads = [r["head"] for r in t["records"] if r["name"] == "A"]
assert heads == [1, 2], heads
x, = [r for r in t["records"] if r["name"] == "X_q"]
assert x["rows"] == "target" and x["columns"] == "features"
assert len(x["value"]) == 3 and len(x["value"][0]) == 4
' "$TMP/out"
	run_cmd self --format=json --causal --heads=1
	check "JSON: masked scores are null, one head" "$PYTHON3" -c '
import json, sys
t = json.load(open(sys.argv[1]))
assert t["heads_shown"] == [1]
assert {r.get("head", 0) for r in t["records"]} == {0, 1}
m, = [r for r in t["records"] if r["name"] == "scores_masked"]
a, = [r for r in t["records"] if r["name"] == "A"]
assert m["stage"] == "scoring" and m["rows"] == m["columns"] == "source"
assert m["value"][0][1] is None and a["value"][0][1] == 0
assert a["exp"][0][1] == 0 and a["shifted"][0][1] is None
' "$TMP/out"
	run_cmd self --format=json je suis
	check "JSON: no mask record without --causal" "$PYTHON3" -c '
import json, sys
t = json.load(open(sys.argv[1]))
assert not [r for r in t["records"] if r["name"] == "scores_masked"]
' "$TMP/out"
fi

run_cmd self --format=csv je suis
expect_status 0 "--format=csv"
# 4 weights x 16; E, PE, X, Q, K and V 2 x 4; per head Q_h, K_h 2 x 2,
# QK 2 x 2, scale 1, S 2 x 2, max 2, shifted, exp 2 x 2, sum 2, A 2 x 2,
# V_h and Z 2 x 2 (no mask); concat and output 2 x 4; and the header
check "CSV: a row a number" test "$(wc -l <"$TMP/out")" -eq $((64 + 48 + 2 * (12 + 1 + 4 + 2 + 8 + 2 + 4 + 8) + 16 + 1))
check "CSV: the stage and head columns" grep -q '^self,2,softmax,A,1,2,je,suis,' "$TMP/out"

run_cmd self --format=markdown --causal je suis
check "Markdown: the masked scores as −∞" grep -q '−∞' "$TMP/out"

run_cmd self --heads=3
expect_status 2 "--heads=3 is refused"
expect_err "--heads expects head numbers from 1 to 2" "--heads names the heads there are"
run_cmd self --model=handset4
expect_status 1 "a model without [self.*]"
expect_err "self-attention needs the weights [self.W_Q]" "the missing sections are named"
run_cmd self chat
expect_status 1 "an unknown word"
expect_err 'unknown source word "chat"' "the unknown word is named"
run_cmd self --target=chat je
expect_status 1 "an unknown target word"
# punctuation is split off as the trace command splits it, and a mark the
# model lacks is left out and named
run_cmd self --format=csv je suis étudiant
cp "$TMP/out" "$TMP/plain.csv"
run_cmd self --format=csv "je, suis étudiant."
expect_status 0 "punctuation in the sentence"
expect_err 'note: left out ",", "."' "the marks left out are named"
check "punctuation split off: the words are traced" cmp -s "$TMP/out" "$TMP/plain.csv"
run_cmd self --format=csv --target="i am a student!" "je suis étudiant"
expect_err 'left out "!", which the model does not know' "a target's mark is named"
run_cmd self "."
expect_status 1 "a sentence of marks alone"
expect_err 'the source sentence has no words but "."' "no words but marks"
run_cmd self --model=nope4 je
expect_status 1 "a model that is neither built in nor a file"
run_cmd self --causl
expect_status 2 "a misspelt option"
expect_err "did you mean '--causal'" "did you mean"

run_cmd self --format=svg --causal -o "$TMP/self.svg" zone économique européenne
expect_status 0 "--format=svg"
if [ -n "${PYTHON3:-}" ] && [ "$PYTHON3" != no ]; then
	check "SVG: well-formed, a panel a head, masked cells hatched with weight 0, never −∞; the sentence, causal and a legend drawn" "$PYTHON3" -c '
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
ns = "{http://www.w3.org/2000/svg}"
heads = [g for g in root.iter(ns + "g") if g.get("class") == "head"]
assert len(heads) == 2, len(heads)
texts = [t.text for t in heads[0].iter(ns + "text") if t.get("class") == "value"]
assert "−∞" not in texts and len(texts) == 9, texts
masked = [r for r in heads[0].iter(ns + "rect") if r.get("class") == "masked"]
# 3 words, causal: (1,2), (1,3) and (2,3) are masked, row-major
assert len(masked) == 3 and all(r.get("fill") == "url(#masked)" for r in masked), masked
assert [texts[1], texts[2], texts[5]] == ["0.0000"] * 3, texts
words = " ".join("".join(t.itertext()) for t in root.iter(ns + "text"))
assert "sentence: zone économique européenne" in words, words
assert "causal" in words and "masked by the causal mask: weight 0" in words, words
assert [g for g in root.iter(ns + "g") if g.get("class") == "legend"]
' "$TMP/self.svg"
fi
run_cmd self --format=svg --heads=1
check "SVG with --heads=1: one panel" test "$(grep -c 'class="head"' "$TMP/out")" -eq 1

# a model whose embedding size cannot be split into two heads
{ cat "$srcdir/tests/data/tiny.model"
  for w in W_Q W_K W_V W_O; do printf '[self.%s]\n1 0 0\n0 1 0\n0 0 1\n' "$w"; done
} >"$TMP/odd.model"
run_cmd self --model="$TMP/odd.model" un deux
expect_status 1 "an odd embedding size"
expect_err "splits the embedding into 2 heads, so it needs an even embedding size, not 3" \
	"the odd size is named"

# -o: whole or not at all
run_cmd self -o "$TMP/self.json" --format=json
expect_status 0 "-o FILE"
check "-o FILE holds the trace" grep -q '"attn-trace-self/3"' "$TMP/self.json"
run_cmd self -o "$TMP/none.txt" chat
check "no file after an error" test ! -e "$TMP/none.txt"
finish
