#!/usr/bin/env python3
"""svg_check.py: checks for tests/svg.sh, with the standard library only.

    svg_check.py svg SVG JSON PRECISION
        SVG (from attn-trace heatmap) parses as XML, and its structure
        matches the trace JSON (from attn-trace trace --format=json with
        the same sentence, target and scorer): a panel for each run, one
        cell a weight, the weights written with PRECISION digits in row
        order, the source words across the top, the output words down the
        side, "(target X)" exactly where teacher forcing wanted another
        word, and darker cells for larger weights.

    svg_check.py png PNG SVG SCALE
        PNG (Chromium's screenshot of SVG at device scale SCALE) has the
        size the SVG asks for, is not blank, has a white border (nothing
        cut off at the edges), and shows each cell in its own colour where
        the SVG puts it.

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


def check_panel(panel, run, doc, prec):
    steps = run["steps"]
    n = len(doc["source"])
    cells = find_class(panel, "rect", "cell")
    if len(cells) != n * len(steps):
        fail("%s: %d cells, expected %d x %d" % (run["scorer"], len(cells),
                                                 len(steps), n))
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
    for panel, run in zip(panels, doc["runs"]):
        if panel.get("id") != "run-" + run["scorer"]:
            fail("panel %r for run %r" % (panel.get("id"), run["scorer"]))
        check_panel(panel, run, doc, prec)


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


def main(argv):
    if len(argv) == 5 and argv[1] == "svg":
        check_svg(argv[2], argv[3], int(argv[4]))
    elif len(argv) == 5 and argv[1] == "png":
        check_png(argv[2], argv[3], int(argv[4]))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
