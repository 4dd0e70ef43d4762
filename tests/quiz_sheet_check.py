#!/usr/bin/env python3
"""quiz_sheet_check.py: checks of "attn-trace quiz --worksheet" and "--key"
for tests/quiz-sheet.sh.

  solve WORKSHEET.txt KEY.txt
      Works out each question of the text worksheet from the numbers it
      shows (a dot product, a softmax, a weighted sum, with loops of our
      own) and checks the key's answer against it within the tolerance the
      question states; checks that both list the same symbols in the same
      order.  Prints one line a question.
  prompts WORKSHEET.txt OTHER FORMAT
      The questions of the Markdown or HTML worksheet OTHER are those of
      the text one, line for line.
  html FILE
      FILE is one well-formed, self-contained HTML page: a doctype, every
      element closed in order, no script, no external file.
  text FILE WORD
      The text of the HTML page FILE, as a browser reads it, holds WORD.
Exits 1 with a message on the first failure."""
import html
import html.parser
import math
import re
import sys

VEC = re.compile(r"^  (\S.*?)\s+\((\d+)\)\s+\[(.*)\]$")


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def questions(path):
    """The text worksheet's questions: a list of lists of lines."""
    qs, cur = [], None
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        if re.match(r"^\d+\. ", line):
            cur = []
            qs.append(cur)
        elif cur is not None:
            cur.append(line)
    return qs


def vectors(lines):
    out = []
    for line in lines:
        m = VEC.match(line)
        if m:
            v = [float(x) for x in m.group(3).split(",")]
            if len(v) != int(m.group(2)):
                fail("a vector's length is not its count: " + line)
            out.append((m.group(1), v))
    return out


def solve_one(lines):
    """(symbol, value) worked out from the numbers the question shows."""
    text = "\n".join(lines)
    sym = re.search(r"^answer: (\S+) = _+$", text, re.M)
    if not sym:
        fail("no answer blank in:\n" + text)
    vs = vectors(lines)
    if "What is the score" in text:
        (_, a), (_, b) = vs[0], vs[1]
        return sym.group(1), sum(x * y for x, y in zip(a, b))
    m = re.search(r"What is the weight of h_(\d+)", text)
    if m:
        e = vs[0][1]
        top = max(e)
        ex = [math.exp(x - top) for x in e]
        return sym.group(1), ex[int(m.group(1)) - 1] / sum(ex)
    m = re.search(r"What is coordinate (\d+) of the context vector", text)
    if m:
        k = int(m.group(1))
        alpha, hs = vs[0][1], [v for _, v in vs[1:]]
        if len(hs) != len(alpha):
            fail("%d weights but %d states" % (len(alpha), len(hs)))
        return sym.group(1), sum(a * h[k - 1] for a, h in zip(alpha, hs))
    fail("a question of no known kind:\n" + text)


def solve(sheet, key):
    qs = questions(sheet)
    ks = questions(key)
    if not qs or len(qs) != len(ks):
        fail("%d questions but %d answers" % (len(qs), len(ks)))
    for n, (q, k) in enumerate(zip(qs, ks), 1):
        sym, mine = solve_one(q)
        m = re.match(r"^(\S+) = (-?\d+\.\d+)$", k[0]) if k else None
        if not m:
            fail("answer %d does not open with SYMBOL = VALUE: %r" % (n, k[:1]))
        if m.group(1) != sym:
            fail("question %d asks for %s, the key answers %s"
                 % (n, sym, m.group(1)))
        got = float(m.group(2))
        prec = len(m.group(2).split(".")[1])
        tol = 5 * 10 ** -prec * (1 + abs(mine))
        status = "ok" if abs(got - mine) <= tol else "WRONG"
        print("%d %s key %s, from the worksheet's numbers %.6f: %s"
              % (n, sym, m.group(2), mine, status))
        if status != "ok":
            fail("answer %d: the key says %s = %s, the numbers shown give %.6f"
                 % (n, sym, m.group(2), mine))


class Page(html.parser.HTMLParser):
    VOID = {"meta", "br", "hr", "img", "link", "input"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.seen, self.text, self.pres = [], [], [], []
        self.decl = None
        self.errors = []

    def handle_decl(self, decl):
        if self.seen or self.decl:
            self.errors.append("a doctype not first")
        self.decl = decl

    def handle_starttag(self, tag, attrs):
        self.seen.append(tag)
        for name, value in attrs:
            if name in ("src", "href") or name.startswith("on"):
                self.errors.append("<%s %s=%r>: refers outside" % (tag, name, value))
        if tag in ("script", "link", "img", "iframe", "object"):
            self.errors.append("<%s> in the page" % tag)
        if tag == "pre":
            self.pres.append("")
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in self.VOID:
            self.stack.pop()

    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag:
            self.errors.append("</%s> closes <%s>" % (tag, self.stack[-1] if self.stack else "nothing"))
        else:
            self.stack.pop()

    def handle_data(self, data):
        self.text.append(data)
        if "pre" in self.stack:
            self.pres[-1] += data
        if "style" in self.stack and ("url(" in data or "@import" in data):
            self.errors.append("the style loads a file")


def parse(path):
    raw = open(path, encoding="utf-8").read()
    p = Page()
    p.feed(raw)
    p.close()
    return raw, p


def check_html(path):
    raw, p = parse(path)
    if not raw.startswith("<!DOCTYPE html>"):
        fail("the page does not start with <!DOCTYPE html>")
    if p.stack:
        fail("elements left open: %s" % p.stack)
    if p.errors:
        fail("; ".join(p.errors))
    for tag in ("html", "head", "title", "body"):
        if p.seen.count(tag) != 1:
            fail("%d <%s> elements" % (p.seen.count(tag), tag))
    if 'charset="utf-8"' not in raw:
        fail("no <meta charset=\"utf-8\">")
    print("well-formed: %d elements, %d <pre>" % (len(p.seen), len(p.pres)))


def prompts(sheet, other, fmt):
    mine = ["\n".join(l for l in q if not l.startswith("answer: ")).rstrip("\n")
            + "\n" for q in questions(sheet)]
    if fmt == "html":
        theirs = parse(other)[1].pres
    else:
        theirs = re.findall(r"^(`{3,})text\n(.*?)^\1$",
                            open(other, encoding="utf-8").read(), re.M | re.S)
        theirs = [body for _, body in theirs]
    if mine != theirs:
        fail("the %s questions differ from the text ones:\n%r\n%r"
             % (fmt, mine, theirs))
    print("%d questions, the same in %s" % (len(mine), fmt))


def text_has(path, word):
    text = "".join(parse(path)[1].text)
    if word not in text:
        fail("the page's text lacks %r" % word)
    print("the page reads %r" % word)


if __name__ == "__main__":
    cmd = sys.argv[1]
    if cmd == "solve":
        solve(sys.argv[2], sys.argv[3])
    elif cmd == "prompts":
        prompts(sys.argv[2], sys.argv[3], sys.argv[4])
    elif cmd == "html":
        check_html(sys.argv[2])
    elif cmd == "text":
        text_has(sys.argv[2], sys.argv[3])
    else:
        fail("unknown command " + cmd)
