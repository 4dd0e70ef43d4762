#!/bin/sh
# tui-signals.sh: the stepper gives the terminal back, whatever ends it.
#
# tui.sh checks q, Ctrl-C and SIGTERM.  This script checks SIGHUP (a
# signal, and a terminal that really goes away), Ctrl-\ (SIGQUIT) and
# every other signal whose default action ends the program, a storm of window-size
# changes (the stepper must still answer keys, draw at the final size and
# quit cleanly), and a fatal error: memory running out after the screen
# was taken over, where the allocators abort (src/util.c) and the stepper's
# fatal hook must restore the terminal first.  "Restored" means that
# `stty -g` after the run prints what it printed before it.
. "$srcdir/tests/lib.sh"
. "$srcdir/tests/tui-lib.sh"
command -v pgrep >/dev/null 2>&1 || { echo "pgrep is not installed"; exit 77; }

# Every stepper here is given a sentence, so that no command line ends in
# "tui": nothing that looks for "attn-trace tui" by name can catch ours.

# --- SIGHUP: exit 129, modes restored ---
start h 80 24 "'$ATTN_TRACE' tui je suis étudiant"
expect h "stage 1 of 7: encoding" "a stepper to hang up"
keys h Right
expect h "word 2 of 3" "it answers keys"
kill -HUP "$(pid_of h)" 2>/dev/null
wait_exit h 129 "SIGHUP ends the stepper"
check "the terminal modes are restored after SIGHUP" same_modes h

# --- Ctrl-\ (SIGQUIT) from the keyboard: exit 131, modes restored ---
start j 80 24 "'$ATTN_TRACE' tui je suis étudiant"
expect j "stage 1 of 7: encoding" "a stepper to quit with Ctrl-\\"
keys j 'C-\'
wait_exit j 131 "Ctrl-\\ (SIGQUIT) ends the stepper"
check "the terminal modes are restored after Ctrl-\\" same_modes j

# --- every other signal that ends a program by default: 128 + N ---
# (the numbers from the shell, which knows this system's)
for sig in QUIT PIPE ALRM USR1 USR2 XCPU XFSZ VTALRM PROF; do
	n=$(kill -l "$sig")
	start "s$sig" 80 24 "'$ATTN_TRACE' tui je suis étudiant"
	expect "s$sig" "stage 1 of 7: encoding" "a stepper for SIG$sig"
	kill -"$sig" "$(pid_of "s$sig")" 2>/dev/null
	wait_exit "s$sig" $((128 + n)) "SIG$sig ends the stepper"
	check "the terminal modes are restored after SIG$sig" same_modes "s$sig"
	tm kill-session -t "s$sig"
done

# --- the terminal goes away: the stepper ends, it does not spin ---
start k 80 24 "'$ATTN_TRACE' tui zone économique européenne"
expect k "stage 1 of 7: encoding" "a stepper whose terminal will close"
kpid=$(pid_of k)
tm kill-session -t k
i=0
while [ -n "$kpid" ] && kill -0 "$kpid" 2>/dev/null && [ $i -lt 600 ]; do
	sleep 0.1
	i=$((i + 1))
done
if [ -n "$kpid" ] && ! kill -0 "$kpid" 2>/dev/null; then
	ok "the stepper ends when its terminal closes"
else
	not_ok "the stepper ends when its terminal closes (pid '$kpid')"
	[ -n "$kpid" ] && kill -KILL "$kpid" 2>/dev/null
fi

# --- a storm of window-size changes ---
start w 80 24 "'$ATTN_TRACE' tui je suis étudiant --color=never"
expect w "stage 1 of 7: encoding" "a stepper for the resize storm"
wpid=$(pid_of w)
i=0
while [ $i -lt 100 ]; do	# 200 real resizes, as fast as tmux goes
	tm resize-window -t w -x 100 -y 30
	tm resize-window -t w -x 80 -y 24
	i=$((i + 1))
