#!/bin/sh
# quiz.sh: "attn-trace quiz" driven through a pipe: right answers computed
# here in Python from the JSON trace and model, wrong answers, the end of
# the input, the options, and the quiz directives of the shipped lessons.
. "$srcdir/tests/lib.sh"
if [ -z "${PYTHON3:-}" ] || [ "$PYTHON3" = no ]; then
	echo "python3 is needed to compute the answers"; exit 77
fi
: "${ATTN_TRACE_LESSONS:=$srcdir/lessons}"
export ATTN_TRACE_LESSONS

# solve SCORER QUIZ_OUTPUT [SENTENCE]: reads the questions ("What is ...")
# of a quiz's output and prints their answers, one a line with 4 decimals,
# computed from the states of the JSON trace and the weights of the model
# with loops of our own (not from the recorded scores, weights or context).
# The model is $model: a built-in name or a file.
model=toy4
solve() {
	"$ATTN_TRACE" model --model="$model" --format=json >"$TMP/model.json" ||
		return 1
	"$ATTN_TRACE" trace --model="$model" --scorer="$1" --format=json \
		${3:+"$3"} >"$TMP/trace.json" || return 1
	"$PYTHON3" - "$TMP/trace.json" "$TMP/model.json" "$2" <<'PY'
import json, math, re, sys
tr = json.load(open(sys.argv[1], encoding="utf-8"))
mo = json.load(open(sys.argv[2], encoding="utf-8"))
run = tr["runs"][0]
hs = [e["state"] for e in tr["encoder"]]
H = len(hs[0])

def dot(a, b):
    return sum(x * y for x, y in zip(a, b))

def score(t, i):
    s, h = run["steps"][t - 1]["state"], hs[i - 1]
    if run["scorer"] == "dot":
        return dot(s, h)
    if run["scorer"] == "general":
        return dot(s, [dot(row, h) for row in mo["general"]["W"]])
    sh = s + h
    return dot(mo["concat"]["v"],
               [math.tanh(dot(row, sh)) for row in mo["concat"]["W"]])

def alpha(t, i):
    e = [score(t, j) for j in range(1, len(hs) + 1)]
    m = max(e)
    return math.exp(e[i - 1] - m) / sum(math.exp(x - m) for x in e)

for line in open(sys.argv[3], encoding="utf-8"):
    if not line.startswith("What is"):
        continue
    m = re.search(r"c_(\d+)\[(\d+)\] =", line)
    if m:
        t, k = int(m.group(1)), int(m.group(2))
        v = sum(alpha(t, i) * hs[i - 1][k - 1] for i in range(1, len(hs) + 1))
    elif re.search(r"the score e_", line):
        t, i = map(int, re.search(r"e_(\d+),(\d+) =", line).groups())
        v = score(t, i)
    else:
        t, i = map(int, re.search(r"α_(\d+),(\d+) = exp", line).groups())
        v = alpha(t, i)
    print("%.4f" % v)
PY
}

# quiz ARGS... <INPUT: runs the quiz, leaving $TMP/out, $TMP/err, $status
quiz() {
	"$ATTN_TRACE" quiz "$@" >"$TMP/out" 2>"$TMP/err"
	status=$?
}

# expect_out FRAGMENT WHAT: the last run's stdout holds FRAGMENT
# unwrapped: $TMP/out with each line the quiz broke at 80 columns joined
# again (its continuation lines start with 4 blanks)
unwrapped() {
	sed -e ':a' -e 'N' -e '$!ba' -e 's/\n    / /g' "$TMP/out"
}
expect_out() {
	if unwrapped | grep -qF -- "$1"; then
		ok "$2"
	else
		not_ok "$2: stdout lacks '$1'"
	fi
}

# count_lines PATTERN: how many lines of $TMP/out match the regex
count_lines() {
	grep -cE -- "$1" "$TMP/out"
}

# --- right answers, for each scorer ------------------------------------------
for sc in dot general concat; do
	quiz --scorer=$sc --seed=42 --count=6 --answers </dev/null
	expect_status 0 "$sc: --answers"
	cp "$TMP/out" "$TMP/questions"
	check "$sc: --answers prints 6 answers" \
		test "$(count_lines '^\(answer: ')" -eq 6
	solve $sc "$TMP/questions" >"$TMP/right" || not_ok "$sc: solving"
	check "$sc: 6 questions solved" test "$(wc -l <"$TMP/right")" -eq 6
	# the teacher's answers agree with ours to the last digit shown
	sed -n 's/^(answer: .* = \(.*\))$/\1/p' "$TMP/questions" >"$TMP/shown"
	check "$sc: the answers shown agree with Python" "$PYTHON3" -c '
