#!/bin/sh
# lesson-images.sh: lessons 21 (attention over an image) and 22 (a glimpse
# at a time).  Every number their pages show is compared with the trace
# the command line gives for the same image (`attn-trace caption
# --format=json`, `attn-trace glimpse --format=json`), and worked out
# again here from that trace's inputs by the formulas (the dot scores,
# softmax, the context, Box-Muller, the Gaussian's log-density,
# REINFORCE's advantage); then lesson --check must refuse each mutation
# of their text: a number typed by hand, a false claim.  Also the
# header keys 'image:', 'glimpse:' and 'class:' and the directives
# show image, glimpse and glimpses on bad input.
. "$srcdir/tests/lib.sh"
: "${ATTN_TRACE_LESSONS:=$srcdir/lessons}"
export ATTN_TRACE_LESSONS
dir=$ATTN_TRACE_LESSONS
py=/usr/bin/python3
[ -x "$py" ] || py=${PYTHON3:-python3}

# --- the images are the held-out ones they say they are ----------------
check "lesson 21's image is data/images/heldout/dot-y1-x4.pgm" \
	cmp -s "$dir/data/dot-top-right.pgm" \
	"$srcdir/data/images/heldout/dot-y1-x4.pgm"
check "lesson 22's image is data/images/heldout/bar-x1.pgm" \
	cmp -s "$dir/data/bar-left.pgm" "$srcdir/data/images/heldout/bar-x1.pgm"
check "lesson 21's caption is its image's in heldout.captions" \
	grep -qF 'heldout/dot-y1-x4.pgm ||| dot ||| a dot at the top right |||' \
	"$srcdir/data/images/heldout.captions"
check "lesson 22's class is its image's in heldout.captions" \
	grep -qF 'heldout/bar-x1.pgm ||| bar |||' \
	"$srcdir/data/images/heldout.captions"

# --- lesson 21 against attn-trace caption ------------------------------
run_cmd lesson --plain 21
expect_status 0 "lesson 21 as text"
cp "$TMP/out" "$TMP/l21"
"$ATTN_TRACE" caption --format=json -t "a dot at the top right" \
	"$srcdir/data/images/heldout/dot-y1-x4.pgm" >"$TMP/c21.json"
check "attn-trace caption traces lesson 21's image" test -s "$TMP/c21.json"
"$py" "$srcdir/tests/lesson_images.py" 21 "$TMP/l21" "$TMP/c21.json" >"$TMP/py21" 2>&1
check "lesson 21's numbers are those of attn-trace caption, worked out again" \
	sh -c "! grep -q '^not ok' '$TMP/py21' && grep -c '^ok' '$TMP/py21' | grep -qx 15"
grep '^not ok' "$TMP/py21"

# --- lesson 22 against attn-trace glimpse ------------------------------
seed=$(sed -n 's/^seed: //p' "$dir/22-glimpse.lesson")
cls=$(sed -n 's/^class: //p' "$dir/22-glimpse.lesson")
check "lesson 22 fixes its draws: seed 5, class bar" \
	test "$seed/$cls" = "5/bar"
run_cmd lesson --plain 22
expect_status 0 "lesson 22 as text"
cp "$TMP/out" "$TMP/l22"
"$ATTN_TRACE" glimpse --format=json --seed="$seed" --class="$cls" \
	"$srcdir/data/images/heldout/bar-x1.pgm" >"$TMP/g22.json"
check "attn-trace glimpse traces lesson 22's image" test -s "$TMP/g22.json"
"$py" "$srcdir/tests/lesson_images.py" 22 "$TMP/l22" "$TMP/g22.json" >"$TMP/py22" 2>&1
check "lesson 22's numbers are those of attn-trace glimpse, worked out again" \
	sh -c "! grep -q '^not ok' '$TMP/py22' && grep -c '^ok' '$TMP/py22' | grep -qx 27"
grep '^not ok' "$TMP/py22"

# --- lesson 22's quiz: REINFORCE's score function of glimpse 2 ---------
check "lesson 22's quiz answer is (l_2[1] - l-hat_2[1])/sigma^2 of attn-trace glimpse, worked out here" \
	"$py" -c 'import json, re, sys
