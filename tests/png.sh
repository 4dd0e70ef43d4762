#!/bin/sh
# png.sh: -o FILE.png (issue 27).  Where configure built PNG support
# (ATTN_PNG=yes): every kind of picture as PNG, checked against the SVG of
# the same picture by tests/png_check.py's own PNG reader (the size fitted
# to --png-size, the pixels not blank, the fills and the heatmap's cells
# where the SVG puts them); the same bytes twice; and errors that leave no
# file, nor a temporary one: a missing directory, a full device, a signal
# (SIGXFSZ, from ulimit -f) while the PNG is written, names that are not
# a picture's.  Without it: the clear error, exit 1, no file, then skip.
. "$srcdir/tests/lib.sh"
AT=$ATTN_TRACE
top=$(cd "$srcdir" && pwd)
cd "$TMP" || exit 99
S="je suis étudiant"
# under the sanitizers, fontconfig's memory for the life of the process
# is not a leak of attn-trace's (tests/png-lsan.supp)
LSAN_OPTIONS="suppressions=$top/tests/png-lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
export LSAN_OPTIONS

# no_file WHAT: nothing named x.png, nor a temporary .x.png.*, here or in
# the directories below
no_file() {
	left=$(find . -name 'x.png' -o -name '.x.png.*' -o -name '.step-*')
	if [ -z "$left" ]; then ok "$1: no file left"; else
		not_ok "$1: left $left"; fi
}

# the names refused in every build, before anything is written
run_cmd trace -o x.png
expect_status 1 "trace -o x.png (text is not a picture)"
expect_err "x.png: expected a picture for a .png file, found text" \
	"trace -o x.png: the message"
no_file "trace -o x.png"
run_cmd heatmap -o x.png.gz
expect_status 1 "heatmap -o x.png.gz"
expect_err "found .png.gz (a PNG is compressed already)" \
	"heatmap -o x.png.gz: the message"
run_cmd heatmap -o x.jpg
expect_status 1 "heatmap -o x.jpg"
expect_err "x.jpg: expected FILE.svg or FILE.png, found .jpg" \
	"heatmap -o x.jpg: the message"
check "heatmap -o x.jpg: no file" test ! -e x.jpg
run_cmd accuracy --pairs="$top/data/long-heldout.pairs" --model=longattn8 \
	-o x.png
expect_status 1 "accuracy -o x.png without --format=svg"
no_file "accuracy -o x.png"
for bad in 0 15 8193 10x 640x 640x9 x360 12a 640x360x2; do
	run_cmd heatmap --png-size="$bad" -o x.png
	expect_status 2 "--png-size=$bad"
done
expect_err "--png-size expects W or WxH" "--png-size: the message"
run_cmd heatmap --png-size=640 -o x.svg
expect_status 2 "--png-size without -o FILE.png"
expect_err "--png-size sizes a PNG: it needs -o FILE.png" \
	"--png-size without FILE.png: the message"
run_cmd diagram --format=png -o x.svg
expect_status 2 "diagram --format=png -o x.svg"
run_cmd diagram --format=svg -o x.png
expect_status 2 "diagram --format=svg -o x.png"
run_cmd heatmap --help
check "heatmap --help lists --png-size" grep -q -- '--png-size=WxH' out
run_cmd options heatmap
check "completion offers --png-size" grep -qx -- '--png-size=' out

if [ "${ATTN_PNG:-}" != yes ]; then
	run_cmd heatmap -o x.png $S
	expect_status 1 "heatmap -o x.png in a build without PNG"
	expect_err "built without PNG support; build it with ./configure --with-png" \
		"without PNG: the message names the configure option"
	no_file "without PNG"
	mkdir d
	run_cmd diagram --all-steps --format=png -o d/
	expect_status 1 "diagram --all-steps --format=png without PNG"
	check "without PNG: d/ stays empty" test -z "$(ls -A d)"
	finish
	[ "$fail" -eq 0 ] && exit 77 # the PNG checks are skipped
	exit 1
fi

