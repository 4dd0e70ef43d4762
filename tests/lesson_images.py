#!/usr/bin/python3
# lesson_images.py LESSON PLAIN JSON: tests/lesson-images.sh's check of
# lesson 21 (LESSON 21, JSON from attn-trace caption) or 22 (JSON from
# attn-trace glimpse): each number PLAIN (lesson --plain) shows is found
# by the sentence around it and compared, at the decimals shown, with the
# value worked out here by the formula from the trace's inputs.  Prints
# "ok - ..." for each and "not ok - ..." for each that differs.
import json, math, re, sys

text = re.sub(r"\s+", " ", open(sys.argv[2], encoding="utf-8").read())
d = json.load(open(sys.argv[3]))
bad = []


def num(pat):
    m = re.search(pat, text)
    if not m:
        bad.append("not found: " + pat)
        return [float("nan")] * 8
    return [float(x) for x in m.groups()]


def same(what, shown, want, dec=4):
    if "%.*f" % (dec, want) != "%.*f" % (dec, shown):
        bad.append("%s: the lesson shows %.*f, worked out %.*f"
                   % (what, dec, shown, dec, want))
    else:
        print("ok - %s = %.*f" % (what, dec, shown))


def lesson21():
    run = d["runs"][0]
    H = [c["annotation"] for c in d["encoder"]]
    def softmax(v):
        m = max(v)
        e = [math.exp(x - m) for x in v]
        return [x / sum(e) for x in e]
    def step(t):
        return run["steps"][t - 1]
    # the scores are s_{t-1}·h_i, by hand from the query and the annotations
    def scores(t):
        q = step(t)["query"]
        q = q["value"] if isinstance(q, dict) else q
        return [sum(a * b for a, b in zip(q, h)) for h in H]
    for t in (2, 5, 6):
        e = scores(t)
        for a, b in zip(e, step(t)["scores"]):
            if abs(a - b) > 1e-9:
                bad.append("e_%d: the trace's scores are not s·h_i" % t)
    alpha = {t: softmax(scores(t)) for t in (2, 5, 6)}
    e5 = scores(5)
    same("e_5,3", num(r"Its query s_4 gives cell 3 the score (-?[0-9]+\.[0-9]+)")[0], e5[2])
    same("e_5,9", num(r"the lowest, (-?[0-9]+\.[0-9]+), goes to cell 9")[0], e5[8])
    if max(range(9), key=lambda i: e5[i]) != 2 or min(range(9), key=lambda i: e5[i]) != 8:
        bad.append("e_5: cell 3 is not the largest or cell 9 not the smallest")
    same("α_5,3", num(r"Step 5 puts ([0-9]+\.[0-9]+) of its attention on cell 3")[0],
         alpha[5][2])
    same("α_6,3", num(r"looks there again, with ([0-9]+\.[0-9]+)\.")[0], alpha[6][2])
    a2 = num(r"cell 3 gets only ([0-9]+\.[0-9]+), and the middle and right cells "
             r"([0-9]+\.[0-9]+) and ([0-9]+\.[0-9]+)\.")
    same("α_2,3", a2[0], alpha[2][2])
    same("α_2,5", a2[1], alpha[2][4])
    same("α_2,6", a2[2], alpha[2][5])
    for t in (5, 6):
        if max(range(9), key=lambda i: alpha[t][i]) != 2:
            bad.append("α_%d's largest is not cell 3, top-right" % t)
    vocab = d["vocab"]["target"] if isinstance(d["vocab"], dict) else d["vocab"]
    p5 = softmax(step(5)["output"]["logits"])
    same("ŷ_5[top]", num(r'writes "top" with probability ([0-9]+\.[0-9]+)')[0],
         p5[vocab.index("top")])
    h3 = num(r"h_3 = \[(-?[0-9]+\.[0-9]+), (-?[0-9]+\.[0-9]+), \.\.\.\]")
    same("h_3[1]", h3[0], H[2][0])
    same("h_3[2]", h3[1], H[2][1])
    same("h_3[4]", num(r"h_3\[4\] = (-?[0-9]+\.[0-9]+)\.")[0], H[2][3])
    hbar4 = sum(h[3] for h in H) / 9
    c5 = [sum(alpha[5][i] * H[i][k] for i in range(9)) for k in range(4)]
    m = num(r"h̄, has (-?[0-9]+\.[0-9]+) there; c_5, with ([0-9]+\.[0-9]+) on cell 3, has "
            r"(-?[0-9]+\.[0-9]+):")
    same("h̄[4]", m[0], hbar4)
    same("α_5,3 (the context page)", m[1], alpha[5][2])
    same("c_5[4]", m[2], c5[3])
    same("the quiz's answer α_6,3", num(r"\(answer: α_6,3 = ([0-9]+\.[0-9]+)\)")[0],
         alpha[6][2])
    if "(prediction: argmax(α_5) = top-right)" not in text:
        bad.append("the prediction's answer is not top-right")


