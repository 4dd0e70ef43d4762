/* gradpath.c: the gradient paths of one output step (gradpath.h).
 *
 * The architecture's training pass computes them: the trace's pair runs
 * through its train_pair hook on a copy of the model's weights, with
 * struct train_work's probe set, so that only step t's cross-entropy
 * has weight, step t's attention keeps its own part of dL/dh_i apart
 * (direct), and the encoder's backward pass keeps each complete dL/dh_i
 * (total).  The recurrence's part is their difference. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "gradpath.h"
#include "i18n.h"
#include "selection.h"
#include "train.h"
#include "window.h"

int gradpath_check(const struct model *m, const struct trace_cfg *cfg,
		   int ntgt, struct errbuf *err)
{
	if (!cfg || !cfg->grad_paths)
		return 0;
	if (ntgt < 1) {
		err_set(err, _("the gradient paths need a target: L_t is the "
			"cross-entropy of the target word at step t"));
		return -1;
	}
	if (cfg->grad_paths > ntgt + 1) {
		err_set(err, _("the gradient paths' step must be from 1 to %d "
			"(the target's %d words and </s>), not %d"), ntgt + 1,
			ntgt, cfg->grad_paths);
		return -1;
	}
	if (selection_get(cfg->selection)->draws) {
		err_set(err, _("the gradient paths need soft attention: a hard "
			"draw passes no gradient to the scores"));
		return -1;
	}
	if (train_arch_check(arch_get(m->arch), err) != 0)
		return -1;
	return train_window_check(window_get(cfg->window), err);
}

int gradpath_step(const struct trace *tr)
{
	int t = tr->cfg.grad_paths;

	return t < 0 ? tr->ntgt + 1 : t;
}

/* The Euclidean norm of each of the n rows (H) of v into out (n), summed
 * in index order. */
static void gradpath_norms(double *out, const double *v, int n, int H)
{
	for (int i = 0; i < n; i++) {
		double s = 0.0;
		for (int k = 0; k < H; k++)
			s += v[(size_t)i * H + k] * v[(size_t)i * H + k];
		out[i] = sqrt(s);
	}
}

/* Runs the training pass of tr's pair with scorer sc, probing step t:
 * the total and the direct dL_t/dh_i into total and direct ((n + 1, H)
 * each, rows 1..n). */
static void gradpath_run(const struct trace *tr, int sc, int t,
			 double *total, double *direct)
{
	const struct model *m = tr->m;
	const struct arch_class *a = arch_get(m->arch);
	struct train_data d;
	struct trainer tn;
	struct model v, g;
	double loss[SCORER_COUNT] = { 0 };
	int right[SCORER_COUNT] = { 0 };

	memset(&d, 0, sizeof d);
	d.src = m->src; /* train_view borrows the words */
	d.tgt = m->tgt;
	d.bos = m->bos;
	d.eos = m->eos;
	d.max_src = tr->n;
	d.max_tgt = tr->ntgt;
	train_init_model(&tn, &d, m, 1u << sc, m->L, 0, 0);
	train_view(&v, &tn.lay, tn.theta, &d);
	train_view(&g, &tn.lay, tn.grad, &d);
	struct train_work *w = &tn.work;
	w->window = tr->cfg.window;
	w->window_size = tr->cfg.window_size;
	w->probe_t = t;
	w->probe_direct = xcalloc((size_t)(tr->n + 1) * m->H, sizeof(double));
	w->probe_total = total;
	struct train_pair pr = { tr->n, tr->ntgt, tr->src, tr->tgt, 0, NULL, tr->enc,
				  tr->input };
	a->train_begin(&v, w);
	a->train_pair(&g, &v, &pr, 1u << sc, 1.0, w, loss, right);
	memcpy(direct, w->probe_direct,
	       sizeof *direct * (size_t)(tr->n + 1) * m->H);
	free(w->probe_direct);
	w->probe_direct = w->probe_total = NULL;
	train_free(&tn);
}

/* Adds the operand of the n rows (H) of v, one a source word. */
static void gradpath_op(struct trace_rec *r, const char *name,
			const char *key, const double *v, int n, int H)
{
	struct trace_operand *op = trace_rec_op(r, OP_MID, name, key, v,
						n * H, n);
	op->row_axis = AXIS_SOURCE;
}

void gradpath_record(struct trace *tr, int run)
{
	const int n = tr->n, H = tr->m->H, t = gradpath_step(tr);
	const size_t N = (size_t)n * H;
	double *all = trace_alloc(tr, 2 * (N + H));
	double *total = trace_alloc(tr, N), *direct = trace_alloc(tr, N);
	double *rec = trace_alloc(tr, N), *norms = trace_alloc(tr, 3 * n);
	double *loss = trace_alloc(tr, 1);
	const struct trace_rec *out = trace_find(tr, REC_OUTPUT, run, t, 0);
	int gold = t <= tr->ntgt ? tr->tgt[t - 1] : tr->m->eos;

	/* step 1: the total and the direct dL_t/dh_i, rows 1..n */
	gradpath_run(tr, tr->runs[run].scorer, t, all, all + N + H);
	memcpy(total, all + H, sizeof *total * N);
	memcpy(direct, all + N + 2 * H, sizeof *direct * N);
	/* step 2: the rest, through the recurrence, and the three norms */
	for (size_t k = 0; k < N; k++)
		rec[k] = total[k] - direct[k];
	gradpath_norms(norms, total, n, H);
	gradpath_norms(norms + n, direct, n, H);
	gradpath_norms(norms + 2 * n, rec, n, H);
	*loss = -log(out->result[gold]);

	struct trace_rec *r = trace_rec_new(tr, REC_GRADPATH, STAGE_OUTPUT,
					    run, t, 0);
	r->word = gold;
	r->symbol = "‖∂L_{t}/∂h_i‖";
	r->formula = "L_{t} = -log ŷ_{t}[y_{t}]";
	gradpath_op(r, "∂L_{t}/∂h_i", "total", total, n, H);
	gradpath_op(r, "direct", "direct", direct, n, H);
	gradpath_op(r, "through the recurrence", "recurrence", rec, n, H);
	trace_rec_op(r, OP_MID, "‖direct‖", "direct_norm", norms + n, n, 1)
		->axis = AXIS_SOURCE;
	trace_rec_op(r, OP_MID, "‖through the recurrence‖",
		     "recurrence_norm", norms + 2 * n, n, 1)->axis =
		AXIS_SOURCE;
	trace_rec_op(r, OP_MID, "L_{t}", "loss", loss, 1, 1)->scalar = 1;
	r->result = norms;
	r->len = n;
	r->result_axis = AXIS_SOURCE;
}

const struct trace_rec *gradpath_find(const struct trace *tr, int run)
{
	for (int k = tr->nrecs - 1; k >= 0; k--) {
		const struct trace_rec *r = &tr->recs[k];
		if (r->kind != REC_GRADPATH)
			return NULL; /* they come last */
		if (r->run == run)
			return r;
	}
	return NULL;
}
