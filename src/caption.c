/* caption.c: the patch encoder of soft attention over an image, an
 * encoder plug-in in front of Bahdanau's decoder (caption.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "arch.h"
#include "attn.h"
#include "caption.h"
#include "fmt.h"
#include "i18n.h"
#include "train.h"
#include "train_part.h"
#include "window.h"

const char *const caption_cell_names[CAPTION_CELLS] = {
	"top-left", "top", "top-right",
	"left", "middle", "right",
	"bottom-left", "bottom", "bottom-right"
};

int caption_check_model(const struct model *m, struct errbuf *err)
{
	const char *name = m->name ? m->name : _("the model");
	if (m->arch != arch_find("bahdanau") ||
	    !(model_mha(m) & PATCH_PARAM_BIT)) {
		err_set(err, _("%s: expected an image model (architecture "
			"bahdanau with the sections [patch.W], [patch.b], "
			"[patch.P] and [patch.W_init]), found a model without "
			"them"), name);
		return -1;
	}
	if (m->src.n != CAPTION_CELLS) {
		err_set(err, _("%s: expected the %d cells as the source words "
			"of an image model, found %d source words"), name,
			CAPTION_CELLS, m->src.n);
		return -1;
	}
	for (int i = 0; i < CAPTION_CELLS; i++)
		if (strcmp(m->src.words[i], caption_cell_names[i]) != 0) {
			err_set(err, _("%s: expected source word %d of an image "
				"model to be the cell \"%s\", found \"%s\""),
				name, i + 1, caption_cell_names[i],
				m->src.words[i]);
			return -1;
		}
	return 0;
}

int caption_check_image(const struct pgm_image *im, const char *name,
			struct errbuf *err)
{
	if (im->width == CAPTION_SIDE && im->height == CAPTION_SIDE)
		return 0;
	err_set(err, _("%s: expected an image of %d×%d pixels to caption, "
		"found %d×%d"), name, CAPTION_SIDE, CAPTION_SIDE, im->width,
		im->height);
	return -1;
}

void caption_patch(const struct pgm_image *im, int cell, double *x)
{
	const int r = CAPTION_PATCH * (cell / CAPTION_GRID);
	const int c = CAPTION_PATCH * (cell % CAPTION_GRID);
	for (int dr = 0; dr < CAPTION_PATCH; dr++)
		for (int dc = 0; dc < CAPTION_PATCH; dc++)
			x[dr * CAPTION_PATCH + dc] = pgm_at(im, r + dr, c + dc);
}

void caption_annotate(const struct model *m, int cell, const double *x,
		      double *wx, double *pre, double *h)
{
	const int H = m->H;
	const double *P = m->Ppatch + (size_t)cell * H;
	attn_matvec(wx, m->Wpatch, x, H, PATCH_PIXELS);
	for (int k = 0; k < H; k++)
		pre[k] = wx[k] + m->bpatch[k] + P[k];
	attn_tanh(h, pre, H);
}

void caption_start_state(const struct model *m, const double *Hs, int n,
			 double *mean, double *wi, double *s0)
{
	const int H = m->H;
	for (int k = 0; k < H; k++) {
		double sum = 0.0;
		for (int i = 0; i < n; i++)
			sum += Hs[(size_t)i * H + k];
		mean[k] = sum / n;
	}
	attn_matvec(wi, m->Wpinit, mean, H, H);
	attn_tanh(s0, wi, H);
}

/* The titles of the annotations' records, in the cells' order. */
static const char *const caption_titles[CAPTION_CELLS] = {
	"the annotation of the top-left cell", "the annotation of the top cell",
	"the annotation of the top-right cell",
	"the annotation of the left cell", "the annotation of the middle cell",
	"the annotation of the right cell",
	"the annotation of the bottom-left cell",
	"the annotation of the bottom cell",
	"the annotation of the bottom-right cell"
};

