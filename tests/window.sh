#!/bin/sh
# window.sh: --window and --window-size on the command line: the one
# parser's errors in every command that traces, the model refusals, and
# every format of a local-m and a local-p trace.  The numbers are checked
# by check_window (by hand) and torch-check (PyTorch).
. "$srcdir/tests/lib.sh"
localp="$srcdir/tests/data/localp.model"
S="un deux trois deux un"

for cmd in trace tui heatmap quiz; do
	run_cmd $cmd --window=local-n
	expect_status 2 "$cmd: an unknown window"
	expect_err "unknown window 'local-n'; did you mean 'local-m'? expected global, local-m, local-p or fixed" \
		"$cmd: the windows of the registry, and the nearest"
	run_cmd $cmd --window-size=-1
	expect_status 2 "$cmd: a negative window size"
	expect_err "--window-size expects a whole number from 0 to 64, not '-1'" \
		"$cmd: the window size's range"
	run_cmd $cmd --window-size=1.5
	expect_status 2 "$cmd: a window size that is not whole"
done
run_cmd trace --model=toy4 --window=local-p je suis
expect_status 1 "local-p on a model without its weights"
expect_err "the local-p window needs the model's sections [local-p.W_p] and [local-p.v_p]" \
	"the missing sections are named"
# a window that needs weights names its built-in model (window_class.model):
# without --model, --window=local-p is localp4, as --input-feeding is feed4
for cmd in "trace" "diagram --format=text --step=2" \
	   "quiz --stage=softmax --answers --seed=1"; do
	"$ATTN_TRACE" $cmd --model=localp4 --window=local-p je suis \
		>"$TMP/own" 2>&1
	run_cmd $cmd --window=local-p je suis
	expect_status 0 "${cmd%% *} --window=local-p alone"
	check "${cmd%% *} --window=local-p alone is localp4's" \
		cmp -s "$TMP/out" "$TMP/own"
done
run_cmd trace --window=local-p je suis
check "the trace names localp4" grep -qF "model: <built-in localp4.model>" \
	"$TMP/out"
# another architecture or input feeding asks for another model, which
# has no local-p weights: refused, naming it
run_cmd trace --arch=bahdanau --window=local-p je suis
expect_err "which <built-in bahdanau4.model> does not have" \
	"--arch=bahdanau --window=local-p is bahdanau4's, refused"
run_cmd trace --input-feeding --window=local-p je suis
expect_err "which <built-in feed4.model> does not have" \
	"--input-feeding --window=local-p is feed4's, refused"
# a local-p D below 1 is a bad option value, a usage error in every
# command, as train has it, before any model is read
for cmd in trace tui model heatmap quiz diagram; do
	words=un
	[ $cmd = model ] && words=
	run_cmd $cmd --model="$localp" --window=local-p --window-size=0 $words
	expect_status 2 "$cmd: local-p with D = 0"
	expect_err "--window=local-p needs a --window-size of at least 1 (its Gaussian's σ is D/2), not 0" \
		"$cmd: local-p's D = 0 is refused with the reason"
done
run_cmd trace --window=local-p --window-size=0 --batch=/dev/null
expect_status 2 "a batch: local-p with D = 0 refused before any line"
run_cmd trace --window=local-m --window-size=0 je suis étudiant
expect_status 0 "local-m with D = 0"
check "local-m, D = 0: one word in the window" \
	grep -q '^window_1 = ⌊p_1⌋ ± D = ⌊1.0000⌋ ± 0, within 1 .. 3: positions 1 .. 1: je (1)$' "$TMP/out"
check "the header names the window" grep -q '^window: local-m, D = 0 ' "$TMP/out"
run_cmd trace --window=global je suis étudiant
expect_status 0 "--window=global"
check "global's header has no window line" sh -c "! grep -q '^window:' '$TMP/out'"

for f in json jsonl csv markdown text; do
	run_cmd trace --model="$localp" --window=local-p --window-size=2 \
		--scorer=all --target="one two" --format=$f "$S"
	expect_status 0 "local-p as $f"
done
run_cmd trace --model="$localp" --window=local-p --format=json --target=one "$S"
check "JSON has position, window, align, gaussian and weights" \
	sh -c "grep -q '\"position\": {\"p\"' '$TMP/out' && grep -q '\"window\": {\"name\": \"local-p\"' '$TMP/out' && grep -q '\"align\":' '$TMP/out' && grep -q '\"gaussian\": {\"sigma\"' '$TMP/out' && grep -q '\"weights\":' '$TMP/out'"
