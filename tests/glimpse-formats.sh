#!/bin/sh
# glimpse-formats.sh: attn-trace glimpse --format=jsonl|csv|markdown hold
# every value of the JSON trace (read back and compared by
# tests/glimpse_formats_check.py, which validates the JSON against
# doc/glimpse.schema.json too), and --batch=LIST: its traces, and its
# refusals with LIST:LINE:COLUMN, exit 1 and nothing written.
. "$srcdir/tests/lib.sh"
img="$srcdir/data/images"
py=
for p in /usr/bin/python3 "${PYTHON3:-}"; do
	[ -n "$p" ] && [ "$p" != no ] || continue
	if "$p" -c 'import jsonschema' >/dev/null 2>&1; then py=$p; break; fi
done
if [ -n "$py" ]; then
	check "jsonl, csv, markdown and --batch agree with the JSON trace" \
		"$py" "$srcdir/tests/glimpse_formats_check.py" "$ATTN_TRACE" \
		"$srcdir" "$TMP"
else
	ok "# SKIP a Python with jsonschema (python3-jsonschema) is needed"
fi

# bad lists: the place and what was expected, exit 1, no file written
cp "$img/train/bar-x0.pgm" "$TMP/a.pgm"
bad() { # bad WHAT CONTENT FRAGMENT
	printf "$2" >"$TMP/bad.list"
	run_cmd glimpse --batch="$TMP/bad.list" -o "$TMP/out.csv" -f csv
	expect_status 1 "$1"
	expect_err "$3" "... $1: says $3"
	check "... $1: writes no file" test ! -e "$TMP/out.csv"
}
bad "an unknown class" 'a.pgm ||| cat\n' "bad.list:1:11: expected a class of the model (dot, bar, box), found \"cat\""
bad "a third field" '# c\na.pgm ||| bar ||| x\n' "bad.list:2:15: expected the end of the line after the class, found \"|||\""
bad "no path" '  ||| bar\n' "bad.list:1:3: expected the path of a PGM image, found nothing"
bad "no image at all" '\n# only a comment\n' "bad.list:3:1: expected an image a line (PATH [||| CLASS]), found none"
bad "bytes that are not UTF-8" 'a\377.pgm\n' "bad.list:1:2: expected UTF-8 text, found a byte that is not UTF-8"
bad "a missing image after a good one" 'a.pgm\nnone.pgm\n' "bad.list:2: $TMP/none.pgm: No such file or directory"
printf 'P2\n2 2\n255\n1 2 3\n' >"$TMP/short.pgm"
bad "a truncated image" 'short.pgm ||| dot\n' "bad.list:1: $TMP/short.pgm:5:1: expected pixel 4 of 4"
run_cmd glimpse --batch="$TMP/bad.list" -f svg
expect_status 2 "--batch refuses svg"
run_cmd glimpse --batch="$TMP/bad.list" "$TMP/a.pgm"
expect_status 2 "--batch refuses an image beside it"
run_cmd glimpse --batch="$TMP/bad.list" --class=bar
expect_status 2 "--batch refuses --class"

# standard input: paths named from the current directory
printf '%s ||| bar\n' "$TMP/a.pgm" | "$ATTN_TRACE" glimpse --batch=- -f csv >"$TMP/stdin.csv"
check "--batch=- reads the list from standard input" \
	grep -q "^1,$TMP/a.pgm,0,true_class,,,,bar\$" "$TMP/stdin.csv"
finish
