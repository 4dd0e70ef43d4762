#!/usr/bin/env python3
"""svg_check.py: checks for tests/svg.sh, with the standard library only.

    svg_check.py svg SVG JSON PRECISION
        SVG (from attn-trace heatmap) parses as XML, and its structure
        matches the trace JSON (from attn-trace trace --format=json with
        the same sentence, target and scorer): a panel for each run, one
        cell a weight, the weights written with PRECISION digits in row
        order, the source words across the top, the output words down the
        side, "(target X)" exactly where teacher forcing wanted another
        word, and darker cells for larger weights; or, for the overview
        of several scorers in shades, no numbers, a column a step and a
        row a source word, each cell's weight and words in its tooltip.

    svg_check.py png PNG SVG SCALE
        PNG (Chromium's screenshot of SVG at device scale SCALE) has the
        size the SVG asks for, is not blank, has a white border (nothing
        cut off at the edges), and shows each cell in its own colour where
        the SVG puts it.

    svg_check.py marks SVG
        In a heatmap with a local window, p_t's dots and the path that joins
        them (class "pt", "pt-path") cross no value and no word: each
        text's box is worked out from its x, y, anchor and font size (0.62
        em a character, 0.70 in bold, generously; from 0.76 em above the
        baseline to 0.24 em below it when a letter hangs below), each dot's
        from its centre, radius and stroke, each path segment's from its
        ends and the 2 px stroke.

Prints what is wrong and exits 1, or exits 0 silently.
"""
import struct
import sys
import xml.etree.ElementTree as ET
import zlib
import json

NS = "{http://www.w3.org/2000/svg}"


def fail(msg):
    sys.exit("svg_check: " + msg)


def text_of(el):
    """The element's own text, without its children's."""
    return (el.text or "").strip()


def cls(el):
    return el.get("class", "")


def find_class(root, tag, name):
    return [e for e in root.iter(NS + tag) if cls(e) == name]


def hex_rgb(h):
    return tuple(int(h[k:k + 2], 16) for k in (1, 3, 5))


def check_root(root):
    if root.tag != NS + "svg":
        fail("the root element is %r, not svg" % root.tag)
    if root.get("version") != "1.1":
        fail("version is not 1.1")
    w, h = int(root.get("width")), int(root.get("height"))
    if root.get("viewBox") != "0 0 %d %d" % (w, h):
        fail("viewBox %r does not match %dx%d" % (root.get("viewBox"), w, h))
    title = root.find(NS + "title")
    if title is None or not text_of(title):
        fail("no document title")
    return w, h


def check_panel(panel, run, doc, prec, shade=False):
    steps = run["steps"]
    n = len(doc["source"])
    cells = find_class(panel, "rect", "cell")
    if len(cells) != n * len(steps):
        fail("%s: %d cells, expected %d x %d" % (run["scorer"], len(cells),
                                                 len(steps), n))
    if shade:
        check_shade_panel(panel, cells, run, doc, prec)
        return
    values = [text_of(e) for e in find_class(panel, "text", "value")]
    want = ["%.*f" % (prec, w) for st in steps for w in st["weights"]]
    if values != want:
        fail("%s: cell values %s, expected %s" % (run["scorer"], values, want))
    cols = [text_of(e) for e in find_class(panel, "text", "col-label")]
    if cols != doc["source"]:
        fail("%s: source words %s, expected %s" % (run["scorer"], cols,
                                                   doc["source"]))
    check_rows(panel, run, doc)
    check_shades(cells, [w for st in steps for w in st["weights"]],
                 run["scorer"])


def check_shade_panel(panel, cells, run, doc, prec):
    """The overview in shades: no numbers written, a column a step and a
    row a source word (cell t, i at the t-th x and the i-th y), each
    cell's tooltip "α_t,i = WEIGHT: OUTPUT ← SOURCE", the scorer's name as
    the heading, and the source words down the left or not at all."""
    name, n = run["scorer"], len(doc["source"])
    if find_class(panel, "text", "value"):
        fail("%s: numbers written in shades" % name)
    heads = [text_of(e) for e in find_class(panel, "text", "panel-title")]
    if heads != [name]:
        fail("%s: heading %s" % (name, heads))
    labels = [text_of(e) for e in find_class(panel, "text", "source-label")]
    if labels not in ([], doc["source"]):
        fail("%s: source words %s" % (name, labels))
    xs = sorted({float(c.get("x")) for c in cells})
    ys = sorted({float(c.get("y")) for c in cells})
    if len(xs) != len(run["steps"]) or len(ys) != n:
        fail("%s: %d columns and %d rows, expected %d and %d" % (
            name, len(xs), len(ys), len(run["steps"]), n))
    k = 0
    for t, st in enumerate(run["steps"], 1):
        for i, w in enumerate(st["weights"]):
            c = cells[k]
            k += 1
            if (float(c.get("x")), float(c.get("y"))) != (xs[t - 1], ys[i]):
                fail("%s: cell %d,%d at %s,%s" % (name, t, i + 1,
                                                 c.get("x"), c.get("y")))
            tip = text_of(c.find(NS + "title"))
            want = "%s_%d,%d = %.*f: %s \u2190 %s" % (
                tip.split("_")[0], t, i + 1, prec, w,
                st["output"]["token"], doc["source"][i])
            if tip != want:
                fail("%s: tooltip %r, expected %r" % (name, tip, want))
    check_shades(cells, [w for st in run["steps"] for w in st["weights"]],
                 name)


