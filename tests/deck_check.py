#!/usr/bin/env python3
"""deck_check.py: the slide deck (attn-trace deck) in a real browser.

    deck_check.py ATTN_TRACE CHROMIUM [SHOTS_DIR]

For 1, 3, 8 and 12 source words and every variant the registries list
(each scorer, each window, each architecture, hard attention, input
feeding), it writes a deck, loads it in headless Chromium at 1920x1080
and drives it through the DevTools protocol (over --remote-debugging-pipe,
with the standard library alone): it presses End, Home, then -> through
every slide and <- once, and on each slide checks that exactly the
expected slide shows, its counter, that no visible text is under 20 px,
that no two text boxes meet and that none leaves the slide.  At each step
boundary it checks that the attention lines start a CSS transition from
the last step's widths (the page's clock is stopped through the protocol,
so nothing depends on how fast the machine is).  It checks the numbers
the pictures carry against each other (softmax of the scores, the context
as the weighted sum of the states), the arithmetic against the text trace
of the same variant, the page without scripts (every slide, in order)
and the printed page (a slide a page).  With SHOTS_DIR, it saves a
screenshot of a few slides there.  Prints "ok - ..." or "not ok - ..." a
check and exits 1 if any failed."""

import base64
import html
import json
import math
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import registry  # noqa: E402

SENTENCES = {
    1: "je",
    3: "je suis étudiant",
    8: "je deviens ingénieur agricole banque centrale politique sociale",
    12: "il devient médecin zone économique européenne politique sociale "
        "région agricole banque centrale",
}

KEYS = {"ArrowRight": 39, "ArrowLeft": 37, "Home": 36, "End": 35}

# The measure, run in the page: the slides that show, the smallest text
# on the one that shows (CSS px on the screen: an HTML text's font size
# times the deck's scale, an SVG text's times its CTM), every pair of text
# boxes that meet, and every text box that leaves the slide.
MEASURE = r"""
(function () {
  var S = [].slice.call(document.querySelectorAll('.slide'));
  var vis = S.filter(function (s) {
    var r = s.getBoundingClientRect();
    return getComputedStyle(s).display !== 'none' && r.width > 0 &&
      r.bottom > 0 && r.top < innerHeight && r.right > 0 &&
      r.left < innerWidth;
  });
  var out = {visible: vis.map(function (s) { return s.id; }),
             min: 1e9, minText: '', overlaps: [], outside: [], count: '',
             texts: 0, stage: '', t: ''};
  if (vis.length !== 1) return out;
  var slide = vis[0], sr = slide.getBoundingClientRect();
  var scale = sr.width / slide.offsetWidth, boxes = [];
  out.count = slide.querySelector('.count').textContent;
  out.stage = slide.dataset.stage; out.t = slide.dataset.t;
  function size(f, what) {
    if (f < out.min) { out.min = f; out.minText = what; }
  }
  var w = document.createTreeWalker(slide, NodeFilter.SHOW_TEXT), n;
  while ((n = w.nextNode())) {
    var el = n.parentElement;
    if (!n.data.trim() || el.closest('svg')) continue;
    var cs = getComputedStyle(el);
    if (cs.visibility !== 'visible') continue;
    size(parseFloat(cs.fontSize) * scale, n.data.trim().slice(0, 40));
    var rg = document.createRange();
    rg.selectNodeContents(n);
    var rs = rg.getClientRects();
    for (var k = 0; k < rs.length; k++)
      if (rs[k].width > 0 && rs[k].height > 0)
        boxes.push({r: rs[k], what: n.data.trim().slice(0, 30)});
  }
  [].forEach.call(slide.querySelectorAll('svg text'), function (t) {
    if (getComputedStyle(t).visibility !== 'visible') return;
    var k = t.getScreenCTM().a;
    [t].concat([].slice.call(t.querySelectorAll('tspan')))
      .forEach(function (e) {
        size(parseFloat(getComputedStyle(e).fontSize) * k,
             t.textContent.slice(0, 40));
      });
    boxes.push({r: t.getBoundingClientRect(),
                what: t.textContent.slice(0, 30)});
  });
  out.texts = boxes.length;
  for (var i = 0; i < boxes.length; i++) {
    var a = boxes[i].r;
    if (a.left < sr.left - 0.5 || a.right > sr.right + 0.5 ||
        a.top < sr.top - 0.5 || a.bottom > sr.bottom + 0.5)
      out.outside.push(boxes[i].what);
    for (var j = i + 1; j < boxes.length; j++) {
      var b = boxes[j].r;
      var ox = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      var oy = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (ox > 1 && oy > 1)
        out.overlaps.push(boxes[i].what + ' | ' + boxes[j].what);
    }
  }
  return out;
})()
"""

