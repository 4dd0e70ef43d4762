#!/bin/sh
# arch.sh: --arch and a model of Bahdanau's architecture on the command
# line: which models it takes, the text trace showing the flow (the query
# of each step, the context entering the RNN, both encoder directions),
# every format, and the commands that take Luong's models only so far.
# The numbers are checked by check_bahdanau, ref-compare and torch-check.
. "$srcdir/tests/lib.sh"
bahd="$srcdir/tests/data/bahdanau.model"
tiny="$srcdir/tests/data/tiny.model"

run_cmd trace --arch=bahdanu
expect_status 2 "unknown architecture"
expect_err "unknown architecture 'bahdanu'; did you mean 'bahdanau'? expected luong, bahdanau or all" \
	"the architectures are listed, the nearest first"
run_cmd trace --arch=transformer
expect_err "unknown architecture 'transformer'; expected luong, bahdanau or all" \
	"no suggestion when none is near"
run_cmd trace --arch=luong --model="$bahd" un
expect_status 1 "a bahdanau model is not a luong one"
expect_err "is a model of the bahdanau architecture, and --arch asks for luong" \
	"the mismatch is named"
run_cmd trace --arch=bahdanau --model="$tiny" un
expect_status 1 "a luong model is not a bahdanau one"
run_cmd trace --arch=bahdanau
expect_status 0 "--arch=bahdanau without --model"
check "uses the built-in bahdanau4" grep -q '^model: <built-in bahdanau4.model>' "$TMP/out"
run_cmd trace --model=bahdanau4 --arch=luong
expect_status 1 "bahdanau4 is not luong"
run_cmd models
expect_status 0 "models"
check "models lists bahdanau4 and its architecture" \
	grep -q '^bahdanau4  bahdanau architecture, embedding 4, hidden 4, attention 4$' "$TMP/out"
check "models lists toy4 as luong" grep -q '^toy4       luong architecture' "$TMP/out"
check "models lists self4 as self-attention" \
	grep -q '^self4      self-attention and cross-attention, embedding 4, 2 heads of d_k 2$' "$TMP/out"
# glimpse6's sizes, as data/glimpse6.model's header declares them
check "models lists glimpse6 and its sizes" \
	grep -q '^glimpse6   glimpse model, 3 glimpses, hidden 8, glimpse 8, 3 classes$' "$TMP/out"
check "models says what glimpse6 is" \
	grep -q '^           trained on data/images/train.captions: attn-trace glimpse$' "$TMP/out"
check "data/glimpse6.model declares those sizes" \
	awk '/^steps 3$/ { s = 1 } /^hidden 8$/ { h = 1 } /^glimpse 8$/ { g = 1 }
	     /^classes dot bar box$/ { c = 1 } END { exit !(s && h && g && c) }' \
	"$srcdir/data/glimpse6.model"
run_cmd trace --model=glimpse6 un
expect_status 1 "glimpse6 is not a model of trace"
expect_err "found \"glimpse6\", the model of 'attn-trace glimpse'" \
	"trace --model=glimpse6 names the command that reads it"
# the names' column is as wide as the longest name (longfixed8), so every
# description starts in one column, the one after it
check "models: every description in the column after the longest name" \
	awk 'NR % 2 == 1 && substr($0, 11, 1) != " " { bad = 1 }
	     substr($0, 12, 1) == " " || substr($0, 1, 1) == "" { bad = 1 }
	     END { exit bad }' "$TMP/out"
run_cmd models --names
check "models --names" test "$(cat "$TMP/out" | tr '\n' ' ')" = "toy4 handset4 bahdanau4 self4 localp4 feed4 hard4 longattn8 longfixed8 caption4 glimpse6 "
run_cmd models extra
expect_status 2 "models takes only --names"

