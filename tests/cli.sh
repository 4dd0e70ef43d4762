#!/bin/sh
# cli.sh: the command line: help, version, errors, exit statuses, output.
. "$srcdir/tests/lib.sh"
tiny="$srcdir/tests/data/tiny.model"

run_cmd --help
expect_status 0 "--help"
check "--help shows the usage" grep -q '^Usage: attn-trace' "$TMP/out"
run_cmd --version
expect_status 0 "--version"
check "--version names the program" grep -q '^attn-trace [0-9]' "$TMP/out"
run_cmd trace --help
expect_status 0 "trace --help"

run_cmd frobnicate
expect_status 2 "unknown command"
expect_err "unknown command 'frobnicate'" "unknown command is named"
run_cmd trace --frob
expect_status 2 "unknown option"
expect_err "unknown option '--frob'" "unknown option is named"
run_cmd trace --scorer=no-such-scorer
expect_status 2 "unknown scorer"
# the registry's list, as 'attn-trace scorers --names' gives it
names=$("$ATTN_TRACE" scorers --names | paste -sd, - | sed 's/,/, /g')
expect_err "expected $names or all" "scorers are listed"
run_cmd trace --precision=18
expect_status 2 "precision out of range"
run_cmd trace --format=xml
expect_status 2 "unknown format"
run_cmd trace --model
expect_status 2 "option without its value"
run_cmd model extra words
expect_status 2 "model takes no sentence"

run_cmd trace je suis chat
expect_status 1 "unknown source word"
expect_err 'unknown source word "chat"' "the unknown word is named"
expect_err 'closest source words are' "close words are suggested"
run_cmd trace --target="i am a teacher" je suis étudiant
expect_status 1 "unknown target word"
expect_err 'unknown target word "teacher"' "the unknown target word is named"
run_cmd trace "   "
expect_status 1 "a sentence of no words"
expect_err "no words" "an empty sentence is explained"
run_cmd trace --target="i am </s>" je suis étudiant
expect_status 1 "</s> in a target"
run_cmd trace --model="$TMP/missing.model"
expect_status 1 "a missing model file"
expect_err "missing.model" "the missing file is named"
printf 'attn-trace-model 1\nembedding 4\nhidden 0\n' >"$TMP/bad.model"
run_cmd trace --model="$TMP/bad.model"
expect_status 1 "a malformed model file"
expect_err "bad.model:3:8: expected" "the error has FILE:LINE:COL"

# the same words in other cases, and the same bytes every time
run_cmd trace je suis étudiant
cp "$TMP/out" "$TMP/lower"
run_cmd trace JE Suis ÉTUDIANT
check "matching ignores case, UTF-8 included" cmp -s "$TMP/out" "$TMP/lower"
run_cmd trace "je suis étudiant"
check "a quoted sentence equals separate words" cmp -s "$TMP/out" "$TMP/lower"
run_cmd
expect_status 0 "bare attn-trace on a pipe"
check "bare attn-trace prints the default trace" cmp -s "$TMP/out" "$TMP/lower"
expect_err "note: the trace of \"je suis étudiant\"; 'attn-trace lessons' lists lessons" \
	"bare attn-trace tells a newcomer that lessons exist"
run_cmd trace
check "'trace' prints no note" test ! -s "$TMP/err"
run_cmd trace --scorer=all --format=json
cp "$TMP/out" "$TMP/json1"
run_cmd trace --scorer=all --format=json
check "output is deterministic" cmp -s "$TMP/out" "$TMP/json1"
check "no escape codes on a pipe" sh -c "! grep -q \"$(printf '\033')\" '$TMP/lower'"

# output that cannot be written
"$ATTN_TRACE" trace --scorer=all >/dev/full 2>"$TMP/err"
status=$?
expect_status 1 "stdout on a full disk"
expect_err "write error" "a full disk is reported"
"$ATTN_TRACE" trace --scorer=all 2>"$TMP/err" | head -n 1 >/dev/null
check "a closed pipe is quiet" test ! -s "$TMP/err"

