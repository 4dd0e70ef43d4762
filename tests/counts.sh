#!/bin/sh
# counts.sh: lists that count themselves.  Every count and list of scorers,
# built-in models, stages, lessons and phrase pairs that the README, the
# man page, lessons/README.md, doc/*.md and `attn-trace help` name is
# checked against what the program itself says (`scorers --names`,
# `models --names`, `lessons`, the stages its --stage error lists) and the
# data files, so that a scorer added without the text fails here.
#   counts.sh FILE...  checks those files instead (the mutation check).
. "$srcdir/tests/lib.sh"
if [ -z "${PYTHON3:-}" ] || [ "$PYTHON3" = no ]; then
	echo "python3 is needed"; exit 77
fi

"$ATTN_TRACE" scorers --names >"$TMP/scorers" || not_ok "scorers --names"
"$ATTN_TRACE" models --names >"$TMP/models" || not_ok "models --names"
"$ATTN_TRACE" lessons >"$TMP/lessons" || not_ok "lessons"
"$ATTN_TRACE" trace --stage=none 2>"$TMP/stages" >/dev/null
# the help of every command, as the user reads it
: >"$TMP/help.txt"
for c in "" trace tui lessons lesson quiz heatmap diagram deck train model \
	scorers models vocab self; do
	"$ATTN_TRACE" help $c >>"$TMP/help.txt" 2>&1
done

