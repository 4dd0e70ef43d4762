#!/bin/sh
# tui-pages.sh: every line of every lesson page can be read by paging
# with Space alone (issue 25): at 80x24 and at 100x30, in tmux, each
# shipped lesson is paged from its first page to the end with Space, and
# every line the stepper showed is collected.  Each line of each page of
# 'attn-trace lesson N --plain --width=W' (W = the columns less 2, the
# stepper's text width) must be among them.
#
# A page with a prediction (doc/lessons.md, "Predicting first") hides its
# numbers until it is answered: the answer --plain lists under [answers]
# is typed, once, when it opens ("Press z or Enter to answer").
#
# A page whose term-by-term arithmetic starts folded (the page line says
# "arithmetic folded: t shows it") is unfolded with t, once, when it opens:
# the fold is the learner's choice, and --plain shows everything.
#
# The stepper wraps what --plain leaves long and squeezes padding, so lines
# are compared without their blanks: a line of --plain must be a part of
# the page's text as seen, its screens' lines joined in the order seen.
# Screens are awaited by polling what tmux shows, never by a fixed wait;
# the polls' caps only guard against a hang.
. "$srcdir/tests/lib.sh"
. "$srcdir/tests/tui-lib.sh"

# snap NAME FILE: the screen into FILE
snap() { screen "$1" >"$2"; }

# next_screen NAME OLD NEW: sends nothing; waits (60 s at most: a hang
# guard, as tui-lib.sh's, not a measure of speed)
# until the screen differs from OLD and then holds still for two polls
# (tmux may show a screen half drawn, or the flash of a refused key), and
# puts it in NEW.  Returns 1 if it never settled on another screen.
next_screen() {
	i=0
	while [ $i -lt 3000 ]; do
		snap "$1" "$3"
		if ! cmp -s "$2" "$3"; then
			steady "$1" "$3" && ! cmp -s "$2" "$3" && return 0
		fi
		sleep 0.01
		i=$((i + 1))
	done
	return 1
}

# steady NAME FILE: polls (60 s at most) until two screens in a row,
# 20 ms apart, are the same and hold the key bar; leaves it in FILE
steady() {
	i=0
	while [ $i -lt 3000 ]; do
		sleep 0.02
		snap "$1" "$2.again"
		if cmp -s "$2" "$2.again" && grep -q 'q quit' "$2"; then
			return 0
		fi
		mv "$2.again" "$2"
		i=$((i + 1))
	done
	return 1
}

# first_screen NAME FILE: waits (60 s at most) for page 1 to be drawn
first_screen() {
	i=0
	while [ $i -lt 6000 ]; do
		snap "$1" "$2"
		grep -q 'page 1 of' "$2" && grep -q 'q quit' "$2" &&
			steady "$1" "$2" && return 0
		sleep 0.01
		i=$((i + 1))
	done
	return 1
}

# answer_of K: the answer to page K's prediction, from --plain's
# [answers] ("(prediction: argmax(e_2) = suis)", "(prediction: max(α_5) >
# 0.5? no)"): what follows its last "= " or "? "
answer_of() {
	awk -v k="$1" '
		/^\[answers\]$/ { a = 1; next }
		a && $0 == "page " k ":" { p = 1; next }
		a && /^page [0-9]+:$/ { p = 0 }
		p && /^\(prediction: / { s = $0; sub(/\)$/, "", s)
			n = split(s, w, / = |\? /); print w[n]; exit }' "$TMP/plain"
}

# next_shown NAME TEXT FILE: waits (60 s at most) until the screen holds
# TEXT and holds still; leaves it in FILE
next_shown() {
	i=0
	while [ $i -lt 3000 ]; do
		snap "$1" "$3"
		grep -qF -- "$2" "$3" && steady "$1" "$3" && return 0
		sleep 0.02
		i=$((i + 1))
	done
	return 1
}

# page_of FILE: "k M" of the line "page k of M"
page_of() {
	sed -n '3s/.*page \([0-9]*\) of \([0-9]*\).*/\1 \2/p' "$1"
}

