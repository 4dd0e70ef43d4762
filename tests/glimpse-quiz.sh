#!/bin/sh
# glimpse-quiz.sh: "attn-trace quiz --model=glimpse6 IMAGE.pgm", the
# quiz on the glimpse model (src/glimpse_quiz.c): every answer of the
# seven kinds worked out again in Python (tests/glimpse_quiz_check.py),
# a quiz answered through a pipe, right and wrong, the worksheet and its
# key, and the refusals of options that ask about a model of words.
. "$srcdir/tests/lib.sh"
if [ -z "${PYTHON3:-}" ] || [ "$PYTHON3" = no ]; then
	echo "python3 is needed to work out the answers"; exit 77
fi
AT=$ATTN_TRACE
top=$(cd "$srcdir" && pwd)
img=$top/data/images

check "every answer worked out here, from the numbers the prompt shows" \
	"$PYTHON3" "$top/tests/glimpse_quiz_check.py" "$AT" \
	"$img/train/bar-x0.pgm" "$img/heldout/dot-y0-x0.pgm" \
	"$img/train/box-y1-x1.pgm"

# answered through a pipe: the key's answers score 7 of 7, and a wrong
# one gets "not quite" and the worked arithmetic
run_cmd quiz --model=glimpse6 --seed=5 --count=7 --answers \
	"$img/train/bar-x0.pgm"
expect_status 0 "--answers on a glimpse model"
sed -n 's/^(answer: .* = \(-\{0,1\}[0-9.]*\))$/\1/p' "$TMP/out" \
	>"$TMP/answers"
check "--answers gives 7 answers" test "$(wc -l <"$TMP/answers")" -eq 7
"$AT" quiz --model=glimpse6 --seed=5 --count=7 "$img/train/bar-x0.pgm" \
	<"$TMP/answers" >"$TMP/quiz" 2>&1
check "the answers typed back score 7 of 7" grep -q '^score: 7 of 7$' \
	"$TMP/quiz"
check "one kind of question each: place, draw, retina, glimpse, core, class, reinforce" \
	test "$(sed -n 's/^question [0-9] of 7: \([a-z]*\) .*/\1/p' \
		"$TMP/quiz" | tr '\n' ' ')" = \
	"place draw retina glimpse core class reinforce "
printf '9\nq\n' | "$AT" quiz --model=glimpse6 --seed=5 --count=7 \
	"$img/train/bar-x0.pgm" >"$TMP/wrong" 2>&1
check "a wrong answer: not quite, and the worked arithmetic" \
	grep -q '^not quite: l̂_.* = .*, not 9\.$' "$TMP/wrong"
check "the worked arithmetic names every term" \
	grep -q '^W_l\[[12]\]·h_[0-9] + b_l\[[12]\] = ' "$TMP/wrong"
check "q ends the quiz with the score" grep -q '^score: 0 of 1$' \
	"$TMP/wrong"

run_cmd quiz --model=glimpse6 --seed=5 --stage=retina --stage=class \
	--count=4 --answers "$img/train/bar-x0.pgm"
check "--stage=retina --stage=class asks only those, in turn" \
	test "$(sed -n 's/^question [0-9] of 4: \([a-z]*\) .*/\1/p' \
		"$TMP/out" | tr '\n' ' ')" = "retina class retina class "

for f in text markdown html; do
	run_cmd quiz --model=glimpse6 --seed=5 --worksheet --format=$f \
		"$img/train/bar-x0.pgm"
	expect_status 0 "--worksheet --format=$f on a glimpse model"
	check "the $f worksheet names the model and the image" \
		grep -q "questions on the glimpses of glimpse6 at" "$TMP/out"
done
run_cmd quiz --model=glimpse6 --seed=5 --key "$img/train/bar-x0.pgm"
check "the key holds the answers of --answers" \
	grep -qF "$(sed -n 1p "$TMP/answers")" "$TMP/out"

# the kinds that --help, doc/quiz.md and the errors name are the
# registry's (glimpse_quiz_name, as options --values lists them)
kinds=$("$AT" options --values=stage quiz | sed '1,/^hard-draw$/d' | tr '\n' ' ')
check "the registry has the seven kinds" test "$kinds" = \
	"place draw retina glimpse core class reinforce "
list=$(echo "$kinds" | sed 's/ $//; s/ \([a-z]*\)$/ or \1/; s/ /, /g; s/, or,/ or/')
check "quiz --help names the registry's kinds ($list)" \
	sh -c "'$AT' quiz --help | tr '\n' ' ' | tr -s ' ' | grep -qF \"$list\""
check "doc/quiz.md's table has a row for each kind, in its order" \
	test "$(sed -n 's/^| `\([a-z-]*\)`.*/\1/p' "$top/doc/quiz.md" |
		sed '1,/^hard-draw$/d' | tr '\n' ' ')" = "$kinds"

# refusals: exit 2 with a message, nothing on standard output
run_cmd quiz --model=glimpse6 --stage=scoring "$img/train/bar-x0.pgm"
expect_status 2 "--stage=scoring on a glimpse model"
expect_err "a glimpse model's questions are place, draw, retina, glimpse, core, class and reinforce" \
	"it lists the glimpse model's questions"
run_cmd quiz --model=glimpse6 --scorer=general "$img/train/bar-x0.pgm"
expect_status 2 "--scorer on a glimpse model"
expect_err "--scorer asks about a model of words; glimpse6 is a glimpse model" \
	"it says why"
run_cmd quiz --stage=place
expect_status 2 "--stage=place on a model of words"
expect_err "ask about a glimpse model (--model=glimpse6)" "it says which"
run_cmd quiz --model=glimpse6 "$img/train/bar-x0.pgm" "$img/train/bar-x3.pgm"
expect_status 2 "two images"
run_cmd quiz --stage=plase
expect_status 2 "a misspelt stage"
expect_err "place" "the glimpse kinds are among the stages offered"
run_cmd quiz --model=glimpse6 "$TMP/nosuch.pgm"
expect_status 1 "a missing image"
check "a refusal writes nothing on standard output" test ! -s "$TMP/out"

# in a lesson: lesson 22's "quiz glimpse-reinforce t=2 k=1", answered in
# the stepper with the answer --plain gives
. "$srcdir/tests/tui-lib.sh"
: "${ATTN_TRACE_LESSONS:=$srcdir/lessons}"
export ATTN_TRACE_LESSONS
ans=$("$AT" lesson 22 --plain |
	sed -n 's/^(answer: ∂ log π \/ ∂ l̂_2\[1\] = \(.*\))$/\1/p')
check "lesson 22 --plain lists the quiz's answer" test -n "$ans"
start gq 80 24 "'$AT' lesson 22 --color=never"
expect gq "page 1 of" "lesson 22 opens"
# g 1 0 ends itself at page 10 (of 10): the Enter after it is the
# number's, and does not open page 10's prediction
keys gq g 1 0 Enter
expect gq "page 10 of 10" "g 1 0: page 10"
expect_not gq "answer> " "the Enter after g 1 0 opens no answer line"
keys gq g 9 Enter
expect gq "Work it out: glimpse 2's push" "g 9: the quiz page"
keys gq z
expect gq "What is ∂ log π / ∂ l̂_2[1] = (l_2[1] - l̂_2[1]) / σ² = ε_2[1] / σ?" \
	"z asks the glimpse question"
keys gq -l -- "$ans"
keys gq Enter
expect gq "right: ∂ log π / ∂ l̂_2[1] = $ans" "the answer is right"
keys gq q
finish
