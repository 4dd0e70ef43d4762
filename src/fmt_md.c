/* fmt_md.c: a recorded trace as Markdown tables, for handouts. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "fmt.h"
#include "gradpath.h"
#include "i18n.h"
#include "num.h"

/* Text as Markdown shows it literally, in a table cell too: '<', '>'
 * and '&' as entities, so that "<s>" and a word with HTML in it are not
 * taken for tags; the other characters with a meaning ('|', '\\', '*',
 * '_', '`', '[', ']', '#', '~', '!') after a backslash, which CommonMark,
 * GitHub and pandoc all read as the character itself. */
static void md_text(FILE *out, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", out); continue;
		case '>': fputs("&gt;", out); continue;
		case '&': fputs("&amp;", out); continue;
		default: break;
		}
		if (strchr("|\\*_`[]#~!", *s))
			putc('\\', out);
		putc(*s, out);
	}
}

/* A record's title (N_() where the record is made) in the user's
 * language. */
static const char *md_tr(const char *s)
{
	return *s ? _(s) : s;
}

static void md_words(FILE *out, const struct vocab *v, const int *w, int n)
{
	for (int k = 0; k < n; k++) {
		fputs(k ? " " : "", out);
		md_text(out, v->words[w[k]]);
	}
}

void fmt_md_vec(FILE *out, const double *v, int n, int prec)
{
	putc('`', out);
	fmt_text_vec(out, v, n, prec);
	putc('`', out);
}

/* r's result as fmt_md_vec() writes it. */
static void md_vec(FILE *out, const struct trace_rec *r, int prec)
{
	fmt_md_vec(out, r->result, r->len, prec);
}

static void md_header(FILE *out, const struct trace *tr,
		      const struct fmt_opts *o)
{
	const struct model *m = tr->m;
	fputs("# attn-trace: ", out);
	if (tr->enc) /* an image: its cells are not words to list */
		fprintf(out, _("an image, %d %s"), tr->n, _(tr->enc->items));
	else
		md_words(out, &m->src, tr->src, tr->n);
	fputs(" → ", out);
	if (tr->ntgt)
		md_words(out, &m->tgt, tr->tgt, tr->ntgt);
	else
		fputs(_("(greedy decoding)"), out);
	fputs("\n\n", out);
	fputs(_("Model: "), out);
	md_text(out, m->name);
	fprintf(out, _(" (embedding %d, hidden %d, attention %d); %d digits"),
		m->E, m->H, m->A, o->precision);
	if (tr->arch != ARCH_DEFAULT)
		fprintf(out, _("; architecture %s"), arch_get(tr->arch)->name);
	if (o->pair)
		fprintf(out, _("; pair on line %d"), o->pair);
	fputs(_("."), out); /* the sentence's full stop */
	fputs("\n", out);
	char wif[FMT_WHATIF_NOTE];
	if (fmt_whatif_note(tr, wif, sizeof wif)) { /* --set: a handout is
		never taken for the model's own numbers */
		fputs("\n**", out);
		md_text(out, wif);
		fputs("**\n", out);
	}
}

/* Bahdanau's encoder: both directions, the annotations, and s_0. */
static void md_encoder_bidir(FILE *out, const struct trace *tr, int prec)
{
	fprintf(out, "\n## %s\n\n| i | %s | x_i | →h_i | ←h_i | "
		"h_i = [→h_i; ←h_i] |\n|--:|---|---|---|---|---|\n",
		_("Encoding"), _("word"));
	for (int i = 1; i <= tr->n; i++) {
		fprintf(out, "| %d | ", i);
		md_text(out, tr->m->src.words[tr->src[i - 1]]);
		fputs(" | ", out);
		md_vec(out, trace_find(tr, REC_EMBED, -1, 0, i), prec);
		fputs(" | ", out);
		md_vec(out, trace_find(tr, REC_FORWARD, -1, 0, i), prec);
		fputs(" | ", out);
		md_vec(out, trace_find(tr, REC_BACKWARD, -1, 0, i), prec);
		fputs(" | ", out);
		md_vec(out, trace_find(tr, REC_ANNOTATION, -1, 0, i), prec);
		fputs(" |\n", out);
	}
	fputs("\n", out);
	fputs(_("The decoder's first state s_0 = tanh(W_init·←h_1) = "),
	      out);
	md_vec(out, trace_find(tr, REC_INIT, -1, 0, 0), prec);
	fputs("\n", out);
}

