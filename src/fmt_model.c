/* fmt_model.c: every weight of a model, as text or JSON. */
#include "config.h"

#include "fmt.h"
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
	int p = o->precision, H = m->H, E = m->E, A = m->A;
	fprintf(out, "%s\nmodel: %s\nembedding %d, hidden %d, attention %d\n",
		FMT_MODEL_TEXT_VERSION, m->name, E, H, A);
	text_vocab(out, "source", &m->src, E, p);
	text_vocab(out, "target", &m->tgt, E, p);
	text_mat(out, "encoder W_x", m->enc.Wx, H, E, p);
	text_mat(out, "encoder W_h", m->enc.Wh, H, H, p);
	text_mat(out, "encoder b", m->enc.b, 1, H, p);
	text_mat(out, "decoder W_x", m->dec.Wx, H, E, p);
	text_mat(out, "decoder W_h", m->dec.Wh, H, H, p);
	text_mat(out, "decoder b", m->dec.b, 1, H, p);
	text_mat(out, "general W_a", m->Wg, H, H, p);
	text_mat(out, "concat W_a, applied to [s_t; h_i]", m->Wa, A, 2 * H, p);
	text_mat(out, "concat v_a", m->va, 1, A, p);
	text_mat(out, "output W_c, applied to [c_t; s_t]", m->Wc, H, 2 * H, p);
	text_vocab(out, "output W_s rows: target", &(struct vocab){
		.n = m->tgt.n, .words = m->tgt.words, .emb = m->Ws }, H, p);
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

static void json_rnn(FILE *out, const char *key, const struct rnn *w, int E,
		     int H)
{
	fprintf(out, ",\n \"%s\": {\"W_x\": ", key);
	fmt_json_mat(out, w->Wx, H, E);
	fputs(",\n   \"W_h\": ", out);
	fmt_json_mat(out, w->Wh, H, H);
	fputs(",\n   \"b\": ", out);
	fmt_json_vec(out, w->b, H);
	fputs("}", out);
}

int fmt_json_model(FILE *out, const struct model *m)
{
	int H = m->H, E = m->E, A = m->A;
	fprintf(out, "{\"format\": \"%s\",\n \"model\": ", FMT_MODEL_JSON_VERSION);
	fmt_json_string(out, m->name);
	fprintf(out, ",\n \"embedding_dim\": %d, \"hidden_dim\": %d, "
		"\"attention_dim\": %d", E, H, A);
	json_vocab(out, "source_embeddings", &m->src, E);
	json_vocab(out, "target_embeddings", &m->tgt, E);
	json_rnn(out, "encoder", &m->enc, E, H);
	json_rnn(out, "decoder", &m->dec, E, H);
	fputs(",\n \"general\": {\"W\": ", out);
	fmt_json_mat(out, m->Wg, H, H);
	fputs("},\n \"concat\": {\"W\": ", out);
	fmt_json_mat(out, m->Wa, A, 2 * H);
	fputs(", \"v\": ", out);
	fmt_json_vec(out, m->va, A);
	fputs("},\n \"output\": {\"W_c\": ", out);
	fmt_json_mat(out, m->Wc, H, 2 * H);
	fputs(",\n   \"W_s\": ", out);
	fmt_json_mat(out, m->Ws, m->tgt.n, H);
	fputs(",\n   \"vocab\": [", out);
	for (int k = 0; k < m->tgt.n; k++) {
		fputs(k ? ", " : "", out);
		fmt_json_string(out, m->tgt.words[k]);
	}
	fputs("]}}\n", out);
	return ferror(out) ? -1 : 0;
}
