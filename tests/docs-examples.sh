#!/bin/sh
# docs-examples.sh: the examples in README.md and doc/*.md ("    $ attn-trace
# ..." blocks) are what the program prints (tests/docs_examples.py).
. "$srcdir/tests/lib.sh"
if [ -z "${PYTHON3:-}" ] || [ "$PYTHON3" = no ]; then
	echo "python3 is needed to read the examples"; exit 77
fi
command -v jq >/dev/null 2>&1 || { echo "jq is needed by an example"; exit 77; }
case $ATTN_TRACE in /*) ;; *) ATTN_TRACE=$PWD/$ATTN_TRACE ;; esac
case $srcdir in /*) ;; *) srcdir=$PWD/$srcdir ;; esac
cd "$TMP" || exit 1 # where no example's file is
check "the examples of README.md and doc/*.md are what attn-trace prints" \
	"$PYTHON3" "$srcdir/tests/docs_examples.py" "$ATTN_TRACE" \
	"$srcdir/README.md" "$srcdir"/doc/*.md
finish