/* An image's patch encoder (src/caption.c): each cell's pixels and
 * annotation, and s_0 from their mean. */
static void md_encoder_patch(FILE *out, const struct trace *tr, int prec)
{
	fprintf(out, "\n## %s\n\n| i | %s | patch_i | h_i |\n"
		"|--:|---|---|---|\n", _("Encoding"), _("cell"));
	for (int i = 1; i <= tr->n; i++) {
		const struct trace_rec *r = trace_find(tr, REC_PATCH, -1, 0, i);
		const struct trace_operand *x = trace_op_key(r, "pixels");
		fprintf(out, "| %d | ", i);
		md_text(out, tr->m->src.words[tr->src[i - 1]]);
		fputs(" | `", out);
		fmt_text_vec(out, x->v, x->len, prec);
		fputs("` | ", out);
		md_vec(out, r, prec);
		fputs(" |\n", out);
	}
	fputs("\n", out);
	fputs(_("The decoder's first state s_0 = tanh(W_init·h̄), h̄ the mean "
		"of the h_i: "), out);
	md_vec(out, trace_find(tr, REC_INIT, -1, 0, 0), prec);
	fputs("\n", out);
}

static void md_encoder(FILE *out, const struct trace *tr, int prec)
{
	if (tr->enc) {
		md_encoder_patch(out, tr, prec);
		return;
	}
	if (arch_get(tr->arch)->bidir) {
		md_encoder_bidir(out, tr, prec);
		return;
	}
	fprintf(out, "\n## %s\n\n| i | %s | x_i | h_i |\n|--:|---|---|---|\n",
		_("Encoding"), _("word"));
	for (int i = 1; i <= tr->n; i++) {
		fprintf(out, "| %d | ", i);
		md_text(out, tr->m->src.words[tr->src[i - 1]]);
		fputs(" | ", out);
		md_vec(out, trace_find(tr, REC_EMBED, -1, 0, i), prec);
		fputs(" | ", out);
		md_vec(out, trace_find(tr, REC_RNN, -1, 0, i), prec);
		fputs(" |\n", out);
	}
}

/* One decoder step: s_t, a table of the source words with e, α and α·h,
 * then c_t, h̃_t and the output word, as far as the stages asked for. */
/* A local window: p_t (local-p's record of it, or the window's note, how
 * it made p_t), the window's formula with its values, its positions and
 * words, and local-p's σ and the sum of its weights. */
