#!/usr/bin/env python3
"""self_diagram_check.py: checks for tests/self-diagram-svg.sh, standard
library only.

    self_diagram_check.py svg SVG JSON
        SVG (attn-trace self --format=diagram-svg) parses as XML and its
        lines are the weights A of each head of the JSON trace (attn-trace
        self --format=json, same sentence and options), to 1e-12: a line
        for every query and key, dotted ("masked") exactly where the
        masked scores are null, wider for a larger weight; the weights of
        the chosen row (data-row) printed to 4 places by the keys,
        "largest" by the largest, and the words of both sides written.

    self_diagram_check.py png PNG SVG
        PNG (Chromium's screenshot of SVG) has the size the SVG asks for,
        white corners, and the middle of each head's widest line of the
        chosen row in that line's dark blue.

    self_diagram_check.py heatmap SVG JSON
        SVG (attn-trace self --format=svg, the heatmaps) has a panel for
        each head shown whose cells, row by row, print the weights A of
        the JSON trace to 4 places, "−∞" where the mask is.

Prints what is wrong and exits 1, or exits 0 silently.
"""
import json
import os
import sys
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from svg_check import png_read, pixel  # noqa: E402

NS = "{http://www.w3.org/2000/svg}"
TOL = 1e-12


def fail(msg):
    print("self_diagram_check: " + msg)
    sys.exit(1)


def heads(root):
    return [g for g in root.iter(NS + "g") if g.get("class") == "head"]


def lines_of(g):
    return [e for e in g.iter(NS + "line")
            if e.get("class") in ("weight", "masked")]


def check_svg(svg_path, json_path):
    root = ET.parse(svg_path).getroot()
    with open(json_path, encoding="utf-8") as f:
        doc = json.load(f)
    if root.tag != NS + "svg":
        fail("the root is not an SVG element")
    row = int(root.get("data-row")) - 1
    want_heads = doc["heads_shown"]
    got = [int(g.get("data-head")) for g in heads(root)]
    if got != want_heads:
        fail("panels of heads %r, the JSON shows %r" % (got, want_heads))
    for g in heads(root):
        h = int(g.get("data-head"))
        A = [r for r in doc["records"]
             if r["name"] == "A" and r["head"] == h][0]["value"]
        Sm = [r for r in doc["records"]
              if r["name"] == "scores_masked" and r["head"] == h]
        masked = [[Sm and Sm[0]["value"][i][j] is None
                   for j in range(len(A[0]))] for i in range(len(A))]
        lines = lines_of(g)
        if len(lines) != len(A) * len(A[0]):
            fail("head %d: %d lines for %dx%d weights" %
                 (h, len(lines), len(A), len(A[0])))
        seen = set()
        for e in lines:
            i, j = int(e.get("data-i")) - 1, int(e.get("data-j")) - 1
            if (i, j) in seen:
                fail("head %d: two lines for %d,%d" % (h, i + 1, j + 1))
            seen.add((i, j))
            a = float(e.get("data-alpha"))
            if abs(a - A[i][j]) > TOL:
                fail("head %d: α_%d,%d is %r in the SVG, %r in the JSON" %
                     (h, i + 1, j + 1, a, A[i][j]))
            if (e.get("class") == "masked") != bool(masked[i][j]):
                fail("head %d: the line %d,%d is %s, the JSON says %s" %
                     (h, i + 1, j + 1, e.get("class"),
                      "masked" if masked[i][j] else "not masked"))
            if masked[i][j] and not e.get("stroke-dasharray"):
                fail("head %d: the masked pair %d,%d is not dotted" %
                     (h, i + 1, j + 1))
        # wider for a larger weight
        ws = [(float(e.get("data-alpha")), float(e.get("stroke-width")))
              for e in lines if e.get("class") == "weight"]
        for a1, w1 in ws:
            for a2, w2 in ws:
                if a1 > a2 + 1e-3 and not w1 > w2:
                    fail("head %d: the line of α=%r is not wider than "
                         "that of α=%r" % (h, a1, a2))
                if a1 >= a2 and w1 < w2:
                    fail("head %d: α=%r has a narrower line than α=%r" %
                         (h, a1, a2))
        # the chosen row's weights, printed
        labels = [e for e in g.iter(NS + "text") if e.get("class") == "alpha"]
        if len(labels) != len(A[row]):
            fail("head %d: %d weights printed for %d keys" %
                 (h, len(labels), len(A[row])))
        free = [j for j in range(len(A[row])) if not masked[row][j]]
        big = max(free, key=lambda j: A[row][j])
        for j, e in enumerate(labels):
            text = e.text
            if masked[row][j]:
                if not text.startswith("masked"):
                    fail("head %d: key %d is masked, printed %r" %
                         (h, j + 1, text))
                continue
            if text.split()[0] != "%.4f" % A[row][j]:
                fail("head %d: α_%d,%d printed %r, the JSON has %r" %
                     (h, row + 1, j + 1, text, A[row][j]))
            if ("largest" in text) != (j == big):
                fail("head %d: %r: 'largest' belongs to key %d" %
                     (h, text, big + 1))
        texts = {e.get("class"): [] for e in g.iter(NS + "text")}
        for e in g.iter(NS + "text"):
            texts[e.get("class")].append("".join(e.itertext()))
        for cls, words in (("query", doc["queries"]), ("key", doc["source"])):
            got = [t.split(" ", 1)[1] for t in texts.get(cls, [])]
            if got != words:
                fail("head %d: the %s words are %r, the JSON's %r" %
                     (h, cls, got, words))


