#!/bin/sh
# deck-browser.sh: attn-trace deck in headless Chromium
# (tests/deck_check.py): keys, counter, text sizes, overlaps, the lines'
# animation, the numbers, without scripts and printed; for 1, 3, 8 and
# 12 words and every variant.  Skipped (77) without Chromium or Python.
# DECK_SHOTS=DIR keeps screenshots of a few slides there.
. "$srcdir/tests/lib.sh"
if [ -z "${PYTHON3:-}" ] || [ "$PYTHON3" = no ]; then
	echo "python3 is needed to drive the browser"; exit 77
fi
browser=$(find_chromium)
if [ -z "$browser" ]; then
	echo "no Chromium (set CHROMIUM, or apt-get install chromium)"; exit 77
fi
"$PYTHON3" "$srcdir/tests/deck_check.py" "$ATTN_TRACE" "$browser" \
	${DECK_SHOTS:+"$DECK_SHOTS"}