static void md_window(FILE *out, const struct trace *tr,
		      const struct trace_rec *win, const struct trace_rec *gs,
		      int prec)
{
	char buf[NUM_BUFSZ], line[160];
	const struct trace_rec *pos = trace_find(tr, REC_POSITION, win->run,
						 win->t, 0);
	const double *bounds = trace_op(win, "window")->v;
	int lo = (int)bounds[0], hi = (int)bounds[1];
	if (pos) {
		fprintf(out, "p_%d = 1 + (%d - 1)·sigmoid(v_p·tanh(W_p·q)) = 1 + "
			"(%d - 1)·sigmoid(", win->t, tr->n, tr->n);
		fprintf(out, "%s) = ", num_fixed(buf, trace_op(pos,
				"v_p_tanh")->v[0], prec));
		fprintf(out, "%s\n\n", num_fixed(buf, pos->result[0], prec));
	}
	if (win->note) { /* where p_t comes from: local-m's, fixed's */
		trace_expand_values(line, sizeof line, win->note, tr, win, prec);
		fputs(line, out);
		if (win->note_op >= 0) { /* a whole number as one */
			double p = win->ops[win->note_op].v[0];
			if (p == floor(p) && fabs(p) < 1e9)
				fprintf(out, " = %d", (int)p);
			else
				fprintf(out, " = %s", num_fixed(buf, p, prec));
		}
		fputs("\n\n", out);
	}
	fputs(_("The window: "), out);
	if (win->formula) {
		struct trace_names nm;
		trace_names_part(tr, win, &nm, TRACE_NAME_FORMULA);
		trace_expand_values(line, sizeof line, win->formula, tr, win,
				    prec);
		/* TRANSLATORS: the window's formula = its values, then
		 * "positions %d .. %d" */
		fprintf(out, _("%s = %s, "), nm.formula, line);
	}
	fprintf(out, _("positions %d .. %d ("), lo, hi);
	for (int j = lo; j <= hi; j++) {
		fputs(j > lo ? " " : "", out);
		md_text(out, tr->m->src.words[tr->src[j - 1]]);
	}
	fputs(")\n\n", out);
	if (gs) {
		fprintf(out, "a_%d,i = align_%d,i·exp(-(i - p_%d)²/(2σ²)), "
			"σ = D/2 = %s; ", win->t, win->t, win->t,
			num_fixed(buf, trace_op(gs, "sigma")->v[0], prec));
		fprintf(out, _("Σ_i a_%d,i = %s, below 1: nothing is "
			"renormalised"), win->t,
			num_fixed(buf, trace_op(gs, "sum")->v[0], prec));
		fputs("\n\n", out);
	}
}

/* The source position of step t's REC_SAMPLE record, or 0 if none. */
/* A handout's line of step t's outputs: the o->top most probable words,
 * most probable first (the earlier word first between equals), and how
 * many there are in all. */
static void md_top(FILE *out, const struct vocab *tv,
		   const struct trace_rec *r, int t, const struct fmt_opts *o)
{
	char buf[NUM_BUFSZ];
	int n = o->top < r->len ? o->top : r->len;
	unsigned char used[MODEL_MAX_VOCAB] = { 0 };
	fputs("\n", out);
	fprintf(out, ngettext("ŷ_%d, the %d most probable of %d word:",
			      "ŷ_%d, the %d most probable of %d words:",
			      r->len), t, n, r->len);
	for (int k = 0; k < n; k++) {
		int best = -1;
		for (int w = 0; w < r->len && w < MODEL_MAX_VOCAB; w++)
			if (!used[w] && (best < 0 ||
					 r->result[w] > r->result[best]))
				best = w;
		if (best < 0)
			break;
		used[best] = 1;
		fputs(k ? ", " : " ", out);
		md_text(out, tv->words[best]);
		fprintf(out, " %s", num_fixed(buf, r->result[best],
					      o->precision));
	}
	fputs("\n", out);
}

static int h_l_any(const struct trace *tr, int run, int t)
{
	for (int k = 0; k < tr->nrecs; k++)
		if (tr->recs[k].kind == REC_SAMPLE && tr->recs[k].run == run &&
		    tr->recs[k].t == t)
			return tr->recs[k].i;
	return 0;
}

