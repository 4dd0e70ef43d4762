#!/bin/sh
# tui.sh: the real stepper, driven in tmux: keys in, screen text out.
. "$srcdir/tests/lib.sh"
. "$srcdir/tests/tui-lib.sh"

# --- a session at 80x24 ---
start a 80 24 "'$ATTN_TRACE' tui"
expect a "stage 1 of 7: encoding" "it opens on the encoder"
expect a "x_1 = emb(je)" "the first screen shows x_1"
expect a "je suis étudiant" "UTF-8 words display"
keys a Right
expect a "word 2 of 3" "right arrow steps forward"
keys a Left
expect a "word 1 of 3" "left arrow steps back"
keys a g 2
expect a "stage 2 of 7: decoder" "g 2: the decoder's update, a stage of its own"
expect a "s_1 = tanh(W_x·y_0 + W_h·s_0 + b)" "the decoder stage shows s_1"
check "80x24: the strip names the seven stages, decoder before scoring" \
	sh -c "tmux -L '$sock' -f /dev/null capture-pane -p -t a | sed -n 2p |
	       grep -q '^ encoding ›  2 decoder  › scoring › softmax › weighted sum › concat › output *\$'"
keys a Space
expect a "stage 3 of 7: scoring" "space: the scores, the next stage"
expect a "Now s_1 is compared with every encoder state" "g 2 then space: the scores"
expect a "e_1,2 = s_1·h_2 = " "the scores show their arithmetic"
expect a "×" "the arithmetic is term by term"
keys a t
expect_not a "×" "t hides the term-by-term arithmetic"
keys a t
expect a "×" "t shows it again"
keys a g 4
expect a "stage 4 of 7: softmax" "g 4 jumps to the softmax"
expect a "attention weights α_1 (dot)" "the weights are drawn as bars"
keys a s
expect a "[general scorer]" "s switches to the general scorer"
expect a "stage 4 of 7: softmax" "the scorer switch keeps the stage"
expect a "attention weights α_1 (general)" "the bars follow the scorer"
keys a c
expect a "the scorers side by side at step t=1" "c opens the comparison"
expect a "concat" "the comparison has every scorer"
keys a Escape
expect a "stage 4 of 7: softmax" "Esc goes back"
keys a m
expect a "the alignment heatmap of the general scorer" "m opens the heatmap"
expect a "étudiant" "the heatmap names the source words"
expect a "student" "the heatmap names the output words"
keys a m
keys a '?'
expect a "compare the scorers at this step" "? opens the help"
keys a x
expect a "stage 4 of 7: softmax" "any key leaves the help"
keys a z
expect a "quiz: work it out by hand, step t=1" "z opens a quiz on this step"
expect a "answer> _" "the quiz waits for an answer"
keys a 1 , 5 Enter
expect a "Write the decimal point as '.'" "a comma gets a hint"
keys a 9 9 Enter
expect a "not quite:" "a wrong answer is told so"
expect a "The worked arithmetic:" "and shown the worked arithmetic"
keys a x
expect a "stage 4 of 7: softmax" "any key leaves the answered quiz"
keys a End
expect a "stage 7 of 7: output" "End goes to the last screen"
keys a Home
expect a "stage 1 of 7: encoding" "Home goes to the first screen"
keys a q
wait_exit a 0 "q quits"
check "the terminal modes are restored after q" same_modes a

# --- 80x24: short vectors on one line; 200 columns: readable lengths ---
start w 80 24 "'$ATTN_TRACE' tui je suis étudiant"
expect w "x_1 = emb(je)" "a stepper at 80x24"
check "80x24: a vector of 4 numbers stays on its label's line" \
	sh -c "tmux -L '$sock' -f /dev/null capture-pane -p -t w |
	       grep -q '^ x_1 = emb(je) .*\\]\$'"
check "80x24: the key bar keeps q quit" \
	sh -c "tmux -L '$sock' -f /dev/null capture-pane -p -t w | sed -n 24p |
	       grep -q '? help  q quit'"
