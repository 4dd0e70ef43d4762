#!/bin/sh
# hard.sh: hard attention (--hard, --seed; src/selection_hard.c).  An
# independent Python replay of each step: SplitMix64 (checked against
# published outputs) gives u; cumsum is the running sum of α; l is the
# first j with u < cumsum_j (argmax: the first largest α); the hard
# context is h_l and the soft one Σ α_i h_i.  Then: the same seed gives
# the same bytes, another seed other draws, and bad options are refused.
. "$srcdir/tests/lib.sh"
if [ -z "${PYTHON3:-}" ] || [ "$PYTHON3" = no ]; then
	echo "python3 is needed to replay the JSON"; exit 77
fi

replay() {
	"$PYTHON3" - "$@" <<'PY'
import json, sys
path, seed = sys.argv[1], int(sys.argv[2])
M = (1 << 64) - 1
def splitmix64(state):
    state = (state + 0x9E3779B97F4A7C15) & M
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M
    return state, z ^ (z >> 31)
# published outputs of SplitMix64 seeded with 0 (Vigna's splitmix64.c)
st, outs = 0, []
for _ in range(3):
    st, x = splitmix64(st)
    outs.append(x)
assert outs == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4,
                0x06C45D188009454F], outs
doc = json.load(open(path, encoding="utf-8"))
assert doc["selection"] == "hard" and doc["seed"] == seed
rule = doc["hard_rule"]
H = [enc.get("annotation", enc.get("state")) for enc in doc["encoder"]]
n = len(H)
steps = 0
for run in doc["runs"]:
    state = seed
    for st in run["steps"]:
        a, hd = st["weights"], st["hard"]
        assert hd["rule"] == rule
        cum, acc = [], 0.0
        for x in a:
            acc += x
            cum.append(acc)
        assert cum == hd["cumsum"], (cum, hd["cumsum"])
        if rule == "sample":
            state, x = splitmix64(state)
            u = (x >> 11) * 2.0 ** -53
            assert u == hd["u"], (u, hd["u"])
            l = next((j for j in range(n) if u < cum[j]), None)
            if l is None:
                l = max(j for j in range(n) if a[j] > 0)
        else:
            assert "u" not in hd
            l = a.index(max(a))
        assert hd["l"] == l + 1, (hd["l"], l + 1)
        assert hd["context"] == H[l]
        soft = [sum(a[i] * H[i][k] for i in range(n)) for k in range(len(H[0]))]
        assert all(abs(s - c) < 1e-12 for s, c in zip(soft, st["context"]))
        assert st["concat"][:len(H[l])] == H[l] or \
            doc.get("architecture") == "bahdanau"
        steps += 1
print("replayed %d steps" % steps)
PY
}

for args in "--seed=1" "--seed=7 --scorer=all" "--seed=18446744073709551615" \
	"--seed=3 --target=i_am_a_student" "--seed=5 --arch=bahdanau --scorer=all"; do
	seed=$(echo "$args" | sed 's/.*--seed=\([0-9]*\).*/\1/')
	# shellcheck disable=SC2086 # word splitting wanted
	set -- $args
	case "$args" in *--target=*) set -- "$@" --target="i am a student" ;; esac
	run_cmd trace --hard "$@" --format=json
	cp "$TMP/out" "$TMP/a.json"
	check "hard sample $args replays" replay "$TMP/a.json" "$seed"
	run_cmd trace --hard "$@" --format=json
	check "hard sample $args: same seed, same bytes" cmp -s "$TMP/out" "$TMP/a.json"
done
run_cmd trace --hard=argmax --seed=2 --scorer=all --format=json
check "hard argmax replays" replay "$TMP/out" 2

# another seed draws other numbers
run_cmd trace --hard --seed=1 --format=json
cp "$TMP/out" "$TMP/s1"
run_cmd trace --hard --seed=2 --format=json
check "another seed, other draws" sh -c "! cmp -s '$TMP/out' '$TMP/s1'"

# the soft trace does not change when --seed alone is given
run_cmd trace --format=json
cp "$TMP/out" "$TMP/soft"
run_cmd trace --seed=9 --format=json
check "--seed alone leaves soft attention alone" cmp -s "$TMP/out" "$TMP/soft"

# every format carries the choice
run_cmd trace --hard --seed=1
check "text shows u, cumsum and both contexts" sh -c \
	"grep -q '^u_1 ' '$TMP/out' && grep -q '^cumsum_1 ' '$TMP/out' &&
	 grep -q 'c^soft_1 = ' '$TMP/out' && grep -q 'c_1 = h_[0-9], l = ' '$TMP/out'"