# The transitions of the attention lines that run, with the width each
# starts from.
TRANSITIONS = r"""
document.getAnimations().filter(function (a) {
  return a.transitionProperty === 'stroke-width';
}).map(function (a) {
  return parseFloat(a.effect.getKeyframes()[0].strokeWidth);
})
"""

# The lines' widths on the slide that shows.
WIDTHS = r"""
[].map.call(document.querySelectorAll('.slide.current line.w'),
  function (l) { return parseFloat(l.getAttribute('stroke-width')); })
"""

# Per step, the numbers the picture carries: scores, weights, states and
# the context (exact, in data- attributes).
NUMBERS = r"""
(function () {
  var seen = {}, out = [];
  [].forEach.call(document.querySelectorAll('.slide'), function (s) {
    var t = s.dataset.t, pic = s.querySelector('svg.pic');
    if (t === '0' || !pic || seen[t]) return;
    seen[t] = 1;
    function nums(e, a) {
      var v = e.getAttribute('data-' + a);
      return v === null ? null : v.split(' ').map(Number);
    }
    var lines = [].slice.call(pic.querySelectorAll('line.w'));
    out.push({t: +t,
      e: lines.map(function (l) { var v = nums(l, 'e'); return v && v[0]; }),
      a: lines.map(function (l) { return nums(l, 'alpha')[0]; }),
      h: [].map.call(pic.querySelectorAll('g.h'),
                     function (g) { return nums(g, 'h'); }),
      drawn: [].map.call(pic.querySelectorAll('g.h'), function (g) {
        return g.classList.contains('drawn'); }),
      c: nums(pic.querySelector('g.c'), 'c')});
  });
  return out;
})()
"""


