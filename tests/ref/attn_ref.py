#!/usr/bin/env python3
"""attn_ref.py: an independent reference for the numbers attn-trace prints.

Usage:
    attn_ref.py MODEL --scorer dot|general|concat|scaled|location|all
                [--target "WORDS"] SENTENCE...

It reads a model file in the format of doc/model-format.md, runs the
encoder, the decoder and the chosen attention scorer(s) in plain double
precision, and prints the whole trace as one JSON object on standard output.
"all" means every scorer the model has the weights for, in the order of
SCORERS, but for the location scorer when the sentence is longer than its
positions: it runs only on sentences of at most L words.  Each decoder step carries, under "parts", the scorer's
intermediates (none for dot and location, so no "parts" there).

This file is deliberately written from the format document and the model
equations alone, with nothing but the Python standard library (no numpy), so
that comparing it with the C program actually tests something.  Every sum is
a plain left-to-right loop (acc = 0.0; acc += a * b) in index order, the
same order a straightforward C loop uses, so the two agree to about 1e-15.

The reader is lenient: it is meant for good model files and stops with a
short message on the first thing it does not understand, without trying to
reproduce the C program's error messages.
"""

import json
import math
import re
import sys

FORMAT = "attn-trace-trace/3"
# The scorers, in the order "all" runs them (the order of the program's
# registry), and the sections each needs: a model "supports" a scorer when
# it has every one of them, so dot and scaled work with any model.
SCORERS = ("dot", "general", "concat", "scaled", "location", "additive",
           "location-aware")
SCORER_SECTIONS = {
    "dot": (),
    "general": ("general.W",),
    "concat": ("concat.W", "concat.v"),
    "scaled": (),
    "location": ("location.W",),
    "additive": ("additive.W", "additive.U", "additive.v"),
    "location-aware": ("location-aware.W", "location-aware.V",
                       "location-aware.U", "location-aware.b",
                       "location-aware.w", "location-aware.F"),
}
LOCAWARE = ("location-aware.W", "location-aware.V", "location-aware.U",
            "location-aware.b", "location-aware.w", "location-aware.F")

# The sections, and for each how its rows look.  They may come in any
# order, each at most once; those of SCORER_SECTIONS are optional (all of a
# scorer's or none), the others required.  They are read in this order,
# whatever the file's, so that [output.W_s] can name the words of [target]
# even when it comes first.
# kind "vocab": "word e1 .. eE" rows, any number of them;
# kind "matrix": (rows, cols) given as functions of the sizes;
# kind "named": one "word w1 .. wH" row for each target word.
SECTIONS = (
    ("source", "vocab"),
    ("target", "vocab"),
    ("encoder.W_x", "matrix"),
    ("encoder.W_h", "matrix"),
    ("encoder.b", "matrix"),
    ("decoder.W_x", "matrix"),
    ("decoder.W_h", "matrix"),
    ("decoder.b", "matrix"),
    ("general.W", "matrix"),
    ("concat.W", "matrix"),
    ("concat.v", "matrix"),
    ("location.W", "matrix"),
    ("additive.W", "matrix"),
    ("additive.U", "matrix"),
    ("additive.v", "matrix"),
) + tuple((name, "matrix") for name in LOCAWARE) + (
    ("local-p.W_p", "matrix"),
    ("local-p.v_p", "matrix"),
    ("output.W_c", "matrix"),
    ("output.W_s", "named"),
)

