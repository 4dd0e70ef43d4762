#!/bin/sh
# zh-strings.sh: the strings of issue 30 in Chinese (po/zh_CN.po).
# 1. The trace stepper (attn-trace tui, the default sentence) runs in tmux
#    at 80x24 under LANG=zh_CN.UTF-8 and under LANG=C, and its first nine
#    screens (the three encoder words, then step t=1's decoder, scoring,
#    softmax, weighted sum, concat and output) are captured in each.
#    Every English label and phrase of the list below must be on those
#    screens under LANG=C (so that the list names what the stepper really
#    shows) and on none of them under zh_CN; and every line must fit 80
#    display columns.
# 2. --help's lists (@stages) wrap by display columns, not bytes.
# 3. 'scorers' and 'models' describe each entry in Chinese.
# 4. The errors of input files (pairs, model, lesson, PGM) say what was
#    expected in Chinese, after the same FILE:LINE:COL; so do err_set's
#    (a lesson's input-feeding header, an unknown word, calc's rows).
# 5. The quiz's (and its worksheet's) and a lesson's prediction's prose
#    is Chinese.
# 6. The text trace's prose is Chinese; its header's keys stay English.
# 7. The stepper's symbol list (x) and step diagram (d) are Chinese.
# 3 (SVG). diagram's SVG: its words Chinese, none of the English left.
# 3 (again). diagram --format=text, the ASCII step diagram, is Chinese
#    and fits 80 display columns.
# 8. The formatters' words: the Markdown of a trace, of calc and of
#    glimpse, the slide deck's visible text, and train's progress and
#    report on stderr.  Each English phrase of a list is in the LANG=C
#    output (so the list names real words) and not in the zh_CN one,
#    which has the phrase's Chinese instead; a model file's description
#    (data) stays English.
# The catalogue is built from po/zh_CN.po into $TMP.  Skipped without
# msgfmt or tmux.
. "$srcdir/tests/lib.sh"
command -v msgfmt >/dev/null 2>&1 || { echo "no msgfmt (apt-get install gettext)"; exit 77; }
. "$srcdir/tests/tui-lib.sh"
if ! locale -a 2>/dev/null | grep -qix 'zh_CN.utf8'; then
	echo "no zh_CN.UTF-8 locale (tests/i18n.sh says how to make it)"
	exit 77
fi
mkdir -p "$TMP/loc/zh_CN/LC_MESSAGES"
check "po/zh_CN.po compiles" msgfmt -o "$TMP/loc/zh_CN/LC_MESSAGES/attn-trace.mo" \
	"$top_srcdir/po/zh_CN.po"

# capture NAME LANG HERE: the first nine screens of 'tui' under LANG into
# $TMP/NAME.screens; HERE N is the place line's words for screen N
capture() {
	start "$1" 80 24 "env -u LC_ALL -u LANGUAGE LANG=$2 ATTN_TRACE_LOCALEDIR=$TMP/loc $ATTN_TRACE tui"
	: >"$TMP/$1.screens"
	for n in 1 2 3 4 5 6 7 8 9; do
		if ! wait_for "$1" "$($3 $n)"; then
			not_ok "$1: screen $n came"
			return
		fi
		screen "$1" >>"$TMP/$1.screens"
		keys "$1" Right
	done
	keys "$1" q
	wait_exit "$1" 0 "$1: nine screens, then q quits"
}
here_c() { echo "screen $1 of 33"; }
here_zh() { echo "屏 $1/33"; }
capture en C here_c
capture zh zh_CN.UTF-8 here_zh

# the English words of those screens: labels (title, place, strip, key
# bar, bars), the narration of each stage, and the text trace's words
while IFS= read -r label; do
	[ -n "$label" ] || continue
	if ! grep -qF -- "$label" "$TMP/en.screens"; then
		not_ok "LANG=C shows \"$label\" (the list is out of date)"
	elif grep -qF -- "$label" "$TMP/zh.screens"; then
		not_ok "zh_CN: \"$label\" is still English:"
		grep -F -- "$label" "$TMP/zh.screens" | head -3 | sed 's/^/# /'
	else
		ok "zh_CN: \"$label\" is translated"
	fi
