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
finish
