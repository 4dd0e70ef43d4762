#!/bin/sh
# caption.sh: attn-trace caption, soft attention over an image's cells
# (src/caption.c): every number of its JSON against PyTorch
# (tests/caption_torch_check.py) on a random image model and on the
# built-in caption4 when it exists, and the refusals: an image of the
# wrong size, a model that is not an image model, an unknown caption word,
# each with its message, exit 1 and nothing on standard output; the
# built-in caption4 rebuilt byte for byte, and its claim counted again by
# tests/caption_claim.py from the JSON traces.
. "$srcdir/tests/lib.sh"
AT=$ATTN_TRACE
top=$(cd "$srcdir" && pwd)
model=$top/tests/data/caption-random.model
img=$top/data/images

torch_python_find
if [ -n "$torch_python" ]; then
	check "caption-random.model: every number agrees with torch" \
		"$torch_python" "$top/tests/caption_torch_check.py" "$AT" \
		"$model" "$img/train/bar-x0.pgm" "$img/train/box-y1-x1.pgm" \
		"$img/heldout/dot-y0-x0.pgm"
	check "caption-random.model: the gradient paths to each cell agree with torch autograd" \
		"$torch_python" "$top/tests/caption_gradpath_check.py" "$AT" \
		"$model" "$img/train/box-y1-x1.pgm"
	check "caption4: the gradient paths to each cell agree with torch autograd" \
		"$torch_python" "$top/tests/caption_gradpath_check.py" "$AT" \
		caption4 "$img/train/bar-x0.pgm"
	check "caption4 (built in): every number agrees with torch" \
		"$torch_python" "$top/tests/caption_torch_check.py" "$AT" \
		"$top/data/caption4.model" "$img/heldout/bar-y4.pgm"
else
	echo "no Python here can import torch: the torch checks are skipped"
fi

run_cmd caption --model="$model" "$img/train/bar-x0.pgm"
expect_status 0 "caption: text"
check "caption: the header names the patch encoder and the nine cells" \
	grep -q '^source: top-left top top-right left middle right bottom-left bottom bottom-right (9 cells)$' "$TMP/out"
check "caption: the annotation of the top-left cell" \
	grep -q '^the annotation of the top-left cell h_1 = tanh(W_patch·patch_1 + b_patch + pos_1)' "$TMP/out"

# the built-in model, rebuilt byte for byte by its recipe (Makefile.am's
# caption-model), in about a second of one core
run_cmd caption --captions="$img/train.captions" \
	--heldout="$img/heldout.captions" --scorer=dot,general --epochs=3000 \
	--seed=1 -o "$TMP/caption4.model"
expect_status 0 "caption --captions: training caption4"
check "data/caption4.model is rebuilt byte for byte" \
	cmp -s "$TMP/caption4.model" "$top/data/caption4.model"
for sc in dot general; do
	check "caption4, $sc: every training caption exact, every held-out place word on the object (caption_claim.py)" \
		"$PYTHON3" "$top/tests/caption_claim.py" "$AT" \
		"$top/data/caption4.model" "$img/train.captions" \
		"$img/heldout.captions" $sc
done

# --format=weights on a hand-set model: W_patch = W_init = 0, b = P = 0,
# so every h_i = 0, every score 0 and every weight 1/9 = 0.11: each
# pixel of the weights at level round(4/9) = 0, blank; the image's one
# white pixel (row 2, column 3) a full block
sed -e '/^\[patch\.W\]/,/^$/{/^\[/!s/[-0-9.][-0-9.]*/0/g}' \
    -e '/^\[patch\.P\]/,/^$/{/^\[/!s/[-0-9.][-0-9.]*/0/g}' \
    -e '/^\[patch\.b\]/,/^$/{/^\[/!s/[-0-9.][-0-9.]*/0/g}' \
    -e '/^\[patch\.W_init\]/,/^$/{/^\[/!s/[-0-9.][-0-9.]*/0/g}' \
	"$model" >"$TMP/flat.model"
printf 'P2\n6 6\n1\n0 0 0 0 0 0\n0 0 0 0 0 0\n0 0 0 1 0 0\n0 0 0 0 0 0\n0 0 0 0 0 0\n0 0 0 0 0 0\n' >"$TMP/one.pgm"
LC_ALL=C run_cmd caption --model="$TMP/flat.model" --format=weights \
	--target=a "$TMP/one.pgm"
expect_status 0 "caption --format=weights"
check "weights: row 3 shows the white pixel, blank weights and 0.11 each" \
	grep -qx '        ##                     0.11  0.11  0.11' "$TMP/out"
check "weights: two steps, 'a' then </s>" \
	test "$(grep -c '^t=[12]: \(a\|</s>\)  (the image' "$TMP/out")" -eq 2

# --format=svg: well-formed, a panel a step with its nine cells, each
# weight written in its cell (the same flat model: 0.11 everywhere)
run_cmd caption --model="$TMP/flat.model" --format=svg --target=a \
	"$TMP/one.pgm"
expect_status 0 "caption --format=svg"
check "svg: well-formed, 2 steps of 9 cells, each 0.11" \
	"$PYTHON3" -c 'import sys, xml.etree.ElementTree as E
ns = "{http://www.w3.org/2000/svg}"
root = E.parse(sys.argv[1]).getroot()
cells = [r for r in root.iter(ns + "rect") if r.get("class") == "cell"]
nums = [t.text for t in root.iter(ns + "text") if t.text == "0.11"]
words = [t.text for t in root.iter(ns + "text") if t.get("class") == "word"]
sys.exit(not (len(cells) == 18 and len(nums) == 18 and
              words == ["t=1: a", "t=2: </s>"]))' "$TMP/out"

cd "$TMP" || exit 99
printf 'P2\n2 2\n1\n0 1\n1 0\n' >small.pgm
run_cmd caption --model="$model" small.pgm
expect_status 1 "caption: a 2x2 image"
expect_err "small.pgm: expected an image of 6×6 pixels to caption, found 2×2" \
	"caption: a 2x2 image is refused with its size"
check "caption: nothing on stdout after a refusal" test ! -s out
run_cmd caption --model=toy4 "$img/train/bar-x0.pgm"
expect_status 1 "caption: a word model"
expect_err "expected an image model" "caption: toy4 is not an image model"
run_cmd caption --model="$model" --target="a cat" "$img/train/bar-x0.pgm"
expect_status 1 "caption: an unknown caption word"
expect_err "cat" "caption: the unknown word is named"
run_cmd caption --model="$model" --format=jsn "$img/train/bar-x0.pgm"
expect_status 2 "caption: an unknown format"
expect_err "did you mean 'json'" "caption: --format=jsn suggests json"
finish
