#!/bin/sh
# ref-compare.sh: every number of the JSON trace against an independent
# Python implementation of the same model (tests/ref/attn_ref.py).
. "$srcdir/tests/lib.sh"
if [ -z "${PYTHON3:-}" ] || [ "$PYTHON3" = no ]; then
	echo "python3 is needed for the reference"; exit 77
fi
check "toy4.model (trained, built in) agrees with the reference" \
	"$PYTHON3" "$srcdir/tests/ref_compare.py" "$ATTN_TRACE" "$srcdir/data/toy4.model"
check "handset4.model (hand-set, built in) agrees with the reference" \
	"$PYTHON3" "$srcdir/tests/ref_compare.py" "$ATTN_TRACE" "$srcdir/data/handset4.model"
check "bahdanau4.model (bahdanau, trained, built in) agrees with the reference" \
	"$PYTHON3" "$srcdir/tests/ref_compare.py" "$ATTN_TRACE" "$srcdir/data/bahdanau4.model"
check "bahdanau.model (the bahdanau architecture) agrees with the reference" \
	"$PYTHON3" "$srcdir/tests/ref_compare.py" "$ATTN_TRACE" "$srcdir/tests/data/bahdanau.model"
check "tiny.model agrees with the reference" \
	"$PYTHON3" "$srcdir/tests/ref_compare.py" "$ATTN_TRACE" "$srcdir/tests/data/tiny.model"
check "feed.model (input feeding) agrees with the reference" \
	"$PYTHON3" "$srcdir/tests/ref_compare.py" "$ATTN_TRACE" "$srcdir/tests/data/feed.model"
# the fixed window (no attention): weight 1 on h_n at every step
for m in data/toy4.model tests/data/bahdanau.model tests/data/feed.model; do
	check "$m through the fixed window agrees with the reference" \
		"$PYTHON3" "$srcdir/tests/ref_compare.py" "$ATTN_TRACE" "$srcdir/$m" fixed
done
check "self4.model: attn-trace self agrees with tests/ref/self_ref.py" \
	"$PYTHON3" "$srcdir/tests/ref/self_ref.py" "$ATTN_TRACE" "$srcdir/data/self4.model"
check "self6.model: attn-trace self agrees with tests/ref/self_ref.py" \
	"$PYTHON3" "$srcdir/tests/ref/self_ref.py" "$ATTN_TRACE" "$srcdir/tests/data/self6.model"
finish
