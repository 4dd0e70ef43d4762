#!/bin/sh
# images.sh: the shipped toy images (data/images/, data/README.md):
# data/images/make-images.py gives the shipped bytes again; the set is
# what the README says (tests/images_check.py, a reader of its own); and
# attn-trace reads every image.
. "$srcdir/tests/lib.sh"
if [ -z "${PYTHON3:-}" ] || [ "$PYTHON3" = no ]; then
	echo "python3 is needed to make the images"; exit 77
fi
d="$srcdir/data/images"
check "make-images.py runs" "$PYTHON3" "$d/make-images.py" "$TMP/gen"
check "make-images.py gives the shipped bytes" \
	diff -r -x make-images.py "$d" "$TMP/gen"
check "a second run gives the same bytes" sh -c \
	"'$PYTHON3' '$d/make-images.py' '$TMP/gen2' && diff -r '$TMP/gen' '$TMP/gen2'"
check "the set is as documented (images_check.py)" \
	"$PYTHON3" "$srcdir/tests/images_check.py" "$d"
n=0
for f in "$d"/train/*.pgm "$d"/heldout/*.pgm; do
	"$ATTN_TRACE" image --ascii "$f" >"$TMP/out" 2>"$TMP/err" ||
		{ not_ok "attn-trace image $f: $(cat "$TMP/err")"; continue; }
	head -n 1 "$TMP/out" | grep -qx "$f: 6x6 pixels, P2, maxval 255" ||
		{ not_ok "attn-trace image $f: heading $(head -n 1 "$TMP/out")"; continue; }
	n=$((n + 1))
done
check "attn-trace image reads all 64 shipped images ($n)" test "$n" -eq 64
finish
