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
# the key bar writes the arrows as the help and the main stepper do, in
# ASCII (a '←' is drawn as '?' under a locale that is not UTF-8)
expect calc "<-/-> stage  up/down scroll  ? help  q quit" \
	"the key bar: <-/-> stage, as the help writes the arrows"
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
expect calc "  -> n space Enter  the next screen" "the help: -> the next screen"
expect calc "  <- p              the one before" "the help: <- the one before"
keys calc x
expect calc "the inputs   screen 1 of 4" "any key leaves the help"
keys calc q
wait_exit calc 0 "q quits"

# Wide formulas wrap as the main stepper's do, continuation lines
# indented: with 16 numbers a vector and -s concat, e_1,1 is a sum of 16
# terms that ran past column 80 ('... + 0.›') and the score was out of
# sight.  Scrolled down, the whole of e_1,1 is on the screen, ending in
# the score the JSON gives (checked there against the sum of its terms),
# and no line of any screen is cut.
q16="0.84,-0.91,0.14,0.76,-0.96,0.28,0.66,-0.99,0.41,0.54,-1,0.54,0.42,-0.99,0.65,0.29"
k16="0.54,0.42,-0.99,0.65,0.28,-0.96,0.75,0.15,-0.91,0.84,0,-0.84,0.91,0.14,-0.76,0.96;-0.2,0.9,0.3,-0.7,0.5,0.1,-0.4,0.8,-0.6,0.2,0.7,-0.3,0.05,-0.85,0.35,0.6"
LC_ALL=C.UTF-8 "$AT" calc -f json -s concat --query="$q16" --keys="$k16" \
	>"$TMP/c16.json"
e11=$("$PYTHON3" -c 'import json, sys
d = json.load(open(sys.argv[1]))
s = d["scores"][0]
assert len(s["terms"]) == 16
assert abs(sum(a * b for a, b in s["terms"]) - d["e"][0]) < 1e-9
print("%.4f" % d["e"][0])' "$TMP/c16.json")
check "concat at d = 16: the JSON's e_1,1 is the sum of its 16 terms" \
	test -n "$e11"
start wide 80 24 "'$AT' calc --tui -s concat --query='$q16' --keys='$k16'"
expect wide "the inputs   screen 1 of 4" "16 numbers: the stepper opens"
screen wide >"$TMP/wide.all"
keys wide Right
expect wide "scoring   screen 2 of 4" "16 numbers: scoring"
# e11_whole FILE: the screen shows e_1,1 from its first line to the one
# that ends '= SCORE', its continuation lines indented
e11_whole() {
	"$PYTHON3" -c 'import re, sys
rows = open(sys.argv[1], encoding="utf-8").read().split("\n")
top = [k for k, r in enumerate(rows) if r.startswith(" e_1,1 = ")]
if not top: sys.exit(1)
for r in rows[top[0] + 1:]:
    if not r.startswith("       + "): sys.exit(1)
    m = re.search(r" = (-?[0-9]+\.[0-9]+)$", r)
    if m: sys.exit(m.group(1) != sys.argv[2])
sys.exit(1)' "$1" "$e11"
}
n=0 found=0
while [ $n -lt 30 ]; do
	sleep 0.2
	screen wide >"$TMP/wide.now"
	cat "$TMP/wide.now" >>"$TMP/wide.all"
	if e11_whole "$TMP/wide.now"; then found=1; break; fi
	keys wide Down
	n=$((n + 1))
done
check "16 numbers: e_1,1 whole on the screen, ending '= $e11' (after $n Down)" \
	test $found = 1
for k in NPage NPage NPage Right NPage NPage Right NPage NPage; do
	keys wide $k
	sleep 0.2
	screen wide >>"$TMP/wide.all"
done
expect wide "weighted sum   screen 4 of 4" "16 numbers: the weighted sum"
screen wide >>"$TMP/wide.all"
check "16 numbers: no line of the four screens is cut ('›' at its end)" \
	sh -c '! grep -q "›\$" "$1"' sh "$TMP/wide.all"
keys wide q
wait_exit wide 0 "16 numbers: q quits"

# shellcheck disable=SC2086
run_cmd calc --tui $args </dev/null
expect_status 1 "--tui off a terminal"
expect_err "--tui needs a terminal" "it says why"
check "--tui off a terminal writes nothing on standard output" test ! -s "$TMP/out"
finish