run_cmd trace --model="$localp" --window=local-p --format=csv --target=one "$S"
check "CSV has p_t and the Gaussian factors" \
	sh -c "grep -q '^dot,1,softmax,p_1,1,' '$TMP/out' && grep -q '^dot,1,softmax,exp(-(j - p_1)²/(2σ²)),1,' '$TMP/out'"
run_cmd trace --model="$localp" --window=local-p --format=markdown --target=one "$S"
check "Markdown has the Gaussian column" grep -q '| align_1,i | Gaussian | a_1,i |' "$TMP/out"
run_cmd heatmap --model="$localp" --window=local-p -o "$TMP/h.svg" "$S"
expect_status 0 "heatmap --window=local-p"
check "the SVG outlines each step's window and dots p_t" \
	sh -c "grep -q '<g class=\"window\"' '$TMP/h.svg' && grep -q '<title>window 1 .. 3</title>' '$TMP/h.svg' && grep -q '<title>p_1 = 2.4171</title></circle>' '$TMP/h.svg'"
check "local-p's SVG names its weights a_t (align × the Gaussian), not α" \
	sh -c "grep -q '>attention weights a<tspan' '$TMP/h.svg' && grep -q '<title>a_1,1 = ' '$TMP/h.svg' && ! grep -q '<title>α_' '$TMP/h.svg'"
run_cmd heatmap --window=local-m --window-size=0 -o - --target="i am a student" je suis étudiant
check "the SVG of local-m has p_t's path: a dot a step, a polyline between two" \
	sh -c "[ \$(grep -c '<circle class=\"pt\"' '$TMP/out') -eq 5 ] && [ \$(grep -c '<polyline class=\"pt-path\"' '$TMP/out') -eq 4 ]"
check "local-m's weights are a softmax: α" \
	sh -c "grep -q '>attention weights α<tspan' '$TMP/out' && grep -q '<title>α_1,1 = ' '$TMP/out'"
# the text heatmap (as on a terminal: script gives it one)
if command -v script >/dev/null 2>&1; then
	LC_ALL=C.UTF-8 script -qc "'$ATTN_TRACE' heatmap --window=local-m --window-size=0 --target='i am a student' je suis étudiant" /dev/null >"$TMP/hm" 2>&1
	check "the text heatmap marks the window and p_t" \
		grep -q '^am  *0.0000|█\*1.0000|  0.0000 p_2 = 2.0000' "$TMP/hm"
	check "local-m's text heatmap: the softmax's α" grep -q '^alignment α, dot scorer' "$TMP/hm"
	LC_ALL=C.UTF-8 script -qc "'$ATTN_TRACE' heatmap --model=localp4 --window=local-p --target='european economic area' 'zone économique européenne'" /dev/null >"$TMP/hm" 2>&1
	check "local-p's text heatmap: the final weights a" \
		grep -q '^final weights a (align × the Gaussian), dot scorer' "$TMP/hm"
	# 6 words: a row and its p_t would pass 80 columns, so the p_t go in a
	# list under the table, each whole, and agree with the JSON's p
	S6="zone économique européenne je suis étudiant"
	LC_ALL=C.UTF-8 script -qc "'$ATTN_TRACE' heatmap --model=localp4 --window=local-p $S6" /dev/null | tr -d '\r' >"$TMP/hm6"
	"$ATTN_TRACE" trace --model=localp4 --window=local-p -f json $S6 >"$TMP/hm6.json"
	check "local-p over 6 words: the p_t under the table are the JSON's p" \
		/usr/bin/python3 -c '
import json, re, sys
d = json.load(open(sys.argv[2]))
ps = []
def walk(x):
    if isinstance(x, dict):
        w = x.get("window")
        if isinstance(w, dict) and "p" in w:
            ps.append(w["p"][0])
        for v in x.values():
            walk(v)
    elif isinstance(x, list):
        for v in x:
            walk(v)
walk(d)
text = open(sys.argv[1], encoding="utf-8").read()
got = re.findall(r"p_(\d+) = (-?\d+\.\d{4})", text)
want = [(str(t), "%.4f" % p) for t, p in enumerate(ps, 1)]
rows = [l for l in text.split("\n") if re.match(r"^p_1 = ", l)]
sys.exit(not (got == want and len(rows) == 1 and
              all(len(l) <= 80 for l in text.split("\n")[2:] if "p_" in l)))
