#!/bin/sh
# diagram-tui.sh: the stepper's picture of a step (key d), driven in tmux
# at 80x24, at 200x50, in ASCII and in presentation mode.
. "$srcdir/tests/lib.sh"
. "$srcdir/tests/tui-lib.sh"

# the alignment of "je" at step 1, as the JSON trace has it, to 4 places
a11=$("$ATTN_TRACE" trace --format=json je suis étudiant |
	sed -n 's/.*"weights": *\[\([-0-9.e]*\),.*/\1/p' | head -n 1)
a11=$(printf '%.4f' "$a11")

start a 80 24 "'$ATTN_TRACE' tui je suis étudiant"
expect a "stage 1 of 7: encoding" "80x24: the stepper opens"
keys a d
expect a "the picture of step t=1 of 5" "80x24: d opens step 1's picture"
expect a "┌──────────┬─────────────┐" "80x24: the boxes of the encoder"
expect a "│ étudiant │" "80x24: a box a source word"
expect a "┼── s_1" "80x24: the lines gather at the query s_1"
expect a "$a11 ◄ largest" "80x24: α_1,1 of the JSON trace, marked the largest"
expect a "h̃_1 = tanh(W_c·[c_1; s_1]) ──► output \"i\"" "80x24: the result"
expect a "d arithmetic" "80x24: the key bar says d goes back"
check "80x24: no line of the picture runs past the screen" \
	sh -c "tmux -L '$sock' -f /dev/null capture-pane -p -t a |
	       grep '│ je ' | grep -q '┐\$'"
keys a Right
expect a "the picture of step t=2 of 5" "80x24: right: the next step's"
expect a "┼── s_2" "80x24: with its query"
keys a d
expect a "stage 2 of 7: decoder   step t=2" "80x24: d again: the arithmetic of that step"
keys a q
wait_exit a 0 "80x24: q quits"

start b 200 50 "'$ATTN_TRACE' tui --arch=bahdanau je suis étudiant"
expect b "stage 1 of" "200x50: the stepper opens"
keys b d
expect b "the picture of step t=1 of" "200x50: d opens the picture"
expect b "the query s_0 (the state before the step)" "200x50: Bahdanau's query is s_0"
expect b "c_1 feeds the RNN: s_1 = f(s_0, y_0, c_1)" "200x50: c_1 feeds the RNN"
# the wide layout prints each h_i's numbers in its box
h1=$("$ATTN_TRACE" trace --format=json --arch=bahdanau je suis étudiant |
	tr -d ' \n' | sed -n 's/.*"annotation":\[\([-0-9.e]*\),.*/\1/p' | head -n 1)
if [ -n "$h1" ]; then
	h1=$(printf '%+.4f' "$h1")
	expect b "$h1" "200x50: the numbers of h_1, as in the JSON trace"
else
	not_ok "200x50: the JSON trace has an annotation"
fi
keys b q
wait_exit b 0 "200x50: q quits"

# the C locale is taken as UTF-8 for the screen (as tui.sh tells): box
# drawing; a locale that is not UTF-8 gets ASCII, its words '?' a
# character (the locale is compiled here; without localedef, skipped)
start c 80 24 "env -u LANG -u LC_ALL -u LC_CTYPE '$ATTN_TRACE' tui --color=never je suis"
expect c "stage 1 of 7: encoding" "C locale: the stepper opens"
keys c d
expect c "the picture of step t=1" "C locale: d opens the picture"
expect c "┬── s_1" "C locale: box drawing; two lines meet at the query"
keys c q
wait_exit c 0 "C locale: q quits"
if command -v localedef >/dev/null 2>&1 &&
   localedef -i en_US -f ISO-8859-1 "$TMP/en_US.ISO-8859-1" >/dev/null 2>&1; then
	start n 80 24 "LOCPATH='$TMP' LC_ALL=en_US.ISO-8859-1 '$ATTN_TRACE' tui je suis étudiant --color=never"
	expect n "je suis ?tudiant -> (greedy)" "Latin-1 locale: the stepper opens"
	keys n d
	expect n "+----------+-------------+" "Latin-1 locale: ASCII boxes"
	expect n "| ?tudiant |" "Latin-1 locale: the words, '?' a character"
	expect n "+-- s_1" "Latin-1 locale: the lines gather at s_1"
	expect n "<- largest" "Latin-1 locale: the largest marked in ASCII"
	keys n q
	wait_exit n 0 "Latin-1 locale: q quits"
else
	echo "# skip: no Latin-1 locale (localedef -i en_US -f ISO-8859-1)"
fi

start p 80 24 "env NO_COLOR=1 '$ATTN_TRACE' tui --present je suis étudiant"
expect p "1 / 38" "presentation: it opens"
keys p Right Right Right Right Right Right Right Right Right
expect p "the picture of step t=1 of 5" "presentation: a step ends with its picture"
expect p "10 / 38" "presentation: the picture has its own number"
expect p "┼── s_1" "presentation: the picture fits 80x24"
keys p Right
expect p "stage 2 of 7: decoder   step t=2" "presentation: then the next step"
keys p Left
expect p "the picture of step t=1 of 5" "presentation: left goes back to it"
keys p Left
expect p "stage 7 of 7: output   step t=1" "presentation: before it, the step's output"
keys p q
wait_exit p 0 "presentation: q quits"

# a lesson page with "show diagram t=1" (lessons/07-context.lesson)
start L 80 24 "'$ATTN_TRACE' lesson 07"
expect L "page 1 of" "lesson 07 opens"
keys L g 5
expect L "The picture of a step" "lesson 07: the picture's page"
expect L "┼── s_1" "lesson 07: show diagram draws the picture in the stepper"
keys L q
wait_exit L 0 "lesson 07: q quits"

finish
