/* notation.c: the one table of symbols (notation.h), and the scanner
 * that finds them in printed text. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "i18n.h"
#include "notation.h"
#include "utf8.h"

#define S NOTATION_SYMBOL
#define F NOTATION_FUNCTION
#define I NOTATION_INDEX

/* One row a symbol, in the order doc/notation.md lists them: the
 * sequence-to-sequence model, the scorers, the local windows, hard
 * attention, glimpses, self-attention; then the functions and the indices.  A
 * base is never repeated: one symbol, one meaning. */
const struct notation_entry notation_table[] = {
	/* the encoder and the decoder */
	{ "x_i", "x", 1, S, N_("source embedding"),
	  N_("the embedding of source word i (a row of X in self-attention)") },
	{ "y_t", "y", 1, S, N_("target embedding"),
	  N_("the embedding of target word t; step t reads y_{t-1}, and y_0 is "
	  "the start word's; "
	  "in cross-attention the query words' rows") },
	{ "h_i", "h", 1, S, N_("encoder state"),
	  N_("the encoder's state at source word i (Bahdanau's annotation "
	  "[→h_i; ←h_i]); in a glimpse model, the core RNN's state h_t after "
	  "glimpse t, which reads the glimpses as an encoder reads words") },
	{ "→h_i", "→h", 1, S, N_("forward state"),
	  N_("the forward encoder RNN's state at word i (Bahdanau's)") },
	{ "←h_i", "←h", 1, S, N_("backward state"),
	  N_("the backward encoder RNN's state at word i (Bahdanau's)") },
	{ "s_t", "s", 1, S, N_("decoder state"),
	  N_("the decoder's state after step t; s_0 is its first") },
	{ "E", "E", 0, S, N_("embedding size"),
	  N_("the number of entries of x_i and y_t") },
	{ "H", "H", 0, S, N_("hidden size"),
	  N_("the number of entries of h_i and s_t") },
	{ "W_x", "W_x", 0, S, N_("input matrix"),
	  N_("the RNN's matrix applied to the word it reads (the glimpse "
	  "core's, to φ_t)") },
	{ "W_h", "W_h", 0, S, N_("recurrent matrix"),
	  N_("the RNN's matrix applied to its state before (Luong's RNNs, the "
	  "glimpse core)") },
	{ "b", "b", 0, S, N_("bias"), N_("an RNN's bias vector") },
	{ "W_x^f", "W_x^f", 0, S, N_("forward input matrix"),
	  N_("W_x of the forward encoder RNN") },
	{ "W_h^f", "W_h^f", 0, S, N_("forward recurrent matrix"),
	  N_("W_h of the forward encoder RNN") },
	{ "b^f", "b^f", 0, S, N_("forward bias"), N_("b of the forward encoder RNN") },
	{ "W_x^b", "W_x^b", 0, S, N_("backward input matrix"),
	  N_("W_x of the backward encoder RNN") },
	{ "W_h^b", "W_h^b", 0, S, N_("backward recurrent matrix"),
	  N_("W_h of the backward encoder RNN") },
	{ "b^b", "b^b", 0, S, N_("backward bias"),
	  N_("b of the backward encoder RNN") },
	{ "W_init", "W_init", 0, S, N_("initial-state matrix"),
	  N_("Bahdanau's s_0 = tanh(W_init·←h_1); over an image, "
	  "s_0 = tanh(W_init·h̄)") },
	{ "W_y", "W_y", 0, S, N_("embedding matrix"),
	  N_("Bahdanau's decoder RNN: the matrix applied to y_{t-1}") },
	{ "U", "U", 0, S, N_("decoder recurrent matrix"),
	  N_("Bahdanau's decoder RNN: the matrix applied to s_{t-1} "
	  "(Bahdanau et al. 2015 call it U)") },
	{ "C", "C", 0, S, N_("context matrix"),
	  N_("Bahdanau's decoder RNN: the matrix applied to c_t "
	  "(Bahdanau et al. 2015 call it C)") },
	/* attention */
	{ "q", "q", 1, S, N_("query"),
	  N_("what a step scores the encoder states with: s_t in Luong's "
	  "architecture, s_{t-1} in Bahdanau's; q_i, query i in "
	  "self-attention") },
	{ "e_t,i", "e", 1, S, N_("score"),
	  N_("how well h_i matches the query at step t; e_t, all n of them; "
	  "e_i,j in self-attention") },
	{ "α_t,i", "α", 1, S, N_("attention weight"),
	  N_("softmax(e_t) at i: the share of h_i in c_t; α_t, all n") },
	{ "c_t", "c", 1, S, N_("context vector"),
	  N_("Σ_i α_t,i·h_i, the blend of the encoder states at step t") },
	{ "h̃_t", "h̃", 1, S, N_("attentional state"),
	  N_("Luong's tanh(W_c·[c_t; s_t]), what the output layer reads") },
	{ "W_c", "W_c", 0, S, N_("attentional layer"),
	  N_("Luong's matrix that makes h̃_t from [c_t; s_t]") },
	{ "W_s", "W_s", 0, S, N_("output layer"),
	  N_("Luong's matrix that makes the logits from h̃_t") },
	{ "W_o", "W_o", 0, S, N_("readout"),
	  N_("Bahdanau's matrix that makes the logits from [s_t; c_t; y_{t-1}]; "
	  "a glimpse model's classifier, from h_T (its file's [W_c])") },
	{ "b_o", "b_o", 0, S, N_("readout bias"),
	  N_("a glimpse model's classifier's bias (its file's [b_c])") },
	{ "ŷ_t", "ŷ", 1, S, N_("output distribution"),
	  N_("softmax of the logits: step t's probability of each target word; "
	  "a glimpse model's ŷ[class], after its last glimpse") },
	{ "P", "P", 0, F, N_("probability"),
	  N_("P(y_t | l): the probability the model gives word y_t; P = ..., "
	  "the output word's") },
	/* the scorers' weights */
	{ "W_a", "W_a", 0, S, N_("scorer matrix"),
	  N_("a scorer's matrix (general, concat, additive and location-aware "
	  "each have their own)") },
	{ "U_a", "U_a", 0, S, N_("scorer key matrix"),
	  N_("the additive and location-aware scorers' matrix applied to h_i") },
	{ "v_a", "v_a", 0, S, N_("scorer vector"),
	  N_("the concat, additive and location-aware scorers' last vector") },
	{ "b_a", "b_a", 0, S, N_("scorer bias"), N_("the location-aware scorer's bias") },
	{ "d_a", "d_a", 0, S, N_("attention size"),
	  N_("the width of a scorer's layer, the rows of its W_a (a model's "
	  "'attention' size)") },
	{ "W_loc", "W_loc", 0, S, N_("position scores"),
	  N_("the location scorer's matrix: row i scores position i") },
	{ "d", "d", 0, S, N_("state size"),
	  N_("the size of the vectors a dot product compares (√d scales)") },
	{ "f_t,i", "f", 1, S, N_("location features"),
	  N_("what the location-aware scorer's filters see of α_{t-1} around i") },
	{ "F_c", "F", 1, S, N_("filter"),
	  N_("the location-aware scorer's filters, F_1 and F_2") },
	{ "U_f", "U_f", 0, S, N_("feature matrix"),
	  N_("the location-aware scorer's matrix applied to f_t,i") },
	/* the local windows */
	{ "p_t", "p", 1, S, N_("aligned position"),
	  N_("the learnt source position that local-p's Gaussian is centred on; "
	  "the window is counted from ⌊p_t⌋") },
	{ "D", "D", 0, S, N_("half-width"),
	  N_("a local window's half-width: ⌊p_t⌋ - D .. ⌊p_t⌋ + D") },
	{ "window_t", "window", 1, S, N_("window"),
	  N_("the source positions step t's local window covers") },
	{ "W_p", "W_p", 0, S, N_("position matrix"),
	  N_("local-p's matrix in p_t = 1 + (n-1)·sigmoid(v_p·tanh(W_p·q))") },
	{ "v_p", "v_p", 0, S, N_("position vector"), N_("local-p's vector in p_t") },
	/* attention over an image (attn-trace caption) */
	{ "patch_i", "patch", 1, S, N_("patch"),
	  N_("the pixels of cell i of an image, row by row (its 2×2 patch)") },
	{ "W_patch", "W_patch", 0, S, N_("patch matrix"),
	  N_("the patch encoder's matrix applied to a patch's pixels") },
	{ "b_patch", "b_patch", 0, S, N_("patch bias"),
	  N_("the patch encoder's bias") },
	{ "pos_i", "pos", 1, S, N_("position embedding"),
	  N_("the patch encoder's learnt row for cell i's place, added before "
	  "tanh (row i of the model's [patch.P])") },
	{ "h̄", "h̄", 0, S, N_("mean annotation"),
	  N_("the mean of the cells' annotations h_i; s_0 = tanh(W_init·h̄)") },
	{ "σ", "σ", 0, S, N_("Gaussian width"),
	  N_("a Gaussian's standard deviation: local-p's σ = D/2; a glimpse "
	  "model's, around l̂_t") },
	{ "align_t,j", "align", 1, S, N_("alignment"),
	  N_("local-p: the softmax weight of j in the window, before the "
	  "Gaussian") },
	{ "a_t,j", "a", 1, S, N_("local-p weight"),
	  N_("local-p's align_t,j·exp(-(j - p_t)²/(2σ²)); they sum to less "
	  "than 1") },
	/* hard attention */
	{ "u_t", "u", 1, S, N_("uniform draw"),
	  N_("hard attention's draw from [0, 1) at step t (a glimpse's two, "
	  "u_1 and u_2)") },
	{ "l", "l", 1, S, N_("chosen position"),
	  N_("the source position hard attention takes: c_t = h_l; a glimpse "
	  "model's place l_t = l̂_t + σ·ε_t, (row, column) in [-1, 1]²") },
	{ "cumsum_t", "cumsum", 1, S, N_("cumulative sums"),
	  N_("the running sums of the weights that u_t is compared with") },
	{ "π_t", "π", 1, S, N_("normalised weights"),
	  N_("a_t / Σ_j a_t,j, what hard local-p draws from; a glimpse "
	  "model's Gaussian π(l_t | l̂_t)") },
	{ "c^soft_t", "c^soft", 1, S, N_("soft context"),
	  N_("Σ_i α_t,i·h_i, the context hard attention replaces by h_l") },
	{ "R", "R", 1, S, N_("reward"),
	  N_("log P(y_t | l), REINFORCE's learning signal; R_m, draw m's; a "
	  "glimpse model's: 1 if the class is right, else 0") },
	{ "R̄", "R̄", 1, S, N_("baseline"),
	  N_("the running mean of R: R̄ ← 0.9·R̄ + 0.1·R after each step; "
	  "a glimpse model's R̄_t, learnt for glimpse t (its file's "
	  "[baseline])") },
	{ "λ_r", "λ_r", 0, S, N_("reward weight"),
	  N_("the weight of the score-function term (1 in a glimpse model)") },
	{ "λ_e", "λ_e", 0, S, N_("entropy weight"),
	  N_("the weight of the entropy term") },
	{ "g_t", "g", 1, S, N_("learning signal"),
	  N_("the gradient REINFORCE puts on step t's scores") },
	{ "ĝ_t", "ĝ", 1, S, N_("Monte Carlo estimate"),
	  N_("g_t estimated from N draws") },
	{ "N", "N", 0, S, N_("draws"), N_("the number of Monte Carlo draws") },
	{ "gap_t", "gap", 1, S, N_("Jensen gap"),
	  N_("log Σ_l α_t,l·P(y_t | l) - E_α[log P(y_t | l)], never below 0") },
	{ "L_t", "L", 1, S, N_("loss of step t"),
	  N_("-log ŷ_t[y_t], the cross-entropy of step t's target word, whose "
	  "gradient paths to each h_i trace --gradient-paths shows") },
	/* glimpses (attn-trace glimpse) */
	{ "T", "T", 0, S, N_("glimpses"), N_("the number of glimpses a glimpse "
	  "model takes") },
	{ "l̂_t", "l̂", 1, S, N_("proposed place"),
	  N_("tanh(W_l·h_{t-1} + b_l), where the policy points for glimpse t") },
	{ "W_l", "W_l", 0, S, N_("location matrix"),
	  N_("the location network's matrix applied to h_{t-1}") },
	{ "b_l", "b_l", 0, S, N_("location bias"),
	  N_("the location network's bias; l̂_1 = tanh(b_l)") },
	{ "ε_t", "ε", 1, S, N_("normal draw"),
	  N_("two standard normal numbers from u_t by Box-Muller") },
	{ "ρ_t", "ρ", 1, S, N_("retina"),
	  N_("what glimpse t sees: the fovea ρ_1..4, the periphery ρ_5..8") },
	{ "W_g", "W_g", 0, S, N_("glimpse matrix"),
	  N_("the glimpse network's matrix applied to [ρ_t; l_t]") },
	{ "b_g", "b_g", 0, S, N_("glimpse bias"), N_("the glimpse network's bias") },
	{ "φ_t", "φ", 1, S, N_("glimpse vector"),
	  N_("tanh(W_g·[ρ_t; l_t] + b_g), what the core reads of glimpse t") },
	{ "b_h", "b_h", 0, S, N_("core bias"), N_("the glimpse core RNN's bias") },
	{ "δ_t", "δ", 1, S, N_("advantage"),
	  N_("R - R̄_t, how much glimpse t's run paid above its baseline") },
	/* self-attention */
	{ "X", "X", 1, S, N_("inputs"),
	  N_("self-attention's rows x_i = emb(w_i) + PE(i-1); X_q, the "
	  "queries' in cross-attention") },
	{ "Q", "Q", 1, S, N_("queries"),
	  N_("the rows q_i = W_Q·x_i; Q_h, head h's features of them") },
	{ "K", "K", 1, S, N_("keys"),
	  N_("the rows k_j = W_K·x_j; K_h, head h's features of them") },
	{ "V", "V", 1, S, N_("values"),
	  N_("the rows v_j = W_V·x_j; V_h, head h's features of them") },
	{ "k_j", "k", 1, S, N_("key"), N_("word j's key, a row of K") },
	{ "v_j", "v", 1, S, N_("value"), N_("word j's value, a row of V") },
	{ "W_Q", "W_Q", 1, S, N_("query matrix"), N_("makes Q from X") },
	{ "W_K", "W_K", 1, S, N_("key matrix"), N_("makes K from X") },
	{ "W_V", "W_V", 1, S, N_("value matrix"), N_("makes V from X") },
	{ "W_O", "W_O", 1, S, N_("output projection"),
	  N_("mixes the heads: o_i = W_O·z_i") },
	{ "d_k", "d_k", 0, S, N_("head size"),
	  N_("the features of each head (d_v = d_k); scores are divided by √d_k") },
	{ "d_v", "d_v", 0, S, N_("value size"), N_("the features of V a head has") },
	{ "d_model", "d_model", 0, S, N_("model size"),
	  N_("the width of x_i, q_i, k_j, v_j and o_i") },
	{ "[hN]", "[h]", 0, S, N_("head N"),
	  N_("q_i[h1]: head 1's features of q_i") },
	{ "QK", "QK", 0, S, N_("dot products"),
	  N_("a head's q_i·k_j before the division by √d_k") },
	{ "A", "A", 1, S, N_("weights matrix"),
	  N_("a head's weights α_i,j, one row per query") },
	{ "z_i", "z", 1, S, N_("head output"),
	  N_("Σ_j α_i,j·v_j in one head (z_i[h1]); [z_i[h1]; z_i[h2]], both; "
	  "Z = A V, all rows") },
	{ "Z", "Z", 1, S, N_("heads' outputs"), N_("the rows z_i; Z_h, head h's") },
	{ "o_i", "o", 1, S, N_("output row"), N_("W_O·z_i, self-attention's output") },
	/* the functions */
	{ "emb(w)", "emb", 1, F, N_("embedding"), N_("the row of word w in the "
	  "embedding table") },
	{ "PE(i)", "PE", 1, F, N_("positional encoding"),
	  N_("the sines and cosines added to the embedding of position i") },
	{ "tanh", "tanh", 0, F, N_("hyperbolic tangent"), N_("squashes into (-1, 1)") },
	{ "sigmoid", "sigmoid", 0, F, N_("logistic function"),
	  N_("1 / (1 + exp(-x)), into (0, 1)") },
	{ "exp", "exp", 0, F, N_("exponential"), N_("e to the power x") },
	{ "log", "log", 0, F, N_("natural logarithm"), N_("the inverse of exp") },
	{ "softmax", "softmax", 0, F, N_("softmax"),
	  N_("exp of each entry over the sum of them all") },
	{ "max", "max", 0, F, N_("maximum"),
	  N_("the largest score, subtracted before exp") },
	{ "sum", "sum", 0, F, N_("sum"),
	  N_("the sum of the exps (softmax), or of an RNN's parts") },
	{ "Σ", "Σ", 1, F, N_("sum over"), N_("Σ_i: the sum over i") },
	{ "entropy", "entropy", 0, F, N_("entropy"),
	  N_("entropy(α_t) = -Σ_i α_t,i·log α_t,i") },
	{ "onehot_l", "onehot_l", 1, F, N_("one-hot"),
	  N_("the vector with 1 at l and 0 elsewhere") },
	{ "E_α", "E_α", 0, F, N_("expectation"), N_("the mean over l drawn from α") },
	{ "E_π", "E_π", 0, F, N_("expectation"), N_("the mean over l drawn from π") },
	/* the indices */
	{ "t", "t", 0, I, N_("decoder step"), N_("from 1; t-1, the step before") },
	{ "i", "i", 0, I, N_("source position"),
	  N_("from 1; in self-attention the query's row") },
	{ "j", "j", 0, I, N_("source position"), N_("another source position, or "
	  "the key's") },
	{ "m", "m", 0, I, N_("draw"), N_("a Monte Carlo draw, from 1 to N") },
	{ "n", "n", 0, I, N_("source length"), N_("the number of source words") },
};

