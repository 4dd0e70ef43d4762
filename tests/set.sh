#!/bin/sh
# set.sh: --set NAME=VALUE (doc/trace-format.md, "What-if: --set"): the
# edited traces against torch (tests/torch_set.py), and the errors of a bad
# --set: --set:N:COL, exit 2, nothing on stdout and no -o file written.
. "$srcdir/tests/lib.sh"
AT=$ATTN_TRACE
top=$(cd "$srcdir" && pwd)

torch_python_find
if [ -n "$torch_python" ]; then
	check "--set edits agree with torch" \
		"$torch_python" "$top/tests/torch_set.py" "$AT"
else
	echo "no Python here can import torch: the torch checks are skipped"
fi

# bad ARG FRAGMENT WHAT: trace --set=ARG as second --set exits 2 with the
# error FRAGMENT, writes nothing to stdout nor to -o
bad() {
	run_cmd trace -o "$TMP/never" --set=general.W[1][1]=1 --set="$1"
	expect_status 2 "$3"
	expect_err "$2" "$3: message"
	if [ -s "$TMP/out" ] || [ -e "$TMP/never" ]; then
		not_ok "$3: something was written"
	else
		ok "$3: nothing written"
	fi
}
bad 'general.Wx[1][1]=1' \
	"--set:2:1: unknown name 'general.Wx'; did you mean general.W?" \
	"unknown name"
bad 'general.W[5][1]=1' "--set:2:11: index '5' out of range: expected 1 to 4" \
	"row out of range"
bad 'general.W[1][0]=1' "--set:2:14: index '0' out of range" \
	"column 0"
bad 'source[tu][1]=1' "--set:2:8: index 'tu' out of range: expected a word" \
	"unknown word"
bad 'general.W[1][1]=nan' "--set:2:17: expected a finite number, found 'nan'" \
	"nan"
bad 'general.W[1][1]=1e999' "expected a finite number, found '1e999'" \
	"overflow"
bad 'general.W[1][1]=0.5x' "expected a finite number, found '0.5x'" \
	"trailing junk"
bad 'general.W[1][1]' "--set:2:16: expected '=VALUE'" "no value"
bad 'general.W[1]=2' "--set:2:13: expected [INDEX]" "missing index"
# a step's value, step[T].KEY[K]
bad 'step[1].scroes[1]=1' \
	"--set:2:9: unknown value 'scroes' of a step; did you mean scores?" \
	"unknown value of a step"
bad 'stpe[1].state[1]=1' "--set:2:1: unknown name 'stpe'; did you mean step?" \
	"misspelt step"
bad 'step[1].state[5]=1' \
	"--set:2:15: index '5' out of range: expected 1 to 4" "state index > H"
bad 'step[1].scores[4]=1' \
	"--set:2:16: index '4' out of range: expected 1 to 3" \
	"score index past the sentence"
bad 'step[100].alpha[1]=1' \
	"--set:2:6: step '100' out of range: expected 1 to " "step not reached"
bad 'step=1' "--set:2:5: expected [T], a decoder step" "step without [T]"
bad 'step[0].s[1]=1' \
	"--set:2:6: expected a decoder step, a whole number from 1, found '0'" \
	"step 0"
bad 'step[1.5].s[1]=1' \
	"--set:2:6: expected a decoder step, a whole number from 1, found '1.5'" \
	"step 1.5"
bad 'source[Je][1]=1' \
	"--set:2:8: unknown word 'Je'; did you mean je? (or a number from 1 to 21)" \
	"a word close to one of the vocabulary"
bad 'general.W[1][1]=0x10' "--set:2:17: expected a finite number, found '0x10'" \
	"hex (calc's and the model files' grammar)"
bad 'step[1].e[1]=1e308' \
	"--set:2:14: expected a number from -1e6 to 1e6, found '1e308'" \
	"past the model files' bound"
