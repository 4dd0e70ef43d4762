#!/bin/sh
# glimpse-tui.sh: the glimpse stepper (attn-trace glimpse --tui) in a real
# terminal (tmux) of 80x24: each glimpse's numbers beside the picture,
# their values those of the JSON trace (which glimpse_torch_check.py
# checks against torch), the whole screen on 80x24 without scrolling,
# the class screen, the keys, and the terminal given back on q.
. "$srcdir/tests/lib.sh"
. "$srcdir/tests/tui-lib.sh"
if [ -z "${PYTHON3:-}" ] || [ "$PYTHON3" = no ]; then
	echo "python3 is needed"; exit 77
fi
img="$srcdir/data/images/heldout/bar-x1.pgm"
case $img in /*) ;; *) img=$(pwd)/$img ;; esac
"$ATTN_TRACE" glimpse -f json --class=bar "$img" >"$TMP/g.json"
# the lines the stepper must show, written from the JSON
"$PYTHON3" - "$TMP/g.json" >"$TMP/want" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
v = lambda xs: "[" + ", ".join("%7.4f" % x for x in xs) + "]"
for s in d["steps"]:
    t = s["t"]
    print("%d corner (row, column) = (%d, %d)" % (t, s["corner"][0], s["corner"][1]))
    print("%d l_%d = l̂_%d + σ·ε = %s" % (t, t, t, v(s["l"])))
    print("%d ε = %s" % (t, v(s["eps"])))
    print("%d fovea ρ_1..4 = %s" % (t, v(s["fovea"])))
    print("%d -%s" % (t, v(s["h"][4:])[1:].rstrip("]")))
k = d["classes"].index(d["class"])
print("c %-8s logit %9.4f  ŷ %7.4f  <- the class" % (d["class"], d["z"][k], d["p"][k]))
print("c δ_t = R - R̄_t = %s" % v(d["advantage"]))
PY
want() { grep "^$1 " "$TMP/want" | cut -d' ' -f2- | while IFS= read -r l; do
	printf '%s\n' "$l"; done; }

start g 80 24 TERM=xterm "$ATTN_TRACE" glimpse --tui --class=bar "$img"
expect g "glimpse 1 of 3   screen 1 of 4" "opens on glimpse 1"
for t in 1 2 3; do
	[ $t -gt 1 ] && keys g Right
	expect g "glimpse $t of 3   screen $t of 4" "right moves on to glimpse $t"
	want $t | sed 's/^-/ /' >"$TMP/w$t"
	while IFS= read -r l; do
		expect g "$l" "glimpse $t shows '$l' (the JSON's numbers)"
	done <"$TMP/w$t"
	screen g >"$TMP/s$t"
	check "glimpse $t: the fovea's solid lines beside the numbers" \
		grep -q '[─│].*  \(l_\|ε\|u\|corner\|fovea\|log\|periph\|φ_\|h_\| *=\)' "$TMP/s$t"
	check "glimpse $t: the periphery's dotted lines" grep -q '[┄┆]' "$TMP/s$t"
	check "glimpse $t: fits 80x24, nothing below to scroll" \
		sh -c "! grep -q 'more below' '$TMP/s$t'"
done
keys g Right
expect g "the class   screen 4 of 4" "then the class"
want c >"$TMP/wc"
while IFS= read -r l; do
	expect g "$l" "the class screen shows '$l'"
done <"$TMP/wc"
keys g Right
expect g "the class   screen 4 of 4" "right at the end stays on the class"
keys g Left Left
expect g "glimpse 2 of 3   screen 2 of 4" "left goes back to glimpse 2"
keys g p
expect g "glimpse 1 of 3   screen 1 of 4" "p goes back to glimpse 1"
keys g Left
expect g "glimpse 1 of 3   screen 1 of 4" "left at the start stays on glimpse 1"
expect g "<-/-> glimpse  up/down scroll  ? help  q quit" \
	"the key bar writes the arrows as the help does, <-/->"
keys g '?'
expect g "The glimpse stepper (attn-trace glimpse --tui)" "? shows the help"
expect g "  -> n space Enter  the next glimpse" "the help: -> the next glimpse"
keys g x
expect g "glimpse 1 of 3" "any key leaves the help"
keys g q
wait_exit g 0 "q quits"
check "the terminal modes are given back" cmp -s "$TMP/g.before" "$TMP/g.after"

run_cmd glimpse --tui "$img"
expect_status 1 "--tui without a terminal is refused"
expect_err "--tui needs a terminal" "... and says so"
run_cmd glimpse --tui -f json "$img"
expect_status 2 "--tui with --format is a usage error"
finish
