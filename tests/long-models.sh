#!/bin/sh
# long-models.sh: the built-in models of the long corpus (data/README.md,
# "long.pairs"): make long-models's commands (LONG_TRAIN_FLAGS and
# LONG_EPOCHS in Makefile.am) rebuild data/longattn8.model (attention) and
# data/longfixed8.model (no attention: --window=fixed) byte for byte, and
# on data/long-heldout.pairs, which training never sees, the baseline's
# word accuracy falls as sentences grow and attention's holds
# (tests/long_claim.py, counted from per-pair greedy traces; the
# thresholds are written there).
. "$srcdir/tests/lib.sh"
long_flags="--scorer=general --seed=1 --optimizer=adam --lr=0.01 --weight-decay=0.2 --clip=5 --embedding=8 --hidden=8 --attention=8"
# shellcheck disable=SC2086
run_cmd train --pairs="$srcdir/data/long.pairs" \
	--heldout="$srcdir/data/long-heldout.pairs" -o "$TMP/longattn8.model" \
	-q --epochs=1000 --align-weight=0.3 $long_flags
expect_status 0 "training longattn8"
check "data/longattn8.model is rebuilt byte for byte" \
	cmp -s "$TMP/longattn8.model" "$srcdir/data/longattn8.model"
# shellcheck disable=SC2086
run_cmd train --pairs="$srcdir/data/long.pairs" \
	--heldout="$srcdir/data/long-heldout.pairs" -o "$TMP/longfixed8.model" \
	-q --epochs=1000 --window=fixed $long_flags
expect_status 0 "training longfixed8"
check "data/longfixed8.model is rebuilt byte for byte" \
	cmp -s "$TMP/longfixed8.model" "$srcdir/data/longfixed8.model"
"$ATTN_TRACE" model --model=longattn8 --format=json | grep -v '"model":' \
	>"$TMP/builtin.json"
"$ATTN_TRACE" model --model="$srcdir/data/longattn8.model" --format=json |
	grep -v '"model":' >"$TMP/file.json"
check "the built-in longattn8 is data/longattn8.model, weight for weight" \
	cmp -s "$TMP/builtin.json" "$TMP/file.json"
if [ -z "${PYTHON3:-}" ] || [ "$PYTHON3" = no ]; then
	echo "python3 is needed to count the claim"; finish; exit
fi
# the claim: greedy traces of the held-out sources, counted by Python
grep -v '^#' "$srcdir/data/long-heldout.pairs" | sed 's/|||.*//' \
	>"$TMP/held.src"
"$ATTN_TRACE" trace --batch="$TMP/held.src" --format=jsonl --quiet \
	--model=longattn8 --scorer=general >"$TMP/attn.jsonl"
"$ATTN_TRACE" trace --batch="$TMP/held.src" --format=jsonl --quiet \
	--model=longfixed8 --scorer=general --window=fixed >"$TMP/fixed.jsonl"
check "held out: without attention accuracy falls with length, with it holds" \
	"$PYTHON3" "$srcdir/tests/long_claim.py" \
	"$srcdir/data/long-heldout.pairs" "$TMP/attn.jsonl" "$TMP/fixed.jsonl"
finish
