/* calc_view.c: the calc stepper's screens (calc_view.h). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calc_view.h"
#include "i18n.h"
#include "scorer.h"
#include "util.h"
#include "view_key.h"

static const char *const cv_help[] = {
	N_("The calc stepper (attn-trace calc --tui)"),
	"",
	N_("  -> n space Enter  the next screen: the inputs, scoring, softmax,"),
	N_("                    the weighted sum"),
	N_("  <- p              the one before"),
	N_("  Home End          the first screen, the last"),
	N_("  Up Down PgUp PgDn scroll the numbers"),
	N_("  ?                 this help (any key leaves it)"),
	N_("  q                 quit"),
	"",
	N_("Every line is one that 'attn-trace calc' prints: the same numbers,"),
	N_("a stage a screen."),
	NULL
};

/* The names of the screens, for the line under the title. */
static const char *const cv_names[CALC_VIEW_SCREENS] = {
	N_("the inputs"), N_("scoring"), N_("softmax"), N_("weighted sum")
};

void calc_view_init(struct calc_view *v, const struct calc *c, int prec,
		    int width)
{
	struct fmt_opts o;
	char *text = NULL;
	size_t len = 0;
	memset(v, 0, sizeof *v);
	v->c = c;
	v->prec = prec;
	v->width = width;
	v->page_rows = 10;
	fmt_opts_default(&o);
	o.precision = prec;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		abort(); /* only when memory runs out */
	calc_fmt_text(f, c, &o);
	fclose(f);
	/* the sections: the header and inputs, then "== stage ==" each,
	 * without its heading line and the blank line before it */
	char *p = strchr(text, '\n'); /* the title line goes to the title */
	p = p ? p + 1 : text;
	for (int k = 0; k < CALC_VIEW_SCREENS; k++) {
		char *next = strstr(p, "\n== ");
		size_t n = next ? (size_t)(next - p) + 1 : strlen(p);
		v->sec[k] = xstrndup(p, n);
		if (!next) {
			p += n;
			continue;
		}
		p = strchr(next + 1, '\n');
		p = p ? p + 1 : next + strlen(next);
	}
	free(text);
}

void calc_view_free(struct calc_view *v)
{
	for (int k = 0; k < CALC_VIEW_SCREENS; k++)
		free(v->sec[k]);
	memset(v, 0, sizeof *v);
}

/* The narrative of screen k. */
static char *cv_story(const struct calc_view *v, int k)
{
	const struct calc_in *in = v->c->in;
	const struct scorer_class *sc = scorer_get(in->scorer);
	switch (k) {
	case 0:
		return xasprintf(_("Attention on any vectors: a query s_1 of %d "
				   "numbers, %d keys h_i and a value v_i for "
				   "each.  The %s scorer compares the query "
				   "with each key, softmax turns the scores "
				   "into weights, and the output is the "
				   "weighted sum of the values."), in->d,
				 in->n, sc->name);
	case 1:
		return xasprintf(_("Each key gets a score, %s: how well it "
				   "matches the query."), _(sc->formula));
	case 2:
		return xstrdup(_("Softmax turns the scores into weights: each "
				 "exp(e - max), divided by their sum, so they "
				 "are positive and add up to 1, and the largest "
				 "score gets the largest weight."));
	default:
		return xstrdup(_("The output is the weighted sum of the values, "
				 "c_1 = Σ_i α_1,i·v_i: attention is a weighted "
				 "sum that depends on the query."));
	}
}

void calc_view_render(const struct calc_view *v, struct view_screen *s)
{
	const struct scorer_class *sc = scorer_get(v->c->in->scorer);
	int cap = 0;
	memset(s, 0, sizeof *s);
	s->title = xasprintf(_("attn-trace calc   scorer %s: %s"), sc->name,
			     _(sc->formula));
	s->stage = -1;
	if (v->help) {
		s->where = xstrdup(_("help"));
		for (int k = 0; cv_help[k]; k++)
			view_wrap(&s->body, &s->nbody, &cap,
				  cv_help[k][0] ? _(cv_help[k]) : " ",
				  v->width, 0);
		s->keys = xstrdup(_(" any key: back "));
		return;
	}
	/* TRANSLATORS: the screen's name, then its place */
	s->where = xasprintf(_("%s   screen %d of %d"), _(cv_names[v->screen]),
			     v->screen + 1, CALC_VIEW_SCREENS);
	char *story = cv_story(v, v->screen);
	view_wrap(&s->narr, &s->nnarr, &cap, story,
		  v->width < VIEW_PROSE_COLS ? v->width : VIEW_PROSE_COLS, 1);
	free(story);
	/* the arithmetic wrapped as the main stepper wraps its own (view.c):
	 * a 16-number vector or a 16-term sum would be cut at 80 columns */
	cap = 0; /* the narrative's; the body starts its own */
	view_wrap(&s->body, &s->nbody, &cap, v->sec[v->screen],
		  v->width < VIEW_TEXT_COLS ? v->width : VIEW_TEXT_COLS, 0);
	if (v->screen >= 2) { /* the weights, once softmax has made them */
		s->bars = xcalloc((size_t)v->c->tr.n, sizeof *s->bars);
		s->nbars = fmt_bars(s->bars, &v->c->tr, 0, 1, v->prec);
		s->bars_title = xstrdup(_("the weights α_1,i"));
	}
	/* ASCII arrows, as the help and the main stepper's key bar write
	 * them: '←' would be drawn as '?' under a locale that is not UTF-8 */
	s->keys = xstrdup(_(" <-/-> stage  up/down scroll  ? help  q quit "));
}

int calc_view_key(struct calc_view *v, int key)
{
	struct view_pager p = { &v->screen, CALC_VIEW_SCREENS - 1, &v->scroll,
				 v->page_rows, &v->help };
	return view_pager_key(&p, key);
}