# Bahdanau's architecture (the line "architecture bahdanau"): a
# bidirectional encoder of H/2 units a direction, s_0 = tanh(W_init <-h_1),
# a decoder that reads [y_{t-1}; c_t], and W_o applied to [s_t; c_t; y_{t-1}].
BAHDANAU_SECTIONS = (
    ("source", "vocab"),
    ("target", "vocab"),
    ("forward.W_x", "matrix"),
    ("forward.W_h", "matrix"),
    ("forward.b", "matrix"),
    ("backward.W_x", "matrix"),
    ("backward.W_h", "matrix"),
    ("backward.b", "matrix"),
    ("decoder.W_init", "matrix"),
    ("decoder.W_y", "matrix"),
    ("decoder.W_s", "matrix"),
    ("decoder.W_c", "matrix"),
    ("decoder.b", "matrix"),
    ("general.W", "matrix"),
    ("concat.W", "matrix"),
    ("concat.v", "matrix"),
    ("location.W", "matrix"),
    ("additive.W", "matrix"),
    ("additive.U", "matrix"),
    ("additive.v", "matrix"),
) + tuple((name, "matrix") for name in LOCAWARE) + (
    ("local-p.W_p", "matrix"),
    ("local-p.v_p", "matrix"),
    ("output.W_o", "named"),
)

NUMBER_RE = re.compile(r"^[+-]?[0-9]+(\.[0-9]*)?([eE][+-]?[0-9]+)?$")


class ModelError(Exception):
    pass


OPTIONAL = set(name for names in SCORER_SECTIONS.values() for name in names)
# the local-p window's weights (doc/model.md): both or neither
OPTIONAL |= {"local-p.W_p", "local-p.v_p"}


def shape_of(section, E, H, A, L):
    """(rows, cols) of a matrix section."""
    D = H // 2
    return {
        "local-p.W_p": (H, H),
        "local-p.v_p": (1, H),
        "forward.W_x": (D, E),
        "forward.W_h": (D, D),
        "forward.b": (1, D),
        "backward.W_x": (D, E),
        "backward.W_h": (D, D),
        "backward.b": (1, D),
        "decoder.W_init": (H, D),
        "decoder.W_y": (H, E),
        "decoder.W_s": (H, H),
        "decoder.W_c": (H, H),
        "encoder.W_x": (H, E),
        "encoder.W_h": (H, H),
        "encoder.b": (1, H),
        "decoder.W_x": (H, E),
        "decoder.W_h": (H, H),
        "decoder.b": (1, H),
        "general.W": (H, H),
        "concat.W": (A, 2 * H),
        "concat.v": (1, A),
        "location.W": (L, H),
        "additive.W": (A, H),
        "additive.U": (A, H),
        "additive.v": (1, A),
        "location-aware.W": (A, H),
        "location-aware.V": (A, H),
        "location-aware.U": (A, 2),
        "location-aware.b": (1, A),
        "location-aware.w": (1, A),
        "location-aware.F": (2, 3),
        "output.W_c": (H, 2 * H),
    }[section]


def fold(word):
    """The key a word is matched by: its lower-case form."""
    return word.lower()


def to_number(text, where):
    if not NUMBER_RE.match(text):
        raise ModelError("%s: not a number: %r" % (where, text))
    value = float(text)
    if math.isinf(value) or math.isnan(value):
        raise ModelError("%s: number out of range: %r" % (where, text))
    return value


def meaningful_lines(text):
    """Yields (line number, fields) for every line that holds something."""
    for number, line in enumerate(text.split("\n"), start=1):
        if line.endswith("\r"):
            line = line[:-1]
        cut = line.find("#")
        if cut >= 0:
            line = line[:cut]
        fields = line.replace("\t", " ").split(" ")
        fields = [f for f in fields if f != ""]
        if fields:
            yield number, fields


class Vocab:
    def __init__(self):
        self.words = []   # as spelled in the file
        self.emb = []     # one list of E numbers per word
        self.index = {}   # folded word -> position

    def add(self, word, emb, where):
        key = fold(word)
        if key in self.index:
            raise ModelError("%s: duplicate word %r" % (where, word))
        self.index[key] = len(self.words)
        self.words.append(word)
        self.emb.append(emb)

    def find(self, word):
        return self.index.get(fold(word), -1)


class Model:
    pass


