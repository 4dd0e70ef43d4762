#!/usr/bin/env python3
"""ref_trace.py: a numpy reference for `attn-trace trace --format=jsonl`.

Usage:
    ref_trace.py [--model FILE] [--name NAME] [--scorer S] [--no-parts]
                 --batch FILE [-o OUT]

It reads a model file (doc/model-format.md), traces every line of a batch
file (`source words ||| target words`, the target optional; blank lines and
lines starting with '#' skipped) the way doc/model.md says, and writes one
JSON object a line with the keys of attn-trace's JSON Lines
(doc/trace-format.md): the header, the encoder, and one run a scorer with
every step's state, scores, softmax max and sum, weights, weighted vectors,
context, concatenation, attentional state, logits and probabilities, and
the scorer's intermediates ("parts": W_a·h_i for general; W_a·[s_t; h_i]
and its tanh for concat).  It knows the dot, general and concat scorers:
--scorer is one of them, a comma list of them, or "all" for the three
(attn-trace's "all" means every scorer it has, so bench/run names the
three).  --no-parts leaves out "parts", which attn-trace writes only since
its scorer registry: the JSON of an older build.  In the model file it
reads the three scorers' sections and skips the others ([location.W]).

It exists for bench/run, which times it against attn-trace on the same
pairs and checks that both agree to 1e-9.  It is written independently of
the C program and of tests/ref/attn_ref.py: its own parser, and the
arithmetic in numpy, vectorised over the source words (one matrix product
scores every h_i at once) with the parts that do not change from step to
step computed once (W_a·h_i for general, the h half of the concat layer,
W_x·y for every target word).  It does not cache whole traces: every line
is traced from scratch, as attn-trace does.

The numbers are written the way Python writes floats (the shortest form
that reads back exactly, like attn-trace, but `1.0` for `1` and `1e-05` for
`1e-5`), so the output has the same keys and values as attn-trace's, not
the same bytes.  --model defaults to data/toy4.model next to this
directory; --name sets the "model" string (attn-trace writes
"<built-in toy4.model>" for its built-in copy of that file).
"""

import json
import os
import sys

import numpy as np

FORMAT = "attn-trace-trace/3"
SCORERS = ("dot", "general", "concat")


class ModelError(Exception):
    pass


# ------------------------------------------------------------------ model file

def _fields(path):
    """(line number, fields) of every line that is not blank or a comment."""
    with open(path, encoding="utf-8") as f:
        for lineno, line in enumerate(f, start=1):
            line = line.rstrip("\n").rstrip("\r").split("#", 1)[0]
            fields = line.split()
            if fields:
                yield lineno, fields


def _numbers(fields, count, where):
    if len(fields) != count:
        raise ModelError("%s: expected %d numbers, found %d"
                         % (where, count, len(fields)))
    try:
        return [float(x) for x in fields]
    except ValueError:
        raise ModelError("%s: not a number in %r" % (where, fields)) from None