# png_check ARGS...: tests/png_check.py, or a pass when there is no Python
py=${PYTHON3:-no}
png_check() {
	[ "$py" = no ] && return 0
	"$py" "$top/tests/png_check.py" "$@"
}

# kind_at W NAME ARGS...: the picture of ARGS as SVG and as PNG W pixels
# wide, checked against each other, and once more: the same bytes.  A
# picture of many panels needs W large enough for its cells to keep a
# pixel clear of their borders and numbers.
kind_at() {
	w=$1
	name=$2
	shift 2
	"$AT" "$@" -o "$name.svg" 2>/dev/null
	if ! "$AT" "$@" --png-size="$w" -o "$name.png" 2>err; then
		not_ok "$name: $(cat err)"
		return
	fi
	check "$name.png: the size and the pixels of $name.svg" \
		png_check check "$name.png" "$name.svg" "$w" 0
	"$AT" "$@" --png-size="$w" -o "$name-2.png" 2>/dev/null
	check "$name.png: the same bytes twice" cmp -s "$name.png" "$name-2.png"
}
# kind NAME ARGS...: kind_at 360
kind() {
	kind_at 360 "$@"
}
kind heatmap heatmap $S
kind_at 720 heatmap-all heatmap --scorer=all $S
kind heatmap-arch heatmap --arch=all $S
kind heatmap-self heatmap --self --causal $S
kind gradient-paths heatmap --target="i am a student" --gradient-paths $S
kind diagram diagram --step=2 $S
kind self-svg self --format=svg --causal $S
kind self-diagram self --format=diagram-svg --row=3 $S
kind image image "$top/data/images/train/bar-x3.pgm"
kind accuracy accuracy --pairs="$top/data/long-heldout.pairs" \
	--model=longattn8 --window=fixed --model=longfixed8 --format=svg

# the default box, a 1920x1080 slide, and a box of another shape
"$AT" heatmap -o full.png $S
check "heatmap: fitted to 1920x1080 by default" \
	png_check fits full.png heatmap.svg 1920 1080
"$AT" heatmap --png-size=1000x100 -o wide.png $S
check "heatmap --png-size=1000x100: 100 high" \
	png_check check wide.png heatmap.svg 1000 100

# every step of the diagram, as PNG, into a directory made for them
"$AT" diagram --all-steps --format=png --png-size=360 -o steps/ $S
"$AT" diagram --all-steps -o svgs/ $S
n=0
for f in svgs/step-*.svg; do
	b=$(basename "$f" .svg)
	check "diagram --all-steps: $b.png" \
		png_check check "steps/$b.png" "$f" 360 0
	n=$((n + 1))
done
check "diagram --all-steps: a PNG a step ($n), nothing else" \
	test "$(ls steps | grep -c '^step-[0-9]*\.png$')" -eq "$n" -a \
	"$(ls -A steps | wc -l)" -eq "$n"

# errors: nothing written, nothing left, an earlier file kept
run_cmd heatmap -o nodir/x.png $S
expect_status 1 "heatmap -o nodir/x.png"
no_file "a missing directory"
if [ -w /dev/full ]; then
	ln -s /dev/full x.png
	run_cmd heatmap -o x.png $S
	expect_status 1 "heatmap -o x.png, a link to /dev/full"
	expect_err "x.png: No space left on device" "/dev/full: the message"
	rm -f x.png
fi
echo old >x.png
{ (ulimit -f 4; exec "$AT" heatmap -o x.png $S); } 2>/dev/null
st=$?
check "SIGXFSZ while the PNG is written ends the process (status $st)" \
	test "$st" -gt 128
check "SIGXFSZ: the earlier x.png is kept" test "$(cat x.png)" = old
check "SIGXFSZ: no temporary file left" \
	test -z "$(find . -name '.x.png.*')"
rm -f x.png
mkdir ad
{ (ulimit -f 4; exec "$AT" diagram --all-steps --format=png -o ad/ $S); } \
	2>/dev/null
check "SIGXFSZ in --all-steps: nothing left in the directory" \
	test -z "$(ls -A ad)"
finish
