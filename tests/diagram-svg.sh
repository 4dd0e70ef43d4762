#!/bin/sh
# diagram-svg.sh: attn-trace diagram: its command line, its files written
# whole or not at all, the SVG parsed with a real XML parser and its
# numbers compared with the JSON trace, and the picture drawn by headless
# Chromium (skipped without it).
. "$srcdir/tests/lib.sh"
if [ -z "${PYTHON3:-}" ] || [ "$PYTHON3" = no ]; then
	echo "python3 is needed to parse the SVG"; exit 77
fi
check_py="$srcdir/tests/diagram_check.py"
shot="$srcdir/tests/svg-screenshot.sh"

# --- the command line ---
run_cmd diagram --help
expect_status 0 "diagram --help"
check "diagram --help shows the usage" \
	grep -q '^Usage: attn-trace diagram' "$TMP/out"
check "attn-trace --help lists diagram" \
	sh -c "'$ATTN_TRACE' --help | grep -q '^  diagram \[SENTENCE\]'"
run_cmd diagram --scorer=dto
expect_status 2 "diagram: unknown scorer"
expect_err "unknown scorer 'dto'; did you mean 'dot'? expected dot" "diagram: names the scorers, and the one it meant"
run_cmd diagram --scorer=dot,general
expect_status 2 "diagram: one scorer"
expect_err "the diagram draws one scorer's step" "diagram: says why"
run_cmd diagram --step=0
expect_status 2 "diagram: --step=0"
expect_err "--step expects a decoder step from 1" "diagram: --step's range"
run_cmd diagram --frob
expect_status 2 "diagram: unknown option"
expect_err "unknown option '--frob'" "diagram: the unknown option is named"
run_cmd diagram --all-steps
expect_status 2 "diagram: --all-steps without -o"
expect_err "-o DIR names the directory" "diagram: --all-steps asks for -o DIR"
run_cmd diagram --all-steps --step=2 -o "$TMP"
expect_status 2 "diagram: --step and --all-steps"
run_cmd diagram --arch=bahdnau
expect_status 2 "diagram: unknown architecture"
run_cmd diagram zzyzx
expect_status 1 "diagram: an unknown word"

# --- errors leave no file ---
mkdir "$TMP/empty"
run_cmd diagram --step=99 -o "$TMP/empty/s.svg"
expect_status 2 "diagram: a step past the end, a bad option value as self's --row"
expect_err "--step=99: this trace has 5 decoder steps" "diagram: says how many"
check "diagram: no file from a step past the end" \
	sh -c "[ -z \"\$(ls -A '$TMP/empty')\" ]"
run_cmd diagram -o "$TMP/nodir/s.svg"
expect_status 1 "diagram: a directory that does not exist"
run_cmd diagram --all-steps -o "$TMP/nodir/deeper/"
expect_status 1 "diagram --all-steps: a directory whose parent does not exist"
expect_err "No such file or directory" "diagram --all-steps: says so"
run_cmd diagram --all-steps -o "$TMP/newdir/"
expect_status 0 "diagram --all-steps: a directory that does not exist is made"
check "diagram --all-steps: the new directory holds the steps" \
	test "$(ls "$TMP/newdir" | wc -l)" -eq 5
echo old >"$TMP/keep.svg"
run_cmd diagram --step=99 -o "$TMP/keep.svg"
check "diagram: a failed run leaves the old file" grep -qx old "$TMP/keep.svg"

# --- the numbers: every step of both architectures, against the JSON ---
for arch in luong bahdanau; do
	"$ATTN_TRACE" trace --format=json --arch=$arch je suis étudiant \
		>"$TMP/$arch.json"
	mkdir "$TMP/$arch"
	run_cmd diagram --arch=$arch --all-steps -o "$TMP/$arch/" je suis étudiant
	expect_status 0 "diagram --all-steps, $arch"
	n=$(ls "$TMP/$arch" | wc -l)
	steps=$("$PYTHON3" -c "import json,sys; print(len(json.load(open(sys.argv[1]))['runs'][0]['steps']))" "$TMP/$arch.json")
	check "diagram --all-steps, $arch: a file a step ($steps)" [ "$n" -eq "$steps" ]
	t=1
	while [ $t -le "$steps" ]; do
		check "diagram, $arch, step $t: XML whose numbers are the JSON's" \
			"$PYTHON3" "$check_py" svg "$TMP/$arch/step-$t.svg" "$TMP/$arch.json" $t
		t=$((t + 1))
	done
	run_cmd diagram --arch=$arch --step=2 -o "$TMP/$arch-2.svg" je suis étudiant
	check "diagram --step=2, $arch: the same file as --all-steps'" \
		cmp -s "$TMP/$arch-2.svg" "$TMP/$arch/step-2.svg"
