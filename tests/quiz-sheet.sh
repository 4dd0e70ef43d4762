#!/bin/sh
# quiz-sheet.sh: "attn-trace quiz --worksheet" and "--key": the key's
# answers worked out again here (tests/quiz_sheet_check.py) from the
# numbers the worksheet shows, the same questions in text, Markdown and
# HTML, a well-formed self-contained HTML page, words escaped, and the
# options' errors.
. "$srcdir/tests/lib.sh"
if [ -z "${PYTHON3:-}" ] || [ "$PYTHON3" = no ]; then
	echo "python3 is needed to check the worksheets"; exit 77
fi
chk="$srcdir/tests/quiz_sheet_check.py"

# sheet NAME ARGS...: the worksheet and the key of the same options, in
# $TMP/NAME.sheet and $TMP/NAME.key
sheet() {
	name=$1
	shift
	"$ATTN_TRACE" quiz --worksheet "$@" >"$TMP/$name.sheet" 2>"$TMP/err" &&
		"$ATTN_TRACE" quiz --key "$@" >"$TMP/$name.key" 2>>"$TMP/err"
}

# agree NAME WHAT: the key answers the worksheet's questions
agree() {
	if "$PYTHON3" "$chk" solve "$TMP/$1.sheet" "$TMP/$1.key" >"$TMP/solve" 2>&1
	then
		ok "$2 ($(grep -c ' ok$' "$TMP/solve") answers worked out again)"
	else
		not_ok "$2: $(cat "$TMP/solve")"
	fi
}

for sc in dot general concat; do
	check "$sc: a worksheet and its key of 12 questions" \
		sheet "$sc" --scorer="$sc" --seed=11 --count=12
	agree "$sc" "$sc: the key's answers follow from the worksheet's numbers"
done
check "handset4, 3 words: a worksheet and its key" \
	sheet hs --model=handset4 --seed=7 --count=9 zone économique européenne
agree hs "handset4: the key's answers follow from the worksheet's numbers"
check "bahdanau: a worksheet and its key" \
	sheet ba --arch=bahdanau --seed=5 --count=6
agree ba "bahdanau: the key's answers follow from the worksheet's numbers"

# a worksheet gives no answer away: no value of the key is on it
"$PYTHON3" - "$TMP/dot.sheet" "$TMP/dot.key" >"$TMP/leak" <<'PY'
import re, sys
sheet = open(sys.argv[1], encoding="utf-8").read()
for line in open(sys.argv[2], encoding="utf-8"):
    m = re.match(r"^(\S+) = (-?\d+\.\d+)$", line.strip())
    if m and re.search(re.escape(m.group(1)) + r" = -?\d", sheet):
        print(m.group(1))
PY
if [ ! -s "$TMP/leak" ] && grep -q '^answer: .* = ___' "$TMP/dot.sheet"; then
	ok "the worksheet has a blank for each answer and gives none away"
else
	not_ok "the worksheet gives away: $(cat "$TMP/leak")"
fi

# the same seed: the same sheet; another seed: other questions
"$ATTN_TRACE" quiz --worksheet --seed=11 --count=12 >"$TMP/again" 2>&1
check "the same seed prints the same worksheet" cmp -s "$TMP/again" "$TMP/dot.sheet"
"$ATTN_TRACE" quiz --worksheet --seed=12 --count=12 >"$TMP/other" 2>&1
check "another seed prints other questions" \
	sh -c '! cmp -s "$1" "$2"' - "$TMP/other" "$TMP/dot.sheet"

# the formats: the same questions, and a page that stands alone
for f in markdown html; do
	check "--format=$f: a worksheet and its key" \
		sheet "$f" --seed=11 --count=12 --format="$f"
	if "$PYTHON3" "$chk" prompts "$TMP/dot.sheet" "$TMP/$f.sheet" "$f" \
		>"$TMP/p" 2>&1; then
		ok "--format=$f: the text worksheet's questions, line for line"
	else
		not_ok "--format=$f: $(cat "$TMP/p")"
	fi
done
for k in sheet key; do
	if "$PYTHON3" "$chk" html "$TMP/html.$k" >"$TMP/h" 2>&1; then
		ok "--format=html --$k: a well-formed page that loads nothing ($(cat "$TMP/h"))"
	else
		not_ok "--format=html --$k: $(cat "$TMP/h")"
	fi
done

# words that are markup: a model whose word is <i>&amp;"x'*_
word='<i>&amp;"x'"'"'*_'
"$PYTHON3" - "$srcdir/tests/data/tiny.model" "$TMP/evil.model" <<'PY'
import sys
s = open(sys.argv[1], encoding="utf-8").read()
open(sys.argv[2], "w", encoding="utf-8").write(
    s.replace("\ndeux ", "\n<i>&amp;\"x'*_ ", 1))
PY
check "a model with a word of markup: an HTML worksheet" sheet evil \
	--model="$TMP/evil.model" --seed=3 --count=6 --format=html \
	un "$word" trois
for k in sheet key; do
	if "$PYTHON3" "$chk" html "$TMP/evil.$k" >"$TMP/h" 2>&1 &&
		"$PYTHON3" "$chk" text "$TMP/evil.$k" "$word" >>"$TMP/h" 2>&1 &&
		! grep -q '<i>' "$TMP/evil.$k"; then
		ok "HTML --$k: the word is escaped, and reads as itself"
	else
		not_ok "HTML --$k escapes the word: $(cat "$TMP/h")"
	fi
done
"$ATTN_TRACE" quiz --worksheet --model="$TMP/evil.model" --seed=3 --count=1 \
	--format=markdown un "$word" trois >"$TMP/evil.md" 2>&1
if grep -qF '"un \<i\>\&amp;"x'"'"'\*\_ trois"' "$TMP/evil.md"; then
	ok "Markdown: the word's markup characters are escaped"
else
	not_ok "Markdown escapes the word: $(head -1 "$TMP/evil.md")"
fi

# the options' errors
run_cmd quiz --worksheet --key
expect_status 2 "--worksheet with --key"
run_cmd quiz --key --answers
expect_status 2 "--key with --answers"
run_cmd quiz --format=html
expect_status 2 "--format without --worksheet or --key"
expect_err "--worksheet and --key" "--format says what it needs"
run_cmd quiz --worksheet --format=pdf
expect_status 2 "--format=pdf"
expect_err "expected text, markdown or html" "--format names the formats"
run_cmd quiz --worksheet --seed=1 --count=2 </dev/null
expect_status 0 "--worksheet reads nothing"

# no two questions at one step: a softmax question shows e_t, the answer
# of a scoring question at t, and a weighted-sum one α_t (the greedy
# decoding of "je suis étudiant" has 5 steps, so 3 questions fit)
same=""
for seed in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
	"$ATTN_TRACE" quiz --worksheet --seed=$seed --count=3 |
		grep -o 'at step t=[0-9]*' | sort | uniq -d >"$TMP/dup"
	[ -s "$TMP/dup" ] && same="$same $seed"
done
check "no worksheet of seeds 1-20 asks twice at one step (seeds:$same)" \
	test -z "$same"
finish