def check_rows(panel, run, doc):
    target = doc.get("target") or []
    rows = find_class(panel, "text", "row-label")
    if len(rows) != len(run["steps"]):
        fail("%s: %d row labels for %d steps" % (run["scorer"], len(rows),
                                                 len(run["steps"])))
    for t, (row, st) in enumerate(zip(rows, run["steps"]), 1):
        pred = st["output"]["token"]
        if text_of(row) != pred:
            fail("%s: row %d is %r, expected %r" % (run["scorer"], t,
                                                    text_of(row), pred))
        want = (target[t - 1] if t <= len(target) else "</s>") \
            if target else None
        notes = [e for e in row if cls(e) == "target"]
        if want is not None and want != pred:
            if len(notes) != 1 or notes[0].text.strip() != \
                    "(target %s)" % want:
                fail("%s: row %d lacks (target %s)" % (run["scorer"], t,
                                                       want))
        elif notes:
            fail("%s: row %d has a target note but is right" %
                 (run["scorer"], t))


def check_shades(cells, weights, name):
    """A larger weight never gets a lighter cell."""
    pairs = sorted(zip(weights, (sum(hex_rgb(c.get("fill"))) for c in cells)))
    for (a1, l1), (a2, l2) in zip(pairs, pairs[1:]):
        if a2 > a1 and l2 > l1:
            fail("%s: weight %g is lighter than %g" % (name, a2, a1))


def check_svg(svg_path, json_path, prec):
    with open(svg_path, "rb") as f:
        raw = f.read()
    try:
        root = ET.fromstring(raw)
    except ET.ParseError as e:
        fail("%s is not well-formed XML: %s" % (svg_path, e))
    check_root(root)
    with open(json_path, encoding="utf-8") as f:
        doc = json.load(f)
    panels = find_class(root, "g", "panel")
    if len(panels) != len(doc["runs"]):
        fail("%d panels for %d runs" % (len(panels), len(doc["runs"])))
    shade = bool(find_class(root, "text", "subtitle shade-note"))
    if shade and not any(find_class(p, "text", "source-label")
                         for p in panels):
        fail("in shades, no panel names the source words")
    for panel, run in zip(panels, doc["runs"]):
        if panel.get("id") != "run-" + run["scorer"]:
            fail("panel %r for run %r" % (panel.get("id"), run["scorer"]))
        check_panel(panel, run, doc, prec, shade)