done <<'EOF'
scorer]
stage 1 of 7: encoding
word 1 of 3
screen 1 of 33
step t=1 of 5
encoding ›
› weighted sum ›
The encoder reads the source one word at a time
(zero before the first word)
Every h_i is something
Step t=1: the decoder reads
It starts from s_0 = h_3
the last encoder state
is compared with every encoder state
a plain dot product
The larger the score
The softmax turns the scores into weights
gets the most attention
The context vector c_1 is
the context vector
are stacked into one vector
the attentional state
target words a score
Decoding is greedy
top 3:
attention weights
more below
step  g stage
? help  q quit
EOF

# fits FILE: no line of FILE is wider than 80 columns (wcwidth, by
# Unicode's East Asian Width, in Python)
fits() {
	/usr/bin/python3 - "$1" <<'EOF'
import sys, unicodedata
def w(c):
    if unicodedata.combining(c):
        return 0
    return 2 if unicodedata.east_asian_width(c) in "WF" else 1
bad = [l for l in open(sys.argv[1], encoding="utf-8").read().split("\n")
       if sum(w(c) for c in l) > 80]
for l in bad[:3]:
    print("# too wide:", l)
sys.exit(1 if bad else 0)
EOF
}
check "zh_CN: every line of the nine screens fits 80 columns" \
	fits "$TMP/zh.screens"
check "zh_CN: the narration is Chinese (编码器一次读一个源词)" \
	grep -qF "编码器一次读一个源词" "$TMP/zh.screens"

# 2. --help under zh_CN: the @stages list goes on after the translated
# words as far as 80 columns allow (bytes would count each of them 3)
zh() { LANG=zh_CN.UTF-8 ATTN_TRACE_LOCALEDIR=$TMP/loc "$ATTN_TRACE" "$@"; }
zh trace --help >"$TMP/help" 2>&1
check "--help: --stage's list fills its first line by display columns" \
	grep -qF "只打印这些阶段：encoding, decoder, scoring, softmax," "$TMP/help"
sed -n '/--stage=LIST/,/--color/p' "$TMP/help" >"$TMP/stage"
check "--help: --stage's lines fit 80 columns" fits "$TMP/stage"
for c in "" trace tui heatmap diagram deck quiz lesson model train self \
	image glimpse caption calc; do
	# shellcheck disable=SC2086
	# (but for the line that names the lessons directory, as long as
	# its path is)
	zh $c --help 2>&1 | grep -v '/lessons' >"$TMP/h"
	check "zh_CN: ${c:-the main} --help fits 80 columns" fits "$TMP/h"
done

# 3. the listings: each scorer and model described in Chinese
zh scorers >"$TMP/scorers" 2>&1
check "scorers: dot's summary in Chinese" \
	grep -qF "s_t·h_i：两个状态的方向有多一致" "$TMP/scorers"
check "scorers: the weights' label in Chinese" \
	grep -qF "权重： [general.W]" "$TMP/scorers"
zh models >"$TMP/models" 2>&1
check "models: toy4's description in Chinese" \
	grep -qF "在 data/toy.pairs 上训练；默认模型" "$TMP/models"
check "models: the sizes in Chinese" grep -qF "luong 架构，嵌入维度" "$TMP/models"

# 4. input files' errors: the position as under LANG=C, the words Chinese
printf 'je suis ||| \n' >"$TMP/bad.pairs"
printf 'attn-trace-model 1\nsize 4\n' >"$TMP/bad.model"
printf 'title: x\nsentence: je suis\npage: a\nshow nonsense\n' >"$TMP/bad.lesson"
zh trace --batch="$TMP/bad.pairs" >"$TMP/e1" 2>&1
check "pairs: the error in Chinese" grep -qF \
	"bad.pairs:1:12: \"|||\" 之后应为目标词，却是行尾" "$TMP/e1"
