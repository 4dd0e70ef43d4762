/* glimpse_view.c: the glimpse stepper's screens (glimpse_view.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "glimpse_fmt.h"
#include "glimpse_view.h"
#include "i18n.h"
#include "num.h"
#include "utf8.h"
#include "util.h"
#include "view_key.h"

const char *const glimpse_view_help[] = {
	N_("The glimpse stepper (attn-trace glimpse --tui)"),
	"",
	N_("  -> n space Enter  the next glimpse, then the class"),
	N_("  <- p              the one before"),
	N_("  Home End          the first glimpse, the class"),
	N_("  Up Down PgUp PgDn scroll the numbers"),
	N_("  ?                 this help (any key leaves it)"),
	N_("  q                 quit"),
	"",
	N_("The picture: the image in shades, the glimpse's fovea (the 2x2"),
	N_("pixels it reads, solid) and periphery (the 4x4 it averages,"),
	N_("dotted), and the number of each glimpse so far on its corner."),
	NULL
};

/* A growing list of lines. */
struct gv_lines {
	char **v;
	int n, cap;
};

static void gv_push(struct gv_lines *l, char *s)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 16;
		l->v = xreallocarray(l->v, (size_t)l->cap, sizeof *l->v);
	}
	l->v[l->n++] = s;
}

/* "label = [v]", four numbers a line, the lines after indented under
 * the first number. */
static void gv_vec(struct gv_lines *l, const char *label, const double *v,
		   int n, int prec)
{
	for (int k = 0; k < n; k += 4) {
		char *text = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&text, &len);
		fmt_text_vec(f, v + k, n - k < 4 ? n - k : 4, prec);
		fclose(f);
		if (k + 4 < n)
			text[len - 1] = ',';
		if (k) {
			text[0] = ' ';
			gv_push(l, xasprintf("%*s%s", utf8_width(label) + 3, "",
					  text));
		} else {
			gv_push(l, xasprintf("%s = %s", label, text));
		}
		free(text);
	}
}

/* The picture of screen t as lines (glimpse_fmt_picture_at). */
static void gv_picture(struct gv_lines *l, const struct glimpse_view *v)
{
	char *text = NULL, *p, *nl;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	glimpse_fmt_picture_at(f, v->im, v->tr, v->screen, v->ascii);
	fclose(f);
	for (p = text; (nl = strchr(p, '\n')); p = nl + 1)
		gv_push(l, xstrndup(p, (size_t)(nl - p)));
	free(text);
}

/* The numbers of glimpse t (from 0). */
static void gv_step(struct gv_lines *l, const struct glimpse_view *v, int t)
{
	const struct glimpse_step *s = &v->tr->st[t];
	char lab[64], num[NUM_BUFSZ];
	int prec = v->prec;
	snprintf(lab, sizeof lab, "l̂_%d = tanh(W_l·h_%d + b_l)", t + 1, t);
	gv_push(l, xstrdup(lab));
	gv_vec(l, "    ", s->l_hat, 2, prec);
	gv_vec(l, "u", s->u, 2, prec);
	gv_vec(l, "ε", s->eps, 2, prec);
	snprintf(lab, sizeof lab, "l_%d = l̂_%d + σ·ε", t + 1, t + 1);
	gv_vec(l, lab, s->l, 2, prec);
	gv_push(l, xasprintf("log π(l_%d | l̂_%d) = %s", t + 1, t + 1,
			  num_fixed(num, s->log_pi, prec)));
	gv_push(l, xasprintf(_("corner (row, column) = (%d, %d)"), s->row,
			  s->col));
	gv_vec(l, _("fovea ρ_1..4"), s->x, 4, prec);
	gv_vec(l, _("periph ρ_5..8"), s->x + 4, 4, prec);
	snprintf(lab, sizeof lab, "φ_%d", t + 1);
	gv_vec(l, lab, s->g, v->m->gsize, prec);
	snprintf(lab, sizeof lab, "h_%d", t + 1);
	gv_vec(l, lab, s->h, v->m->hidden, prec);
}

/* The classifier's numbers: p by class, the class, the learning terms. */
static void gv_class(struct gv_lines *l, const struct glimpse_view *v)
{
	const struct glimpse_model *m = v->m;
	const struct glimpse_trace *tr = v->tr;
	char num[NUM_BUFSZ], zs[NUM_BUFSZ];
	gv_push(l, xasprintf("ŷ = softmax(W_o·h_%d + b_o)", m->steps));
	for (int k = 0; k < m->nclass; k++)
		gv_push(l, xasprintf("  %-8s logit %*s  ŷ %*s%s", m->cls[k],
				  v->prec + 5, num_fixed(zs, tr->z[k], v->prec),
				  v->prec + 3,
				  num_fixed(num, tr->p[k], v->prec),
				  k == tr->pred ? _("  <- the class") : ""));
	if (tr->truth < 0)
		return;
	gv_push(l, xasprintf(_("true class %s: loss -log ŷ[%s] = %s"),
			  m->cls[tr->truth], m->cls[tr->truth],
			  num_fixed(num, tr->loss, v->prec)));
	gv_push(l, xasprintf(_("reward R = %s"),
			     num_fixed(num, tr->reward, v->prec)));
	gv_vec(l, "R̄_t", m->base, m->steps, v->prec);
	gv_vec(l, "δ_t = R - R̄_t", tr->adv, m->steps, v->prec);
}

