#!/bin/sh
# cjk.sh: text laid out by display width (issue 30; doc/lessons.md, "How
# text is laid out").  Columns are measured by tests/cjk_check.py with
# wcwidth, not by attn-trace.
#
# 1. tests/zh/attention.lesson, a lesson in Chinese: `lesson --plain`
#    under the C, C.UTF-8 and zh_CN.UTF-8 locales (those installed) is the
#    same text, no line wider than 80 columns, and at 76, 40 and 24
#    columns no number is cut: the handset4 values the prose refers to
#    (e_1,1 = 0.9765; 1 + 2·exp(-0.9765) = 1.7532; 1/1.7532 = 0.5704;
#    exp(-0.9765)/1.7532 = 0.2148; 0 - 0.9765) each stand whole.
# 2. The stepper at 80x24 shows its pages as --plain --width=78 wraps
#    them (the stepper's text width), with no hanging indent before CJK.
# 3. tests/data/zh.pairs, a corpus with Chinese source words, trains;
#    the model traces, and the text heatmap, the stepper's arithmetic,
#    bars, heatmap and diagram line up by display width.
. "$srcdir/tests/lib.sh"
. "$srcdir/tests/tui-lib.sh"

LESSON=$srcdir/tests/zh/attention.lesson
py=/usr/bin/python3
[ -x "$py" ] || py=${PYTHON3:-python3}
cjk() { "$py" "$srcdir/tests/cjk_check.py" "$@"; }

# --- 1. --plain, under each locale -------------------------------------
run_cmd lesson --check "$LESSON"
expect_status 0 "the Chinese lesson passes lesson --check"

LC_ALL=C "$ATTN_TRACE" lesson "$LESSON" --plain >"$TMP/plain-C" 2>&1
for loc in C.UTF-8 zh_CN.UTF-8; do
	if ! LC_ALL=$loc locale 2>&1 | grep -q "Cannot set"; then
		LC_ALL=$loc LANG=$loc "$ATTN_TRACE" lesson "$LESSON" --plain \
			>"$TMP/plain-$loc" 2>&1
		check "--plain under $loc is the text it is under C" \
			cmp -s "$TMP/plain-C" "$TMP/plain-$loc"
	fi
done
check "--plain has no line wider than 80 columns" \
	cjk width "$TMP/plain-C" 80
check "--plain wraps the CJK prose at 76 columns" \
	cjk prose "$TMP/plain-C" 76 12
for w in 76 40 24; do
	"$ATTN_TRACE" lesson "$LESSON" --plain --width=$w >"$TMP/plain-$w"
	check "--plain --width=$w cuts no number" \
		cjk numbers "$TMP/plain-$w" 0.9765 -0.9765 1.7532 0.5704 0.2148
	check "--plain --width=$w: the CJK prose fits in $w columns" \
		cjk prose "$TMP/plain-$w" $w 12
	check "--plain --width=$w: no line starts with closing punctuation" \
		sh -c "! grep -q '^[，。、）」：；]' '$TMP/plain-$w'"
	check "--plain --width=$w: no line ends with opening punctuation" \
		sh -c "! grep -q '[（「“]\$' '$TMP/plain-$w'"
done

# --- 2. the stepper at 80x24 -------------------------------------------
"$ATTN_TRACE" lesson "$LESSON" --plain --width=78 >"$TMP/plain-78"
# page_of N: the narrative of page N of plain-78 (its lines with CJK
# punctuation), into page-N
page_of() {
	awk -v p="[page $1 of 5]" '$0 == p { on = 1; next }
		/^\[page / { on = 0 } on && /[。，]/' "$TMP/plain-78" \
		>"$TMP/page-$1"
}
start zh 80 24 "'$ATTN_TRACE' lesson '$LESSON'"
if wait_for zh "page 1 of 5"; then
	for p in 1 2 3 4; do
		[ $p -gt 1 ] && keys zh n && wait_for zh "page $p of 5" >/dev/null
		sleep 0.3
		screen zh >"$TMP/screen-$p"
		page_of $p
		check "stepper page $p: the prose wrapped as --plain --width=78" \
			cjk lines "$TMP/page-$p" "$TMP/screen-$p"
		check "stepper page $p: no hanging indent before CJK text" \
			cjk indent "$TMP/screen-$p"
		check "stepper page $p: no row wider than 80 columns" \
			cjk width "$TMP/screen-$p" 80
	done
else
	not_ok "the stepper opens the Chinese lesson"
fi
check "the stepper shows -0.9765 whole" grep -q -- "-0.9765）" "$TMP/screen-3"

# --- 3. a model whose source words are Chinese -------------------------
run_cmd train --pairs="$srcdir/tests/data/zh.pairs" -o "$TMP/zh.model" \
	--align-weight=1 --epochs=1500
expect_status 0 "zh.pairs trains"
run_cmd --model="$TMP/zh.model" "他 成为 艺术家"
expect_status 0 "the Chinese model traces 他 成为 艺术家"
check "the trace looks up emb(他)" grep -qF "x_1 = emb(他)" "$TMP/out"
# the encoder's vectors: the labels of the later stages ("the context
# vector c_t = Σ_i α_t,i·h_i") are wider than their column, in English too
grep -F "(4)   [" "$TMP/out" | head -n 20 >"$TMP/enc"
check "the trace's vectors of emb(他) ... are in one column" \
	cjk column "$TMP/enc" "(4)   ["

start heat 80 24 "'$ATTN_TRACE' heatmap --model='$TMP/zh.model' '他 成为 艺术家'"
wait_for heat "note: the heatmap as text" >/dev/null
screen heat >"$TMP/heat"
check "the text heatmap's cells are under their Chinese words" \
	cjk heatmap "$TMP/heat" 2

start tui 80 24 "'$ATTN_TRACE' tui --model='$TMP/zh.model' '他 成为 艺术家'"
if wait_for tui "x_1 = emb(他)"; then
	screen tui >"$TMP/tui-enc"
	check "stepper: the vectors of the encoding are in one column" \
		cjk column "$TMP/tui-enc" "(4)   ["
	keys tui g 4
	wait_for tui "stage 4 of 7: softmax" >/dev/null
	sleep 0.3
	screen tui | grep -E '^   (他|成为|艺术家) ' >"$TMP/tui-bars"
	check "stepper: the weights of 他, 成为 and 艺术家 are in one column" \
		cjk column "$TMP/tui-bars" " 0."
	keys tui m
	wait_for tui "the alignment heatmap" >/dev/null
	sleep 0.3
	screen tui >"$TMP/tui-heat"
	check "stepper heatmap: the weights are under their Chinese words" \
		cjk heatmap "$TMP/tui-heat" 0
	keys tui Escape
	keys tui d
	wait_for tui "the picture of step" >/dev/null
	sleep 0.3
	screen tui | grep -E '│|┌|└' >"$TMP/tui-diagram"
	check "stepper diagram: the boxes of 他, 成为 and 艺术家 line up" \
		cjk bars "$TMP/tui-diagram"
else
	not_ok "the stepper opens the Chinese model"
fi

finish
