#!/usr/bin/env python3
"""png_check.py: checks a PNG that attn-trace wrote against the SVG of the
same picture, with its own PNG reader (zlib and the five PNG filters, as
the PNG specification defines them; no imaging library).

  png_check.py size FILE.png
      prints "WIDTH HEIGHT" from the IHDR chunk
  png_check.py fits FILE.png FILE.svg BOXW BOXH
      the first two checks of check, without decoding the pixels
  png_check.py check FILE.png FILE.svg BOXW BOXH
      the signature; IHDR: 8-bit RGB, the SVG's width and height scaled
      to fit BOXW x BOXH (BOXH 0: BOXW wide), rounded half up; the CRC of
      every chunk; the pixels: not blank (at least 8 colours), white at the
      corner, every solid fill of a rect at least 20 px a side present,
      and each heatmap cell's colour at a point inside the cell.
Exit status 1 with a message on the first failure."""
import re
import struct
import sys
import zlib

SIG = b"\x89PNG\r\n\x1a\n"


def chunks(data):
    """(type, payload) of each chunk, checking the signature and CRCs."""
    if data[:8] != SIG:
        raise ValueError("expected the PNG signature, found %r" % data[:8])
    pos = 8
    while pos < len(data):
        (n,) = struct.unpack(">I", data[pos:pos + 4])
        kind = data[pos + 4:pos + 8]
        body = data[pos + 8:pos + 8 + n]
        (crc,) = struct.unpack(">I", data[pos + 8 + n:pos + 12 + n])
        if zlib.crc32(kind + body) != crc:
            raise ValueError("bad CRC in chunk %r" % kind)
        yield kind, body
        pos += 12 + n
        if kind == b"IEND":
            return
    raise ValueError("expected IEND, found the end of the file")


def ihdr(data):
    kind, body = next(chunks(data))
    if kind != b"IHDR":
        raise ValueError("expected IHDR first, found %r" % kind)
    return struct.unpack(">IIBBBBB", body)


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def decode(data):
    """The rows of an 8-bit RGB, non-interlaced PNG, each a bytearray."""
    w, h, depth, ctype, _, _, interlace = ihdr(data)
    if (depth, ctype, interlace) != (8, 2, 0):
        raise ValueError("expected 8-bit RGB, not interlaced; found depth "
                         "%d, colour type %d, interlace %d"
                         % (depth, ctype, interlace))
    raw = zlib.decompress(b"".join(b for k, b in chunks(data)
                                   if k == b"IDAT"))
    stride, bpp = 3 * w, 3
    if len(raw) != h * (stride + 1):
        raise ValueError("expected %d bytes of scanlines, found %d"
                         % (h * (stride + 1), len(raw)))
    rows, prev = [], bytearray(stride)
    for y in range(h):
        f = raw[y * (stride + 1)]
        cur = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if f == 1:
            for i in range(bpp, stride):
                cur[i] = (cur[i] + cur[i - bpp]) & 255
        elif f == 2:
            cur = bytearray((x + p) & 255 for x, p in zip(cur, prev))
        elif f == 3:
            for i in range(stride):
                left = cur[i - bpp] if i >= bpp else 0
                cur[i] = (cur[i] + ((left + prev[i]) >> 1)) & 255
        elif f == 4:
            for i in range(stride):
                left = cur[i - bpp] if i >= bpp else 0
                up_left = prev[i - bpp] if i >= bpp else 0
                cur[i] = (cur[i] + paeth(left, prev[i], up_left)) & 255
        elif f != 0:
            raise ValueError("unknown filter %d in row %d" % (f, y))
        rows.append(cur)
        prev = cur
    return w, h, rows


def fit(sw, sh, bw, bh):
    """The PNG's size: the SVG's scaled to fit the box, half rounded up."""
    scale = bw / sw if bh == 0 else min(bw / sw, bh / sh)
    return int(sw * scale + 0.5), int(sh * scale + 0.5), scale


def rects(svg):
    """(attributes) of each solid rect: fill #rrggbb, no opacity."""
    out = []
    for tag in re.findall(r"<rect\b[^>]*>", svg):
        a = dict(re.findall(r'([\w-]+)="([^"]*)"', tag))
        if not re.fullmatch(r"#[0-9a-fA-F]{6}", a.get("fill", "")):
            continue
        if "opacity" in a or "fill-opacity" in a:
            continue
        out.append(a)
    return out


def rgb(hexcol):
    return tuple(int(hexcol[k:k + 2], 16) for k in (1, 3, 5))


def near(p, q, tol):
    return all(abs(x - y) <= tol for x, y in zip(p, q))


def fits(data, svg, bw, bh):
    """Checks the chunks and the size; returns the scale."""
    m = re.search(r'<svg\b[^>]*\bwidth="([\d.]+)"[^>]*\bheight="([\d.]+)"',
                  svg)
    sw, sh = float(m.group(1)), float(m.group(2))
    ew, eh, scale = fit(sw, sh, bw, bh)
    w, h = ihdr(data)[:2]
    kinds = [k for k, _ in chunks(data)]
    if kinds[-1] != b"IEND" or b"IDAT" not in kinds:
        raise ValueError("expected IDAT and IEND, found %r" % kinds)
    if (w, h) != (ew, eh):
        raise ValueError("expected %dx%d (%gx%g fitted to %dx%d), found "
                         "%dx%d" % (ew, eh, sw, sh, bw, bh, w, h))
    return scale


def check(png_path, svg_path, bw, bh, pixels):
    data = open(png_path, "rb").read()
    svg = open(svg_path, encoding="utf-8").read()
    scale = fits(data, svg, bw, bh)
    if not pixels:
        return
    w, h, rows = decode(data)

    def px(x, y):
        r = rows[y]
        return tuple(r[3 * x:3 * x + 3])

    colours = set()
    for r in rows:
        colours.update(bytes(r[i:i + 3]) for i in range(0, len(r), 3))
    if len(colours) < 8:
        raise ValueError("expected a picture, found %d colours"
                         % len(colours))
    if px(0, 0) != (255, 255, 255):
        raise ValueError("expected white at the corner, found %r"
                         % (px(0, 0),))
    have = {tuple(c) for c in colours}
    for a in rects(svg):
        if float(a.get("width", 0)) < 20 or float(a.get("height", 0)) < 20:
            continue
        want = rgb(a["fill"])
        if not any(near(want, c, 3) for c in have):
            raise ValueError("expected the fill %s of a rect, found it "
                             "nowhere" % a["fill"])
        if a.get("class") == "cell":
            x = int((float(a["x"]) + 0.12 * float(a["width"])) * scale)
            y = int((float(a["y"]) + 0.15 * float(a["height"])) * scale)
            if not near(px(x, y), want, 3):
                raise ValueError("expected the cell at %s,%s %s at pixel "
                                 "%d,%d, found %r" % (a["x"], a["y"],
                                                      a["fill"], x, y,
                                                      px(x, y)))


def main(argv):
    try:
        if len(argv) == 3 and argv[1] == "size":
            w, h = ihdr(open(argv[2], "rb").read())[:2]
            print(w, h)
        elif len(argv) == 6 and argv[1] in ("check", "fits"):
            check(argv[2], argv[3], int(argv[4]), int(argv[5]),
                  argv[1] == "check")
        else:
            print(__doc__, file=sys.stderr)
            return 2
    except (ValueError, OSError, StopIteration, zlib.error,
            struct.error) as e:
        print("png_check: %s: %s" % (argv[2], e), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
