#!/bin/bash
# completion.sh: the bash completion offers commands, options, scorers,
# lesson names, each item of a comma list, and the model's words.
. "$srcdir/tests/lib.sh"
bc=/usr/share/bash-completion/bash_completion
[ -r "$bc" ] || { echo "bash-completion is not installed"; exit 77; }
case $ATTN_TRACE in /*) ;; *) ATTN_TRACE=$(pwd)/$ATTN_TRACE ;; esac
mkdir -p "$TMP/bin"
ln -s "$ATTN_TRACE" "$TMP/bin/attn-trace"
PATH=$TMP/bin:$PATH
# shellcheck disable=SC1090
. "$bc"
# shellcheck disable=SC1091
. "$srcdir/completions/attn-trace"

# complete WORDS...: the completions of the last word
complete_words() {
	COMP_WORDS=("$@")
	COMP_CWORD=$(($# - 1))
	COMP_LINE="$*"
	# bash splits --opt=val into three words, with no space in the line
	COMP_LINE=${COMP_LINE// = /=}
	COMP_POINT=${#COMP_LINE}
	COMPREPLY=()
	_attn_trace
	printf '%s\n' "${COMPREPLY[@]}"
}

# offers WHAT WORD WORDS...: WORD is among the completions
offers() {
	what=$1 want=$2
	shift 2
	if complete_words "$@" | grep -qxF -- "$want"; then ok "$what"; else
		not_ok "$what: '$want' not in: $(complete_words "$@" | tr '\n' ' ')"; fi
}

offers "the commands" lessons attn-trace le
offers "trace options" --batch= attn-trace trace --ba
offers "trace --jobs" --jobs= attn-trace trace --batch=x --jo
offers "the scorers" general attn-trace trace --scorer g
offers "--explain's step values" "step[1].weights[1]" attn-trace trace --explain "="  "step[1].w"
offers "--set's model sections" "general.W[1][1]" attn-trace heatmap --set "="  "gen"
offers "--set's step values" "step[1].scores[1]" attn-trace trace --set "="  "step[1].s"
offers "the formats" jsonl attn-trace trace --format js
offers "calc's formats" markdown attn-trace calc --format m
offers "the stages" weighted-sum attn-trace trace --stage w
offers "the windows" local-p attn-trace trace --window local-
offers "trace --window-size" --window-size= attn-trace trace --window-s
offers "heatmap --window" --window= attn-trace heatmap --win
offers "quiz --window" --window= attn-trace quiz --win
offers "trace --hard" --hard= attn-trace trace --ha
offers "heatmap --seed" --seed= attn-trace heatmap --se
offers "the decoder stage" decoder attn-trace trace --stage d
offers "quiz's hard-draw stage" hard-draw attn-trace quiz --stage h
offers "lesson names" softmax attn-trace lesson so
offers "the built-in models" handset4 attn-trace trace --model h
offers "the built-in models for --init" toy4 attn-trace train --init t
offers "lesson numbers" 06 attn-trace lesson 06
offers "tui options" --present attn-trace tui --pr
offers "lesson --present" --present attn-trace lesson --pr
offers "quiz --worksheet" --worksheet attn-trace quiz --wo
offers "quiz --key" --key attn-trace quiz --ke
offers "quiz --answers" --answers attn-trace quiz --an
offers "quiz's sheet formats" html attn-trace quiz --worksheet --format h
offers "the help command" help attn-trace he
offers "commands after help" heatmap attn-trace help hea
offers "the self command" self attn-trace se
offers "self's options" --causal attn-trace self --ca
offers "the built-in self4" self4 attn-trace self --model se
offers "self's line diagram format" diagram-svg attn-trace self --format di
offers "self's --row" --row= attn-trace self --ro
offers "heatmap --self" --self attn-trace heatmap --se
offers "the vocab command" vocab attn-trace vo
offers "the diagram command" diagram attn-trace di
offers "diagram's options" --all-steps attn-trace diagram --al
offers "vocab options" --source attn-trace vocab --so
offers "the accuracy command" accuracy attn-trace acc
offers "accuracy's options" --pairs= attn-trace accuracy --pa
offers "accuracy's formats" svg attn-trace accuracy --format s
offers "the image command" image attn-trace ima
offers "image's options" --values attn-trace image --va
offers "image's --ascii" --ascii attn-trace image --as
for c in trace tui quiz heatmap diagram model; do
	offers "$c --input-feeding" --input-feeding attn-trace $c --inp
done

# gives WHAT WANT WORDS...: the completions are exactly WANT (sorted,
# space-separated)
gives() {
	what=$1 want=$2
	shift 2
	got=$(complete_words "$@" | sort | tr '\n' ' ' | sed 's/ $//')
	if [ "$got" = "$want" ]; then ok "$what"; else
		not_ok "$what: wanted '$want', got '$got'"; fi
}

# image's file: the PGM files of the directory, not the others
mkdir "$TMP/pics" && : >"$TMP/pics/a.pgm" && : >"$TMP/pics/b.txt"
here=$(pwd)
cd "$TMP/pics" || exit 99
gives "image FILE offers a.pgm, not b.txt" "a.pgm" attn-trace image ""
cd "$here" || exit 99

# comma lists: the items before the last are kept, the last completed
gives "--scorer=dot,g completes the last item" "dot,general" \
	attn-trace trace --scorer = dot,g
gives "--scorer dot,g (a space)" "dot,general" attn-trace trace --scorer dot,g
gives "--scorer=dot,general,lo: every scorer from lo" \
	"dot,general,location dot,general,location-aware" \
	attn-trace trace --scorer = dot,general,lo
gives "--stage=encoding,s" "encoding,scoring encoding,softmax" \
	attn-trace trace --stage = encoding,s
gives "quiz --stage=scoring,h" "scoring,hard-draw" \
	attn-trace quiz --stage = scoring,h
gives "train --scorer=concat,sc" "concat,scaled" \
	attn-trace train --scorer = concat,sc

# the words of the sentence come from the model (data/toy4.model: the
# source words that start with "é" and "s"; data/handset4.model's)
gives "the sentence's words: e" "elle est européenne" attn-trace trace e
gives "the sentence's second word" "suis" attn-trace trace je su
gives "tui's sentence" "suis" attn-trace tui je su
gives "the target's words" "student" attn-trace trace je --target stu
gives "words of --model handset4" \
	"$(grep -A100 '^\[source\]' "$srcdir/data/handset4.model" |
	   sed -n '2,$p' | sed '/^\[/,$d' | awk '$1 ~ /^s/ {print $1}' |
	   sort | tr '\n' ' ' | sed 's/ $//')" \
	attn-trace trace --model handset4 s
gives "an option is still an option" "--scorer=" attn-trace trace --scor
# an image model's "sentence" is a PGM file
mkdir "$TMP/caps" && : >"$TMP/caps/bar.pgm" && : >"$TMP/caps/notes.txt"
gives "an image model completes a PGM file" "$TMP/caps/bar.pgm" \
	attn-trace trace --model=caption4 "$TMP/caps/"
finish
