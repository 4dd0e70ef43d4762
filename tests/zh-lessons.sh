#!/bin/sh
# zh-lessons.sh: translated lessons (doc/translating.md, "Lessons in
# another language").  Under LANG=zh_CN.UTF-8 'lesson 1 --plain' is
# lessons/zh_CN/01-tokens.lesson (and lesson 2 its translation), with the
# English lesson's numbers and no line wider than 80 columns; --lang=en
# and LANG=C give the English one, byte for byte the same; an
# untranslated lesson falls back to English.  Every translation in
# lessons/zh_CN passes --check, shows its original's numbers and fits 80
# columns.  'lesson --check' fails, with PATH:LINE:COL, translations that
# differ from their original in a page, a directive, a reference, a
# header value, a prediction, a claim, a literal number or a fold; and a
# translation's relative model:, model= and pairs: resolve as in its
# original.  Skipped without the locale.
. "$srcdir/tests/lib.sh"
locale -a 2>/dev/null | grep -qix 'zh_CN.utf8' || { echo "no zh_CN.UTF-8 locale"; exit 77; }
unset LC_ALL LC_MESSAGES LANGUAGE ATTN_TRACE_LESSONS
ATTN_TRACE_LOCALEDIR=$TMP/loc
export ATTN_TRACE_LOCALEDIR
L=$top_srcdir/lessons
PY=/usr/bin/python3
# The catalogue too, so that --lang is seen to choose the frame's words
# ("Goal:", "page 1 of 5") as well as the lesson file.
mkdir -p "$TMP/loc/zh_CN/LC_MESSAGES"
mo=
command -v msgfmt >/dev/null 2>&1 &&
	msgfmt -o "$TMP/loc/zh_CN/LC_MESSAGES/attn-trace.mo" \
		"$top_srcdir/po/zh_CN.po" && mo=yes

LANG=C "$ATTN_TRACE" lesson 1 --plain >"$TMP/en" 2>&1
LANG=zh_CN.UTF-8 "$ATTN_TRACE" lesson 1 --plain >"$TMP/zh" 2>&1
LANG=zh_CN.UTF-8 "$ATTN_TRACE" lesson 1 --plain --lang=en >"$TMP/zh-en" 2>&1
LANG=C "$ATTN_TRACE" lesson 1 --plain --lang=zh_CN >"$TMP/c-zh" 2>&1
LANG=C "$ATTN_TRACE" lesson "$L/01-tokens.lesson" --plain >"$TMP/file" 2>&1

check "zh_CN: lesson 1 is the Chinese one" grep -qF "词变成向量" "$TMP/zh"
check "zh_CN: no English title" sh -c '! grep -qF "Words become vectors" "$1"' x "$TMP/zh"
check "LANG=C: English, byte for byte the lesson file's" cmp -s "$TMP/en" "$TMP/file"
check "zh_CN --lang=en: English, byte for byte" cmp -s "$TMP/en" "$TMP/zh-en"
check "LANG=C --lang=zh_CN: the Chinese one" cmp -s "$TMP/zh" "$TMP/c-zh"
if [ -n "$mo" ]; then
	check "zh_CN: the frame is Chinese" grep -qF "目标：" "$TMP/zh"
	check "zh_CN --lang=en: the frame is English" grep -qF "Goal: " "$TMP/zh-en"
	# --lang on quiz and tui: the messages, whatever the locale says
	q() { "$ATTN_TRACE" quiz --count=1 --seed=1 "$@" </dev/null 2>&1; }
	LANG=C q --lang=zh_CN >"$TMP/q-zh"
	LANG=zh_CN.UTF-8 q >"$TMP/q-zh2"
	LANG=zh_CN.UTF-8 q --lang=en >"$TMP/q-en"
	LANG=C q >"$TMP/q-c"
	check "LANG=C quiz --lang=zh_CN: in Chinese" grep -qF "第 1 题，共 1 题" "$TMP/q-zh"
	check "... as under LANG=zh_CN.UTF-8, byte for byte" cmp -s "$TMP/q-zh" "$TMP/q-zh2"
	check "LANG=zh_CN.UTF-8 quiz --lang=en: in English" \
		grep -qF "question 1 of 1" "$TMP/q-en"
	check "... as under LANG=C, byte for byte" cmp -s "$TMP/q-en" "$TMP/q-c"
	if command -v tmux >/dev/null 2>&1; then
		sock="zh-lessons-$$"
		tmux -L "$sock" -f /dev/null new-session -d -s t -x 80 -y 24 \
			"LC_ALL=C.UTF-8 '$(cd "$(dirname "$ATTN_TRACE")" && pwd)/$(basename "$ATTN_TRACE")' tui --lang=zh_CN --color=never; sleep 60"
		i=0
		while [ $i -lt 600 ]; do # a hang guard, not a measure of speed
			tmux -L "$sock" capture-pane -p -t t >"$TMP/tui"
			grep -qF "q 退出" "$TMP/tui" && break
			sleep 0.1
			i=$((i + 1))
		done
		tmux -L "$sock" kill-server 2>/dev/null
		check "LC_ALL=C.UTF-8 tui --lang=zh_CN: the stepper in Chinese, at 80x24" \
			grep -qF "q 退出" "$TMP/tui"
		check "... its stage line in Chinese" grep -qF "编码" "$TMP/tui"
	fi