bad 'step[1]state[1]=1' "--set:2:8: expected '.' and state, scores" \
	"missing dot"
bad 'step[1].e[1]=x' "--set:2:14: expected a finite number, found 'x'" \
	"step value not a number"

# a step's value is refused where the trace would not follow it
run_cmd trace -o "$TMP/never" --hard --set='step[1].e[1]=1'
expect_status 2 "--hard with a step's value"
expect_err "--set:1:1: step[1].scores[1] is set while the trace runs, which --hard does not follow" \
	"--hard with a step's value: message"
printf 'je suis\n' >"$TMP/batch"
run_cmd trace -o "$TMP/never" --batch="$TMP/batch" --set='step[1].e[1]=1'
expect_status 2 "--batch with a step's value"
expect_err "--set of a step's value edits one sentence's trace; drop --batch" \
	"--batch with a step's value: message"
if [ -e "$TMP/never" ]; then
	not_ok "refused step values: something was written"
else
	ok "refused step values: nothing written"
fi

# the text header shows the edit and the value it replaced
run_cmd trace --set=source[je][2]=-1.5
expect_status 0 "text with --set"
if grep -qx 'set: source\[je\]\[2\] = -1.5000 (was 2.2882)' "$TMP/out"; then
	ok "text: set line with the old value"
else
	not_ok "text: set line: $(sed -n 3p "$TMP/out")"
fi

# the marks of the changed numbers: a golden of a small edited trace
# (tests/golden/set-marks.txt), whose numbers and marks set_marks.py works
# out from the unedited scores; without --set the text is as it was
marks() {
	(cd "$srcdir" && "$AT" trace --scorer=dot --stage=softmax \
		--target='i am' "$@" je suis)
}
marks --set='step[1].scores[2]=-3' >"$TMP/marks.txt" 2>"$TMP/err"
if diff -u "$top/tests/golden/set-marks.txt" "$TMP/marks.txt" >"$TMP/diff"
then
	ok "set-marks.txt"
else
	cat "$TMP/diff"
	not_ok "set-marks.txt differs from the golden file"
fi
"$AT" trace --format=json --scorer=dot --target='i am' je suis \
	>"$TMP/unedited.json"
check "the marks agree with the softmax worked from the unedited scores" \
	python3 "$top/tests/set_marks.py" "$top/tests/golden/set-marks.txt" \
	"$TMP/unedited.json"
if marks | grep -q '^ *was'; then
	not_ok "marks without --set"
else
	ok "no marks without --set"
fi
# a model's edit is marked too: the unedited trace is made on the model
# read again, before the edit
marks --set='target[<s>][1]=2' >"$TMP/model-marks.txt"
if grep -q '^was  *[-0-9]' "$TMP/model-marks.txt"; then
	ok "a model's edit: changed numbers marked"
else
	not_ok "a model's edit: no marks"
fi

# --explain: e_1,2 of the dot scorer with what it is made from, at 12
# digits; the numbers worked here from the lines it shows: e_1,2 = s_1·h_2,
# s_1 = tanh(sum), sum = W_x·y_0 + W_h·s_0 + b
run_cmd trace --scorer=dot -p 12 --explain='step[1].e[2]' je suis
expect_status 0 "--explain"
# vec LABEL: the numbers of the first line LABEL of s_1's record
vec() {
	sed -n '/^  s_1 = tanh(W_x/,/s_1 = tanh(sum)/p' "$TMP/out" |
		grep -m1 "^ *$1 " | sed 's/.*\[//; s/\]//; s/,//g'
}
e12=$(grep -m1 '^e_1,2 = s_1·h_2 = ' "$TMP/out" | sed 's/.* = //')
h2=$(grep -m1 '^    h_2 = tanh(sum) ' "$TMP/out" | sed 's/.*\[//; s/\]//; s/,//g')
if echo "$(vec 's_1 = tanh(sum)') $h2 $e12" | awk '
	{ d = $1*$5 + $2*$6 + $3*$7 + $4*$8; exit !(d - $9 < 1e-9 && $9 - d < 1e-9) }'
