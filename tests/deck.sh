#!/bin/sh
# deck.sh: attn-trace deck without a browser (tests/deck-browser.sh drives
# it in one): the file is self-contained (nothing fetched, nothing
# linked), the same input gives the same bytes in any locale, a bad
# input or command line leaves no file, half-written or temporary, and
# a bad model file is reported as FILE:LINE:COL.
. "$srcdir/tests/lib.sh"
deck() { "$ATTN_TRACE" deck "$@"; }

check "deck writes a file" deck -o "$TMP/a.html" je suis étudiant
check "it is one HTML document with its style and script inline" \
	sh -c "head -1 '$TMP/a.html' | grep -qx '<!DOCTYPE html>' &&
		grep -q '^<style>' '$TMP/a.html' && grep -q '^<script>' '$TMP/a.html' &&
		tail -1 '$TMP/a.html' | grep -qx '</html>'"
# nothing from elsewhere: no link, no src, no url(), no @import, and no
# address but the SVG namespace
check "it fetches nothing: no src=, href=, <link, url(, @import" \
	sh -c "! grep -Eiq ' src=|href=|<link|url\\(|@import' '$TMP/a.html'"
check "it names no address but the SVG namespace" \
	sh -c "! grep -Eo '[a-z]+://[^\" ]*' '$TMP/a.html' |
		grep -vx 'http://www.w3.org/2000/svg' | grep -q ."
# a slide for the title, the encoding, each stage of each step and the
# weights: 5 steps of Luong's 6 decoder stages for "je suis étudiant"
steps=$("$ATTN_TRACE" trace je suis étudiant | grep -c '^=== dot, t=')
slides=$(grep -c '<section class="slide"' "$TMP/a.html")
check "a slide a stage: 1 + 1 + 6 x $steps + 1 slides (found $slides)" \
	test "$slides" -eq $((3 + 6 * steps))
check "every slide counts itself: 1 / $slides ... $slides / $slides" \
	sh -c "test \$(grep -Ec '<p class=\"count\">[0-9]+ / $slides</p>' '$TMP/a.html') -eq $slides"

# the same bytes every time, and in a locale whose decimal point is ','
deck -o "$TMP/b.html" je suis étudiant
check "the same input gives the same bytes" cmp -s "$TMP/a.html" "$TMP/b.html"
LC_ALL=de_DE.UTF-8 "$ATTN_TRACE" deck -o "$TMP/c.html" je suis étudiant 2>/dev/null
check "the same bytes under LC_ALL=de_DE.UTF-8 (numbers with '.')" \
	cmp -s "$TMP/a.html" "$TMP/c.html"
check "standard output gets the same deck" \
	sh -c "'$ATTN_TRACE' deck je suis étudiant | cmp -s - '$TMP/a.html'"

# errors: nothing written, nothing left, an earlier file kept
cp "$TMP/a.html" "$TMP/keep.html"
run_cmd deck -o "$TMP/keep.html" je xyzzy
expect_status 1 "an unknown word"
check "an unknown word leaves the earlier file as it was" \
	cmp -s "$TMP/a.html" "$TMP/keep.html"
check "and no temporary file" \
	sh -c "! ls -a '$TMP' | grep -q '^\\.keep'"
run_cmd deck -o "$TMP/none/d.html"
expect_status 1 "a missing directory"
expect_err "$TMP/none/d.html" "the message names the file"
run_cmd deck -m "$srcdir/tests/bad/arch-luong-section.model" -o "$TMP/m.html"
expect_status 1 "a bad model file"
expect_err "arch-luong-section.model:24:1: expected" \
	"a bad model file is reported as FILE:LINE:COL: expected ..."
check "a bad model file writes nothing" test ! -e "$TMP/m.html"
run_cmd deck --precision=9
expect_status 2 "--precision=9"
run_cmd deck --scorer=dot,general
expect_status 2 "two scorers"
run_cmd deck --arch=all
expect_status 2 "--arch=all"
run_cmd deck --stage=scoring
expect_status 2 "an option deck does not take"
finish