const int notation_count = sizeof notation_table / sizeof notation_table[0];

#undef S
#undef F
#undef I

/* 1 if the code point at s (its length n) is Greek, an arrow or a
 * combining mark: what makes a token math in prose */
static int is_mathy(const unsigned char *s, size_t n)
{
	unsigned c = 0;
	if (n == 2)
		c = (s[0] & 0x1fu) << 6 | (s[1] & 0x3fu);
	else if (n == 3)
		c = (s[0] & 0x0fu) << 12 | (s[1] & 0x3fu) << 6 | (s[2] & 0x3fu);
	return (c >= 0x370 && c <= 0x3ff) || (c >= 0x2190 && c <= 0x21ff) ||
	       (c >= 0x300 && c <= 0x36f) || c == 0x177 /* ŷ */ ||
	       c == 0x11d /* ĝ */;
}

/* 1 if the character at s (n bytes) can be part of a token: ASCII
 * letters and digits, _ ^ { }, Latin letters (é), Greek, arrows and
 * combining marks; not × or ÷ */
static int is_tok(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	if (n == 1)
		return (*u >= '0' && *u <= '9') || (*u >= 'a' && *u <= 'z') ||
		       (*u >= 'A' && *u <= 'Z') || strchr("_^{}", *u);
	if (n == 2 && (u[0] == 0xc3 && (u[1] == 0x97 || u[1] == 0xb7)))
		return 0;
	if (n == 2 && u[0] >= 0xc3 && u[0] <= 0xc9)
		return 1; /* U+00C0 .. U+027F: Latin letters */
	return is_mathy(u, n);
}

