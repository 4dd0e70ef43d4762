#!/bin/sh
# markdown.sh: the Markdown output renders as written, checked with a real
# renderer (cmark, CommonMark as GitHub reads it).  Without cmark the test
# is skipped (exit 77); .ci/run installs it.
. "$srcdir/tests/lib.sh"
command -v cmark >/dev/null 2>&1 || { echo "cmark is not installed"; exit 77; }

# the default trace: <s>, </s> and <built-in toy4.model> must show as text
"$ATTN_TRACE" trace --format=markdown >"$TMP/out.md" 2>"$TMP/err"
cmark "$TMP/out.md" >"$TMP/out.html"
check "the model's name shows as text" grep -qF '&lt;built-in toy4.model&gt;' "$TMP/out.html"
check "<s> shows as text" grep -qF 'the decoder reads &lt;s&gt;' "$TMP/out.html"
check "no <s> or </s> tag is made" sh -c "! grep -Eq '<s>|</s>' '$TMP/out.html'"
check "no raw HTML is passed through" sh -c "! grep -q '<!--\|<built-in' '$TMP/out.html'"

# a vocabulary word with HTML and Markdown in it is shown as typed
sed 's|^un      0.5|<b>un</b>*x*      0.5|' "$srcdir/tests/data/tiny.model" >"$TMP/html.model"
"$ATTN_TRACE" trace --model="$TMP/html.model" --format=markdown \
	'<b>un</b>*x*' deux >"$TMP/html.md" 2>"$TMP/err"
check "a word with HTML is traced" test -s "$TMP/html.md"
cmark "$TMP/html.md" >"$TMP/html.html"
check "the word's HTML is shown, not applied" \
	grep -qF '&lt;b&gt;un&lt;/b&gt;*x*' "$TMP/html.html"
check "no <b> or <em> comes from the word" \
	sh -c "! grep -Eq '<b>|<em>' '$TMP/html.html'"
# --handout: each vector's spaces are no-break spaces, and each step lists
# only the --top most probable words, most probable first, which are the
# JSON's probabilities sorted here independently
if [ -n "${PYTHON3:-}" ] && [ "$PYTHON3" != no ]; then
	"$ATTN_TRACE" trace --format=json je suis étudiant >"$TMP/h.json"
	for top in 3 5; do
		run_cmd trace --format=markdown --handout --top=$top je suis étudiant
		expect_status 0 "--handout --top=$top"
		cp "$TMP/out" "$TMP/h.md"
		check "--handout --top=$top: vectors on one line, the top $top outputs a step" \
			"$PYTHON3" - "$TMP/h.md" "$TMP/h.json" $top <<'PY'
import json, re, sys
md = open(sys.argv[1], encoding="utf-8").read()
doc = json.load(open(sys.argv[2], encoding="utf-8"))
top = int(sys.argv[3])
spans = re.findall(r"`([^`]*)`", md)
assert len(spans) > 20, len(spans)
for sp in spans:
    assert " " not in sp and "\u00a0" in sp, repr(sp)
assert "by word" not in md
steps = doc["runs"][0]["steps"]
words = doc["runs"][0].get("vocab") or None
lines = re.findall(r"^ŷ_(\d+), the (\d+) most probable of (\d+) words: (.*)$",
                   md, re.M)
assert len(lines) == len(steps), (len(lines), len(steps))
for (t, n, total, rest), st in zip(lines, steps):
    p = st["output"]["probs"]
    assert int(n) == top and int(total) == len(p), (n, total)
    got = [float(x.rsplit(" ", 1)[1]) for x in rest.split(", ")]
    want = sorted(p, reverse=True)[:top]
    assert all(abs(g - w) < 5e-5 for g, w in zip(got, want)), (got, want)
    assert got[0] == round(max(p), 4) and rest.split(" ")[0].replace(
        "&lt;", "<").replace("&gt;", ">") == st["output"]["token"], rest
PY
	done
fi
# calc --format=markdown (issue 31): every name shows as typed (s_1,
# additive.W[1], U_a_h: no emphasis, no link) in CommonMark; the tables'
# numbers are read back against the JSON by tests/calc_md.py (calc.sh)
"$ATTN_TRACE" calc -s additive -f markdown --query=1,0.5 \
	--keys='0.2,1;1,-1' >"$TMP/calc.md" 2>"$TMP/err"
cmark "$TMP/calc.md" >"$TMP/calc.html"
check "calc: no emphasis or link is made" \
	sh -c "! grep -Eq '<em>|<strong>|<a ' '$TMP/calc.html'"
check "calc: the names show as typed" \
	grep -qF '| s_1 | <code>' "$TMP/calc.html"
check "calc: a weight's row as typed" \
	grep -qF '| additive.W[1] | <code>' "$TMP/calc.html"
check "calc: the intermediates' names too" \
	grep -qF 'U_a_h = <code>' "$TMP/calc.html"
run_cmd trace --format=text --handout
expect_status 2 "--handout without --format=markdown"
expect_err "--handout needs --format=markdown" "--handout: says what it needs"
run_cmd trace --format=markdown je suis étudiant
check "without --handout, every output is listed, by word" \
	grep -q '^ŷ_1 by word: &lt;s&gt; ' "$TMP/out"
finish