zh trace --model="$TMP/bad.model" >"$TMP/e2" 2>&1
check "model: the error in Chinese" grep -qF \
	"bad.model:2:1: 应为一行 \"embedding N\"，却是 \"size\"" "$TMP/e2"
zh lesson --check "$TMP/bad.lesson" >"$TMP/e3" 2>&1
check "lesson: the error in Chinese" grep -qF \
	"bad.lesson:4:6: 应为要显示的内容（embedding, encoder," "$TMP/e3"
LANG=C "$ATTN_TRACE" lesson --check "$TMP/bad.lesson" >"$TMP/e4" 2>&1
printf 'title: x\nsentence: je suis\npage: a\nThe value {e_1,9} here.\n' \
	>"$TMP/ref.lesson"
zh lesson --check "$TMP/ref.lesson" >"$TMP/e5" 2>&1
check "lesson: a reference's error in Chinese" grep -qF \
	"ref.lesson:4:11: 应为 e_1 的一个分量，1 到 2，却在 '{e_1,9}' 中是 '[9]'" "$TMP/e5"
check "lesson: the error in English under LANG=C" grep -qF \
	"bad.lesson:4:6: expected what to show (embedding, encoder," "$TMP/e4"
# glimpse --batch's list: what it expected, Chinese (the class list too)
printf ' ||| dot\nx.pgm ||| zz\n' >"$TMP/bad1.list"
printf 'x.pgm ||| zz\n' >"$TMP/bad2.list"
zh glimpse --batch="$TMP/bad1.list" >"$TMP/e6" 2>&1
check "glimpse --batch: a missing path in Chinese" grep -qF \
	"bad1.list:1:2: 应为一幅 PGM 图像的路径，却什么也没有" "$TMP/e6"
zh glimpse --batch="$TMP/bad2.list" >"$TMP/e7" 2>&1
check "glimpse --batch: an unknown class in Chinese" grep -qF \
	"bad2.list:1:11: 应为模型的一个类别（dot, bar, box），却是 \"zz\"" "$TMP/e7"
# lesson --check's own errors (src/lesson_check.c, lesson_image.c,
# lesson_lang.c, through err_at): Chinese after the same FILE:LINE:COL as
# under LANG=C.  same_place NAME FILE: the two runs' places are equal
same_place() {
	zh lesson --check "$2" >"$TMP/$1.zh" 2>&1
	LANG=C "$ATTN_TRACE" lesson --check "$2" >"$TMP/$1.c" 2>&1
	check "lesson --check ($1): the place as under LANG=C" test \
		"$(sed -n 's/^\(attn-trace: [^ ]*:[0-9]*:[0-9]*: \).*/\1/p' "$TMP/$1.c")" != "" -a \
		"$(sed -n 's/^\(attn-trace: [^ ]*:[0-9]*:[0-9]*: \).*/\1/p' "$TMP/$1.zh")" = \
		"$(sed -n 's/^\(attn-trace: [^ ]*:[0-9]*:[0-9]*: \).*/\1/p' "$TMP/$1.c")"
}
printf 'title: x\nsentence: je suis\npage: a\nThe value 0.5 here.\n' \
	>"$TMP/num.lesson"
same_place num "$TMP/num.lesson"
check "lesson --check: a typed number's error in Chinese" grep -qF \
	"num.lesson:4:11: 应为对追踪中某个值的引用，例如 {" "$TMP/num.zh"
check "lesson --check: ... and its way out in Chinese" grep -qF \
	"或者把不属于追踪的数写作 \\0.5，却是 '0.5'" "$TMP/num.zh"
printf 'title: x\nsentence: je suis\nimage: a.pgm\npage: a\nhi\n' \
	>"$TMP/both.lesson"
same_place both "$TMP/both.lesson"
check "lesson --check: image: beside sentence: in Chinese" grep -qF \
	"both.lesson:2:11: 应为 'image:' 或 'sentence:'（课程追踪的对象）之一，却两者都有" \
	"$TMP/both.zh"
