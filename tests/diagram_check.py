#!/usr/bin/env python3
"""diagram_check.py: checks for tests/diagram-svg.sh, standard library only.

    diagram_check.py svg SVG JSON STEP
        SVG (attn-trace diagram --step=STEP) parses as XML and its numbers
        are those of step STEP of the JSON trace (attn-trace trace
        --format=json, same sentence, model and scorer), to 1e-12: each
        line's weight, each state h_i (the encoder's "state" in Luong's
        architecture, "annotation" in Bahdanau's), the query ("state" of
        the step in Luong's, "query" in Bahdanau's), the context and the
        result ("attentional", or the new "state"); a thicker line for a
        larger weight, and "largest" written by the largest.

    diagram_check.py png PNG SVG
        PNG (Chromium's screenshot of SVG) has the size the SVG asks for,
        a white border, and each cell of a state in its colour: orange for
        a positive number, blue for a negative one.

    diagram_check.py marks SVG
        In a diagram with a local window, the window's caption (a line
        under the picture that starts "window: positions LO..HI", level,
        never turned upright), p_t's marker and the window's frame keep
        clear: the caption and the marker meet no other text and not each
        other, and the frame's edges meet no α label (boxes as
        svg_check.py's marks); in two columns of boxes, a frame a column
        and the marker right of the right-hand one.

Prints what is wrong and exits 1, or exits 0 silently.
"""
import json
import os
import sys
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from svg_check import png_read, pixel, parents, text_box, meet  # noqa: E402

NS = "{http://www.w3.org/2000/svg}"
TOL = 1e-12


def fail(msg):
    print("diagram_check: " + msg)
    sys.exit(1)


def nums(s):
    return [float(x) for x in s.split()]


def same(what, got, want):
    if len(got) != len(want):
        fail("%s: %d numbers in the SVG, %d in the JSON" %
             (what, len(got), len(want)))
    for k, (g, w) in enumerate(zip(got, want)):
        if abs(g - w) > TOL:
            fail("%s[%d]: %r in the SVG, %r in the JSON" % (what, k, g, w))


def groups(root, name):
    return [g for g in root.iter(NS + "g") if g.get("class") == name]


def check_svg(svg_path, json_path, t):
    root = ET.parse(svg_path).getroot()
    with open(json_path, encoding="utf-8") as f:
        doc = json.load(f)
    if root.tag != NS + "svg":
        fail("the root is not an SVG element")
    if root.get("data-step") != str(t):
        fail("data-step is %r, not %d" % (root.get("data-step"), t))
    step = doc["runs"][0]["steps"][t - 1]
    bahdanau = "query" in step
    lines = [e for e in root.iter(NS + "line") if e.get("class") == "weight"]
    alpha = [float(e.get("data-alpha")) for e in lines]
    same("α", alpha, step["weights"])
    states = groups(root, "state")
    if len(states) != len(doc["encoder"]):
        fail("%d state boxes for %d source words" %
             (len(states), len(doc["encoder"])))
    for i, g in enumerate(states):
        want = doc["encoder"][i]["annotation" if bahdanau else "state"]
        # the box shows the first four numbers, and carries them all
        same("h_%d" % (i + 1), nums(g.get("data-values")), want)
        words = [x.text for x in g.iter(NS + "text")]
        if doc["encoder"][i]["token"] not in words:
            fail("box %d does not name %r" % (i + 1, doc["encoder"][i]["token"]))
    same("the query", nums(groups(root, "query")[0].get("data-values")),
         step["query" if bahdanau else "state"])
    same("c_t", nums(groups(root, "context")[0].get("data-values")),
         step["context"])
    same("the result", nums(groups(root, "result")[0].get("data-values")),
         step["state" if bahdanau else "attentional"])
    # thicker for a larger weight
    width = [float(e.get("stroke-width")) for e in lines]
    for i in range(len(alpha)):
        for j in range(len(alpha)):
            if alpha[i] > alpha[j] and not width[i] > width[j]:
                fail("the line of α=%r is not thicker than that of α=%r" %
                     (alpha[i], alpha[j]))
    labels = [e for e in root.iter(NS + "text") if e.get("class") == "alpha"]
    big = max(range(len(alpha)), key=lambda i: alpha[i])
    for i, e in enumerate(labels):
        text = "".join(e.itertext())
        if ("largest" in text) != (i == big):
            fail("label %d %r: 'largest' belongs to position %d" %
                 (i + 1, text, big + 1))
    # input feeding: h̃_{t-1} drawn where the JSON has it ("feed"), and it
    # is step t-1's attentional state (0 at step 1); nowhere else
    feed = groups(root, "feed")
    if "feed" in step:
        if len(feed) != 1:
            fail("%d boxes of h̃_%d under input feeding" % (len(feed), t - 1))
        same("h̃_%d" % (t - 1), nums(feed[0].get("data-values")),
             step["feed"])
        prev = (doc["runs"][0]["steps"][t - 2]["attentional"] if t > 1
                else [0.0] * len(step["feed"]))
        same("h̃_%d, step %d's" % (t - 1, t - 1), step["feed"], prev)
        arrows = [g for g in root.iter(NS + "g")
                  if g.get("class") == "feed-arrow"]
        if len(arrows) != 1:
            fail("%d arrows of input feeding" % len(arrows))
    elif feed:
        fail("a box of h̃_%d without input feeding" % (t - 1))
    word = step["output"]["token"]
    out = [e for e in root.iter(NS + "tspan") if e.text == word]
    if not out:
        fail("the output word %r is not drawn" % word)


