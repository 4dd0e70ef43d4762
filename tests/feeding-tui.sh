#!/bin/sh
# feeding-tui.sh: tui --input-feeding in the real stepper, driven in tmux:
# the decoder stage shows h̃_{t-1} entering the RNN, --arch=all switches
# between feed4 and bahdanau4, and a model without input feeding is
# refused before the screen is taken.
. "$srcdir/tests/lib.sh"
. "$srcdir/tests/tui-lib.sh"

start f 100 30 "'$ATTN_TRACE' tui --input-feeding"
expect f "stage 1 of 7: encoding" "tui --input-feeding opens on the encoder"
keys f g 2
expect f "s_1 = tanh(W_x·[y_0; h̃_0] + W_h·s_0 + b)" \
	"the decoder stage shows [y_0; h̃_0] entering the RNN"
expect f "h̃_0                                   (4)   [ 0.0000,  0.0000,  0.0000,  0.0000]" \
	"h̃_0 = 0"
expect f "s_1 = tanh(W_x·[y_0; h̃_0] + W_h·s_0 + b). This is input feeding" \
	"the prose says what the decoder reads, as the numbers do"
# the other six stages of step 1, then step 2's decoder
keys f Right Right Right Right Right Right
expect f "s_2 = tanh(W_x·[y_1; h̃_1] + W_h·s_1 + b)" "step 2 reads h̃_1"
expect f "h̃_1                                   (4)   [ 0.8783, -0.9707,  0.9992,  0.4175]" \
	"h̃_1 is step 1's attentional state (trace --input-feeding's numbers)"
keys f q
wait_exit f 0 "q quits"

start all 110 40 "'$ATTN_TRACE' tui --arch=all --input-feeding"
expect all "[dot scorer, luong]" "--arch=all --input-feeding starts with luong's"
keys all g 2
expect all "s_1 = tanh(W_x·[y_0; h̃_0] + W_h·s_0 + b)" "luong's side is feed4"
keys all a
expect all "[dot scorer, bahdanau]" "a switches to bahdanau's, bahdanau4"
keys all q
wait_exit all 0 "the --arch=all stepper quits cleanly"

start no 200 24 "'$ATTN_TRACE' tui --input-feeding --model=toy4"
wait_exit no 1 "tui --input-feeding with toy4"
expect no "<built-in toy4.model> has no input feeding, and --input-feeding asks for it" \
	"the refusal names the model"
finish