then
	ok "--explain: e_1,2 = s_1·h_2 from the lines shown ($e12)"
else
	not_ok "--explain: e_1,2 = $e12, not s_1·h_2: $(cat "$TMP/out")"
fi
if echo "$(vec 'W_x·y_0') $(vec 'W_h·s_0') $(vec b) $(vec sum) \
	$(vec 's_1 = tanh(sum)')" | awk '
	function th(x) { return (exp(2*x) - 1) / (exp(2*x) + 1) }
	{ for (k = 1; k <= 4; k++) {
		s = $k + $(k+4) + $(k+8)
		if (s - $(k+12) > 1e-9 || $(k+12) - s > 1e-9) exit 1
		if (th(s) - $(k+16) > 1e-9 || $(k+16) - th(s) > 1e-9) exit 1 } }'
then
	ok "--explain: s_1 = tanh(W_x·y_0 + W_h·s_0 + b) from the lines shown"
else
	not_ok "--explain: s_1's lines do not add up"
fi
if head -1 "$TMP/out" | grep -qx "step\[1\]\.scores\[2\] = $e12 (dot run), from:" &&
	grep -q '^    h_2: as above$' "$TMP/out" &&
	grep -q "^      y_0: the model's embedding of <s>$" "$TMP/out" &&
	grep -q "x_1: the model's embedding of je$" "$TMP/out" &&
	[ "$(grep -c 'h_1 = tanh(W_x' "$TMP/out")" = 1 ]; then
	ok "--explain: the chain back to the embeddings, each record once"
else
	not_ok "--explain: the chain: $(cat "$TMP/out")"
fi
# with --set, the value set says so, with what its formula gave: the
# header's old value
run_cmd trace --scorer=dot --set='step[1].scores[2]=3' --explain='step[1].alpha[2]' je suis
was=$("$AT" trace --scorer=dot --set='step[1].scores[2]=3' je suis |
	sed -n 's/^set: step\[1\]\.scores\[2\] = 3.0000 (was \(.*\))$/\1/p')
if grep -qx "    set by --set: step\[1\]\.scores\[2\] = 3.0000, computed $was" "$TMP/out"
then
	ok "--explain: a value set by --set, and what it was ($was)"
else
	not_ok "--explain: the value set: $(grep 'set by' "$TMP/out")"
fi
# e_1 is the softmax's first line; its record, the softmax's child, is
# not written again right under it (a probe saw e_1 twice in a row): the
# scores e_1,i come under α_1, once each
run_cmd trace --explain='step[1].weights[2]'
check "--explain of a weight: e_1 written once, the scores under α_1" \
	"$PYTHON3" -c 'import re, sys
rows = open(sys.argv[1], encoding="utf-8").read().split("\n")
e1 = [r for r in rows if re.match(r" *e_1 +\(3\) ", r)]
a1 = [k for k, r in enumerate(rows) if re.match(r"α_1 +\(3\) ", r)]
sys.exit(len(e1) != 1 or not a1 or
         not rows[a1[0] + 1].startswith("  e_1,1 = s_1·h_1 = ") or
         sum(r.startswith("  e_1,") for r in rows) != 3)' "$TMP/out"
# the vectors of lines that start in the same column have their "(4) ["
# in the same column (x_1 = emb(je) under h_1 was two to the right of
# h_1's own lines)
for ex in 'step[1].weights[2]' 'step[1].scores[2] je suis'; do
	# shellcheck disable=SC2086 # the name, then the words
	set -- $ex
	"$AT" trace --explain="$@" >"$TMP/ex" 2>&1
	check "--explain=$ex: vectors aligned by the column their line starts in" \
		"$PYTHON3" -c 'import re, sys