import sys
a = [float(x) for x in open(sys.argv[1])]
b = [float(x) for x in open(sys.argv[2])]
sys.exit(not (len(a) == len(b) == 6 and
              all(abs(x - y) <= 1.5e-4 for x, y in zip(a, b))))' \
		"$TMP/shown" "$TMP/right"
	quiz --scorer=$sc --seed=42 --count=6 <"$TMP/right"
	expect_status 0 "$sc: a quiz answered right"
	expect_out "score: 6 of 6" "$sc: every right answer counts"
	check "$sc: six times right" test "$(count_lines '^right: ')" -eq 6
	check "$sc: the score is the last line" \
		test "$(tail -n 1 "$TMP/out")" = "score: 6 of 6"
	# the questions asked are the ones --answers printed
	grep '^What is' "$TMP/questions" >"$TMP/q1"
	grep '^What is' "$TMP/out" >"$TMP/q2"
	check "$sc: --answers shows the questions that are asked" \
		cmp -s "$TMP/q1" "$TMP/q2"
done

# --- wrong answers get the worked arithmetic ----------------------------------
printf '100\n-100\n' | "$ATTN_TRACE" quiz --seed=42 --stage=scoring \
	--count=2 >"$TMP/out" 2>"$TMP/err"
status=$?
expect_status 0 "a quiz answered wrong still exits 0"
expect_out "score: 0 of 2" "wrong answers score nothing"
check "each wrong answer is named" \
	test "$(count_lines '^not quite: e_[0-9]+,[0-9]+ = -?[0-9.]+, not -?100\.$')" -eq 2
expect_out "The worked arithmetic:" "the worked arithmetic follows"
check "the arithmetic is term by term" test "$(unwrapped |
	grep -cE '^e_[0-9]+,[0-9]+ = s_[0-9]+·h_[0-9]+ = .*×.* \+ .* = ')" -ge 1
quiz --seed=42 --stage=weighted-sum --count=1 <<EOF
7
EOF
check "a wrong context coordinate is written out" \
	grep -qE '^c_[0-9]+\[[0-9]+\] = [0-9.]+×(\(-[0-9.]+\)|[0-9.]+) \+ ' "$TMP/out"
check "with the terms α_t,i·h_i" grep -q '^α_[0-9]*,1·h_1 = ' "$TMP/out"
quiz --seed=42 --stage=softmax --count=1 <<EOF
7
EOF
check "a wrong weight shows the softmax" grep -q '^sum = ' "$TMP/out"

# an answer that is not a number is asked again
quiz --seed=42 --count=1 --answers </dev/null
solve dot "$TMP/out" >"$TMP/one"
{ printf '1,5\nabc\n\n'; cat "$TMP/one"; } >"$TMP/in"
quiz --seed=42 --count=1 <"$TMP/in"
expect_status 0 "unparseable answers"
expect_out "Write the decimal point as '.': 0.5, not 0,5." "a comma gets a hint"
expect_out "That is not a number" "a word gets a hint"
expect_out "Type a number" "an empty line gets a hint"
expect_out "score: 1 of 1" "only the number counts"
check "the prompt comes again each time" \
	test "$(grep -o 'answer> ' "$TMP/out" | wc -l)" -eq 4
check "answers read from a pipe are echoed" grep -q '^answer> abc$' "$TMP/out"

# --- piped answers are echoed safe: no byte that could drive the terminal ----
# ESC sequences (clear the screen, set the title), a C1 CSI (U+009B), a
# byte that is not UTF-8 and a CRLF line end; each shows as \xNN, as
# error messages show them, and the CR, a line end, not at all.
printf '\033[2J\033]0;t\007\r\n\302\233x\n\377\n' >"$TMP/in"
quiz --seed=42 --count=1 <"$TMP/in"
expect_status 0 "hostile answers"
check "ESC, BEL: echoed as \\x1b, \\x07" \
	grep -qxF 'answer> \x1b[2J\x1b]0;t\x07' "$TMP/out"