# --arch=all: every architecture on its built-in model
run_cmd trace --arch=all --scorer=general zone économique européenne
expect_status 0 "trace --arch=all"
check "a text trace for each architecture" test "$(grep -c '^attn-trace-text/3$' "$TMP/out")" -eq 2
check "luong's on toy4, then bahdanau's on bahdanau4" \
	sh -c "grep '^model: ' '$TMP/out' | cut -d' ' -f2-3 | tr '\n' ' ' | grep -qx '<built-in toy4.model> <built-in bahdanau4.model> '"
run_cmd trace --arch=all --format=json
expect_status 0 "trace --arch=all --format=json"
check "a JSON array of two traces, bahdanau's second" \
	sh -c "tr -d '\n' <'$TMP/out' | grep -q '^\[{\"format\".*}, *{\"format\": \"attn-trace-trace/3\",.*\"architecture\": \"bahdanau\".*}\]$'"
run_cmd trace --arch=all --format=jsonl
check "JSON Lines: a line each" test "$(wc -l <"$TMP/out")" -eq 2
run_cmd trace --arch=all --format=csv
check "CSV: the column arch first" grep -q '^arch,scorer,t,stage,' "$TMP/out"
check "CSV: rows of both" sh -c "grep -q '^luong,dot,' '$TMP/out' && grep -q '^bahdanau,dot,' '$TMP/out'"
run_cmd trace --arch=all --format=markdown
check "Markdown: a document each" test "$(grep -c '^# attn-trace' "$TMP/out")" -eq 2
run_cmd trace --arch=all --model=toy4
expect_status 2 "--arch=all with --model"
nine="je suis étudiant je suis étudiant je suis étudiant"
run_cmd trace --arch=all --scorer=location -o "$TMP/none.txt" $nine
expect_status 1 "--arch=all with a sentence longer than the location scorer's positions"
check "and writes nothing" test ! -e "$TMP/none.txt"
run_cmd model --arch=all
expect_status 2 "model refuses --arch=all"
expect_err "--arch=all works with 'trace', 'tui', 'heatmap', 'quiz' and 'train'; 'model' takes one architecture" "model says why"

# heatmap --arch=all: each architecture's panels, on rows of their own
run_cmd heatmap --arch=all --scorer=dot,general -o "$TMP/all.svg"
expect_status 0 "heatmap --arch=all"
check "the title names both architectures" \
	grep -q '<title>luong and bahdanau: dot and general scorers: je suis étudiant</title>' "$TMP/all.svg"
check "a panel for each architecture and scorer, luong's first" \
	sh -c "grep -o 'id=\"run-[a-z-]*\"' '$TMP/all.svg' | tr '\n' ' ' | grep -qx 'id=\"run-luong-dot\" id=\"run-luong-general\" id=\"run-bahdanau-dot\" id=\"run-bahdanau-general\" '"
check "the panels are headed by their architecture" \
	grep -q '>bahdanau · general → i am a student &lt;/s&gt;</text>' "$TMP/all.svg"
# each panel's weights are its own model's: the trace of that model
"$ATTN_TRACE" trace --arch=bahdanau --scorer=general --format=csv >"$TMP/b.csv"
w=$(awk -F, '$2 == 1 && $3 == "softmax" && $4 == "α_1" && $5 == 3 { printf "%.4f", $6 }' "$TMP/b.csv")
check "bahdanau4's α_1,3 ($w) is in the bahdanau panel" \
	sh -c "test -n '$w' && sed -n '/id=\"run-bahdanau-general\"/,/class=\"legend\"/p' '$TMP/all.svg' | grep -q 'α_1,3 = $w'"
run_cmd heatmap --arch=all --model=toy4
expect_status 2 "heatmap --arch=all with --model"
run_cmd heatmap --arch=all --scorer=location -o "$TMP/none.svg" $nine
expect_status 1 "heatmap --arch=all with a sentence too long for location"
check "and writes nothing" test ! -e "$TMP/none.svg"

# quiz --arch=all: the architectures in turn
run_cmd quiz --arch=all --seed=3 --count=4 --answers
expect_status 0 "quiz --arch=all"
check "the questions alternate between the architectures" \
	sh -c "grep '^question ' '$TMP/out' | sed 's/.*, \([a-z]*\) architecture.*/\1/' | tr '\n' ' ' | grep -qx 'luong bahdanau luong bahdanau '"