def load_model(path):
    with open(path, "rb") as f:
        raw = f.read()
    text = raw.decode("utf-8")
    lines = list(meaningful_lines(text))
    pos = 0

    def where(n):
        return "%s:%d" % (path, n)

    if not lines or lines[0][1] != ["attn-trace-model", "1"]:
        raise ModelError("%s: missing the line 'attn-trace-model 1'" % path)
    pos = 1
    sizes = []
    for name in ("embedding", "hidden", "attention"):
        if pos >= len(lines):
            raise ModelError("%s: missing the size line %r" % (path, name))
        n, fields = lines[pos]
        if len(fields) != 2 or fields[0] != name or not fields[1].isdigit():
            raise ModelError("%s: expected '%s N'" % (where(n), name))
        value = int(fields[1])
        if not 1 <= value <= 64:
            raise ModelError("%s: size out of range" % where(n))
        sizes.append(value)
        pos += 1
    E, H, A = sizes
    # An optional fourth size line: the source positions of the location
    # scorer.
    L = None
    if pos < len(lines) and lines[pos][1][0] == "positions":
        n, fields = lines[pos]
        if len(fields) != 2 or not fields[1].isdigit():
            raise ModelError("%s: expected 'positions N'" % where(n))
        L = int(fields[1])
        if not 1 <= L <= 64:
            raise ModelError("%s: size out of range" % where(n))
        pos += 1
    # An optional line naming the architecture; luong without it.
    arch = "luong"
    if pos < len(lines) and lines[pos][1][0] == "architecture":
        n, fields = lines[pos]
        if len(fields) != 2 or fields[1] not in ("luong", "bahdanau"):
            raise ModelError("%s: expected 'architecture luong|bahdanau'"
                             % where(n))
        arch = fields[1]
        if arch == "bahdanau" and H % 2:
            raise ModelError("%s: bahdanau needs an even hidden size"
                             % where(n))
        pos += 1
    # An optional line "input-feeding yes|no" (Luong's architecture only):
    # the decoder reads [y_{t-1}; h~_{t-1}], so decoder.W_x is (H, E + H).
    feeding = False
    if pos < len(lines) and lines[pos][1][0] == "input-feeding":
        n, fields = lines[pos]
        if len(fields) != 2 or fields[1] not in ("yes", "no"):
            raise ModelError("%s: expected 'input-feeding yes|no'" % where(n))
        if arch != "luong" and fields[1] == "yes":
            raise ModelError("%s: input feeding is Luong's" % where(n))
        feeding = fields[1] == "yes"
        pos += 1
    sections = BAHDANAU_SECTIONS if arch == "bahdanau" else SECTIONS

    # Split the rest into sections by their header lines.
    known = set(name for name, _ in sections)
    bodies = {}
    current = None
    for n, fields in lines[pos:]:
        if len(fields) == 1 and fields[0].startswith("[") and fields[0].endswith("]"):
            current = fields[0][1:-1]
            if current not in known:
                raise ModelError("%s: unknown section [%s]" % (where(n), current))
            if current in bodies:
                raise ModelError("%s: section [%s] twice" % (where(n), current))
            bodies[current] = []
            continue
        if current is None:
            raise ModelError("%s: expected a section header" % where(n))
        bodies[current].append((n, fields))
    for name, _ in sections:
        if name not in OPTIONAL and name not in bodies:
            raise ModelError("%s: missing section [%s]" % (path, name))
    scorers = []
    for scorer in SCORERS:
        needs = SCORER_SECTIONS[scorer]
        have = [name for name in needs if name in bodies]
        if have and len(have) != len(needs):
            lacking = [name for name in needs if name not in bodies]
            raise ModelError("%s: the %s scorer has [%s] but not [%s]"
                             % (path, scorer, have[0], lacking[0]))
        if len(have) == len(needs):
            scorers.append(scorer)
    if "location.W" in bodies and L is None:
        raise ModelError("%s: [location.W] needs the size line 'positions N'"
                         % path)

    m = Model()
    m.E, m.H, m.A, m.L = E, H, A, L
    m.arch = arch
    m.feeding = feeding
    m.scorers = tuple(scorers)
    m.src = Vocab()
    m.tgt = Vocab()
    for name, kind in sections:
        if name not in bodies:
            continue
        rows = bodies[name]
        if kind == "vocab":
            vocab = m.src if name == "source" else m.tgt
            for n, fields in rows:
                if len(fields) != 1 + E:
                    raise ModelError("%s: expected a word and %d numbers"
                                     % (where(n), E))
                emb = [to_number(x, where(n)) for x in fields[1:]]
                vocab.add(fields[0], emb, where(n))
            if not vocab.words:
                raise ModelError("%s: section [%s] is empty" % (path, name))
        elif kind == "matrix":
            r, c = shape_of(name, E, H, A, L)
            if feeding and name == "decoder.W_x":
                c = E + H
            if len(rows) != r:
                raise ModelError("%s: [%s] needs %d rows, has %d"
                                 % (path, name, r, len(rows)))
            matrix = []
            for n, fields in rows:
                if len(fields) != c:
                    raise ModelError("%s: expected %d numbers" % (where(n), c))
                matrix.append([to_number(x, where(n)) for x in fields])
            setattr(m, name.replace(".", "_").replace("-", "_"), matrix)
        else:  # output.W_s, output.W_o: rows named after the target words
            if len(rows) != len(m.tgt.words):
                raise ModelError("%s: [%s] needs one row per target word"
                                 % (path, name))
            cols = H if name == "output.W_s" else 2 * H + E
            matrix = []
            for k, (n, fields) in enumerate(rows):
                if len(fields) != 1 + cols or fold(fields[0]) != fold(m.tgt.words[k]):
                    raise ModelError("%s: expected the row of %r and %d numbers"
                                     % (where(n), m.tgt.words[k], cols))
                matrix.append([to_number(x, where(n)) for x in fields[1:]])
            setattr(m, name.replace(".", "_"), matrix)
    m.bos = m.tgt.find("<s>")
    m.eos = m.tgt.find("</s>")
    if m.bos < 0 or m.eos < 0:
        raise ModelError("%s: [target] must hold <s> and </s>" % path)
    return m