check "a C1 control: echoed as \\xc2\\x9b" grep -qxF 'answer> \xc2\x9bx' "$TMP/out"
check "a byte that is not UTF-8: echoed as \\xff" grep -qxF 'answer> \xff' "$TMP/out"
check "no ESC, BEL, CR or 0xFF byte reaches stdout" \
	sh -c "! LC_ALL=C grep -q '$(printf '[\033\007\r\377]')' '$TMP/out'"

# --- the end of the input, and q ---------------------------------------------
quiz --seed=9 </dev/null
expect_status 0 "no input at all"
expect_out "The quiz stopped after 0 of 3 questions." "the early end is told"
check "the score of nothing" test "$(tail -n 1 "$TMP/out")" = "score: 0 of 0"
check "only the first question is asked" \
	test "$(count_lines '^question ')" -eq 1
check "nothing on stderr at the end of the input" test ! -s "$TMP/err"
head -n 1 "$TMP/one" >"$TMP/in"
quiz --seed=42 --count=3 <"$TMP/in"
expect_status 0 "input that ends after one answer"
expect_out "The quiz stopped after 1 of 3 questions." "one of three"
check "the score so far" test "$(tail -n 1 "$TMP/out")" = "score: 1 of 1"
printf '%s\nq\n0.5\n' "$(cat "$TMP/one")" >"$TMP/in"
quiz --seed=42 --count=3 <"$TMP/in"
expect_status 0 "q"
expect_out "The quiz stopped after 1 of 3 questions." "q ends the quiz"
check "q is not an answer" test "$(tail -n 1 "$TMP/out")" = "score: 1 of 1"
printf 'x' | "$ATTN_TRACE" quiz --seed=1 --count=1 >"$TMP/out" 2>"$TMP/err"
check "a last line without a newline is read" grep -q 'That is not a number' "$TMP/out"

# --- seeds and stages ----------------------------------------------------------
printf '0.1\n0.2\n0.3\n' >"$TMP/in"
quiz --seed=12345 <"$TMP/in"
cp "$TMP/out" "$TMP/first"
quiz --seed=12345 <"$TMP/in"
check "the same seed gives the same bytes" cmp -s "$TMP/out" "$TMP/first"
expect_out "seed 12345 (the same options with --seed=12345 ask these questions again)" \
	"the seed is printed"
quiz --seed=12346 <"$TMP/in"
check "another seed, other questions" sh -c "! cmp -s '$TMP/out' '$TMP/first'"
quiz </dev/null
seed=$(sed -n 's/^seed \([0-9]*\) .*/\1/p' "$TMP/out")
check "without --seed a seed is printed" test -n "$seed"
cp "$TMP/out" "$TMP/clock"
quiz --seed="$seed" </dev/null
check "the printed seed repeats the quiz" cmp -s "$TMP/out" "$TMP/clock"

quiz --seed=3 --count=6 --answers </dev/null
check "by default the stages take turns" test "$(grep '^question ' "$TMP/out" |
	sed 's/^question [0-9] of 6: \([a-z-]*\) .*/\1/' | tr '\n' ' ')" = \
	"scoring softmax weighted-sum scoring softmax weighted-sum "
quiz --seed=3 --count=5 --stage=softmax --answers </dev/null
check "--stage=softmax asks only softmax" \
	test "$(count_lines '^question [0-9] of 5: softmax at step')" -eq 5
quiz --seed=3 --count=4 --stage=weighted-sum --stage=scoring --answers </dev/null
check "--stage twice asks both, in stage order" test "$(grep '^question ' \
	"$TMP/out" | sed 's/^question [0-9] of 4: \([a-z-]*\) .*/\1/' |
	tr '\n' ' ')" = "scoring weighted-sum scoring weighted-sum "
quiz --seed=3 --count=1 --precision=2 --stage=softmax --answers </dev/null
check "--precision=2 shows two decimals" \
	grep -qE '^  e_[0-9]+ +\(3\) +\[ *-?[0-9]+\.[0-9]{2}, ' "$TMP/out"
expect_out "within 0.05 × (1 + |" "the tolerance follows the precision"
quiz --seed=3 --count=2 --target="i am a student" --answers </dev/null
expect_status 0 "--target"
quiz --seed=3 --count=2 --model="$srcdir/tests/data/tiny.model" --answers \
	un deux trois </dev/null
expect_status 0 "--model and a sentence"
expect_out 'questions on "un deux trois"' "the sentence is named"
check "no escape codes on a pipe" \
	sh -c "! grep -q \"$(printf '\033')\" '$TMP/first'"

