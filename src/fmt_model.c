/* fmt_model.c: every weight of a model, as text or JSON. */
#include "config.h"

#include <string.h>

#include "arch.h"
#include "fmt.h"
#include "scorer.h"
#include "num.h"
#include "utf8.h"

static void text_mat(FILE *out, const char *name, const double *W, int rows,
		     int cols, int prec)
{
	fprintf(out, "\n%s (%d, %d)\n", name, rows, cols);
	for (int r = 0; r < rows; r++) {
		fputs("  ", out);
		fmt_text_vec(out, W + (size_t)r * cols, cols, prec);
		putc('\n', out);
	}
}

static void text_vocab(FILE *out, const char *name, const struct vocab *v,
		       int E, int prec)
{
	int width = 0;
	for (int k = 0; k < v->n; k++) {
		int w = utf8_width(v->words[k]);
		if (w > width)
			width = w;
	}
	fprintf(out, "\n%s embeddings (%d words, %d each)\n", name, v->n, E);
	for (int k = 0; k < v->n; k++) {
		fputs("  ", out);
		fmt_pad(out, v->words[k], width + 1);
		fmt_text_vec(out, v->emb + (size_t)k * E, E, prec);
		putc('\n', out);
	}
}

int fmt_text_model(FILE *out, const struct model *m,
		   const struct fmt_opts *o)
{
	struct model_param tab[MODEL_MAX_PARAMS];
	int p = o->precision, n = model_param_table((struct model *)m,
						    model_scorers(m) | model_mha(m), tab);
	fprintf(out, "%s\nmodel: %s\nembedding %d, hidden %d, attention %d",
		FMT_MODEL_TEXT_VERSION, m->name, m->E, m->H, m->A);
	if (m->L)
		fprintf(out, ", positions %d", m->L);
	if (m->arch != ARCH_luong)
		fprintf(out, ", architecture %s", arch_get(m->arch)->name);
	if (m->input_feeding)
		fputs(", input feeding", out);
	fputs("\n", out);
	for (int k = 0; k < n; k++) {
		const struct model_param *e = &tab[k];
		char label[96];
		switch (e->kind) {
		case PARAM_SRC_VOCAB:
			text_vocab(out, "source", &m->src, m->E, p);
			break;
		case PARAM_TGT_VOCAB:
			text_vocab(out, "target", &m->tgt, m->E, p);
			break;
		case PARAM_WORD_ROWS:
			snprintf(label, sizeof label, "%s rows: target",
				 e->label);
			text_vocab(out, m->arch == ARCH_luong
				   ? "output W_s rows: target" : label,
				   &(struct vocab){ .n = m->tgt.n,
				   .words = m->tgt.words, .emb = *e->slot },
				   e->cols, p);
			break;
		case PARAM_MATRIX:
			if (e->scorer >= 0)
				snprintf(label, sizeof label, "%s %s",
					 scorer_get(e->scorer)->name, e->label);
			else
				snprintf(label, sizeof label, "%s", e->label);
			text_mat(out, label, *e->slot, e->rows, e->cols, p);
			break;
		}
	}
	return ferror(out) ? -1 : 0;
}

static void json_vocab(FILE *out, const char *key, const struct vocab *v,
		       int E)
{
	fprintf(out, ",\n \"%s\": {", key);
	for (int k = 0; k < v->n; k++) {
		fputs(k ? ",\n   " : "\n   ", out);
		fmt_json_string(out, v->words[k]);
		fputs(": ", out);
		fmt_json_vec(out, v->emb + (size_t)k * E, E);
	}
	fputs("}", out);
}

/* The JSON of the matrix section e: a list for a vector (a bias, v_a), a
 * list of rows for a matrix, even of one row. */
static void json_param(FILE *out, const struct model_param *e)
{
	if (e->vector)
		fmt_json_vec(out, *e->slot, e->cols);
	else
		fmt_json_mat(out, *e->slot, e->rows, e->cols);
}

/* The weights of the table walked as JSON: "group": {"key": ..}, where
 * the section is "group.key". */
static void json_params(FILE *out, const struct model *m,
			const struct model_param *tab, int n)
{
	char group[48] = "";
	for (int k = 0; k < n; k++) {
		const struct model_param *e = &tab[k];
		const char *dot = strchr(e->section, '.');
		size_t glen = dot ? (size_t)(dot - e->section) : 0;
		int same = glen && strlen(group) == glen &&
			   memcmp(group, e->section, glen) == 0;
		if (e->kind == PARAM_SRC_VOCAB || e->kind == PARAM_TGT_VOCAB)
			continue;
		if (!same) {
			fprintf(out, "%s,\n \"%.*s\": {", group[0] ? "}" : "",
				(int)glen, e->section);
			snprintf(group, sizeof group, "%.*s", (int)glen,
				 e->section);
		} else {
			/* the first group's layout: a line a matrix, but the
			 * vectors of a scorer follow on the same line */
			fputs(e->scorer >= 0 && e->vector ? ", " : ",\n   ",
			      out);
		}
		fprintf(out, "\"%s\": ", dot + 1);
		if (e->kind == PARAM_WORD_ROWS)
			fmt_json_mat(out, *e->slot, m->tgt.n, e->cols);
		else
			json_param(out, e);
	}
}

int fmt_json_model(FILE *out, const struct model *m)
{
	struct model_param tab[MODEL_MAX_PARAMS];
	int n = model_param_table((struct model *)m,
				  model_scorers(m) | model_mha(m), tab);

	fprintf(out, "{\"format\": \"%s\",\n \"model\": ", FMT_MODEL_JSON_VERSION);
	fmt_json_string(out, m->name);
	fprintf(out, ",\n \"embedding_dim\": %d, \"hidden_dim\": %d, "
		"\"attention_dim\": %d", m->E, m->H, m->A);
	if (m->L)
		fprintf(out, ", \"positions\": %d", m->L);
	if (m->arch != ARCH_luong)
		fprintf(out, ", \"architecture\": \"%s\"",
			arch_get(m->arch)->name);
	if (m->input_feeding)
		fputs(", \"input_feeding\": true", out);
	json_vocab(out, "source_embeddings", &m->src, m->E);
	json_vocab(out, "target_embeddings", &m->tgt, m->E);
	json_params(out, m, tab, n);
	fputs(",\n   \"vocab\": [", out);
	for (int k = 0; k < m->tgt.n; k++) {
		fputs(k ? ", " : "", out);
		fmt_json_string(out, m->tgt.words[k]);
	}
	fputs("]}}\n", out);
	return ferror(out) ? -1 : 0;
}