# the built-in models by name; anything else is a path
run_cmd trace --model=toy4 je suis étudiant
check "--model=toy4 is the default model" cmp -s "$TMP/out" "$TMP/lower"
run_cmd trace --model=handset4
expect_status 0 "--model=handset4"
check "--model=handset4 names the built-in hand-set model" \
	grep -qxF 'model: <built-in handset4.model> (embedding 4, hidden 4, attention 3)' "$TMP/out"
cp "$TMP/out" "$TMP/handset"
run_cmd trace --model="$srcdir/data/handset4.model"
check "the hand-set model's file gives the same numbers" sh -c \
	"diff '$TMP/out' '$TMP/handset' | grep -c '^[<>]' | grep -qx 2"
run_cmd trace --model=./handset4
expect_status 1 "./handset4 is a path"
expect_err "./handset4: No such file or directory" "a path that is not there is named"
run_cmd heatmap --model=handset4 -o "$TMP/h.svg"
expect_status 0 "heatmap --model=handset4"
run_cmd quiz --model=handset4 --answers --count=1
expect_status 0 "quiz --model=handset4"

run_cmd model --model="$tiny"
expect_status 0 "model prints a model file"
check "model lists W_s rows by word" grep -q '^  three ' "$TMP/out"
run_cmd trace --model="$tiny" --top=5 un deux trois
check "--top lists that many words" grep -q '^top 5:' "$TMP/out"

# A file name or an option value can hold any byte; the message shows
# the ones that could drive the terminal as \xNN and keeps UTF-8.
run_cmd trace --model="$TMP/a"$'\e[2J\x9b\xc2\x9b\xc3\xa9'.model
expect_status 1 "a missing model with control bytes in its name"
expect_err 'a\x1b[2J\x9b\xc2\x9bé.model: No such file or directory' \
	"control bytes in a file name are shown as \\xNN, UTF-8 kept"
check "no raw ESC, C1 or stray byte reaches stderr" \
	bash -c "! LC_ALL=C grep -q \$'[\\x1b\\x9b]' '$TMP/err'"
run_cmd trace --scorer=$'do\at'
expect_status 2 "a scorer with a BEL in it"
expect_err "unknown scorer 'do\x07t'" "a BEL in an option value is shown as \\x07"
run_cmd trace --batch="$TMP/b"$'\t'x
expect_err "b	x: No such file or directory" "a tab is kept as it is"


# Run from its build tree, the program finds the source tree's lessons
# with no help from the environment; a copy elsewhere (as installed)
# looks where it was installed, never in the current directory.
run_cmd_bare() {
	env -u ATTN_TRACE_LESSONS "$@" >"$TMP/out" 2>"$TMP/err"
	status=$?
}
run_cmd_bare "$ATTN_TRACE" lessons
expect_status 0 "lessons from the build tree"
check "lessons from the build tree lists softmax" grep -q softmax "$TMP/out"
run_cmd_bare "$ATTN_TRACE" lesson 1
expect_status 0 "lesson 1 from the build tree"
check "lesson 1 from the build tree prints it" test -s "$TMP/out"
mkdir -p "$TMP/copy/src" "$TMP/cwd/lessons"
cp "$ATTN_TRACE" "$TMP/copy/src/attn-trace"
cp "$srcdir"/lessons/01-*.lesson "$TMP/cwd/lessons/"
(cd "$TMP/cwd" && env -u ATTN_TRACE_LESSONS "$TMP/copy/src/attn-trace" \
	lesson --help) >"$TMP/out" 2>"$TMP/err"
check "a copy elsewhere reads the installed lessons" \
	grep -q 'reads them from .*/attn-trace/lessons\.$' "$TMP/out"
check "a copy elsewhere does not read the source tree's lessons" \
	bash -c "! grep -qF '$(cd "$srcdir" && pwd)/lessons.' '$TMP/out'"
check "a copy elsewhere does not read ./lessons" \
	bash -c "! grep -q 'reads them from \\./\\?lessons' '$TMP/out'"