# --gradient and --samples: the same seed, the same bytes; their errors
run_cmd trace --hard --seed=4 --gradient --samples=30 --target="i am a student" --format=json
cp "$TMP/out" "$TMP/g1"
run_cmd trace --hard --seed=4 --gradient --samples=30 --target="i am a student" --format=json
check "--gradient --samples: same seed, same bytes" cmp -s "$TMP/out" "$TMP/g1"
run_cmd trace --hard --seed=4 --target="i am a student" --format=json
check "--samples draws from its own stream: the trace's u are unchanged" \
	"$PYTHON3" -c "
import json, sys
a = json.load(open(sys.argv[1])); b = json.load(open(sys.argv[2]))
ua = [s['hard']['u'] for s in a['runs'][0]['steps']]
ub = [s['hard']['u'] for s in b['runs'][0]['steps']]
assert ua == ub and 'samples' in a['runs'][0]['steps'][0]
assert 'samples' not in b['runs'][0]['steps'][0]
" "$TMP/g1" "$TMP/out"
# Markdown lists every key that JSON has under "gradient" and "samples"
# (scores, u and l included), each number the JSON's to the precision;
# text, Markdown and the stepper's text write the drawn l as whole numbers
for f in json markdown text; do
	"$ATTN_TRACE" trace --hard --seed=4 --gradient --samples=12 -p 6 \
		--target="i am a student" --format=$f >"$TMP/g.$f"
done
check "Markdown carries every key and number of JSON's gradient and samples" \
	"$PYTHON3" -c "
import json, re, sys
doc = json.load(open(sys.argv[1]))
md = open(sys.argv[2], encoding='utf-8').read()
steps = doc['runs'][0]['steps']
lists = re.findall(r'\n(learning signal|Monte Carlo) \(t=(\d+)\):\n\n((?:- .*\n)+)', md)
assert len(lists) == 2 * len(steps), len(lists)
for name, t, body in lists:
    want = steps[int(t) - 1]['gradient' if name == 'learning signal' else 'samples']
    got = dict(re.findall(r'- (\w+) = \x60\[(.*)\]\x60', body))
    assert list(got) == list(want), (t, list(got), list(want))
    for key, v in want.items():
        v = v if isinstance(v, list) else [v]
        nums = got[key].split(',')
        assert len(nums) == len(v), (t, key)
        for a, b in zip(nums, v):
            if key == 'l':
                assert a.strip() == str(b), (t, a, b)
            else:
                assert abs(float(a) - b) <= 5e-7, (t, key, a, b)
" "$TMP/g.json" "$TMP/g.markdown"
check "text writes the drawn l as whole numbers, the JSON's" \
	"$PYTHON3" -c "
import json, re, sys
doc = json.load(open(sys.argv[1]))
ls = re.findall(r'^l \(Monte Carlo\) +\(12\) +\[(.*)\]$', open(sys.argv[2], encoding='utf-8').read(), re.M)
want = [s['samples']['l'] for s in doc['runs'][0]['steps']]
assert [[int(x) for x in l.split(', ')] for l in ls] == want, (ls, want)
" "$TMP/g.json" "$TMP/g.text"
run_cmd trace --gradient --target="i am"
expect_status 2 "--gradient without --hard"
expect_err "--gradient needs --hard and --target" "--gradient error"
run_cmd trace --hard --samples=5
expect_err "--samples needs --hard and --target" "--samples without --target"
run_cmd trace --hard --samples=100001 --target=i
expect_err "--samples expects a whole number from 1 to 100000, not '100001'" "--samples range"

run_cmd trace --hard=maybe
expect_status 2 "--hard=maybe is refused"
expect_err "unknown --hard rule 'maybe'; expected sample or argmax" "--hard error names the rules"
run_cmd trace --hard=smaple
expect_err "unknown --hard rule 'smaple'; did you mean 'sample'? expected sample or argmax" "a misspelt rule gets the nearest"
run_cmd trace --hard --seed=-1
expect_status 2 "--seed=-1 is refused"
expect_err "--seed expects a whole number" "--seed error"
run_cmd trace --hard --seed=18446744073709551616
expect_status 2 "--seed beyond 2^64 - 1 is refused"
run_cmd model --hard
expect_status 2 "model refuses --hard"

# heatmap and quiz take the same options, through the same parser
run_cmd heatmap --hard --seed=4 --arch=bahdanau -o "$TMP/h1.svg"
expect_status 0 "heatmap --hard"
run_cmd heatmap --hard --seed=4 --arch=bahdanau -o "$TMP/h2.svg"
check "heatmap --hard: same seed, same bytes" cmp -s "$TMP/h1.svg" "$TMP/h2.svg"
# --show=drawn: a 1 in the drawn word of each step, as the trace says
run_cmd heatmap --hard --seed=2 --show=drawn --target="i am a student" -o "$TMP/d.svg"
run_cmd trace --hard --seed=2 --target="i am a student" --format=json
check "heatmap --show=drawn marks the trace's l, one a step" \
	"$PYTHON3" -c "