# ---------------------------------------------------------------- arithmetic

def matvec(W, x):
    """W x, each row summed left to right."""
    out = []
    for row in W:
        acc = 0.0
        for k in range(len(x)):
            acc += row[k] * x[k]
        out.append(acc)
    return out


def dot(a, b):
    acc = 0.0
    for k in range(len(a)):
        acc += a[k] * b[k]
    return acc


def rnn_step(Wx, Wh, b, x, h):
    """tanh(W_x x + W_h h + b), row by row: the input part, the recurrent
    part, then the bias."""
    out = []
    for r in range(len(Wh)):
        acc = 0.0
        for j in range(len(x)):
            acc += Wx[r][j] * x[j]
        for k in range(len(h)):
            acc += Wh[r][k] * h[k]
        acc += b[0][r]
        out.append(math.tanh(acc))
    return out


def softmax(e):
    top = max(e)
    ex = [math.exp(v - top) for v in e]
    total = 0.0
    for v in ex:
        total += v
    return [v / total for v in ex]


def argmax(p):
    best = 0
    for k in range(1, len(p)):
        if p[k] > p[best]:
            best = k
    return best


def score(m, scorer, s, h, i, prev=None):
    """e(s, h) for the encoder state h of source position i (from 0), and
    the scorer's intermediates for it: a dict of name -> value, with a
    vector or a single number as the value.  prev is the last step's
    attention weights (alpha_0 one-hot on the first word), which the
    location-aware scorer reads."""
    if scorer == "location-aware":
        # f_i = F * prev: two filters of width 3, cross-correlation with a
        # zero at each end; e = w . tanh(W s + V h + U f + b)
        n = len(prev)
        window = [prev[j] if 0 <= j < n else 0.0 for j in (i - 1, i, i + 1)]
        F = m.location_aware_F
        terms = [[F[c][k] * window[k] for k in range(3)] for c in range(2)]
        f = []
        for c in range(2):
            acc = 0.0
            for v in terms[c]:
                acc += v
            f.append(acc)
        u_f = matvec(m.location_aware_U, f)
        w_q = matvec(m.location_aware_W, s)
        v_h = matvec(m.location_aware_V, h)
        pre = [w_q[a] + v_h[a] + u_f[a] + m.location_aware_b[0][a]
               for a in range(m.A)]
        act = [math.tanh(u) for u in pre]
        return dot(m.location_aware_w[0], act), {
            "window": window, "F1_terms": terms[0], "F2_terms": terms[1],
            "f": f, "U_f": u_f, "W_a_q": w_q, "U_a_h": v_h, "pre": pre,
            "act": act}
    if scorer == "dot":
        return dot(s, h), {}
    if scorer == "general":
        w_a_h = matvec(m.general_W, h)
        return dot(s, w_a_h), {"W_a_h": w_a_h}
    if scorer == "concat":
        # v_a . tanh(W_a [s; h])
        pre = []
        for a in range(m.A):
            row = m.concat_W[a]
            u = 0.0
            for k in range(m.H):
                u += row[k] * s[k]
            for k in range(m.H):
                u += row[m.H + k] * h[k]
            pre.append(u)
        act = [math.tanh(u) for u in pre]
        return dot(m.concat_v[0], act), {"concat": list(s) + list(h),
                                         "pre": pre, "act": act}
    if scorer == "scaled":
        d = dot(s, h)
        return d / math.sqrt(m.H), {"dot": d}
    if scorer == "additive":
        # v_a . tanh(W_a s + U_a h): U_a h the same at every step
        w_a_q = matvec(m.additive_W, s)
        u_a_h = matvec(m.additive_U, h)
        pre = [w_a_q[a] + u_a_h[a] for a in range(m.A)]
        act = [math.tanh(u) for u in pre]
        return dot(m.additive_v[0], act), {"U_a_h": u_a_h, "W_a_q": w_a_q,
                                           "pre": pre, "act": act}
    # location: row i of W_loc times s; h plays no part
    return dot(m.location_W[i], s), {}


