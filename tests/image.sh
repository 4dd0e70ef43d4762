#!/bin/sh
# image.sh: attn-trace image: the blocks (UTF-8 and ASCII) and the values
# of small images worked out by hand, the SVG (its pixels' grays, legible
# 1920 px wide), and bad files and command lines: the place of the fault,
# exit 1 or 2, and nothing written.
. "$srcdir/tests/lib.sh"
AT=$ATTN_TRACE
top=$(cd "$srcdir" && pwd)
cd "$TMP" || exit 99
# 0 1 2 3 4 0 of maxval 4 are the quarters 0, .25, .5, .75, 1, 0
printf 'P2\n# quarters\n3 2\n4\n0 1 2\n3 4 0\n' >q.pgm
cat >want <<'EOF2'
q.pgm: 3x2 pixels, P2, maxval 4
     1 2 3
   +------+
 1 |  ..::|
 2 |++##  |
   +------+
each pixel shaded to the nearest quarter, 0 black to 1 white (the maxval):
   "  " 0  ".." 0.25  "::" 0.5  "++" 0.75  "##" 1

values (the file's numbers / maxval 4):
       1    2    3
 1  0.00 0.25 0.50
 2  0.75 1.00 0.00
EOF2
run_cmd image --ascii --values q.pgm
expect_status 0 "image --ascii --values"
check "image --ascii --values: blocks and values as worked by hand" \
	diff want out
head -n 8 want >want.blocks
LC_ALL=C run_cmd image q.pgm
check "image: ASCII where the locale is not UTF-8" diff want.blocks out
LC_ALL=C.UTF-8 run_cmd image q.pgm
check "image: UTF-8 shades and box drawing in a UTF-8 locale" \
	grep -qx ' 1 │  ░░▒▒│' out
check "image: the UTF-8 heading" grep -qx 'q.pgm: 3×2 pixels, P2, maxval 4' out
# halves round up: 1/8 is half a quarter (level 1), 3/8 one and a half
# (level 2); in 16 bits 8191/65535 is below 1/8 (level 0), 8192/65535
# above it
printf 'P2 2 1 8 1 3\n' >h.pgm
run_cmd image --ascii h.pgm
check "image: 1/8 and 3/8 round up to .. and ::" grep -qx ' 1 |..::|' out
printf 'P5 2 1 65535\n\037\377\040\000' >w.pgm
run_cmd image --ascii w.pgm
check "image: 8191/65535 is blank, 8192/65535 is .." \
	grep -qx ' 1 |  ..|' out
# --- SVG ---
printf 'P2\n2 1\n255\n204 51\n' >g.pgm
run_cmd image -o g.svg g.pgm
expect_status 0 "image -o g.svg"
check "image -o: nothing on standard output" test ! -s out
check "image -o: 204 is #cccccc, 51 #333333" sh -c \
	"grep -q 'fill=\"#cccccc\"' g.svg && grep -q 'fill=\"#333333\"' g.svg"
check "image -o: the values in the pixels, dark text on light" sh -c \
	"grep -q 'fill=\"#000000\">0.80</text>' g.svg && grep -q 'fill=\"#ffffff\">0.20</text>' g.svg"
run_cmd image -o - g.pgm
check "image -o -: the SVG on standard output" cmp -s out g.svg
if [ -n "${PYTHON3:-}" ] && [ "$PYTHON3" != no ]; then
	for size in "1 1" "6 6" "9 9" "10 10" "32 32" "32 1" "1 32"; do
		# shellcheck disable=SC2086
		set -- $size
		{ echo "P2 $1 $2 9"; i=0; while [ $i -lt $(($1 * $2)) ]; do
			echo $((i % 10)); i=$((i + 1)); done; } >s.pgm
		"$AT" image -o s.svg s.pgm
		check "image -o, $1x$2: 20 px at 1920 wide, no overlap" \
			"$PYTHON3" "$top/tests/svg_fontsize.py" --strict s.svg
	done
	cp q.pgm a-rather-long-name-for-an-image-of-three-by-two.pgm
	"$AT" image -o l.svg a-rather-long-name-for-an-image-of-three-by-two.pgm
	check "image -o, a long name: 20 px at 1920 wide" \
		"$PYTHON3" "$top/tests/svg_fontsize.py" --strict l.svg
fi
# --- bad files: the place, exit 1, nothing written ---
printf 'P6 1 1 255\n\0\0\0' >c.ppm
run_cmd image -o c.svg c.ppm
expect_status 1 "image: a colour PPM"
expect_err "attn-trace: c.ppm:1:1: expected P2 or P5, the magic number of a grayscale PGM image, found P6 (a PPM colour image)" \
	"image: a PPM is refused at 1:1"
check "image: nothing written for a bad file" test ! -e c.svg
check "image: no temporary file left" sh -c "! ls -A | grep -q '^\.'"
printf 'P2\n40 6\n255\n' >big.pgm
run_cmd image big.pgm
expect_status 1 "image: 40 pixels wide"
expect_err "big.pgm:2:1: expected the width from 1 to 32 (attn-trace reads images of at most 32×32 pixels), found 40" \
	"image: too wide, with its place"
check "image: nothing on standard output for a bad file" test ! -s out
printf 'P5 2 2 255\n\1\2\3' >t.pgm
run_cmd image -o t.svg t.pgm
expect_status 1 "image: a truncated P5"
expect_err "t.pgm: byte 15: expected pixel 4 of 4 (row 2, column 2), found the end of the file" \
	"image: a truncated P5 names the byte"
check "image: nothing written for a truncated file" test ! -e t.svg
printf 'P2 2 1 9\n3 10\n' >v.pgm
run_cmd image v.pgm
expect_err "v.pgm:2:3: expected a value from 0 to the maxval 9 for pixel 2 of 2 (row 1, column 2), found 10" \
	"image: a value above the maxval"
run_cmd image missing.pgm
expect_status 1 "image: a missing file"
printf 'P2 1 1 1 1' | "$AT" image --ascii - >out 2>err
check "image -: reads standard input" \
	grep -qx 'standard input: 1x1 pixels, P2, maxval 1' out
# --- command lines ---
run_cmd image
expect_status 2 "image without a file"
expect_err "'image' needs the PGM file to show" "image without a file: says so"
run_cmd image q.pgm g.pgm
expect_status 2 "image with two files"
run_cmd image -o q.pgm q.pgm
expect_status 2 "image -o onto its input"
check "image -o onto its input: the input kept" grep -q quarters q.pgm
run_cmd image --valuse q.pgm
expect_status 2 "image --valuse"
expect_err "did you mean '--values'" "image --valuse: did you mean"
run_cmd image --help
expect_status 0 "image --help"
check "image --help: usage" grep -q '^Usage: attn-trace image' out
check "options image lists --output=, --ascii and --values" sh -c \
	"'$AT' options image | tr '\n' ' ' | grep -q -- '--output= .*--ascii .*--values'"
finish