static int is_index(const char *s, size_t n)
{
	if (n == 0)
		return 0;
	for (size_t k = 0; k < n; k++)
		if (!strchr("0123456789tijklmnhq,+-{}", s[k]))
			return 0;
	return 1;
}

static int find_base(const char *s, size_t n, int indexed)
{
	for (int k = 0; k < notation_count; k++)
		if (strlen(notation_table[k].base) == n &&
		    memcmp(notation_table[k].base, s, n) == 0 &&
		    (!indexed || notation_table[k].indexed))
			return k;
	return -1;
}

int notation_find(const char *tok, size_t len)
{
	/* a transpose or a square is not part of the symbol */
	while (len >= 3 && (memcmp(tok + len - 3, "\xe1\xb5\x80", 3) == 0))
		len -= 3; /* ᵀ */
	while (len >= 2 && memcmp(tok + len - 2, "\xc2\xb2", 2) == 0)
		len -= 2; /* ² */
	int k = find_base(tok, len, 0);
	if (k >= 0)
		return k;
	for (size_t p = len; p-- > 1;)
		if (tok[p] == '_' && is_index(tok + p + 1, len - p - 1) &&
		    (k = find_base(tok, p, 1)) >= 0)
			return k;
	return -1;
}

/* the code point count of a token's bytes that mark it as math */
static int token_is_math(const char *s, size_t n)
{
	for (size_t k = 0; k < n;) {
		size_t c = utf8_char_len(s + k);
		if (c == 0)
			break;
		if (s[k] == '_' || s[k] == '^' ||
		    (c > 1 && is_mathy((const unsigned char *)s + k, c)))
			return 1;
		k += c;
	}
	return 0;
}

