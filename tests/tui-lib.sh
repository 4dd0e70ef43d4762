# tui-lib.sh: tmux helpers for the tests that drive the real stepper
# (tui.sh, tui-signals.sh).  Source it after lib.sh.  Without tmux the test
# is skipped (exit 77).  Each script gets its own tmux server, killed at
# the end, so tests that run at the same time never see each other.
command -v tmux >/dev/null 2>&1 || { echo "tmux is not installed"; exit 77; }
case $ATTN_TRACE in /*) ;; *) ATTN_TRACE=$(pwd)/$ATTN_TRACE ;; esac

sock="attn-test-$$"
tm() { tmux -L "$sock" -f /dev/null "$@"; }
trap 'tm kill-server 2>/dev/null; rm -rf "$TMP"' EXIT

# start NAME COLS ROWS ARGS...: runs attn-trace in a new tmux session and
# records its exit status in $TMP/NAME.exit and the stty modes around it
start() {
	name=$1 cols=$2 rows=$3
	shift 3
	tm new-session -d -s "$name" -x "$cols" -y "$rows" \
		"stty -g >'$TMP/$name.before'; LC_ALL=C.UTF-8 $* ; \
		 rc=\$?; stty -g >'$TMP/$name.after'; echo \$rc >'$TMP/$name.exit'; \
		 sleep 60"
}

screen() { tm capture-pane -p -t "$1"; }

# wait_for NAME TEXT: waits for TEXT on the screen, polling every 0.1 s;
# after 60 s (a hang guard for loaded machines, not a speed limit) it fails
wait_for() {
	i=0
	while [ $i -lt 600 ]; do
		screen "$1" | grep -qF -- "$2" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	echo "--- screen of $1, waiting for '$2':"
	screen "$1"
	return 1
}

# expect NAME TEXT WHAT / expect_not NAME TEXT WHAT
expect() { if wait_for "$1" "$2"; then ok "$3"; else not_ok "$3"; fi; }
expect_not() {
	sleep 0.3
	if screen "$1" | grep -qF -- "$2"; then not_ok "$3"; else ok "$3"; fi
}

# wait_exit NAME CODE WHAT: the program ended with CODE
wait_exit() {
	i=0
	while [ ! -s "$TMP/$1.exit" ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
	got=$(cat "$TMP/$1.exit" 2>/dev/null)
	if [ "$got" = "$2" ]; then ok "$3 (exit $2)"; else not_ok "$3: exit '$got', wanted $2"; fi
}

keys() { tm send-keys -t "$@"; }

# pid_of NAME: the process id of the program running in session NAME (the
# one child of the pane's shell), or nothing.  Signals go to this process
# alone, never to every attn-trace by name: other tests may be running.
pid_of() {
	shell=$(tm display-message -p -t "$1" '#{pane_pid}' 2>/dev/null)
	[ -n "$shell" ] || return 1
	pgrep -P "$shell" 2>/dev/null | head -n 1
}

# same_modes NAME: the stty modes after the run equal those before it
same_modes() {
	cmp -s "$TMP/$1.before" "$TMP/$1.after" && return 0
	echo "stty before: $(cat "$TMP/$1.before")"
	echo "stty after:  $(cat "$TMP/$1.after")"
	return 1
}