printf 'title: x\nsentence: je suis\npage: a\nshow score t=1 i=7\n' \
	>"$TMP/i.lesson"
same_place i "$TMP/i.lesson"
check "lesson --check: an i= past the sentence in Chinese" grep -qF \
	"i.lesson:4:16: 应为 1 到 2 的 i=（\"je suis\" 有 2 个词），却是 'i=7'" \
	"$TMP/i.zh"
mkdir -p "$TMP/tr/zh_CN"
cp "$top_srcdir/lessons/01-tokens.lesson" "$TMP/tr/"
cp "$top_srcdir/lessons/zh_CN/01-tokens.lesson" "$TMP/tr/zh_CN/pages.lesson"
printf 'page: x\n多出的一页。\n' >>"$TMP/tr/zh_CN/pages.lesson"
same_place pages "$TMP/tr/zh_CN/pages.lesson"
check "lesson --check: a translation's extra page in Chinese" grep -qF \
	"一样有 5 页，却是 6" "$TMP/pages.zh"
sed 's/^model: handset4$/model: toy4/' "$top_srcdir/lessons/zh_CN/01-tokens.lesson" \
	>"$TMP/tr/zh_CN/01-tokens.lesson"
same_place header "$TMP/tr/zh_CN/01-tokens.lesson"
check "lesson --check: a translation's header in Chinese" grep -qF \
	"01-tokens.lesson:5:8: 应与 $TMP/tr/zh_CN/../01-tokens.lesson 一样有 'model: handset4'，却是 'model: toy4'" \
	"$TMP/header.zh"
# a PGM image's error: the same file:line:column, the words Chinese
printf 'P2\n2 2\n255\n1 2 300 4\n' >"$TMP/bad.pgm"
zh image "$TMP/bad.pgm" >"$TMP/e6" 2>&1
check "pgm: the error in Chinese" grep -qF \
	"bad.pgm:4:5: 第 3 个像素（共 4 个；第 2 行，第 1 列）应为 0 到 maxval 255 之间的值，却是 300" "$TMP/e6"
printf 'P6\n' >"$TMP/ppm.pgm"
zh image "$TMP/ppm.pgm" >"$TMP/e7" 2>&1
check "pgm: a wrong magic number's error in Chinese" grep -qF \
	"ppm.pgm:1:1: 应为 P2 或 P5，即灰度 PGM 图像的魔数，却是 P6（PPM 彩色图像）" "$TMP/e7"
# err_set's messages, and the words they are built from (the
# architecture's prose, source/target), in Chinese: the input-feeding
# errors of a lesson's header, an unknown word, calc's rows
printf 'title: x\nsentence: je suis\narch: bahdanau\ninput-feeding: yes\npage: a\nhi\n' \
	>"$TMP/feed1.lesson"
same_place feed1 "$TMP/feed1.lesson"
check "lesson --check: input feeding under 'arch: bahdanau' in Chinese" \
	grep -qF "'arch: bahdanau' 不应带输入馈送，却有 'input-feeding: yes'；Bahdanau 的解码器已经读入上下文向量 c_{t-1}，而输入馈送是 Luong 架构的做法" \
	"$TMP/feed1.zh"
printf 'title: x\nsentence: je suis\nmodel: bahdanau4\ninput-feeding: yes\npage: a\nhi\n' \
	>"$TMP/feed2.lesson"
same_place feed2 "$TMP/feed2.lesson"
check "lesson --check: a model without input feeding in Chinese" \
	grep -qF "按 'input-feeding: yes' 应为带输入馈送的模型，却是 bahdanau4，它没有输入馈送（Bahdanau 的解码器已经读入上下文向量 c_{t-1}）" \
	"$TMP/feed2.zh"
printf 'title: x\nsentence: je suis\nmodel: feed4\ninput-feeding: no\npage: a\nhi\n' \
	>"$TMP/feed3.lesson"
