#!/bin/sh
# progress.sh: the progress line of trace --batch and train, drawn on
# standard error when it is a terminal (here a tmux pane), cleared at the
# end, absent with --quiet and when standard error is not a terminal, and
# never a byte of the output.  Every wait polls the screen or a file; no
# check depends on how fast the machine is.
. "${srcdir:-.}/tests/lib.sh"
. "${srcdir:-.}/tests/tui-lib.sh"

printf 'je suis \303\251tudiant\nje suis zzz\nil est m\303\251decin ||| he is a doctor\n' \
	>"$TMP/lines"
# the same batch with no terminal anywhere: the bytes to compare with, and
# nothing on standard error but the bad line's message
"$ATTN_TRACE" trace --batch="$TMP/lines" --format=jsonl >"$TMP/plain.jsonl" \
	2>"$TMP/plain.err"
check "piped: standard error holds only the bad line's message" \
	test "$(wc -l <"$TMP/plain.err")" -eq 1 -a \
	"$(grep -cF "attn-trace: $TMP/lines:2: unknown source word \"zzz\"; " \
		"$TMP/plain.err")" -eq 1
check "piped: no progress line, no carriage return" \
	test "$(tr -cd '\r' <"$TMP/plain.err" | wc -c)" -eq 0 -a \
	"$(grep -c 'lines/s' "$TMP/plain.err")" -eq 0

# wait_lines FILE N: waits until FILE has N lines (a hang guard of 60 s)
wait_lines() {
	i=0
	while [ $i -lt 600 ]; do
		[ -f "$1" ] && [ "$(wc -l <"$1")" -ge "$2" ] && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

for j in 1 2; do
	rm -f "$TMP/fifo"
	mkfifo "$TMP/fifo"
	exec 3<>"$TMP/fifo" # read-write: never blocks; closing it is the end
	start "p$j" 100 12 "'$ATTN_TRACE' trace --batch='$TMP/fifo' --format=jsonl --jobs=$j -o '$TMP/o$j.jsonl'" 3>&-
	head -n 2 "$TMP/lines" >&3
	expect "p$j" "2 lines, " "--jobs=$j: the progress line counts 2 lines"
	expect "p$j" "KiB written" "--jobs=$j: it says how much is written"
	expect "p$j" "unknown source word \"zzz\"" \
		"--jobs=$j: the bad line's message is shown whole"
	tail -n 1 "$TMP/lines" >&3
	expect "p$j" "3 lines, " "--jobs=$j: then 3 lines"
	exec 3>&-
	wait_exit "p$j" 1 "--jobs=$j: the batch with a bad line ends"
	expect_not "p$j" "lines/s" "--jobs=$j: the progress line is cleared"
	check "--jobs=$j: the output is the bytes of the piped run" \
		cmp -s "$TMP/o$j.jsonl" "$TMP/plain.jsonl"
done

# --quiet: the traces are written (stdout is a file), no progress line
rm -f "$TMP/fifo"
mkfifo "$TMP/fifo"
exec 3<>"$TMP/fifo"
start q 100 12 "'$ATTN_TRACE' trace --batch='$TMP/fifo' --format=jsonl --jobs=2 --quiet >'$TMP/q.jsonl'" 3>&-
head -n 1 "$TMP/lines" >&3
check "--quiet: the first line is traced" wait_lines "$TMP/q.jsonl" 1
expect_not q "lines" "--quiet: no progress line"
exec 3>&-
wait_exit q 0 "--quiet: the batch ends"

# train: epochs, their rate and the time left on the line that stays
grep -v '^#' "$srcdir/data/toy.pairs" | head -4 >"$TMP/p.pairs"
start t 120 12 "'$ATTN_TRACE' train --pairs='$TMP/p.pairs' --epochs=50 -o '$TMP/t.model'"
expect t "epoch 50/50  loss " "train: the last epoch's line stays"
expect t " epochs/s" "train: with the rate"
wait_exit t 0 "train ends"
# 40 columns: the line is cut to 39, so that it never wraps and no
# redraw leaves a row behind
start n 40 30 "'$ATTN_TRACE' train --pairs='$TMP/p.pairs' --scorer=dot --epochs=2000 -o '$TMP/n.model'"
expect n "trained 2000 epochs" "40 columns: train ends"
screen n >"$TMP/n.screen"
check "40 columns: one progress row, the last epoch's, cut to 39 columns" \
	sh -c 'test "$(grep -c "^epoch " "$1")" -eq 1 &&
	       grep "^epoch " "$1" | grep -q "^epoch 2000/2000  loss" &&
	       test "$(grep "^epoch " "$1" | wc -m)" -le 40' sh "$TMP/n.screen"
"$ATTN_TRACE" train --pairs="$TMP/p.pairs" --epochs=50 -o "$TMP/t2.model" \
	2>"$TMP/t.err"
check "train piped: no rate on standard error" \
	sh -c '! grep -q "epochs/s" "$1"' sh "$TMP/t.err"
# (but for the first line, which names the file)
tail -n +2 "$TMP/t.model" >"$TMP/t.body"
tail -n +2 "$TMP/t2.model" >"$TMP/t2.body"
check "train: the model is the same with and without a terminal" \
	cmp -s "$TMP/t.body" "$TMP/t2.body"
finish
