#!/bin/sh
# goal-tui.sh: tui --goal step[T].weights=WORD (issue 31: "a learner can
# set a goal, make étudiant the largest weight at step 1, and the program
# checks it"), in tmux at 80x24.  The goal line says whether the trace on
# screen meets it, with the weights that decide it; each is checked here
# against a softmax this script works out itself from the scores of the
# JSON trace, unedited and with the edit the keys make ('trace --set
# step[1].scores[3]=2', which tests/torch_set.py's kind of edit checks
# against torch).  u takes the edit back and the goal is unmet again; a
# goal met without an edit says so; bad goals get --goal:1:COL: errors.
. "$srcdir/tests/lib.sh"
. "$srcdir/tests/tui-lib.sh"
AT=$ATTN_TRACE
sent="je suis étudiant"
LC_ALL=C.UTF-8 "$AT" trace -f json "$sent" >"$TMP/base.json"
LC_ALL=C.UTF-8 "$AT" trace -f json --set 'step[1].scores[3]=2' "$sent" \
	>"$TMP/set.json"
# alpha FILE I: α_1,I (from 1) to 4 places, the softmax of step 1's
# scores in FILE worked out here; argmax FILE: its position, from 1
alpha() {
	"$PYTHON3" -c 'import json, math, sys
e = json.load(open(sys.argv[1], encoding="utf-8"))["runs"][0]["steps"][0]["scores"]
z = [math.exp(x - max(e)) for x in e]
a = [x / sum(z) for x in z]
print("%.4f" % a[int(sys.argv[2]) - 1] if sys.argv[2] != "max" else a.index(max(a)) + 1)' "$1" "$2"
}
check "unedited, je (1) has the largest weight at step 1" \
	test "$(alpha "$TMP/base.json" max)" = 1
check "with e_1,3 = 2, étudiant (3) has it" \
	test "$(alpha "$TMP/set.json" max)" = 3

start g 80 24 "'$AT' tui --goal='step[1].weights=étudiant' '$sent'"
expect g "screen 1 of" "tui --goal opens"
keys g g 3
expect g "goal: make étudiant the largest weight at t=1; not yet: α_1,3 = $(alpha "$TMP/base.json" 3), but" \
	"the goal, unmet, with étudiant's weight (a softmax of the JSON's scores)"
expect g "je has α_1,1 = $(alpha "$TMP/base.json" 1) (e edits a number)" \
	"... and the word that has the largest, with its weight"
keys g e Down Down
expect g "edit > step[1].scores[3] = " "e, Down, Down: e_1,3"
keys g 2 Enter
expect g "goal reached: étudiant has the largest weight at t=1, α_1,3 = $(alpha "$TMP/set.json" 3)" \
	"e_1,3 = 2: the goal met, with the edited trace's weight"
keys g Escape u
expect g "not yet: α_1,3 = $(alpha "$TMP/base.json" 3)" "u: the goal unmet again"
keys g q
wait_exit g 0 "q quits"

start met 80 24 "'$AT' tui --goal='step[1].alpha=1' '$sent'"
keys met g 4
expect met "goal reached: je has the largest weight at t=1, α_1,1 = $(alpha "$TMP/base.json" 1)" \
	"a goal the unedited trace meets (je, given by its position) says so"
keys met q
wait_exit met 0 "q quits"

# bad goals: the place of the mistake, exit 2, before the stepper starts
bad() {
	start "$1" 80 24 "'$AT' tui --goal='$2' '$sent'"
	expect "$1" "$3" "--goal='$2': $3"
	wait_exit "$1" 2 "--goal='$2'"
}
bad b1 'alpha=je' "--goal:1:1: expected step[T].weights=WORD"
bad b2 'step[7].weights=je' "--goal:1:6: expected a step of the trace, 1 to 5, found '7'"
bad b3 'step[1].scores=je' "--goal:1:8: expected '.weights=WORD'"
bad b4 'step[1].weights=chat' "--goal:1:17: expected a word of the sentence or its"
# lesson 6's page "Make étudiant win" tells the learner what to run and
# press: its command, run as written, with those keys, reaches the goal
cmd=$(sed -n "s/^    \(attn-trace tui .*--goal=.*\)\$/\1/p" "$top_srcdir/lessons/06-softmax.lesson")
check "lesson 6 names a tui --goal command" test -n "$cmd"
start les 80 24 "'$AT' ${cmd#attn-trace }"
keys les g 3
expect les "goal: make étudiant the largest weight at t=1; not yet" \
	"lesson 6's command: the goal, unmet"
check "lesson 6 says: g 3, e, Down twice, a score, Enter; and u" \
	grep -q "Press g 3 for the scoring, e to edit, Down twice to reach e_1,3" \
	"$top_srcdir/lessons/06-softmax.lesson"
keys les e Down Down 2 Enter
expect les "goal reached: étudiant has the largest weight at t=1" \
	"lesson 6's keys reach the goal"
keys les Escape u
expect les "goal: make étudiant the largest weight at t=1; not yet" \
	"lesson 6's u takes the edit back"
keys les q
wait_exit les 0 "q quits"
# a word typed without its accent gets the closest word of the sentence
start b5 120 24 "'$AT' tui --goal='step[1].weights=etudiant' '$sent'"
expect b5 "--goal:1:17: expected a word of the sentence, found 'etudiant'; did you mean étudiant?" \
	"--goal with 'etudiant': did you mean étudiant"
wait_exit b5 2 "--goal='step[1].weights=etudiant'"
finish