same_place feed3 "$TMP/feed3.lesson"
check "lesson --check: a model with input feeding in Chinese" \
	grep -qF "按 'input-feeding: no' 应为不带输入馈送的模型，却是 feed4，它带有输入馈送" \
	"$TMP/feed3.zh"
zh trace xyzzy >"$TMP/e8" 2>&1
check "trace: an unknown word in Chinese" grep -qF \
	"未知的源词 \"xyzzy\"；最接近的源词是 " "$TMP/e8"
zh calc --query=1,2 --keys='1,2;3' >"$TMP/e9" 2>&1
check "calc: a short key in Chinese (ngettext)" grep -qF -e \
	"--keys:1:5: 键 2 应有 2 个数（与查询相同），却有 1 个" "$TMP/e9"
zh calc --query=1,2,x --keys=1,2 >"$TMP/e10" 2>&1
check "calc: a word for a number in Chinese" grep -qF -e \
	"--query:1:5: 应为一个数，却是 'x'" "$TMP/e10"

# 3 (SVG). the step diagram's SVG: its words Chinese, none English
zh diagram >"$TMP/d.svg" 2>&1
zh diagram --window=fixed >"$TMP/dfix.svg" 2>&1
zh diagram --input-feeding --step=2 >"$TMP/dfeed.svg" 2>&1
for w in "给编码器的每个隐藏状态" "查询是解码器的新状态" "上下文向量" \
	"注意力隐藏状态" "方格：橙色为" "最大"; do
	check "diagram SVG: \"$w\"" grep -qF "$w" "$TMP/d.svg"
done
check "diagram SVG (fixed): its heading in Chinese" grep -qF \
	"没有注意力" "$TMP/dfix.svg"
check "diagram SVG (input feeding): its words in Chinese" grep -qF \
	"输入馈送：" "$TMP/dfeed.svg"
for w in "the query" "the context" "attentional state" "largest" \
	"weighs each" "cells: orange" "input feeding" "no attention" \
	"from step"; do
	if grep -qF "$w" "$TMP/d.svg" "$TMP/dfix.svg" "$TMP/dfeed.svg"; then
		not_ok "diagram SVG: \"$w\" is still English"
	else
		ok "diagram SVG: no \"$w\""
	fi
done

# 5. the quiz turns down an empty answer, and a lesson asks a prediction,
# in Chinese
printf '\n0\nq\n' | zh quiz --seed=1 --stage=scoring >"$TMP/quiz" 2>&1
check "quiz: an empty answer is turned down in Chinese" \
	grep -qF "请输入一个数，例如 0.5704。" "$TMP/quiz"
zh lesson 5 --plain >"$TMP/l5" 2>&1
zh quiz --seed=1 --stage=scoring --worksheet >"$TMP/sheet" 2>&1
check "quiz --worksheet: the heading in Chinese" grep -qxF \
	"练习题: 关于 \"je suis étudiant\" 的 3 道题，dot 打分函数" "$TMP/sheet"
check "quiz --worksheet: the name line in Chinese" \
	grep -qF "姓名： ___" "$TMP/sheet"
zh quiz --seed=1 --stage=scoring --key --format=markdown >"$TMP/key" 2>&1
check "quiz --key: the answer's heading in Chinese" \
	grep -qxF "## 第 1 题答案" "$TMP/key"
check "lesson 5: the prediction's prompt in Chinese" grep -qF \
	"预测：输入一个词（je, suis 或 étudiant）或它的位置，然后按回车键。" "$TMP/l5"
check "lesson 5: a number's prompt in Chinese (ngettext)" grep -qF \
	"预测：输入一个保留 1 位小数的数，然后按回车键。" "$TMP/l5"

# 6. the text trace
zh trace >"$TMP/trace" 2>&1
check "trace: a step's heading in Chinese" \
	grep -qF "=== dot，t=1：解码器读入 <s> ===" "$TMP/trace"
check "trace: a record's title in Chinese" \
	grep -qF "上下文向量 c_1 = Σ_i α_1,i·h_i" "$TMP/trace"