if [ $# -gt 0 ]; then
	set -- "$@"
else
	set -- "$srcdir/README.md" "$srcdir/doc/attn-trace.1" \
		"$srcdir/lessons/README.md" "$srcdir/doc/architecture.md" \
		"$srcdir/doc/heatmap.md" "$srcdir/doc/model-format.md" \
		"$srcdir/doc/model.md" "$srcdir/doc/quiz.md" \
		"$srcdir/doc/trace-format.md" "$srcdir/doc/training.md" \
		"$srcdir/doc/notation.md" "$TMP/help.txt"
fi

"$PYTHON3" - "$TMP" "$srcdir" "$@" <<'PY' >"$TMP/report"
import os, re, sys

tmp, srcdir, files = sys.argv[1], sys.argv[2], sys.argv[3:]
read = lambda p: open(p, encoding="utf-8").read()
scorers = read(tmp + "/scorers").split()
models = read(tmp + "/models").split()
lessons = [l.split()[0] for l in read(tmp + "/lessons").splitlines()
           if re.match(r"\s*\d+\s", l)]
m = re.search(r"expected (.*) or (\S+)\s*$", read(tmp + "/stages").splitlines()[0])
stages = m.group(1).split(", ") + [m.group(2)]

def pairs(name):
    return sum(1 for l in read(os.path.join(srcdir, "data", name)).splitlines()
               if "|||" in l and not l.lstrip().startswith("#"))

COUNT = {"scorers": len(scorers), "models": len(models),
         "lessons": len(lessons), "stages": len(stages)}
WORDS = "zero one two three four five six seven eight nine ten eleven " \
        "twelve thirteen fourteen fifteen sixteen seventeen eighteen " \
        "nineteen twenty".split()
NUM = r"(\d+|" + "|".join(WORDS) + r")"

def value(word):
    w = word.lower()
    return int(w) if w.isdigit() else WORDS.index(w)

bad = []
def fail(where, what):
    bad.append("%s: %s" % (where, what))

def plain(text):
    """The man page's and Markdown's markup out of the way."""
    text = re.sub(r"\\f[BIRP]|\\\(..|\\&", "", text.replace("\\-", "-"))
    text = re.sub(r"^\.(B|I|BR|IR|BI|RB|TP|PP)\b ?", "", text, flags=re.M)
    return text.replace("`", "").replace("**", "")

for path in files:
    name = "attn-trace help" if path == tmp + "/help.txt" else \
        os.path.relpath(path, srcdir) if path.startswith(srcdir) else path
    text = plain(read(path))
    lines = text.splitlines()
    # joined into paragraphs, so that a count and its noun may straddle
    # a line break
    flat = re.sub(r"\s+", " ", text)
    # 1. "seven scorers", "Three models are built in", "the six stages",
    # "20 lessons": a number straight before the noun is its count
    for noun, n in COUNT.items():
        for m in re.finditer(r"(?i)\b" + NUM + r" (?:built-in |built in )?"
                             + noun + r"\b", flat):
            if noun == "models" and re.match(r" (?:of|are) ",
                                             flat[m.end():]) is None \
                    and "built" not in flat[m.end():m.end() + 25] \
                    and "built" not in m.group(0):
                continue  # "two snapshot models": not the built-in ones
            if value(m.group(1)) != n:
                fail(name, "%r, but there are %d %s" % (m.group(0), n, noun))
    # 2. "N ... pairs": the phrase pairs of data/heldout.pairs where the
    # sentence says they were held out (never seen), else data/toy.pairs
    for m in re.finditer(r"\b(\d{2,}) (?:\w+ ){0,4}pairs\b", flat):
        start = flat.rfind(". ", 0, m.start()) + 1
        near = flat[start:m.end() + 40]  # its sentence, up to it
        held = re.search(r"held|never saw|unseen", near) is not None
        want = pairs("heldout.pairs" if held else "toy.pairs")
        if int(m.group(1)) != want:
            fail(name, "%r, but data/%s has %d" % (m.group(0),
                 "heldout.pairs" if held else "toy.pairs", want))
    def para_start(k):
        """the index of the first line of line k's paragraph"""
        j = k - 1
        while j > 0 and lines[j - 1].strip() and \
                not lines[j - 1].startswith("."):
            j -= 1
        return j
    for k, line in enumerate(lines, 1):
        if re.search(r"--scorer=[\w-]+,", line):
            continue  # a command: its scorers are its own
        # 3. a list of five scorers or more claims to be all of them (a
        # line that ends in a comma goes on in the next: --help wraps
        # its lists at 80 columns)
        if line.rstrip().endswith(",") and k < len(lines):
            line = line.rstrip() + " " + lines[k].strip()
        named = [s for s in scorers
                 if re.search(r"(?<![\w-])" + re.escape(s) + r"(?![\w-])", line)]
        if len(named) >= 5 and len(named) != len(scorers):
            fail("%s:%d" % (name, k), "lists %d scorers of %d: %s" %
                 (len(named), len(scorers), line.strip()[:80]))
        # 4. a list of four built-in models or more names them all
        named = [s for s in models if re.search(r"\b%s\b" % s, line)]
        if len(named) >= 4 and len(named) != len(models):
            fail("%s:%d" % (name, k), "lists %d models of %d, not %s: %s" %
                 (len(named), len(models),
                  ", ".join(sorted(set(models) - set(named))),
                  line.strip()[:60]))
        # 5. a list of four stages or more (a list may run over three
        # lines) names them all
        def stage_names(text):
            """the stages text names, in the order it names them"""
            text = text.replace("weighted sum", "weighted-sum").replace(
                "concatenation", "concat")
            found = []
            for m in re.finditer(r"(?<![\w-])(%s)(?![\w-])" %
                                 "|".join(map(re.escape, stages)), text):
                if m.group(1) not in found:
                    found.append(m.group(1))
            return found
        def blank(l):
            return not l.strip() or l.startswith(".")
        if not line.startswith("|") and stage_names(line) and \
                (k == 1 or blank(lines[k - 2]) or
                 not stage_names(" ".join(lines[para_start(k):k - 1]))):
            # a list that starts on this line and runs to the end of its
            # paragraph, in the order of a step
            end = k
            while end < len(lines) and not blank(lines[end]):
                end += 1
            named = stage_names(" ".join(lines[k - 1:end]))
            if named != sorted(named, key=stages.index):
                named = []  # not a list of the stages in their order
            # every stage, or a decoder step's (all but the encoding; in
            # Bahdanau's, all but the encoding and concat)
            step = [s for s in stages if s != "encoding"]
            bahd = [s for s in step if s != "concat"]
            if len(named) >= 4 and sorted(named) not in (
                    sorted(stages), sorted(step), sorted(bahd)):
                fail("%s:%d" % (name, k), "lists %d stages of %d, not %s" %
                     (len(named), len(stages),
                      ", ".join(s for s in stages if s not in named)))
        # 6. "g then 1-6": the stages numbered
        for m in re.finditer(r"\b1-(\d+)\b.*stage", line):
            if int(m.group(1)) != len(stages):
                fail("%s:%d" % (name, k), "stages 1-%s, but there are %d" %
                     (m.group(1), len(stages)))

# 7. lessons/README.md: its table names every lesson file, and "Lessons A
# and B use M" / "Lessons A to B use M" says what their headers say
if any(p.endswith("lessons/README.md") for p in files):
    path = [p for p in files if p.endswith("lessons/README.md")][0]
    text = read(path)
    listed = re.findall(r"^\| `(\d+)-[\w-]+\.lesson` \|", text, re.M)
    if sorted(listed) != sorted(lessons):
        fail("lessons/README.md", "its table lists lessons %s; attn-trace "
             "lessons lists %s" % (" ".join(listed), " ".join(lessons)))
    def model_of(num):
        f = [x for x in os.listdir(os.path.join(srcdir, "lessons"))
             if x.startswith(num + "-") and x.endswith(".lesson")][0]
        head = read(os.path.join(srcdir, "lessons", f))
        m = re.search(r"^model: *(\S+)", head, re.M)
        if m:
            return m.group(1)
        return "bahdanau4" if re.search(r"^arch: *bahdanau", head, re.M) \
            else "toy4"
    flat = re.sub(r"\s+", " ", text)
    for m in re.finditer(r"Lessons? (\d+)(?: (and|to) (\d+))? uses? "
                         r"(?:the [\w-]+ model \()?`?(?:model: )?(\w+)`?", flat):
        a = int(m.group(1))
        b = int(m.group(3)) if m.group(3) else a
        nums = range(a, b + 1) if m.group(2) == "to" else sorted({a, b})
        for n in nums:
            got = model_of("%02d" % n)
            if got != m.group(4):
                fail("lessons/README.md", "%r, but lesson %d uses %s" %
                     (m.group(0), n, got))

# README.md's table "Every file of `src/`" names every source file
text = read(os.path.join(srcdir, "README.md"))
table = text[text.find("Every file of `src/`"):]
table = table[:table.find("\n\n", table.find("| path |"))]
named = set(re.findall(r"`src/([A-Za-z0-9_]+\.[ch])`", table))
made = {"model_builtin.c", "paths.h"}   # written by make
for f in sorted(os.listdir(os.path.join(srcdir, "src"))):
    if re.fullmatch(r"[A-Za-z0-9_]+\.[ch]", f) and f not in made \
            and f not in named:
        fail("README.md", "the table of src/ does not name src/%s" % f)

if bad:
    print("\n".join(bad))
PY
if [ -s "$TMP/report" ]; then
	cat "$TMP/report"
	not_ok "the counts and lists of the docs and help are the program's"
else
	ok "the counts and lists of the docs and help are the program's"
fi
finish