keys w g
expect w "g: type a stage number, 1 to 7" "after g the key bar says what g waits for"
keys w 4
expect w "stage 4 of 7: softmax" "and the digit is taken"
keys w c
expect w "side by side at step t=1" "the comparison at step 1"
keys w Right
expect w "side by side at step t=2" "right moves the comparison a step on"
keys w Left
expect w "side by side at step t=1" "left moves it back"
keys w Escape
expect w "stage 4 of 7: softmax   step t=1" "Esc goes back to the same stage and step"
keys w q
wait_exit w 0 "q quits the 80x24 stepper"
start W 200 40 "'$ATTN_TRACE' tui je suis étudiant"
expect W "stage 1 of 7: encoding" "a stepper at 200x40"
keys W g 4
expect W "attention weights α_1 (dot)" "200x40: the softmax and its bars"
check "200x40: no line of the narrative or the bars is over 100 columns" \
	sh -c "tmux -L '$sock' -f /dev/null capture-pane -p -t W | sed '1,3d;\$d' |
	       LC_ALL=C.UTF-8 sed 's/ *\$//; s/[^ -~]/x/g' |
	       awk '{ if (length(\$0) > 100) exit 1 }'"
keys W q
wait_exit W 0 "q quits the 200x40 stepper"

# --- the heatmap at 80 and 100 columns: it scrolls, and never spills ---
start H 80 24 "'$ATTN_TRACE' tui je suis étudiant je suis étudiant"
keys H m
expect H "the alignment heatmap of the dot scorer" "80x24: the heatmap of 6 words"
check "80x24: all 6 source columns are shown" \
	sh -c "tmux -L '$sock' -f /dev/null capture-pane -p -t H |
	       grep -Eq '^ +je +suis +étudiant +je +suis +étudiant\$'"
keys H q
wait_exit H 0 "q quits the heatmap"
long=$(i=0; while [ $i -lt 20 ]; do printf 'je suis étudiant '; i=$((i + 1)); done)
start L 100 30 "'$ATTN_TRACE' tui $long"
keys L m
expect L "source words 1-7 of 60 (left, right)" "100x30: 60 columns: the heatmap says which it shows"
check "100x30: each row of the heatmap is a word and its weights, none spilt" \
	sh -c "tmux -L '$sock' -f /dev/null capture-pane -p -t L | sed -n '8,12p' |
	       grep -Evq '^ [a-z</>]+ +([0-9]\\.[0-9]{4} +){6}[0-9]\\.[0-9]{4}\$' && exit 1; exit 0"
keys L Right
expect L "source words 2-8 of 60" "right scrolls the heatmap a column"
keys L End
keys L Left
expect L "source words 53-59 of 60" "End goes to the last column, left back one"
keys L q
wait_exit L 0 "q quits the long heatmap"

# --- too small a terminal ---
start b 40 10 "'$ATTN_TRACE' tui"
expect b "Please enlarge the terminal" "40x10 asks for a larger terminal"
tm resize-window -t b -x 80 -y 24 2>/dev/null
expect b "stage 1 of 7: encoding" "it redraws when resized"
keys b q
wait_exit b 0 "q quits a small terminal"

# --- Ctrl-C and SIGTERM restore the terminal ---
start c 80 24 "'$ATTN_TRACE' tui zone économique européenne"
expect c "zone économique européenne" "a sentence on the command line"
keys c C-c
wait_exit c 130 "Ctrl-C ends the stepper"
check "the terminal modes are restored after Ctrl-C" same_modes c
start d 80 24 "'$ATTN_TRACE' tui"
expect d "stage 1 of 7" "a stepper to terminate"
kill -TERM "$(pid_of d)" 2>/dev/null || tm send-keys -t d C-c
wait_exit d 143 "SIGTERM ends the stepper"
check "the terminal modes are restored after SIGTERM" same_modes d