def lesson22():
    st = d["steps"]
    sg = d["sigma"]
    # Box-Muller, the place and the Gaussian's log-density, by hand from u
    def draw(t):
        u = st[t - 1]["u"]
        r = math.sqrt(-2 * math.log(1 - u[0]))
        eps = [r * math.cos(2 * math.pi * u[1]), r * math.sin(2 * math.pi * u[1])]
        lh = st[t - 1]["l_hat"]
        l = [lh[k] + sg * eps[k] for k in range(2)]
        lp = -(eps[0] ** 2 + eps[1] ** 2) / 2 - 2 * math.log(sg) - math.log(2 * math.pi)
        return u, eps, l, lp
    lh1 = num(r"l̂_1 = tanh\(b_l\) = \[(-?[0-9]+\.[0-9]+), (-?[0-9]+\.[0-9]+)\]")
    same("l̂_1[1]", lh1[0], st[0]["l_hat"][0])
    same("l̂_1[2]", lh1[1], st[0]["l_hat"][1])
    u, eps, l, lp = draw(1)
    m = num(r"u_1 = \[([0-9]+\.[0-9]+), ([0-9]+\.[0-9]+)\] gives ε_1 = \[(-?[0-9]+\.[0-9]+), "
            r"(-?[0-9]+\.[0-9]+)\] and l_1 = \[(-?[0-9]+\.[0-9]+), (-?[0-9]+\.[0-9]+)\]")
    for k, (what, want) in enumerate([("u_1[1]", u[0]), ("u_1[2]", u[1]),
                                      ("ε_1[1]", eps[0]), ("ε_1[2]", eps[1]),
                                      ("l_1[1]", l[0]), ("l_1[2]", l[1])]):
        same(what, m[k], want)
    same("log π_1", num(r"log π\(l_1 \| l̂_1\) = (-?[0-9]+\.[0-9]+):")[0], lp)
    same("σ", num(r"with spread σ = ([0-9]+\.[0-9]+):")[0], sg, 2)
    f1 = num(r"its fovea reads ([0-9]+\.[0-9]+) and ([0-9]+\.[0-9]+), the bar's pixels")
    same("ρ_1[1]", f1[0], st[0]["fovea"][0])
    same("ρ_1[3]", f1[1], st[0]["fovea"][2])
    # on the bar: column 2 (from 1) is the bar's, 0.6 in the image
    pix = d["pixels"]
    if not (st[0]["fovea"][0] == pix[2][1] == st[0]["fovea"][2] == pix[3][1] > 0.5):
        bad.append("glimpse 1's fovea is not on the bar (column 2)")
    lh2 = num(r"l̂_2 = \[(-?[0-9]+\.[0-9]+), (-?[0-9]+\.[0-9]+)\], toward")
    same("l̂_2[1]", lh2[0], st[1]["l_hat"][0])
    same("l̂_2[2]", lh2[1], st[1]["l_hat"][1])
    f3 = num(r"its fovea reading ([0-9]+\.[0-9]+) and ([0-9]+\.[0-9]+)\. From h_3")
    same("ρ_3[2]", f3[0], st[2]["fovea"][1])
    same("ρ_3[4]", f3[1], st[2]["fovea"][3])
    if max(st[1]["fovea"] + st[1]["periphery"]) >= 0.5:
        bad.append("glimpse 2's retina reads the bar, the prediction says no")
    if "(prediction: max(ρ_2) > 0.5? no)" not in text:
        bad.append("the prediction on glimpse 2 is not 'no'")
    z = d["z"]
    e = [math.exp(x - max(z)) for x in z]
    p = [x / sum(e) for x in e]
    m = num(r"the bar gets ([0-9]+\.[0-9]+), the dot ([0-9]+\.[0-9]+) and the box ([0-9]+\.[0-9]+)\.")
    for k, c in enumerate(("bar", "dot", "box")):
        same("p[%s]" % c, m[k], p[d["classes"].index(c)])
    if d["classes"][max(range(len(p)), key=lambda k: p[k])] != "bar" or d["reward"] != 1:
        bad.append("the class is not bar, or R is not 1")
    g = num(r"\(l_1 - l̂_1\)/σ² = \[(-?[0-9]+\.[0-9]+), (-?[0-9]+\.[0-9]+)\]")
    same("∂ log π / ∂ l̂_1[1]", g[0], (l[0] - st[0]["l_hat"][0]) / sg ** 2)
    same("∂ log π / ∂ l̂_1[2]", g[1], (l[1] - st[0]["l_hat"][1]) / sg ** 2)
    m = num(r"R̄_1 = ([0-9]+\.[0-9]+), so δ_1 = (-?[0-9]+\.[0-9]+):")
    same("R̄_1", m[0], d["baseline"][0])
    same("δ_1 = R - R̄_1", m[1], d["reward"] - d["baseline"][0])
    same("δ_1 if wrong, -R̄_1", -num(r"would give δ_1 = -([0-9]+\.[0-9]+):")[0],
         0 - d["baseline"][0])
    u3, eps3, l3, _ = draw(3)
    m = num(r"l̂_3 = \[(-?[0-9]+\.[0-9]+), (-?[0-9]+\.[0-9]+)\], and its draw is ε_3 = "
            r"\[(-?[0-9]+\.[0-9]+), (-?[0-9]+\.[0-9]+)\]")
    same("l̂_3[1]", m[0], st[2]["l_hat"][0])
    same("ε_3[1]", m[2], eps3[0])
    same("the answer l_3[1]", num(r"\(prediction: l_3\[1\] = (-?[0-9]+\.[0-9]+)\)")[0],
         l3[0], 2)


lesson21() if sys.argv[1] == "21" else lesson22()
for b in bad:
    print("not ok - " + b)