run_cmd quiz --arch=all --model=toy4
expect_status 2 "quiz --arch=all with --model"

# train --arch=all: a model of each architecture in a directory
grep '|||' "$srcdir/data/toy.pairs" | head -n 12 >"$TMP/pairs"
mkdir "$TMP/models"
run_cmd train --pairs="$TMP/pairs" -o "$TMP/models" --arch=all --epochs=20 --scorer=dot -q
expect_status 0 "train --arch=all"
check "luong.model is of Luong's architecture" \
	sh -c "! grep -q '^architecture' '$TMP/models/luong.model'"
check "bahdanau.model says its architecture" grep -q '^architecture bahdanau$' "$TMP/models/bahdanau.model"
"$ATTN_TRACE" train --pairs="$TMP/pairs" -o "$TMP/b1.model" --arch=bahdanau --epochs=20 --scorer=dot -q
check "the same model as train --arch=bahdanau, but for its name" \
	sh -c "sed 1d '$TMP/models/bahdanau.model' >'$TMP/x1'; sed 1d '$TMP/b1.model' >'$TMP/x2'; cmp -s '$TMP/x1' '$TMP/x2'"
# with --input-feeding: Luong's model feeds h̃_{t-1}; Bahdanau's decoder
# reads c_t anyway, and its model is the one trained without the flag
mkdir "$TMP/fed"
run_cmd train --pairs="$TMP/pairs" -o "$TMP/fed" --arch=all --input-feeding --epochs=20 --scorer=dot -q
expect_status 0 "train --arch=all --input-feeding"
check "luong.model has input feeding" grep -q '^input-feeding' "$TMP/fed/luong.model"
check "bahdanau.model is train --arch=bahdanau's, without input feeding" \
	sh -c "sed 1d '$TMP/fed/bahdanau.model' >'$TMP/x1'; sed 1d '$TMP/b1.model' >'$TMP/x2'; cmp -s '$TMP/x1' '$TMP/x2'"
run_cmd train --pairs="$TMP/pairs" -o "$TMP/nodir" --arch=all --epochs=5
expect_status 1 "train --arch=all needs a directory"
check "and writes nothing" test ! -e "$TMP/nodir"
run_cmd train --pairs="$TMP/pairs" -o - --arch=all --epochs=5
expect_status 2 "train --arch=all refuses standard output"
run_cmd train --pairs="$TMP/pairs" -o "$TMP/models" --arch=all --init=toy4
expect_status 2 "train --arch=all refuses --init"

# --arch=luong changes nothing
"$ATTN_TRACE" trace --scorer=all >"$TMP/plain" 2>&1
run_cmd trace --arch=luong --scorer=all
expect_status 0 "--arch=luong"
check "--arch=luong is the default, byte for byte" cmp -s "$TMP/out" "$TMP/plain"

# the text trace shows the flow
run_cmd trace --arch=bahdanau --model="$bahd" --target="one two" un deux
expect_status 0 "a bahdanau trace"
out="$TMP/out"
check "the architecture is named" \
	grep -q '^architecture: bahdanau (attention first with s_{t-1} as the query' "$out"
check "the forward encoder" grep -q '^→h_2 = tanh(W_x^f·x_2 + W_h^f·→h_1 + b^f)$' "$out"
check "the backward encoder, from the end" \
	grep -q '^←h_1 = tanh(W_x^b·x_1 + W_h^b·←h_2 + b^b)$' "$out"
check "the annotations" grep -q '^the annotation h_1 = \[→h_1; ←h_1\]' "$out"
check "s_0 from ←h_1" grep -q "^the decoder's first state s_0 = tanh(W_init·←h_1)" "$out"
check "step 1's query is s_0" \
	grep -q "^the query s_0 = the decoder's first state, from ←h_1" "$out"