/* The numbers' lines beside the picture's (side by side when v->width
 * has room for both, the picture's indent cut to 2 columns; else below
 * it) into body; frees pic and num. */
static void gv_beside(struct gv_lines *body, struct gv_lines *pic,
		      struct gv_lines *num, const struct glimpse_view *v)
{
	int pw = 3 * v->im->width + 3, nw = 0;
	for (int k = 0; k < num->n; k++)
		if (utf8_width(num->v[k]) > nw)
			nw = utf8_width(num->v[k]);
	int side = v->width >= pw + 2 + nw;
	int n = side ? (pic->n > num->n ? pic->n : num->n) : pic->n + num->n;
	for (int k = 0; k < n; k++) {
		if (!side)
			gv_push(body, xstrdup(k < pic->n ? pic->v[k]
					      : num->v[k - pic->n]));
		else
			gv_push(body, xasprintf("%s%*s  %s", k < pic->n ?
					     pic->v[k] + 2 : "",
					     k < pic->n ? 0 : pw, "",
					     k < num->n ? num->v[k] : ""));
	}
	for (int k = 0; k < pic->n; k++)
		free(pic->v[k]);
	for (int k = 0; k < num->n; k++)
		free(num->v[k]);
	free(pic->v);
	free(num->v);
}

/* The narrative of the screen. */
static char *gv_story(const struct glimpse_view *v)
{
	const struct glimpse_model *m = v->m;
	int t = v->screen;
	char sig[NUM_BUFSZ];
	if (t == m->steps)
		return xasprintf(_("After %d glimpses the classifier reads "
			      "the core's last state: ŷ = softmax(W_o·h_%d + "
			      "b_o) names the class %s.%s"), m->steps, m->steps,
			      m->cls[v->tr->pred], v->tr->truth < 0 ? "" :
			      _(" With the true class, the reward R is 1 if it "
			      "is right, and REINFORCE moves each l̂_t along "
			      "δ_t·∂ log π/∂ l̂_t."));
	return xasprintf(_("Glimpse %d of %d: the core's state h_%d proposes "
		      "a place l̂_%d; the place l_%d is drawn around it with "
		      "σ = %s; the retina reads the 2×2 pixels at its corner "
		      "(solid) and the 4×4 around them averaged (dotted); "
		      "φ_%d and h_%d take them in."), t + 1, m->steps, t,
		      t + 1, t + 1, num_fixed(sig, m->sigma, 2), t + 1, t + 1);
}

void glimpse_view_init(struct glimpse_view *v, const struct glimpse_model *m,
		       const char *mname, const struct pgm_image *im,
		       const char *name,
		       const struct glimpse_trace *tr, int prec, int ascii,
		       int width)
{
	memset(v, 0, sizeof *v);
	v->m = m;
	v->im = im;
	v->tr = tr;
	v->mname = mname;
	v->name = name;
	v->prec = prec;
	v->ascii = ascii;
	v->width = width;
	v->page_rows = 10;
}

void glimpse_view_render(const struct glimpse_view *v, struct view_screen *s)
{
	struct gv_lines narr = { 0 }, body = { 0 }, pic = { 0 }, num = { 0 };
	memset(s, 0, sizeof *s);
	s->title = xasprintf(_("attn-trace glimpse   %s   model %s, seed %llu"),
			  v->name, v->mname,
			  (unsigned long long)v->tr->seed);
	s->stage = -1;
	if (v->help) {
		s->where = xstrdup(_("help"));
		for (int k = 0; glimpse_view_help[k]; k++)
			gv_push(&body, xstrdup(glimpse_view_help[k][0]
					       ? _(glimpse_view_help[k]) : ""));
		s->keys = xstrdup(_(" any key: back "));
	} else {
		int last = v->screen == v->m->steps;
		s->where = last ? xasprintf(_("the class   screen %d of %d"),
					 v->screen + 1, v->m->steps + 1)
				: xasprintf(_("glimpse %d of %d   screen %d of "
					    "%d"),
					 v->screen + 1, v->m->steps,
					 v->screen + 1, v->m->steps + 1);
		char *story = gv_story(v);
		view_wrap(&narr.v, &narr.n, &narr.cap, story,
			  v->width < VIEW_PROSE_COLS ? v->width
						     : VIEW_PROSE_COLS, 1);
		free(story);
		gv_picture(&pic, v);
		if (last)
			gv_class(&num, v);
		else
			gv_step(&num, v, v->screen);
		gv_beside(&body, &pic, &num, v);
		/* ASCII arrows, as the help and the main stepper write them */
		s->keys = xstrdup(_(" <-/-> glimpse  up/down scroll  ? help  "
				    "q quit "));
	}
	s->narr = narr.v;
	s->nnarr = narr.n;
	s->body = body.v;
	s->nbody = body.n;
}

int glimpse_view_key(struct glimpse_view *v, int key)
{
	struct view_pager p = { &v->screen, v->m->steps, &v->scroll,
				 v->page_rows, &v->help };
	return view_pager_key(&p, key);
}