static void md_step(FILE *out, const struct trace *tr, int run, int t,
		    const struct fmt_opts *o)
{
	const struct vocab *tv = &tr->m->tgt;
	unsigned st = o->stages;
	char buf[NUM_BUFSZ];
	fputs("\n### ", out);
	fprintf(out, _("t=%d: the decoder reads "), t);
	md_text(out, tv->words[tr->runs[run].input[t - 1]]);
	fputs("\n\n", out);
	/* the query is s_{t-1} (query_off -1): attention comes first, and
	 * its context enters the RNN; else s_t, the RNN's new state */
	if (tr->query_off != 0 && (st & (1u << STAGE_SCORING))) {
		fprintf(out, _("The query is the state before this step, "
			"s_%d = "), t - 1);
		md_vec(out, trace_find(tr, REC_QUERY, run, t, 0), o->precision);
		fputs("\n\n", out);
	} else if (tr->query_off == 0 && (st & (1u << STAGE_DECODER))) {
		fprintf(out, "s_%d = ", t);
		md_vec(out, trace_find(tr, REC_RNN, run, t, 0), o->precision);
		fputs("\n\n", out);
	}
	const struct trace_rec *win = trace_find(tr, REC_WINDOW, run, t, 0);
	const struct trace_rec *gs = trace_find(tr, REC_GAUSS, run, t, 0);
	if (win && (st & (1u << STAGE_SOFTMAX)))
		md_window(out, tr, win, gs, o->precision);
	if (gs) /* local-p: align and the Gaussian factor before a */
		fprintf(out, "| i | %s | e_%d,i | align_%d,i | %s "
			"| a_%d,i | a_%d,i·h_i |\n|--:|---|--:|--:|--:|--:|---|\n",
			_("word"), t, t, _("Gaussian"), t, t);
	else
		fprintf(out, "| i | %s | e_%d,i | α_%d,i | α_%d,i·h_i |\n"
			"|--:|---|--:|--:|---|\n", tr->enc ? _("cell") : _("word"),
			t, t, t);
	const double *a = trace_weights(tr, run, t);
	const double *e = trace_find(tr, REC_SCORES, run, t, 0)->result;
	for (int i = 1; i <= tr->n; i++) {
		fprintf(out, "| %d | ", i);
		md_text(out, tr->m->src.words[tr->src[i - 1]]);
		fprintf(out, " | %s | ", st & (1u << STAGE_SCORING)
			? num_fixed(buf, e[i - 1], o->precision) : "");
		for (int k = 0; gs && k < 2; k++) /* align, the factor */
			fprintf(out, "%s | ", st & (1u << STAGE_SOFTMAX)
				? num_fixed(buf, trace_op(gs, k ? "gauss"
					: "align")->v[i - 1], o->precision)
				: "");
		fprintf(out, "%s | ", st & (1u << STAGE_SOFTMAX)
			? num_fixed(buf, a[i - 1], o->precision) : "");
		if (st & (1u << STAGE_WEIGHTED_SUM))
			md_vec(out, trace_find(tr, REC_WEIGHTED, run, t, i),
			       o->precision);
		fputs(" |\n", out);
	}
	if (st & (1u << STAGE_WEIGHTED_SUM)) {
		const struct trace_rec *c = trace_find(tr, REC_CONTEXT, run,
						       t, 0);
		fprintf(out, "\n%s%sc_%d = ", c->title ? md_tr(c->title) : "",
			c->title ? " " : "", t);
		md_vec(out, c, o->precision);
		fputs("\n", out);
		/* hard attention: the draw and the context it keeps */
		const struct trace_rec *h = trace_find(tr, REC_SAMPLE, run, t,
						       h_l_any(tr, run, t));
		const struct trace_operand *hu = h ? trace_op_key(h, "u") : NULL;
		const struct trace_operand *hpi = h ? trace_op_key(h, "pi")
						    : NULL;
		if (hpi) { /* local-p: the draw is from the weights normalised */
			fputs("\n", out);
			fprintf(out, _("Σ_j a_%d,j = %s, below 1: %s π_%d = "
				"a_%d / Σ_j a_%d,j = `"), t,
				num_fixed(buf, trace_op_key(h, "sum")->v[0],
					  o->precision),
				hu ? _("l is drawn from") : _("the argmax is that of"),
				t, t, t);
			fmt_text_vec(out, hpi->v, hpi->len, o->precision);
			fputs("`\n", out);
		}
		if (h) {
			const struct trace_operand *cum = trace_op_key(h,
								       "cumsum");
			fprintf(out, "\ncumsum_%d = `", t);
			fmt_text_vec(out, cum->v, cum->len, o->precision);
			fputs("`", out);
			if (hu)
				fprintf(out, ", u_%d = %s", t,
					num_fixed(buf, hu->v[0], o->precision));
			fprintf(out, ", l = %d (%s)\n\n", h->i,
				hu ? _("the first j with u < cumsum_j")
				   : "argmax");
			fprintf(out, _("the hard context c_%d = h_%d = "), t,
				h->i);
			md_vec(out, h, o->precision);
			fputs("\n", out);
		}
		const struct trace_rec *x = trace_find(tr, REC_EXACT, run, t,
						       0);
		if (x) { /* and its exact view (teacher-forced) */
			const char *d = hpi ? "π" : "α";
			fputs("\n", out);
			fprintf(out, _("exact view%s: log P(y_%d = "),
				trace_steps_chained(tr)
				? _(" (given the sampled past)") : "", t);
			md_text(out, tr->m->tgt.words[x->word]);
			fputs(" | l) = `", out);
			const struct trace_operand *lp = trace_op(x, "log_p");
			fmt_text_vec(out, lp->v, lp->len, o->precision);
			fprintf(out, "`, E_%s[log P] = %s, ", d,
				num_fixed(buf, trace_op(x, "expected")->v[0],
					  o->precision));
			fprintf(out, "log Σ_l %s_l·P = %s, ", d,
				num_fixed(buf, trace_op(x, "log_marginal")->v[0],
					  o->precision));
			fprintf(out, _("Jensen gap = %s\n"),
				num_fixed(buf, x->result[0], o->precision));
		}
		/* --gradient and --samples: each named number on a line */
		for (int k = 0; k < tr->nrecs; k++) {
			const struct trace_rec *g = &tr->recs[k];
			if (g->run != run || g->t != t ||
			    (g->kind != REC_GRADIENT && g->kind != REC_SAMPLES))
				continue;
			fprintf(out, "\n%s (t=%d):\n\n", g->kind == REC_GRADIENT
				? _("learning signal") : _("Monte Carlo"), t);
			for (int j = 0; j < g->nops; j++) {
				const struct trace_operand *op = &g->ops[j];
				if (!op->key)
					continue; /* α_t: in the table */
				fprintf(out, "- %s = `", op->key);
				fmt_text_vec(out, op->v, op->len,
					     fmt_op_prec(g, j, o->precision));
				fputs("`\n", out);
			}
			if (g->kind == REC_GRADIENT) { /* as JSON's "scores" */
				fputs("- scores = `", out);
				fmt_text_vec(out, g->result, g->len,
					     o->precision);
				fputs("`\n", out);
			}
		}
	}
	if (tr->query_off != 0 && (st & (1u << STAGE_DECODER))) {
		const struct trace_rec *r = trace_find(tr, REC_RNN, run, t, 0);
		fputs("\n", out);
		fprintf(out, _("The context enters the RNN: C·c_%d = "), t);
		fputs("`", out);
		const struct trace_operand *cc = trace_op(r, "C_c");
		fmt_text_vec(out, cc->v, cc->len, o->precision);
		fprintf(out, "`\n\ns_%d = tanh(W_y·y_%d + U·s_%d + C·c_%d + "
			"b) = ", t, t - 1, t - 1, t);
		md_vec(out, r, o->precision);
		fputs("\n", out);
	} else if (st & (1u << STAGE_CONCAT)) {
		fprintf(out, "\nh̃_%d = tanh(W_c·[c_%d; s_%d]) = ", t, t, t);
		md_vec(out, trace_find(tr, REC_ATTENTIONAL, run, t, 0), o->precision);
		fputs("\n", out);
	}
	if (st & (1u << STAGE_OUTPUT)) {
		const struct trace_rec *r = trace_find(tr, REC_OUTPUT, run, t, 0);
		fputs("\n", out);
		fputs(_("Output: "), out);
		fputs("**", out);
		md_text(out, tv->words[r->word]);
		fprintf(out, "** (p = %s)\n",
			num_fixed(buf, r->result[r->word], o->precision));
		if (o->handout) {
			md_top(out, tv, r, t, o);
			return;
		}
		/* p_t with a word for each number, so none has to be found
		 * by counting */
		fputs("\n", out);
		fprintf(out, _("ŷ_%d by word:"), t);
		for (int k = 0; k < r->len; k++) {
			fputs(k ? ", " : " ", out);
			md_text(out, tv->words[k]);
			fprintf(out, " %s", num_fixed(buf, r->result[k],
						      o->precision));
		}
		fputs("\n", out);
	}
}

