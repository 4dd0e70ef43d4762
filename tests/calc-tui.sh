#!/bin/sh
# calc-tui.sh: "attn-trace calc --tui", the calc stepper (src/calc_view.c)
# in tmux at 80x24: four screens (the inputs, scoring, softmax, the
# weighted sum), each showing the lines 'calc' prints for that stage, the
# weights as bars equal to the JSON's; the keys; and --tui refused off a
# terminal, with nothing on standard output.
. "$srcdir/tests/lib.sh"
. "$srcdir/tests/tui-lib.sh"
AT=$ATTN_TRACE
args="--query=1,2 --keys=1,0;0,1;1,1 --values=1,2,3;4,5,6;7,8,9"

# shellcheck disable=SC2086 # the arguments are words
LC_ALL=C.UTF-8 "$AT" calc $args >"$TMP/text"
# shellcheck disable=SC2086
LC_ALL=C.UTF-8 "$AT" calc -f json $args >"$TMP/calc.json"
"$PYTHON3" -c 'import json, sys
w = json.load(open(sys.argv[1]))["softmax"]["weights"]
for x in w: print("%.4f" % x)' "$TMP/calc.json" >"$TMP/weights"
check "the JSON gives three weights" test "$(wc -l <"$TMP/weights")" -eq 3

start calc 80 24 "'$AT' calc --tui --query=1,2 --keys='1,0;0,1;1,1' --values='1,2,3;4,5,6;7,8,9'"
expect calc "the inputs   screen 1 of 4" "the stepper opens on the inputs"
expect calc "$(grep '^  v_3 ' "$TMP/text")" "the inputs: v_3 as calc prints it"
keys calc Right
expect calc "scoring   screen 2 of 4" "→: scoring"
expect calc "$(grep '^e_1,3 = ' "$TMP/text")" "scoring: e_1,3 term by term, as calc prints it"
keys calc Right
expect calc "softmax   screen 3 of 4" "→: softmax"
expect calc "$(grep '^sum = ' "$TMP/text")" "softmax: the sum, as calc prints it"
screen calc >"$TMP/soft"
check "softmax: the bars of keys 1 to 3 end with the JSON's weights" \
	"$PYTHON3" -c 'import re, sys
w = open(sys.argv[2]).read().split()
bars = [l.split() for l in open(sys.argv[1], encoding="utf-8")
        if re.match(r"^ +k[0-9]+ ", l)]
got = [b[-2] if b[-1] == "<" else b[-1] for b in bars]
sys.exit(got != w)' "$TMP/soft" "$TMP/weights"
keys calc End
expect calc "weighted sum   screen 4 of 4" "End: the weighted sum"
expect calc "$(grep '^the output c_1' "$TMP/text")" "the output c_1, as calc prints it"
keys calc Right
expect calc "weighted sum   screen 4 of 4" "→ past the last screen stays"
keys calc Home
expect calc "the inputs   screen 1 of 4" "Home: the inputs"
keys calc '?'
expect calc "The calc stepper (attn-trace calc --tui)" "?: the help"
keys calc x
expect calc "the inputs   screen 1 of 4" "any key leaves the help"
keys calc q
wait_exit calc 0 "q quits"

# shellcheck disable=SC2086
run_cmd calc --tui $args </dev/null
expect_status 1 "--tui off a terminal"
expect_err "--tui needs a terminal" "it says why"
check "--tui off a terminal writes nothing on standard output" test ! -s "$TMP/out"
finish
