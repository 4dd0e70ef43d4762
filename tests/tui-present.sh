#!/bin/sh
# tui-present.sh: presentation mode in tmux at 80x24, 100x30 and 160x45
# (issue 27): every screen in order, numbered once, showing its numbers
# (tests/present_check.py checks them against the JSON trace); lesson N
# --present; the self-attention stepper's heads at 80 columns.
. "$srcdir/tests/lib.sh"
. "$srcdir/tests/tui-lib.sh"
if [ -z "${PYTHON3:-}" ] || [ "$PYTHON3" = no ]; then
	echo "python3 is needed to check the screens"; exit 77
fi
chk="$srcdir/tests/present_check.py"

# walk NAME COLS ROWS TOTAL ARGS...: captures every screen of tui --present
# ARGS going right (f1 .. fTOTAL) and back left (bTOTAL .. b1) into
# $TMP/NAME/, then checks them
walk() {
	name=$1 cols=$2 rows=$3 total=$4
	shift 4
	mkdir -p "$TMP/$name"
	"$ATTN_TRACE" trace --format=json "$@" >"$TMP/$name.json" || return 1
	start "$name" "$cols" "$rows" "env NO_COLOR=1 '$ATTN_TRACE' tui --present $*"
	n=1
	while [ $n -le "$total" ]; do
		wait_for "$name" "screen $n of $total" || return 1
		sleep 0.1 # the rest of the frame
		screen "$name" >"$TMP/$name/f$n.txt"
		[ $n -lt "$total" ] && keys "$name" Right
		n=$((n + 1))
	done
	n=$total
	while [ $n -ge 1 ]; do
		wait_for "$name" "screen $n of $total" || return 1
		sleep 0.1
		screen "$name" >"$TMP/$name/b$n.txt"
		keys "$name" Left
		n=$((n - 1))
	done
	keys "$name" q
	"$PYTHON3" "$chk" "$TMP/$name.json" "$cols" "$TMP/$name"
}

# 3 encoder screens, then 5 steps of 6 screens and a picture
for size in 80x24 100x30 160x45; do
	c=${size%x*} r=${size#*x}
	if walk "p$c" "$c" "$r" 38 je suis étudiant >"$TMP/out" 2>&1; then
		ok "$size: $(tail -n 1 "$TMP/out")"
	else
		not_ok "$size: $(tail -n 30 "$TMP/out")"
	fi
	wait_exit "p$c" 0 "$size: q ends the presentation"
done
if walk c160 160 45 38 --scorer=concat je suis étudiant >"$TMP/out" 2>&1; then
	ok "160x45, the concat scorer: every screen whole"
else
	not_ok "160x45, the concat scorer: $(tail -n 30 "$TMP/out")"
fi

# at 80x24 the block letters give way; at 160x45 they stand
check "80x24: the block letters give way to the text" \
	sh -c "! grep -q '███' '$TMP/p80/f4.txt'"
check "160x45: the block letters stand above the text" \
	grep -q '███' "$TMP/p160/f4.txt"

# at 80x24 the output screen, too long for the rows, scrolls: its word
# and top outputs show first, then Down reaches its last line (the
# probabilities by word, ending with the last target word) and says
# there is more above; Up comes back to the top
start O 80 24 "env NO_COLOR=1 '$ATTN_TRACE' tui --present je suis étudiant"
expect O "screen 1 of 38" "80x24 output screen: the presentation opens"
keys O Right Right Right Right Right Right Right Right
expect O "screen 9 of 38" "80x24: screen 9 is step 1's output"
expect O "output word: i" "80x24 output screen: its word shows without scrolling"
expect O "more below" "80x24 output screen: it says there is more below"
last=$("$ATTN_TRACE" vocab | sed -n '/^target words/,$p' | tail -n 1 | tr -d ' ')
i=0
while [ $i -lt 20 ]; do keys O Down; i=$((i + 1)); done
expect O "$last 0.0000" "80x24 output screen: Down reaches its last line (ŷ_1 of '$last')"
expect O "more above" "80x24 output screen: at its end it says there is more above"
expect_not O "more below" "80x24 output screen: and nothing more below"
i=0
while [ $i -lt 20 ]; do keys O Up; i=$((i + 1)); done
expect O "output word: i" "80x24 output screen: Up returns to its top"
keys O q
wait_exit O 0 "80x24 output screen: q quits"

# a lesson in presentation mode (the alignment lesson, its pages counted
# from --plain)
np=$("$ATTN_TRACE" lesson alignment --plain --no-answers | grep -c '^\[page ')
start L 80 24 "env NO_COLOR=1 '$ATTN_TRACE' lesson alignment --present"
expect L "page 1 of $np" "the alignment lesson --present opens"
expect L "1 / $np" "lesson --present: the counter"
expect L "b blank" "lesson --present: presentation mode's keys"
keys L n
expect L "2 / $np" "lesson --present: n turns the page"
keys L q
wait_exit L 0 "lesson --present: q quits"
run_cmd lesson alignment --present --plain
expect_status 2 "lesson --present --plain"

# the self-attention stepper at 80 columns: head 2's table is not cut off
start S 80 40 "env NO_COLOR=1 '$ATTN_TRACE' self zone économique européenne"
expect S "stage 1 of 6" "self: the stepper opens"
keys S Right Right Right
expect S "head 2: A (heatmap)" "self, 80 columns: head 2's weights are shown"
screen S >"$TMP/self.txt"
# each row of head 2's A, as the text trace has it, is on screen
"$PYTHON3" - "$TMP/self.txt" <<'PY' >"$TMP/rows"
import re, sys
scr = open(sys.argv[1], encoding="utf-8").read()
block = scr.split("head 2: A (heatmap)")[1].split("columns:")[0]
rows = [l for l in block.splitlines() if re.match(r"^ \d ", l)]
print(len(rows), *(len(re.findall(r"\d\.\d{4}", l)) for l in rows))
PY
check "self, 80 columns: head 2's three rows of three weights" \
	grep -qx '3 3 3 3' "$TMP/rows"
keys S q
wait_exit S 0 "self: q quits"
finish