# The command line forgives: help as a command, and "did you mean" for
# misspelt commands, options and scorers.
run_cmd help
expect_status 0 "help"
check "help shows the usage" grep -q '^Usage: attn-trace \[COMMAND\]' "$TMP/out"
run_cmd help trace
expect_status 0 "help trace"
check "help trace shows the options of trace" grep -q -- '--scorer=LIST' "$TMP/out"
run_cmd help heatmap
expect_status 0 "help heatmap"
check "help heatmap shows heatmap's usage" grep -q '^Usage: attn-trace heatmap' "$TMP/out"
run_cmd help frobnicate
expect_status 2 "help of an unknown command"
run_cmd tarce
expect_status 2 "a misspelt command"
expect_err "unknown command 'tarce'; did you mean 'trace'?" "a misspelt command is corrected"
run_cmd lesons
expect_err "did you mean 'lessons'?" "lesons: did you mean lessons"
run_cmd frobnicate
expect_err "expected trace, tui, model" "a command far from all is answered with the list"
run_cmd trace --scorr=dot
expect_status 2 "a misspelt option"
expect_err "unknown option '--scorr=dot'; did you mean '--scorer'?" "a misspelt option is corrected"
run_cmd heatmap --outptu=x.svg
expect_err "did you mean '--output'?" "a misspelt heatmap option is corrected"
run_cmd lesson --plian 1
expect_err "did you mean '--plain'?" "a misspelt lesson option is corrected"
run_cmd quiz --cont=2
expect_err "did you mean '--count'?" "a misspelt quiz option is corrected"
run_cmd train --pairz=x
expect_err "did you mean '--pairs'?" "a misspelt train option is corrected"
run_cmd trace --scorer=genral
expect_status 2 "a misspelt scorer"
expect_err "unknown scorer 'genral'; did you mean 'general'?" "a misspelt scorer is corrected"
# two neighbours swapped are one edit (Damerau), so a 3-letter name is
# still corrected
run_cmd trace --scorer=dto
expect_err "unknown scorer 'dto'; did you mean 'dot'?" "a swapped scorer is corrected"
run_cmd tiu
expect_err "did you mean 'tui'?" "a swapped command is corrected"
# every value of a registry gets its suggestion and the list
run_cmd trace --format=jsn
expect_status 2 "a misspelt format"
expect_err "unknown format 'jsn'; did you mean 'json'? expected text, json, jsonl, csv or markdown" \
	"a misspelt format is corrected"
run_cmd trace --stage=scorin
expect_err "unknown stage 'scorin'; did you mean 'scoring'? expected encoding, decoder, scoring, softmax, weighted-sum, concat or output" \
	"a misspelt stage is corrected"
run_cmd quiz --stage=sofmax
expect_err "unknown --stage 'sofmax'; did you mean 'softmax'?" "a misspelt quiz stage is corrected"
run_cmd self --format=cvs
expect_err "unknown format 'cvs'; did you mean 'csv'?" "a misspelt self format is corrected"
run_cmd diagram --format=sgv
expect_err "unknown --format 'sgv'; did you mean 'svg'? expected svg, text or png" "a misspelt diagram format is corrected"
run_cmd tui --color=nevr
expect_err "unknown --color 'nevr'; did you mean 'never'?" "a misspelt colour is corrected"
# a model that is neither a file nor built in: the built-in ones
run_cmd trace --model=toy5
expect_status 1 "a model that is not there"
expect_err "toy5: No such file or directory; did you mean 'toy4'? expected a model file or a built-in model (toy4, handset4, bahdanau4, self4, localp4, feed4, hard4, longattn8, longfixed8 or caption4)" \
	"--model=toy5 lists the built-in models"
run_cmd trace --scorer=dot,consat
expect_err "unknown scorer 'consat' in 'dot,consat'; did you mean 'concat'?" \
	"the misspelt scorer of a list is named and corrected"
run_cmd quiz --scorer=DOT
expect_err "did you mean 'dot'?" "a scorer in capitals is corrected"
run_cmd train --pairs=x --scorer=scaeld
expect_err "did you mean 'scaled'?" "train's misspelt scorer is corrected"


# On a terminal (script(1) gives it one), heatmap shows its text
# heatmap and says how to get the picture; -o - still writes the SVG.
if script -qec true /dev/null >/dev/null 2>&1; then
	script -qec "'$ATTN_TRACE' heatmap" /dev/null >"$TMP/tty" 2>&1
	check "heatmap on a terminal shows the text heatmap" \
		grep -q 'alignment α, dot scorer' "$TMP/tty"
	check "heatmap on a terminal writes no SVG" \
		bash -c "! grep -q '<svg' '$TMP/tty'"
	check "heatmap on a terminal says how to get the picture" \
		grep -q 'note: .*-o FILE.svg' "$TMP/tty"
	script -qec "'$ATTN_TRACE' heatmap -o -" /dev/null >"$TMP/tty" 2>&1
	check "heatmap -o - on a terminal writes the SVG" grep -q '<svg' "$TMP/tty"
