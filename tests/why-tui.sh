#!/bin/sh
# why-tui.sh: "why this number?" in the stepper (src/view_why.c), in tmux
# at 80x24: w on the scoring screen of step 1 lists its numbers; Enter on
# e_1,2 shows its formula with the operands filled in, each checked here
# against the JSON trace (s_1, h_2 and e_1,2 at 4 decimals); Enter on an
# operand opens its record (s_1, its values the JSON's), Backspace goes
# back with the cursor kept, j takes the stepper to the screen that
# computed s_1, and Esc goes back to the screen w was pressed on.
. "$srcdir/tests/lib.sh"
. "$srcdir/tests/tui-lib.sh"
AT=$ATTN_TRACE

LC_ALL=C.UTF-8 "$AT" trace --format=json --scorer=dot je suis >"$TMP/t.json"

# formula_ok SCREEN: the screen's e_1,2 = s_1·h_2 = a×b + ... = e, its
# lines joined, has s_1's and h_2's entries as the factors and e_1,2 as
# the result, as the JSON gives them to 4 decimals, and adds up
formula_ok() {
	"$PYTHON3" -c 'import json, re, sys
d = json.load(open(sys.argv[2]))
s = d["runs"][0]["steps"][0]["state"]
h = d["encoder"][1]["state"]
e = d["runs"][0]["steps"][0]["scores"][1]
text = " ".join(l.strip() for l in open(sys.argv[1], encoding="utf-8"))
m = re.search(r"e_1,2 = s_1·h_2 = (.*?) = (-?[0-9.]+)", text)
if not m:
    sys.exit("no formula: " + text)
pairs = re.findall(r"\(?(-?[0-9.]+)\)?×\(?(-?[0-9.]+)\)?", m.group(1))
want = [("%.4f" % a, "%.4f" % b) for a, b in zip(s, h)]
if pairs != want or m.group(2) != "%.4f" % e:
    sys.exit("screen %s = %s, JSON %s = %.4f" % (pairs, m.group(2), want, e))
if abs(sum(float(a) * float(b) for a, b in pairs) - e) > 5e-3:
    sys.exit("the products do not add up")' "$1" "$TMP/t.json"
}

start why 80 24 "'$AT' tui --scorer=dot je suis"
expect why "screen 1 of" "the stepper opens"
keys why g 3
expect why "stage 3 of 7: scoring" "g 3: scoring, step 1"
keys why w
expect why "why this number? the numbers of this screen" "w: why this number?"
expect why "> e_1,1 = s_1·h_1 = " "w: the cursor on e_1,1"
keys why Down Enter
expect why "why this number? e_1,2 (1 deep)" "Enter on e_1,2: its record"
screen why >"$TMP/e12"
check "e_1,2's formula: the operands and the result are the JSON's" \
	formula_ok "$TMP/e12"
expect why "> h_2 = tanh(W_x·x_2 + W_h·h_1 + b)" "e_1,2 is made from h_2"
expect why "  s_1 = tanh(W_x·y_0 + W_h·s_0 + b)" "and from s_1"
keys why Down Enter
expect why "why this number? s_1 (2 deep)" "Enter on s_1: its record"
screen why >"$TMP/s1"
check "s_1's record: s_1 = tanh(sum) as in the JSON" \
	"$PYTHON3" -c 'import json, re, sys
d = json.load(open(sys.argv[2]))
s = d["runs"][0]["steps"][0]["state"]
for l in open(sys.argv[1], encoding="utf-8"):
    m = re.match(r" +s_1 = tanh\(sum\) +\(4\) +\[(.*)\]", l)
    if m:
        got = [x.strip() for x in m.group(1).split(",")]
        sys.exit(got != ["%.4f" % x for x in s])
sys.exit("no s_1 = tanh(sum) line")' "$TMP/s1" "$TMP/t.json"
expect why "b: a weight of the model" "s_1's record: b, a weight, ends the chain"
keys why BSpace
expect why "why this number? e_1,2 (1 deep)" "Backspace: back to e_1,2"
expect why "> s_1 = tanh(W_x·y_0 + W_h·s_0 + b)" "Backspace: the cursor still on s_1"
keys why j
expect why "stage 2 of 7: decoder   step t=1" "j: the stepper at the screen that computed s_1"
keys why g 3 w Enter
expect why "why this number? e_1,1 (1 deep)" "w, Enter: e_1,1"
keys why Escape
expect why "stage 3 of 7: scoring   step t=1" "Esc: back to the screen w was pressed on"
keys why q
wait_exit why 0 "q quits"
finish