check "trace: the header's keys stay English" \
	grep -qF "model: <built-in toy4.model>（嵌入维度 4" "$TMP/trace"

# 6b. the pages attn-trace writes say their language; a list's separator
zh quiz --worksheet --format=html >"$TMP/ws.html" 2>&1
check "quiz --worksheet --format=html: <html lang=\"zh-CN\">" \
	grep -qF '<html lang="zh-CN">' "$TMP/ws.html"
LANG=C "$ATTN_TRACE" quiz --worksheet --format=html >"$TMP/ws-c.html" 2>&1
check "the same under LANG=C: <html lang=\"en\">" \
	grep -qF '<html lang="en">' "$TMP/ws-c.html"
zh deck -o "$TMP/deck.html" >/dev/null 2>&1
check "deck: <html lang=\"zh-CN\">" grep -qF '<html lang="zh-CN">' "$TMP/deck.html"
zh lesson 7 --plain >"$TMP/l7" 2>&1
check "lesson 7: 本页内容 joins its items with the Chinese semicolon" \
	grep -qF "本页内容：权重 α_2 的条形图；上下文向量 c_2。" "$TMP/l7"

# 6c. messages that were put together at run time or came from a macro
zh trace --arch=bahdanau --hard --seed=9 --gradient --samples=5 \
	--stage=weighted-sum --target="i am a student" je suis étudiant \
	>"$TMP/jensen" 2>&1
check "the chained Jensen gap's title in Chinese" grep -qF \
	"Jensen 间隙（给定已抽中的过去：s_{t-1} 带着之前各步的抽样）" "$TMP/jensen"
zh glimpse --help >"$TMP/gh" 2>&1
check "glimpse --help: its description in Chinese" \
	grep -qF "的瞥视模型：T 步中的每一步，" "$TMP/gh"
zh heatmap --help >"$TMP/hh" 2>&1
check "heatmap --help: --png-size's help in Chinese" \
	grep -qF -- "--png-size=WxH    -o FILE.png 缩放到这个框内，" "$TMP/hh"
zh self --format=diagrm >"$TMP/fmt" 2>&1
check "an unknown value's list of names in Chinese" grep -qF \
	"应为 text、json、jsonl、csv、markdown、svg 或 diagram-svg" "$TMP/fmt"
zh self --causal --format=diagram-svg --row=2 je suis étudiant >"$TMP/lines.svg" 2>&1
check "self's line diagram: the head's title in Chinese" \
	grep -qF "第 1 个头：左为查询，右为键；第 2 行的权重" "$TMP/lines.svg"
check "self's line diagram: a masked weight in Chinese" \
	grep -qF "已屏蔽（j > i）" "$TMP/lines.svg"