# --- bytes that are not UTF-8, and a full box, in the quiz's answer ---
# The box holds whole, valid characters only: a Latin-1 é (the byte 0xE9)
# is refused, and a two-byte é that no longer fits is left out whole.  The
# box has room for 63 bytes: "1" and 31 é (2 bytes each).
start q 80 24 "'$ATTN_TRACE' tui je suis étudiant --color=never"
expect q "stage 1 of 7: encoding" "a stepper for hostile answers"
keys q g 4 z
expect q "answer> _" "a quiz waits for its answer"
tm send-keys -t q -H e9
keys q 1
expect q "answer> 1_" "a Latin-1 byte (0xE9) is refused, the digit taken"
tm send-keys -t q -H e9 e9 c3
keys q BSpace
expect q "answer> 1_" "Backspace drops a character cut short, not the digit"
e31=$(printf '%31s' '' | sed 's/ /é/g')
keys q -l "$e31$e31"
expect q "answer> 1${e31}_" "a full box keeps whole characters only"
keys q Escape
expect q "stage 4 of 7: softmax" "Esc leaves the quiz"
keys q q
wait_exit q 0 "q quits after the hostile answers"
check "the terminal modes are restored after them" same_modes q

# --- the C locale (LANG unset): taken as UTF-8 for the screen ---
# A terminal is UTF-8 nearly always; the C locale only says that nobody
# chose.  The words and symbols must be drawn whole, and every line within
# the 80 columns: a line drawn wider than the stepper counted would wrap
# onto the next row, pushing the strip off row 2 and the key bar off row 24.
start l 80 24 "env -u LANG -u LC_ALL -u LC_CTYPE '$ATTN_TRACE' tui je suis étudiant --color=never"
expect l "je suis étudiant -> (greedy)" "C locale: the UTF-8 words are whole"
keys l g 4
expect l "attention weights α_1 (dot)" "C locale: α is drawn"
expect l "  étudiant  █" "C locale: the bars, their labels in UTF-8"
check "C locale: the stage strip stays on row 2" \
	sh -c "tmux -L '$sock' -f /dev/null capture-pane -p -t l | sed -n 2p |
	       grep -q '^ encoding › decoder › scoring ›  4 softmax  › weighted sum › concat › output *\$'"
check "C locale: the key bar stays on row 24" \
	sh -c "tmux -L '$sock' -f /dev/null capture-pane -p -t l | sed -n 24p |
	       grep -q 'w why?  .*  ? help  q quit'"
keys l q
wait_exit l 0 "q quits in the C locale"

# --- a locale that is not UTF-8: ASCII that fits ---
# In a Latin-1 locale, which the user chose, the stepper draws every
# character outside ASCII as '?', one a column, so the layout holds.  The
# locale is compiled here (localedef); without it, this part is skipped.
if command -v localedef >/dev/null 2>&1 &&
   localedef -i en_US -f ISO-8859-1 "$TMP/en_US.ISO-8859-1" >/dev/null 2>&1; then
	start n 80 24 "LOCPATH='$TMP' LC_ALL=en_US.ISO-8859-1 '$ATTN_TRACE' tui je suis étudiant --color=never"
	expect n "je suis ?tudiant -> (greedy)" "Latin-1 locale: é is drawn as '?'"
	keys n g 4
	expect n "attention weights ?_1 (dot)" "Latin-1 locale: α is drawn as '?'"
	expect n "  ?tudiant  ####" "Latin-1 locale: ASCII bars"
	expect n " encoding > decoder > scoring >  4 softmax  > weighted sum > concat > output" "Latin-1 locale: an ASCII strip"
	check "Latin-1 locale: the key bar stays on row 24" \
		sh -c "tmux -L '$sock' -f /dev/null capture-pane -p -t n |
		       sed -n 24p | grep -q 'w why?  .*  ? help  q quit'"
	keys n q
	wait_exit n 0 "q quits in a Latin-1 locale"
else
	echo "# skip: no Latin-1 locale (localedef -i en_US -f ISO-8859-1)"
