#!/bin/sh
# feeding.sh: --input-feeding on the commands that trace, and the lesson
# key "input-feeding:".  The option only chooses and checks the model: its
# traces must be those of data/feed4.model byte for byte (whose numbers
# torch-check and ref-compare check), and every refusal must say why,
# exit non-zero and write nothing.
. "$srcdir/tests/lib.sh"
feed="$srcdir/data/feed4.model"
toy="$srcdir/data/toy4.model"
T="i am a student"

# mask FILE: the model's name, however the format spells it, as MODEL
mask() {
	sed -e "s#<built-in feed4.model>#MODEL#g" \
	    -e "s#&lt;built-in feed4.model&gt;#MODEL#g" -e "s#$feed#MODEL#g" "$1"
}

# --- the same bytes as the model file ---------------------------------
for f in text json jsonl csv markdown; do
	for tgt in "" "$T"; do
		"$ATTN_TRACE" trace --input-feeding --scorer=all --format=$f \
			${tgt:+--target="$tgt"} >"$TMP/a" 2>"$TMP/ea"
		"$ATTN_TRACE" trace --model="$feed" --scorer=all --format=$f \
			${tgt:+--target="$tgt"} >"$TMP/b" 2>"$TMP/eb"
		"$ATTN_TRACE" trace --model=feed4 --scorer=all --format=$f \
			${tgt:+--target="$tgt"} >"$TMP/c" 2>"$TMP/ec"
		mask "$TMP/a" >"$TMP/am"
		mask "$TMP/b" >"$TMP/bm"
		check "trace --input-feeding --format=$f${tgt:+ --target} is --model=feed4, byte for byte" \
			cmp -s "$TMP/a" "$TMP/c"
		check "... and --model=data/feed4.model but for the model's name" \
			cmp -s "$TMP/am" "$TMP/bm"
		check "... from which it differs in one line at most (the name)" \
			sh -c "[ \$(diff '$TMP/a' '$TMP/b' | grep -c '^<') -le 1 ]"
	done
done
"$ATTN_TRACE" trace --input-feeding --arch=luong >"$TMP/a"
"$ATTN_TRACE" trace --model=feed4 >"$TMP/b"
check "--arch=luong --input-feeding is feed4 too" cmp -s "$TMP/a" "$TMP/b"
"$ATTN_TRACE" trace --input-feeding --model="$feed" >"$TMP/a"
"$ATTN_TRACE" trace --model="$feed" >"$TMP/b"
check "--model with input feeding: the option changes nothing" cmp -s "$TMP/a" "$TMP/b"
"$ATTN_TRACE" trace --input-feeding --batch=- --format=csv >"$TMP/a" <<EOF
je suis étudiant ||| $T
EOF
"$ATTN_TRACE" trace --model=feed4 --batch=- --format=csv >"$TMP/b" <<EOF
je suis étudiant ||| $T
EOF
check "a --batch with --input-feeding is feed4's" cmp -s "$TMP/a" "$TMP/b"

# --- the trace shows h̃_{t-1} entering the RNN ------------------------
run_cmd trace --input-feeding --target="$T"
expect_status 0 "trace --input-feeding"
check "the header names feed4" grep -q '^model: <built-in feed4.model> ' "$TMP/out"
check "s_1 reads [y_0; h̃_0], h̃_0 = 0" \
	sh -c "grep -q '^s_1 = tanh(W_x·\[y_0; h̃_0\] + W_h·s_0 + b)\$' '$TMP/out' &&
	       grep -q '^h̃_0  .*\[ 0.0000,  0.0000,  0.0000,  0.0000\]\$' '$TMP/out'"
check "s_2 reads [y_1; h̃_1]" \
	grep -q '^  W_x·\[y_1; h̃_1\]  ' "$TMP/out"
# the h̃_1 that enters step 2 is the attentional state step 1 computed
made=$(sed -n 's/^h̃_1 = tanh(W_c·\[c_1; s_1\]) *(4) *//p' "$TMP/out")
read=$(sed -n 's/^h̃_1  *(4) *//p' "$TMP/out")
check "the h̃_1 step 2 reads is step 1's attentional state ($made)" \
	sh -c "[ -n '$made' ] && [ '$made' = '$read' ]"