col = {}
n = 0
for r in open(sys.argv[1], encoding="utf-8").read().split("\n"):
    m = re.search(r"\(\d+\) +\[", r)
    if not m: continue
    n += 1
    ind = len(r) - len(r.lstrip(" "))
    if col.setdefault(ind, m.start()) != m.start():
        sys.exit("%r: column %d, not %d" % (r, m.start(), col[ind]))
sys.exit(n < 10 or len(col) < 3)' "$TMP/ex"
done
run_cmd trace --explain='step[1].weights[3]' je suis
expect_status 2 "--explain: an index past the sentence"
expect_err "--explain:1:17: index '3' out of range: expected 1 to 2" \
	"--explain: an index past the sentence: message"
run_cmd trace --explain='step[1].wieghts[1]' je suis
expect_err "--explain:1:9: unknown value 'wieghts' of a step; did you mean weights?" \
	"--explain: a misspelt value"
run_cmd trace --format=json --explain='step[1].e[1]' je
expect_status 2 "--explain refuses JSON"

# --explain of the output word and of h̃_t, at 12 digits: worked here from
# toy4's W_c and W_s (data/toy4.model) and the lines c_1 and s_1 shown:
# h̃_1 = tanh(W_c·[c_1; s_1]), ŷ_1 = softmax(W_s·h̃_1), the word chosen
# the largest
run_cmd trace --scorer=dot -p 12 --explain='step[1].output' je suis
expect_status 0 "--explain of the output word"
# line SYMBOL-REGEX: the numbers of the first line whose symbol matches
line() {
	grep -m1 "^ *$1 " "$TMP/out" | sed 's/.*\[//; s/\]//; s/,//g'
}
# section NAME: the numbers of toy4's [NAME], one row a line, words dropped
section() {
	sed -n "/^\[$1\]/,/^\$/p" "$srcdir/data/toy4.model" | sed '1d; /^$/d' |
		awk '{ for (k = 1; k <= NF; k++) if ($k ~ /^[-0-9]/) printf "%s ", $k; print "" }'
}
ht=$(line 'h̃_1 = tanh(W_c·\[c_1; s_1\])')
if { line 'the context vector c_1'; line 's_1 = tanh(sum)'; echo "$ht";
	section output.W_c; } | awk '
	function th(x) { return (exp(2*x) - 1) / (exp(2*x) + 1) }
	NR == 1 { for (k = 1; k <= 4; k++) x[k] = $k; next }
	NR == 2 { for (k = 1; k <= 4; k++) x[k + 4] = $k; next }
	NR == 3 { for (k = 1; k <= 4; k++) h[k] = $k; next }
	{ d = 0; for (k = 1; k <= 8; k++) d += $k * x[k]; r = NR - 3
	  if (th(d) - h[r] > 1e-9 || h[r] - th(d) > 1e-9) bad = 1; n++ }
	END { exit bad || n != 4 }'
then
	ok "--explain: h̃_1 = tanh(W_c·[c_1; s_1]) from W_c and the lines shown"
else
	not_ok "--explain: h̃_1 = $ht, not tanh(W_c·[c_1; s_1]): $(cat "$TMP/out")"
fi
words=$(sed -n '/^\[output.W_s\]/,/^$/p' "$srcdir/data/toy4.model" |
	awk 'NR > 1 && NF { print $1 }')
if { echo "$ht"; line 'ŷ_1 = softmax(W_s·h̃_1)'; section output.W_s; } | awk -v words="$words" '
	NR == 1 { for (k = 1; k <= 4; k++) h[k] = $k; next }
	NR == 2 { for (k = 1; k <= NF; k++) p[k] = $k; V = NF; next }
	{ z[NR - 2] = 0; for (k = 1; k <= 4; k++) z[NR - 2] += $k * h[k] }
	END { split(words, w, "\n"); s = 0; best = 1
	  for (k = 1; k <= V; k++) { s += exp(z[k]); if (z[k] > z[best]) best = k }
	  for (k = 1; k <= V; k++) { q = exp(z[k]) / s
	    if (q - p[k] > 1e-9 || p[k] - q > 1e-9) exit 1 }
	  printf "%s %.12f\n", w[best], exp(z[best]) / s }' >"$TMP/best"