check "step 2's query is s_1" grep -q '^the query s_1 = the state that step 1 made' "$out"
check "the scores use s_{t-1}" grep -q '^e_2,1 = s_1·h_1 = ' "$out"
check "the heading says s_{t-1}" grep -q '^==== dot scorer (1 of 1): e_t,i = s_{t-1}·h_i ====$' "$out"
check "the context enters the RNN" grep -q '^the context c_1 enters the RNN ' "$out"
check "the term C·c_t" grep -q '^  C·c_2 ' "$out"
check "the decoder stage" grep -q '^--- decoder ---$' "$out"
check "the readout" grep -q '^ŷ_1 = softmax(W_o·\[s_1; c_1; y_0\])' "$out"
# the order of a step: query, scoring, softmax, weighted sum, state, output
sed -n '/^=== dot, t=1/,/^=== dot, t=2/p' "$out" | grep -E '^(--- |the query)' \
	>"$TMP/order"
printf '%s\n' '--- scoring ---' "the query s_0 = the decoder's first state, from ←h_1 (4)   [-0.2130,  0.4663,  0.6755, -0.3844]" \
	'--- softmax ---' '--- weighted-sum ---' '--- decoder ---' \
	'--- output ---' >"$TMP/want"
check "a step runs attention first, then the RNN" cmp -s "$TMP/order" "$TMP/want"

# the other formats
for f in json jsonl csv markdown; do
	run_cmd trace --model="$bahd" --scorer=all --format=$f un deux trois
	expect_status 0 "a bahdanau trace as $f"
done
run_cmd trace --model="$bahd" --format=json un deux
check "JSON names the architecture" grep -q '"architecture": "bahdanau"' "$TMP/out"
check "JSON has the backward states" grep -q '"backward": \[' "$TMP/out"
check "JSON has C·c_t" grep -q '"C_c": \[' "$TMP/out"
run_cmd trace --format=json
check "a luong trace names no architecture" sh -c "! grep -q architecture '$TMP/out'"
run_cmd trace --model="$bahd" --format=csv un deux
check "CSV has ←h_1" grep -q '^,0,encoding,←h_1,1,' "$TMP/out"
check "CSV has C·c_1" grep -q '^dot,1,decoder,C·c_1,1,' "$TMP/out"
run_cmd trace --model="$bahd" --format=markdown un deux
check "Markdown has both directions" grep -q '| i | word | x_i | →h_i | ←h_i |' "$TMP/out"
check "Markdown has the query" grep -q '^The query is the state before this step, s_0 = ' "$TMP/out"
printf 'un deux ||| one two\ndeux trois\n' >"$TMP/pairs"
run_cmd trace --model="$bahd" --batch="$TMP/pairs" --format=jsonl --jobs=2
expect_status 0 "a bahdanau batch"
check "one line a pair" test "$(wc -l <"$TMP/out")" -eq 2

# the model
run_cmd model --model="$bahd"
check "the model text names the architecture" \
	grep -q '^embedding 3, hidden 4, attention 3, positions 4, architecture bahdanau$' "$TMP/out"
check "the model text has W_init" grep -q '^decoder W_init, applied to ←h_1 (4, 2)$' "$TMP/out"
run_cmd model --arch=bahdanau --model="$bahd" --format=json
check "the model JSON has the backward RNN" grep -q '"backward": {"W_x"' "$TMP/out"

# heatmap and quiz
run_cmd heatmap --arch=bahdanau --scorer=all -o "$TMP/b.svg" \
	--target="european economic area" zone économique européenne
expect_status 0 "heatmap --arch=bahdanau"
check "the SVG names the architecture" \
	grep -q '<title>bahdanau: dot, general, concat, scaled, location, additive and location-aware scorers: zone économique européenne</title>' "$TMP/b.svg"
run_cmd heatmap --arch=luong --model=bahdanau4 un
expect_status 1 "heatmap --arch checks the model"
run_cmd quiz --arch=bahdanau --scorer=general --seed=1 --count=3 --answers \
	--target="european economic area" zone économique européenne