fi
# The numbers (the embeddings the show directives print) are the English
# lesson's, in the same order: both lessons show the same trace.
grep -oE -- '-?[0-9]+\.[0-9]+' "$TMP/en" >"$TMP/en.num"
grep -oE -- '-?[0-9]+\.[0-9]+' "$TMP/zh" >"$TMP/zh.num"
check "the English lesson shows numbers" test -s "$TMP/en.num"
check "the Chinese lesson's numbers are the English one's" cmp -s "$TMP/en.num" "$TMP/zh.num"
check "no line of the Chinese lesson is wider than 80 columns" \
	$PY "$top_srcdir/tests/cjk_check.py" width "$TMP/zh" 80
LANG=zh_CN.UTF-8 "$ATTN_TRACE" lesson 2 --plain >"$TMP/zh2" 2>&1
LANG=C "$ATTN_TRACE" lesson 2 --plain >"$TMP/en2" 2>&1
check "zh_CN: lesson 2 is the Chinese one" grep -qF "编码器一次读一个词" "$TMP/zh2"
grep -oE -- '-?[0-9]+\.[0-9]+' "$TMP/en2" >"$TMP/en2.num"
grep -oE -- '-?[0-9]+\.[0-9]+' "$TMP/zh2" >"$TMP/zh2.num"
check "lesson 2's numbers (references and arithmetic) are the English one's" \
	cmp -s "$TMP/en2.num" "$TMP/zh2.num"
check "lesson 2 in Chinese fits 80 columns" \
	$PY "$top_srcdir/tests/cjk_check.py" width "$TMP/zh2" 80
# a lesson directory where lesson 4 has no translation (the shipped one
# may have every lesson translated)
mkdir -p "$TMP/fb/zh_CN"
cp "$L/01-tokens.lesson" "$L/04-decoder.lesson" "$TMP/fb/"
cp "$L/zh_CN/01-tokens.lesson" "$TMP/fb/zh_CN/"
ATTN_TRACE_LESSONS=$TMP/fb LANG=zh_CN.UTF-8 "$ATTN_TRACE" lesson 4 --plain \
	>"$TMP/zh3" 2>&1
check "an untranslated lesson falls back to English" \
	grep -qxF "The decoder state asks a question" "$TMP/zh3"
check "... its text English" grep -qF "A second RNN" "$TMP/zh3"
LANG=zh_CN.UTF-8 "$ATTN_TRACE" lessons >"$TMP/list" 2>&1
check "lessons lists the Chinese title" grep -qF "词变成向量" "$TMP/list"

