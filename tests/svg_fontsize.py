#!/usr/bin/env python3
"""svg_fontsize.py: the smallest text of an SVG picture, in pixels, when
the picture is scaled to a 1920x1080 slide (doc/heatmap.md, "Legible from
the back row").

The measure needs no browser: every <text> and <tspan> that holds
characters has its font size resolved as a browser resolves it (the
font-size attribute or a style's font-size, inherited from the nearest
ancestor; a percentage or "em" is of the parent's; the root's default is
16), multiplied by the scale at which the whole viewBox is shown.  Two
scales are reported: "width", the picture 1920 px wide (the brief's
rule), and "fit", the picture as large as fits in 1920x1080.

With --strict, a file fails too when any of its text is set upright
(a transform), when a visible text still types a subscript ("s_1",
"α_1,1": it must be a lowered tspan), or when two texts' estimated ink
boxes (svg_check.py's text_box) overlap.

usage: svg_fontsize.py [--min=PX] [--fit] [--strict] FILE.svg...
prints "FILE: width W px, fit F px (smallest: TEXT)" for each file and
exits 1 if any file's smallest text (at width or, with --fit, at fit) is
under PX (default 20), or fails --strict."""
import os
import re
import sys
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from svg_check import parents, text_box, meet  # noqa: E402

SVG = "{http://www.w3.org/2000/svg}"


def parse_size(value, parent):
    value = value.strip()
    m = re.fullmatch(r"([0-9.]+)\s*(px|%|em)?", value)
    if not m:
        raise ValueError("font-size %r" % value)
    x, unit = float(m.group(1)), m.group(2)
    if unit == "%":
        return parent * x / 100
    if unit == "em":
        return parent * x
    return x


def own_size(el, parent):
    style = el.get("style", "")
    m = re.search(r"font-size\s*:\s*([^;]+)", style)
    if m:
        return parse_size(m.group(1), parent)
    if el.get("font-size") is not None:
        return parse_size(el.get("font-size"), parent)
    return parent


def walk(el, size, out):
    size = own_size(el, size)
    tag = el.tag.replace(SVG, "")
    if tag in ("title", "desc", "style", "script"):
        return
    if tag in ("text", "tspan") and el.text and el.text.strip():
        out.append((size, el.text.strip()))
    for child in el:
        walk(child, size, out)
        if tag in ("text", "tspan") and child.tail and child.tail.strip():
            out.append((size, child.tail.strip()))


def measure(path):
    root = ET.parse(path).getroot()
    vb = [float(v) for v in root.get("viewBox").replace(",", " ").split()]
    w, h = vb[2], vb[3]
    texts = []
    walk(root, 16.0, texts)
    size, text = min(texts)
    return size * 1920 / w, size * min(1920 / w, 1080 / h), text


def strict(path):
    """What --strict finds wrong in path, as a list of sentences."""
    root = ET.parse(path).getroot()
    up = parents(root)
    texts = [e for e in root.iter(SVG + "text")]
    bad = []
    for e in texts:
        words = "".join(e.itertext())
        if e.get("transform") is not None:
            bad.append("%r is turned" % words)
        if re.search(r"_[0-9A-Za-z{]", words):
            bad.append("%r types a subscript" % words)
    boxes = [(text_box(e, up), "".join(e.itertext())) for e in texts]
    for i in range(len(boxes)):
        for j in range(i + 1, len(boxes)):
            if meet(boxes[i][0], boxes[j][0]):
                bad.append("%r meets %r" % (boxes[i][1], boxes[j][1]))
    return bad


def main(argv):
    least, fit, check, files = 20.0, False, False, []
    for a in argv:
        if a.startswith("--min="):
            least = float(a[6:])
        elif a == "--fit":
            fit = True
        elif a == "--strict":
            check = True
        else:
            files.append(a)
    bad = 0
    for f in files:
        wpx, fpx, text = measure(f)
        print("%s: width %.1f px, fit %.1f px (smallest: %s)"
              % (f, wpx, fpx, text[:40]))
        if (fpx if fit else wpx) < least - 1e-9:
            print("%s: text under %g px" % (f, least), file=sys.stderr)
            bad = 1
        for why in strict(f) if check else []:
            print("%s: %s" % (f, why), file=sys.stderr)
            bad = 1
    return bad


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