class Browser:
    """Headless Chromium driven through the DevTools protocol on a pipe:
    messages are JSON, each ended by a NUL, on descriptors 3 (to it) and
    4 (from it)."""

    def __init__(self, chromium):
        self.profile = tempfile.mkdtemp(prefix="deck-check.")
        to_r, self.to_w = os.pipe()
        self.from_r, from_w = os.pipe()

        def child():
            a, b = os.dup(to_r), os.dup(from_w)
            os.dup2(a, 3)
            os.dup2(b, 4)

        self.proc = subprocess.Popen(
            [chromium, "--headless", "--no-sandbox", "--disable-gpu",
             "--remote-debugging-pipe", "--no-first-run",
             "--disable-background-networking", "--disable-component-update",
             "--disable-sync", "--hide-scrollbars", "--disable-quic",
             "--force-device-scale-factor=1", "--window-size=1920,1080",
             "--user-data-dir=" + self.profile, "about:blank"],
            preexec_fn=child, close_fds=False, stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_r)
        os.close(from_w)
        self.buf = b""
        self.mid = 0
        self.events = []
        self.session = None

    def send(self, method, params=None, session=True):
        self.mid += 1
        msg = {"id": self.mid, "method": method, "params": params or {}}
        if session and self.session:
            msg["sessionId"] = self.session
        data = json.dumps(msg).encode() + b"\0"
        while data:
            data = data[os.write(self.to_w, data):]
        return self.mid

    def recv(self):
        while b"\0" not in self.buf:
            chunk = os.read(self.from_r, 1 << 16)
            if not chunk:
                raise RuntimeError("Chromium closed the pipe")
            self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def call(self, method, params=None, session=True):
        mid = self.send(method, params, session)
        while True:
            msg = self.recv()
            if msg.get("id") == mid:
                if "error" in msg:
                    raise RuntimeError("%s: %s" % (method, msg["error"]))
                return msg.get("result", {})
            self.events.append(msg)

    def wait_event(self, method):
        """Waits for the event method (a condition, not a time)."""
        while True:
            for k, ev in enumerate(self.events):
                if ev.get("method") == method:
                    del self.events[k]
                    return ev
            self.events.append(self.recv())

    def open(self, scripts=True):
        """A new page of 1920x1080, with scripts or without."""
        if self.session:
            self.call("Target.closeTarget", {"targetId": self.target}, False)
        self.target = self.call("Target.createTarget", {"url": "about:blank"},
                                False)["targetId"]
        self.session = self.call("Target.attachToTarget",
                                 {"targetId": self.target, "flatten": True},
                                 False)["sessionId"]
        self.events = []
        self.call("Page.enable")
        self.call("Emulation.setDeviceMetricsOverride",
                  {"width": 1920, "height": 1080, "deviceScaleFactor": 1,
                   "mobile": False})
        if not scripts:
            self.call("Emulation.setScriptExecutionDisabled", {"value": True})
        self.call("Animation.enable")
        # the page's clock stands still: a transition stays at its start
        self.call("Animation.setPlaybackRate", {"playbackRate": 0})

    def load(self, path):
        self.events = []
        self.call("Page.navigate", {"url": "file://" + path})
        self.wait_event("Page.loadEventFired")

    def eval(self, expr):
        r = self.call("Runtime.evaluate", {"expression": expr,
                                           "returnByValue": True})
        if "exceptionDetails" in r:
            raise RuntimeError("%s: %s" % (expr[:60], r["exceptionDetails"]))
        return r["result"].get("value")

    def key(self, name):
        code = KEYS[name]
        for kind in ("rawKeyDown", "keyUp"):
            self.call("Input.dispatchKeyEvent",
                      {"type": kind, "key": name, "code": name,
                       "windowsVirtualKeyCode": code,
                       "nativeVirtualKeyCode": code})

    def screenshot(self, path):
        data = self.call("Page.captureScreenshot", {"format": "png"})["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))

    def pdf_pages(self):
        # the page the deck asks for (@page: a slide's size)
        data = self.call("Page.printToPDF", {"preferCSSPageSize": True,
                                             "printBackground": True})["data"]
        return len(re.findall(rb"/Type\s*/Page\b(?!s)", base64.b64decode(data)))

    def close(self):
        try:
            self.call("Browser.close", session=False)
        except (RuntimeError, OSError):
            pass
        self.proc.wait()
        subprocess.run(["rm", "-rf", self.profile])


class Checks:
    def __init__(self):
        self.failed = 0
        self.passed = 0

    def check(self, cond, what):
        if cond:
            self.passed += 1
            print("ok - " + what)
        else:
            self.failed += 1
            print("not ok - " + what)
        sys.stdout.flush()


def variants(binary):
    """The variants, from the registries: each scorer on the default
    architecture, each other window, each other architecture, hard
    attention, input feeding."""
    out = [("scorer=" + s, ["--scorer=" + s]) for s, _ in
           registry.scorers(binary)]
    out += [("window=" + w, ["--window=" + w])
            for w in registry.windows(binary)[1:]]
    out += [("arch=" + a, ["--arch=" + a])
            for a in registry.architectures(binary)[1:]]
    out += [("hard", ["--hard"]), ("input-feeding", ["--input-feeding"])]
    # a what-if (--set): a weight of the model and a step's score; the
    # slides carry a line at their foot that must meet no other text
    out += [("set", ["--scorer=general", "--set=general.W[2][3]=0.5",
                     "--set=step[1].scores[1]=2"])]
    return out


def walk(b, ck, name, nslides, changes, shots):
    """Presses the keys through the deck and measures every slide."""
    bad_size, bad_overlap, bad_out, bad_slide, anim = [], [], [], [], [0, 0]
    b.key("End")
    m = b.eval(MEASURE)
    ck.check(m["visible"] == ["slide-%d" % nslides] and
             m["count"] == "%d / %d" % (nslides, nslides),
             "%s: End shows the last slide, %d / %d" % (name, nslides, nslides))
    b.key("Home")
    prev_t, prev_w = None, None
    for k in range(1, nslides + 1):
        if k > 1:
            b.key("ArrowRight")
        m = b.eval(MEASURE)
        if m["visible"] != ["slide-%d" % k] or \
                m["count"] != "%d / %d" % (k, nslides):
            bad_slide.append((k, m["visible"], m["count"]))
            continue
        if m["min"] < 20:
            bad_size.append((k, round(m["min"], 2), m["minText"]))
        if m["overlaps"]:
            bad_overlap.append((k, m["overlaps"][:3]))
        if m["outside"]:
            bad_out.append((k, m["outside"][:3]))
        widths = b.eval(WIDTHS)
        if prev_t is not None and m["t"] != prev_t and widths and prev_w \
                and len(widths) == len(prev_w) and widths != prev_w:
            # a transition for each line whose width changes, from the
            # width it had
            starts = b.eval(TRANSITIONS)
            anim[0] += 1
            if sorted(starts) == sorted(a for a, b_ in zip(prev_w, widths)
                                        if a != b_):
                anim[1] += 1
        if widths:
            prev_w = widths
        prev_t = m["t"]
        if shots and m["stage"] in shots["stages"] and \
                (name, m["stage"]) not in shots["done"]:
            shots["done"].add((name, m["stage"]))
            b.screenshot(os.path.join(shots["dir"], "%s-%s.png"
                                      % (name.replace(" ", "_"), m["stage"])))
    b.key("ArrowLeft")
    m = b.eval(MEASURE)
    back = max(1, nslides - 1)
    ck.check(m["visible"] == ["slide-%d" % back],
             "%s: <- goes back to slide %d" % (name, back))
    ck.check(not bad_slide, "%s: -> shows each of the %d slides in turn, "
             "with its counter %s" % (name, nslides, bad_slide[:3]))
    ck.check(not bad_size, "%s: no text under 20 px %s" % (name, bad_size[:3]))
    ck.check(not bad_overlap, "%s: no two texts meet %s"
             % (name, bad_overlap[:2]))
    ck.check(not bad_out, "%s: no text leaves its slide %s"
             % (name, bad_out[:2]))
    ck.check(anim[1] == anim[0] == changes,
             "%s: at each of the %d steps whose weights differ from the "
             "last's, the lines move from the last widths (%d did)"
             % (name, changes, anim[1]))


def width_changes(page):
    """The steps after the first whose lines' widths differ from the
    step's before, read from the file."""
    widths = {}
    for m in re.finditer(r'<svg class="pic"[^>]* data-step="(\d+)">(.*?)</svg>',
                         page, re.S):
        w = re.findall(r'<line class="w".*? stroke-width="([0-9.]+)"',
                       m.group(2))
        if w:
            widths[int(m.group(1))] = w
    return sum(1 for t in widths if t - 1 in widths and
               widths[t] != widths[t - 1])


def check_numbers(b, ck, name, soft, softmax):
    """The picture's numbers against each other, derived here: the
    weights are the softmax of the scores (global, soft), the context
    is the weighted sum of the states (soft) or the drawn state (hard)."""
    worst_a, worst_c = 0.0, 0.0
    steps = b.eval(NUMBERS)
    for s in steps:
        if softmax and all(e is not None for e in s["e"]):
            mx = max(s["e"])
            ex = [math.exp(e - mx) for e in s["e"]]
            z = sum(ex)
            worst_a = max([worst_a] + [abs(x / z - a)
                                       for x, a in zip(ex, s["a"])])
        if soft:
            c = [sum(a * h[j] for a, h in zip(s["a"], s["h"]))
                 for j in range(len(s["c"]))]
        else:
            c = s["h"][s["drawn"].index(True)] if True in s["drawn"] else None
        if c is None:
            worst_c = float("inf")
        else:
            worst_c = max([worst_c] + [abs(x - y) for x, y in zip(c, s["c"])])
    if softmax:
        ck.check(steps and worst_a < 1e-12, "%s: α_t = softmax(e_t) at every "
                 "step, worst %.3g" % (name, worst_a))
    ck.check(steps and worst_c < 1e-12, "%s: c_t = %s at every step, "
             "worst %.3g" % (name, "Σ α_t,i h_i" if soft else "h of the drawn "
                             "word", worst_c))


def text_sections(text):
    """A text trace as {(t, stage): its lines without spaces}."""
    out, t, stage = {}, 0, None
    for line in text.splitlines():
        m = re.match(r"=== \S+, t=(\d+):", line)
        if m:
            t, stage = int(m.group(1)), None
            continue
        m = re.match(r"--- (\S+) ---$", line)
        if m:
            stage = m.group(1)
            continue
        if line.startswith("===="):
            stage = None
        elif stage and line.strip() and not re.match(r"\S+ output: ", line):
            out[(t, stage)] = out.get((t, stage), "") + re.sub(r"\s", "", line)
    return out


def deck_sections(page):
    """The deck's arithmetic as {(t, stage): its rows without spaces}."""
    out = {}
    for m in re.finditer(r'<section class="slide" id="slide-\d+" '
                         r'data-t="(\d+)" data-stage="([^"]+)">(.*?)</section>',
                         page, re.S):
        pre = re.search(r'<pre class="math">(.*?)</pre>', m.group(3), re.S)
        if pre:
            key = (int(m.group(1)), m.group(2))
            typed = re.sub(r'<span class="sb" style="width:(\d+)ch"><sub>'
                           r'(.*?)</sub></span>', typed_sub, pre.group(1))
            out[key] = out.get(key, "") + re.sub(r"\s", "",
                                                 html.unescape(typed))
    return out


def typed_sub(m):
    """A subscript set in the deck's arithmetic, typed back as the text
    trace types it ("_1,2", "_{t-1}"); "BADWIDTH" when its box is not as
    wide as the typed form, which would shift the columns after it."""
    sub = html.unescape(m.group(2))
    typed = "_" + (sub if re.fullmatch(r"[A-Za-z0-9,-]+", sub)
                   else "{" + sub + "}")
    return html.escape(typed) if int(m.group(1)) == len(typed) else "BADWIDTH"


def main():
    binary, chromium = sys.argv[1], sys.argv[2]
    shots_dir = sys.argv[3] if len(sys.argv) > 3 else None
    shots = shots_dir and {"dir": shots_dir, "done": set(),
                           "stages": {"title", "scoring", "weights"}}
    work = tempfile.mkdtemp(prefix="deck-check.")
    ck = Checks()
    b = Browser(chromium)
    try:
        b.open()
        quick = os.environ.get("DECK_CHECK_ONLY")
        for n, sentence in sorted(SENTENCES.items()):
            for vname, opts in variants(binary):
                if quick and not re.search(quick, "%s %d" % (vname, n)):
                    continue
                name = "%s, %d word%s" % (vname, n, "s" if n > 1 else "")
                path = os.path.join(work, "deck.html")
                if os.path.exists(path):
                    os.unlink(path)
                run = subprocess.run([binary, "deck", "-o", path] + opts +
                                     sentence.split(), stderr=subprocess.PIPE)
                err = run.stderr.decode()
                if run.returncode == 1 and re.search(
                        r"knows \d+ source positions .* the sentence has", err):
                    # a scorer with a weight a position (location), past
                    # the positions its model was trained for
                    ck.check(not os.path.exists(path), "%s: refused, and "
                             "no file written: %s" % (name, err.strip()))
                    continue
                if run.returncode != 0:
                    ck.check(False, "%s: attn-trace deck: %s" % (name, err))
                    continue
                page = open(path, encoding="utf-8").read()
                trace = subprocess.run([binary, "trace"] + opts +
                                       sentence.split(),
                                       stdout=subprocess.PIPE,
                                       stderr=subprocess.PIPE)
                # --set's "was" lines (the unedited numbers) are the
                # text trace's alone: the deck shows the edited trace
                want = text_sections(re.sub(r"(?m)^ *was[ :].*\n", "",
                                            trace.stdout.decode()))
                have = deck_sections(page)
                ck.check(want and want == have, "%s: each slide's arithmetic "
                         "is the text trace's, stage by stage (%d stages)"
                         % (name, len(want)))
                nslides = page.count('<section class="slide"')
                b.load(path)
                walk(b, ck, name, nslides, width_changes(page), shots)
                hard = vname == "hard"
                check_numbers(b, ck, name, not hard,
                              not hard and not vname.startswith("window="))
        # without scripts: every slide, in order, one under the other
        path = os.path.join(work, "deck.html")
        subprocess.run([binary, "deck", "-o", path, "je", "suis", "étudiant"],
                       check=True)
        nslides = open(path, encoding="utf-8").read().count(
            '<section class="slide"')
        b.open(scripts=False)
        b.load(path)
        tops = b.eval("[].map.call(document.querySelectorAll('.slide'), "
                      "function (s) { return getComputedStyle(s).display "
                      "=== 'none' ? -1 : s.getBoundingClientRect().top; })")
        ck.check(len(tops) == nslides and min(tops) >= 0 and
                 all(a + 1080 <= b_ for a, b_ in zip(tops, tops[1:])),
                 "without scripts: all %d slides show, in order, none over "
                 "another" % nslides)
        ck.check(b.eval("document.documentElement.className") == "",
                 "without scripts: the page is not in slide mode")
        b.open()
        b.load(path)
        pages = b.pdf_pages()
        ck.check(pages == nslides, "printed: a slide a page (%d pages, %d "
                 "slides)" % (pages, nslides))
        b.call("Emulation.setEmulatedMedia", {"media": "print"})
        breaks = b.eval("[].map.call(document.querySelectorAll('.slide'), "
                        "function (s) { var c = getComputedStyle(s); return "
                        "c.display + ' ' + c.breakAfter; })")
        ck.check(breaks == ["block page"] * nslides, "printed: every slide "
                 "shows and breaks the page after it, whatever the paper")
    finally:
        b.close()
        subprocess.run(["rm", "-rf", work])
    print("%d passed, %d failed" % (ck.passed, ck.failed))
    sys.exit(1 if ck.failed else 0)


if __name__ == "__main__":
    main()