# 3. the ASCII step diagram (diagram --format=text, src/diagram.c): its
# labels Chinese, every line within 80 display columns
zh diagram --format=text >"$TMP/dg" 2>&1
LANG=C "$ATTN_TRACE" diagram --format=text >"$TMP/dg.c" 2>&1
for pair in "largest|最大" "the query|查询" "the attentional state|注意力隐藏状态" \
	"output \"i\"|输出 \"i\""; do
	en=${pair%%|*} cn=${pair#*|}
	check "diagram --format=text: \"$en\" under LANG=C" grep -qF -- "$en" "$TMP/dg.c"
	check "diagram --format=text: \"$cn\" under zh_CN, no \"$en\"" \
		sh -c "grep -qF -- '$cn' '$TMP/dg' && ! grep -qF -- '$en' '$TMP/dg'"
done
check "diagram --format=text: every line fits 80 columns in zh_CN" fits "$TMP/dg"

# 7. the stepper's symbol list and step diagram, on step 1's scores
start xd 80 24 "env -u LC_ALL -u LANGUAGE LANG=zh_CN.UTF-8 ATTN_TRACE_LOCALEDIR=$TMP/loc $ATTN_TRACE tui"
wait_for xd "屏 1/33" >/dev/null
keys xd Right Right Right Right
wait_for xd "屏 5/33" >/dev/null
keys xd x
expect xd "e_t,i  分数：第 t 步 h_i 与查询有多匹配" "x: a symbol's name and meaning in Chinese"
expect_not xd "encoder state:" "x: no English meaning left"
keys xd x d
expect xd "第 1 步：查询 s_1（解码器的新状态）给每个隐藏状态 h_i 加权" \
	"d: the diagram's heading in Chinese"
expect xd "注意力隐藏状态" "d: the result's label in Chinese"
keys xd q
wait_exit xd 0 "x, d: q quits"

# 8. the formatters' words. en_zh NAME C-FILE ZH-FILE, then lines
# "ENGLISH => CHINESE" on stdin: each English phrase in C-FILE, and ZH-FILE
# holds the Chinese and not the English
en_zh() {
	while IFS= read -r pair; do
		[ -n "$pair" ] || continue
		en=${pair%% => *} cn=${pair#* => }
		if ! grep -qF -- "$en" "$2"; then
			not_ok "$1: \"$en\" under LANG=C (the list is out of date)"
		elif grep -qF -- "$en" "$3"; then
			not_ok "$1: \"$en\" is still English under zh_CN"
		elif ! grep -qF -- "$cn" "$3"; then
			not_ok "$1: \"$cn\" under zh_CN"
		else
			ok "$1: \"$en\" is \"$cn\" under zh_CN"
		fi
	done
}
# both NAME ARGS...: the output (and errors) of ARGS under LANG=C into
# $TMP/NAME.c, under zh_CN into $TMP/NAME.zh
both() {
	n=$1
	shift
	LANG=C "$ATTN_TRACE" "$@" >"$TMP/$n.c" 2>&1
	zh "$@" >"$TMP/$n.zh" 2>&1
}
both md trace --format=markdown
en_zh "trace --format=markdown" "$TMP/md.c" "$TMP/md.zh" <<'EOF'
(greedy decoding) => （贪心解码）
; 4 digits. => ；保留 4 位小数。
## Encoding => ## 编码
| i | word | x_i | h_i | => | i | 词 | x_i | h_i |
### t=1: the decoder reads => ### t=1：解码器读入
| i | word | e_1,i | => | i | 词 | e_1,i |
Output: **i** => 输出：**i**
ŷ_1 by word: => ŷ_1 中每个词的概率：
## dot scorer: e_t,i => ## dot 打分函数：e_t,i
Output words: i am a student => 输出的词：i am a student
EOF
both mdp trace --format=markdown --window=local-p
en_zh "trace --format=markdown --window=local-p" "$TMP/mdp.c" "$TMP/mdp.zh" <<'EOF'
The window: ⌊p_1⌋ ± D = ⌊1.1106⌋ ± 1, positions 1 .. 2 => 窗口：⌊p_1⌋ ± D = ⌊1.1106⌋ ± 1，位置 1 .. 2
, below 1: nothing is renormalised => ，小于 1：不再重新归一化
| Gaussian | => | 高斯因子 |
EOF
both mdg trace --format=markdown --gradient-paths --target="i am a student" je suis étudiant
en_zh "trace --format=markdown --gradient-paths" "$TMP/mdg.c" "$TMP/mdg.zh" <<'EOF'
### Gradient paths of L_5 => ### L_5 的梯度路径
direct: through step 5's attention alone => 直接：只经由第 5 步的注意力
| ‖direct‖ | ‖through the recurrence‖ | => | ‖直接‖ | ‖经由循环连接‖ |
EOF
both mds self --format=markdown
en_zh "self --format=markdown" "$TMP/mds.c" "$TMP/mds.zh" <<'EOF'
# Self-attention of: => # 自注意力：
: d_model 4, 2 heads of d_k = d_v = 2; mask: none; positions: sin/cos added. => ：d_model 4，2 个头，d_k = d_v = 2；掩码：无；位置：加上 sin/cos 位置编码。
EOF
both calcmd calc --format=markdown --query=1,2 --keys='1,0;0,1'
en_zh "calc --format=markdown" "$TMP/calcmd.c" "$TMP/calcmd.zh" <<'EOF'
# attn-trace calc: attention on any vectors => # attn-trace calc：任意向量上的注意力
Scorer dot => 打分函数 dot
weights none; 4 digits. => 权重：无；保留 4 位小数。
## Inputs => ## 输入
| vector | numbers | => | 向量 | 数值 |
## Scores => ## 分数
| terms | intermediates | => | 各项 | 中间值 |
## Softmax and the weighted sum => ## softmax 与加权求和
The output c_1 = => 输出 c_1 =
EOF
both gmd glimpse -f markdown "$top_srcdir/data/images/train/bar-x0.pgm"
en_zh "glimpse -f markdown" "$TMP/gmd.c" "$TMP/gmd.zh" <<'EOF'
# Glimpses on => # 瞥视：
: 3 glimpses, σ = 0.3000, places drawn: sample, seed 1; classes dot, bar, box. => ：3 次瞥视，σ = 0.3000，位置的抽取：sample，随机种子 1；类别 dot, bar, box。
The image, 6×6 pixels (0 black, 1 white): => 图像，6×6 像素（0 为黑，1 为白）：
## Glimpse 1 of 3 => ## 第 1 次瞥视，共 3 次
| corner (row, column), from 0 | => | 左上角（行，列），从 0 起 |
fovea ρ_1..4 = => 中央凹 ρ_1..4 =
## The class => ## 类别
Class: ** => 类别：**
EOF
# the deck's visible text: the HTML without its script, style and tags
LANG=C "$ATTN_TRACE" deck -o "$TMP/deck-c.html" >/dev/null 2>&1
for f in deck-c deck; do
	/usr/bin/python3 - "$TMP/$f.html" >"$TMP/$f.txt" <<'EOF'
import html, re, sys
s = open(sys.argv[1], encoding="utf-8").read()
s = re.sub(r"<(script|style)>.*?</\1>", "", s, flags=re.S)
s = re.sub(r"<sub>", "_", s)  # a subscript as the trace writes it
print(html.unescape(re.sub(r"<[^>]+>", "", s)))
EOF
done
en_zh "deck" "$TMP/deck-c.txt" "$TMP/deck.txt" <<'EOF'
Attention, step by step => 一步一步看注意力
variant => 变体
→ or Space: the next slide => → 或空格：下一张幻灯片
Encoding: the source, word by word => 编码：逐词读入源句
each word's embedding x_i and the encoder's state h_i => 每个词的词嵌入 x_i 和编码器的隐藏状态 h_i
Step 1 of 5 · scoring => 第 1 步，共 5 步 · 打分
Step 1 of 5 · weighted-sum => 第 1 步，共 5 步 · 加权求和
the decoder reads “<s>” and outputs “i” => 解码器读入“<s>”，输出“i”
the query => 查询
output “i”, P = 0.9287 => 输出“i”，P = 0.9287
Every step's weights α_t,i => 每一步的权重 α_t,i
a row for each step => 每一步一行
EOF
both train train --pairs="$top_srcdir/data/toy.pairs" --epochs=2 --seed=1 -o -
en_zh "train" "$TMP/train.c" "$TMP/train.zh" <<'EOF'
epoch 1/2  loss => 第 1/2 轮  损失
trained 2 epochs in => 训练了 2 轮
greedy decoding reproduces 0/38 pairs with dot, 0/38 with general => 贪心解码重现了：dot 0/38 个句对，general 0/38
alignment accuracy on the training pairs: dot => 训练句对上的对齐准确率：dot
EOF
check "train: the model file's description stays English under zh_CN" \
	grep -qF "Greedy decoding reproduces, of the training pairs," "$TMP/train.zh"
check "train: so are the model file's counts of the pairs" \
	grep -qxF "# 0/38 pairs with dot, 0/38 with general, 0/38 with concat, 0/38 with scaled, 0/38 with location, 0/38 with additive, 0/38 with location-aware." "$TMP/train.zh"
finish
