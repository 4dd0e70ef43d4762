#!/bin/sh
# glimpse.sh: attn-trace glimpse (src/glimpse*.c).  Every number of the
# JSON trace against PyTorch (tests/glimpse_torch_check.py); the same
# seed gives the same bytes and another seed other draws; bad input and
# bad options are refused with nothing written.
. "$srcdir/tests/lib.sh"
img="$srcdir/data/images"

torch_python_find
if [ -n "$torch_python" ]; then
	check "every number of the glimpse traces agrees with torch" \
		"$torch_python" "$srcdir/tests/glimpse_torch_check.py" "$ATTN_TRACE" "$img"
else
	ok "# SKIP no Python here can import torch"
fi

"$ATTN_TRACE" glimpse --seed=5 -f json "$img/train/bar-x0.pgm" >"$TMP/a.json"
"$ATTN_TRACE" glimpse --seed=5 -f json "$img/train/bar-x0.pgm" >"$TMP/b.json"
"$ATTN_TRACE" glimpse --seed=6 -f json "$img/train/bar-x0.pgm" >"$TMP/c.json"
check "the same seed gives the same bytes" cmp -s "$TMP/a.json" "$TMP/b.json"
check "another seed draws other places" sh -c "! cmp -s $TMP/a.json $TMP/c.json"

run_cmd glimpse --class=cat "$img/train/bar-x0.pgm"
expect_status 2 "--class with a class the model lacks"
check "... says so" grep -q "class=cat: expected a class of the model" "$TMP/err"
run_cmd glimpse
expect_status 2 "glimpse with no image"
run_cmd glimpse -f jsn "$img/train/bar-x0.pgm"
expect_status 2 "an unknown format"
check "... names the formats" grep -q "expected text, json, model" "$TMP/err"

printf 'P2\n2 2\n255\n0 0 0\n' >"$TMP/short.pgm"
run_cmd glimpse -o "$TMP/out.txt" "$TMP/short.pgm"
expect_status 1 "a truncated PGM"
check "... names its place" grep -q "short.pgm:5:1: expected pixel 4 of 4" "$TMP/err"
check "... and writes nothing" test ! -e "$TMP/out.txt"

printf 'attn-trace-glimpse 1\nhidden 0\n' >"$TMP/bad.model"
run_cmd glimpse -m "$TMP/bad.model" "$img/train/bar-x0.pgm"
expect_status 1 "a bad model file"
check "... names its place" grep -q "bad.model:2:8: expected a whole number" "$TMP/err"

run_cmd glimpse --train="$img/train.captions"
expect_status 2 "--train without -o"
finish