fi

# --- colours: NO_COLOR and --color ---
start e 80 24 "NO_COLOR=1 '$ATTN_TRACE' tui"
expect e "stage 1 of 7" "NO_COLOR starts"
if tm capture-pane -e -p -t e | grep -q '\[3[0-7];4[0-7]m\|\[4[0-7]m\|;4[0-7]m'; then
	not_ok "NO_COLOR: no colours on the screen"
else
	ok "NO_COLOR: no colours on the screen"
fi
keys e q
start f 80 24 "NO_COLOR=1 '$ATTN_TRACE' tui --color=always"
expect f "stage 1 of 7" "--color=always starts"
check "--color=always colours even with NO_COLOR" \
	sh -c "tmux -L '$sock' -f /dev/null capture-pane -e -p -t f | grep -q '4[0-7]m'"
keys f q
wait_exit f 0 "q after --color=always"

# --- presentation mode ---
start g 80 24 "'$ATTN_TRACE' tui --present --autoplay=0.5"
expect g " / 38" "--present shows a step counter"
# the counter reaches 3 (a loaded machine may show it late, never less)
i=0
while [ $i -lt 600 ]; do
	n=$(screen g | sed -n 's/.*autoplay  \([0-9]*\) \/ 38.*/\1/p' | head -n 1)
	[ -n "$n" ] && [ "$n" -ge 3 ] && break
	sleep 0.1
	i=$((i + 1))
done
if [ -n "$n" ] && [ "$n" -ge 3 ]; then ok "--autoplay advances on its own"
else not_ok "--autoplay advances on its own (at '$n')"; fi
keys g Space
expect g "paused" "space pauses the autoplay"
# the step it paused at: 3, or 4 if the timer won the race with the key
at=$(screen g | sed -n 's/.*paused  \([0-9]*\) \/ 38.*/\1/p' | head -n 1)
sleep 1
expect g "paused  $at / 38" "a paused show stays put"
# every screen has its own number, the steps' pictures too
want=$((at + 1))
keys g Right
expect g "$want / 38" "the arrows still step when paused"
keys g b
sleep 0.3
if [ "$(screen g | grep -c .)" -eq 0 ]; then ok "b blanks the screen"; else not_ok "b blanks the screen"; fi
keys g x
expect g "$want / 38" "any key brings the screen back"
keys g q
wait_exit g 0 "q ends the presentation"
# at 80x24 a screen too long for the projector scrolls, and says so
start P 80 24 "'$ATTN_TRACE' tui --present je suis étudiant"
expect P "1 / 38" "a presentation at 80x24"
keys P Right Right Right
expect P "4 / 38" "80x24: the decoder's first step"
expect P "stage 2 of 7: decoder" "80x24: the decoder's first screen"
expect_not P "more below" "80x24: the decoder's screen fits whole"
keys P Right Right Right Right Right
expect P "9 / 38" "80x24: the output screen"
expect P "output word: i" "80x24: it leads with the output word"
expect P "more below: down or PgDn" "80x24: hidden lines are marked below"
expect P "up/down scroll" "80x24: the key bar says how to scroll"
expect_not P "bank 0.0000" "80x24: the last line is hidden at first"
keys P Down Down Down Down Down Down Down Down Down Down Down Down Down Down
expect P "bank 0.0000" "80x24: down scrolls to the last line"
expect P "more above: up or PgUp" "80x24: scrolled-off lines are marked above"
check "80x24: the narrative does not end a line with '='" \
	sh -c "! tmux -L '$sock' -f /dev/null capture-pane -p -t P | grep -q ' =\$'"
