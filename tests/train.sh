#!/bin/sh
# train.sh: "attn-trace train" through the program: options, exit
# statuses, pairs file errors, progress, determinism, and the trained toy
# model rebuilt byte for byte from data/toy.pairs.
. "$srcdir/tests/lib.sh"
pairs="$srcdir/data/toy.pairs"

# Until cli.c dispatches to cli_train, there is nothing to test here.
"$ATTN_TRACE" train --help >"$TMP/out" 2>&1
if grep -q "unknown command 'train'" "$TMP/out"; then
	echo "SKIP: this attn-trace has no train command yet"
	exit 77
fi

printf 'je suis étudiant ||| i am a student\n# a comment\n\nzone économique européenne ||| european economic area\n' >"$TMP/two.pairs"

# --- the command line ---
run_cmd train --help
expect_status 0 "train --help"
check "train --help shows the usage" grep -q '^Usage: attn-trace train' "$TMP/out"
check "train --help documents --weight-decay" grep -q -- '--weight-decay' "$TMP/out"
run_cmd train -o "$TMP/x.model"
expect_status 2 "train without --pairs"
expect_err "needs --pairs=FILE" "the missing --pairs is named"
expect_err "Try 'attn-trace --help'" "the usage hint follows"
run_cmd train --pairs="$TMP/two.pairs"
expect_status 2 "train without -o"
run_cmd train --pairs="$TMP/two.pairs" -o "$TMP/x.model" --scorer=no-such-scorer
expect_status 2 "an unknown scorer"
run_cmd train --pairs="$TMP/two.pairs" -o "$TMP/x.model" --epochs=-1
expect_status 2 "negative epochs"
run_cmd train --pairs="$TMP/two.pairs" -o "$TMP/x.model" --lr=0,1
expect_status 2 "a comma in --lr"
expect_err "--lr expects a number" "--lr is explained"
run_cmd train --pairs="$TMP/two.pairs" -o "$TMP/x.model" --seed=-3
expect_status 2 "a negative seed"
run_cmd train --pairs="$TMP/two.pairs" -o "$TMP/x.model" --hidden=65
expect_status 2 "--hidden out of range"
run_cmd train --pairs="$TMP/two.pairs" -o "$TMP/x.model" --optimizer=rmsprop
expect_status 2 "an unknown optimizer"
run_cmd train --pairs="$TMP/two.pairs" -o "$TMP/x.model" --frob
expect_status 2 "an unknown option"
expect_err "unknown option '--frob'" "the unknown option is named"
run_cmd train --pairs="$TMP/two.pairs" -o "$TMP/x.model" je suis
expect_status 2 "train takes no sentence"
run_cmd train --pairs="$TMP/two.pairs" -o "$TMP/x.model" --init="$pairs" --hidden=4
expect_status 2 "--init with a size"

# --- bad data ---
run_cmd train --pairs="$TMP/missing.pairs" -o "$TMP/x.model"
expect_status 1 "a missing pairs file"
expect_err "missing.pairs" "the missing file is named"
printf 'je suis ||| i am\nje suis étudiant\n' >"$TMP/bad.pairs"
run_cmd train --pairs="$TMP/bad.pairs" -o "$TMP/x.model"
expect_status 1 "a line without |||"
expect_err 'bad.pairs:2:18: expected "|||" between the source and the target words, found end of line' "FILE:LINE:COL for a line without |||"
printf 'je suis |||\n' >"$TMP/bad.pairs"
run_cmd train --pairs="$TMP/bad.pairs" -o "$TMP/x.model"
expect_status 1 "an empty target side"
expect_err 'bad.pairs:1:12: expected target words after "|||", found end of line' "FILE:LINE:COL for an empty side"
printf 'je suis student ||| i am\n' >"$TMP/bad.pairs"
run_cmd train --pairs="$TMP/bad.pairs" -o "$TMP/x.model" --init="$srcdir/data/toy4.model"
expect_status 1 "a word in only one vocabulary"
expect_err 'bad.pairs:1:9: expected a source word of' "FILE:LINE:COL for a word of the wrong side"
expect_err 'which is only in its target vocabulary' "the other vocabulary is named"
check "no model is written after an error" test ! -e "$TMP/x.model"

