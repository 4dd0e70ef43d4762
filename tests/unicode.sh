#!/bin/sh
# unicode.sh: words come in normalised to NFC (utf8proc), so a sentence
# typed with a decomposed accent ("e" + U+0301, as some keyboards and macOS
# file names give) traces, batches, trains and loads exactly like the same
# words typed with the composed "é" (U+00E9).
. "${srcdir:-.}/tests/lib.sh"
case $ATTN_TRACE in /*) ;; *) ATTN_TRACE=$PWD/$ATTN_TRACE ;; esac

E=$(printf 'e\314\201')     # e + U+0301 COMBINING ACUTE ACCENT
C=$(printf '\303\251')      # U+00E9, the composed form
decompose() { sed "s/$C/$E/g"; }

# the two spellings are different bytes, or the test would prove nothing
printf 'je suis %studiant\n' "$C" >"$TMP/composed"
decompose <"$TMP/composed" >"$TMP/decomposed"
check "the decomposed sentence differs in bytes" \
	sh -c '! cmp -s "$1" "$2"' sh "$TMP/composed" "$TMP/decomposed"

# same_output WHAT ARGS...: the command with @S@ standing for the composed
# sentence, then for the decomposed one, gives the same bytes and exit 0
same_output() {
	what=$1
	shift
	"$ATTN_TRACE" "$@" "$(cat "$TMP/composed")" >"$TMP/c.out" 2>"$TMP/c.err"
	sc=$?
	"$ATTN_TRACE" "$@" "$(cat "$TMP/decomposed")" >"$TMP/d.out" 2>"$TMP/d.err"
	sd=$?
	if [ $sc -eq 0 ] && [ $sd -eq 0 ] && [ -s "$TMP/c.out" ] &&
	   cmp -s "$TMP/c.out" "$TMP/d.out"; then
		ok "$what"
	else
		not_ok "$what (exit $sc and $sd): $(cat "$TMP/d.err")"
	fi
}
same_output "trace: decomposed = composed" trace
same_output "trace --format=json: decomposed = composed" trace --format=json
same_output "trace --scorer=all --format=csv: decomposed = composed" \
	trace --scorer=all --format=csv

# a batch: sentences and pairs lines
{
	printf 'je suis %studiant\n' "$C"
	printf 'il est m%sdecin ||| he is a doctor\n' "$C"
	printf 'je reste ing%snieur ||| i remain an engineer\n' "$C"
} >"$TMP/c.batch"
decompose <"$TMP/c.batch" >"$TMP/d.batch"
"$ATTN_TRACE" trace --batch="$TMP/c.batch" --format=jsonl >"$TMP/c.jsonl" 2>"$TMP/err"
sc=$?
"$ATTN_TRACE" trace --batch="$TMP/d.batch" --format=jsonl >"$TMP/d.jsonl" 2>"$TMP/err"
sd=$?
if [ $sc -eq 0 ] && [ $sd -eq 0 ] && [ "$(wc -l <"$TMP/c.jsonl")" -eq 3 ] &&
   cmp -s "$TMP/c.jsonl" "$TMP/d.jsonl"; then
	ok "a batch: decomposed lines = composed lines"
else
	not_ok "a batch: exit $sc and $sd: $(cat "$TMP/err")"
fi

# train: the pairs file, then the model's own words.  The two runs are in
# directories of their own so that the file names in the models' headers
# are the same.
mkdir "$TMP/c" "$TMP/d" "$TMP/m"
grep -v '^#' "$srcdir/data/toy.pairs" | head -6 >"$TMP/c/p.pairs"
decompose <"$TMP/c/p.pairs" >"$TMP/d/p.pairs"
for side in c d; do
	(cd "$TMP/$side" &&
	 "$ATTN_TRACE" train --pairs=p.pairs --epochs=3 -o m.model) \
		>"$TMP/$side.train" 2>&1
done
check "train: the pairs files differ in bytes" \
	sh -c '! cmp -s "$1" "$2"' sh "$TMP/c/p.pairs" "$TMP/d/p.pairs"
if [ -s "$TMP/c/m.model" ] && cmp -s "$TMP/c/m.model" "$TMP/d/m.model"; then
	ok "train: decomposed pairs give the model composed pairs give"
else
	not_ok "train: the models differ: $(cat "$TMP/d.train")"
fi

# a model written with decomposed words loads as the composed one
decompose <"$TMP/c/m.model" >"$TMP/m/m.model"
check "the decomposed model differs in bytes" \
	sh -c '! cmp -s "$1" "$2"' sh "$TMP/c/m.model" "$TMP/m/m.model"
(cd "$TMP/c" && "$ATTN_TRACE" trace --model=m.model "je suis $(printf "$C")tudiant") \
	>"$TMP/mc.out" 2>&1
(cd "$TMP/m" && "$ATTN_TRACE" trace --model=m.model "je suis $(printf "$C")tudiant") \
	>"$TMP/md.out" 2>&1
if grep -q . "$TMP/mc.out" && cmp -s "$TMP/mc.out" "$TMP/md.out"; then
	ok "a model's decomposed words trace as its composed ones"
else
	not_ok "a model's decomposed words: $(head -3 "$TMP/md.out")"
fi
finish