# body FILE ROWS PAGE: the body lines of the screen, each after "PAGE\t":
# from row 5 to the "more below" line, the weight bars or the key bar
body() {
	awk -v rows="$2" -v page="$3" '
		NR < 5 || NR >= rows { next }
		/^ (↓|v) more below/ || /^ attention weights [^ ]+_[0-9]+ \(/ {
			stop = 1
		}
		!stop { print page "\t" $0 }' "$1"
}

# page_through LESSON COLS ROWS: pages the lesson with Space, writing what
# it saw to $TMP/seen; returns 1 if the stepper stopped answering
page_through() {
	name=${pt_name:-p$1x$2}
	start "$name" "$2" "$3" "'$ATTN_TRACE' lesson $1 --color=never"
	: >"$TMP/seen"
	first_screen "$name" "$TMP/cur" || return 1
	presses=0
	while [ $presses -lt 500 ]; do # a cap, should Space never end
		presses=$((presses + 1))
		set -- "$1" "$2" "$3" $(page_of "$TMP/cur")
		if grep -q 'arithmetic folded: t shows it' "$TMP/cur"; then
			cp "$TMP/cur" "$TMP/old"
			keys "$name" t
			next_screen "$name" "$TMP/old" "$TMP/cur" || return 1
		fi
		if grep -q 'Press z or Enter to answer' "$TMP/cur"; then
			# seen before the answer, which may scroll the page
			body "$TMP/cur" "$3" "$4" >>"$TMP/seen"
			cp "$TMP/cur" "$TMP/old"
			keys "$name" z
			keys "$name" -l -- "$(answer_of "$4")"
			keys "$name" Enter
			next_shown "$name" "Right: " "$TMP/cur" || return 1
		fi
		body "$TMP/cur" "$3" "$4" >>"$TMP/seen"
		if [ "$4" = "$5" ] && ! grep -q 'more below' "$TMP/cur"; then
			keys "$name" q
			tm kill-session -t "$name" 2>/dev/null
			return 0 # the bottom of the last page
		fi
		cp "$TMP/cur" "$TMP/old"
		keys "$name" Space
		next_screen "$name" "$TMP/old" "$TMP/cur" || return 1
	done
	return 1
}

# missing PLAIN SEEN: the lines of each page of PLAIN not in SEEN's text of
# that page, "page K: LINE", blanks removed
missing() {
	awk -F '\t' '
		FNR == NR { gsub(/[ \t]/, "", $2); seen[$1] = seen[$1] $2; next }
		/^\[page [0-9]+ of [0-9]+\]$/ { page = $0; sub(/^\[page /, "", page)
			sub(/ of.*/, "", page); next }
		/^\[answers\]$/ { page = "" }
		page == "" { next }
		{ line = $0; gsub(/[ \t]/, "", line) }
		line != "" && index(seen[page], line) == 0 {
			print "page " page ": " $0
		}' "$2" "$1"
}

for size in "80 24" "100 30"; do
	set -- $size
	cols=$1 rows=$2 width=$(($1 - 2))
	for f in "$srcdir"/lessons/[0-9]*.lesson; do
		n=$(basename "$f" | sed 's/-.*//; s/^0*//')
		what="lesson $n at ${cols}x$rows: Space alone shows every line"
		if ! LC_ALL=C.UTF-8 "$ATTN_TRACE" lesson "$n" --plain \
		     --width="$width" >"$TMP/plain"; then
			not_ok "$what: --plain failed"
			continue
		fi
		answered=1
		if ! page_through "$n" "$cols" "$rows"; then
			echo "--- Space stopped turning or scrolling; the screen:"
			cat "$TMP/cur"
			tm kill-session -t "p${n}x$cols" 2>/dev/null
			answered=0
		fi
		missing "$TMP/plain" "$TMP/seen" >"$TMP/missing"
		if [ -s "$TMP/missing" ] || [ $answered = 0 ]; then
			echo "--- $(wc -l <"$TMP/missing") lines never shown, the first:"
			head -n 5 "$TMP/missing"
			not_ok "$what"
		else
			ok "$what"
		fi
	done
done
# Every translation in lessons/zh_CN, found by listing it (so that a new
# one is covered without editing this test), fits the stepper as its
# original does: at 80x24 Space alone shows every line of its --plain.
# It is opened by path, so the frame stays English (LC_ALL=C.UTF-8) and
# the prose is the translation's.
for f in "$srcdir"/lessons/zh_CN/[0-9]*.lesson; do
	[ -e "$f" ] || continue
	f=$(cd "$(dirname "$f")" && pwd)/$(basename "$f")
	n=$(basename "$f" | sed 's/-.*//; s/^0*//')
	what="zh_CN lesson $n at 80x24: Space alone shows every line"
	if ! LC_ALL=C.UTF-8 "$ATTN_TRACE" lesson "$f" --plain --width=78 \
	     >"$TMP/plain"; then
		not_ok "$what: --plain failed"
		continue
	fi
	answered=1
	if ! pt_name="z${n}x80" page_through "$f" 80 24; then
		echo "--- Space stopped turning or scrolling; the screen:"
		cat "$TMP/cur"
		tm kill-session -t "z${n}x80" 2>/dev/null
		answered=0
	fi
	missing "$TMP/plain" "$TMP/seen" >"$TMP/missing"
	if [ -s "$TMP/missing" ] || [ $answered = 0 ]; then
		echo "--- $(wc -l <"$TMP/missing") lines never shown, the first:"
		head -n 5 "$TMP/missing"
		not_ok "$what"
	else
		ok "$what"
	fi
done
# At 80x24 what a page's prose points at is on its first screen, without
# scrolling (issue 25, part 3): a lesson page too long for the weight bars
# gives their rows to its own lines, and the pages that were still too
# long were split.  Each check waits for the line the prose cites.
fold_page() { # NAME LESSON PAGE TEXT WHAT
	start "$1" 80 24 "'$ATTN_TRACE' lesson $2 --color=never"
	wait_for "$1" "page 1 of" >/dev/null
	[ "$3" = 1 ] || keys "$1" g $(echo "$3" | sed 's/./& /g') Enter
	expect "$1" "page $3 of" "$5: page $3 opens"
	expect "$1" "$4" "$5"
	keys "$1" q
}
# 1 / (1 + 2 exp(-0.9765)) = 1 / 1.75328 = 0.5704, worked by hand
fold_page f6 softmax 2 "α_1,1 = 1.0000 / 1.7532 = 0.5704" \
	"lesson 6 p2 at 80x24: the division the prose cites, unscrolled"
fold_page f5 dot 2 "attention weights α_1 (dot)" \
	"lesson 5 p2 at 80x24: a page that fits keeps its weight bars"
fold_page f13 alignment 6 "h_3 = tanh(W_x·x_3 + W_h·h_2 + b)" \
	"the alignment lesson's h_3, which its prose cites, unscrolled"
fold_page f17 local 4 "p_2 = 1.9111" \
	"the local lesson's p_2, which 'Walking backwards' cites, unscrolled"
fold_page f18 hard 2 "u_2     (1)   [ 0.7491]" \
	"the hard lesson's u_2, which 'Drawing the word' cites, unscrolled"
fold_page f18b hard 7 "the Jensen gap gap_2" \
	"the hard lesson's gap_2, which 'The Jensen gap' cites, unscrolled"
finish