import json, re, sys
doc = json.load(open(sys.argv[1]))
ls = [st['hard']['l'] for st in doc['runs'][0]['steps']]
svg = open(sys.argv[2], encoding='utf-8').read()
ones = re.findall(r'<title>drawn_(\d+),(\d+) = 1\.0000', svg)
assert [int(i) for t, i in ones] == ls and [int(t) for t, i in ones] == list(range(1, len(ls) + 1)), (ones, ls)
assert len(re.findall(r'<title>drawn_', svg)) == 3 * len(ls)
" "$TMP/out" "$TMP/d.svg"
run_cmd heatmap --show=drawn
expect_err "--show=drawn needs --hard" "--show=drawn without --hard"
run_cmd heatmap --hard --show=everything
expect_err "unknown --show 'everything'; expected weights or drawn" "--show error"
run_cmd heatmap --hard=sometimes
expect_err "unknown --hard rule 'sometimes'" "heatmap --hard error"
run_cmd quiz --hard --seed=11 --answers --count=3 --arch=bahdanau
cp "$TMP/out" "$TMP/q1"
expect_status 0 "quiz --hard"
run_cmd quiz --hard --seed=11 --answers --count=3 --arch=bahdanau
check "quiz --hard: same seed, same bytes" cmp -s "$TMP/out" "$TMP/q1"
# the lesson format's keys hard: and seed:
printf 'title: hard\ngoal: g\nhard: sample\nseed: 5\nsentence: je suis étudiant\n\npage: p\nText.\n\nshow context t=1\n' >"$TMP/h.lesson"
run_cmd lesson --check "$TMP/h.lesson"
expect_status 0 "a lesson with hard: and seed: checks"
run_cmd lesson --plain "$TMP/h.lesson"
check "show context shows the draw" sh -c "grep -q '^u_1 ' '$TMP/out' && grep -q 'c_1 = h_' '$TMP/out'"
run_cmd trace --hard --seed=5 --stage=weighted-sum
check "the lesson draws what trace --seed=5 draws" sh -c \
	"grep '^u_1 ' '$TMP/out' | head -1 >'$TMP/u1' &&
	 $ATTN_TRACE lesson --plain '$TMP/h.lesson' | grep '^u_1 ' | cmp -s - '$TMP/u1'"
sed 's/hard: sample/hard: maybe/' "$TMP/h.lesson" >"$TMP/bad.lesson"
run_cmd lesson --check "$TMP/bad.lesson"
expect_err "bad.lesson:3:7: expected sample or argmax, found 'maybe'" "lesson hard: error"
sed 's/seed: 5/seed: five/' "$TMP/h.lesson" >"$TMP/bad.lesson"
run_cmd lesson --check "$TMP/bad.lesson"
expect_err "bad.lesson:4:7: expected a whole number" "lesson seed: error"

run_cmd quiz --hard=x
expect_err "unknown --hard rule 'x'" "quiz --hard error"

# train --hard against the same REINFORCE written in PyTorch
# (bench/hard_ref.py: autograd through h_l, the score-function and entropy
# terms through a surrogate, the baselines in closed form, the u's drawn by
# its own SplitMix64): from the same starting weights, 40 epochs, the final
# losses (after one more pass of draws) must agree to 6 significant digits.
torch_python=
for py in "${TORCH_PYTHON:-}" /usr/bin/python3 "${PYTHON3:-}"; do
	[ -n "$py" ] && [ "$py" != no ] || continue
	if "$py" -c 'import torch' >/dev/null 2>&1; then
		torch_python=$py
		break
	fi
