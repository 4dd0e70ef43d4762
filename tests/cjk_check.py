#!/usr/bin/env python3
"""cjk_check.py: measures text that holds CJK characters by display width,
for tests/cjk.sh.  Columns are counted with wcwidth (python3-wcwidth) when
it is installed, else from unicodedata (East Asian Wide and Fullwidth 2,
combining marks 0, the rest 1): an independent count, not attn-trace's.

  cjk_check.py width FILE MAX          every line at most MAX columns
  cjk_check.py numbers FILE NUM...     each NUM stands whole on a line, and
                                       no line ends inside a number that
                                       the next line goes on with
  cjk_check.py column FILE NEEDLE      NEEDLE starts at one column on every
                                       line that holds it (and on two at
                                       least)
  cjk_check.py heatmap FILE OFFSET     a heatmap's header words and its
                                       cells start at the same columns
  cjk_check.py bars FILE               a box diagram's bars line up
  cjk_check.py prose FILE MAX LEAST    LEAST lines of CJK prose or more,
                                       none wider than MAX columns
  cjk_check.py lines PLAIN SCREEN      every line of PLAIN is a row of
                                       SCREEN (less its one-column margin)
  cjk_check.py indent SCREEN           no row of SCREEN holds CJK text
                                       after a hanging indent of 3 or more
Prints what is wrong and exits 1, or exits 0.
"""
import re
import sys
import unicodedata

try:
    from wcwidth import wcswidth as _wcswidth
except ImportError:  # the fallback count
    _wcswidth = None


def cols(s):
    if _wcswidth is not None:
        w = _wcswidth(s)
        if w >= 0:
            return w
    n = 0
    for c in s:
        if unicodedata.combining(c):
            continue
        n += 2 if unicodedata.east_asian_width(c) in "WF" else 1
    return n


def is_cjk(c):
    return unicodedata.east_asian_width(c) in "WF"


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read().split("\n")


def bad(msg):
    print(msg)
    return 1


def check_width(path, most):
    rc = 0
    for k, line in enumerate(read(path), 1):
        if cols(line) > int(most):
            rc = bad("%s:%d: %d columns, more than %s: %s"
                     % (path, k, cols(line), most, line))
    return rc


NUM_END = re.compile(r"[-+]?\d+(\.\d+)?([eE][-+]?\d+)?\.?$")


def check_numbers(path, nums):
    lines = read(path)
    rc = 0
    for num in nums:
        pat = re.compile(r"(?<![\d.])" + re.escape(num) + r"(?![\d])")
        if not any(pat.search(line) for line in lines):
            rc = bad("%s: %s is not whole on any line" % (path, num))
    for k in range(len(lines) - 1):
        a, b = lines[k].rstrip(), lines[k + 1].lstrip()
        if a and b and NUM_END.search(a) and re.match(r"[\d.]", b) \
                and a[-1] != "." and not a[-1].isspace():
            rc = bad("%s:%d: a number is cut: %r / %r" % (path, k + 1, a, b))
        if a and b and a[-1] in "-." and b[0].isdigit():
            rc = bad("%s:%d: a number is cut: %r / %r" % (path, k + 1, a, b))
    return rc


def starts(line, needle):
    """The columns at which needle starts in line."""
    out, at = [], line.find(needle)
    while at >= 0:
        out.append(cols(line[:at]))
        at = line.find(needle, at + 1)
    return out


def check_column(path, needle):
    seen = [(k, starts(line, needle)[0])
            for k, line in enumerate(read(path), 1) if needle in line]
    if len(seen) < 2:
        return bad("%s: %r is on %d lines, wanted 2 or more"
                   % (path, needle, len(seen)))
    if len({c for _, c in seen}) != 1:
        return bad("%s: %r at columns %s" % (path, needle, seen))
    return 0


def check_heatmap(path, offset):
    """The rows are the lines that end in a weight; the header is the line
    before the first of them: its words, the source words, must start
    where each row's cells do, a cell being its weight less offset columns
    (the text heatmap's shade and blank: 2; the stepper's: 0)."""
    lines = [l for l in read(path) if l.strip()]
    first = [k for k, l in enumerate(lines) if re.search(r"\d\.\d{4}$", l)]
    if not first or first[0] == 0:
        return bad("%s: no header and rows of weights" % path)
    head = lines[first[0] - 1]
    heads = [cols(head[:m.start()]) for m in re.finditer(r"\S+", head)]
    rc = 0
    for line in (lines[k] for k in first):
        cells = [cols(line[:m.start()]) - int(offset)
                 for m in re.finditer(r"\d\.\d{4}", line)]
        if cells != heads:
            rc = bad("%s: cells at %s, header words at %s: %s"
                     % (path, cells, heads, line))
    return rc


BOX = "│┌┬┐└┴┘"


def check_bars(path):
    """The columns of the first three box-drawing bars or corners of each
    line are the same on every line."""
    seen = set()
    for line in read(path):
        at = [cols(line[:k]) for k, c in enumerate(line) if c in BOX][:3]
        if at:
            seen.add(tuple(at))
    if len(seen) != 1:
        return bad("%s: the boxes' bars at columns %s" % (path, sorted(seen)))
    return 0


def check_prose(path, most, least):
    """The lines that hold a CJK character, titles (a line underlined by
    the next) left out: least of them at least, each at most most
    columns."""
    lines = read(path)
    prose = [l for k, l in enumerate(lines)
             if any(is_cjk(c) for c in l) and not
             (k + 1 < len(lines) and re.fullmatch(r"[-=]+", lines[k + 1]))]
    rc = 0
    if len(prose) < int(least):
        rc = bad("%s: %d lines of CJK prose, wanted %s or more"
                 % (path, len(prose), least))
    for line in prose:
        if cols(line) > int(most):
            rc = bad("%s: %d columns, more than %s: %s"
                     % (path, cols(line), most, line))
    return rc


def check_lines(plain, screen):
    rows = {r[1:].rstrip() for r in read(screen)}
    rc = 0
    if not any(line.strip() for line in read(plain)):
        rc = bad("%s: no lines to look for" % plain)
    for line in read(plain):
        if line.strip() and line.rstrip() not in rows:
            rc = bad("%s: not on the screen: %s" % (plain, line))
    return rc


def check_indent(screen):
    rc = 0
    for k, row in enumerate(read(screen), 1):
        m = re.match(r" ( {3,})(\S)", row)
        if m and is_cjk(m.group(2)):
            rc = bad("%s:%d: CJK text after a hanging indent: %s"
                     % (screen, k, row))
    return rc


def main(argv):
    what, args = argv[1], argv[2:]
    if what == "width":
        return check_width(*args)
    if what == "numbers":
        return check_numbers(args[0], args[1:])
    if what == "column":
        return check_column(*args)
    if what == "heatmap":
        return check_heatmap(*args)
    if what == "bars":
        return check_bars(*args)
    if what == "prose":
        return check_prose(*args)
    if what == "lines":
        return check_lines(*args)
    if what == "indent":
        return check_indent(*args)
    return bad("cjk_check.py: unknown check %s" % what)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