# Every translation there is, found by listing lessons/zh_CN, so that a
# new one is checked without editing this test: --check passes it (which
# compares it with its original), its --plain shows the original's
# numbers in the same order, and no line of it is wider than 80 columns
# (wcwidth).  tests/tui-pages.sh pages each through the stepper at 80x24.
ntr=0
for f in "$L"/zh_CN/[0-9]*.lesson; do
	[ -e "$f" ] || continue
	ntr=$((ntr + 1))
	b=$(basename "$f" .lesson)
	orig=$(sed -n 's/^translates: *//p' "$f" | head -n 1)
	check "zh_CN/$b names its original" test -n "$orig" -a -f "$L/$orig"
	run_cmd lesson --check "$f"
	expect_status 0 "zh_CN/$b passes --check"
	check "zh_CN/$b: --check says ok" grep -qxF "$f: ok" "$TMP/out"
	LANG=C "$ATTN_TRACE" lesson "$L/$orig" --plain >"$TMP/o.txt" 2>&1
	LANG=C "$ATTN_TRACE" lesson "$f" --plain >"$TMP/t.txt" 2>&1
	grep -oE -- '-?[0-9]+\.[0-9]+' "$TMP/o.txt" >"$TMP/o.num"
	grep -oE -- '-?[0-9]+\.[0-9]+' "$TMP/t.txt" >"$TMP/t.num"
	check "zh_CN/$b: the original shows numbers" test -s "$TMP/o.num"
	check "zh_CN/$b: its numbers are the original's, in order" \
		cmp -s "$TMP/o.num" "$TMP/t.num"
	check "zh_CN/$b: no line of --plain wider than 80 columns" \
		$PY "$top_srcdir/tests/cjk_check.py" width "$TMP/t.txt" 80
done
check "at least two translations" test "$ntr" -ge 2
mkdir -p "$TMP/t/zh_CN"
cp "$L/01-tokens.lesson" "$TMP/t/"
T=$TMP/t/zh_CN/01-tokens.lesson
sed '/^page: 轮到你了/,$d' "$L/zh_CN/01-tokens.lesson" >"$T"
run_cmd lesson --check "$T"
expect_status 1 "--check fails a translation missing a page"
check "... at PATH:LINE:COL naming the page count" \
	grep -qE "01-tokens.lesson:[0-9]+:1: expected 5 pages as in .*, found 4" "$TMP/err"
sed 's/^show embedding i=3/show embedding i=1/' "$L/zh_CN/01-tokens.lesson" >"$T"
run_cmd lesson --check "$T"
expect_status 1 "--check fails a translation with a directive changed"
check "... at the directive's line" \
	grep -qE "01-tokens.lesson:[0-9]+:1: expected the same directive" "$TMP/err"
# a reference: a lesson of two pages and its translation; the changed
# reference is on line 9, at byte 7 (after 还有, six bytes)
printf '%s\n' 'title: R' 'goal: g' 'model: handset4' \
	'sentence: je suis étudiant' 'page: one' 'The score is {e_1,1}.' \
	'page: two' 'And {α_1,2}.' >"$TMP/t/r.lesson"
printf '%s\n' 'title: 甲' 'goal: 乙' 'translates: r.lesson' 'model: handset4' \
	'sentence: je suis étudiant' 'page: 一' '分数是{e_1,1}。' \
	'page: 二' '还有{α_1,2}。' >"$TMP/t/zh_CN/r.lesson"
run_cmd lesson --check "$TMP/t/zh_CN/r.lesson"
expect_status 0 "--check passes a translation with the same references"
sed -i 's/{α_1,2}/{α_1,3}/' "$TMP/t/zh_CN/r.lesson"
run_cmd lesson --check "$TMP/t/zh_CN/r.lesson"
expect_status 1 "--check fails a translation with a reference changed"
check "... at the reference's line and column" \
	grep -qF "r.lesson:9:7: expected the reference {α_1,2} as in" "$TMP/err"
sed 's/^/# /' "$TMP/err"

# --check compares the header values that carry meaning (all but title,
# goal and translates), the predictions, claims, numbers typed, fold and
# pin; each change below is one it must catch, at its line and column.
orig_r() {
	printf '%s\n' 'title: R' 'goal: g' 'model: handset4' \
		'sentence: je suis étudiant' 'scorer: general' \
		'page: one' 'fold' 'The score is {e_1,1}, about \0.5.' \
		'claim argmax(α_1) = je' 'page: two' 'predict argmax(e_2)' 'hint h' \
		'And {α_1,2}.' 'show scores t=2'
}
orig_r >"$TMP/t/r.lesson"
tr_r() {
	printf '%s\n' 'title: 甲' 'goal: 乙' 'translates: r.lesson' \
		'model: handset4' 'sentence: je suis étudiant' \
		'scorer: general' 'page: 一' 'fold' '分数是{e_1,1}，约 \0.5。' \
		'claim argmax(α_1) = je' 'page: 二' 'predict argmax(e_2)' 'hint 提示' \
		'还有{α_1,2}。' 'show scores t=2'
}
tr_r >"$TMP/t/zh_CN/r.lesson"
run_cmd lesson --check "$TMP/t/zh_CN/r.lesson"
expect_status 0 "--check passes a translation with the same header and pages"
# bad_tr SED WHERE WHAT: the translation changed by SED fails --check
# with an error at PATH:WHERE: naming what was expected
bad_tr() {
	tr_r | sed "$1" >"$TMP/t/zh_CN/r.lesson"
	run_cmd lesson --check "$TMP/t/zh_CN/r.lesson"
	expect_status 1 "--check fails a translation with $3"
	check "... at r.lesson:$2" grep -qF "zh_CN/r.lesson:$2: expected" "$TMP/err"
}
bad_tr 's/^scorer: general/scorer: concat/' 6:9 "another scorer"
bad_tr 's/^sentence: je suis étudiant/sentence: je suis/' 5:11 \
	"another sentence"
