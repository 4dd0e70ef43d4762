#!/bin/sh
# torch-check.sh: every number of the JSON trace against PyTorch
# (tests/torch_check.py): the model's weights loaded into torch.nn modules
# in float64, every scorer the model supports.  Skipped when no Python at
# hand can import torch.  TORCH_PYTHON names the Python to use; without
# it, /usr/bin/python3 and then $PYTHON3 are tried.
. "$srcdir/tests/lib.sh"
torch_python_find
if [ -z "$torch_python" ]; then
	echo "no Python here can import torch"; exit 77
fi
check "toy4.model (trained, built in) agrees with torch" \
	"$torch_python" "$srcdir/tests/torch_check.py" "$ATTN_TRACE" "$srcdir/data/toy4.model"
check "handset4.model (hand-set, built in) agrees with torch" \
	"$torch_python" "$srcdir/tests/torch_check.py" "$ATTN_TRACE" "$srcdir/data/handset4.model"
check "bahdanau4.model (bahdanau, trained, built in) agrees with torch" \
	"$torch_python" "$srcdir/tests/torch_check.py" "$ATTN_TRACE" "$srcdir/data/bahdanau4.model"
check "bahdanau.model (the bahdanau architecture) agrees with torch" \
	"$torch_python" "$srcdir/tests/torch_check.py" "$ATTN_TRACE" "$srcdir/tests/data/bahdanau.model"
check "tiny.model agrees with torch" \
	"$torch_python" "$srcdir/tests/torch_check.py" "$ATTN_TRACE" "$srcdir/tests/data/tiny.model"
# the local windows: softmax over the window's slice, local-p's
# torch.sigmoid and torch.exp, several half-widths D, both architectures
check "localp.model local-m and local-p agree with torch" \
	"$torch_python" "$srcdir/tests/torch_check.py" "$ATTN_TRACE" "$srcdir/tests/data/localp.model" "local-m:0,local-m:1,local-m:2,local-p:1,local-p:2"
check "feed.model (input feeding) agrees with torch, global and local" \
	"$torch_python" "$srcdir/tests/torch_check.py" "$ATTN_TRACE" "$srcdir/tests/data/feed.model" "global:0,local-m:1,local-p:1,fixed:0"
check "data/feed4.model, the built-in input-feeding model, agrees with torch" \
	"$torch_python" "$srcdir/tests/torch_check.py" "$ATTN_TRACE" "$srcdir/data/feed4.model"
check "data/localp4.model, the built-in local-p model, agrees with torch" \
	"$torch_python" "$srcdir/tests/torch_check.py" "$ATTN_TRACE" "$srcdir/data/localp4.model" "local-p:1"
check "localp-bahdanau.model local-m and local-p agree with torch" \
	"$torch_python" "$srcdir/tests/torch_check.py" "$ATTN_TRACE" "$srcdir/tests/data/localp-bahdanau.model" "local-m:1,local-p:1,local-p:3"
# the fixed window (no attention): weight 1 on h_n at every step, the
# scores computed and unused; Luong's (every scorer, tiny's location too),
# Bahdanau's, input feeding (above)
for m in data/toy4.model tests/data/tiny.model tests/data/bahdanau.model; do
	check "$m: the fixed window agrees with torch" \
		"$torch_python" "$srcdir/tests/torch_check.py" "$ATTN_TRACE" "$srcdir/$m" "fixed:0"
done
# hard attention: the recorded draws replayed, the exact view
for m in data/toy4.model data/bahdanau4.model data/hard4.model tests/data/tiny.model \
	tests/data/bahdanau.model; do
	check "$m: hard attention agrees with torch" \
		"$torch_python" "$srcdir/tests/hard_torch_check.py" "$ATTN_TRACE" "$srcdir/$m"
done
# hard attention through the local windows: local-p draws from pi = a / sum a,
# and its learning signal reaches p_t (autograd on z = e - (j - p)^2/(2 sigma^2))
for c in "data/localp4.model local-p:1" "tests/data/localp.model local-p:2" \
	"tests/data/localp.model local-m:1" "tests/data/localp-bahdanau.model local-p:1" \
	"tests/data/localp-bahdanau.model local-p:3"; do
	set -- $c
	check "$1 $2: hard attention agrees with torch" \
		"$torch_python" "$srcdir/tests/hard_torch_check.py" "$ATTN_TRACE" "$srcdir/$1" "$2"
done
# attn-trace self: self- and cross-attention against nn.MultiheadAttention
check "self4.model self/cross-attention agrees with nn.MultiheadAttention" \
	"$torch_python" "$srcdir/tests/self_torch_check.py" "$ATTN_TRACE" "$srcdir/data/self4.model"
check "self6.model self/cross-attention agrees with nn.MultiheadAttention" \
	"$torch_python" "$srcdir/tests/self_torch_check.py" "$ATTN_TRACE" "$srcdir/tests/data/self6.model"
finish
