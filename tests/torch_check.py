#!/usr/bin/env python3
"""torch_check.py: every number of attn-trace's JSON against PyTorch.

Usage:
    torch_check.py BINARY MODEL

It asks the program for the model's weights (BINARY model --format=json
--model=MODEL), loads them into torch.nn modules in float64 -- nn.RNN
(tanh, batch_first) for the encoder, nn.RNNCell for the decoder,
nn.Linear without bias for W_c, W_s and the scorers' matrices -- and then,
for a few sentences with and without a target and for each scorer the model
supports (and for --scorer=all), runs

    BINARY trace --model=MODEL --format=json --scorer=S [--target=T] SENTENCE

and recomputes with torch everything the trace holds: the embeddings and
encoder states, each decoder state, the scorer's intermediates ("parts"),
the scores, the softmax's max and sum, the weights, the weighted states,
the context, [c_t; s_t], the attentional state, the logits, the
probabilities, the predicted words and, when greedy, where decoding stops.
Numbers must agree within 1e-12 absolute plus 1e-12 relative.

The model has one bias b for each RNN where torch has two (b_ih and b_hh):
b goes into b_ih and b_hh is zero.  The scorers, with s = s_t, h_i the
encoder states, n the number of source words:

    dot       e_i = s.h_i
    general   e_i = s.(W_a h_i)               parts: W_a_h (n x H)
    concat    e_i = v_a.tanh(W_a [s; h_i])    parts: concat (n x 2H),
                                              pre, act (n x A)
    scaled    e_i = s.h_i / sqrt(H)           parts: dot (n)
    location  e_i = W_loc[i].s, i = 1..n      no parts

A model supports a scorer when the model JSON has its weights (dot and
scaled need none); the location scorer is tried only on sentences of at
most L words (the model's "positions"), and --scorer=all runs it only on
those.  On a model that has it, one sentence of L + 1 words (its source
words over again) is traced too, with --scorer=all (which must leave the
location scorer out) and with --scorer=location (which must be refused).

It also checks the weights of the model JSON against the model file, read
with the independent reader of tests/ref/attn_ref.py.

Prints "ok CASE" or "FAIL CASE: PATH: ..." (the first difference) a case,
then "N passed, M failed".  Exit status: 0 when nothing failed, 1 when
something did, 77 (automake's "skipped") when torch cannot be imported or
BINARY does not exist, 2 for bad usage.
"""

import json
import math
import os
import subprocess
import sys

ABS_TOL = 1e-12
REL_TOL = 1e-12
TIMEOUT = 60
HERE = os.path.dirname(os.path.abspath(__file__))

# The scorers, in the order of the program's registry (which --scorer=all
# follows), with the sections of the model JSON that hold each one's
# weights: set by main() from 'attn-trace scorers' (tests/registry.py).
SCORERS = ()
WINDOWS = ()
# The scorers that TorchModel.score computes: a scorer of the registry
# that is not one of them fails the check, which needs a reference.
TORCH_SCORERS = ("dot", "general", "concat", "scaled", "location",
                 "additive", "location-aware")

# Sentences for the toy models, used when the model knows all their words.
TOY_INPUTS = [
    ("je suis étudiant", None),
    ("je suis étudiant", "i am a student"),
    ("zone économique européenne", "european economic area"),
    ("JE Suis ÉTUDIANT", "I AM a Student"),
]


class Mismatch(Exception):
    pass


def fold(word):
    return word.lower()


def show(value):
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 60 else text[:57] + "..."


# ---------------------------------------------------------------- comparing

def agree(a, b):
    if math.isnan(a) or math.isnan(b):
        return False
    return a == b or abs(a - b) <= ABS_TOL + REL_TOL * max(abs(a), abs(b))


def expect(got, want, path, who="torch"):
    """Raises Mismatch at the first place where got (the program's JSON
    value) differs from want (a number, a string, a list or a dict of
    them, as computed here; who names where they come from).  A dict's
    keys are checked one by one; the program may have more."""
    if isinstance(want, bool) or isinstance(want, str):
        if got != want or type(got) is not type(want):
            raise Mismatch("%s: program %s, expected %s"
                           % (path, show(got), show(want)))
    elif isinstance(want, (int, float)):
        if isinstance(got, bool) or not isinstance(got, (int, float)):
            raise Mismatch("%s: program %s is not a number, expected %r"
                           % (path, show(got), want))
        if not agree(float(got), float(want)):
            raise Mismatch("%s: program %r, %s %r (differ by %.3g)"
                           % (path, got, who, want,
                              abs(float(got) - float(want))))
    elif isinstance(want, list):
        if not isinstance(got, list):
            raise Mismatch("%s: program %s is not a list" % (path, show(got)))
        if len(got) != len(want):
            raise Mismatch("%s: program has %d items, expected %d"
                           % (path, len(got), len(want)))
        for k in range(len(want)):
            expect(got[k], want[k], "%s[%d]" % (path, k), who)
    elif isinstance(want, dict):
        if not isinstance(got, dict):
            raise Mismatch("%s: program %s is not an object" % (path, show(got)))
        for key in want:
            if key not in got:
                raise Mismatch("%s.%s: missing in the program's output"
                               % (path, key))
            expect(got[key], want[key], "%s.%s" % (path, key), who)
    else:
        raise TypeError("cannot compare with %r" % (want,))


