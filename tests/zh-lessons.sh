#!/bin/sh
# zh-lessons.sh: translated lessons (doc/translating.md, "Translated
# lessons").  Under LANG=zh_CN.UTF-8 'lesson 1 --plain' is
# lessons/zh_CN/01-tokens.lesson (and lesson 2 its translation), with the English lesson's numbers and no
# line wider than 80 columns; --lang=en and LANG=C give the English one,
# byte for byte the same; 'lesson --check' passes the translation and
# fails, with PATH:LINE:COL, a copy missing a page, one with a directive
# changed and one with a reference changed.  Lessons 15 to 20 likewise:
# --check, the English numbers, 80 columns.  Skipped without the locale.
. "$srcdir/tests/lib.sh"
locale -a 2>/dev/null | grep -qix 'zh_CN.utf8' || { echo "no zh_CN.UTF-8 locale"; exit 77; }
unset LC_ALL LC_MESSAGES LANGUAGE ATTN_TRACE_LESSONS
ATTN_TRACE_LOCALEDIR=$TMP/loc
export ATTN_TRACE_LOCALEDIR
L=$top_srcdir/lessons
PY=/usr/bin/python3

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
LANG=zh_CN.UTF-8 "$ATTN_TRACE" lesson 3 --plain >"$TMP/zh3" 2>&1
LANG=C "$ATTN_TRACE" lesson 3 --plain >"$TMP/en3" 2>&1
check "an untranslated lesson falls back to English" cmp -s "$TMP/en3" "$TMP/zh3"
LANG=zh_CN.UTF-8 "$ATTN_TRACE" lessons >"$TMP/list" 2>&1
check "lessons lists the Chinese title" grep -qF "词变成向量" "$TMP/list"

# lesson --check compares a translation with its original
run_cmd lesson --check "$L/zh_CN/01-tokens.lesson" "$L/zh_CN/02-encoder.lesson"
expect_status 0 "--check passes the translations of lessons 1 and 2"
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
# Lessons 15 to 20 in Chinese: each passes --check against its original,
# shows the English lesson's numbers in the same order, and fits 80 columns.
for f in 15-bahdanau 16-location-aware 17-local 18-hard 19-qkv 20-heads; do
	n=${f%%-*}
	run_cmd lesson --check "$L/zh_CN/$f.lesson"
	expect_status 0 "--check passes the translation of lesson $n"
	LANG=C "$ATTN_TRACE" lesson "$n" --plain >"$TMP/en$n" 2>&1
	LANG=zh_CN.UTF-8 "$ATTN_TRACE" lesson "$n" --plain >"$TMP/zh$n" 2>&1
	check "zh_CN: lesson $n is the Chinese one" sh -c '! cmp -s "$1" "$2"' x "$TMP/en$n" "$TMP/zh$n"
	grep -oE -- '-?[0-9]+\.[0-9]+' "$TMP/en$n" >"$TMP/en$n.num"
	grep -oE -- '-?[0-9]+\.[0-9]+' "$TMP/zh$n" >"$TMP/zh$n.num"
	check "lesson $n shows numbers" test -s "$TMP/en$n.num"
	check "lesson $n's numbers in Chinese are the English one's" \
		cmp -s "$TMP/en$n.num" "$TMP/zh$n.num"
	check "lesson $n in Chinese fits 80 columns" \
		$PY "$top_srcdir/tests/cjk_check.py" width "$TMP/zh$n" 80
done
run_cmd lesson 1 --lang=fr
expect_status 2 "--lang=fr is a usage error"
finish