# The windows the reference has: global, the softmax over every word;
# fixed, no attention: weight 1 on the last encoder state h_n whatever the
# scores, so that every step's context is h_n.
WINDOWS = ("global", "fixed")


def attend(scores, window):
    """The weights a step makes its context with, from its scores."""
    if window == "fixed":
        return [0.0] * (len(scores) - 1) + [1.0]
    return softmax(scores)


def encode(m, src_ids):
    states = []
    h = [0.0] * m.H
    for i in src_ids:
        h = rnn_step(m.encoder_W_x, m.encoder_W_h, m.encoder_b, m.src.emb[i], h)
        states.append(h)
    return states


def decode(m, scorer, states, tgt_ids, window="global"):
    """One run of the decoder.  With tgt_ids (teacher forcing) the inputs are
    <s> then each target word; without it, each step feeds back its own
    prediction until it predicts </s> or reaches the step limit."""
    steps = []
    s = states[-1]
    n = len(states)
    if tgt_ids is not None:
        inputs = [m.bos] + list(tgt_ids)
        limit = len(inputs)
    else:
        inputs = [m.bos]
        limit = min(2 * n + 2, 100)
    t = 0
    prev = [1.0] + [0.0] * (n - 1)   # alpha_0: one-hot on the first word
    feed = [0.0] * m.H               # input feeding: h~_0 = 0
    while t < limit:
        y = inputs[t]
        x = list(m.tgt.emb[y]) + (feed if m.feeding else [])
        s = rnn_step(m.decoder_W_x, m.decoder_W_h, m.decoder_b, x, s)
        scores = []
        parts = {}
        for i, h in enumerate(states):
            e, mids = score(m, scorer, s, h, i, prev)
            scores.append(e)
            for name, value in mids.items():
                parts.setdefault(name, []).append(value)
        weights = attend(scores, window)
        prev = weights
        weighted = [[weights[i] * h[k] for k in range(m.H)]
                    for i, h in enumerate(states)]
        context = []
        for k in range(m.H):
            acc = 0.0
            for i in range(n):
                acc += weights[i] * states[i][k]
            context.append(acc)
        joined = context + s
        attentional = [math.tanh(v) for v in matvec(m.output_W_c, joined)]
        probs = softmax(matvec(m.output_W_s, attentional))
        best = argmax(probs)
        step = {
            "t": t + 1,
            "input": m.tgt.words[y],
            "state": s,
        }
        if m.feeding:
            step["feed"] = feed
        feed = attentional
        if parts:
            step["parts"] = parts
        step.update({
            "scores": scores,
            "weights": weights,
            "weighted": weighted,
            "context": context,
            "concat": joined,
            "attentional": attentional,
            "output": {"token": m.tgt.words[best], "probs": probs},
        })
        steps.append(step)
        t += 1
        if tgt_ids is None:
            if best == m.eos:
                break
            inputs.append(best)
    return {"scorer": scorer, "steps": steps}