/* ------------------------------------------------------ matrix records */

/* Self-attention's trace (trace.prog TRACE_SELF): a table for each
 * record's result and for each of its intermediates with a plain name,
 * a row a token (or feature), a column a token or feature. */
static void md_mat(FILE *out, const struct trace *tr, const char *name,
		   int head, const double *v, int len, int rows,
		   enum op_axis row_axis, enum op_axis col_axis, int prec)
{
	char buf[NUM_BUFSZ];
	const int cols = len / rows;
	fputs("\n### ", out);
	md_text(out, name);
	if (head)
		fprintf(out, _(", head %d"), head);
	fputs("\n\n|   |", out);
	for (int j = 0; j < cols; j++) {
		const char *w = trace_axis_word(tr, col_axis, j);
		putc(' ', out);
		if (w)
			md_text(out, w);
		else
			fprintf(out, "%d", j + 1);
		fputs(" |", out);
	}
	fputs("\n|---|", out);
	for (int j = 0; j < cols; j++)
		fputs("---:|", out);
	putc('\n', out);
	for (int i = 0; i < rows; i++) {
		const char *w = trace_axis_word(tr, row_axis, i);
		fputs("| ", out);
		if (w)
			md_text(out, w);
		else
			fprintf(out, "%d", i + 1);
		fputs(" |", out);
		for (int j = 0; j < cols; j++) {
			double x = v[i * cols + j];
			fprintf(out, " %s |", x == -INFINITY ? "−∞"
				: fmt_num(buf, x, prec));
		}
		putc('\n', out);
	}
}

