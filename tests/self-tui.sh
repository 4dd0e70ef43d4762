#!/bin/sh
# self-tui.sh: the self-attention stepper in a real terminal (tmux): it
# opens on a terminal, shows both heads side by side and the α bars of
# one query row, moves between stages and rows, and gives the terminal
# back on q.
. "$srcdir/tests/lib.sh"
. "$srcdir/tests/tui-lib.sh"

start s 100 40 TERM=xterm "$ATTN_TRACE" self zone économique européenne
expect s "stage 1 of 6: X = embeddings + positional encoding" "opens on stage 1"
expect s "x_2 = emb(économique) + PE(1)" "shows X"
keys s Right Right
expect s "stage 3 of 6: scores, scaling and mask" "right moves on to the scores"
expect s "head 1: e = QKᵀ/√d_k" "head 1's scores"
expect s "head 2: e = QKᵀ/√d_k" "head 2's scores, beside them"
expect s "α of row 1 (zone), head 1" "the bars of row 1, head 1"
keys s r h
expect s "α of row 2 (économique), head 2" "r and h pick row 2 of head 2"
keys s Right
expect s "head 1: A (heatmap)" "the heatmap of each head"
keys s q
wait_exit s 0 "q quits"
check "the terminal modes are given back" cmp -s "$TMP/s.before" "$TMP/s.after"

# at 80x24 a head's heatmap of 8 words is wider than the screen: each cut
# line ends in a mark, and < and > scroll it sideways (issue 27).
# screen_is NAME WHAT FILTER: waits, as wait_for does, for a screen on
# which the shell filter FILTER (reading the screen) succeeds
screen_is() {
	i=0
	while [ $i -lt 600 ]; do
		screen "$1" >"$TMP/screen"
		if sh -c "$3" <"$TMP/screen"; then ok "$2"; return; fi
		sleep 0.1
		i=$((i + 1))
	done
	not_ok "$2"
	cat "$TMP/screen"
}
start w 80 24 TERM=xterm "$ATTN_TRACE" self je suis étudiant zone \
	économique européenne je suis
expect w "stage 1 of 6" "80x24: opens"
keys w Right Right Right
expect w "head 1: A (heatmap)" "80x24: the heatmaps"
keys w Down Down Down Down Down Down Down Down Down Down Down
screen_is w "80x24: head 2's heatmap, cut at the edge, marks its lines (›)" \
	"grep -A3 'head 2: A (heatmap)' | tail -n +2 | grep -c '›\$' | grep -qx 3"
keys w '>' '>' '>'
screen_is w "80x24: > scrolls it sideways: columns 7 and 8, and a ‹ a line" \
	"grep -A3 '^‹ *1 .* 7 *8\$' | grep -c '^‹' | grep -qx 4"
keys w '<' '<' '<'
screen_is w "80x24: < scrolls back to the first column, and no ‹" \
	"! grep -q '‹\\|^ *1 .* 7 *8\$'"
keys w q
wait_exit w 0 "80x24: q quits"
finish