def check_png(png_path, svg_path):
    root = ET.parse(svg_path).getroot()
    w, h, bpp, rows = png_read(png_path)
    if (w, h) != (int(root.get("width")), int(root.get("height"))):
        fail("the PNG is %dx%d, the SVG asks for %sx%s" %
             (w, h, root.get("width"), root.get("height")))
    for x, y in ((0, 0), (w - 1, 0), (0, h - 1), (w - 1, h - 1)):
        if pixel(rows, bpp, x, y) != (255, 255, 255):
            fail("the corner %d,%d is not white" % (x, y))
    ncells = 0
    for g in groups(root, "state"):
        for r in g.iter(NS + "rect"):
            if r.get("class") != "cell":
                continue
            op = float(r.get("fill-opacity"))
            if op < 0.5:
                continue  # too pale to tell the colours apart reliably
            fill = r.get("fill")
            rgb = tuple(int(fill[k:k + 2], 16) for k in (1, 3, 5))
            want = tuple(round(255 * (1 - op) + c * op) for c in rgb)
            x, y = int(r.get("x")) + 6, int(r.get("y")) + 6
            got = pixel(rows, bpp, x, y)
            if max(abs(a - b) for a, b in zip(got, want)) > 40:
                fail("the cell at %d,%d shows %r, expected about %r" %
                     (x, y, got, want))
            positive = float(r.get("data-value")) >= 0
            if positive != (got[0] > got[2]):
                fail("the cell at %d,%d is not %s" %
                     (x, y, "orange" if positive else "blue"))
            ncells += 1
    if ncells == 0:
        fail("no cell was strong enough to check")


def check_marks(svg_path):
    root = ET.parse(svg_path).getroot()
    up = parents(root)
    win = groups(root, "window")
    pt = groups(root, "pt")
    if len(win) != 1 or len(pt) != 1:
        fail("%d windows and %d markers of p_t, not one each" %
             (len(win), len(pt)))
    label = [e for e in win[0].iter(NS + "text")]
    want = "window: positions %s..%s" % (win[0].get("data-lo"),
                                         win[0].get("data-hi"))
    if len(label) != 1 or not label[0].text.startswith(want):
        fail("the window is not captioned %r" % want)
    label = label[0]
    if label.get("transform") is not None:
        fail("the window's caption is turned")
    # the marker: "M X Y l -16 -10 l 0 20 z", a triangle pointing right
    # (left of a column), or "l 16 ..." pointing left (right of the
    # right-hand column of two)
    d = pt[0].find(NS + "path").get("d").split()
    if d[0] != "M" or d[3] not in ("l",) or d[4] not in ("-16", "16") \
            or d[5:] != ["-10", "l", "0", "20", "z"]:
        fail("p_t's marker is drawn as %r, which the check does not know" %
             " ".join(d))
    mx, my, dx = float(d[1]), float(d[2]), float(d[4])
    marks = [(text_box(label, up), "the label 'window'"),
             ((min(mx, mx + dx), my - 10, max(mx, mx + dx), my + 10),
              "p_t's marker")]
    if meet(marks[0][0], marks[1][0]):
        fail("the label 'window' %r meets p_t's marker %r" %
             (marks[0][0], marks[1][0]))
    for e in root.iter(NS + "text"):
        if e is label:
            continue
        b = text_box(e, up)
        for m, what in marks:
            if meet(m, b):
                fail("%s %r meets the text %r at %r" %
                     (what, m, "".join(e.itertext()), b))
    frames = [r for r in root.iter(NS + "rect")
              if r.get("class") == "window-frame"]
    if len(frames) not in (1, 2):  # two: the window spans both columns
        fail("%d frames of the window" % len(frames))
    for frame in frames:
        half = float(frame.get("stroke-width")) / 2
        y0 = float(frame.get("y"))
        y1 = y0 + float(frame.get("height"))
        for x in (float(frame.get("x")),
                  float(frame.get("x")) + float(frame.get("width"))):
            edge = (x - half, y0, x + half, y1)
            for e in root.iter(NS + "text"):
                if e.get("class") == "alpha" and meet(edge, text_box(e, up)):
                    fail("the frame's edge %r meets %r" % (edge, e.text))


def main(argv):
    if len(argv) == 5 and argv[1] == "svg":
        check_svg(argv[2], argv[3], int(argv[4]))
    elif len(argv) == 3 and argv[1] == "marks":
        check_marks(argv[2])
    elif len(argv) == 4 and argv[1] == "png":
        check_png(argv[2], argv[3])
    else:
        fail("usage: diagram_check.py svg SVG JSON STEP | png PNG SVG | "
             "marks SVG")


if __name__ == "__main__":
    main(sys.argv)