static int md_mat_trace(FILE *out, const struct trace *tr, int prec)
{
	const struct trace_self *s = &tr->self;
	int section = 0, head = -1;
	char title[96];
	fputs(s->cross ? _("# Cross-attention of: ")
		       : _("# Self-attention of: "), out);
	md_words(out, &tr->m->src, tr->src, tr->n);
	if (s->cross) {
		fputs(_(" (queries: "), out);
		md_words(out, &tr->m->tgt, tr->tgt, tr->ntgt);
		putc(')', out);
	}
	fputs("\n\n", out);
	fputs(_("Model "), out);
	md_text(out, tr->m->name);
	fprintf(out, _(": d_model %d, %d heads of d_k = d_v = %d; mask: %s; "
		       "positions: %s.\n"),
		s->d, s->heads, s->dk, s->causal ? _("causal") : _("none"),
		s->position ? _("sin/cos added") : _("none"));
	for (int k = 0; k < tr->nrecs; k++) {
		const struct trace_rec *r = &tr->recs[k];
		int sec = fmt_mat_section(tr, r, title, sizeof title);
		if (sec != section || r->head != head) {
			section = sec;
			head = r->head;
			fprintf(out, "\n## %d. ", sec);
			md_text(out, title);
			putc('\n', out);
		}
		for (int j = 0; j < r->nops; j++)
			if (r->ops[j].key)
				md_mat(out, tr, r->ops[j].key, r->head,
				       r->ops[j].v, r->ops[j].len,
				       r->ops[j].rows, r->ops[j].row_axis,
				       r->ops[j].axis, prec);
		md_mat(out, tr, r->key, r->head, r->result, r->len, r->rows,
		       r->row_axis, r->result_axis, prec);
	}
	return ferror(out) ? -1 : 0;
}

/* Copies the n bytes of s to out with every space inside a `code span`
 * (a vector) made a no-break space, so that a renderer keeps the vector
 * on one line. */
static void md_nobreak(FILE *out, const char *s, size_t n)
{
	int code = 0;
	for (size_t k = 0; k < n; k++) {
		if (s[k] == '`')
			code = !code;
		if (code && s[k] == ' ')
			fputs("\xc2\xa0", out); /* U+00A0 */
		else
			putc(s[k], out);
	}
}

static int md_trace(FILE *out, const struct trace *tr,
		    const struct fmt_opts *o);

