#!/bin/sh
# train-start.sh: train's random start, drawn again from --seed by
# doc/training.md's table and order alone (tests/train_start.py).
. "${srcdir:-.}/tests/lib.sh"
if [ -z "${PYTHON3:-}" ] || [ "$PYTHON3" = no ]; then
	echo "python3 is needed"; exit 77
fi
check "the start is the doc's, draw for draw" \
	"$PYTHON3" "$srcdir/tests/train_start.py" "$ATTN_TRACE" "$srcdir"
finish