keys P '?'
expect P "blank the screen" "the help lists presentation mode's b"
keys P x
keys P q
wait_exit P 0 "q ends the 80x24 presentation"
start p 80 24 "'$ATTN_TRACE' tui --present --autoplay=30"
expect p "space pause" "autoplay: the key bar offers to pause"
keys p Space
expect p "space resume" "paused: the key bar offers to resume"
keys p q
wait_exit p 0 "q ends the paused presentation"
start h 200 60 "'$ATTN_TRACE' tui --present"
expect h "1 / 38" "a presentation at 200x60 starts"
keys h Right Right Right Right Right
expect h "6 / 38" "a presentation at 200x60"
expect h "The softmax turns the scores into weights" "the narrative is shown"
# the first exp line of the softmax, as the text trace prints it, whole
line=$("$ATTN_TRACE" trace --stage=softmax | grep -m 1 '^exp(e_1,1 - max) = ')
[ -n "$line" ] || line="exp(e_1,1 - max), which the text trace lacks"
expect h "$line" "the arithmetic fits at 200x60"
expect h "attention weights α_1 (dot)" "and the bars"
keys h q
wait_exit h 0 "q ends the large presentation"

# --- without a terminal ---
"$ATTN_TRACE" tui </dev/null >"$TMP/out" 2>"$TMP/err"
status=$?
expect_status 1 "tui without a terminal"
expect_err "needs a terminal" "tui without a terminal says why"

# --- a bare attn-trace where TERM cannot show the stepper ---
# It prints the text trace with a one-line note (stderr, kept in a file
# here) that says why and points to the lessons, instead of failing or
# drawing an empty screen.
n=0
for t in "env -u TERM" "env TERM=dumb" "env TERM=no-such-terminal"; do
	n=$((n + 1))
	start "bare$n" 80 24 "$t '$ATTN_TRACE' 2>'$TMP/bare$n.err'"
	wait_exit "bare$n" 0 "bare attn-trace, $t"
	expect "bare$n" "dot output: " "bare attn-trace, $t: the text trace"
	check "bare attn-trace, $t: the note says why" \
		grep -q '^attn-trace: note: TERM.*, so here is the text trace' "$TMP/bare$n.err"
	check "bare attn-trace, $t: the note names the lessons" \
		grep -qF "'attn-trace lessons'" "$TMP/bare$n.err"
done
# Bahdanau's architecture: its strip, its decoder-state screen, compare
start bahd 100 30 "'$ATTN_TRACE' tui --arch=bahdanau --scorer=additive zone économique européenne"
expect bahd "5 decoder" "the strip of bahdanau puts its decoder stage fifth"
keys bahd g 5
expect bahd "the context c_1 enters the RNN" "g 5 shows c_1 entering the RNN"
expect bahd "stage 5 of 6: decoder" "the status line names the stage"
keys bahd c
expect bahd "the scorers side by side at step t=1" "compare works on bahdanau"
keys bahd q
wait_exit bahd 0 "the bahdanau stepper quits cleanly"
# --arch=all: 'a' switches the architecture, compare puts both side by side
start both 110 45 "'$ATTN_TRACE' tui --arch=all --scorer=general zone économique européenne"
expect both "[general scorer, luong]" "--arch=all starts with luong's"
keys both g 3
keys both a
expect both "[general scorer, bahdanau]" "a switches to bahdanau's"
expect both "stage 2 of 6: scoring   step t=1" "at the same stage and step"
keys both c
expect both "the architectures side by side at step t=1, general scorer" \
	"compare puts the two architectures side by side"
keys both q
wait_exit both 0 "the --arch=all stepper quits cleanly"
start term1 80 24 "env TERM=dumb '$ATTN_TRACE' tui"
wait_exit term1 1 "tui with TERM=dumb"
expect term1 "the stepper cannot draw here: TERM=dumb cannot move the cursor" \
	"tui with TERM=dumb says why"
start term2 80 24 "env TERM=dumb '$ATTN_TRACE' lesson 1 2>'$TMP/term2.err'"
wait_exit term2 0 "lesson with TERM=dumb"
check "lesson with TERM=dumb prints it as text" \
	grep -q 'so here is the lesson as text' "$TMP/term2.err"

