#!/bin/sh
# lesson-refs-tui.sh: in the real stepper (tmux), the numbers of a lesson's
# prose are the trace's: a reference that names no scorer follows the
# scorer key s, and a page with "pin" keeps its own scorer and says why
# (doc/lessons.md, "References" and "Pinning a page").  Then, on every
# page of every lesson, s, a and h never leave prose that contradicts the
# numbers under it (issue 25's acceptance; see the end).
. "$srcdir/tests/lib.sh"
. "$srcdir/tests/tui-lib.sh"

# page_titled LESSON TITLE: the number of the page of that title
page_titled() {
	LC_ALL=C.UTF-8 "$ATTN_TRACE" lesson "$1" --plain | awk -v t="$2" '
		/^\[page [0-9]+ of/ { p = $2; next } $0 == t { print p; exit }'
}

# the dot lesson's page 2 works through the dot product: pinned, s leaves
# it so
start pin 100 30 "'$ATTN_TRACE' lesson dot"
expect pin "page 1 of" "the dot lesson opens"
keys pin g "$(page_titled dot "The word that matches")"
expect pin "The word that matches" "g goes to the page of the dot product"
expect pin "so the score is 0.9898 × 0.9866 = 0.9765" "the prose fills the dot score"
keys pin s
expect pin "[general scorer]" "s switches to the general scorer"
expect pin "(This page stays with the dot scorer:" "the pinned page says why it stays"
expect pin "= 0.9765" "and still shows the dot score below its prose"
expect_not pin "2.4413" "the general score is not on the pinned page"
# the quiz page ("Your turn") is pinned too: after s, the answer it takes
# is the dot product's, e_4,1 = s_4·h_1, worked out here from the trace
e41=$("$ATTN_TRACE" trace --model=handset4 --scorer=dot --stage=scoring \
	je suis étudiant | awk '/^e_4,1 / { print $NF; exit }')
quiz=$(page_titled dot "Your turn")
keys pin g "$quiz"
expect pin "What is the score e_4,1 = s_4·h_1?" "the pinned quiz asks the dot score"
tm send-keys -t pin -l -- "$e41"
keys pin Enter
expect pin "right: e_4,1 = $e41" "the dot product's value is taken as right after s"
keys pin Escape
keys pin q
keys pin q   # (one q may only leave the answered quiz)
wait_exit pin 0 "q leaves the dot lesson"

# lesson 3 at 80x24, as a learner first meets it: every page whole on
# the screen (nothing "more below"), the baseline's words and the chart
# drawn from the program, and the numbers of "Reading the chart" those
# of --plain
start why 80 24 "'$ATTN_TRACE' lesson 3"
expect why "page 1 of" "lesson 3 opens at 80x24"
np=$(LC_ALL=C.UTF-8 "$ATTN_TRACE" lesson 3 --plain | grep -c '^\[page ')
LC_ALL=C.UTF-8 "$ATTN_TRACE" lesson 3 --plain | tr '\n' ' ' | tr -s ' ' >"$TMP/l3plain"
whole=0
p=1
while [ "$p" -le "$np" ]; do
	keys why g "$p"
	wait_for why "page $p of $np" >/dev/null
	screen why | grep -q 'more below' || whole=$((whole + 1))
	p=$((p + 1))
done
check "lesson 3: each of its $np pages fits 80x24 whole ($whole)" test "$whole" -eq "$np"
keys why g "$(page_titled 3 "One long sentence, two models")"
expect why "the red hen✗ sings✗" "lesson 3 shows the baseline's words, marked"
keys why g "$(page_titled 3 "Longer sentences, the same story")"
expect why "  B  longfixed8 general fixed" "lesson 3's chart names the baseline's line"
keys why g "$(page_titled 3 "Reading the chart")"
wait_for why "Reading the chart" >/dev/null
got=$(screen why | tr '\n' ' ' | tr -s ' ' | grep -oE 'the baseline gets [0-9.]+ of the words')
check "lesson 3's stepper quotes what --plain does ($got)" \
	sh -c "test -n '$got' && grep -qF '$got' '$TMP/l3plain'"
keys why q
wait_exit why 0 "q leaves lesson 3"

# the learning lesson, "After 3000 epochs": "european looks at
# européenne ({α_1,3})" names no scorer, so after s the prose quotes the
# run the heatmap shows; the value is recomputed here with attn-trace
# trace, not read off the page
start follow 100 40 "'$ATTN_TRACE' lesson learning"
expect follow "page 1 of" "the learning lesson opens"
p3000=$(page_titled learning "After 3000 epochs")
keys follow g "$p3000"
expect follow "After 3000 epochs" "g $p3000 goes to its page"
keys follow s
wait_for follow "scorer]" >/dev/null
sc=$(screen follow | grep -oE '\[[a-z-]+ scorer\]' | head -1 | tr -d '[]' | awk '{ print $1 }')
want=$("$ATTN_TRACE" trace --scorer="$sc" --stage=softmax \
	--target="european economic area" zone économique européenne |
	awk '/^α_1 / { gsub(/[],]/, ""); print $NF; exit }')
check "s chose another scorer ($sc)" test -n "$sc" -a "$sc" != general
expect follow "($want), economic at" \
	"the prose quotes the $sc scorer's α_1,3 ($want)"
keys follow q
wait_exit follow 0 "q leaves the learning lesson"

# --- every page of every lesson: s, a and h ---------------------------
# Each lesson that `attn-trace lessons` lists is opened in a terminal tall
# enough for any page (so nothing scrolls or folds), and on each page in
# turn s, a and x are sent at once (x, the glossary, marks that the keys
# before it were handled), then h (help), then h and x again (back).  The
# scorer that s chose is read off the page line ("[general scorer]"), and
# the page is compared, line by line without blanks, with the page that
# `lesson --plain` renders for a copy of the lesson whose `scorer:` is
# that scorer: prose and directives both of that run.  A page with "pin"
# in the lesson file is compared with the lesson's own --plain instead,
# and must say why it stays.  s carries on from page to page, so a
# lesson's pages see its scorers in turn.  a (the architecture) has no
# other trace in a lesson and must change nothing.
W=100 # the stepper's text width on a wide terminal (VIEW_TEXT_COLS)
cp -R "$srcdir/lessons/models" "$TMP/" # the learning lesson's snapshots
cp -R "$srcdir/lessons/data" "$TMP/" # the files of pairs: and image:
# page_text FILE K: page K of a --plain file, up to a prediction's line
# of what to type (the numbers after it wait for the answer)
page_text() {
	awk -v k="$2" '
		/^\[page [0-9]+ of [0-9]+\]$/ { p = $2 + 0; next }
		/^\[answers\]$/ { p = 0 }
		p == k && /^Predict: type / { stop = 1 }
		p == k && !stop' "$1"
}
# missing_lines EXPECTED SCREEN: the lines of EXPECTED not in the screen's
# text (both without blanks)
missing_lines() {
	awk 'FNR == NR { gsub(/[ \t]/, ""); seen = seen $0; next }
		{ line = $0; gsub(/[ \t]/, "", line) }
		line != "" && index(seen, line) == 0' "$2" "$1"
}
# pinned FILE K: page K of the lesson file has a "pin" line
pinned() {
	awk -v k="$2" '/^page:/ { p++ } p == k && /^pin[ \t]/ { f = 1 }
		END { exit !f }' "$1"
}
# settle NAME PAGE FILE GLOSSARY: waits (60 s at most, a hang guard)
# until page PAGE shows with (1) or without (0) the glossary, then holds
# still; leaves it in FILE
settle() {
	i=0
	while [ $i -lt 3000 ]; do
		screen "$1" >"$3"
		if sed -n 3p "$3" | grep -q "page $2 of " &&
		   { grep -q "ymbols on this screen" "$3"; [ $? = $((1 - $4)) ]; }; then
			sleep 0.02
			screen "$1" >"$3.again"
			cmp -s "$3" "$3.again" && return 0
		fi
		sleep 0.02
		i=$((i + 1))
	done
	return 1
}
# help_shown NAME: waits (60 s at most) for the help screen
help_shown() {
	i=0
	while [ $i -lt 3000 ]; do
		screen "$1" | sed -n 3p | grep -q '^ *help *$' && return 0
		sleep 0.02
		i=$((i + 1))
	done
	return 1
}
switched=0 stayed=0 pages=0
# (ATTN_TEST_LESSONS="5 13" limits the loop, by hand, to those lessons)
for n in ${ATTN_TEST_LESSONS:-$("$ATTN_TRACE" lessons | awk '{ print $1 + 0 }')}; do
	f=$(ls "$srcdir"/lessons/$(printf %02d "$n")-*.lesson)
	LC_ALL=C.UTF-8 "$ATTN_TRACE" lesson "$n" --plain --width=$W >"$TMP/own"
	own=$(sed -n 's/^Scorer: //p' "$TMP/own")
	total=$(sed -n 's/^\[page [0-9]* of \([0-9]*\)\]$/\1/p' "$TMP/own" | head -1)
	s="k$n"
	start "$s" 200 300 "'$ATTN_TRACE' lesson $n --color=never"
	wait_for "$s" "page 1 of" >/dev/null
	bad=""
	p=1
	while [ "$p" -le "$total" ]; do
		pages=$((pages + 1))
		if [ "$total" -ge 10 ]; then
			keys "$s" g $(echo "$p" | sed 's/./& /g') Enter s a x
		else
			keys "$s" g "$p" s a x
		fi
		settle "$s" "$p" "$TMP/scr" 1 || { bad="$bad p$p:hang"; break; }
		# a page the lesson marks dense ('fold') opens folded on any
		# screen: t unfolds it, as --plain shows everything
		if grep -q 'arithmetic folded: t shows it' "$TMP/scr"; then
			keys "$s" t x
			settle "$s" "$p" "$TMP/scr" 0 || { bad="$bad p$p:t"; break; }
			keys "$s" x
			settle "$s" "$p" "$TMP/scr" 1 || { bad="$bad p$p:t"; break; }
		fi
		sc=$(sed -n '3s/.*\[\([a-z-]*\) scorer\].*/\1/p' "$TMP/scr")
		for round in sa h; do
			if [ "$round" = h ]; then
				keys "$s" h
				help_shown "$s" || { bad="$bad p$p:help"; break; }
				keys "$s" h x
				settle "$s" "$p" "$TMP/scr" 0 ||
					{ bad="$bad p$p:back"; break; }
				sc2=$(sed -n '3s/.*\[\([a-z-]*\) scorer\].*/\1/p' "$TMP/scr")
				[ "$sc2" = "$sc" ] || bad="$bad p$p:h-changed-scorer"
			fi
			want="$TMP/own"
			if [ -n "$sc" ] && [ "$sc" != "$own" ]; then
				if pinned "$f" "$p"; then
					grep -qF "(This page stays with the $own scorer:" \
						"$TMP/scr" || bad="$bad p$p:no-reason"
					[ $round = sa ] && stayed=$((stayed + 1))
				else
					grep -qF "(This page stays with" "$TMP/scr" &&
						bad="$bad p$p:stayed"
					want="$TMP/plain-$n-$sc"
					if [ ! -s "$want" ]; then
						awk -v sc="$sc" '/^scorer:/ && !p { next }
							/^page:/ && !p { print "scorer: " sc; p = 1 }
							{ print }' "$f" >"$TMP/$(basename "$f")"
						LC_ALL=C.UTF-8 "$ATTN_TRACE" lesson \
							"$TMP/$(basename "$f")" --plain \
							--width=$W >"$want" 2>"$TMP/err" ||
							bad="$bad p$p:copy($(head -c 80 "$TMP/err"))"
					fi
					[ $round = sa ] && switched=$((switched + 1))
				fi
			fi
			page_text "$want" "$p" >"$TMP/want"
			missing_lines "$TMP/want" "$TMP/scr" >"$TMP/missing"
			if [ -s "$TMP/missing" ]; then
				bad="$bad p$p($round,$sc):$(head -n 1 "$TMP/missing")"
			fi
		done
		p=$((p + 1)) # the glossary is off again: h x turned it off
	done
	keys "$s" q
	tm kill-session -t "$s" 2>/dev/null
	if [ -z "$bad" ]; then
		ok "lesson $n: s, a and h leave every page's prose and numbers of one run ($total pages)"
	else
		not_ok "lesson $n: s, a and h:$bad"
	fi
done
[ -n "${ATTN_TEST_LESSONS:-}" ] ||
check "s switched the scorer under unpinned pages ($switched) and pinned pages said why they stay ($stayed)" \
	test "$switched" -gt 20 -a "$stayed" -gt 5
finish