done
"$ATTN_TRACE" trace --format=json --scorer=general --target="i am a student" \
	je suis étudiant >"$TMP/g.json"
run_cmd diagram --scorer=general --target="i am a student" --step=3 \
	-o "$TMP/g.svg" je suis étudiant
check "diagram: the scorer and the target are followed" \
	"$PYTHON3" "$check_py" svg "$TMP/g.svg" "$TMP/g.json" 3
run_cmd diagram --step=1
check "diagram: stdout without -o" grep -q '^<svg' "$TMP/out"
run_cmd diagram --step=1 je suis étudiant
cp "$TMP/out" "$TMP/again"
run_cmd diagram --step=1 je suis étudiant
check "diagram: the same bytes twice" cmp -s "$TMP/out" "$TMP/again"

# --- input feeding: h̃_{t-1} drawn entering s_t, every step, against the
# JSON; in the text at 80 columns too ---
"$ATTN_TRACE" trace --format=json --input-feeding je suis étudiant \
	>"$TMP/feed.json"
mkdir "$TMP/feed"
run_cmd diagram --input-feeding --all-steps -o "$TMP/feed/" je suis étudiant
expect_status 0 "diagram --input-feeding --all-steps"
steps=$("$PYTHON3" -c "import json,sys; print(len(json.load(open(sys.argv[1]))['runs'][0]['steps']))" "$TMP/feed.json")
t=1
while [ $t -le "$steps" ]; do
	check "diagram --input-feeding, step $t: h̃_$((t - 1)) and the rest are the JSON's" \
		"$PYTHON3" "$check_py" svg "$TMP/feed/step-$t.svg" "$TMP/feed.json" $t
	t=$((t + 1))
done
check "diagram --input-feeding: the arrow into s_2 is labelled 'input feeding:'" \
	grep -q '>input feeding:</text>' "$TMP/feed/step-2.svg"
check "diagram --input-feeding: the arrow into s_2 is labelled with its formula" \
	grep -q '>s<tspan baseline-shift="sub" font-size="75%">2</tspan> = tanh(W<tspan baseline-shift="sub" font-size="75%">x</tspan>·\[y<tspan baseline-shift="sub" font-size="75%">1</tspan>; h̃<tspan baseline-shift="sub" font-size="75%">1</tspan>\] + W<tspan baseline-shift="sub" font-size="75%">h</tspan>·s<tspan baseline-shift="sub" font-size="75%">1</tspan> + b)' "$TMP/feed/step-2.svg"
LC_ALL=C.UTF-8 run_cmd diagram --input-feeding --format=text --step=2 je suis étudiant
check "diagram --input-feeding --format=text: h̃_1 fed back, then its arrow into s_2" \
	sh -c "grep -A1 '^h̃_1  .*fed back from step 1\$' '$TMP/out' | grep -qx ' └──► s_2 = tanh(W_x·\[y_1; h̃_1\] + W_h·s_1 + b): input feeding'"
check "diagram --input-feeding --format=text: 80 columns" \
	"$PYTHON3" -c "import sys, unicodedata as u; sys.exit(max(sum(not u.combining(c) for c in l.rstrip('\\n')) for l in open(sys.argv[1], encoding='utf-8')) > 80)" "$TMP/out"
run_cmd diagram --format=text --step=2 je suis étudiant
check "diagram without input feeding: no h̃_1 row" \
	sh -c "! grep -q 'input feeding' '$TMP/out'"

# --- doc/diagram.svg, the README's picture, is what the program draws ---
run_cmd diagram
if cmp -s "$TMP/out" "$srcdir/doc/diagram.svg"; then
	ok "doc/diagram.svg is current"