/* 1 if s[0..n) is a word of prose: two letters or more, all lowercase
 * ASCII, or a capital and lowercase ones ("Monte") */
static int token_is_word(const char *s, size_t n)
{
	if (n < 2)
		return 0;
	for (size_t k = 0; k < n; k++) {
		int lower = (s[k] >= 'a' && s[k] <= 'z') ||
			    (unsigned char)s[k] >= 0x80; /* é */
		int upper = s[k] >= 'A' && s[k] <= 'Z';
		if (!lower && !(upper && k == 0))
			return 0;
	}
	return 1;
}

/* the first character that is not a space after s[k], or 0 */
static char next_mark(const char *s, size_t k)
{
	while (s[k] == ' ')
		k++;
	return s[k];
}

static char prev_mark(const char *s, size_t k)
{
	while (k > 0 && s[k - 1] == ' ')
		k--;
	return k > 0 ? s[k - 1] : 0;
}

/* A lone letter (or two capitals) in prose counts if "·", "=", "(", "["
 * or "/" is next to it: "D = 1", "(R - R̄)", "W_a·q" */
static int lone_in_math(const char *s, size_t at, size_t n)
{
	static const char marks[] = "=([/";
	char nx = next_mark(s, at + n), pv = prev_mark(s, at);
	if (n > 2)
		return 0;
	for (size_t k = 0; k < n; k++)
		if (!((s[at + k] >= 'A' && s[at + k] <= 'Z') ||
		      (n == 1 && s[at] >= 'a' && s[at] <= 'z')))
			return 0;
	if ((nx && strchr(marks, nx)) || (pv && strchr(marks, pv)))
		return 1;
	/* "·" is two bytes, c2 b7 */
	return strncmp(s + at + n, "\xc2\xb7", 2) == 0 ||
	       (at >= 2 && strncmp(s + at - 2, "\xc2\xb7", 2) == 0);
}

