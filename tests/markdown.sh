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
finish