done
i=0
while [ $i -lt 500 ] && kill -WINCH "$wpid" 2>/dev/null; do	# 500 signals
	i=$((i + 1))
done
check "it lives through 200 resizes and 500 SIGWINCH" kill -0 "$wpid"
tm resize-window -t w -x 120 -y 40
keys w Right
expect w "word 2 of 3" "after the storm it still answers keys"
# at 120 columns every stage of the strip is numbered; at 80 only the
# current one is, so this shows that it drew at the final size
expect w "3 scoring  ›  4 softmax" "it draws the strip at the final width"
check "it draws the key bar on the last of 40 rows" \
	sh -c "tmux -L '$sock' -f /dev/null capture-pane -p -t w |
	       sed -n 40p | grep -q '? help'"
keys w End
expect w "stage 7 of 7: output" "End works after the storm"
keys w q
wait_exit w 0 "q quits after the storm"
check "the terminal modes are restored after the storm" same_modes w

# --- a storm while a quiz waits for its answer ---
start z 80 24 "'$ATTN_TRACE' tui je suis étudiant --color=never"
expect z "stage 1 of 7: encoding" "a stepper for a storm during a quiz"
keys z g 4 z
expect z "answer> _" "a quiz is open"
i=0
while [ $i -lt 50 ]; do
	tm resize-window -t z -x 81 -y 25
	tm resize-window -t z -x 80 -y 24
	i=$((i + 1))
done
keys z 0 . 5
expect z "answer> 0.5_" "the typed answer survives the storm"
keys z Escape
expect z "stage 4 of 7: softmax" "Esc leaves the quiz after the storm"
keys z q
wait_exit z 0 "q quits after a storm during a quiz"
check "the terminal modes are restored after that" same_modes z

# --- a fatal error: memory runs out after the screen was taken over ---
#
# The lesson's first page is small; its second page holds 200,000 short
# verbatim lines, which take some megabytes to lay out.  Once the stepper
# shows page 1, prlimit caps its address space at what it uses, so laying
# out page 2 fails in xmalloc, which aborts.  Its fatal hook must give the
# terminal back before the message is printed.  A sanitizer build, which
# reserves terabytes of address space and allocates from that, cannot be
# starved this way; the check is skipped there, and without prlimit(1).
if ! command -v prlimit >/dev/null 2>&1; then
	echo "# skip: the fatal error needs prlimit (util-linux)"
elif ! { (ulimit -v 200000 && exec "$ATTN_TRACE" --version) \
	 >/dev/null 2>&1; } 2>/dev/null; then
	echo "# skip: the fatal error cannot be caused in a sanitizer build"
else
	{
		printf 'title: Too big to lay out\nsentence: je suis étudiant\n\n'
		printf 'page: Small\nPress the right arrow.\n\npage: Big\n'
		yes ' x' | head -n 200000
	} >"$TMP/big.lesson"
	start f 80 24 "'$ATTN_TRACE' lesson '$TMP/big.lesson' --color=never"
	expect f "Press the right arrow." "a lesson to run out of memory in"
	fpid=$(pid_of f)
	size=$(awk '$1 == "VmSize:" { print $2 }' "/proc/$fpid/status" 2>/dev/null)
	if [ -n "$size" ] && prlimit --pid "$fpid" --as=$((size * 1024)): \
		2>/dev/null; then
		keys f Right
		wait_exit f 134 "running out of memory aborts"
		check "the terminal modes are restored after the fatal error" \
			same_modes f
		expect f "attn-trace: out of memory" "the message is on the screen"
		check "the message starts its own line, not in raw mode" \
			sh -c "tmux -L '$sock' -f /dev/null capture-pane -p -t f |
			       grep -q '^attn-trace: out of memory'"
	else
		echo "# skip: prlimit cannot lower the limit of process $fpid"
		keys f q
	fi
fi
finish