/* The end of the token that starts at s[k]: a sum sign or an arrow alone
 * takes no letters after it but "_" ("Σa" is Σ and a) */
static size_t token_end(const char *s, size_t k)
{
	int sub = 0; /* seen a "_": a comma may join indices, e_1,2 */
	size_t c = utf8_char_len(s + k);
	if (strncmp(s + k, "Σ", 2) == 0 && s[k + 2] != '_')
		return k + 2;
	while (c) {
		if (is_tok(s + k, c)) {
			sub |= s[k] == '_';
			k += c;
		} else if (sub && s[k] == ',' && s[k + 1] &&
			   (s[k + 1] == '{' || strchr("0123456789ijklnt",
						      s[k + 1]))) {
			k++;
		} else {
			break;
		}
		c = utf8_char_len(s + k);
	}
	return k;
}

int notation_scan(const char *s, enum notation_mode mode,
		  void (*fn)(const char *tok, size_t len, void *ctx),
		  void *ctx)
{
	int count = 0;
	size_t k = 0;
	while (s[k]) {
		size_t c = utf8_char_len(s + k);
		if (!is_tok(s + k, c) && strncmp(s + k, "Σ", 2) != 0) {
			k += c;
			continue;
		}
		size_t start = k, end = token_end(s, k);
		k = end;
		while (start < end && s[start] >= '0' && s[start] <= '9')
			start++; /* a factor: 2σ² */
		size_t n = end - start;
		if (n == 0 || (strncmp(s + start, "→", 3) == 0 && n == 3) ||
		    (strncmp(s + start, "←", 3) == 0 && n == 3))
			continue;
		if (start > 0 && s[start - 1] == '[' && s[start] == 'h' &&
		    n > 1 && s[end] == ']') {
			fn("[h]", 3, ctx); /* a head mark: q_1[h1] */
			count++;
			continue;
		}
		int take = token_is_math(s + start, n);
		if (!take && mode == NOTATION_MATH)
			take = !token_is_word(s + start, n) &&
			       !(s[start] >= '0' && s[start] <= '9');
		if (!take && mode == NOTATION_PROSE)
			take = lone_in_math(s, start, n);
		if (take) {
			fn(s + start, n, ctx);
			count++;
		}
	}
	return count;
}

