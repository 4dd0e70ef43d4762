#!/bin/sh
# edit-tui.sh: the stepper's edits (src/view_edit.c) in tmux at 80x24:
# e opens the edit line on the scoring screen, Down chooses e_1,2, a number
# typed and Enter set it; the screen shows the new value with the old one
# in a "was" line, and the weights and context downstream equal those of
# 'trace --set step[1].scores[2]=VALUE --format=json' (which
# tests/torch_set.py checks against torch); a bad number is refused in the
# edit line; u takes the edit back, R all of them.
. "$srcdir/tests/lib.sh"
. "$srcdir/tests/tui-lib.sh"
AT=$ATTN_TRACE
sent="je suis étudiant"

LC_ALL=C.UTF-8 "$AT" trace -f json "$sent" >"$TMP/base.json"
LC_ALL=C.UTF-8 "$AT" trace -f json --set 'step[1].scores[2]=3.5' "$sent" \
	>"$TMP/set.json"
LC_ALL=C.UTF-8 "$AT" trace -f json --set 'step[1].scores[2]=3.5' \
	--set 'step[1].scores[3]=-2' "$sent" >"$TMP/set2.json"

# vec FILE KEY: step 1's KEY of the JSON FILE, each to 4 places, on a line
vec() {
	"$PYTHON3" -c 'import json, sys
s = json.load(open(sys.argv[1], encoding="utf-8"))["runs"][0]["steps"][0]
print(" ".join("%.4f" % x for x in s[sys.argv[2]]))' "$1" "$2"
}
# vec2 FILE KEY I: entry I (from 0) of step 1's KEY, a list of vectors
vec2() {
	"$PYTHON3" -c 'import json, sys
s = json.load(open(sys.argv[1], encoding="utf-8"))["runs"][0]["steps"][0]
print(" ".join("%.4f" % x for x in s[sys.argv[2]][int(sys.argv[3])]))' \
		"$1" "$2" "$3"
}
# bars NAME: the weights of the screen's bars, a source word each
bars() {
	screen "$1" | "$PYTHON3" -c 'import re, sys
w = [l.split()[-2] if l.split()[-1] == "<" else l.split()[-1]
     for l in sys.stdin
     if re.match(r"^   (je|suis|étudiant) ", l)]
print(" ".join(w))'
}
# shown NAME SYMBOL: the numbers of the screen's line "SYMBOL (n) [...]"
shown() {
	screen "$1" | "$PYTHON3" -c 'import re, sys
for l in sys.stdin:
    m = re.match(r"^ *" + re.escape(sys.argv[1]) + r" +\(\d+\) +\[(.*)\]", l)
    if m:
        print(" ".join(x.strip() for x in m.group(1).split(",")))
        break' "$2"
}

start ed 80 24 "'$AT' tui '$sent'"
expect ed "screen 1 of" "the stepper opens"
keys ed g 3
expect ed "stage 3 of 7: scoring   step t=1" "g 3: the scoring of step 1"
keys ed e
expect ed "edit > step[1].scores[1] = " "e: the edit line, on e_1,1"
keys ed Down
expect ed "edit > step[1].scores[2] = $(vec "$TMP/base.json" scores | cut -d' ' -f2)" \
	"Down: e_1,2, with its value from the JSON"
keys ed 1 e x
expect ed "new value> 1e_" "the number typed shows; a letter is refused"
keys ed Enter
expect ed "expected a finite number, found '1e'" \
	"Enter on '1e': whatif's error in the edit line"
keys ed BSpace BSpace 3 . 5 Enter
expect ed "edits (u undoes, R resets): --set step[1].scores[2]=3.5" \
	"Enter: the edit in force, as a --set argument"
# best FILE: the source word of step 1's largest weight in the JSON FILE
best() {
	"$PYTHON3" -c 'import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
w = d["runs"][0]["steps"][0]["weights"]
print(d["source"][w.index(max(w))])' "$1"
}
check "the JSON's winner changes with the edit" \
	test "$(best "$TMP/set.json")" != "$(best "$TMP/base.json")"