/* step 0: each cell's patch and its annotation h_i, one REC_PATCH each */
static const double *caption_encode(struct trace *tr)
{
	const struct model *m = tr->m;
	const struct pgm_image *im = tr->input;
	const int H = m->H, n = tr->n;
	double *Hs = trace_alloc(tr, (size_t)n * H);
	for (int i = 1; i <= n; i++) {
		double *x = trace_alloc(tr, PATCH_PIXELS);
		double *wx = trace_alloc(tr, (size_t)H);
		double *pre = trace_alloc(tr, (size_t)H);
		double *h = Hs + (size_t)(i - 1) * H;
		caption_patch(im, i - 1, x);
		caption_annotate(m, i - 1, x, wx, pre, h);
		struct trace_rec *r = trace_rec_new(tr, REC_PATCH,
						    STAGE_ENCODING, -1, 0, i);
		/* the patch is cut out of the image: the encoder's first
		 * intermediate, printed with the others */
		trace_rec_op(r, OP_MID, "patch_{i}", "pixels", x,
			     PATCH_PIXELS, 1);
		trace_rec_op(r, OP_MID, "W_patch·patch_{i}", "W_patch_x", wx,
			     H, 1);
		trace_rec_op(r, OP_WEIGHT, "b_patch", "b", m->bpatch, H, 1);
		trace_rec_op(r, OP_WEIGHT, "pos_{i}", "pos",
			     m->Ppatch + (size_t)(i - 1) * H, H, 1);
		trace_rec_op(r, OP_MID, "sum", "pre", pre, H, 1);
		r->title = caption_titles[i - 1];
		r->symbol = "h_{i}";
		r->formula = "tanh(W_patch·patch_{i} + b_patch + pos_{i})";
		r->result = h;
		r->len = H;
	}
	return Hs;
}

/* s_0 = tanh(W_init·h̄), h̄ the mean annotation */
static const double *caption_start(struct trace *tr, const double *Hs)
{
	const int H = tr->m->H;
	double *mean = trace_alloc(tr, (size_t)H);
	double *wi = trace_alloc(tr, (size_t)H);
	double *s0 = trace_alloc(tr, (size_t)H);
	caption_start_state(tr->m, Hs, tr->n, mean, wi, s0);
	struct trace_rec *r = trace_rec_new(tr, REC_INIT, STAGE_ENCODING,
					    -1, 0, 0);
	trace_rec_op(r, OP_MID, "h̄ = Σ_i h_i / {n}", "mean", mean, H, 1);
	trace_rec_op(r, OP_MID, "W_init·h̄", "W_init_mean", wi, H, 1);
	r->title = "the decoder's first state";
	r->symbol = "s_0";
	r->formula = "tanh(W_init·h̄)";
	r->result = s0;
	r->len = H;
	return s0;
}

/* ---------------------------------------------- the training part */

/* The same arithmetic into training's work space: h_i into w->h row i,
 * s_0 into w->s row 0. */
static void caption_train_encode(const struct model *m, const void *input,
				 int n, struct train_work *w)
{
	const int H = m->H;
	double x[PATCH_PIXELS], wx[MODEL_MAX_DIM], pre[MODEL_MAX_DIM];
	double mean[MODEL_MAX_DIM], wi[MODEL_MAX_DIM];
	for (int i = 1; i <= n; i++) {
		caption_patch(input, i - 1, x);
		caption_annotate(m, i - 1, x, wx, pre, w->h + (size_t)i * H);
	}
	caption_start_state(m, w->h + H, n, mean, wi, w->s);
}

/* Back from dL/ds_0 (w->ds row 0) through s_0 = tanh(W_init·h̄) to h̄,
 * whose gradient each h_i gets a ninth of, and from dL/dh_i (w->dh row
 * i, plus that) through h_i = tanh(W_patch·patch_i + b_patch). */