def check_png(png_path, svg_path):
    root = ET.parse(svg_path).getroot()
    w, h, bpp, rows = png_read(png_path)
    if (w, h) != (int(root.get("width")), int(root.get("height"))):
        fail("the PNG is %dx%d, the SVG asks for %sx%s" %
             (w, h, root.get("width"), root.get("height")))
    for x, y in ((0, 0), (w - 1, 0), (0, h - 1), (w - 1, h - 1)):
        if pixel(rows, bpp, x, y) != (255, 255, 255):
            fail("the corner %d,%d is not white" % (x, y))
    row = root.get("data-row")
    for g in heads(root):
        mine = [e for e in lines_of(g)
                if e.get("data-i") == row and e.get("class") == "weight"]
        e = max(mine, key=lambda e: float(e.get("stroke-width")))
        x = (int(e.get("x1")) + int(e.get("x2"))) // 2
        y = (int(e.get("y1")) + int(e.get("y2"))) // 2
        fill = e.get("stroke")
        want = tuple(int(fill[k:k + 2], 16) for k in (1, 3, 5))
        got = pixel(rows, bpp, x, y)
        if max(abs(a - b) for a, b in zip(got, want)) > 40:
            fail("head %s: the widest line of row %s shows %r at %d,%d, "
                 "expected about %r" % (g.get("data-head"), row, got, x, y,
                                        want))


def check_best(g, cells, A, Sm, h):
    """A heatmap without numbers frames, in each row, every unmasked cell
    whose weight is the row's largest (the JSON's, at full precision)."""
    n = len(A[0])
    at = {(float(r.get("x")), float(r.get("y"))): k
          for k, r in enumerate(cells)}
    got = sorted(at[(float(b.get("x")) - 1, float(b.get("y")) - 1)]
                 for b in g.iter(NS + "rect") if b.get("class") == "best")
    want = []
    for i, row in enumerate(A):
        ok = [j for j in range(n) if not (Sm and Sm[0]["value"][i][j]
                                          is None)]
        most = max(row[j] for j in ok)
        want += [i * n + j for j in ok if row[j] == most]
    if got != want:
        fail("head %d: framed cells %r, the rows' largest weights %r" %
             (h, got, want))


def check_heatmap(svg_path, json_path):
    root = ET.parse(svg_path).getroot()
    with open(json_path, encoding="utf-8") as f:
        doc = json.load(f)
    panels = heads(root)
    if len(panels) != len(doc["heads_shown"]):
        fail("%d panels for heads %r" % (len(panels), doc["heads_shown"]))
    for g, h in zip(panels, doc["heads_shown"]):
        A = [r for r in doc["records"]
             if r["name"] == "A" and r["head"] == h][0]["value"]
        Sm = [r for r in doc["records"]
              if r["name"] == "scores_masked" and r["head"] == h]
        want = ["%.4f" % A[i][j]
                for i in range(len(A)) for j in range(len(A[0]))]
        got = [e.text for e in g.iter(NS + "text")
               if e.get("class") == "value"]
        cells = [r for r in g.iter(NS + "rect")
                 if r.get("class") in ("cell", "masked")]
        tips = [r.find(NS + "title").text for r in cells]
        n = len(A[0])
        want_tips = ["A_%d,%d = %s" % (k // n + 1, k % n + 1, w)
                     for k, w in enumerate(want)]
        if tips != want_tips:
            fail("head %d: the tooltips %r, the JSON's weights %r" %
                 (h, tips, want_tips))
        if got and got != want:
            fail("head %d: the cells read %r, the JSON's weights %r" %
                 (h, got, want))
        if not got:  # the numbers yield: each row's largest is framed
            check_best(g, cells, A, Sm, h)
        # a masked cell (its score -inf) is hatched, never written -inf
        masked = [bool(Sm) and Sm[0]["value"][i][j] is None
                  for i in range(len(A)) for j in range(len(A[0]))]
        kinds = [r.get("class") == "masked" for r in g.iter(NS + "rect")
                 if r.get("class") in ("cell", "masked")]
        if kinds != masked:
            fail("head %d: hatched cells %r, masked scores %r" %
                 (h, kinds, masked))


def main(argv):
    if len(argv) == 4 and argv[1] == "svg":
        check_svg(argv[2], argv[3])
    elif len(argv) == 4 and argv[1] == "heatmap":
        check_heatmap(argv[2], argv[3])
    elif len(argv) == 4 and argv[1] == "png":
        check_png(argv[2], argv[3])
    else:
        fail("usage: self_diagram_check.py svg SVG JSON | png PNG SVG")


if __name__ == "__main__":
    main(sys.argv)