' "$TMP/hm6" "$TMP/hm6.json"
fi
run_cmd quiz --model="$localp" --window=local-m --answers --stage=softmax --count=2 --seed=1 "$S"
expect_status 0 "quiz --window=local-m"
check "the quiz names the window" grep -q 'a word outside it weighs 0' "$TMP/out"
run_cmd model --format=json --model="$localp"
check "model --format=json prints local-p's W_p and v_p" \
	grep -q '"local-p": {"W_p": \[\[0.9, -0.4\], \[0.3, 1.2\]\]' "$TMP/out"

# the lesson format's window: and window-size: keys
lesson() {
	printf 'title: t\ngoal: g\n%s\nsentence: je suis étudiant\n\npage: p\nText.\nshow weights t=2\n' \
		"$1" >"$TMP/w.lesson"
}
lesson "$(printf 'window: local-m\nwindow-size: 0')"
run_cmd lesson --check "$TMP/w.lesson"
expect_status 0 "a lesson with window: local-m and window-size: 0"
run_cmd lesson "$TMP/w.lesson" </dev/null
check "the lesson's weights are local-m's, D = 0" \
	grep -q '1.0000' "$TMP/out"
lesson "window: locl-m"
run_cmd lesson --check "$TMP/w.lesson"
expect_status 1 "a lesson with an unknown window"
expect_err "w.lesson:3:9: expected global, local-m, local-p or fixed, found 'locl-m'" \
	"the lesson's window error has its line and column"
lesson "window-size: 2x"
run_cmd lesson --check "$TMP/w.lesson"
expect_status 1 "a lesson with a bad window size"
expect_err "w.lesson:3:14: expected a whole number from 0 to 64" \
	"the lesson's window-size error has its line and column"
lesson "window: local-p"
run_cmd lesson --check "$TMP/w.lesson"
expect_status 1 "a lesson with local-p on a model without its weights"
expect_err "[local-p.W_p]" "the lesson says which sections are missing"

# the diagram draws the window and p_t: local-m at step 3 of three words,
# D = 1, is centred on min(3, 3) = 3 and clipped to positions 2..3
run_cmd diagram --format=text --window=local-m --step=3 zone économique européenne
expect_status 0 "diagram --window=local-m"
check "the diagram names the window" grep -q 'window: positions 2\.\.3' "$TMP/out"
check "and p_3" grep -q 'p_3 = 3\.0000' "$TMP/out"
run_cmd diagram --window=local-m --step=3 -o "$TMP/w.svg" zone économique européenne
check "the SVG diagram marks the window too" grep -q 'window' "$TMP/w.svg"

# under local-p the context sums a_t,i·h_i (align × the Gaussian), and the
# diagram names those weights a, in text and SVG; under local-m they are α
run_cmd diagram --format=text --model=localp4 --window=local-p --step=2 zone économique européenne
check "local-p's text diagram: the context is Σ a·h_i" grep -q 'Σ a·h_i, the context' "$TMP/out"
run_cmd diagram --model=localp4 --window=local-p --step=2 -o "$TMP/wp.svg" zone économique européenne
check "local-p's SVG diagram names a_2,i and no α_2,i (subscripts set as tspans)" \
	sh -c "grep -q '>a<tspan baseline-shift=\"sub\" font-size=\"75%\">2,1</tspan> = ' '$TMP/wp.svg' && ! grep -q 'α<tspan[^>]*>2,' '$TMP/wp.svg' && grep -q 'its weight a (' '$TMP/wp.svg'"
check "local-m's SVG diagram names α_3,i" grep -q '>α<tspan baseline-shift="sub" font-size="75%">3,1</tspan> = ' "$TMP/w.svg"

# CSV: the softmax over a local window computes e - max and exp(e - max)
# inside the window only; outside it their value is empty (not 0, which
# would read as a number), and each step's "window" rows say where it is
# csv_window_ok FILE: prints the rows of e - max and exp(e - max) whose
# value is empty inside the window or set outside it, and the count of
# rows checked on the last line
csv_window_ok() {
	awk -F, '$4 == "window" && $5 == 1 { lo[$1 "," $2] = $6 }
		 $4 == "window" && $5 == 2 { hi[$1 "," $2] = $6 }
		 $4 == "e - max" || $4 == "exp(e - max)" {
			k = $1 "," $2; n++
			inside = $5 >= lo[k] && $5 <= hi[k]
			if (inside != ($6 != "")) print "bad: " $0 }
		 END { print n + 0 }' "$1"
}
run_cmd trace --window=local-m --window-size=0 --format=csv --target="i am a student" je suis étudiant
check "local-m, D = 0: an empty e - max outside the window" \
	grep -qx 'dot,1,softmax,e - max,2,,suis,,i' "$TMP/out"