g = json.load(open(sys.argv[2]))
st = g["steps"][1]
want = (st["l"][0] - st["l_hat"][0]) / g["sigma"] ** 2
t = open(sys.argv[1], encoding="utf-8").read()
m = re.search(r"\(answer: ∂ log π / ∂ l̂_2\[1\] = (-?[0-9.]+)\)", t)
q = re.search(r"l_2 +\(2\) +\[ *(-?[0-9.]+),", t)
sys.exit(not (m and q and abs(float(m.group(1)) - round(want, 4)) < 1e-9
              and abs(float(q.group(1)) - round(st["l"][0], 4)) < 1e-9))' \
	"$TMP/l22" "$TMP/g22.json"

# --- mutations: lesson --check refuses each ----------------------------
# mutate NAME FILE SED WHAT: a copy of FILE in a tree with the lessons'
# data/, edited by SED, must fail lesson --check with WHAT on stderr
mkdir -p "$TMP/tree"
cp -R "$dir/data" "$TMP/tree/data"
mutate() {
	sed "$3" "$dir/$2" >"$TMP/tree/$1.lesson"
	if cmp -s "$dir/$2" "$TMP/tree/$1.lesson"; then
		not_ok "mutation $1: the edit changed nothing"
		return
	fi
	run_cmd lesson --check "$TMP/tree/$1.lesson"
	expect_status 1 "mutation $1 fails lesson --check"
	expect_err "$4" "mutation $1 is reported: $4"
}
cp "$dir/21-image.lesson" "$TMP/tree/same.lesson"
run_cmd lesson --check "$TMP/tree/same.lesson"
expect_status 0 "an unmutated copy of lesson 21 in the test tree"
mutate typed21 21-image.lesson 's/Step 5 puts {α_5,3}/Step 5 puts 0.4139/' \
	"expected a reference to a value of the trace, such as {α_5,3} (0.4139)"
mutate claim21 21-image.lesson 's/^claim argmax(α_6) = top-right/claim argmax(α_6) = bottom/' \
	"found 'argmax(α_6) = bottom' false"
mutate context21 21-image.lesson 's/^claim {c_5\[4\]} > /claim {c_5[4]} < /' \
	"false"
mutate typed22 22-glimpse.lesson 's/the bar gets {ŷ\[bar\]}/the bar gets 0.9782/' \
	"expected a reference to a value of the trace, such as {ŷ[bar]} (0.9782)"
mutate class22 22-glimpse.lesson 's/^claim argmax(ŷ) = bar/claim argmax(ŷ) = dot/' \
	"found 'argmax(ŷ) = dot' false"
mutate advantage22 22-glimpse.lesson 's/^claim {δ_1} > 0/claim {δ_1} < 0/' \
	"found '{δ_1} < 0' false"
mutate retina22 22-glimpse.lesson 's/^claim {ρ_1\[1\]} > 0.5/claim {ρ_1[1]} < 0.5/' \
	"false"
mutate seed22 22-glimpse.lesson 's/^seed: 5/seed: 1/' "false"

# --- the header keys and directives on bad input -----------------------
bad_lesson() {
	printf '%s\n' "$@" >"$TMP/tree/bad.lesson"
	run_cmd lesson --plain "$TMP/tree/bad.lesson"
}
bad_lesson "title: t" "image: /etc/passwd" "page: p" "x"
expect_status 1 "an image outside the lesson's tree"
expect_err "bad.lesson:2:8: cannot read the image: expected a file in the lesson's directory or below it, found \"/etc/passwd\"" \
	"an image outside the lesson's tree is refused at its value"
bad_lesson "title: t" "image: data/none.pgm" "page: p" "x"
expect_status 1 "a missing image"
expect_err "bad.lesson:2:8: cannot read the image:" "a missing image is reported at its value"
bad_lesson "title: t" "model: toy4" "image: data/bar-left.pgm" "page: p" "x"
expect_status 1 "an image with a word model"
expect_err "bad.lesson:2:8: expected an image model for 'image:'" \
	"a word model for an image is refused at 'model:'"