def encode_bidir(m, src_ids):
    """Bahdanau's encoder: the forward states, the backward states (the
    backward RNN reads the sentence from its end) and the annotations
    h_i = forward_i followed by backward_i."""
    D = m.H // 2
    fwd = []
    h = [0.0] * D
    for i in src_ids:
        h = rnn_step(m.forward_W_x, m.forward_W_h, m.forward_b, m.src.emb[i], h)
        fwd.append(h)
    bwd = [None] * len(src_ids)
    h = [0.0] * D
    for k in range(len(src_ids) - 1, -1, -1):
        h = rnn_step(m.backward_W_x, m.backward_W_h, m.backward_b,
                     m.src.emb[src_ids[k]], h)
        bwd[k] = h
    return fwd, bwd, [fwd[k] + bwd[k] for k in range(len(src_ids))]


def decode_bahdanau(m, scorer, states, s0, tgt_ids, window="global"):
    """One run of Bahdanau's decoder: attention with the previous state as
    the query, then s_t = tanh(W_y y + W_s s_prev + W_c c + b), then
    p = softmax(W_o [s_t; c_t; y])."""
    steps = []
    s = s0
    n = len(states)
    if tgt_ids is not None:
        inputs = [m.bos] + list(tgt_ids)
        limit = len(inputs)
    else:
        inputs = [m.bos]
        limit = min(2 * n + 2, 100)
    t = 0
    prev = [1.0] + [0.0] * (n - 1)   # alpha_0: one-hot on the first word
    while t < limit:
        y = m.tgt.emb[inputs[t]]
        query = s
        scores = []
        parts = {}
        for i, h in enumerate(states):
            e, mids = score(m, scorer, query, h, i, prev)
            scores.append(e)
            for name, value in mids.items():
                parts.setdefault(name, []).append(value)
        weights = attend(scores, window)
        prev = weights
        weighted = [[weights[i] * h[k] for k in range(m.H)]
                    for i, h in enumerate(states)]
        context = []
        for k in range(m.H):
            acc = 0.0
            for i in range(n):
                acc += weights[i] * states[i][k]
            context.append(acc)
        wy = matvec(m.decoder_W_y, y)
        ws = matvec(m.decoder_W_s, query)
        wc = matvec(m.decoder_W_c, context)
        pre = [wy[k] + ws[k] + wc[k] + m.decoder_b[0][k] for k in range(m.H)]
        s = [math.tanh(v) for v in pre]
        joined = s + context + list(y)
        probs = softmax(matvec(m.output_W_o, joined))
        best = argmax(probs)
        step = {"t": t + 1, "input": m.tgt.words[inputs[t]], "query": query}
        if parts:
            step["parts"] = parts
        step.update({
            "scores": scores,
            "weights": weights,
            "weighted": weighted,
            "context": context,
            "W_y_y": wy, "U_s": ws, "C_c": wc, "pre": pre,
            "state": s,
            "concat": joined,
            "output": {"token": m.tgt.words[best], "probs": probs},
        })
        steps.append(step)
        t += 1
        if tgt_ids is None:
            if best == m.eos:
                break
            inputs.append(best)
    return {"scorer": scorer, "steps": steps}


