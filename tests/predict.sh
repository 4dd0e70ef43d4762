#!/bin/sh
# predict.sh: predict, then reveal, in --plain and lesson --check
# (doc/lessons.md, "Predicting first").  The answers the shipped lessons'
# predictions must give are worked out here from the vectors of
# `attn-trace trace` (argmax, a dot product, a softmax, a rounding), not
# read off the lesson's own output.
. "$srcdir/tests/lib.sh"

tr() { LC_ALL=C.UTF-8 "$ATTN_TRACE" trace --model=handset4 --scorer=dot \
	je suis étudiant; }
# vec NAME: the entries of the line "NAME ... [a, b, c]" of the trace
vec() { tr | awk -v n="$1" '$1 == n && /\[/ { s = $0; sub(/.*\[/, "", s)
	sub(/\].*/, "", s); gsub(/,/, " ", s); print s; exit }'; }

# the dot lesson: the word step 2 scores highest, and e_3,3 in one's head
words="je suis étudiant"
want_e2=$(vec e_2 | awk -v w="$words" '{ split(w, ws, " "); b = 1
	for (k = 2; k <= NF; k++) if ($k > $b) b = k; print ws[b] }')
want_e33=$(awk -v s="$(vec s_3)" -v h="$(vec h_3)" 'BEGIN {
	split(s, a, " "); split(h, b, " "); d = 0
	for (k = 1; k <= 4; k++) d += a[k] * b[k]; printf "%.1f", d }')
run_cmd lesson dot --plain
expect_status 0 "lesson dot --plain"
check "the step 2 page says what to type" grep -qF \
	"Predict: type one word (je, suis or étudiant) or its position, then Enter." "$TMP/out"
check "the in-head page asks for one decimal" grep -qF \
	"Predict: type a number with 1 decimal, then Enter." "$TMP/out"
check "[answers] holds argmax(e_2) = $want_e2" grep -qxF \
	"(prediction: argmax(e_2) = $want_e2)" "$TMP/out"
check "[answers] holds e_3,3 = $want_e33 (s_3·h_3 by awk)" grep -qxF \
	"(prediction: e_3,3 = $want_e33)" "$TMP/out"
# --plain shows the numbers after the prediction too: a handout
check "--plain shows the revealed arithmetic" grep -qF "e_3,3 = s_3·h_3 =" "$TMP/out"
run_cmd lesson dot --plain --no-answers
check "--no-answers leaves the predictions' answers out" \
	sh -c "! grep -qF '(prediction:' '$TMP/out'"

# softmax: is the largest weight of step 5 above one half? softmax of e_5
want_a5=$(awk -v e="$(vec e_5)" 'BEGIN { n = split(e, x, " "); m = x[1]
	for (k = 2; k <= n; k++) if (x[k] > m) m = x[k]
	for (k = 1; k <= n; k++) s += exp(x[k] - m)
	print (1 / s > 0.5) ? "yes" : "no" }')
run_cmd lesson softmax --plain
check "[answers] holds max(α_5) > 0.5? $want_a5 (softmax by awk)" grep -qxF \
	"(prediction: max(α_5) > 0.5? $want_a5)" "$TMP/out"
check "the softmax page says to type y or n" grep -qF \
	"Predict: type y (yes) or n (no), then Enter." "$TMP/out"

# local: p_1 = 1 + (n - 1)·sigmoid(...) rounded to a whole number, from
# the trace's line of p_1 (its factor, not its result)
want_p1=$(LC_ALL=C.UTF-8 "$ATTN_TRACE" trace --model=localp4 --window=local-p \
	--window-size=1 --scorer=general --target="european economic area" \
	zone économique européenne | awk '/predicted position p_1 =/ {
	s = $0; sub(/.*\(3 - 1\)×/, "", s); sub(/ =.*/, "", s)
	printf "%.0f", 1 + 2 * s; exit }')
run_cmd lesson local --plain
check "[answers] holds p_1 = $want_p1 (1 + 2·sigmoid, rounded)" grep -qxF \
	"(prediction: p_1 = $want_p1)" "$TMP/out"
check "the local page asks for a whole number" grep -qF \
	"Predict: type a whole number, then Enter." "$TMP/out"

# lesson --check: the mistakes a prediction can have
head='title: t
sentence: je suis étudiant
model: handset4
page: p
Which word?'
bad() { # bad WHAT TEXT FRAGMENT: --check refuses TEXT with FRAGMENT
	printf '%s\n%s\n' "$head" "$2" >"$TMP/b.lesson"
	run_cmd lesson --check "$TMP/b.lesson"
	expect_status 1 "$1"
	expect_err "$3" "$1: the message"
}
bad "a tie" 'predict argmin(α_1)
hint h
show weights t=1' "b.lesson:6:9: expected a prediction with one right answer, found 'α_1' tied between positions 2 and 3"
bad "a directive that answers it first" 'show softmax t=1
predict argmax(α_1)
hint h
show weights t=1' "b.lesson:6:1: expected the numbers that answer 'predict argmax(α_1)' (line 7) after it, found a directive before it that shows α_1"
bad "a reference that answers it first" 'je gets {α_1,1}.
predict argmax(α_1)
hint h
show weights t=1' "b.lesson:6:1: expected the numbers that answer 'predict argmax(α_1)' (line 7) after it, found a reference before it that shows α_1"
bad "no hint" 'predict argmax(α_1)
show weights t=1' "b.lesson:6:1: expected a 'hint' line after 'predict'"
bad "nothing to reveal" 'predict argmax(α_1)
hint h' "b.lesson:6:1: expected the numbers that answer the prediction after 'predict'"
bad "a step past the run" 'predict argmax(α_9)
hint h
show weights t=1' "b.lesson:6:9: expected a value of the trace, found '{α_9}'"
bad "a reference in the hint" 'predict argmax(α_1)
hint look at {e_1,1}
show weights t=1' "b.lesson:7:14: expected a hint in words"
printf '%s\n%s\n' "$head" 'predict argmax(α_1)
hint h
show weights t=1' >"$TMP/b.lesson"
run_cmd lesson --check "$TMP/b.lesson"
expect_status 0 "a prediction asked before its numbers passes --check"
finish
