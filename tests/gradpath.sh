#!/bin/sh
# gradpath.sh: trace --gradient-paths (doc/model.md, "The gradient
# paths"): every number against PyTorch autograd
# (tests/gradpath_torch_check.py), for each architecture, input feeding,
# the windows and every scorer; and the option's errors.
. "$srcdir/tests/lib.sh"

# the errors come first: they need no torch
run_cmd trace --gradient-paths je suis étudiant
expect_status 2 "--gradient-paths without --target is refused"
expect_err "--gradient-paths needs --target" "it says why"
run_cmd trace --gradient-paths=5 --target="i am" je suis
expect_status 1 "a step past the last is refused"
expect_err "step must be from 1 to 3" "it names the steps"
run_cmd trace --gradient-paths=0 --target="i am" je suis
expect_status 2 "step 0 is refused"
run_cmd trace --hard --gradient-paths --target="i am" je suis
expect_status 1 "hard attention is refused"
expect_err "need soft attention" "it says why"
run_cmd tui --gradient-paths --target="i am" je suis
expect_status 2 "tui refuses it"
# opt-in: without it the trace has no trace of it
run_cmd trace --format=json --target="i am" je suis
check "no gradient_paths without the option" \
	sh -c "! grep -q gradient_paths '$TMP/out'"
# the text: L_t, and one block a source word
run_cmd trace --gradient-paths --target="i am a student" je suis étudiant
expect_status 0 "the text trace with the gradient paths"
check "the text names L_5 and every h_i" sh -c \
	"grep -q '^L_5 = -log ŷ_5\[</s>\] = ' '$TMP/out' &&
	 grep -q '^∂L_5/∂h_3 (étudiant) ' '$TMP/out' &&
	 grep -q '^  through the recurrence ' '$TMP/out'"

torch_python_find
if [ -z "$torch_python" ]; then
	echo "no Python here can import torch: the numbers are not checked"
	finish
	exit $?
fi
for c in data/toy4.model data/bahdanau4.model data/feed4.model \
	data/handset4.model tests/data/tiny.model tests/data/bahdanau.model \
	"data/localp4.model local-p:1" \
	"tests/data/localp.model local-m:1,local-p:2" \
	"tests/data/localp-bahdanau.model local-m:1,local-p:1" \
	"tests/data/feed.model global:0,local-p:1"; do
	set -- $c
	check "$*: the gradient paths agree with torch autograd" \
		"$torch_python" "$srcdir/tests/gradpath_torch_check.py" \
		"$ATTN_TRACE" "$srcdir/$1" ${2:+"$2"}
done
finish
