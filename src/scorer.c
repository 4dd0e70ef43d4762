/* scorer.c: the registry of scorers, built from src/scorer_list.h. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "attn.h"
#include "scorer.h"

#define SCORER(name) extern const struct scorer_class scorer_##name;
#include "scorer_list.h"
#undef SCORER

const struct scorer_class *const scorer_registry[SCORER_COUNT] = {
#define SCORER(name) &scorer_##name,
#include "scorer_list.h"
#undef SCORER
};

/* More would not fit the bitmasks and the model's table. */
_Static_assert(SCORER_COUNT <= SCORER_MAX, "too many scorers");

int scorer_find(const char *name)
{
	for (int k = 0; k < SCORER_COUNT; k++)
		if (strcmp(name, scorer_registry[k]->name) == 0)
			return k;
	return -1;
}

unsigned scorer_parse(const char *list)
{
	unsigned mask = 0;
	const char *p = list;

	if (strcmp(list, "all") == 0)
		return SCORER_ALL;
	for (;;) {
		const char *comma = strchr(p, ',');
		size_t n = comma ? (size_t)(comma - p) : strlen(p);
		int found = -1;
		for (int k = 0; k < SCORER_COUNT && found < 0; k++)
			if (strlen(scorer_registry[k]->name) == n &&
			    memcmp(p, scorer_registry[k]->name, n) == 0)
				found = k;
		if (found < 0)
			return 0;
		mask |= 1u << found;
		if (!comma)
			return mask;
		p = comma + 1;
	}
}

char *scorer_names(char *buf, size_t size, const char *sep,
		   const char *last)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int k = 0; k < SCORER_COUNT && used < size; k++) {
		const char *before = k == 0 ? ""
				   : k == SCORER_COUNT - 1 ? last : sep;
		int n = snprintf(buf + used, size - used, "%s%s", before,
				 scorer_registry[k]->name);
		if (n < 0)
			break;
		used += (size_t)n;
	}
	return buf;
}

int scorer_uses_positions(int sc)
{
	const struct scorer_class *c = scorer_registry[sc];

	for (int k = 0; k < c->nparams; k++)
		if (c->params[k].rows == DIM_L || c->params[k].cols == DIM_L)
			return 1;
	return 0;
}

void scorer_input(struct score_in *in, const struct model *m, int sc,
		  const double *Hs, int n)
{
	in->m = m;
	in->w = (const double *const *)m->sw[sc];
	in->Hs = Hs;
	in->n = n;
	in->H = m->H;
	in->A = m->A;
	in->prev_alpha = NULL;
}

double score_tanh_out(const double *v, const double *pre, double *act,
		      int A)
{
	for (int a = 0; a < A; a++)
		act[a] = tanh(pre[a]);
	return attn_dot(v, act, A);
}

void score_tanh_out_back(const double *v, const double *act, double de,
			 double *gv, double *du, int A)
{
	for (int a = 0; a < A; a++) {
		gv[a] += de * act[a];
		du[a] = de * v[a] * (1.0 - act[a] * act[a]);
	}
}
