#!/bin/sh
# lesson-refs-tui.sh: in the real stepper (tmux), the numbers of a lesson's
# prose are the trace's: a reference that names no scorer follows the
# scorer key s, and a page with "pin" keeps its own scorer and says why
# (doc/lessons.md, "References" and "Pinning a page").
. "$srcdir/tests/lib.sh"
. "$srcdir/tests/tui-lib.sh"

# lesson 5, page 2 works through the dot product: pinned, s leaves it so
start pin 100 30 "'$ATTN_TRACE' lesson 5"
expect pin "page 1 of" "lesson 5 opens"
keys pin g 2
expect pin "The word that matches" "g 2 goes to page 2"
expect pin "so the score is 0.9898 × 0.9866 = 0.9765" "the prose fills the dot score"
keys pin s
expect pin "[general scorer]" "s switches to the general scorer"
expect pin "(This page stays with the dot scorer:" "the pinned page says why it stays"
expect pin "= 0.9765" "and still shows the dot score below its prose"
expect_not pin "2.4413" "the general score is not on the pinned page"
# the quiz of page 5 is pinned too: after s, the answer it takes is the
# dot product's, e_4,1 = s_4·h_1, worked out here from the trace
e41=$("$ATTN_TRACE" trace --model=handset4 --scorer=dot --stage=scoring \
	je suis étudiant | awk '/^e_4,1 / { print $NF; exit }')
keys pin g 5
expect pin "What is the score e_4,1 = s_4·h_1?" "the pinned quiz asks the dot score"
tm send-keys -t pin -l -- "$e41"
keys pin Enter
expect pin "right: e_4,1 = $e41" "the dot product's value is taken as right after s"
keys pin Escape
keys pin q
keys pin q   # (one q may only leave the answered quiz)
wait_exit pin 0 "q leaves lesson 5"

# lesson 14, page 5: "european looks at européenne ({α_1,3})" names no
# scorer, so after s the prose quotes the run the heatmap shows; the
# value is recomputed here with attn-trace trace, not read off the page
start follow 100 40 "'$ATTN_TRACE' lesson 14"
expect follow "page 1 of" "lesson 14 opens"
keys follow g 5
expect follow "After 3000 epochs" "g 5 goes to page 5"
keys follow s
wait_for follow "scorer]" >/dev/null
sc=$(screen follow | grep -oE '\[[a-z-]+ scorer\]' | head -1 | tr -d '[]' | awk '{ print $1 }')
want=$("$ATTN_TRACE" trace --scorer="$sc" --stage=softmax \
	--target="european economic area" zone économique européenne |
	awk '/^α_1 / { gsub(/[],]/, ""); print $NF; exit }')
check "s chose another scorer ($sc)" test -n "$sc" -a "$sc" != general
expect follow "($want), economic at" \
	"the prose quotes the $sc scorer's α_1,3 ($want)"
keys follow q
wait_exit follow 0 "q leaves lesson 14"
finish