class Model:
    """The weights as numpy arrays, and the two vocabularies."""

    def __init__(self, path, name=None):
        self.name = path if name is None else name
        lines = list(_fields(path))
        if not lines or lines[0][1] != ["attn-trace-model", "1"]:
            raise ModelError("%s: not an attn-trace-model 1 file" % path)
        sizes = {}
        for (lineno, f), key in zip(lines[1:4], ("embedding", "hidden",
                                                 "attention")):
            if len(f) != 2 or f[0] != key:
                raise ModelError("%s:%d: expected '%s N'" % (path, lineno, key))
            sizes[key] = int(f[1])
        E, H, A = sizes["embedding"], sizes["hidden"], sizes["attention"]
        self.E, self.H, self.A = E, H, A
        rest = lines[4:]
        # The optional fourth size, for the location scorer (not used here).
        if rest and len(rest[0][1]) == 2 and rest[0][1][0] == "positions":
            rest = rest[1:]

        # The sections, in any order, each once.
        sections, cur = {}, None
        for lineno, f in rest:
            if len(f) == 1 and f[0][:1] == "[" and f[0][-1:] == "]":
                cur = f[0][1:-1]
                if cur in sections:
                    raise ModelError("%s:%d: a second [%s]"
                                     % (path, lineno, cur))
                sections[cur] = []
            elif cur is None:
                raise ModelError("%s:%d: expected a section" % (path, lineno))
            else:
                sections[cur].append(("%s:%d" % (path, lineno), f))
        want = ["source", "target", "encoder.W_x", "encoder.W_h", "encoder.b",
                "decoder.W_x", "decoder.W_h", "decoder.b", "general.W",
                "concat.W", "concat.v", "output.W_c", "output.W_s"]
        missing = [sec for sec in want if sec not in sections]
        if missing:
            raise ModelError("%s: no section [%s]"
                             % (path, "], [".join(missing)))

        def vocab(sec):
            words, rows, index = [], [], {}
            for where, f in sections[sec]:
                if f[0].lower() in index:
                    raise ModelError("%s: duplicate word %r" % (where, f[0]))
                index[f[0].lower()] = len(words)
                words.append(f[0])
                rows.append(_numbers(f[1:], E, where))
            return words, np.array(rows, dtype=np.float64), index

        def matrix(sec, r, c):
            rows = sections[sec]
            if len(rows) != r:
                raise ModelError("%s: [%s] needs %d rows" % (path, sec, r))
            return np.array([_numbers(f, c, w) for w, f in rows],
                            dtype=np.float64)

        self.src_words, self.src_emb, self.src_index = vocab("source")
        self.tgt_words, self.tgt_emb, self.tgt_index = vocab("target")
        self.enc_Wx = matrix("encoder.W_x", H, E)
        self.enc_Wh = matrix("encoder.W_h", H, H)
        self.enc_b = matrix("encoder.b", 1, H)[0]
        self.dec_Wx = matrix("decoder.W_x", H, E)
        self.dec_Wh = matrix("decoder.W_h", H, H)
        self.dec_b = matrix("decoder.b", 1, H)[0]
        self.gen_W = matrix("general.W", H, H)
        self.cat_W = matrix("concat.W", A, 2 * H)
        self.cat_v = matrix("concat.v", 1, A)[0]
        self.out_Wc = matrix("output.W_c", H, 2 * H)
        ws = sections["output.W_s"]
        if len(ws) != len(self.tgt_words):
            raise ModelError("%s: [output.W_s] needs a row a target word" % path)
        for (where, f), word in zip(ws, self.tgt_words):
            if f[0].lower() != word.lower():
                raise ModelError("%s: expected the row of %r" % (where, word))
        self.out_Ws = np.array([_numbers(f[1:], H, w) for w, f in ws],
                               dtype=np.float64)
        if "<s>" not in self.tgt_index or "</s>" not in self.tgt_index:
            raise ModelError("%s: [target] needs <s> and </s>" % path)
        self.bos = self.tgt_index["<s>"]
        self.eos = self.tgt_index["</s>"]

        # Parts that are the same for every sentence: W_x·y of the decoder
        # for every target word, and the two halves of the concat layer.
        self.dec_in = self.tgt_emb @ self.dec_Wx.T          # (V, H)
        self.cat_Ws = np.ascontiguousarray(self.cat_W[:, :H])  # reads s_t
        self.cat_Wh_T = np.ascontiguousarray(self.cat_W[:, H:].T)  # reads h_i
        self.vocab_list = list(self.tgt_words)


# ------------------------------------------------------------------ the trace

def _softmax(e):
    top = e.max()
    ex = np.exp(e - top)
    total = ex.sum()
    return top, total, ex / total