bad_lesson "title: t" "image: data/bar-left.pgm" "sentence: je" "page: p" "x"
expect_status 1 "both image: and sentence:"
expect_err "expected 'image:' or 'sentence:'" "image: and sentence: together are refused"
bad_lesson "title: t" "image: data/bar-left.pgm" "page: p" "show glimpse t=1"
expect_status 1 "show glimpse without glimpse:"
expect_err "bad.lesson:4:1: expected 'image:' and 'glimpse:' header before 'show glimpse', found none" \
	"show glimpse needs glimpse:"
bad_lesson "title: t" "image: data/bar-left.pgm" "glimpse: glimpse6" "page: p" "show glimpse t=4"
expect_status 1 "a glimpse past the last"
expect_err "bad.lesson:5:14: expected t= from 1 to 3 (the glimpse model takes 3 glimpses), found 't=4'" \
	"show glimpse t=4 is refused at t="
bad_lesson "title: t" "image: data/bar-left.pgm" "glimpse: glimpse6" "class: cat" "page: p" "x"
expect_status 1 "a class the glimpse model lacks"
expect_err "bad.lesson:4:8: expected a class of the glimpse model" "class: cat is refused at its value"
bad_lesson "title: t" "sentence: je" "glimpse: glimpse6" "page: p" "x"
expect_status 1 "glimpse: without image:"
expect_err "bad.lesson:3:10: expected 'image:' (the image it looks at) before 'glimpse:'" \
	"glimpse: needs image:"
bad_lesson "title: t" "image: data/bar-left.pgm" "glimpse: glimpse6" "page: p" "{R} {l̂_4[1]}"
expect_status 1 "a glimpse reference past the last glimpse"
expect_err "expected a 'class:' header (the reward needs the true class) for '{R}'" \
	"{R} needs class:"
bad_lesson "title: t" "image: data/bar-left.pgm" "glimpse: glimpse6" "class: bar" "page: p" "{l̂_4[1]}"
expect_err "expected a glimpse from 1 to 3, found '{l̂_4[1]}'" "{l̂_4[1]} is past the glimpses"
bad_lesson "title: t" "image: data/bar-left.pgm" "glimpse: glimpse6" "page: p" "{ŷ[cat]}"
expect_err "expected an entry of ŷ from 1 to 3 or a class, found '{ŷ[cat]}'" "{ŷ[cat]} names no class"
bad_lesson "title: t" "image: data/bar-left.pgm" "page: p" "quiz glimpse-place t=1 k=1"
expect_status 1 "quiz glimpse-place without glimpse:"
expect_err "bad.lesson:4:1: expected 'image:' and 'glimpse:' header before 'quiz glimpse-place', found none" \
	"a glimpse quiz needs glimpse:"
bad_lesson "title: t" "image: data/bar-left.pgm" "glimpse: glimpse6" "page: p" "quiz glimpse-place t=4 k=1"
expect_status 1 "a glimpse quiz past the last glimpse"
expect_err "bad.lesson:5:20: expected t= from 1 to 3 (the glimpse model takes 3 glimpses), found 't=4'" \
	"quiz glimpse-place t=4 is refused at t="
bad_lesson "title: t" "image: data/bar-left.pgm" "glimpse: glimpse6" "page: p" "quiz glimpse-retina t=1 k=2"
expect_status 1 "a retina question on the fovea"
expect_err "bad.lesson:5:25: expected k= from 5 to 8 for 'quiz glimpse-retina', found 'k=2'" \
	"quiz glimpse-retina k=2 is refused at k="
bad_lesson "title: t" "image: data/bar-left.pgm" "glimpse: glimpse6" "page: p" "quiz glimpse-class t=1 k=1"
expect_status 1 "a class question with t="
expect_err "bad.lesson:5:20: expected k=N after 'quiz glimpse-class', found 't=1'" \
	"quiz glimpse-class takes k= alone"
bad_lesson "title: t" "image: data/bar-left.pgm" "page: p" "show image t=3"
expect_status 0 "show image t=3 on an image"
check "show image t=3 draws step 3's weights over the image" \
	grep -q '^t=3: .*(the image; α_3 over its cells)$' "$TMP/out"

finish