else
	not_ok "doc/diagram.svg is not what 'attn-trace diagram' draws now;" \
		"if the change is meant: attn-trace diagram -o doc/diagram.svg"
fi
LC_ALL=C.UTF-8 run_cmd diagram --format=text
check "diagram --format=text: the stepper's picture" \
	grep -q '┼── s_1$' "$TMP/out"
run_cmd diagram --format=text --ascii --width=120 --step=2
check "diagram --format=text --ascii: ASCII" grep -q '+-- s_2$' "$TMP/out"
check "diagram --format=text --ascii: nothing but ASCII, the words aside" \
	sh -c "sed 's/étudiant//' '$TMP/out' | LC_ALL=C grep -q '[^ -~]' && exit 1 || exit 0"
run_cmd diagram --format=png
expect_status 2 "diagram --format=png"
LC_ALL=C run_cmd diagram --format=text --step=2
check "diagram --format=text in the C locale: ASCII, as --ascii" \
	sh -c "LC_ALL=C '$ATTN_TRACE' diagram --format=text --ascii --step=2 | cmp -s - '$TMP/out' && grep -q '+-- s_2' '$TMP/out'"
run_cmd diagram --format=text --all-steps -o "$TMP"
expect_status 2 "diagram --all-steps --format=text"
run_cmd diagram --width=20 --format=text
expect_status 2 "diagram --width=20"

# --- a local window: the word "window", p_t's marker and the frame keep
# clear of each other and of every label, for 1, 3, 5 and 8 words, every
# step (p_t at the first and the last word, windows clipped at either
# edge), local-m and local-p, both architectures (diagram_check.py marks
# works out the boxes from the coordinates and font sizes) ---
bl="$srcdir/tests/data/localp-bahdanau.model"
k=0
for case in "--model=localp4 --window=local-p --window-size=1|je" \
	"--model=localp4 --window=local-p --window-size=1|je suis étudiant" \
	"--model=localp4 --window=local-p --window-size=2|zone économique européenne sociale agricole" \
	"--model=localp4 --window=local-p --window-size=1|il est artiste elle devient médecin je reste" \
	"--model=localp4 --window=local-p --window-size=3|il est artiste elle devient médecin je reste" \
	"--window=local-m --window-size=0|il est artiste elle devient médecin je reste" \
	"--window=local-m --window-size=1|je suis étudiant" \
	"--arch=bahdanau --window=local-m --window-size=1|zone économique européenne sociale agricole" \
	"--model=$bl --arch=bahdanau --window=local-p --window-size=1|un deux trois deux un" \
	"--model=$bl --arch=bahdanau --window=local-p --window-size=2|trois deux un un deux trois deux un"; do
	opt=${case%%|*}
	w=${case#*|}
	k=$((k + 1))
	mkdir "$TMP/marks-$k"
	# shellcheck disable=SC2086
	"$ATTN_TRACE" diagram $opt --all-steps -o "$TMP/marks-$k/" $w
	for f in "$TMP/marks-$k"/step-*.svg; do
		check "diagram $opt, $w, $(basename "$f" .svg): the window's label and p_t's marker keep clear" \
			"$PYTHON3" "$check_py" marks "$f"
	done
done

# --- the picture, drawn by Chromium ---
sh "$shot" "$TMP/luong/step-1.svg" "$TMP/l1.png" >"$TMP/shot.err" 2>&1
rc=$?
if [ $rc -eq 77 ]; then
	echo "# skip: no Chromium for the screenshot"
else
	check "Chromium draws the Luong picture" [ $rc -eq 0 ]
	check "the screenshot shows the cells in their colours" \
		"$PYTHON3" "$check_py" png "$TMP/l1.png" "$TMP/luong/step-1.svg"
	sh "$shot" "$TMP/bahdanau/step-2.svg" "$TMP/b2.png" >/dev/null 2>&1
	check "the Bahdanau screenshot too" \
		"$PYTHON3" "$check_py" png "$TMP/b2.png" "$TMP/bahdanau/step-2.svg"
	sh "$shot" "$TMP/feed/step-2.svg" "$TMP/f2.png" >/dev/null 2>&1
	check "the input feeding screenshot too" \
		"$PYTHON3" "$check_py" png "$TMP/f2.png" "$TMP/feed/step-2.svg"
fi

finish
