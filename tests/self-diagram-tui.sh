#!/bin/sh
# self-diagram-tui.sh: the self-attention stepper's line diagram (key d),
# driven in tmux at 80x24: the weights it prints are those of the CSV
# trace, the largest marked, a masked pair said so; r and h move it.
. "$srcdir/tests/lib.sh"
. "$srcdir/tests/tui-lib.sh"

# A_h[i][j] of the CSV trace (--causal), to 4 places
weight() {
	w=$("$ATTN_TRACE" self --causal --format=csv je suis étudiant |
		awk -F, -v h="$1" -v i="$2" -v j="$3" \
		'$2 == h && $4 == "A" && $5 == i && $6 == j { print $9 }')
	LC_ALL=C printf '%.4f' "$w"
}
a21=$(weight 1 2 1)
a22=$(weight 1 2 2)
b31=$(weight 2 3 1)

start s 80 24 "'$ATTN_TRACE' self --causal je suis étudiant"
expect s "stage 1 of 6: X = embeddings + positional encoding" "80x24: the stepper opens"
keys s d
expect s "line diagram of head 1, query row 1 (je)" "80x24: d opens the diagram of head 1, row 1"
expect s "1 je          1.0000  <- largest" "80x24: je sees itself alone"
expect s "2 suis        masked" "80x24: a later word is masked"
expect s "d back" "80x24: the key bar says d goes back"
check "80x24: the masked pair has no line" \
	sh -c "tmux -L '$sock' -f /dev/null capture-pane -p -t s |
	       grep ' 2 suis  *masked' | grep -vq '[-=#.]\{4\}'"
keys s r
expect s "line diagram of head 1, query row 2 (suis)" "80x24: r: the next query row"
expect s "1 je          $a21  <- largest" "80x24: α_2,1 of the CSV trace, the largest"
expect s "2 suis        $a22" "80x24: α_2,2 of the CSV trace"
check "80x24: the largest weight has the thickest line" \
	sh -c "tmux -L '$sock' -f /dev/null capture-pane -p -t s |
	       grep ' 1 je .*largest' | grep -q '####'"
keys s r h
expect s "line diagram of head 2, query row 3 (étudiant)" "80x24: h: the other head"
expect s "1 je          $b31" "80x24: α_3,1 of head 2 of the CSV trace"
check "80x24: no line runs past the screen" \
	sh -c "tmux -L '$sock' -f /dev/null capture-pane -p -t s |
	       awk 'length > 80 { bad = 1 } END { exit bad }'"
keys s d
expect s "stage 1 of 6" "80x24: d again: back to the stages"
keys s q
wait_exit s 0 "80x24: q quits"
finish