check "and an empty exp(e - max)" \
	grep -qx 'dot,2,softmax,exp(e - max),3,,étudiant,,am' "$TMP/out"
check "inside the window, its value" \
	grep -qx 'dot,2,softmax,exp(e - max),2,1,suis,,am' "$TMP/out"
check "α stays 0 outside the window (it is a weight)" \
	grep -qx 'dot,1,softmax,α_1,3,0,étudiant,,i' "$TMP/out"
check "local-m: 30 rows (5 steps, 3 words, 2 symbols), empty exactly outside" \
	test "$(csv_window_ok "$TMP/out")" = 30
run_cmd trace --model="$localp" --window=local-p --window-size=1 --scorer=all \
	--format=csv --target="one two" "$S"
csv_window_ok "$TMP/out" >"$TMP/rows"
check "local-p, every scorer: empty exactly outside the window" \
	sh -c "! grep -q '^bad' '$TMP/rows' && [ \$(tail -n 1 '$TMP/rows') -gt 0 ]"
check "local-p: some rows are outside" \
	test "$(awk -F, '$4 == "e - max" && $6 == ""' "$TMP/out" | wc -l)" -gt 0
run_cmd trace --format=csv --scorer=all --target="i am a student" je suis étudiant
check "global CSV: every e - max and exp(e - max) has its value" \
	test "$(awk -F, '($4 == "e - max" || $4 == "exp(e - max)") && $6 == ""' "$TMP/out" | wc -l)" = 0

# the quiz names the weights as the trace does: local-p's context is made
# with a_t, its softmax over the window is align_t; elsewhere α_t
Z="zone économique européenne"
run_cmd quiz --model=localp4 --window=local-p --stage=weighted-sum --answers \
	--seed=1 --count=2 --target="european economic area" "$Z"
check "quiz, local-p: the context's formula sums a_t,i·h_i" \
	sh -c "grep -q '^What is coordinate [0-9] of the context vector, c_[0-9]\[[0-9]\] = Σ_i a_[0-9],i·h_i\[[0-9]\]?\$' '$TMP/out' &&
	       ! grep '^What is' '$TMP/out' | grep -q 'Σ_i α' && grep -q '^  a_[0-9]  ' '$TMP/out'"
run_cmd quiz --model=localp4 --window=local-p --stage=softmax --answers \
	--seed=1 --count=2 --target="european economic area" "$Z"
check "quiz, local-p: the softmax question asks for align_t,i" \
	sh -c "grep -q '^What is the weight of h_[0-9] ([^)]*), align_[0-9],[0-9] = exp(' '$TMP/out' &&
	       grep -q '^(answer: align_[0-9],[0-9] = ' '$TMP/out' && ! grep -q 'α_' '$TMP/out'"
for w in global local-m; do
	run_cmd quiz --window=$w --stage=weighted-sum --stage=softmax --answers --seed=1 --count=2
	check "quiz, $w: α_t in both formulas" \
		sh -c "grep -q 'Σ_i α_[0-9],i·h_i' '$TMP/out' && grep -q ', α_[0-9],[0-9] = exp(' '$TMP/out'"
done
# the fixed window (no attention, src/window_fixed.c): every format runs;
# each step's weights are (0, ..., 0, 1) and its context is the encoder's
# last state, for every scorer alike (the scores are not used); the text
# says where p_t comes from, and no D
for f in text json jsonl csv markdown; do
	run_cmd trace --window=fixed --format=$f --scorer=all je suis étudiant
	expect_status 0 "trace --window=fixed --format=$f"
done
run_cmd trace --window=fixed --format=json --scorer=all --target="i am a student" je suis étudiant
check "fixed: every step's weights are (0, 0, 1) and c_t = h_n, every scorer" \
	"${PYTHON3:-python3}" -c '
import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
hn = d["encoder"][-1]["state"]
outs = set()
for run in d["runs"]:
    outs.add(tuple(run["output"]))
    for s in run["steps"]:
        assert s["weights"] == [0, 0, 1], s["weights"]
        assert s["context"] == hn, (s["context"], hn)
        assert s["window"]["name"] == "fixed" and s["window"]["D"] == 0
        assert s["window"]["first"] == s["window"]["last"] == 3
assert len(d["runs"]) == 7 and len(outs) == 1, outs
' "$TMP/out"
run_cmd trace --window=fixed --window-size=3 je suis étudiant
check "fixed: the header names the window without a D" \
	grep -qx "window: fixed (no attention: every step's context is h_n, the last encoder state, whatever the scores)" "$TMP/out"