def lookup(vocab, words, what):
    ids = []
    for w in words:
        k = vocab.find(w)
        if k < 0:
            raise ModelError("%s word not in the model: %r" % (what, w))
        ids.append(k)
    return ids


def trace(m, scorer, sentence, target=None, window="global"):
    src_ids = lookup(m.src, sentence.split(), "source")
    if not src_ids:
        raise ModelError("empty sentence")
    tgt_ids = None
    if target is not None:
        tgt_ids = lookup(m.tgt, target.split(), "target")
    if scorer == "all":
        chosen = tuple(sc for sc in m.scorers
                       if sc != "location" or len(src_ids) <= m.L)
    elif scorer in m.scorers:
        chosen = (scorer,)
    else:
        raise ModelError("the model has no weights for the %s scorer: %s"
                         % (scorer, " ".join("[%s]" % name
                                             for name in SCORER_SECTIONS[scorer])))
    if scorer == "location" and len(src_ids) > m.L:
        raise ModelError("the location scorer knows %d positions, the "
                         "sentence has %d words" % (m.L, len(src_ids)))
    out = {"format": FORMAT, "source": [m.src.words[i] for i in src_ids]}
    if tgt_ids is not None:
        out["target"] = [m.tgt.words[i] for i in tgt_ids]
    if m.arch == "bahdanau":
        fwd, bwd, states = encode_bidir(m, src_ids)
        D = m.H // 2
        w_init_h = matvec(m.decoder_W_init, bwd[0])
        s0 = [math.tanh(v) for v in w_init_h]
        out["architecture"] = "bahdanau"
        out["encoder"] = [{"token": m.src.words[i],
                           "embedding": list(m.src.emb[i]),
                           "forward": fwd[k], "backward": bwd[k],
                           "annotation": states[k]}
                          for k, i in enumerate(src_ids)]
        out["initial"] = {"state": s0, "W_init_h": w_init_h}
        out["runs"] = [decode_bahdanau(m, sc, states, s0, tgt_ids, window)
                       for sc in chosen]
        assert len(s0) == m.H and len(bwd[0]) == D
        return out
    states = encode(m, src_ids)
    out["encoder"] = [{"token": m.src.words[i], "embedding": list(m.src.emb[i]),
                       "state": h} for i, h in zip(src_ids, states)]
    out["runs"] = [decode(m, sc, states, tgt_ids, window)
                   for sc in chosen]
    return out


def parse_args(argv):
    usage = ("usage: attn_ref.py MODEL --scorer %s|all "
             "[--target WORDS] [--window %s] SENTENCE..."
             % ("|".join(SCORERS), "|".join(WINDOWS)))
    model = None
    scorer = None
    target = None
    window = "global"
    words = []
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("--scorer", "--target", "--window"):
            if i + 1 >= len(argv):
                raise SystemExit(usage)
            value = argv[i + 1]
            i += 2
        elif a.split("=", 1)[0] in ("--scorer", "--target", "--window") \
                and "=" in a:
            a, value = a.split("=", 1)
            i += 1
        elif a in ("-h", "--help"):
            print(usage)
            raise SystemExit(0)
        else:
            if model is None:
                model = a
            else:
                words.append(a)
            i += 1
            continue
        if a == "--scorer":
            scorer = value
        elif a == "--window":
            window = value
        else:
            target = value
    if model is None or scorer not in SCORERS + ("all",) or not words \
            or window not in WINDOWS:
        raise SystemExit(usage)
    return model, scorer, target, window, " ".join(words)


def main(argv):
    model_path, scorer, target, window, sentence = parse_args(argv)
    try:
        m = load_model(model_path)
        out = trace(m, scorer, sentence, target, window)
    except (ModelError, OSError, UnicodeDecodeError) as exc:
        sys.stderr.write("attn_ref.py: %s\n" % exc)
        return 2
    sys.stdout.reconfigure(encoding="utf-8")
    sys.stdout.write(json.dumps(out, ensure_ascii=False, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