static void caption_train_back(struct model *g, const struct model *m,
			       const void *input, int n, struct train_work *w)
{
	const int H = m->H;
	double mean[MODEL_MAX_DIM], wi[MODEL_MAX_DIM], s0[MODEL_MAX_DIM];
	double dpre[MODEL_MAX_DIM], dmean[MODEL_MAX_DIM], x[PATCH_PIXELS];
	double dx[PATCH_PIXELS];
	caption_start_state(m, w->h + H, n, mean, wi, s0);
	for (int k = 0; k < H; k++) {
		dpre[k] = w->ds[k] * (1.0 - s0[k] * s0[k]);
		dmean[k] = 0.0;
	}
	attn_linear_back(g->Wpinit, dmean, m->Wpinit, H, dpre, mean, H, H);
	for (int i = 1; i <= n; i++) {
		const double *h = w->h + (size_t)i * H;
		const double *dh = w->dh + (size_t)i * H;
		double dhi[MODEL_MAX_DIM]; /* dL/dh_i, by every path */
		for (int k = 0; k < H; k++)
			dhi[k] = dh[k] + dmean[k] / n;
		train_probe_total(w, i, 0, dhi, H); /* --gradient-paths */
		for (int k = 0; k < H; k++) {
			dpre[k] = dhi[k] * (1.0 - h[k] * h[k]);
			g->bpatch[k] += dpre[k];
			g->Ppatch[(size_t)(i - 1) * H + k] += dpre[k];
		}
		memset(dx, 0, sizeof dx);
		caption_patch(input, i - 1, x);
		attn_linear_back(g->Wpatch, dx, m->Wpatch, PATCH_PIXELS, dpre,
				 x, H, PATCH_PIXELS);
	}
}

/* The stepper's words for the encoding of cell i. */
static void caption_narrate(FILE *f, const struct trace *tr, int i,
			    int prec)
{
	(void)prec;
	/* TRANSLATORS: %1$d the cells a side, %2$d the pixels a side of a
	 * cell, %3$d the cell i, %4$d the cells, %5$s the cell's name */
	fprintf(f, _("The patch encoder reads the image as %1$d×%1$d cells of "
		     "%2$d×%2$d pixels. Cell %3$d of %4$d is \"%5$s\": its "
		     "pixels, row by row, are patch_%3$d; W_patch·patch_%3$d "
		     "plus b_patch and the cell's place pos_%3$d, through "
		     "tanh, is its annotation h_%3$d, the state attention "
		     "reads."), CAPTION_GRID, CAPTION_PATCH, i, tr->n,
		tr->m->src.words[tr->src[i - 1]]);
	if (i == tr->n)
		fputs(_(" The decoder starts from s_0 = tanh(W_init·h̄), h̄ the "
			"mean of the nine annotations: the whole image at "
			"once."), f);
}

static void caption_image_rows(struct fmt_buf *b,
			       const struct pgm_image *im, int raw)
{
	fmt_buf_putc(b, '[');
	for (int r = 0; r < im->height; r++) {
		fmt_buf_puts(b, r ? ", [" : "[");
		for (int c = 0; c < im->width; c++) {
			int k = r * im->width + c;
			fmt_buf_puts(b, c ? ", " : "");
			if (raw)
				fmt_buf_int(b, im->raw[k]);
			else
				fmt_buf_json_num(b, im->pix[k]);
		}
		fmt_buf_putc(b, ']');
	}
	fmt_buf_putc(b, ']');
}

/* The JSON trace's "input": the image as its file gave it (raw, 0 ..
 * maxval) and as the encoder reads it (pixels = raw / maxval). */
static void caption_json_input(struct fmt_buf *b, const struct trace *tr)
{
	const struct pgm_image *im = tr->input;
	const char *name = caption_image_name(tr);
	fmt_buf_puts(b, "{\"image\": ");
	if (name)
		fmt_buf_json_string(b, name);
	else
		fmt_buf_puts(b, "null");
	fmt_buf_printf(b, ", \"pgm\": \"%s\", \"width\": %d, "
		       "\"height\": %d, \"maxval\": %d, \"raw\": ",
		       pgm_kind_name(im->kind), im->width, im->height,
		       im->maxval);
	caption_image_rows(b, im, 1);
	fmt_buf_puts(b, ", \"pixels\": ");
	caption_image_rows(b, im, 0);
	fmt_buf_putc(b, '}');
}

const struct trace_encoder caption_encoder = {
	.name = "patch",
	.summary = N_("in place of the word encoder: each 2×2 patch of the "
		      "6×6 image a cell, h_i = tanh(W_patch·patch_i + b_patch + "
		      "pos_i), "
		      "s_0 = tanh(W_init·h̄)"),
	.items = N_("cells"),
	.encode = caption_encode,
	.start = caption_start,
	.train_encode = caption_train_encode,
	.train_back = caption_train_back,
	.narrate = caption_narrate,
	.json_input = caption_json_input,
};