def trace(m, source, target, scorers, line=None, parts=True):
    """The trace of one pair as a dict with attn-trace's keys, in order;
    without the scorers' "parts" if parts is false."""
    try:
        src = [m.src_index[w.lower()] for w in source]
    except KeyError as exc:
        raise ModelError("unknown source word %s" % exc) from None
    tgt = None
    if target is not None:
        try:
            tgt = [m.tgt_index[w.lower()] for w in target]
        except KeyError as exc:
            raise ModelError("unknown target word %s" % exc) from None
    n, H = len(src), m.H
    if n == 0:
        raise ModelError("empty source sentence")

    # 1. encoding: h_i = tanh(W_x x_i + W_h h_{i-1} + b)
    X = m.src_emb[src]                         # (n, E)
    XW = X @ m.enc_Wx.T                        # (n, H)
    hs = np.empty((n, H))
    h = np.zeros(H)
    for i in range(n):
        h = np.tanh(XW[i] + m.enc_Wh @ h + m.enc_b)
        hs[i] = h

    out = {"format": FORMAT}
    if line is not None:
        out["line"] = line
    out["model"] = m.name
    out["embedding_dim"] = m.E
    out["hidden_dim"] = m.H
    out["attention_dim"] = m.A
    out["source"] = [m.src_words[k] for k in src]
    if tgt is not None:
        out["target"] = [m.tgt_words[k] for k in tgt]
        out["decoding"] = "teacher-forced"
        limit = len(tgt) + 1
    else:
        out["decoding"] = "greedy"
        limit = min(2 * n + 2, 100)
        out["max_steps"] = limit
    out["vocab"] = m.vocab_list
    hs_list = hs.tolist()
    out["encoder"] = [{"token": m.src_words[k],
                       "embedding": X[i].tolist(),
                       "state": hs_list[i]} for i, k in enumerate(src)]

    # What the scorers need of the encoder states, once a sentence.
    gen_h = hs @ m.gen_W.T                     # row i: W_a·h_i
    cat_h = hs @ m.cat_Wh_T                    # row i: the h_i half of W_a[s; h_i]
    gen_parts = {"W_a_h": gen_h.tolist()}      # the same at every step

    runs = []
    for scorer in scorers:
        s = hs[-1]
        y = m.bos
        steps, pred = [], []
        stopped = False
        for t in range(1, limit + 1):
            s = np.tanh(m.dec_in[y] + m.dec_Wh @ s + m.dec_b)
            part = None
            if scorer == "dot":
                e = hs @ s
            elif scorer == "general":
                e = gen_h @ s
                if parts:
                    part = gen_parts
            else:
                pre = cat_h + m.cat_Ws @ s
                act = np.tanh(pre)
                e = act @ m.cat_v
                if parts:
                    part = {"pre": pre.tolist(), "act": act.tolist()}
            top, total, alpha = _softmax(e)
            weighted = alpha[:, None] * hs
            context = alpha @ hs
            joined = np.concatenate((context, s))
            att = np.tanh(m.out_Wc @ joined)
            logits = m.out_Ws @ att
            _, _, probs = _softmax(logits)
            best = int(probs.argmax())         # the first of equals
            step = {"t": t, "input": m.tgt_words[y], "state": s.tolist()}
            if part is not None:
                step["parts"] = part
            step.update({
                "scores": e.tolist(),
                "softmax": {"max": [float(top)], "sum": [float(total)]},
                "weights": alpha.tolist(),
                "weighted": weighted.tolist(),
                "context": context.tolist(),
                "concat": joined.tolist(),
                "attentional": att.tolist(),
                "output": {"token": m.tgt_words[best],
                           "logits": logits.tolist(),
                           "probs": probs.tolist()},
            })
            steps.append(step)
            pred.append(m.tgt_words[best])
            if tgt is not None:
                y = tgt[t - 1] if t <= len(tgt) else m.eos
            else:
                if best == m.eos:
                    stopped = True
                    break
                y = best
        run = {"scorer": scorer, "output": pred}
        if tgt is None:
            run["stopped"] = stopped
        run["steps"] = steps
        runs.append(run)
    out["runs"] = runs
    return out


def batch_lines(path):
    """(line number, source words, target words or None) of a batch file."""
    f = sys.stdin if path == "-" else open(path, encoding="utf-8")
    with f:
        for lineno, line in enumerate(f, start=1):
            line = line.rstrip("\n").rstrip("\r")
            if not line.strip() or line.startswith("#"):
                continue
            if "|||" in line:
                source, target = line.split("|||", 1)
                yield lineno, source.split(), target.split()
            else:
                yield lineno, line.split(), None


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    model = os.path.join(here, os.pardir, "data", "toy4.model")
    name, scorer, batch, outpath, parts = None, "all", None, "-", True
    args = list(argv)
    while args:
        a = args.pop(0)
        if a in ("-h", "--help"):
            print(__doc__.strip())
            return 0
        if a == "--no-parts":
            parts = False
            continue
        key, eq, val = a.partition("=")
        if key not in ("--model", "--name", "--scorer", "--batch", "-o"):
            sys.stderr.write("ref_trace.py: unknown argument %r\n" % a)
            return 2
        if not eq:
            if not args:
                sys.stderr.write("ref_trace.py: %s needs a value\n" % a)
                return 2
            val = args.pop(0)
        if key == "--model":
            model = val
        elif key == "--name":
            name = val
        elif key == "--scorer":
            scorer = val
        elif key == "--batch":
            batch = val
        else:
            outpath = val
    scorers = SCORERS if scorer == "all" else tuple(scorer.split(","))
    if batch is None or not scorers or not set(scorers) <= set(SCORERS):
        sys.stderr.write("usage: ref_trace.py [--model FILE] [--name NAME] "
                         "[--scorer S] [--no-parts] --batch FILE [-o OUT]\n"
                         "  S: all, or dot, general, concat or a comma list "
                         "of them\n")
        return 2
    try:
        m = Model(model, name)
        out = (sys.stdout if outpath == "-"
               else open(outpath, "w", encoding="utf-8"))
        dumps = json.JSONEncoder(ensure_ascii=False).encode
        failed = 0
        for lineno, source, target in batch_lines(batch):
            try:
                obj = trace(m, source, target, scorers, lineno, parts)
            except ModelError as exc:
                sys.stderr.write("%s:%d: %s\n" % (batch, lineno, exc))
                failed += 1
                continue
            out.write(dumps(obj))
            out.write("\n")
        if out is not sys.stdout:
            out.close()
    except (ModelError, OSError) as exc:
        sys.stderr.write("ref_trace.py: %s\n" % exc)
        return 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