then
	ok "--explain: ŷ_1 = softmax(W_s·h̃_1) from W_s and h̃_1 shown"
else
	not_ok "--explain: ŷ_1 is not softmax(W_s·h̃_1): $(cat "$TMP/out")"
fi
read -r word p <"$TMP/best"
if head -1 "$TMP/out" | awk -v w="$word" -v p="$p" '
	$1 == "step[1].output[" w "]" && $3 - p < 1e-9 && p - $3 < 1e-9 &&
	$4 == "(dot" { ok = 1 } END { exit !ok }' &&
	grep -q '^  W_s: a weight of the model$' "$TMP/out" &&
	grep -q '^    W_c: a weight of the model$' "$TMP/out" &&
	grep -q '^    \[c_1; s_1\] ' "$TMP/out" &&
	grep -q "^          y_0: the model's embedding of <s>$" "$TMP/out" &&
	grep -q "x_2: the model's embedding of suis$" "$TMP/out"; then
	ok "--explain: the output word ($word) back through h̃_1 and [c_1; s_1] to the embeddings"
else
	not_ok "--explain: the output word's chain ($word $p): $(cat "$TMP/out")"
fi
# a word named: its probability, the same chain
run_cmd trace --scorer=dot -p 12 --explain='step[1].yhat[am]' je suis
am=$(awk '/^ *ŷ_1 = softmax/ { sub(/.*\[/, ""); gsub(/,/, ""); print $4; exit }' "$TMP/out")
if head -1 "$TMP/out" | grep -qx "step\[1\]\.output\[am\] = $am (dot run), from:"; then
	ok "--explain: a word of the output by name (am: $am, the 4th entry)"
else
	not_ok "--explain: step[1].yhat[am]: $(head -1 "$TMP/out")"
fi
# input feeding: s_2 reads h̃_1, whose record is under it
run_cmd trace --input-feeding --scorer=dot --explain='step[2].state[1]' je suis
if grep -q '^  h̃_1 = tanh(W_c·\[c_1; s_1\])' "$TMP/out" &&
	grep -q '^    \[c_1; s_1\] ' "$TMP/out"; then
	ok "--explain: input feeding's h̃_1 followed back from s_2"
else
	not_ok "--explain: input feeding's h̃_1 not under s_2: $(cat "$TMP/out")"
fi
run_cmd trace --explain='step[1].atentional[1]' je suis
expect_status 2 "--explain: a misspelt attentional"
expect_err "--explain:1:9: unknown value 'atentional' of a step; did you mean attentional?" \
	"--explain: a misspelt attentional: message"
run_cmd trace --explain='step[1].output[teh]' je suis
expect_err "--explain:1:16: index 'teh' out of range: expected a word or 1 to 26" \
	"--explain: an output word not in the vocabulary"
run_cmd trace --arch=bahdanau --explain='step[1].htilde[1]' je suis
expect_status 2 "--explain: h̃_t of an architecture without it"
expect_err "--explain:1:9: this architecture has no attentional state" \
	"--explain: h̃_t of an architecture without it: message"
run_cmd trace --set='step[1].output[am]=3' je suis
expect_status 2 "--set refuses the output"
expect_err "--set:1:9: --explain can name output but --set cannot set it" \
	"--set refuses the output: message"

