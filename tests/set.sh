#!/bin/sh
# set.sh: --set NAME=VALUE (doc/trace-format.md, "What-if: --set"): the
# edited traces against torch (tests/torch_set.py), and the errors of a bad
# --set: --set:N:COL, exit 2, nothing on stdout and no -o file written.
. "$srcdir/tests/lib.sh"
AT=$ATTN_TRACE
top=$(cd "$srcdir" && pwd)

torch_python_find
if [ -n "$torch_python" ]; then
	check "--set edits agree with torch" \
		"$torch_python" "$top/tests/torch_set.py" "$AT"
else
	echo "no Python here can import torch: the torch checks are skipped"
fi

# bad ARG FRAGMENT WHAT: trace --set=ARG as second --set exits 2 with the
# error FRAGMENT, writes nothing to stdout nor to -o
bad() {
	run_cmd trace -o "$TMP/never" --set=general.W[1][1]=1 --set="$1"
	expect_status 2 "$3"
	expect_err "$2" "$3: message"
	if [ -s "$TMP/out" ] || [ -e "$TMP/never" ]; then
		not_ok "$3: something was written"
	else
		ok "$3: nothing written"
	fi
}
bad 'general.Wx[1][1]=1' \
	"--set:2:1: unknown name 'general.Wx'; did you mean general.W?" \
	"unknown name"
bad 'general.W[5][1]=1' "--set:2:11: index '5' out of range: expected 1 to 4" \
	"row out of range"
bad 'general.W[1][0]=1' "--set:2:14: index '0' out of range" \
	"column 0"
bad 'source[tu][1]=1' "--set:2:8: index 'tu' out of range: expected a word" \
	"unknown word"
bad 'general.W[1][1]=nan' "--set:2:17: expected a finite number, found 'nan'" \
	"nan"
bad 'general.W[1][1]=1e999' "expected a finite number, found '1e999'" \
	"overflow"
bad 'general.W[1][1]=0.5x' "expected a finite number, found '0.5x'" \
	"trailing junk"
bad 'general.W[1][1]' "--set:2:16: expected '=VALUE'" "no value"
bad 'general.W[1]=2' "--set:2:13: expected [INDEX]" "missing index"

# the text header shows the edit and the value it replaced
run_cmd trace --set=source[je][2]=-1.5
expect_status 0 "text with --set"
if grep -qx 'set: source\[je\]\[2\] = -1.5000 (was 2.2882)' "$TMP/out"; then
	ok "text: set line with the old value"
else
	not_ok "text: set line: $(sed -n 3p "$TMP/out")"
fi
finish