run_cmd trace --input-feeding --target="$T" --format=json
check "the JSON's feed of step 2 is step 1's attentional state" \
	sh -c "tr -d ' \n' <'$TMP/out' | grep -Eq '\"attentional\":\[0.8783176137242055,-0.9706829659489922,0.9992074078214491,0.4174795724358434\].*\"t\":2,\"input\":\"i\",(\"[A-Za-z_]+\":\[[^]]*\],)*\"feed\":\[0.8783176137242055,-0.9706829659489922,0.9992074078214491,0.4174795724358434\]'"
run_cmd trace --target="$T"
check "without the option, toy4 reads y_{t-1} alone, as before" \
	sh -c "grep -q '^s_1 = tanh(W_x·y_0 + W_h·s_0 + b)\$' '$TMP/out' && ! grep -q 'h̃_0' '$TMP/out'"
run_cmd trace --model="$feed" --target="$T"
check "without the option, a model with input feeding has it, as before" \
	grep -q '^s_2 = tanh(W_x·\[y_1; h̃_1\] + W_h·s_1 + b)$' "$TMP/out"

# --- every other command ----------------------------------------------
run_cmd model --input-feeding
"$ATTN_TRACE" model --model=feed4 >"$TMP/b"
check "model --input-feeding prints feed4" cmp -s "$TMP/out" "$TMP/b"
run_cmd heatmap --input-feeding --scorer=all -o "$TMP/h1.svg" --target="$T"
expect_status 0 "heatmap --input-feeding"
"$ATTN_TRACE" heatmap --model=feed4 --scorer=all -o "$TMP/h2.svg" --target="$T"
check "heatmap --input-feeding draws feed4" cmp -s "$TMP/h1.svg" "$TMP/h2.svg"
"$ATTN_TRACE" heatmap --scorer=all -o "$TMP/h3.svg" --target="$T"
check "... which is not toy4's picture" sh -c "! cmp -s '$TMP/h1.svg' '$TMP/h3.svg'"
run_cmd quiz --input-feeding --answers --seed=7 --count=6
expect_status 0 "quiz --input-feeding"
"$ATTN_TRACE" quiz --model=feed4 --answers --seed=7 --count=6 >"$TMP/b"
check "quiz --input-feeding asks about feed4" cmp -s "$TMP/out" "$TMP/b"
run_cmd diagram --input-feeding --step=2 -o -
expect_status 0 "diagram --input-feeding"
"$ATTN_TRACE" diagram --model=feed4 --step=2 -o - >"$TMP/b"
check "diagram --input-feeding draws feed4" cmp -s "$TMP/out" "$TMP/b"
run_cmd diagram --input-feeding --format=text --step=2
"$ATTN_TRACE" diagram --model=feed4 --format=text --step=2 >"$TMP/b"
check "diagram --format=text too" cmp -s "$TMP/out" "$TMP/b"

# --arch=all: luong's side with input feeding, bahdanau's as always
run_cmd trace --arch=all --input-feeding --target="$T"
expect_status 0 "trace --arch=all --input-feeding"
check "luong's trace is feed4's, bahdanau's bahdanau4's" \
	sh -c "[ \"\$(grep '^model:' '$TMP/out' | cut -d' ' -f2-3)\" = '<built-in feed4.model>
<built-in bahdanau4.model>' ]"
"$ATTN_TRACE" trace --model=feed4 --target="$T" >"$TMP/b"
echo >>"$TMP/b"
"$ATTN_TRACE" trace --model=bahdanau4 --target="$T" >>"$TMP/b"
check "... each the same as on its own (a blank line between)" cmp -s "$TMP/out" "$TMP/b"
run_cmd quiz --arch=all --input-feeding --answers --seed=3 --count=2
check "quiz --arch=all heads the questions feed4 and bahdanau4" \
	sh -c "grep -q 'luong architecture (feed4)' '$TMP/out' && grep -q 'bahdanau architecture (bahdanau4)' '$TMP/out'"