def png_read(path):
    """Width, height and rows of RGB(A) pixels of a non-interlaced 8-bit
    PNG, decoded with zlib and the five filters."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        fail("%s is not a PNG" % path)
    pos, idat, ihdr = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    w, h, depth, ctype, _, _, interlace = ihdr
    if depth != 8 or ctype not in (2, 6) or interlace:
        fail("unexpected PNG type: depth %d, colour %d, interlace %d" %
             (depth, ctype, interlace))
    bpp = 3 if ctype == 2 else 4
    raw, stride, rows, prev = zlib.decompress(idat), w * bpp, [], None
    for y in range(h):
        ftype = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        unfilter(line, prev or bytearray(stride), ftype, bpp)
        rows.append(line)
        prev = line
    return w, h, bpp, rows


def unfilter(line, prev, ftype, bpp):
    for i in range(len(line)):
        a = line[i - bpp] if i >= bpp else 0
        b = prev[i]
        c = prev[i - bpp] if i >= bpp else 0
        if ftype == 1:
            line[i] = (line[i] + a) & 255
        elif ftype == 2:
            line[i] = (line[i] + b) & 255
        elif ftype == 3:
            line[i] = (line[i] + (a + b) // 2) & 255
        elif ftype == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            pred = a if pa <= pb and pa <= pc else b if pb <= pc else c
            line[i] = (line[i] + pred) & 255


def pixel(rows, bpp, x, y):
    return tuple(rows[y][x * bpp:x * bpp + 3])


def check_png(png_path, svg_path, scale):
    root = ET.parse(svg_path).getroot()
    sw, sh = int(root.get("width")), int(root.get("height"))
    w, h, bpp, rows = png_read(png_path)
    if (w, h) != (sw * scale, sh * scale):
        fail("the PNG is %dx%d, the SVG asks for %dx%d at scale %d" %
             (w, h, sw, sh, scale))
    colours = set()
    for y in range(0, h, 2):
        for x in range(0, w, 2):
            colours.add(pixel(rows, bpp, x, y))
    if len(colours) < 20:
        fail("the PNG looks blank: %d colours" % len(colours))
    border = 4 * scale
    for y in list(range(border)) + list(range(h - border, h)):
        for x in range(w):
            if pixel(rows, bpp, x, y) != (255, 255, 255):
                fail("something is drawn at the edge, at %d,%d" % (x, y))
    for y in range(h):
        for x in list(range(border)) + list(range(w - border, w)):
            if pixel(rows, bpp, x, y) != (255, 255, 255):
                fail("something is drawn at the edge, at %d,%d" % (x, y))
    for cell in find_class(root, "rect", "cell"):
        x, y = int(cell.get("x")) + 5, int(cell.get("y")) + 5
        if not (0 <= x * scale < w and 0 <= y * scale < h):
            fail("the cell at %d,%d is outside the picture" % (x - 5, y - 5))
        got = pixel(rows, bpp, x * scale, y * scale)
        want = hex_rgb(cell.get("fill"))
        if max(abs(g - c) for g, c in zip(got, want)) > 6:
            fail("the cell at %d,%d shows %s, expected %s" %
                 (x - 5, y - 5, got, want))


# --- boxes of text and marks, for the checks that nothing overlaps ---

DESCENDERS = set("gjpqyQ,;()[]_|{}")


def parents(root):
    return {c: p for p in root.iter() for c in p}


def inherited(el, up, attr, default=None):
    while el is not None:
        if el.get(attr) is not None:
            return el.get(attr)
        el = up.get(el)
    return default


def text_box(el, up):
    """(x0, y0, x1, y1) of a text element: its estimated ink, turned by a
    transform="rotate(-90 X Y)" about its own x, y when it has one."""
    s = "".join(el.itertext())
    fs = float(inherited(el, up, "font-size"))
    bold = inherited(el, up, "font-weight") == "bold"
    w = len(s) * fs * (0.70 if bold else 0.62)
    anchor = inherited(el, up, "text-anchor", "start")
    a = {"start": 0, "middle": -w / 2, "end": -w}[anchor]
    asc = 0.76 * fs
    desc = 0.24 * fs if DESCENDERS & set(s) else 0
    x, y = float(el.get("x")), float(el.get("y"))
    tf = el.get("transform")
    if tf is None:
        return (x + a, y - asc, x + a + w, y + desc)
    if tf != "rotate(-90 %s %s)" % (el.get("x"), el.get("y")):
        fail("a transform the check does not know: %r" % tf)
    # rotate(-90) takes (dx, dy) to (dy, -dx)
    return (x - asc, y - (a + w), x + desc, y - a)


def meet(p, q):
    return p[0] < q[2] and q[0] < p[2] and p[1] < q[3] and q[1] < p[3]


def seg_box(x1, y1, x2, y2, half):
    """A horizontal or vertical segment's box, half its stroke each side."""
    return (min(x1, x2) - half, min(y1, y2) - half,
            max(x1, x2) + half, max(y1, y2) + half)


def check_marks(svg_path):
    root = ET.parse(svg_path).getroot()
    up = parents(root)
    texts = [e for e in root.iter(NS + "text") if e.get("transform") is None]
    boxes = [(text_box(e, up), "".join(e.itertext())) for e in texts]
    marks = []
    for c in root.iter(NS + "circle"):
        if cls(c) != "pt":
            continue
        r = float(c.get("r")) + float(inherited(c, up, "stroke-width", 0)) / 2
        x, y = float(c.get("cx")), float(c.get("cy"))
        marks.append(((x - r, y - r, x + r, y + r), "the dot at %g,%g" % (x, y)))
    for pl in root.iter(NS + "polyline"):
        if cls(pl) != "pt-path":
            continue
        pts = [tuple(map(float, q.split(","))) for q in pl.get("points").split()]
        half = float(inherited(pl, up, "stroke-width")) / 2
        for (x1, y1), (x2, y2) in zip(pts, pts[1:]):
            if x1 != x2 and y1 != y2:
                fail("p_t's path goes aslant from %g,%g to %g,%g" %
                     (x1, y1, x2, y2))
            marks.append((seg_box(x1, y1, x2, y2, half),
                          "the path from %g,%g to %g,%g" % (x1, y1, x2, y2)))
    if not marks:
        fail("no mark of p_t")
    for m, what in marks:
        for b, s in boxes:
            if meet(m, b):
                fail("%s %r crosses the text %r at %r" % (what, m, s, b))


def main(argv):
    if len(argv) == 5 and argv[1] == "svg":
        check_svg(argv[2], argv[3], int(argv[4]))
    elif len(argv) == 3 and argv[1] == "marks":
        check_marks(argv[2])
    elif len(argv) == 5 and argv[1] == "png":
        check_png(argv[2], argv[3], int(argv[4]))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
