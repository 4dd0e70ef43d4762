#!/bin/sh
# json-csv.sh: every number in a trace's CSV is in its JSON at the same
# place, over every variant and a batch (tests/json_csv.py, issue 33).
. "${srcdir:-.}/tests/lib.sh"
if [ -z "${PYTHON3:-}" ] || [ "$PYTHON3" = no ]; then
	echo "python3 is needed to read the JSON"; exit 77
fi
check "JSON carries every number of the CSV" \
	"$PYTHON3" "$srcdir/tests/json_csv.py" "$ATTN_TRACE" "$srcdir"
finish