run_cmd heatmap --arch=all --input-feeding -o "$TMP/all.svg"
expect_status 0 "heatmap --arch=all --input-feeding"
if command -v script >/dev/null 2>&1; then
	LC_ALL=C.UTF-8 script -qc "'$ATTN_TRACE' heatmap --arch=all --input-feeding" /dev/null >"$TMP/hm" 2>&1
	check "the text heatmap heads luong's panel feed4" \
		sh -c "grep -q 'luong architecture (feed4)' '$TMP/hm' && grep -q 'bahdanau architecture (bahdanau4)' '$TMP/hm'"
fi

# --- refusals: clear, non-zero, nothing written ------------------------
echo keep >"$TMP/keep"
for cmd in trace tui model heatmap quiz diagram; do
	run_cmd $cmd --input-feeding --arch=bahdanau
	expect_status 2 "$cmd: --input-feeding with --arch=bahdanau"
	expect_err "attn-trace: --input-feeding is Luong's: Bahdanau's decoder already reads the context c_{t-1}; drop --arch=bahdanau or --input-feeding" \
		"$cmd: the refusal says why and what to do"
	check "$cmd: nothing on stdout" test ! -s "$TMP/out"
	[ $cmd = tui ] && continue
	out=-o
	[ $cmd = quiz ] && continue
	run_cmd $cmd --input-feeding --model=toy4 $out "$TMP/keep"
	expect_status 1 "$cmd: --input-feeding with a model without it"
	expect_err "attn-trace: <built-in toy4.model> has no input feeding, and --input-feeding asks for it; drop --input-feeding, or give a model trained with 'train --input-feeding' (the built-in feed4 is one)" \
		"$cmd: the refusal names the model and what to do"
	check "$cmd: the output file is untouched" sh -c "[ \"\$(cat '$TMP/keep')\" = keep ]"
	run_cmd $cmd --input-feeding --model="$toy" $out "$TMP/new"
	expect_status 1 "$cmd: a model file without input feeding"
	expect_err "attn-trace: $toy has no input feeding" "$cmd: the file is named"
	check "$cmd: no output file" test ! -e "$TMP/new"
	run_cmd $cmd --input-feeding --model=bahdanau4 $out "$TMP/new"
	expect_status 1 "$cmd: a Bahdanau model with --input-feeding"
	expect_err "attn-trace: <built-in bahdanau4.model> is a model of the bahdanau architecture, whose decoder already reads the context c_{t-1}: input feeding is Luong's" \
		"$cmd: the Bahdanau model's refusal says why"
	check "$cmd: no output file" test ! -e "$TMP/new"
done
run_cmd quiz --input-feeding --model=toy4 --answers
expect_status 1 "quiz: --input-feeding with a model without it"
expect_err "<built-in toy4.model> has no input feeding" "quiz: the refusal names the model"
check "quiz: nothing on stdout" test ! -s "$TMP/out"
run_cmd trace --input-feeding --arch=luong --model=bahdanau4
expect_status 1 "--arch=luong --input-feeding on a Bahdanau model"
expect_err "is a model of the bahdanau architecture, and --arch asks for luong" \
	"the architecture is checked first"
run_cmd trace --input-feeding --arch=all --model=feed4
expect_status 2 "--arch=all --input-feeding with --model"
expect_err "drop --model" "--arch=all still takes no --model"
run_cmd heatmap --self --input-feeding
expect_status 2 "heatmap --self --input-feeding"
expect_err "--self draws self-attention, which takes no --input-feeding" \
	"--self refuses it"
run_cmd trace --input-feeding=yes
expect_status 2 "--input-feeding takes no value"
run_cmd trace --input-feeding --window=local-p
expect_status 1 "feed4 has no local-p weights"
expect_err "[local-p.W_p]" "local-p's refusal names the sections"
for cmd in trace heatmap quiz diagram; do
	"$ATTN_TRACE" $cmd --help >"$TMP/help"
	check "$cmd --help lists --input-feeding" grep -q '^      --input-feeding   ' "$TMP/help"
done

