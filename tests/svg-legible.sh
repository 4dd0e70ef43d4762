#!/bin/sh
# svg-legible.sh: the step diagram (attn-trace diagram) is legible from the
# back row (doc/heatmap.md, "Legible from the back row"): shown 1920 px
# wide, no text under 20 px, subscripts set as subscripts, no text turned
# upright, no two texts meeting; weight lines never thinner than 3 px.  For
# 1, 3, 8 and 12 source words, the first and the last step, and every
# variant: global, local-m, local-p, hard, input feeding, Bahdanau.  The
# measure is worked out from the SVG's viewBox and font sizes by
# tests/svg_fontsize.py, with no browser.  The heatmap (every variant, one
# scorer and all), self-attention's heatmap and its line diagram are held
# to the size (their column labels turn 45 degrees).
. "$srcdir/tests/lib.sh"
if [ -z "${PYTHON3:-}" ] || [ "$PYTHON3" = no ]; then
	echo "python3 is needed to parse the SVG"; exit 77
fi
py="$srcdir/tests/svg_fontsize.py"
S1="je"
S3="je suis étudiant"
S8="je deviens ingénieur agricole banque centrale politique sociale"
S12="il devient médecin zone économique européenne politique sociale région agricole banque centrale"
k=0
for n in 1 3 8 12; do
	eval "s=\$S$n"
	for opt in "" "--window=local-m" "--model=localp4 --window=local-p" \
		"--hard" "--input-feeding" "--arch=bahdanau"; do
		k=$((k + 1))
		mkdir "$TMP/$k"
		# shellcheck disable=SC2086
		"$ATTN_TRACE" diagram $opt --all-steps -o "$TMP/$k/" $s \
			2>"$TMP/err"
		last=$(ls "$TMP/$k" | sed 's/step-//; s/\.svg//' | sort -n | tail -1)
		for f in "$TMP/$k/step-1.svg" "$TMP/$k/step-$last.svg"; do
			check "diagram ${opt:-global}, $n words, $(basename "$f" .svg): 20 px at 1920 wide, subscripts, level, no overlap" \
				"$PYTHON3" "$py" --strict "$f"
			check "diagram ${opt:-global}, $n words, $(basename "$f" .svg): weight lines 3 px or more" \
				"$PYTHON3" -c "import re,sys; w=[float(x) for x in re.findall(r'class=\"weight\"[^>]*stroke-width=\"([0-9.]+)\"', open(sys.argv[1]).read())]; sys.exit(not w or min(w) < 3)" "$f"
		done
	done
done
# the heatmap: 20 px at 1920 wide for every variant at every length (the
# title broken over lines as the sentence grows); its column labels turn
# 45 degrees, so it is held to the size, as self-attention's are.
# --scorer=all in one file lays its panels out for a 16:9 slide, in
# shades when its numbers would be under 20 px there (tests/svg-browser.sh
# measures it fitted into 1920x1080 too)
for n in 1 3 8 12; do
	eval "s=\$S$n"
	for opt in "" "--arch=all" "--scorer=all" "--window=local-m" \
		"--model=localp4 --window=local-p" "--hard" "--input-feeding"; do
		# shellcheck disable=SC2086
		"$ATTN_TRACE" heatmap $opt -o "$TMP/heat.svg" $s 2>"$TMP/err"
		check "heatmap ${opt:-dot}, $n words: 20 px at 1920 wide" \
			"$PYTHON3" "$py" "$TMP/heat.svg"
	done
done
# a long title breaks over lines rather than widen the picture
"$ATTN_TRACE" heatmap -o "$TMP/heat.svg" $S12
check "heatmap, 12 words: the title on two lines" \
	sh -c "test \$(grep -c 'class=\"title\"' '$TMP/heat.svg') -eq 2"