def expect_keys(got, keys, path):
    """got is an object with exactly these keys."""
    if not isinstance(got, dict):
        raise Mismatch("%s: program %s is not an object" % (path, show(got)))
    if sorted(got) != sorted(keys):
        raise Mismatch("%s: program has the keys %s, expected %s"
                       % (path, show(sorted(got)), show(sorted(keys))))


# ---------------------------------------------------------------- running

def run_json(argv):
    try:
        proc = subprocess.run(argv, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, timeout=TIMEOUT)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise Mismatch("could not run %s: %s" % (argv[0], exc))
    if proc.returncode != 0:
        err = proc.stderr.decode("utf-8", "replace").strip()
        raise Mismatch("%s exited with status %d: %s"
                       % (" ".join(argv[1:3]), proc.returncode, err))
    try:
        return json.loads(proc.stdout.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise Mismatch("%s printed no valid JSON: %s"
                       % (" ".join(argv[1:3]), exc))


# ---------------------------------------------------------------- the model

class TorchModel:
    """The weights of the model JSON in torch modules, float64."""

    def __init__(self, torch, doc):
        nn = torch.nn
        self.torch = torch
        self.doc = doc
        t = self.tensor
        self.E = doc["embedding_dim"]
        self.H = doc["hidden_dim"]
        self.A = doc["attention_dim"]
        self.L = doc.get("positions")
        E, H, A = self.E, self.H, self.A
        self.src = dict((fold(w), (w, t(v)))
                        for w, v in doc["source_embeddings"].items())
        self.tgt = dict((fold(w), (w, t(v)))
                        for w, v in doc["target_embeddings"].items())
        self.vocab = list(doc["output"]["vocab"])

        enc = doc["encoder"]
        self.encoder = nn.RNN(E, H, num_layers=1, nonlinearity="tanh",
                              bias=True, batch_first=True).double()
        self.encoder.weight_ih_l0.copy_(t(enc["W_x"]))
        self.encoder.weight_hh_l0.copy_(t(enc["W_h"]))
        self.encoder.bias_ih_l0.copy_(t(enc["b"]).reshape(H))
        self.encoder.bias_hh_l0.zero_()

        dec = doc["decoder"]
        # input feeding: the cell reads [y_{t-1}; h~_{t-1}], W_ih (H, E + H)
        self.feeding = doc.get("input_feeding", False)
        self.decoder = nn.RNNCell(E + (H if self.feeding else 0), H,
                                  bias=True, nonlinearity="tanh").double()
        self.decoder.weight_ih.copy_(t(dec["W_x"]))
        self.decoder.weight_hh.copy_(t(dec["W_h"]))
        self.decoder.bias_ih.copy_(t(dec["b"]).reshape(H))
        self.decoder.bias_hh.zero_()

        self.W_c = self.linear(doc["output"]["W_c"], 2 * H, H)
        self.W_s = self.linear(doc["output"]["W_s"], H, len(self.vocab))
        self.scorer_weights(doc)

    def scorer_weights(self, doc):
        """The scorers' weights, and which scorers the model supports."""
        t = self.tensor
        H, A = self.H, self.A
        self.supported = []
        for name, sections in SCORERS:
            if all(sec in doc for sec in sections):
                self.supported.append(name)
        if "general" in doc:
            self.general_W = self.linear(doc["general"]["W"], H, H)
        if "concat" in doc:
            self.concat_W = self.linear(doc["concat"]["W"], 2 * H, A)
            self.concat_v = t(doc["concat"]["v"]).reshape(A)
        if "additive" in doc:
            self.additive_W = self.linear(doc["additive"]["W"], H, A)
            self.additive_U = self.linear(doc["additive"]["U"], H, A)
            self.additive_v = t(doc["additive"]["v"]).reshape(A)
        if "location-aware" in doc:
            la = doc["location-aware"]
            self.la_W = self.linear(la["W"], H, A)
            self.la_V = self.linear(la["V"], H, A)
            self.la_U = self.linear(la["U"], 2, A)
            self.la_b = t(la["b"]).reshape(A)
            self.la_w = t(la["w"]).reshape(A)
            self.la_F = t(la["F"]).reshape(2, 1, 3)   # out, in, width
        if "location" in doc:
            self.location_W = t(doc["location"]["W"])
            if self.L is None or tuple(self.location_W.shape) != (self.L, H):
                raise Mismatch("model JSON: location.W is %s, expected "
                               "positions (%s) x hidden_dim (%d)"
                               % (tuple(self.location_W.shape), self.L, H))

    def tensor(self, value):
        return self.torch.tensor(value, dtype=self.torch.float64)

    window = "global"   # --window and --window-size of the cases
    D = 1
    # --set of a step's value (tests/torch_set.py): (t, what, index from
    # 0, value), what one of "state", "scores", "weights", "context"; the
    # values they replace, by (t, what, index), into set_old
    overrides = ()

    def override(self, t, what, v):
        """v with the overrides of step t's value what made, the old
        values kept in self.set_old."""
        for st, w, k, value in self.overrides:
            if st == t and w == what and k < v.shape[0]:
                v = v.clone()
                self.set_old[(st, w, k)] = v[k].item()
                v[k] = value
        return v

    def attend(self, e, q, t, step):
        """The weights of step t from the scores e and the query q, with
        the keys of the window's records added to step: the softmax over
        all of e (global), or over the window's slice (local-m, local-p),
        local-p's times torch.exp(-(j - p)^2 / (2 sigma^2)); fixed's one-hot
        on the last word, the scores unused."""
        torch = self.torch
        F = torch.nn.functional
        n = e.shape[0]
        if self.window == "fixed":
            # no attention: weight 1 on h_n, 0 elsewhere, whatever e (the
            # softmax of the one score e_n: max e_n, sum exp(0) = 1)
            step["window"] = {"name": "fixed", "p": [float(n)], "D": 0,
                              "first": n, "last": n,
                              "words": self.words[n - 1:n]}
            step["softmax"] = {"max": [e[n - 1].item()], "sum": [1.0]}
            alpha = torch.zeros(n, dtype=torch.float64)
            alpha[n - 1] = 1.0
            step["weights"] = alpha.tolist()
            return alpha
        if self.window == "global":
            top = torch.max(e)
            step["softmax"] = {"max": [top.item()],
                               "sum": [torch.exp(e - top).sum().item()]}
            alpha = F.softmax(e, dim=0)
            step["weights"] = alpha.tolist()
            return alpha
        D = self.D
        if self.window == "local-m":
            p = torch.tensor(float(min(t, n)), dtype=torch.float64)
        else:
            W_p = self.tensor(self.doc["local-p"]["W_p"])
            v_p = self.tensor(self.doc["local-p"]["v_p"]).reshape(self.H)
            wq = W_p @ q
            th = torch.tanh(wq)
            v = v_p @ th
            sig = torch.sigmoid(v)
            p = 1 + (n - 1) * sig
            step["position"] = {"p": [p.item()], "W_p_q": wq.tolist(),
                                "tanh_W_p_q": th.tolist(),
                                "v_p_tanh": [v.item()],
                                "sigmoid": [sig.item()]}
        centre = int(math.floor(p.item()))
        lo, hi = max(1, centre - D), min(n, centre + D)
        step["window"] = {"name": self.window, "p": [p.item()], "D": D,
                          "first": lo, "last": hi,
                          "words": self.words[lo - 1:hi]}
        sl = e[lo - 1:hi]
        top = torch.max(sl)
        step["softmax"] = {"max": [top.item()],
                           "sum": [torch.exp(sl - top).sum().item()]}
        align = torch.zeros(n, dtype=torch.float64)
        align[lo - 1:hi] = F.softmax(sl, dim=0)
        if self.window == "local-m":
            step["weights"] = align.tolist()
            return align
        sigma = D / 2.0
        j = torch.arange(1, n + 1, dtype=torch.float64)
        gauss = torch.exp(-(j - p) ** 2 / (2 * sigma ** 2))
        inside = torch.zeros(n, dtype=torch.float64)
        inside[lo - 1:hi] = 1.0
        gauss = gauss * inside
        a = align * gauss
        step["align"] = align.tolist()
        step["gaussian"] = {"sigma": [sigma], "factors": gauss.tolist(),
                            "sum": [a.sum().item()]}
        step["weights"] = a.tolist()
        return a

    def linear(self, W, fan_in, fan_out):
        layer = self.torch.nn.Linear(fan_in, fan_out, bias=False).double()
        layer.weight.copy_(self.tensor(W))
        return layer

    def score(self, scorer, s, Hs, prev=None):
        """The scores of s against the rows of Hs, and the parts; prev is
        the last step's weights, alpha_{t-1}."""
        torch = self.torch
        F = torch.nn.functional
        n = Hs.shape[0]
        if scorer == "location-aware":
            # f = F * alpha_{t-1}: torch's conv1d is a cross-correlation;
            # padding=1 puts a zero at each end ("same")
            f = F.conv1d(prev.view(1, 1, n), self.la_F, padding=1)[0].T
            padded = F.pad(prev, (1, 1))
            window = torch.stack([padded[i:i + 3] for i in range(n)])
            terms = [window * self.la_F[c, 0] for c in range(2)]
            w_q = self.la_W(s)
            v_h = self.la_V(Hs)
            u_f = self.la_U(f)
            pre = w_q.expand(n, self.A) + v_h + u_f + self.la_b
            act = torch.tanh(pre)
            return act @ self.la_w, {
                "window": window, "F1_terms": terms[0],
                "F2_terms": terms[1], "f": f, "U_f": u_f,
                "W_a_q": w_q.expand(n, self.A), "U_a_h": v_h, "pre": pre,
                "act": act}
        if scorer == "dot":
            return Hs @ s, {}
        if scorer == "general":
            w_a_h = self.general_W(Hs)                      # n x H
            return w_a_h @ s, {"W_a_h": w_a_h}
        if scorer == "concat":
            pairs = torch.cat([s.expand(n, self.H), Hs], dim=1)  # n x 2H
            pre = self.concat_W(pairs)                      # n x A
            act = torch.tanh(pre)
            return act @ self.concat_v, {"concat": pairs, "pre": pre,
                                         "act": act}
        if scorer == "scaled":
            d = Hs @ s
            return d / math.sqrt(self.H), {"dot": d}
        if scorer == "location":
            return self.location_W[:n] @ s, {}
        if scorer == "additive":
            w_a_q = self.additive_W(s)                      # A
            u_a_h = self.additive_U(Hs)                     # n x A
            pre = w_a_q.expand(n, self.A) + u_a_h
            act = torch.tanh(pre)
            return act @ self.additive_v, {
                "U_a_h": u_a_h, "W_a_q": w_a_q.expand(n, self.A),
                "pre": pre, "act": act}
        raise Mismatch("no torch version of the scorer %r" % scorer)

    def trace(self, scorers, words, target):
        """The trace the program should print, as plain Python values."""
        F = self.torch.nn.functional
        torch = self.torch
        src = [self.src[fold(w)] for w in words]
        self.words = [w for w, _ in src]
        x = torch.stack([e for _, e in src]).unsqueeze(0)       # 1 x n x E
        Hs, last = self.encoder(x, torch.zeros(1, 1, self.H,
                                               dtype=torch.float64))
        Hs = Hs[0]                                              # n x H
        n = len(src)
        out = {
            "embedding_dim": self.E, "hidden_dim": self.H,
            "attention_dim": self.A,
            "source": [w for w, _ in src],
            "vocab": self.vocab,
            "encoder": [{"token": w, "embedding": e.tolist(),
                         "state": Hs[i].tolist()}
                        for i, (w, e) in enumerate(src)],
        }
        if target is not None:
            tgt = [self.tgt[fold(w)][0] for w in target]
            out["target"] = tgt
            out["decoding"] = "teacher-forced"
        else:
            out["decoding"] = "greedy"
            out["max_steps"] = min(2 * n + 2, 100)
        runs = []
        for scorer in scorers:
            run = {"scorer": scorer}
            steps = []
            s = last[0, 0]                                      # s_0 = h_n
            word = "<s>"
            prev = torch.zeros(n, dtype=torch.float64)
            prev[0] = 1.0                           # alpha_0: one-hot
            feed = torch.zeros(self.H, dtype=torch.float64)   # h~_0 = 0
            limit = len(tgt) + 1 if target is not None else out["max_steps"]
            stopped = False
            for t in range(limit):
                y = self.tgt[fold(word)][1]
                x = torch.cat([y, feed]) if self.feeding else y
                s = self.decoder(x.unsqueeze(0), s.unsqueeze(0))[0]
                s = self.override(t + 1, "state", s)
                e, parts = self.score(scorer, s, Hs, prev)
                e = self.override(t + 1, "scores", e)
                win = {}
                alpha = self.override(t + 1, "weights",
                                      self.attend(e, s, t + 1, win))
                win["weights"] = alpha.tolist()
                prev = alpha
                weighted = alpha.unsqueeze(1) * Hs
                c = self.override(t + 1, "context", alpha @ Hs)
                joined = torch.cat([c, s])
                att = torch.tanh(self.W_c(joined))
                logits = self.W_s(att)
                probs = F.softmax(logits, dim=0)
                best = int(torch.argmax(probs))
                # the first of equals, whatever torch's argmax does with ties
                for k in range(len(self.vocab)):
                    if probs[k] == probs[best]:
                        best = k
                        break
                step = {
                    "t": t + 1,
                    "input": self.tgt[fold(word)][0],
                    "state": s.tolist(),
                    "scores": e.tolist(),
                    "weighted": weighted.tolist(),
                    "context": c.tolist(),
                    "concat": joined.tolist(),
                    "attentional": att.tolist(),
                    "output": {"token": self.vocab[best],
                               "logits": logits.tolist(),
                               "probs": probs.tolist()},
                }
                step.update(win)
                if self.feeding:
                    step["feed"] = feed.tolist()
                feed = att
                step["parts"] = dict((k, v.tolist()) for k, v in parts.items())
                steps.append(step)
                if target is not None:
                    word = tgt[t] if t < len(tgt) else None
                else:
                    word = self.vocab[best]
                    if word == "</s>":
                        stopped = True
                        break
            run["output"] = [st["output"]["token"] for st in steps]
            if target is None:
                run["stopped"] = stopped
            run["steps"] = steps
            runs.append(run)
        out["runs"] = runs
        return out


class BahdanauTorch(TorchModel):
    """Bahdanau's architecture ("architecture": "bahdanau" in the model
    JSON): the encoder is one nn.RNN(bidirectional=True) of H/2 units a
    direction, whose output is [forward; backward] at each position; the
    decoder an nn.RNNCell whose input is [y; c], so that its W_ih is
    [W_y W_c] and its W_hh is W_s; s_0 = tanh(W_init <-h_1) and the logits
    W_o [s; c; y], both nn.Linear without bias."""

    def __init__(self, torch, doc):
        nn = torch.nn
        self.torch = torch
        self.doc = doc
        t = self.tensor
        self.E = doc["embedding_dim"]
        self.H = doc["hidden_dim"]
        self.A = doc["attention_dim"]
        self.L = doc.get("positions")
        E, H, A = self.E, self.H, self.A
        D = H // 2
        self.src = dict((fold(w), (w, t(v)))
                        for w, v in doc["source_embeddings"].items())
        self.tgt = dict((fold(w), (w, t(v)))
                        for w, v in doc["target_embeddings"].items())
        self.vocab = list(doc["output"]["vocab"])

        fwd, bwd = doc["forward"], doc["backward"]
        self.encoder = nn.RNN(E, D, num_layers=1, nonlinearity="tanh",
                              bias=True, batch_first=True,
                              bidirectional=True).double()
        self.encoder.weight_ih_l0.copy_(t(fwd["W_x"]))
        self.encoder.weight_hh_l0.copy_(t(fwd["W_h"]))
        self.encoder.bias_ih_l0.copy_(t(fwd["b"]).reshape(D))
        self.encoder.bias_hh_l0.zero_()
        self.encoder.weight_ih_l0_reverse.copy_(t(bwd["W_x"]))
        self.encoder.weight_hh_l0_reverse.copy_(t(bwd["W_h"]))
        self.encoder.bias_ih_l0_reverse.copy_(t(bwd["b"]).reshape(D))
        self.encoder.bias_hh_l0_reverse.zero_()

        dec = doc["decoder"]
        self.W_init = self.linear(dec["W_init"], D, H)
        self.decoder = nn.RNNCell(E + H, H, bias=True,
                                  nonlinearity="tanh").double()
        self.decoder.weight_ih.copy_(torch.cat([t(dec["W_y"]),
                                                t(dec["W_c"])], dim=1))
        self.decoder.weight_hh.copy_(t(dec["W_s"]))
        self.decoder.bias_ih.copy_(t(dec["b"]).reshape(H))
        self.decoder.bias_hh.zero_()
        # the three terms, each alone, for the trace's W_y_y, U_s, C_c
        self.W_y = self.linear(dec["W_y"], E, H)
        self.W_s = self.linear(dec["W_s"], H, H)
        self.W_c = self.linear(dec["W_c"], H, H)
        self.W_o = self.linear(doc["output"]["W_o"], 2 * H + E,
                               len(self.vocab))
        self.scorer_weights(doc)

    def trace(self, scorers, words, target):
        F = self.torch.nn.functional
        torch = self.torch
        H, D = self.H, self.H // 2
        src = [self.src[fold(w)] for w in words]
        self.words = [w for w, _ in src]
        x = torch.stack([e for _, e in src]).unsqueeze(0)       # 1 x n x E
        Hs, _ = self.encoder(x, torch.zeros(2, 1, D, dtype=torch.float64))
        Hs = Hs[0]                                              # n x H
        n = len(src)
        w_init_h = self.W_init(Hs[0, D:])
        s0 = torch.tanh(w_init_h)
        out = {
            "embedding_dim": self.E, "hidden_dim": self.H,
            "attention_dim": self.A, "architecture": "bahdanau",
            "source": [w for w, _ in src],
            "vocab": self.vocab,
            "encoder": [{"token": w, "embedding": e.tolist(),
                         "forward": Hs[i, :D].tolist(),
                         "backward": Hs[i, D:].tolist(),
                         "annotation": Hs[i].tolist()}
                        for i, (w, e) in enumerate(src)],
            "initial": {"state": s0.tolist(), "W_init_h": w_init_h.tolist()},
        }
        if target is not None:
            tgt = [self.tgt[fold(w)][0] for w in target]
            out["target"] = tgt
            out["decoding"] = "teacher-forced"
        else:
            out["decoding"] = "greedy"
            out["max_steps"] = min(2 * n + 2, 100)
        runs = []
        for scorer in scorers:
            steps = []
            s = s0
            word = "<s>"
            prev = torch.zeros(n, dtype=torch.float64)
            prev[0] = 1.0                           # alpha_0: one-hot
            limit = len(tgt) + 1 if target is not None else out["max_steps"]
            stopped = False
            for t in range(limit):
                y = self.tgt[fold(word)][1]
                e, parts = self.score(scorer, s, Hs, prev)      # s_{t-1}
                e = self.override(t + 1, "scores", e)
                win = {}
                alpha = self.override(t + 1, "weights",
                                      self.attend(e, s, t + 1, win))
                win["weights"] = alpha.tolist()
                prev = alpha
                weighted = alpha.unsqueeze(1) * Hs
                c = self.override(t + 1, "context", alpha @ Hs)
                s_new = self.decoder(torch.cat([y, c]).unsqueeze(0),
                                     s.unsqueeze(0))[0]
                s_new = self.override(t + 1, "state", s_new)
                joined = torch.cat([s_new, c, y])
                logits = self.W_o(joined)
                probs = F.softmax(logits, dim=0)
                best = int(torch.argmax(probs))
                for k in range(len(self.vocab)):
                    if probs[k] == probs[best]:
                        best = k
                        break
                wy, ws, wc = self.W_y(y), self.W_s(s), self.W_c(c)
                step = {
                    "t": t + 1,
                    "input": self.tgt[fold(word)][0],
                    "query": s.tolist(),
                    "scores": e.tolist(),
                    "weighted": weighted.tolist(),
                    "context": c.tolist(),
                    "state": s_new.tolist(),
                    "W_y_y": wy.tolist(), "U_s": ws.tolist(),
                    "C_c": wc.tolist(),
                    "pre": (wy + ws + wc + self.decoder.bias_ih).tolist(),
                    "concat": joined.tolist(),
                    "output": {"token": self.vocab[best],
                               "logits": logits.tolist(),
                               "probs": probs.tolist()},
                }
                step.update(win)
                step["parts"] = dict((k, v.tolist()) for k, v in parts.items())
                steps.append(step)
                s = s_new
                if target is not None:
                    word = tgt[t] if t < len(tgt) else None
                else:
                    word = self.vocab[best]
                    if word == "</s>":
                        stopped = True
                        break
            run = {"scorer": scorer,
                   "output": [st["output"]["token"] for st in steps]}
            if target is None:
                run["stopped"] = stopped
            run["steps"] = steps
            runs.append(run)
        out["runs"] = runs
        return out


def check_trace(got, want):
    """The program's trace against the torch one; "parts" must hold exactly
    the expected keys and be absent when there are none, "target" and
    "max_steps" only where they belong."""
    for key in ("target", "max_steps"):
        if key not in want and key in got:
            raise Mismatch("$.%s: program has %s, expected none"
                           % (key, show(got[key])))
    if got.get("format") != "attn-trace-trace/3":
        raise Mismatch("$.format: program %s" % show(got.get("format")))
    runs = want["runs"]
    if not isinstance(got.get("runs"), list):
        raise Mismatch("$.runs: missing in the program's output")
    names = [r.get("scorer") for r in got["runs"]]
    if names != [r["scorer"] for r in runs]:
        raise Mismatch("$.runs: program runs the scorers %s, expected %s"
                       % (show(names), show([r["scorer"] for r in runs])))
    for r, run in enumerate(runs):
        gsteps = got["runs"][r].get("steps")
        if not isinstance(gsteps, list):
            raise Mismatch("$.runs[%d].steps: missing" % r)
        for k, step in enumerate(run["steps"]):
            if k >= len(gsteps):
                break  # the length is reported by expect() below
            path = "$.runs[%d].steps[%d].parts" % (r, k)
            parts = step.pop("parts")
            if not parts:
                if "parts" in gsteps[k]:
                    raise Mismatch("%s: program has %s, expected none"
                                   % (path, show(gsteps[k]["parts"])))
            else:
                if "parts" not in gsteps[k]:
                    raise Mismatch("%s: missing in the program's output" % path)
                expect_keys(gsteps[k]["parts"], list(parts), path)
                expect(gsteps[k]["parts"], parts, path)
    expect(got, want, "$")


# ---------------------------------------------------------------- the cases

def cases_for(model):
    """(words, target words or None) to trace."""
    src_known = all(fold(w) in model.src for s, _ in TOY_INPUTS
                    for w in s.split())
    tgt_known = all(fold(w) in model.tgt for _, t in TOY_INPUTS if t
                    for w in t.split())
    if src_known and tgt_known:
        return [(s.split(), t.split() if t else None) for s, t in TOY_INPUTS]
    src = [w for w, _ in model.src.values()][:5]
    tgt = [w for w, _ in model.tgt.values()
           if w not in ("<s>", "</s>")][:4]
    out = []
    for words in (src, src[::-1], src[:1]):
        out.append((words, None))
        if tgt:
            out.append((words, tgt))
    return out


def long_sentence(model):
    """L + 1 words, the source words over again: too long for location."""
    words = [w for w, _ in model.src.values()]
    return [words[k % len(words)] for k in range(model.L + 1)]


def case_name(scorer, words, target):
    name = "%s: %s" % (scorer, " ".join(words))
    if target is not None:
        name += " -> %s" % " ".join(target)
    return name


def check_model_file(doc, path):
    """The model JSON against the model file, read by tests/ref/attn_ref.py
    (a reader written from doc/model-format.md, independent of the C)."""
    sys.dont_write_bytecode = True
    sys.path.insert(0, os.path.join(HERE, "ref"))
    try:
        import attn_ref
        m = attn_ref.load_model(path)
    except Exception as exc:  # the reference cannot read the file
        raise Mismatch("the reference reader refuses %s: %s" % (path, exc))
    want = {
        "embedding_dim": m.E, "hidden_dim": m.H, "attention_dim": m.A,
        "source_embeddings": dict(zip(m.src.words, m.src.emb)),
        "target_embeddings": dict(zip(m.tgt.words, m.tgt.emb)),
    }
    if m.arch == "bahdanau":
        want.update({
            "architecture": "bahdanau",
            "forward": {"W_x": m.forward_W_x, "W_h": m.forward_W_h,
                        "b": m.forward_b[0]},
            "backward": {"W_x": m.backward_W_x, "W_h": m.backward_W_h,
                         "b": m.backward_b[0]},
            "decoder": {"W_init": m.decoder_W_init, "W_y": m.decoder_W_y,
                        "W_s": m.decoder_W_s, "W_c": m.decoder_W_c,
                        "b": m.decoder_b[0]},
            "output": {"W_o": m.output_W_o, "vocab": m.tgt.words},
        })
    else:
        if "architecture" in doc:
            raise Mismatch("$.architecture: program has %s, the file none"
                           % show(doc["architecture"]))
        want.update({
            "encoder": {"W_x": m.encoder_W_x, "W_h": m.encoder_W_h,
                        "b": m.encoder_b[0]},
            "decoder": {"W_x": m.decoder_W_x, "W_h": m.decoder_W_h,
                        "b": m.decoder_b[0]},
            "output": {"W_c": m.output_W_c, "W_s": m.output_W_s,
                       "vocab": m.tgt.words},
        })
    if "general" in m.scorers:
        want["general"] = {"W": m.general_W}
    if "concat" in m.scorers:
        want["concat"] = {"W": m.concat_W, "v": m.concat_v[0]}
    if "location" in m.scorers:
        want["location"] = {"W": m.location_W}
    if "additive" in m.scorers:
        want["additive"] = {"W": m.additive_W, "U": m.additive_U,
                            "v": m.additive_v[0]}
    if "location-aware" in m.scorers:
        want["location-aware"] = {
            "W": m.location_aware_W, "V": m.location_aware_V,
            "U": m.location_aware_U, "b": m.location_aware_b[0],
            "w": m.location_aware_w[0], "F": m.location_aware_F}
    if m.feeding:
        want["input_feeding"] = True
    elif "input_feeding" in doc:
        raise Mismatch("$.input_feeding: program has %s, the file none"
                       % show(doc["input_feeding"]))
    if hasattr(m, "local_p_W_p"):
        want["local-p"] = {"W_p": m.local_p_W_p, "v_p": m.local_p_v_p[0]}
    if m.L is not None:
        want["positions"] = m.L
    for key in ("general", "concat", "location", "additive",
                "location-aware", "positions", "local-p"):
        if key not in want and key in doc:
            raise Mismatch("$.%s: program has %s, but the file has none"
                           % (key, show(doc[key])))
    for key in ("source_embeddings", "target_embeddings"):
        if list(doc.get(key, {})) != list(want[key]):
            raise Mismatch("$.%s: program has the words %s, the file %s"
                           % (key, show(list(doc.get(key, {}))),
                              show(list(want[key]))))
    expect(doc, want, "$", "the file")


# the windows TorchModel.attend has a reference for
TORCH_WINDOWS = ("global", "local-m", "local-p", "fixed")


def read_registry(binary):
    """Sets SCORERS and WINDOWS from the registries of the program
    binary."""
    global SCORERS, WINDOWS
    sys.dont_write_bytecode = True  # no __pycache__ in the source tree
    import registry
    SCORERS = tuple(registry.scorers(binary))
    WINDOWS = tuple(registry.windows(binary))


def main(argv):
    if len(argv) not in (2, 3):
        sys.stderr.write("usage: torch_check.py BINARY MODEL [WINDOW:D,..]\n")
        return 2
    binary, model_path = argv[:2]
    # the windows to check, each with its half-width: "local-p:1,local-m:2"
    windows = [("global", 1)]
    if len(argv) == 3:
        windows = [(w.split(":")[0], int(w.split(":")[1]))
                   for w in argv[2].split(",")]
    sys.stdout.reconfigure(encoding="utf-8")
    try:
        import torch
    except Exception as exc:  # ImportError, or a broken installation
        print("skip: torch cannot be imported: %s" % exc)
        return 77
    if not os.path.exists(binary):
        print("skip: %s does not exist" % binary)
        return 77
    torch.set_grad_enabled(False)
    passed = failed = 0
    read_registry(binary)

    def report(name, exc):
        nonlocal passed, failed
        if exc is None:
            passed += 1
            print("ok %s" % name)
        else:
            failed += 1
            print("FAIL %s: %s" % (name, exc))

    name = "model: %s" % model_path
    try:
        doc = run_json([binary, "model", "--format=json",
                        "--model=" + model_path])
        check_model_file(doc, model_path)
        if doc.get("architecture") == "bahdanau":
            model = BahdanauTorch(torch, doc)
        else:
            model = TorchModel(torch, doc)
    except (Mismatch, KeyError, TypeError, ValueError, RuntimeError) as exc:
        if isinstance(exc, KeyError):
            exc = "model JSON lacks the key %s" % exc
        report(name, exc)
        print("%d passed, %d failed" % (passed, failed))
        return 1
    report(name, None)
    for sc, _ in SCORERS:
        if sc not in TORCH_SCORERS:
            report("scorer %s" % sc, "the program's registry has it, and "
                   "tests/torch_check.py has no reference for it")
    for wd in WINDOWS:
        if wd not in TORCH_WINDOWS:
            report("window %s" % wd, "the program's registry has it, and "
                   "tests/torch_check.py has no reference for it")
    for wd, _ in windows:
        if wd not in WINDOWS:
            report("window %s" % wd, "asked for, and not in the "
                   "program's registry")

    cases = cases_for(model)
    if "location" in model.supported:
        cases.append((long_sentence(model), None))
    for words, target in cases:
        runnable = [sc for sc in model.supported if sc in TORCH_SCORERS
                    and (sc != "location" or len(words) <= model.L)]
        # --scorer=all runs every supported scorer that can take the
        # sentence
        tries = [(sc, [sc]) for sc in runnable] + [("all", runnable)]
        if "location" in model.supported and "location" not in runnable:
            name = case_name("location", words, target) + " refused"
            argv = [binary, "trace", "--model=" + model_path,
                    "--format=json", "--scorer=location", " ".join(words)]
            try:
                proc = subprocess.run(argv, stdout=subprocess.PIPE,
                                      stderr=subprocess.PIPE, timeout=TIMEOUT)
                if proc.returncode == 0:
                    raise Mismatch("the program traced %d words with %d "
                                   "positions" % (len(words), model.L))
                if not proc.stderr.strip():
                    raise Mismatch("refused (status %d) without a message"
                                   % proc.returncode)
            except (Mismatch, OSError, subprocess.TimeoutExpired) as exc:
                report(name, exc)
            else:
                report(name, None)
        for (window, D), (scorer, scorers) in [(wd, tr) for wd in windows
                                               for tr in tries]:
            model.window, model.D = window, D
            name = case_name(scorer, words, target)
            argv = [binary, "trace", "--model=" + model_path,
                    "--format=json", "--scorer=" + scorer]
            if window != "global":
                name += " (%s, D = %d)" % (window, D)
                argv += ["--window=" + window, "--window-size=%d" % D]
            if target is not None:
                argv.append("--target=" + " ".join(target))
            argv.append(" ".join(words))
            try:
                got = run_json(argv)
                want = model.trace(scorers, words, target)
                check_trace(got, want)
            except (Mismatch, KeyError, RuntimeError) as exc:
                report(name, exc)
                continue
            report(name, None)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