# --- bad command lines and bad input ------------------------------------------
for bad in --stage=output --stage= --seed=abc --seed=-1 --seed=1x \
	--seed=18446744073709551616 --count=0 --count=101 --precision=1 \
	--precision=9 --scorer=all --scorer=no-such-scorer --frob --seed; do
	quiz $bad </dev/null
	expect_status 2 "quiz $bad"
	expect_err "Try 'attn-trace --help'" "quiz $bad: the usage hint"
done
quiz --stage=output
expect_err "unknown --stage 'output'; expected scoring, softmax, weighted-sum, hard-draw, place, draw, retina, glimpse, core, class or reinforce" \
	"an unknown stage is named"
quiz --help
expect_status 0 "quiz --help"
expect_out "Usage: attn-trace quiz" "quiz --help shows the usage"
quiz je suis chat </dev/null
expect_status 1 "an unknown word"
expect_err 'unknown source word "chat"' "the unknown word is named"
quiz --model="$TMP/missing.model" </dev/null
expect_status 1 "a missing model"
"$ATTN_TRACE" quiz --seed=1 </dev/null >/dev/full 2>"$TMP/err"
status=$?
expect_status 1 "stdout on a full disk"
expect_err "write error" "a full disk is reported"
check "a full disk is reported once" test "$(grep -c 'write error' "$TMP/err")" -eq 1

# --- hard-draw through local-p: its weights sum to less than 1, so the draw
# is from π = a / Σa; the answer is worked out here from the π and u shown
quiz --model=localp4 --window=local-p --hard --seed=3 --stage=hard-draw \
	--count=2 --answers "zone économique européenne" </dev/null
expect_status 0 "a hard-draw quiz through local-p"
expect_out "less than 1: the draw is from π_8 = a_8 / Σ_j a_8,j" "it says why π"
expect_out "cumsum_8,j = π_8,1 + ... + π_8,j" "the sums are of π"
awk '/^  π_[0-9]+ = / { n = 0; s = $0; sub(/.*\[/, "", s); sub(/\].*/, "", s)
	n = split(s, pi, ",") }
/^  u_[0-9]+ = / { u = $3; c = 0; l = n
	for (j = 1; j <= n; j++) { c += pi[j]; if (u < c) { l = j; break } } }
/^\(answer: l_[0-9]+ = / { sub(/\)/, "", $4); if ($4 != l) bad++; seen++ }
END { exit !(seen == 2 && !bad) }' "$TMP/out"
check "each answer is the first j with u < the cumulative sum of π" test $? -eq 0

# --- quiz directives in the shipped lessons -----------------------------------
for n in 5 6 7; do
	model=$(sed -n 's/^model: *//p' "$ATTN_TRACE_LESSONS"/0$n-*.lesson)
	run_cmd lesson --plain $n
	expect_status 0 "lesson $n with a quiz"
	check "lesson $n: the question" grep -q '^Quiz: work it out by hand.$' "$TMP/out"
	check "lesson $n: its answer at the end of the page" \
		grep -qE '^\(answer: .* = -?[0-9]+\.[0-9]{4}\)$' "$TMP/out"
	solve dot "$TMP/out" >"$TMP/want"
	sed -n 's/^(answer: .* = \(.*\))$/\1/p' "$TMP/out" >"$TMP/got"
	check "lesson $n: the answer agrees with Python" cmp -s "$TMP/got" "$TMP/want"
done

# --- 80 columns: a question and its worked arithmetic fit an 80-column
# terminal, broken between terms, never inside a number
: >"$TMP/all"
for sc in dot general concat additive location-aware; do
	for seed in 1 2 3 4; do
		quiz --scorer=$sc --seed=$seed --count=3 --answers </dev/null
		cat "$TMP/out" >>"$TMP/all"
	done
done
check "every line of 60 questions' answers fits 80 columns" /usr/bin/python3 -c '
import sys, unicodedata
sys.exit(any(sum(0 if unicodedata.combining(c) else 1 for c in l) > 80
             for l in open(sys.argv[1], encoding="utf-8").read().split("\n")))
' "$TMP/all"
check "no line is broken inside a number" /usr/bin/python3 -c '
import re, sys
ls = open(sys.argv[1], encoding="utf-8").read().split("\n")
sys.exit(not any(l.startswith("    ") for l in ls) or
         any(re.search(r"[-0-9.]$", a) and re.match(r"    [0-9.]", b)
             for a, b in zip(ls, ls[1:])))
' "$TMP/all"

finish