bad_tr '/^scorer:/d' 3:1 "no scorer:"
bad_tr '6a target: i am a student' 7:9 "a target the original has not"
bad_tr 's/^predict argmax(e_2)/predict argmax(e_1)/' 12:9 \
	"another prediction"
bad_tr '/^predict /d; /^hint /d' 11:1 "no prediction"
bad_tr 's/^claim argmax(α_1) = je/claim argmax(α_1) = suis/' 10:7 \
	"another claim"
bad_tr 's/0\.5。/0.6。/' 7:1 "another number typed"
bad_tr '/^fold$/d' 7:1 "no fold"
tr_r | sed 's/^title: 甲/title: 另一个/; s/^goal: 乙/goal: 别的/' \
	>"$TMP/t/zh_CN/r.lesson"
run_cmd lesson --check "$TMP/t/zh_CN/r.lesson"
expect_status 0 "--check lets the title and goal differ"
tr_r | sed 's|^translates: r.lesson|translates: ../r.lesson|' \
	>"$TMP/t/zh_CN/r.lesson"
run_cmd lesson --check "$TMP/t/zh_CN/r.lesson"
expect_status 1 "--check refuses 'translates:' naming a path"
expect_err "r.lesson:3:13: expected the file name of the original lesson" \
	"... at its value"

# A translation's relative model:, pairs: and model= paths resolve as in
# its original (against the original's directory and tree), not against
# lessons/zh_CN: lesson 14's model= and lesson 3's pairs: need it.
mkdir -p "$TMP/t/models" "$TMP/t/data"
cp "$L/models/epoch0.model" "$TMP/t/models/"
cp "$L/data/long-heldout.pairs" "$TMP/t/data/"
printf '%s\n' 'title: M' 'goal: g' 'model: models/epoch0.model' \
	'sentence: zone économique européenne' 'page: one' \
	'{α_1,1 model=models/epoch0.model}' >"$TMP/t/m.lesson"
printf '%s\n' 'title: 甲' 'goal: 乙' 'translates: m.lesson' \
	'model: models/epoch0.model' 'sentence: zone économique européenne' \
	'page: 一' '{α_1,1 model=models/epoch0.model}' >"$TMP/t/zh_CN/m.lesson"
run_cmd lesson --check "$TMP/t/zh_CN/m.lesson"
expect_status 0 "a translation's relative model: and model= are its original's"
"$ATTN_TRACE" lesson --plain "$TMP/t/m.lesson" 2>&1 | tail -n 1 >"$TMP/m.en"
"$ATTN_TRACE" lesson --plain "$TMP/t/zh_CN/m.lesson" 2>&1 | tail -n 1 >"$TMP/m.zh"
check "... and show the same number" cmp -s "$TMP/m.en" "$TMP/m.zh"
sed 's/^/# /' "$TMP/m.zh"
printf '%s\n' 'title: 甲' 'goal: 乙' 'translates: p.lesson' \
	'model: longattn8' 'pairs: data/long-heldout.pairs' \
	'sentence: le lapin rouge nage' 'page: 一' 'show accuracy' \
	>"$TMP/t/zh_CN/p.lesson"
sed '1,3d' "$TMP/t/zh_CN/p.lesson" | { printf 'title: P\ngoal: g\n'; cat; } \
	>"$TMP/t/p.lesson"
run_cmd lesson --check "$TMP/t/zh_CN/p.lesson"
expect_status 0 "a translation's relative pairs: is its original's"
run_cmd lesson 1 --lang=fr
expect_status 2 "--lang=fr is a usage error"
finish