# --- the lesson key ----------------------------------------------------
# lesson NAME HEADER...: a lesson with these header lines
lesson() {
	name=$1
	shift
	{
		echo "title: T"
		echo "sentence: je suis étudiant"
		for h in "$@"; do echo "$h"; done
		printf '\npage: One\nText.\nshow state t=2\n'
	} >"$TMP/$name.lesson"
}
cp "$feed" "$TMP/feed.model"
cp "$toy" "$TMP/toy.model"
lesson yes "input-feeding: yes"
run_cmd lesson --check "$TMP/yes.lesson"
expect_status 0 "input-feeding: yes"
run_cmd lesson --plain "$TMP/yes.lesson"
check "input-feeding: yes without model: is feed4" \
	grep -q '^Model: <built-in feed4.model>$' "$TMP/out"
check "its state reads [y_1; h̃_1]" \
	grep -q '^s_2 = tanh(W_x·\[y_1; h̃_1\] + W_h·s_1 + b) ' "$TMP/out"
lesson yesfile "input-feeding:   yes  " "model: feed.model"
run_cmd lesson --check "$TMP/yesfile.lesson"
expect_status 0 "input-feeding: yes with a model file that has it"
lesson no "input-feeding: no"
run_cmd lesson --plain "$TMP/no.lesson"
expect_status 0 "input-feeding: no"
check "input-feeding: no without model: is toy4" \
	sh -c "grep -q '^Model: <built-in toy4.model>\$' '$TMP/out' && ! grep -q 'h̃' '$TMP/out'"
lesson arch "arch: luong" "input-feeding: yes"
run_cmd lesson --plain "$TMP/arch.lesson"
check "arch: luong with input-feeding: yes is feed4" \
	grep -q '^Model: <built-in feed4.model>$' "$TMP/out"

# lesson_bad NAME STATUS MESSAGE HEADER...: a bad lesson, refused
lesson_bad() {
	name=$1 want=$2
	shift 2
	lesson "$name" "$@"
	run_cmd lesson --check "$TMP/$name.lesson"
	expect_status 1 "lesson $name is refused"
	expect_err "$want" "lesson $name: file:line:column and what was expected"
}
lesson_bad maybe "$TMP/maybe.lesson:3:16: expected yes or no (whether the model has input feeding), found 'maybe'" \
	"input-feeding: maybe"
lesson_bad upper "$TMP/upper.lesson:4:16: expected yes or no (whether the model has input feeding), found 'Yes'" \
	"model: feed4" "input-feeding: Yes"
lesson_bad empty "$TMP/empty.lesson:3:" "input-feeding:"
lesson_bad twice "$TMP/twice.lesson:4:1: expected each header key once, found a second 'input-feeding:' (the first is on line 3)" \
	"input-feeding: yes" "input-feeding: no"
lesson_bad toy "$TMP/toy.lesson:4:16: expected a model with input feeding, as 'input-feeding: yes' says, found toy4, which has none (feed4 is built in with it)" \
	"model: toy4" "input-feeding: yes"
lesson_bad toyfile "$TMP/toyfile.lesson:3:16: expected a model with input feeding, as 'input-feeding: yes' says, found toy.model, which has none" \
	"input-feeding: yes" "model: toy.model"
lesson_bad feedno "$TMP/feedno.lesson:3:16: expected a model without input feeding, as 'input-feeding: no' says, found feed.model, which has it" \
	"input-feeding: no" "model: feed.model"
lesson_bad bahdanau "$TMP/bahdanau.lesson:4:16: expected no input feeding with 'arch: bahdanau', found 'input-feeding: yes'; Bahdanau's decoder already reads the context c_{t-1}, and input feeding is Luong's" \
	"arch: bahdanau" "input-feeding: yes"
lesson_bad bmodel "$TMP/bmodel.lesson:4:16: expected a model with input feeding, as 'input-feeding: yes' says, found bahdanau4, which has none (Bahdanau's decoder reads c_{t-1} instead)" \
	"model: bahdanau4" "input-feeding: yes"
lesson bno "arch: bahdanau" "input-feeding: no"
run_cmd lesson --check "$TMP/bno.lesson"
expect_status 0 "arch: bahdanau with input-feeding: no"
finish
