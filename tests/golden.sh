#!/bin/sh
# golden.sh: the text format, byte for byte.  The golden files pin the
# layout; the numbers in them are checked by check_trace and ref-compare.
# After a deliberate format change, regenerate them with
#   srcdir=. ATTN_TRACE=src/attn-trace sh tests/golden.sh --update
# and read the diff before committing it.
. "$srcdir/tests/lib.sh"
tiny=tests/data/tiny.model
case $ATTN_TRACE in /*) ;; *) ATTN_TRACE=$(pwd)/$ATTN_TRACE ;; esac

# golden NAME ARGS...: compares attn-trace ARGS with tests/golden/NAME
golden() {
	name=$1
	shift
	want="$srcdir/tests/golden/$name"
	# from the source tree, so that a model path prints the same anywhere
	(cd "$srcdir" && "$ATTN_TRACE" "$@") >"$TMP/$name" 2>"$TMP/err"
	if [ "$update" = yes ]; then
		cp "$TMP/$name" "$want"
		ok "updated $name"
	elif diff -u "$want" "$TMP/$name" >"$TMP/diff"; then
		ok "$name"
	else
		cat "$TMP/diff"
		not_ok "$name differs from the golden file"
	fi
}

update=no
[ "${1:-}" = --update ] && update=yes

golden dot-je.txt trace je suis étudiant
# the three scorers the file was made with, named, so that a new scorer
# adds a golden file of its own instead of changing this one
golden all-zone-target.txt trace --scorer=dot,general,concat \
	--target="european economic area" zone économique européenne
golden scaled-zone-target.txt trace --scorer=scaled \
	--target="european economic area" zone économique européenne
golden general-p2.txt trace --model="$tiny" --scorer=general \
	--precision=2 un deux trois
golden model.txt model
# an image's trace in Markdown: the patch encoder's table, the cells
golden caption-markdown.md trace --model=caption4 --format=markdown \
	--target="a bar on the left" data/images/train/bar-x0.pgm
# the additive scorer: U_a·h_i once, at the first step
golden additive-tiny.txt trace --model="$tiny" --scorer=additive \
	--target="one two" un deux trois
# the location-aware scorer: the convolution of α_{t-1}, term by term
golden location-aware-tiny.txt trace --model="$tiny" --scorer=location-aware \
	--target="one two" un deux trois
# Bahdanau's architecture: both encoder directions, s_0, the query of each
# step, the context entering the RNN, the readout
golden bahdanau-concat.txt trace --model=tests/data/bahdanau.model \
	--scorer=concat --target="one two" un deux trois
# the local windows (doc/model.md): local-m's p_t = min(t, n) and its
# window; local-p's p_t term by term, align, the Gaussian factors and the
# sum below 1, in both architectures; the model's [local-p.*] in JSON
localp=tests/data/localp.model
golden local-m-tiny.txt trace --model="$localp" --scorer=general \
	--window=local-m --target="one two three" un deux trois deux un
golden local-p-tiny.txt trace --model="$localp" --window=local-p \
	--window-size=1 --target="one two three" un deux trois deux un
golden local-p-bahdanau.txt trace --model=tests/data/localp-bahdanau.model \
	--scorer=additive --window=local-p --window-size=2 --target="one two" \
	un deux trois deux un
golden local-p-model.json model --format=json --model="$localp"
# the fixed window (no attention): every step's weights (0, ..., 0, 1),
# its window n .. n and p_t = n said in words, the header without D
golden fixed-tiny.txt trace --model="$tiny" --scorer=general \
	--window=fixed --target="one two three" un deux trois
# attn-trace self on the built-in self4 (doc/model.md)
golden self-zone.txt self zone économique européenne
golden self-causal-je.txt self --causal je suis étudiant
golden self-cross.json self --format=json --target="european economic area" \
	zone économique européenne
# hard attention (src/selection_hard.c): u, cumsum, l and both contexts
golden hard-sample-je.txt trace --hard --seed=1 --scorer=general je suis étudiant
golden hard-exact-target.txt trace --hard --seed=3 --stage=weighted-sum \
	--target="i am a student" --scorer=concat je suis étudiant
golden hard-gradient-bahdanau.txt trace --arch=bahdanau --hard --seed=9 \
	--gradient --samples=5 --stage=weighted-sum --target="i am a student" \
	je suis étudiant
# the gradient paths of the last step (their numbers: tests/gradpath.sh)
golden gradient-paths-bahdanau.txt trace --arch=bahdanau --stage=output \
	--gradient-paths --precision=6 --target="i am a student" je suis étudiant
golden hard-argmax-bahdanau.md trace --arch=bahdanau --hard=argmax \
	--format=markdown je suis étudiant
# hard attention through local-p, whose weights sum to less than 1: Σa,
# π = a / Σa, the draw from π's cumulative sums, the exact view under π (a
# Jensen gap >= 0) and the learning signal's parts on p_t (the numbers
# checked by tests/hard_torch_check.py, the same seed and sentence)
golden hard-local-p.txt trace --model=data/localp4.model --window=local-p \
	--hard --seed=1 --gradient --scorer=dot \
	--target="european economic area" zone économique européenne
finish