# --- training ---
# the three scorers of the built-in model, named (the default, all, adds
# the scorers without weights of their own, which share these)
sc3=--scorer=dot,general,concat
run_cmd train --pairs="$TMP/two.pairs" -o "$TMP/a.model" --epochs=800 --every=400 $sc3
expect_status 0 "training two pairs"
check "progress names the epochs" grep -q '^epoch 400/800  loss [0-9.]*  accuracy [0-9.]*%$' "$TMP/err"
check "progress on a pipe has no carriage return" sh -c "! grep -q \"$(printf '\r')\" '$TMP/err'"
check "the summary counts the pairs" grep -q 'reproduces 2/2 pairs with dot, 2/2 with general, 2/2 with concat' "$TMP/err"
run_cmd trace --model="$TMP/a.model" --scorer=all zone économique européenne
expect_status 0 "the trained model traces"
check "greedy dot reproduces the pair" grep -q '^dot output: european economic area </s>' "$TMP/out"
check "greedy concat reproduces the pair" grep -q '^concat output: european economic area </s>' "$TMP/out"
mkdir "$TMP/again"
run_cmd train --pairs="$TMP/two.pairs" -o "$TMP/again/a.model" --epochs=800 -q $sc3
check "--quiet prints nothing" test ! -s "$TMP/err"
check "the same seed writes the same bytes" cmp -s "$TMP/a.model" "$TMP/again/a.model"
run_cmd train --pairs="$TMP/two.pairs" -o - --epochs=800 --every=400 --seed=2 $sc3
expect_status 0 "-o - writes to stdout"
check "another seed writes another model" sh -c "! cmp -s '$TMP/out' '$TMP/a.model'"
check "the model file says how it was trained" grep -q '^#   attn-trace train --pairs=two.pairs --scorer=dot,general,concat --epochs=800' "$TMP/out"

# --- threads (--jobs): the pairs of toy.pairs four times over, 152 pairs,
# three chunks of 64 (train.h, TRAIN_CHUNK); each number of threads
# writes the same bytes, and hard attention trains on one ---
for k in 1 2 3 4; do grep -v '^#' "$pairs"; done >"$TMP/four.pairs"
for j in 1 2 3; do
	mkdir "$TMP/j$j"
	# shellcheck disable=SC2086
	run_cmd train --pairs="$TMP/four.pairs" -o "$TMP/j$j/four.model" -q --epochs=4 --jobs=$j --align-weight=0.3 $sc3
	expect_status 0 "training 152 pairs on $j threads"
	run_cmd train --pairs="$TMP/four.pairs" -o "$TMP/j$j/four-hard.model" -q --epochs=4 -j $j --hard --arch=bahdanau --scorer=dot
	expect_status 0 "training 152 pairs on $j threads, --hard"
done
for j in 2 3; do
	check "--jobs=$j writes the bytes that --jobs=1 writes" cmp -s "$TMP/j1/four.model" "$TMP/j$j/four.model"
	check "--jobs=$j --hard writes the bytes that --jobs=1 writes" cmp -s "$TMP/j1/four-hard.model" "$TMP/j$j/four-hard.model"
done
check "the model does not record the threads" sh -c "! grep -q -e '--jobs\|-j' '$TMP/j2/four.model'"
run_cmd train --pairs="$pairs" -o "$TMP/x.model" --jobs=0
expect_status 2 "--jobs=0"
expect_err "--jobs expects a whole number from 1 to 64, not '0'" "the range of --jobs is given"
check "no model is written after a bad --jobs" test ! -e "$TMP/x.model"