struct gloss {
	unsigned char seen[256];
};

static void gloss_add(const char *tok, size_t len, void *ctx)
{
	struct gloss *g = ctx;
	int k = notation_find(tok, len);
	if (k >= 0 && k < (int)sizeof g->seen)
		g->seen[k] = 1;
}

int notation_glossary(const char *const *lines, int nlines, int *out,
		      int max)
{
	struct gloss g;
	int n = 0;
	memset(&g, 0, sizeof g);
	for (int k = 0; k < nlines; k++)
		if (lines[k])
			notation_scan(lines[k], NOTATION_PROSE, gloss_add, &g);
	for (int k = 0; k < notation_count && n < max; k++)
		if (g.seen[k] && notation_table[k].kind != NOTATION_INDEX)
			out[n++] = k;
	return n;
}

char *notation_line(char *buf, size_t size, int k, int width)
{
	const struct notation_entry *e = &notation_table[k];
	int pad = width - utf8_width(e->symbol);
	int at = snprintf(buf, size, "%s%*s  ", e->symbol, pad > 0 ? pad : 0,
			  "");
	if (at >= 0 && (size_t)at < size)
		/* TRANSLATORS: a symbol's name and its meaning, in the
		 * stepper's list of the symbols on a screen (key x) */
		snprintf(buf + at, size - (size_t)at, _("%s: %s"), _(e->name),
			 _(e->meaning));
	return buf;
}

/* s with "|" written "\\|", so that it stays in its table cell */
static void md_cell(FILE *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '|')
			putc('\\', out);
		putc(*s, out);
	}
}

static const char *const kind_title[] = {
	[NOTATION_SYMBOL] = "Symbols",
	[NOTATION_FUNCTION] = "Functions",
	[NOTATION_INDEX] = "Indices",
};

int notation_write_md(FILE *out)
{
	for (int kind = NOTATION_SYMBOL; kind <= NOTATION_INDEX; kind++) {
		fprintf(out, "%s### %s\n\n| symbol | name | meaning |\n"
			"|--------|------|---------|\n", kind ? "\n" : "",
			kind_title[kind]);
		for (int k = 0; k < notation_count; k++) {
			const struct notation_entry *e = &notation_table[k];
			if ((int)e->kind != kind)
				continue;
			fprintf(out, "| `%s` | %s | ", e->symbol, e->name);
			md_cell(out, e->meaning);
			fputs(" |\n", out);
		}
	}
	return ferror(out) ? -1 : 0;
}
