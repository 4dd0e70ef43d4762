#!/bin/sh
# schema.sh: doc/trace.schema.json and doc/model.schema.json validate every
# JSON golden, traces of every variant, a batch's lines and the models, and
# refuse a document with a key missing (tests/schema.py, issue 33).
. "${srcdir:-.}/tests/lib.sh"
py=
for p in /usr/bin/python3 "${PYTHON3:-}"; do
	[ -n "$p" ] && [ "$p" != no ] || continue
	if "$p" -c 'import jsonschema' >/dev/null 2>&1; then py=$p; break; fi
done
if [ -z "$py" ]; then
	echo "a Python with jsonschema (python3-jsonschema) is needed"; exit 77
fi
check "the schemas accept the program's JSON and refuse broken JSON" \
	"$py" "$srcdir/tests/schema.py" "$ATTN_TRACE" "$srcdir"
finish
