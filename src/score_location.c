/* score_location.c: the location scorer, e_t = W_loc·s_t (Luong et al.
 * 2015, eq. 9): one score per source position, from the decoder state
 * alone, with the first n rows of W_loc (L, H).  It is content-blind: it
 * knows where a word stands, not what the word is; swap two source words
 * and their scores stay where they were.  A model that has it says how
 * many positions it knows ("positions L"); longer sentences cannot use
 * it. */
#include "config.h"

#include "attn.h"
#include "i18n.h"
#include "scorer.h"
#include "trace.h"

static const struct param_spec location_params[] = {
	{ "W", "W_loc, a row a source position", DIM_L, DIM_H },
};

/* e_t,i = W_loc[i]·s_t for the n positions; the h_i are not read */
static void location_forward(const struct score_in *in, const double *s,
			     double *e, struct score_ws *ws)
{
	(void)ws;
	attn_matvec(e, in->w[0], s, in->n, in->H);
}

/* de/dW_loc[i] = s_t, de/ds = W_loc[i]; nothing reaches the h_i */
static void location_backward(const struct score_in *in, const double *s,
			      const double *de, struct score_ws *ws,
			      double *const *gw, double *ds, double *dHs)
{
	(void)ws;
	(void)dHs;
	attn_linear_back(gw[0], ds, in->w[0], in->H, de, s, in->n, in->H);
}

static void location_record(const struct score_view *v)
{
	const int H = v->in->H;
	const double *row = v->in->w[0] + (size_t)v->i * H;

	trace_rec_op(v->r, OP_INPUT, "{q}", NULL, v->s, H, 1);
	trace_rec_op(v->r, OP_WEIGHT, "W_loc[{i}]", NULL, row, H, 1);
	v->r->formula = "W_loc[{i}]·{q}";
	trace_rec_terms(v->tr, v->r, row, 1, v->s, 0, H);
}

const struct scorer_class scorer_location = {
	.name = "location",
	.formula = N_("e_t,i = W_loc[i]·s_t (position i, whatever its word)"),
	.prose = N_("W_loc[i]·s_t, row i of W_loc times the decoder state: one "
		    "score per source position, from the decoder state alone. It "
		    "is content-blind: it knows where a word stands, not which "
		    "word it is"),
	.summary = N_("W_loc[i]·s_t: a score per position, blind to the words"),
	.quiz = N_("Row {i} of W_loc, the weights of source position {i} (here "
		   "\"{x}\", but any word there gets them), and the decoder state "
		   "{q}:"),
	.nparams = 1,
	.params = location_params,
	.prepare = NULL,
	.forward = location_forward,
	.backward = location_backward,
	.record = location_record,
};