int caption_build(struct trace *tr, const struct model *m,
		  const struct pgm_image *im, const int *tgt, int ntgt,
		  unsigned scorers, const struct trace_cfg *cfg,
		  struct errbuf *err)
{
	int cells[CAPTION_CELLS];
	memset(tr, 0, sizeof *tr);
	if (caption_check_model(m, err) != 0 ||
	    caption_check_image(im, "the image", err) != 0)
		return -1;
	for (int i = 0; i < CAPTION_CELLS; i++)
		cells[i] = i;
	return trace_build_enc(tr, m, &caption_encoder, im, cells,
			       CAPTION_CELLS, tgt, ntgt, scorers, cfg, err);
}

int caption_is_model(const struct model *m)
{
	struct errbuf err;
	return caption_check_model(m, &err) == 0;
}

char *caption_batch_path(const char *batch, const char *path)
{
	const char *slash = batch ? strrchr(batch, '/') : NULL;
	if (!slash || path[0] == '/' || strcmp(batch, "-") == 0)
		return xstrdup(path);
	size_t dir = (size_t)(slash - batch + 1), n = dir + strlen(path) + 1;
	char *p = xmalloc(n);
	snprintf(p, n, "%.*s%s", (int)dir, batch, path);
	return p;
}

/* The trace's own image and the name it was read by, freed by
 * trace_free(); the encoder reads tr->input as its first member. */
struct caption_owned {
	struct pgm_image im;
	char *name;
};

static void caption_image_free(void *input)
{
	struct caption_owned *o = input;
	free(o->name);
	free(o);
}

const char *caption_image_name(const struct trace *tr)
{
	if (tr->input_free != caption_image_free)
		return NULL;
	return ((const struct caption_owned *)tr->input)->name;
}

/* 0 if cfg's window applies to an image's cells (global), else -1 with
 * err saying why not. */
static int caption_check_window(const struct trace_cfg *cfg,
				struct errbuf *err)
{
	if (!cfg || cfg->window == WINDOW_DEFAULT)
		return 0;
	err_set(err, _("--window=%s centres on a position of a sentence, and "
		"an image's cells have no order to centre on; an image model "
		"attends over all nine cells (--window=global)"),
		window_get(cfg->window)->name);
	return -1;
}

/* 1 if name is "-" or ends in ".pgm" (in any case): a PGM's name. */
static int caption_pgm_name(const char *name)
{
	size_t n = strlen(name);
	return strcmp(name, "-") == 0 ||
	       (n > 4 && strcasecmp(name + n - 4, ".pgm") == 0);
}

int caption_trace_file(struct trace *tr, const struct model *m,
		       const char *path, const int *tgt, int ntgt,
		       unsigned scorers, const struct trace_cfg *cfg,
		       struct errbuf *err)
{
	memset(tr, 0, sizeof *tr);
	if (caption_check_window(cfg, err) != 0)
		return -1;
	while (*path == ' ' || *path == '\t')
		path++;
	size_t len = strlen(path);
	while (len > 0 && (path[len - 1] == ' ' || path[len - 1] == '\t' ||
			   path[len - 1] == '\n' || path[len - 1] == '\r'))
		len--;
	char *name = xstrndup(path, len);
	struct caption_owned *own = xmalloc(sizeof *own);
	struct pgm_image *im = &own->im;
	int rc = pgm_load(im, name, err);
	if (rc != 0 && !caption_pgm_name(name) && access(name, F_OK) != 0) {
		/* no such file, and no PGM's name: a sentence, say */
		char why[sizeof err->msg];
		snprintf(why, sizeof why, "%s", err->msg);
		err_set(err, _("%s is an image model, which reads the PGM "
			"image named where a sentence would be: %s"),
			m->name ? m->name : _("the model"), why);
	}
	if (rc == 0)
		rc = caption_check_image(im, strcmp(name, "-") == 0
					 ? "standard input" : name, err);
	if (rc == 0)
		rc = caption_build(tr, m, im, tgt, ntgt, scorers, cfg, err);
	if (rc != 0) {
		free(name);
		free(own);
		return -1;
	}
	own->name = name;
	tr->input_free = caption_image_free;
	return 0;
}