expect_status 0 "quiz --arch=bahdanau"
check "its scoring questions use s_{t-1}" grep -Eq 'e_([0-9]),[0-9] = s_' "$TMP/out"
check "s_{t-1} and not s_t" sh -c "grep -E 'What is the score e_[0-9],[0-9] = s_' '$TMP/out' | sed -E 's/.*e_([0-9]),[0-9] = s_([0-9]).*/\1 \2/' | awk '\$1 != \$2 + 1 { exit 1 }'"
# the lesson format's arch:
printf 'title: t\narch: bahdanau\nsentence: zone économique européenne\n\npage: p\nshow encoder i=1\n' >"$TMP/a.lesson"
run_cmd lesson --plain "$TMP/a.lesson"
expect_status 0 "a lesson with arch: bahdanau and no model:"
check "it runs on bahdanau4" grep -q '^Model: <built-in bahdanau4.model>$' "$TMP/out"
printf 'title: t\narch: luong\nmodel: bahdanau4\nsentence: zone\n\npage: p\ntext\n' >"$TMP/a.lesson"
run_cmd lesson --check "$TMP/a.lesson"
expect_status 1 "arch: luong with a bahdanau model"
expect_err "a.lesson:2:7: expected a model of the luong architecture, as 'arch:' says, found one of the bahdanau architecture" "the lesson names the line"
printf 'title: t\narch: gru\nsentence: zone\n\npage: p\ntext\n' >"$TMP/a.lesson"
run_cmd lesson --check "$TMP/a.lesson"
expect_status 1 "an unknown arch:"
expect_err "a.lesson:2:7: expected luong or bahdanau, found 'gru'" "the architectures are named"

# a lesson on a model file of Bahdanau's architecture
mkdir "$TMP/les"
cp "$bahd" "$TMP/les/b.model"
printf 'title: t\nmodel: b.model\nsentence: un deux\n\npage: p\ntext\n' >"$TMP/les/b.lesson"
printf 'page: q\nshow encoder i=2\nshow concat t=1\n' >>"$TMP/les/b.lesson"
run_cmd lesson --plain "$TMP/les/b.lesson"
expect_status 0 "a lesson on a bahdanau model file"
check "its encoder directive shows both directions" grep -q '^←h_2 = tanh' "$TMP/out"
check "its concat directive shows [s_1; c_1; y_0]" grep -q '^\[s_1; c_1; y_0\]' "$TMP/out"

# training
printf 'un deux ||| one two\ndeux trois ||| two three\n' >"$TMP/pairs"
run_cmd train --pairs="$TMP/pairs" --arch=bahdanau --hidden=3 -o "$TMP/m"
expect_status 2 "bahdanau needs an even hidden size"
expect_err "expected an even --hidden, not 3" "train says why"
run_cmd train --pairs="$TMP/pairs" --init="$bahd" --arch=luong -o "$TMP/m"
expect_status 1 "train --init of a bahdanau model with --arch=luong"
check "and writes nothing" test ! -e "$TMP/m"
run_cmd train --pairs="$TMP/pairs" --arch=bahdanau --scorer=dot,location-aware \
	--epochs=300 -q -o "$TMP/m"
expect_status 0 "train --arch=bahdanau"
check "the model says its architecture" grep -q '^architecture bahdanau$' "$TMP/m"
check "the command is in its header" grep -q -- '--arch=bahdanau$' "$TMP/m"
run_cmd trace --model="$TMP/m" --arch=bahdanau --scorer=location-aware \
	--target="one two" un deux
expect_status 0 "its trace"
check "it learnt the pair" grep -q '^location-aware output: one two </s>$' "$TMP/out"
run_cmd train --pairs="$TMP/pairs" --init="$TMP/m" --scorer=additive \
	--freeze-shared --epochs=300 -q -o "$TMP/m2"
expect_status 0 "train --init of a bahdanau model adds a scorer"
check "keeping the architecture" grep -q '^architecture bahdanau$' "$TMP/m2"
finish