expect ed "largest weight at t=1: $(best "$TMP/set.json") (unedited: $(best "$TMP/base.json"))" \
	"the word the edit makes win, and the unedited one, as the JSON's"
sleep 0.3
setv=$(vec "$TMP/set.json" scores | cut -d' ' -f2)
oldv=$(vec "$TMP/base.json" scores | cut -d' ' -f2)
expect ed "set by --set: step[1].scores[2] = $setv, computed $oldv" \
	"under the edited score: its value and what its formula gave (the JSON's)"
keys ed NPage
sleep 0.3
check "PgDn scrolls while the edit line is open: e_1 on screen equals the JSON of trace --set" \
	test "$(shown ed e_1)" = "$(vec "$TMP/set.json" scores)"
expect ed "up/down choose  type, Enter sets  PgDn scroll" \
	"PgDn keeps the edit line open (its keys)"
keys ed PPage
old=$(vec "$TMP/base.json" scores | cut -d' ' -f2)
check "the old e_1,2 ($old) in a 'was' line" \
	sh -c "screen() { tmux -L '$sock' -f /dev/null capture-pane -p -t ed; }
		screen | grep -E '^ *was +$old *\$' >/dev/null"
esc=$(printf '\033')
check "the 'was' lines are drawn in colour or bold, the others not" \
	sh -c "tmux -L '$sock' -f /dev/null capture-pane -e -p -t ed >'$TMP/attr'
		grep -q '^ $esc\\[[0-9;]*mwas ' '$TMP/attr' &&
		! grep -q '^ $esc\\[[0-9;]*me_1,1 = ' '$TMP/attr'"
keys ed Escape Right
expect ed "stage 4 of 7: softmax   step t=1" "Esc, Right: the softmax, edits kept"
sleep 0.3
check "the bars of α_1 equal the JSON of trace --set" \
	test "$(bars ed)" = "$(vec "$TMP/set.json" weights)"
check "α_1 differs from the unedited one" \
	test "$(vec "$TMP/set.json" weights)" != "$(vec "$TMP/base.json" weights)"
screen ed | grep -c '^ *was ' >"$TMP/was"
check "the changed weights have 'was' lines" test "$(cat "$TMP/was")" -gt 0
keys ed Right
expect ed "weighted sum   step t=1" "Right: the weighted sum"
sleep 0.3
check "α_1,2·h_2 on screen equals the JSON of trace --set" \
	test "$(shown ed "α_1,2·h_2 = $(vec "$TMP/set.json" weights |
		cut -d' ' -f2)×h_2")" = "$(vec2 "$TMP/set.json" weighted 1)"
keys ed u
expect_not ed "edits (u undoes" "u: no edit in force"
check "u: α_1,2·h_2 is the unedited JSON's again" \
	test "$(shown ed "α_1,2·h_2 = $(vec "$TMP/base.json" weights |
		cut -d' ' -f2)×h_2")" = "$(vec2 "$TMP/base.json" weighted 1)"
expect_not ed "was " "u: no 'was' line"
keys ed u
expect_not ed "edits (u undoes" "u with no edit: nothing"
# two edits, then R
keys ed g 3 e Down 3 . 5 Enter Down - 2 Enter
expect ed "edits (u undoes, R resets): --set step[1].scores[2]=3.5 --set" \
	"two edits in force, in order"
expect ed "step[1].scores[3]=-2" "the second edit, after the first"
keys ed Escape NPage
sleep 0.3
check "e_1 after two edits equals the JSON of two --set" \
	test "$(shown ed e_1)" = "$(vec "$TMP/set2.json" scores)"
keys ed Home g 3 R
expect_not ed "edits (u undoes" "R: every edit gone"
keys ed NPage
sleep 0.3
check "R: e_1 is the unedited JSON's" \
	test "$(shown ed e_1)" = "$(vec "$TMP/base.json" scores)"
