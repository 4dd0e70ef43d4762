/* fuzz_glimpse.c: libFuzzer harness for the readers of the glimpse
 * model (issue 29): the model file parser (src/glimpse_model.c) and the
 * image list of "glimpse --batch" (src/glimpse_batch.h).
 *
 * The first byte picks the reader (even: the model file, odd: the list);
 * the rest is the file.  A model that parses must keep the contract
 * (sizes in range, σ > 0, every number finite), be written back by
 * glimpse_model_write() and read again to the same bytes, and run on a
 * fixed 6x6 image with every formatter of the trace into /dev/null.  A
 * list that parses must hold 1 .. GLIMPSE_BATCH_MAX items, each path under
 * the given directory (or absolute), each class one of glimpse6's or
 * none, its lines increasing.  A refusal must leave the model all zero or
 * the list empty, and one line that starts "fuzz:" and says what was
 * expected.
 *
 * Built and run by tests/fuzz/run; see tests/fuzz/README.md. */
#include "config.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "glimpse.h"
#include "glimpse_batch.h"
#include "glimpse_fmt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *fuzz_sink(void)
{
	static FILE *sink;
	if (sink == NULL)
		sink = fopen("/dev/null", "w");
	if (sink == NULL)
		abort();
	return sink;
}

static void fuzz_check_error(const char *msg)
{
	if (strchr(msg, '\n') != NULL || strncmp(msg, "fuzz:", 5) != 0 ||
	    strstr(msg, "expected") == NULL)
		abort();
}

/* A 6x6 image with a bar, as the shipped ones. */
static void fuzz_image(struct pgm_image *im)
{
	memset(im, 0, sizeof *im);
	im->width = im->height = 6;
	im->maxval = 255;
	im->kind = PGM_PLAIN;
	for (int k = 0; k < 36; k++) {
		im->raw[k] = k % 6 == 2 ? 255 : (unsigned short)(k * 7 % 40);
		im->pix[k] = im->raw[k] / 255.0;
	}
}

/* Every format of a run of m into /dev/null. */
static void fuzz_formats(const struct glimpse_model *m)
{
	static struct pgm_image im;
	static struct glimpse_trace tr;
	struct glimpse_out o = { 3, 0, 4, 1 };
	uint64_t rng = 1;
	fuzz_image(&im);
	glimpse_run(m, &im, GLIMPSE_SAMPLE, &rng, NULL, m->nclass - 1, &tr);
	FILE *f = fuzz_sink();
	glimpse_fmt_text(f, m, "fuzz", &im, "fuzz.pgm", &tr, 4, 0);
	glimpse_fmt_json_out(f, m, "fuzz", &im, "fuzz.pgm", &tr, &o);
	o.compact = 1;
	glimpse_fmt_json_out(f, m, "fuzz", &im, "fuzz.pgm", &tr, &o);
	glimpse_fmt_csv(f, m, "fuzz", &im, "fuzz.pgm", &tr, &o);
	glimpse_fmt_md(f, m, "fuzz", &im, "fuzz.pgm", &tr, &o);
	glimpse_fmt_svg(f, m, &im, "fuzz.pgm", &tr);
	glimpse_fmt_model_json(f, m, "fuzz");
}

/* Writes m to memory and reads it back: the same text twice. */
static void fuzz_round_trip(const struct glimpse_model *m)
{
	static struct glimpse_model again;
	char *a = NULL, *b = NULL;
	size_t na = 0, nb = 0;
	struct errbuf err;
	FILE *f = open_memstream(&a, &na);
	if (!f || glimpse_model_write(f, m, "fuzz") != 0 || fclose(f) != 0)
		abort();
	if (glimpse_model_parse(&again, a, na, "fuzz", &err) != 0)
		abort();
	f = open_memstream(&b, &nb);
	if (!f || glimpse_model_write(f, &again, "fuzz") != 0 || fclose(f))
		abort();
	if (na != nb || memcmp(a, b, na) != 0)
		abort();
	free(a);
	free(b);
}

static void fuzz_model(const uint8_t *data, size_t size)
{
	static struct glimpse_model m;
	static const struct glimpse_model zero;
	struct errbuf err;
	if (glimpse_model_parse(&m, (const char *)data, size, "fuzz",
				&err) != 0) {
		if (memcmp(&m, &zero, sizeof m) != 0)
			abort();
		fuzz_check_error(err.msg);
		return;
	}
	if (m.hidden < 1 || m.hidden > GLIMPSE_MAX_HIDDEN || m.gsize < 1 ||
	    m.gsize > GLIMPSE_MAX_G || m.steps < 1 ||
	    m.steps > GLIMPSE_MAX_STEPS || m.nclass < 2 ||
	    m.nclass > GLIMPSE_MAX_CLASSES || !(m.sigma > 0) ||
	    !isfinite(m.sigma))
		abort();
	fuzz_round_trip(&m);
	fuzz_formats(&m);
}

static void fuzz_list(const uint8_t *data, size_t size)
{
	static struct glimpse_model m;
	struct glimpse_batch b;
	struct errbuf err;
	if (!m.hidden && glimpse_model_load(&m, GLIMPSE_BUILTIN, &err) != 0)
		abort();
	if (glimpse_batch_parse(&b, (const char *)data, size, "fuzz", "d/",
				&m, &err) != 0) {
		if (b.n != 0 || b.item != NULL)
			abort();
		fuzz_check_error(err.msg);
		return;
	}
	if (b.n < 1 || b.n > GLIMPSE_BATCH_MAX)
		abort();
	for (int k = 0; k < b.n; k++) {
		const struct glimpse_batch_item *it = &b.item[k];
		if ((strncmp(it->path, "d/", 2) != 0 && it->path[0] != '/') ||
		    it->truth < -1 || it->truth >= m.nclass ||
		    (k && it->line <= b.item[k - 1].line))
			abort();
	}
	glimpse_batch_free(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size == 0)
		return 0;
	if (data[0] % 2 == 0)
		fuzz_model(data + 1, size - 1);
	else
		fuzz_list(data + 1, size - 1);
	return 0;
}