# a step's value: the header line with the value each run had computed
# (dot's e_1,2 = s_1·h_2, worked here from s_1 and h_2 at 12 digits)
run_cmd trace --scorer=dot -p 12
s1=$(grep '^  s_1 = tanh(sum)' "$TMP/out" | sed 's/.*\[//; s/\]//')
h2=$(grep '^  h_2 = tanh(sum)' "$TMP/out" | sed 's/.*\[//; s/\]//')
run_cmd trace --scorer=dot --set='step[1].scores[2]=3'
expect_status 0 "text with a step's --set"
want=$(echo "$s1 $h2" | tr -d ',' | awk '{ printf "%.4f", $1*$5 + $2*$6 + $3*$7 + $4*$8 }')
if grep -qx "set: step\[1\]\.scores\[2\] = 3.0000 (was $want)" "$TMP/out"; then
	ok "text: a step's set line with the value it replaced ($want)"
else
	not_ok "text: a step's set line: $(grep '^set:' "$TMP/out"), expected was $want"
fi
# ... and under the record that holds it, the same: the line whose terms
# do not add up to the value shown says so
check "text: under e_1,2's formula, its value and what the formula gave ($want)" \
	grep -qx "set by --set: step\[1\]\.scores\[2\] = 3.0000, computed $want" "$TMP/out"
check "text: the note right under e_1,2's formula and its was line" \
	sh -c "grep -A2 '^e_1,2 = s_1·h_2 = ' '$TMP/out' | tail -n 1 | grep -q '^set by --set: step'"
# a set weight: the others are not renormalised, and the note says so;
# its computed value is α_1,2 of the unedited trace (dot's softmax of
# e_1, worked here from the e_1 the unedited trace prints, 12 digits)
run_cmd trace --scorer=dot -p 12 --stage=softmax je suis
e1=$(grep -m1 '^e_1 ' "$TMP/out" | sed 's/.*\[//; s/\]//' | tr -d ',')
a2=$(echo "$e1" | awk '{ printf "%.4f", exp($2) / (exp($1) + exp($2)) }')
run_cmd trace --scorer=dot --set='step[1].weights[2]=0.9' je suis
check "text: a set weight's note, computed $a2, not renormalised" \
	grep -qx "set by --set: step\[1\]\.weights\[2\] = 0.9000, computed $a2; the weights are not renormalised" "$TMP/out"
run_cmd trace --scorer=dot je suis
check "text without --set: no note" sh -c "! grep -q 'set by --set' '$TMP/out'"
# Markdown (a handout) says it is a what-if, as the pictures do; the
# line, rendered, names each edit
run_cmd trace --format=markdown --set='step[1].scores[2]=3' --set='source[je][1]=2' je suis
check "markdown: the what-if line" grep -qF \
	'**what-if: the trace with --set step\[1\].scores\[2\]=3, --set source\[je\]\[1\]=2, not the model' "$TMP/out"
if command -v cmark >/dev/null 2>&1; then
	check "markdown: the what-if line renders with its brackets" sh -c \
		"cmark '$TMP/out' | grep -qF '<strong>what-if: the trace with --set step[1].scores[2]=3, --set source[je][1]=2,'"
fi
run_cmd trace --format=markdown je suis
check "markdown without --set: no what-if line" sh -c "! grep -q 'what-if' '$TMP/out'"
# what completion offers after --set= (options --values=--set): every
# name is one that --set takes, a model section of the default model and
# each kind of a step's value
n=0; bad=
for name in $("$ATTN_TRACE" options --values=--set trace); do
	n=$((n + 1))
	"$ATTN_TRACE" trace --set="$name=0.5" je >/dev/null 2>&1 || bad="$bad $name"
done
check "completion's --set names ($n) are all taken by trace --set${bad:+: not$bad}" \
	test "$n" -gt 20 -a -z "$bad"
for want in 'general.W[1][1]' 'source[1][1]' 'output.W_s[1][1]' \
	    'step[1].scores[1]' 'step[1].weights[1]'; do
	check "completion offers $want after --set=" sh -c \
		"'$ATTN_TRACE' options --values=--set trace | grep -qxF '$want'"
done
finish