done
if [ -n "$torch_python" ]; then
	hflags="--hard --scorer=dot,general,concat --seed=3 --lr=0.01 --weight-decay=0.2 --clip=5"
	# shellcheck disable=SC2086
	run_cmd train --pairs="$srcdir/data/toy.pairs" $hflags --epochs=0 -q -o "$TMP/hinit.model"
	# shellcheck disable=SC2086
	run_cmd train --pairs="$srcdir/data/toy.pairs" $hflags --epochs=40 -o "$TMP/h40.model"
	c_loss=$(sed -n 's/.*the final weights: loss \([0-9.]*\),.*/\1/p' "$TMP/err")
	py_loss=$("$torch_python" "$srcdir/bench/hard_ref.py" --init="$TMP/hinit.model" \
		--pairs="$srcdir/data/toy.pairs" --epochs=40 --seed=3 \
		--scorer=dot,general,concat | sed -n 's/.*loss \([0-9.]*\) .*/\1/p')
	check "train --hard's loss after 40 epochs ($c_loss) is PyTorch's ($py_loss)" \
		awk -v c="$c_loss" -v p="$py_loss" 'BEGIN { d = c - p; if (d < 0) d = -d; exit !(c != "" && p != "" && d <= 1e-6 * p + 5e-7) }'
	# the same in Bahdanau's architecture (c_t = h_l feeds the decoder,
	# so the later steps depend on the draws), with input feeding (so does
	# h̃_{t-1}), through local-m, and with location-aware (its scores read
	# the soft α_{t-1}), every scorer, with and without guided alignment;
	# and through local-p, drawing from π = a / Σa, whose terms reach p_t
	# (hard_ref.py: autograd through z = e - (j - p)²/(2σ²) to W_p, v_p)
	for hcase in "luong location-aware 0 global" "bahdanau all 0 global" \
		     "bahdanau location-aware,additive 0.3 global" \
		     "luong all 0.3 global" "luong all 0 local-m" \
		     "luong all 0 global --input-feeding" \
		     "luong location-aware,concat 0 local-m --input-feeding" \
		     "luong all 0 local-p" "luong location-aware,concat 0 local-p" \
		     "luong all 0 local-p --input-feeding" "bahdanau all 0 local-p"; do
		# shellcheck disable=SC2086
		set -- $hcase
		hflags="--hard --arch=$1 --scorer=$2 --align-weight=$3 --window=$4 ${5:-} --positions=8 --seed=5"
		# shellcheck disable=SC2086
		run_cmd train --pairs="$srcdir/data/toy.pairs" $hflags --epochs=0 -q -o "$TMP/hinit.model"
		# shellcheck disable=SC2086
		run_cmd train --pairs="$srcdir/data/toy.pairs" $hflags --epochs=40 -o "$TMP/h40.model"
		c_loss=$(sed -n 's/.*the final weights: loss \([0-9.]*\),.*/\1/p' "$TMP/err")
		py_loss=$("$torch_python" "$srcdir/bench/hard_ref.py" --init="$TMP/hinit.model" \
			--pairs="$srcdir/data/toy.pairs" --epochs=40 --seed=5 \
			--scorer="$2" --align-weight="$3" --window="$4" | sed -n 's/.*loss \([0-9.]*\) .*/\1/p')
		check "train $hflags: loss after 40 epochs ($c_loss) is PyTorch's ($py_loss)" \
			awk -v c="$c_loss" -v p="$py_loss" 'BEGIN { d = c - p; if (d < 0) d = -d; exit !(c != "" && p != "" && d <= 1e-6 * p + 5e-7) }'
	done
else
	echo "no Python here can import torch: train --hard is not compared"
fi

# a model trained with --hard says how greedy decoding with --hard=argmax
# does: hard4's header counts, recounted here pair by pair from
# "trace --hard=argmax" (each pair's output must be its target, then </s>)
argmax_count() { # SCORER: the training pairs that decode exactly
	grep -v '^#' "$srcdir/data/toy.pairs" | grep '|||' | while IFS= read -r line; do
		src=$(printf '%s\n' "$line" | sed 's/ *|||.*//')
		tgt=$(printf '%s\n' "$line" | awk -F' [|][|][|] ' '{ print $2 }')
		out=$("$ATTN_TRACE" trace --model=hard4 --hard=argmax --scorer="$1" \
			--format=json "$src" | "${PYTHON3:-python3}" -c \
			'import json, sys; print(" ".join(json.load(sys.stdin)["runs"][0]["output"]))')
		[ "$out" = "$tgt </s>" ] && echo ok
	done | wc -l
}
hdr=$(sed -n '/Greedy decoding/,/^# Alignment/p' "$srcdir/data/hard4.model")
check "hard4's header counts greedy decoding with --hard=argmax" \
	sh -c "printf '%s' '$hdr' | grep -q 'Greedy decoding with --hard=argmax reproduces'"
for sc in dot location; do
	n=$(argmax_count $sc)
	check "hard4 with $sc: trace --hard=argmax decodes $n pairs, as its header says" \
		sh -c "printf '%s' '$hdr' | grep -q ' $n/38[^,]* with $sc'"
done

# the diagram marks the drawn word: the l that the JSON trace records
l=$("$ATTN_TRACE" trace --hard --seed=3 --format=json | "${PYTHON3:-python3}" -c 'import json, sys; print(json.load(sys.stdin)["runs"][0]["steps"][1]["hard"]["l"])')
run_cmd diagram --format=text --hard --seed=3 --step=2
expect_status 0 "diagram --hard"
check "the diagram draws h_l of step 2 from the JSON's l ($l)" \
	sh -c "test -n '$l' && grep -q '^sampled: h_$l ' '$TMP/out' && grep -q '^c_2 .* = h_$l, drawn' '$TMP/out'"
run_cmd diagram --hard=argmax --step=1 -o "$TMP/hd.svg"
check "the SVG diagram marks the drawn word" grep -q '● sampled: c<tspan baseline-shift="sub" font-size="75%">1</tspan> = h<tspan' "$TMP/hd.svg"

finish