# self-attention's pictures: 20 px at 1920 wide, and the line diagram of
# a short sentence nearer 16:9 than a strip (its heads one above the other)
for s in "je" "je suis étudiant"; do
	for opt in "--format=svg" "--format=svg --causal" \
		"--format=diagram-svg" "--format=diagram-svg --causal"; do
		# shellcheck disable=SC2086
		"$ATTN_TRACE" self $opt -o "$TMP/self.svg" $s
		check "self $opt, $s: 20 px at 1920 wide" \
			"$PYTHON3" "$py" "$TMP/self.svg"
	done
	check "self --format=diagram-svg, $s: between 4:3 and 2:1, not a strip" \
		"$PYTHON3" -c "import re,sys; w,h=map(float,re.search(r'viewBox=\"0 0 ([0-9.]+) ([0-9.]+)\"', open(sys.argv[1]).read()).groups()); sys.exit(not 4/3 <= w/h <= 2)" "$TMP/self.svg"
done
# the pictures of the image models, the gradient paths and accuracy
# (--strict: 20 px fitted into 1920x1080, subscripts set, no overlap):
# caption and glimpse for every image of data/images, the gradient
# paths with one model (two scorers) and with two models, and the
# accuracy chart of two models
img="$srcdir/data/images"
for f in "$img"/train/*.pgm "$img"/heldout/*.pgm; do
	b=$(basename "$f" .pgm)
	"$ATTN_TRACE" caption --format=svg "$f" >"$TMP/cap.svg" 2>"$TMP/err"
	check "caption --format=svg, $b: 20 px fitted, subscripts, no overlap" \
		"$PYTHON3" "$py" --strict "$TMP/cap.svg"
	"$ATTN_TRACE" glimpse --format=svg -o "$TMP/gl.svg" "$f" >/dev/null \
		2>"$TMP/err"
	check "glimpse --format=svg, $b: 20 px fitted, subscripts, no overlap" \
		"$PYTHON3" "$py" --strict "$TMP/gl.svg"
done
"$ATTN_TRACE" heatmap --gradient-paths --scorer=dot,general \
	--target="european economic area" -o "$TMP/gp.svg" \
	zone économique européenne 2>"$TMP/err"
check "heatmap --gradient-paths, one model: 20 px fitted, no overlap" \
	"$PYTHON3" "$py" --strict "$TMP/gp.svg"
"$ATTN_TRACE" heatmap --gradient-paths --scorer=general \
	--model=longattn8 --window=fixed --model=longfixed8 \
	--target="the cow likes the cat and the grey hen sings" \
	-o "$TMP/gp.svg" la vache aime le chat et la poule grise chante \
	2>"$TMP/err"
check "heatmap --gradient-paths, two models: 20 px fitted, no overlap" \
	"$PYTHON3" "$py" --strict "$TMP/gp.svg"
"$ATTN_TRACE" accuracy --pairs="$srcdir/data/long-heldout.pairs" \
	--model=longattn8 --window=fixed --model=longfixed8 --format=svg \
	-o "$TMP/acc.svg" 2>"$TMP/err"
check "accuracy --format=svg, two models: 20 px fitted, no overlap" \
	"$PYTHON3" "$py" --strict "$TMP/acc.svg"
# the floor is the rule: a picture whose smallest text is 13 px at 1280
# wide (19.5 px shown 1920 wide) fails
cat >"$TMP/small.svg" <<'SVG'
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1280 720"><text x="0" y="20" font-size="13">+0.5</text></svg>
SVG
check "svg_fontsize.py refuses 13 px at 1280 wide" \
	sh -c "! '$PYTHON3' '$py' '$TMP/small.svg' >/dev/null 2>&1"
cat >"$TMP/sub.svg" <<'SVG'
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1280 720" font-size="24"><text x="0" y="30">a<tspan font-size="75%">1</tspan></text></svg>
SVG
check "svg_fontsize.py: a 75% subscript of 24 px at 1280 wide is 27 px" \
	sh -c "'$PYTHON3' '$py' '$TMP/sub.svg' | grep -q 'width 27.0 px'"
finish