# --- the built-in toy model and lesson 14's snapshots of its training,
# rebuilt as make toy-model builds them (TOY_TRAIN_FLAGS, TOY_MORE_FLAGS,
# TOY_EPOCHS and TOY_SNAPSHOT_EPOCHS in Makefile.am) ---
toy_flags="--scorer=dot,general,concat,scaled,location --positions=8 --align-weight=0.3 --seed=1 --optimizer=adam --lr=0.01 --weight-decay=0.2 --clip=5 --embedding=4 --hidden=4 --attention=4"
more_flags="--scorer=additive,location-aware --freeze-shared --positions=8 --align-weight=0.3 --optimizer=adam --lr=0.01 --weight-decay=0.2 --clip=5"
# alignment accuracy, as train reports it: at least 95% on the training
# pairs and 90% on the held-out ones, for each scorer named
check_accuracy() {
	for which in "training pairs:95" "held-out pairs (heldout.pairs):90"; do
		what=${which%:*} least=${which##*:}
		line=$(grep -F "alignment accuracy on the $what: " "$TMP/err" || true)
		check "train reports the alignment accuracy on the $what" test -n "$line"
		for sc in "$@"; do
			pct=$(printf '%s\n' "$line" | sed -n "s/.* $sc \([0-9.]*\)% .*/\1/p")
			check "$sc aligns at least $least% of the words of the $what ($pct%)" \
				awk -v p="$pct" -v l="$least" 'BEGIN { exit !(p != "" && p + 0 >= l) }'
		done
	done
}
# shellcheck disable=SC2086 # the flags are words
run_cmd train --pairs="$pairs" --heldout="$srcdir/data/heldout.pairs" -o "$TMP/toy4-base.model" --every=100000 --epochs=3000 $toy_flags
expect_status 0 "training the toy model, step 1"
check_accuracy dot general concat scaled location
# shellcheck disable=SC2086
run_cmd train --pairs="$pairs" --heldout="$srcdir/data/heldout.pairs" --init="$TMP/toy4-base.model" -o "$TMP/toy4.model" --every=100000 --epochs=3000 $more_flags
expect_status 0 "training the toy model, step 2: additive and location-aware"
check_accuracy additive location-aware
check "data/toy4.model is rebuilt byte for byte" cmp -s "$TMP/toy4.model" "$srcdir/data/toy4.model"
# step 2 keeps every weight of step 1 and tells its story
check "step 2 changes none of step 1's weights" \
	sh -c "grep -v '^#' '$TMP/toy4-base.model' | cat -s >'$TMP/w1'; grep -v '^#' '$TMP/toy4.model' | awk '/^\[additive|^\[location-aware/ { skip = 1; next } /^\[/ { skip = 0 } !skip' | cat -s >'$TMP/w2'; cmp -s '$TMP/w1' '$TMP/w2'"
check "toy4's header carries step 1's, indented" \
	sh -c "sed -n '/^# The --init model, toy4-base.model, says of itself:\$/,\$p' '$TMP/toy4.model' | grep -q '^#     attn-trace train --pairs=toy.pairs --scorer=dot,general,concat,scaled,location --epochs=3000\$'"
# the built-in model of Bahdanau's architecture, as make bahdanau-model
# builds it (BAHD_TRAIN_FLAGS and BAHD_EPOCHS in Makefile.am)
bahd_flags="--arch=bahdanau --scorer=dot,general,concat,scaled,location,additive,location-aware --positions=8 --align-weight=0.3 --seed=1 --optimizer=adam --lr=0.01 --weight-decay=0.2 --clip=5 --embedding=4 --hidden=4 --attention=4"
# shellcheck disable=SC2086
run_cmd train --pairs="$pairs" --heldout="$srcdir/data/heldout.pairs" -o "$TMP/bahdanau4.model" --every=100000 --epochs=3000 $bahd_flags
expect_status 0 "training the bahdanau model"
# its alignment accuracy too: at least 95% and 90%, for every scorer
for which in "training pairs:95" "held-out pairs (heldout.pairs):90"; do
	what=${which%:*} least=${which##*:}
	line=$(grep -F "alignment accuracy on the $what: " "$TMP/err" || true)
	for sc in dot general concat scaled location additive location-aware; do
		pct=$(printf '%s\n' "$line" | sed -n "s/.* $sc \([0-9.]*\)%.*/\1/p")
		check "bahdanau4, $sc aligns at least $least% of the $what ($pct%)" \
			awk -v p="$pct" -v l="$least" 'BEGIN { exit !(p != "" && p + 0 >= l) }'
	done
done
check "data/bahdanau4.model is rebuilt byte for byte" cmp -s "$TMP/bahdanau4.model" "$srcdir/data/bahdanau4.model"
# the built-in model of the local-p window, as make localp-model builds it
# (LOCALP_TRAIN_FLAGS and LOCALP_EPOCHS in Makefile.am)
localp_flags="--init=toy4 --scorer=dot,general,concat,scaled,location --window=local-p --window-size=1 --seed=1 --optimizer=adam --lr=0.01 --weight-decay=0.2 --clip=5"
# shellcheck disable=SC2086
run_cmd train --pairs="$pairs" -o "$TMP/localp4.model" -q --epochs=3000 $localp_flags
expect_status 0 "training the local-p model"
check "data/localp4.model is rebuilt byte for byte" cmp -s "$TMP/localp4.model" "$srcdir/data/localp4.model"
check "localp4 records how it was trained" grep -q -e "--window=local-p --window-size=1" "$TMP/localp4.model"
check "localp4 has W_p and v_p" grep -q "^\[local-p.v_p\]" "$TMP/localp4.model"
# a scorer that --init's model has and the training does not name is
# left out, as the shared weights it was learnt on change: localp4 trains
# five of toy4's seven scorers (with --freeze-shared they stay: toy4's
# second step above)
for sec in additive.W location-aware.F; do
	check "localp4 leaves out toy4's [$sec]" \
		sh -c "grep -q '^\[$sec\]\$' '$srcdir/data/toy4.model' && ! grep -q '^\[$sec\]\$' '$TMP/localp4.model'"
done
# train --init keeps [local-p.*] though the training is global
run_cmd train --pairs="$pairs" -o "$TMP/keep.model" -q --epochs=1 --init="$TMP/localp4.model" --scorer=dot
expect_status 0 "training on from localp4 without a window"
check "train --init keeps [local-p.W_p]" grep -q "^\[local-p.W_p\]" "$TMP/keep.model"
# the built-in model with input feeding, as make feed-model builds it
# (FEED_TRAIN_FLAGS and FEED_EPOCHS in Makefile.am)
feed_flags="--input-feeding --scorer=dot,general,concat,scaled,location --positions=8 --align-weight=0.3 --seed=1 --optimizer=adam --lr=0.01 --weight-decay=0.2 --clip=5 --embedding=4 --hidden=4 --attention=4"
# shellcheck disable=SC2086
run_cmd train --pairs="$pairs" -o "$TMP/feed4.model" -q --epochs=3000 $feed_flags
expect_status 0 "training the input-feeding model"
check "data/feed4.model is rebuilt byte for byte" cmp -s "$TMP/feed4.model" "$srcdir/data/feed4.model"
check "feed4 says input-feeding yes" grep -q "^input-feeding yes" "$TMP/feed4.model"
# what input feeding refuses
run_cmd train --pairs="$pairs" -o "$TMP/x.model" --input-feeding --arch=bahdanau
expect_status 2 "--input-feeding with --arch=bahdanau"
expect_err "--input-feeding is Luong's" "the architecture is named"
run_cmd train --pairs="$pairs" -o "$TMP/feed-localp.model" -q --epochs=2 --input-feeding --window=local-p
expect_status 0 "--input-feeding with local-p trains"
check "its model has input feeding and [local-p.W_p]" \
	sh -c "grep -q '^input-feeding yes' '$TMP/feed-localp.model' && grep -q '^\[local-p.W_p\]' '$TMP/feed-localp.model'"
run_cmd train --pairs="$pairs" -o "$TMP/feed-localp2.model" -q --epochs=1 --init="$TMP/feed-localp.model" --window=local-p
expect_status 0 "train --init with input feeding, through local-p"
run_cmd train --pairs="$pairs" -o "$TMP/x.model" --input-feeding --init=toy4
expect_status 1 "--input-feeding with a model without it"
expect_err "has no input feeding, and --input-feeding asks for it" "the model is named"
run_cmd train --pairs="$pairs" -o "$TMP/x.model" -q --epochs=1 --init=feed4 --scorer=dot
expect_status 0 "train --init=feed4"
check "--init keeps the input feeding" grep -q "^input-feeding yes" "$TMP/x.model"
rm -f "$TMP/x.model"
# what a window refuses
run_cmd train --pairs="$pairs" -o "$TMP/bahd-localp.model" -q --epochs=2 --window=local-p --arch=bahdanau --hidden=4
expect_status 0 "--window=local-p with --arch=bahdanau trains"
check "its model is Bahdanau's, with [local-p.W_p]" \
	sh -c "grep -q '^architecture bahdanau' '$TMP/bahd-localp.model' && grep -q '^\[local-p.W_p\]' '$TMP/bahd-localp.model'"
run_cmd trace --model="$TMP/bahd-localp.model" --window=local-p --scorer=all je suis étudiant
expect_status 0 "the Bahdanau local-p model traces through local-p"
run_cmd train --pairs="$pairs" -o "$TMP/x.model" --window=local-m --align-weight=0.3
expect_status 2 "--window with --align-weight"
expect_err "--align-weight and --window=local-m do not go together" "the clash is named"
run_cmd train --pairs="$pairs" -o "$TMP/x.model" --window=local-p --window-size=0
expect_status 2 "local-p with D = 0"
expect_err "needs a --window-size of at least 1" "the size is explained"
run_cmd train --pairs="$pairs" -o "$TMP/la-localp.model" -q --epochs=2 --window=local-p --scorer=location-aware
expect_status 0 "local-p with location-aware trains"
run_cmd train --pairs="$pairs" -o "$TMP/x.model" --window=locl-p
expect_status 2 "an unknown window"
expect_err "did you mean 'local-p'?" "the near name is offered"
run_cmd train --pairs="$pairs" -o "$TMP/bahd-localm.model" -q --epochs=1 --window=local-m --init=bahdanau4
expect_status 0 "--window=local-m with a Bahdanau --init model"
# the loss train reports is its model's traces': Bahdanau's architecture
# through local-p (p_t from s_{t-1}), each pair traced teacher-forced as
# JSON, -log p of each gold word and of </s>, over their count
run_cmd train --pairs="$pairs" -o "$TMP/bahd-lp2.model" --epochs=30 --every=1000 --arch=bahdanau --hidden=4 --scorer=dot --window=local-p --window-size=2
expect_status 0 "training Bahdanau's through local-p, D = 2"
c_loss=$(sed -n 's/.*the final weights: loss \([0-9.]*\),.*/\1/p' "$TMP/err")
cat >"$TMP/traced_loss.py" <<'PY'
import json, math, subprocess, sys
prog, model, pairs = sys.argv[1:4]
total, count = 0.0, 0
for line in open(pairs, encoding="utf-8"):
    line = line.split("#", 1)[0].strip()
    if not line:
        continue
    src, tgt = (part.strip() for part in line.split("|||")[:2])
    out = subprocess.run([prog, "trace", "--model=" + model, "--scorer=dot",
                          "--window=local-p", "--window-size=2",
                          "--format=json", "--target=" + tgt, src],
                         check=True, capture_output=True).stdout
    d = json.loads(out)
    steps = d["runs"][0]["steps"]
    gold = tgt.split() + ["</s>"]
    assert len(steps) == len(gold)
    for step, word in zip(steps, gold):
        total -= math.log(step["output"]["probs"][d["vocab"].index(word)])
        count += 1
print("%.9f" % (total / count))
PY
t_loss=$("${PYTHON3:-python3}" "$TMP/traced_loss.py" "$ATTN_TRACE" "$TMP/bahd-lp2.model" "$pairs")
check "train's final loss ($c_loss) is its JSON traces' ($t_loss)" \
	awk -v c="$c_loss" -v t="$t_loss" 'BEGIN { d = c - t; if (d < 0) d = -d; exit !(c != "" && t != "" && d <= 6e-7) }'
check "no model is written after a refusal" test ! -e "$TMP/x.model"
# the built-in model of hard attention, as make hard-model builds it
# (HARD_TRAIN_FLAGS and HARD_EPOCHS in Makefile.am): REINFORCE's draws come
# from --seed, so the same command gives the same bytes
hard_flags="--hard --scorer=dot,general,concat,scaled,location --positions=8 --align-weight=0.3 --seed=1 --optimizer=adam --lr=0.01 --weight-decay=0.2 --clip=5 --embedding=4 --hidden=4 --attention=4"
# shellcheck disable=SC2086
run_cmd train --pairs="$pairs" --heldout="$srcdir/data/heldout.pairs" -o "$TMP/hard4.model" --every=100000 --epochs=3000 $hard_flags
expect_status 0 "training the hard-attention model"
check "data/hard4.model is rebuilt byte for byte" cmp -s "$TMP/hard4.model" "$srcdir/data/hard4.model"
# shellcheck disable=SC2086
run_cmd train --pairs="$pairs" -o "$TMP/hard4-seed2.model" -q --epochs=30 $hard_flags --seed=2
# shellcheck disable=SC2086
run_cmd train --pairs="$pairs" -o "$TMP/hard4-seed1.model" -q --epochs=30 $hard_flags
check "train --hard with another seed gives other weights" \
	sh -c "! cmp -s '$TMP/hard4-seed1.model' '$TMP/hard4-seed2.model'"
run_cmd train --pairs="$pairs" -o "$TMP/x.model" -q --epochs=1 --hard=argmax
expect_status 2 "train --hard=argmax is refused"
check "it says what --hard takes" grep -q "train --hard takes only 'sample'" "$TMP/err"
check "no model is written when it refuses" test ! -e "$TMP/x.model"
# through local-p (draws from π = a / Σa; tests/hard.sh checks the numbers):
# W_p and v_p learn, and the same seed gives the same bytes
for k in 1 2; do
	run_cmd train --pairs="$pairs" -o "$TMP/hp.model" -q --epochs=5 --hard --window=local-p --scorer=dot,general --seed=3
	expect_status 0 "train --hard --window=local-p, run $k"
	mv "$TMP/hp.model" "$TMP/hp$k.model"
done
check "train --hard --window=local-p: same seed, same bytes" cmp -s "$TMP/hp1.model" "$TMP/hp2.model"
check "it writes local-p's W_p and v_p" grep -q "^\[local-p.v_p\]" "$TMP/hp1.model"
check "the model says how it was trained" grep -q -e "--window=local-p --window-size=1 --hard" "$TMP/hp1.model"
run_cmd train --pairs="$pairs" -o "$TMP/x.model" -q --epochs=2 --hard --window=local-m --init=feed4
expect_status 0 "train --hard from feed4 (input feeding) through local-m"
check "the model keeps its input feeding" grep -q "^input-feeding yes" "$TMP/x.model"
rm -f "$TMP/x.model"
# Bahdanau's architecture, location-aware, input feeding and local-m train
# (tests/hard.sh checks the numbers against PyTorch): same seed, same bytes
for k in 1 2; do
	run_cmd train --pairs="$pairs" -o "$TMP/hb.model" -q --epochs=20 --hard --arch=bahdanau --seed=4
	expect_status 0 "train --hard --arch=bahdanau, run $k"
	mv "$TMP/hb.model" "$TMP/hb$k.model"
done
check "train --hard --arch=bahdanau: same seed, same bytes" cmp -s "$TMP/hb1.model" "$TMP/hb2.model"
for e in 0 200; do
	# shellcheck disable=SC2086
	run_cmd train --pairs="$pairs" -o "$TMP/epoch$e.model" -q --epochs=$e $toy_flags
	check "lessons/models/epoch$e.model is rebuilt byte for byte" \
		cmp -s "$TMP/epoch$e.model" "$srcdir/lessons/models/epoch$e.model"
done
# shellcheck disable=SC2086
run_cmd train --pairs="$pairs" -o "$TMP/unguided.model" -q --epochs=3000 $toy_flags --align-weight=0
check "lessons/models/unguided.model is rebuilt byte for byte" \
	cmp -s "$TMP/unguided.model" "$srcdir/lessons/models/unguided.model"

# --- names the user did not type as a sentence ---------------------------
# A file name can hold any byte.  What the program writes with one in it
# must be safe on a terminal and valid UTF-8, and a model it writes must
# load again: train once copied a pairs file's name into the model's
# comment as it was, and a CR, ESC or 0xFF there made the model unloadable.
esc=$(printf '\033')
odd=$(printf 'a\rb\033[31mc\377d')
printf 'je ||| i\nsuis ||| am\n' >"$TMP/$odd.pairs"
run_cmd train --pairs="$TMP/$odd.pairs" -o "$TMP/$odd.model" --epochs=1 -q
expect_status 0 "train on a pairs file named with CR, ESC and 0xFF"
run_cmd model --model="$TMP/$odd.model"
expect_status 0 "the model it wrote loads again"
check "its comment shows the name as \\xNN" \
	grep -qF 'a\x0db\x1b[31mc\xffd.pairs' "$TMP/$odd.model"
# no_raw FILE: FILE holds no ESC, CR or byte that is not UTF-8
no_raw() {
	! grep -q "$esc" "$1" && ! grep -q "$(printf '\r')" "$1" &&
		iconv -f UTF-8 -t UTF-8 "$1" >/dev/null 2>&1
}
# traced_safely FILE: a trace was written, with no message, and no_raw
traced_safely() {
	test -s "$1" && ! test -s "$TMP/err" && no_raw "$1"
}
# (a copy of the toy model under the odd name, so that this holds however
# train names things)
cp "$srcdir/data/toy4.model" "$TMP/$odd.model"
for f in text json jsonl csv markdown; do
	"$ATTN_TRACE" trace --model="$TMP/$odd.model" --format=$f je \
		>"$TMP/odd.$f" 2>"$TMP/err"
	check "trace --format=$f shows the model's name safely" \
		traced_safely "$TMP/odd.$f"
done
check "the text trace names the model as \\xNN" \
	grep -qF 'model: '"$TMP"'/a\x0db\x1b[31mc\xffd.model' "$TMP/odd.text"
if [ -n "${PYTHON3:-}" ] && [ "$PYTHON3" != no ]; then
	check "the JSON trace is valid UTF-8 JSON" "$PYTHON3" -c '
import json, sys
json.loads(open(sys.argv[1], "rb").read().decode("utf-8"))' "$TMP/odd.json"
fi
"$ATTN_TRACE" model --model="$TMP/$odd.model" >"$TMP/odd.model.txt" 2>&1
check "the model's text header shows its name safely" no_raw "$TMP/odd.model.txt"
"$ATTN_TRACE" model --format=json --model="$TMP/$odd.model" \
	>"$TMP/odd.model.json" 2>&1
check "the model's JSON shows its name safely" no_raw "$TMP/odd.model.json"

# alignment accuracy: the hand-set model's weights (--epochs=0 keeps them)
# put every largest weight on the word each English word translates
# (data/README.md, worked by hand), so 7 of 7 with gold links, and 6 of 7
# when the held-out file links "i" to "suis" instead
printf 'je suis étudiant ||| i am a student ||| 1-1 2-2 3-3 3-4\nzone économique européenne ||| european economic area ||| 1-3 2-2 3-1\n' >"$TMP/gold.pairs"
printf 'je suis étudiant ||| i am a student ||| 2-1 2-2 3-3 3-4\nzone économique européenne ||| european economic area ||| 1-3 2-2 3-1\n' >"$TMP/held.pairs"
run_cmd train --pairs="$TMP/gold.pairs" --heldout="$TMP/held.pairs" \
	--init=handset4 --scorer=dot,general,concat --epochs=0 -o "$TMP/h.model"
expect_status 0 "train --heldout"
expect_err "alignment accuracy on the training pairs: dot 100.0% (7/7), general 100.0% (7/7), concat 100.0% (7/7)" \
	"the alignment accuracy of the training pairs, per scorer"
expect_err "alignment accuracy on the held-out pairs (held.pairs): dot 85.7% (6/7), general 85.7% (6/7), concat 85.7% (6/7)" \
	"the alignment accuracy of the held-out pairs, per scorer"
check "the model header records the training pairs' accuracy" \
	grep -q "^# dot 100.0% (7/7), general 100.0% (7/7), concat 100.0% (7/7)" "$TMP/h.model"
# through a window whose class says it aligns nothing (its weight is on
# h_n whatever the scores), no alignment accuracy, but why not, there and
# in the model header; the window is found in the registry, not by name
nal=$("$ATTN_TRACE" options --values=--window trace | while read -r w; do
	"$ATTN_TRACE" train --pairs="$TMP/gold.pairs" --heldout="$TMP/held.pairs" \
		--window="$w" --epochs=1 -o "$TMP/w.model" 2>"$TMP/w.err" >/dev/null
	grep -q "^alignment accuracy: not measured through the $w window: " \
		"$TMP/w.err" && grep -q "^# Alignment accuracy: not measured through the $w window:" \
		"$TMP/w.model" && ! grep -q "alignment accuracy on the" "$TMP/w.err" &&
		echo "$w"
done)
check "the windows that align nothing say so instead of a figure ($nal)" \
	test "$nal" = fixed
# --init carries a model's self/cross-attention weights, which the training
# leaves alone, into the model it writes: with --epochs=0 self traces the
# same numbers as on self4, and after training its sections are self4's
mha_sections() { awk '/^\[/ { on = $1 ~ /^\[(self|cross)\./ } on' "$1"; }
run_cmd train --pairs="$TMP/gold.pairs" --init=self4 --epochs=0 -o "$TMP/s0.model"
expect_status 0 "train --init=self4"
run_cmd self --format=csv --target="european economic area" --model=self4 zone économique européenne
cp "$TMP/out" "$TMP/self4.csv"
run_cmd self --format=csv --target="european economic area" --model="$TMP/s0.model" zone économique européenne
expect_status 0 "self on the model --init=self4 wrote"
check "--epochs=0: self and cross-attention trace as on self4" cmp -s "$TMP/out" "$TMP/self4.csv"
run_cmd train --pairs="$TMP/gold.pairs" --init=self4 --epochs=3 -o "$TMP/s3.model"
expect_status 0 "train --init=self4 --epochs=3"
check "the [self.*] and [cross.*] sections are written, eight of them" \
	test "$(mha_sections "$TMP/s3.model" | grep -c '^\[')" -eq 8
mha_sections "$TMP/s0.model" >"$TMP/s0.mha"
mha_sections "$TMP/s3.model" >"$TMP/s3.mha"
check "the trained model keeps self4's self/cross-attention weights" \
	cmp -s "$TMP/s0.mha" "$TMP/s3.mha"
check "... while its embeddings moved" sh -c "! cmp -s '$TMP/s0.model' '$TMP/s3.model'"
printf 'je suis chat ||| i am a student\n' >"$TMP/chat.pairs"
run_cmd train --pairs="$TMP/gold.pairs" --heldout="$TMP/chat.pairs" \
	--init=handset4 --epochs=0 -o "$TMP/h.model"
expect_status 1 "a held-out word the training lacks"
expect_err "chat.pairs:1:9: expected a source word of handset4" \
	"it is refused before training, at FILE:LINE:COL"

finish