int fmt_md_trace(FILE *out, const struct trace *tr, const struct fmt_opts *o)
{
	if (!o->handout)
		return md_trace(out, tr, o);
	char *buf = NULL;
	size_t n = 0;
	FILE *mem = open_memstream(&buf, &n);
	if (!mem)
		return -1;
	int rc = md_trace(mem, tr, o);
	if (fclose(mem) != 0)
		rc = -1;
	if (rc == 0)
		md_nobreak(out, buf, n);
	free(buf);
	return rc == 0 && !ferror(out) ? 0 : -1;
}

/* A run's gradient paths (--gradient-paths), record r, whatever --stage
 * keeps, as the text trace: L_t, a table of the norms a source word, and
 * a table of the vectors, dL_t/dh_i and its two parts. */
static void md_gradpath(FILE *out, const struct trace *tr,
			const struct trace_rec *r, int prec)
{
	const int H = tr->m->H, t = r->t;
	char buf[NUM_BUFSZ];

	fputs("\n### ", out);
	fprintf(out, _("Gradient paths of L_%d"), t);
	fprintf(out, "\n\nL_%d = -log ŷ_%d[", t, t);
	md_text(out, tr->m->tgt.words[r->word]);
	fprintf(out, "] = %s\n\n", num_fixed(buf, trace_op_key(r,
			"loss")->v[0], prec));
	fprintf(out, _("direct: through step %d's attention alone (h_i as "
		       "its key and value); through the recurrence: the rest"),
		t);
	fprintf(out, "\n\n| i | %s | ‖∂L_%d/∂h_i‖ | ‖%s‖ | ‖%s‖ |\n"
		"|--:|---|--:|--:|--:|\n", _("word"), t, _("direct"),
		_("through the recurrence"));
	for (int i = 0; i < tr->n; i++) {
		fprintf(out, "| %d | ", i + 1);
		md_text(out, tr->m->src.words[tr->src[i]]);
		fprintf(out, " | %s", num_fixed(buf, r->result[i], prec));
		for (int k = 3; k < 5; k++)
			fprintf(out, " | %s",
				num_fixed(buf, r->ops[k].v[i], prec));
		fputs(" |\n", out);
	}
	fprintf(out, "\n| i | %s | ∂L_%d/∂h_i | %s | %s |\n"
		"|--:|---|---|---|---|\n", _("word"), t, _("direct"),
		_("through the recurrence"));
	for (int i = 0; i < tr->n; i++) {
		fprintf(out, "| %d | ", i + 1);
		md_text(out, tr->m->src.words[tr->src[i]]);
		for (int k = 0; k < 3; k++) {
			fputs(" | `", out);
			fmt_text_vec(out, r->ops[k].v + (size_t)i * H, H, prec);
			putc('`', out);
		}
		fputs(" |\n", out);
	}
}

/* The trace as Markdown, with every output probability listed unless
 * o->handout. */
static int md_trace(FILE *out, const struct trace *tr,
		    const struct fmt_opts *o)
{
	if (tr->prog == TRACE_SELF)
		return md_mat_trace(out, tr, o->precision);
	md_header(out, tr, o);
	if (o->stages & (1u << STAGE_ENCODING))
		md_encoder(out, tr, o->precision);
	for (int run = 0; run < tr->nruns; run++) {
		const struct trace_run *ru = &tr->runs[run];
		char formula[128];
		fputs("\n## ", out);
		fprintf(out, _("%s scorer: %s"), trace_scorer_name(ru->scorer),
			fmt_scorer_formula(tr, ru->scorer, formula,
					   sizeof formula));
		fputs("\n", out);
		if (o->stages & ~(1u << STAGE_ENCODING))
			for (int t = 1; t <= ru->nsteps; t++)
				md_step(out, tr, run, t, o);
		fputs("\n", out);
		fputs(_("Output words: "), out);
		md_words(out, &tr->m->tgt, ru->pred, ru->nsteps);
		fputs("\n", out);
		if (gradpath_find(tr, run))
			md_gradpath(out, tr, gradpath_find(tr, run),
				    o->precision);
	}
	return ferror(out) ? -1 : 0;
}

void fmt_md_text(FILE *out, const char *s)
{
	md_text(out, s);
}