check "fixed: p_t is n, said in words, never min(t, n)" \
	sh -c "grep -q '^p_2 = n = 3: the last source word, at every step' '$TMP/out' && ! grep -q 'min(' '$TMP/out'"
run_cmd trace --window=fixed --format=markdown je suis étudiant
check "fixed, Markdown: p_t is n, never min(t, n)" \
	sh -c "grep -q '^p_1 = n = 3: ' '$TMP/out' && ! grep -q 'min(' '$TMP/out'"
run_cmd trace --window=fixed --format=csv je suis étudiant
check "fixed, CSV: α_t,i is 1 at i = n and 0 elsewhere" \
	sh -c "grep '^dot,[0-9]*,softmax,α_[0-9]*,' '$TMP/out' | awk -F, '(\$5 == 3) != (\$6 == 1) { bad = 1 } END { exit bad || NR == 0 }'"
run_cmd train --pairs="$srcdir/data/toy.pairs" --window=fixed --epochs=3 -q -o "$TMP/fixed.model"
expect_status 0 "train --window=fixed"
check "train --window=fixed writes a model" test -s "$TMP/fixed.model"
# the fixed window in the pictures: the step diagram has one line, from
# h_n to c_t, and no line from the query; the heatmap says why one column
# is lit
run_cmd diagram --window=fixed --format=text --step=2 je suis étudiant
check "fixed, diagram: its heading, one line from h_n to c_t, none from the query" \
	sh -c "head -1 '$TMP/out' | grep -qx 'step 2: no attention: c_2 = h_3 at every step' &&
	       [ \$(grep -c '──► c_2 = h_3\$' '$TMP/out') -eq 1 ] && ! grep -q '│◄' '$TMP/out'"
run_cmd diagram --window=fixed --step=2 je suis étudiant
check "fixed, SVG diagram: no weight line from the query, h_3's label says fixed" \
	sh -c "! grep -q 'class=\"weight\"' '$TMP/out' && [ \$(grep -c 'class=\"alpha fixed\"' '$TMP/out') -eq 1 ]"
run_cmd heatmap --window=fixed je suis étudiant
check "fixed, SVG heatmap: a subtitle says why one column is lit" \
	grep -q 'class="subtitle window-note".*fixed window, no attention: all weight on h_3, the last word' "$TMP/out"
# train through the windows against PyTorch (bench/local_ref.py: autograd
# through the same model, from the weights "train --epochs=0" writes, with
# the same clipping and AdamW): after 5 epochs every weight agrees to
# 1e-12.  Bahdanau's with local-p (p_t from s_{t-1}) and local-m, input
# feeding with local-p and local-m, and location-aware through local-p
# (it reads a_{t-1}), and the fixed window in all three, each with every
# scorer.  Skipped without a Python
# that can import torch (TORCH_PYTHON, /usr/bin/python3, $PYTHON3).
torch_python_find
train_vs_torch() {
	label="$1 --window=$2 --window-size=$3"
	arch=$1 window=$2 size=$3
	shift 3
	set -- --scorer=all --window="$window" --window-size="$size" "$@"
	run_cmd train --pairs="$srcdir/data/toy.pairs" "$@" "$arch" --epochs=0 -q -o "$TMP/w0.model"
	run_cmd train --pairs="$srcdir/data/toy.pairs" "$@" "$arch" --epochs=5 -q -o "$TMP/w5.model"
	expect_status 0 "train $label"
	check "train $label: every weight is PyTorch's after 5 epochs" \
		"$torch_python" "$srcdir/bench/local_ref.py" --init="$TMP/w0.model" \
		--pairs="$srcdir/data/toy.pairs" --epochs=5 --compare="$TMP/w5.model" \
		--tolerance=1e-12 "$1" "$2" "$3"
}
if [ -n "$torch_python" ]; then
	train_vs_torch --arch=bahdanau local-p 1 --hidden=4
	train_vs_torch --arch=bahdanau local-p 2 --hidden=6
	train_vs_torch --arch=bahdanau local-m 1 --hidden=4
	train_vs_torch --input-feeding local-p 1
	train_vs_torch --input-feeding local-m 1
	# Luong's without input feeding: location-aware among the scorers
	train_vs_torch --arch=luong local-p 2
	# the fixed window (no attention): the scorers' weights get a
	# gradient of 0 and only decay; h_n gets the context's gradient
	train_vs_torch --arch=luong fixed 0
	train_vs_torch --arch=bahdanau fixed 0 --hidden=4
	train_vs_torch --input-feeding fixed 0
else
	echo "no Python here can import torch: training through the windows is not compared"
fi

finish
