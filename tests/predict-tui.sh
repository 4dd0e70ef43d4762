#!/bin/sh
# predict-tui.sh: predict, then reveal, in the real stepper (tmux).  On the
# dot lesson's "Predict first: step 2" page the scores stay hidden; a
# wrong answer gets the hint and a second try, and the right one (worked
# out here: the argmax of the trace's e_2) shows them.  On the in-head
# page two wrong answers get the worked answer and the arithmetic.
. "$srcdir/tests/lib.sh"
. "$srcdir/tests/tui-lib.sh"

plain=$(LC_ALL=C.UTF-8 "$ATTN_TRACE" lesson dot --plain)
# page_no TITLE: the number of the page with that title in --plain
page_no() {
	printf '%s\n' "$plain" | awk -v t="$1" '
		/^\[page [0-9]+ of/ { p = $2; next }
		$0 == t { print p; exit }'
}
p2=$(page_no "Predict first: step 2")
p3=$(page_no "In your head: e_3,3")
check "the dot lesson has its two prediction pages ($p2, $p3)" \
	test -n "$p2" -a -n "$p3"
words="je suis étudiant"
e2=$(LC_ALL=C.UTF-8 "$ATTN_TRACE" trace --model=handset4 --scorer=dot \
	je suis étudiant | awk '$1 == "e_2" && /\[/ { s = $0
	sub(/.*\[/, "", s); sub(/\].*/, "", s); gsub(/,/, " ", s); print s; exit }')
right=$(echo "$e2" | awk -v w="$words" '{ split(w, ws, " "); b = 1
	for (k = 2; k <= NF; k++) if ($k > $b) b = k; print ws[b] }')
wrong=$(echo "$words" | awk -v r="$right" '{ print ($1 == r) ? $2 : $1 }')

start pr 100 30 "'$ATTN_TRACE' lesson dot --color=never"
expect pr "page 1 of" "the dot lesson opens"
keys pr g "$p2"
expect pr "Predict first: step 2" "g $p2 goes to the prediction page"
expect pr "Press z or Enter to answer" "the page says how to answer"
expect_not pr "e_2,1 = s_2·h_1" "the scores of step 2 are hidden"
keys pr z
expect pr "answer> _" "z opens the answer line"
keys pr -l "$wrong"
keys pr Enter
expect pr "Not $wrong. Hint:" "a wrong answer ($wrong) gets the hint"
expect_not pr "e_2,1 = s_2·h_1" "and the scores stay hidden"
keys pr -l "$right"
keys pr Enter
expect pr "Right: $right." "the second try ($right) is right"
expect pr "e_2,1 = s_2·h_1" "and the scores of step 2 show"

# the in-head page: two wrong answers, then the worked answer
keys pr g "$p3"
expect pr "In your head: e_3,3" "g $p3 goes to the in-head page"
expect_not pr "s_3·h_3 = 0.0000×" "its arithmetic is hidden"
keys pr Enter
expect_not pr "answer> _" "the Enter just after g's number is the number's"
keys pr Enter
expect pr "answer> _" "Enter opens the answer line"
keys pr -l -- "9.9"
keys pr Enter
expect pr "Not 9.9. Hint:" "a wrong number gets the hint"
keys pr -l -- "-9.9"
keys pr Enter
expect pr "Not -9.9 either. The answer is" "a second wrong one gets the worked answer"
expect pr "s_3·h_3 = 0.0000×" "and the arithmetic shows"
keys pr q
wait_exit pr 0 "q leaves the lesson"

# lesson 21 asks where step 5 looks (argmax(α_5)) before any page has
# drawn α_5: no page up to the question shows it in the picture pane,
# nor the question's page before the answer
plain21=$(LC_ALL=C.UTF-8 "$ATTN_TRACE" lesson 21 --plain)
ask=$(printf '%s\n' "$plain21" | awk '/^\[page [0-9]+ of/ { p = $2 }
	/^Predict: / { print p; exit }')
check "lesson 21 has a prediction page ($ask)" test -n "$ask"
check "... and it asks for argmax(α_5)" sh -c \
	"printf '%s\n' \"\$1\" | grep -q '^(prediction: argmax(α_5) = '" sh "$plain21"
start im 100 40 "'$ATTN_TRACE' lesson 21 --color=never"
expect im "page 1 of" "lesson 21 opens"
p=1
while [ "$p" -le "${ask:-0}" ]; do
	keys im g "$p"
	expect im "page $p of" "lesson 21: page $p"
	expect_not im "α_5 over its cells" "page $p does not show α_5 before the question"
	p=$((p + 1))
done
keys im q
wait_exit im 0 "q leaves lesson 21"
finish