else
	echo "# script(1) is missing: the terminal heatmap is not tested"
fi


# Words as people type them: punctuation is split off, left out with a
# note when the model does not know it (stdout unchanged), traced when it
# does; every unknown word is named at once; vocab lists the words.
run_cmd trace je suis étudiant
cp "$TMP/out" "$TMP/plain"
run_cmd trace "Je suis étudiant."
expect_status 0 "a sentence with a full stop"
check "the full stop is left out of the trace" cmp -s "$TMP/out" "$TMP/plain"
expect_err 'note: left out ".", which the model does not know' "the left-out full stop is named"
run_cmd trace "je suis étudiant !"
expect_status 0 "a sentence with a detached exclamation mark"
check "the exclamation mark is left out of the trace" cmp -s "$TMP/out" "$TMP/plain"
expect_err 'left out "!"' "the left-out exclamation mark is named"
run_cmd trace --target="I am a student." "«je suis étudiant»"
expect_status 0 "punctuation in source and target"
expect_err 'left out "«", "»" of the source and "." of the target' \
	"marks of both sentences are named"
run_cmd trace "! ?"
expect_status 1 "a sentence of punctuation alone"
expect_err 'has no words but "!", "?"' "a sentence of punctuation alone is explained"
sed '/^trois /a .       0.1 -0.2  0.3' "$tiny" >"$TMP/punct.model"
run_cmd trace --model="$TMP/punct.model" "un deux."
expect_status 0 "a model that knows the full stop"
check "a known full stop is traced as a word" grep -q '^source: un deux \. (3 words)$' "$TMP/out"
check "a known full stop needs no note" test ! -s "$TMP/err"
run_cmd trace je chat suis chien
expect_status 1 "two unknown words"
expect_err 'unknown source words "chat" (closest' "the first unknown word is named"
expect_err 'and "chien" (closest' "the second unknown word is named too"
expect_err "'attn-trace vocab'" "the error points to the vocabulary"
run_cmd vocab
expect_status 0 "vocab"
check "vocab lists the source words" grep -qx '  étudiant' "$TMP/out"
check "vocab lists the target words" grep -qx '  student' "$TMP/out"
run_cmd vocab --source --model="$tiny"
check "vocab --source lists the source words alone" \
	test "$(cat "$TMP/out" | paste -sd' ' -)" = "un deux trois"
run_cmd vocab --target --model=handset4
check "vocab --target lists the target words" grep -qx '</s>' "$TMP/out"

# options before the command: the command word is found after them, in
# every spelling of an option (=value, a separate value, a letter with
# its value, an abbreviation), and the options still apply
"$ATTN_TRACE" trace --precision=2 --scorer=general je suis >"$TMP/want" 2>&1
for opts in "--precision=2 --scorer=general" "--precision 2 -s general" \
	    "--prec 2 -sgeneral"; do
	# shellcheck disable=SC2086
	run_cmd $opts trace je suis
	expect_status 0 "options ($opts) before 'trace'"
	check "options ($opts) before 'trace' give trace's output" \
		cmp -s "$TMP/out" "$TMP/want"
done
"$ATTN_TRACE" trace --precision=2 je suis >"$TMP/want.2" 2>&1
run_cmd --precision=2 je suis
check "without a command, the words after the options are the sentence" \
	cmp -s "$TMP/out" "$TMP/want.2"
run_cmd --plain lessons
expect_status 0 "an option before 'lessons'"
check "lessons after an option lists the lessons" grep -q '^01  tokens' "$TMP/out"
run_cmd -- trace
expect_status 1 "after --, 'trace' is a word"
expect_err 'unknown source word "trace"' "after --, the command word is a source word"
run_cmd --frob trace je
expect_status 2 "an unknown option before the command"
expect_err "unknown option '--frob'" "an unknown option before the command is named"

finish