keys ed q
wait_exit ed 0 "q quits"
# a weight set above 1: its bar stops at the bars' width, the value shows
start big 80 24 "'$AT' tui --set 'step[1].weights[3]=99' '$sent'"
expect big "screen 1 of" "tui --set opens"
keys big g 4
expect big "stage 4 of 7: softmax" "g 4: the softmax"
check "a weight of 99 keeps its value beside a full bar" \
	sh -c "tmux -L '$sock' -f /dev/null capture-pane -p -t big |
		grep -E '^   étudiant  █+ 99\.0000  <\$' >/dev/null"
# the model's numbers: at the scoring the scorer's weights (general.W),
# in the encoder the embedding of its word; the stepper traces a copy of
# the model read again, so u leaves the unedited trace as it was
"$AT" model --format=json >"$TMP/model.json"
mval() {
	"$PYTHON3" -c 'import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
v = d
for k in sys.argv[2:]:
    v = v[int(k)] if isinstance(v, list) else v[k]
print("%.4f" % v)' "$TMP/model.json" "$@"
}
LC_ALL=C.UTF-8 "$AT" trace -f json -s general "$sent" >"$TMP/gbase.json"
LC_ALL=C.UTF-8 "$AT" trace -f json -s general --set 'general.W[1][2]=2' \
	"$sent" >"$TMP/gset.json"
start md 80 24 "'$AT' tui -s general '$sent'"
expect md "screen 1 of" "tui -s general opens"
keys md g 3 e
keys md Down Down Down Down Down Down Down Down
expect md "edit > general.W[1][2] = $(mval general W 0 1)" \
	"e, Down x8: W_a's row 1, column 2, after the 3 scores and s_1's 4 (the model's JSON)"
keys md 2 Enter
expect md "edits (u undoes, R resets): --set general.W[1][2]=2" \
	"Enter: a weight of the model edited"
keys md NPage NPage NPage
sleep 0.3
check "general.W[1][2] = 2: e_1 on screen equals the JSON of trace --set" \
	test "$(shown md e_1)" = "$(vec "$TMP/gset.json" scores)"
check "... which differs from the unedited one" \
	test "$(vec "$TMP/gset.json" scores)" != "$(vec "$TMP/gbase.json" scores)"
keys md u
sleep 0.3
keys md NPage NPage NPage
sleep 0.3
check "u: e_1 is the unedited JSON's (the model itself was not changed)" \
	test "$(shown md e_1)" = "$(vec "$TMP/gbase.json" scores)"
# and the next edit is made on the model as read: e_1,2 and e_1,3 are
# the unedited W_a's (a stepper that edited the model in place would
# still have general.W[1][2] = 2 here)
LC_ALL=C.UTF-8 "$AT" trace -f json -s general --set 'step[1].scores[1]=1' \
	"$sent" >"$TMP/gs1.json"
keys md Escape e 1 Enter
expect md "edits (u undoes, R resets): --set step[1].scores[1]=1" \
	"after u, another edit: e_1,1 = 1"
keys md NPage NPage NPage
sleep 0.3
check "after u, e_1 with e_1,1 = 1 equals the JSON of that edit alone" \
	test "$(shown md e_1)" = "$(vec "$TMP/gs1.json" scores)"
keys md Escape q
wait_exit md 0 "q quits"

LC_ALL=C.UTF-8 "$AT" trace -f json --set 'source[je][1]=0.5' "$sent" \
	>"$TMP/eset.json"
h1() {
	"$PYTHON3" -c 'import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
print(" ".join("%.4f" % x for x in d["encoder"][0]["state"]))' "$1"
}
start en 80 24 "'$AT' tui '$sent'"
expect en "screen 1 of" "tui opens on the encoder"
keys en e
expect en "edit > source[je][1] = $(mval source_embeddings je 0)" \
	"e in the encoder: je's embedding (the model's JSON)"
keys en 0 . 5 Enter
expect en "edits (u undoes, R resets): --set source[je][1]=0.5" \
	"Enter: an embedding edited"
keys en NPage
sleep 0.3
check "source[je][1] = 0.5: h_1 on screen equals the JSON of trace --set" \
	test "$(shown en 'h_1 = tanh(sum)')" = "$(h1 "$TMP/eset.json")"
keys en Escape q
wait_exit en 0 "q quits"
check "the terminal modes are restored" same_modes ed
finish
