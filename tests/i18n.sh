#!/bin/sh
# i18n.sh: the program in Chinese (po/zh_CN.po) under LANG=zh_CN.UTF-8:
# --help, a command's --help, lesson 1's frame (as text and in the stepper
# in tmux at 80x24), the quiz and the trace stepper; and in English under
# LANG=C, with the catalogue there all the same.  The catalogue is built
# from po/zh_CN.po into $TMP and found through $ATTN_TRACE_LOCALEDIR, so
# the test needs no 'make install'.  Skipped without msgfmt or tmux.
. "$srcdir/tests/lib.sh"
command -v msgfmt >/dev/null 2>&1 || { echo "no msgfmt (apt-get install gettext)"; exit 77; }
. "$srcdir/tests/tui-lib.sh"

if ! locale -a 2>/dev/null | grep -qix 'zh_CN.utf8'; then
	echo "no zh_CN.UTF-8 locale; generate it:"
	echo "sed -i 's/^# *zh_CN.UTF-8/zh_CN.UTF-8/' /etc/locale.gen && locale-gen"
	[ -n "${ATTN_TRACE_SKIP_LOCALE:-}" ] && exit 77
	not_ok "the zh_CN.UTF-8 locale is available"
	finish
	exit 1
fi
mkdir -p "$TMP/loc/zh_CN/LC_MESSAGES"
check "po/zh_CN.po compiles" msgfmt -o "$TMP/loc/zh_CN/LC_MESSAGES/attn-trace.mo" \
	"$top_srcdir/po/zh_CN.po"
ATTN_TRACE_LOCALEDIR=$TMP/loc
export ATTN_TRACE_LOCALEDIR
unset LC_ALL LC_MESSAGES LANGUAGE

# zh NAME ARGS...: runs attn-trace under LANG=zh_CN.UTF-8 into $TMP/NAME
zh() { n=$1; shift; LANG=zh_CN.UTF-8 "$ATTN_TRACE" "$@" >"$TMP/$n" 2>&1 </dev/null; }
# has FILE TEXT WHAT
has() { if grep -qF -- "$2" "$TMP/$1"; then ok "$3"; else not_ok "$3"; sed 's/^/# /' "$TMP/$1" | head -20; fi; }

zh help --help
has help "用法：attn-trace [命令] [选项]... [句子]" "--help: the usage line in Chinese"
has help "  lessons            列出所有课程" "--help: the commands in Chinese"
has help "  -s, --scorer=LIST     一个打分函数，多个用逗号分隔，或 all" \
	"--help: the options' help from the option table, in Chinese"
has help "global, local-m, local-p 或 fixed" "--help: a registry's list joined in Chinese"
check "--help: the default sentence is filled in" grep -qF '"je suis étudiant"）' "$TMP/help"
zh qhelp quiz --help
has qhelp "用法：attn-trace quiz [选项]... [句子]" "quiz --help in Chinese"

zh usage trace --jobs=0
has usage "attn-trace: --jobs 应为 1 到 " "a usage error in Chinese"
has usage "请用 'attn-trace --help' 查看更多信息。" "the usage error's last line in Chinese"
zh steps diagram --step=9
has steps "attn-trace: --step=9：这次追踪只有 5 个解码器时间步" \
	"a usage error with a count (ngettext) in Chinese"

zh plain lesson 1 --plain
has plain "目标：" "lesson 1 --plain: the goal's label"
has plain "句子：je suis étudiant" "lesson 1 --plain: the sentence's label"
has plain "[第 1 页，共 5 页]" "lesson 1 --plain: the page header"

printf '0\nq\n' >"$TMP/answers"
LANG=zh_CN.UTF-8 "$ATTN_TRACE" quiz --seed=1 --stage=softmax \
	<"$TMP/answers" >"$TMP/quiz" 2>&1
has quiz "attn-trace quiz：关于 \"je suis étudiant\" 的 3 道题，dot 打分函数" \
	"quiz: the header in Chinese"
has quiz "第 1 题，共 3 题：softmax，第 t=" "quiz: the question's heading"
has quiz "答案> " "quiz: the prompt"
has quiz "测验在第 1 题后停止，共 3 题。" "quiz: the early end"
has quiz "得分：0 / 1" "quiz: the score"

# numbers keep their '.' (zh_CN's is one too, so de_DE's comma is the
# test of that: tests/locale.sh)
has quiz "0.0005 × (1 + |α_" "quiz: the tolerance's number with '.'"

# LANG=C: English, the same bytes with the catalogue as without it
for args in "--help" "quiz --help" "lesson 1 --plain" "train --help" \
	"trace --jobs=0"; do
	# shellcheck disable=SC2086
	LANG=C "$ATTN_TRACE" $args >"$TMP/c1" 2>&1
	# shellcheck disable=SC2086
	LANG=C ATTN_TRACE_LOCALEDIR=/nonexistent "$ATTN_TRACE" $args >"$TMP/c2" 2>&1
	check "LANG=C $args: the same bytes with and without the catalogue" \
		cmp -s "$TMP/c1" "$TMP/c2"
	check "LANG=C $args: English" grep -q 'Usage: \|Goal: \|expects' "$TMP/c1"
done

# the stepper, in tmux at 80x24
zhrun="env -u LC_ALL LANG=zh_CN.UTF-8 ATTN_TRACE_LOCALEDIR=$TMP/loc $ATTN_TRACE"
start les 80 24 "$zhrun lesson 1"
expect les "第 1 页，共 5 页" "stepper, lesson 1: the page counter in Chinese"
expect les "? 帮助  q 退出" "stepper, lesson 1: the key bar in Chinese"
keys les '?'
expect les "按键" "stepper, lesson 1: the help screen in Chinese"
keys les q
keys les q
wait_exit les 0 "stepper, lesson 1: q quits"

start tr 80 24 "$zhrun tui"
expect tr "阶段 1/7：编码" "stepper: the stage line in Chinese"
expect tr "<-/-> 时间步" "stepper: the key bar in Chinese"
keys tr q
wait_exit tr 0 "stepper: q quits"

start en 80 24 "env -u LC_ALL LANG=C ATTN_TRACE_LOCALEDIR=$TMP/loc $ATTN_TRACE lesson 1"
expect en "page 1 of 5" "stepper under LANG=C: English"
expect_not en "第 1 页" "stepper under LANG=C: no Chinese"
keys en q
wait_exit en 0 "stepper under LANG=C: q quits"
finish