# --- hard attention: the draw in the weighted sum, the word in the bars ---
start hd 100 40 "'$ATTN_TRACE' tui --hard --seed=1"
expect hd "stage 1 of 7: encoding" "tui --hard opens"
keys hd g 5
expect hd "u_1 " "--hard: the weighted sum shows u"
expect hd "falls below cumsum_1,1 first, so l = 1" "--hard: the story tells the draw"
expect hd "0.7798  < drawn" "--hard: the bars mark the drawn word"
keys hd q
# through local-p the draw is from π = a / Σa, which the screen shows
start hp 100 40 "'$ATTN_TRACE' tui --model=localp4 --window=local-p --hard --seed=1 zone économique européenne"
expect hp "stage 1 of 7: encoding" "tui --hard --window=local-p opens"
keys hp g 5
expect hp "π_1 = a_1 / Σ_j a_1,j" "--hard through local-p: the screen shows π"
expect hp "so it draws from" "--hard through local-p: the story says why"
expect hp "0.5686  < drawn" "--hard through local-p: the bars mark the drawn word"
expect hp "attention weights a_1 (dot)" "local-p: the bars are the final weights a_t"
expect hp "each h_i is multiplied by a_1,i" "local-p: the story names a_t"
keys hp q
# local-p (soft): the softmax page tells the window and align, not α
start lp 100 40 "'$ATTN_TRACE' tui --model=localp4 --window=local-p zone économique européenne"
expect lp "stage 1 of 7: encoding" "tui --window=local-p opens"
keys lp g 4
expect lp "The softmax runs over the window only, positions 1 to 3" "local-p: the softmax page names the window"
expect lp "around p_1 = 2.8732" "local-p: and p_t (data/localp4.model: 2.8732, checked in check_shipped)"
# align_1,3 by hand from the scores the page shows, e_1 = (0.2550, 0.1104,
# 1.2309) over window 1..3: 1 / (e^(0.2550-1.2309) + e^(0.1104-1.2309) + 1)
# = 1 / 1.7030 = 0.5872
expect lp "gets the most, align_1,3 = 0.5872" "local-p: the largest is align, not α"
expect lp "by a Gaussian" "local-p: the Gaussian's product is said"
keys lp q

# --- lessons (issue 25): g reaches every page; in a lesson, d steps and
# does not turn the page; lessons on self4 get the self-attention stepper ---
start lg 80 24 "'$ATTN_TRACE' lesson 15"
expect lg "page 1 of 10" "lesson 15 opens on page 1"
keys lg g 1
expect lg "1 to 10, then Enter (any other key cancels): 1_" "g 1: the prompt shows the 1 and waits"
keys lg 0
expect lg "page 10 of 10" "g 1 0 goes to page 10"
keys lg g 4
expect lg "page 4 of 10" "g 4 goes at once"
keys lg d
expect lg "the picture of step t=1 of" "d: the picture of the page's step"
keys lg Right
expect lg "the picture of step t=2 of" "right in the picture: the next step, not the next page"
keys lg Escape
expect lg "page 4 of 10" "Esc: back on the same page"
keys lg q
wait_exit lg 0 "q quits the lesson"
check "the terminal modes are restored after the lesson" same_modes lg
start ls 80 24 "'$ATTN_TRACE' lesson 20"
expect ls "page 1 of 7   [self-attention]" "a lesson on self4 says self-attention, not a scorer"
keys ls c
expect ls "stage 4 of 6: softmax of each row" "c: the self-attention stepper at the stage of the page (its heatmap: the weights)"
keys ls m
expect ls "head 2: A (heatmap)" "m: the weights of both heads"
expect ls "α of row 1 (zone), head 1" "with the bars of a row of a head"
keys ls h r
expect ls "α of row 2 (économique), head 2" "h and r: another head and row"
keys ls Escape
expect ls "page 1 of 7   [self-attention]" "Esc: back to the page"
keys ls q
wait_exit ls 0 "q quits the self-attention lesson"

finish
