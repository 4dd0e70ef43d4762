/* cli_trace.c: attn-trace trace: one sentence or a batch of pairs, in
 * text, JSON, JSON Lines, CSV or Markdown, to stdout or to a file that is
 * replaced atomically. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "outfile.h"
#include "tok.h"

/* Writes one trace in the chosen format.  first is 1 for the first trace
 * of the output, which decides separators and the CSV header. */
static void trace_write(FILE *out, const struct trace *tr,
			const struct cli_opts *o, const struct fmt_opts *fo,
			int first)
{
	struct fmt_opts jo = *fo;
	switch (o->format) {
	case FORMAT_TEXT:
		if (!first)
			putc('\n', out);
		fmt_text_trace(out, tr, fo);
		break;
	case FORMAT_JSON:
		if (o->batch)
			fputs(first ? "[" : ",\n", out);
		fmt_json_trace(out, tr, fo);
		break;
	case FORMAT_JSONL:
		jo.compact = 1;
		fmt_json_trace(out, tr, &jo);
		break;
	case FORMAT_CSV:
		fmt_csv_trace(out, tr, fo, first);
		break;
	case FORMAT_MARKDOWN:
		if (!first)
			fputs("\n---\n\n", out);
		fmt_md_trace(out, tr, fo);
		break;
	}
}

/* Traces one batch line, line[0..len); returns 0, or -1 after reporting
 * it as NAME:LINE: message.  A NUL byte would cut the line short without
 * a word, so it is refused like every other byte that is not text. */
static int batch_line(struct outfile *of, const struct model *m,
		      const struct cli_opts *o, const char *name, int lineno,
		      char *line, size_t len, int *first)
{
	char *source, *target;
	struct errbuf err;
	struct trace tr;
	if (memchr(line, '\0', len) != NULL) {
		fprintf(stderr, "attn-trace: %s:%d: expected text, found a "
			"NUL byte\n", name, lineno);
		return -1;
	}
	if (tok_pair_split(line, &source, &target) != 0) {
		fprintf(stderr, "attn-trace: %s:%d: expected at most one "
			"\"|||\" between the source and the target\n",
			name, lineno);
		return -1;
	}
	if (tok_trace(&tr, m, source, target, o->scorers, &err) != 0) {
		fprintf(stderr, "attn-trace: %s:%d: %s\n", name, lineno, err.msg);
		return -1;
	}
	struct fmt_opts fo = o->fmt;
	fo.pair = lineno;
	trace_write(of->fp, &tr, o, &fo, *first);
	outfile_wrote(of);
	*first = 0;
	trace_free(&tr);
	return 0;
}

/* Traces every pair of the batch file; returns how many lines failed,
 * or -1 if the file cannot be read. */
static int batch_run(struct outfile *of, const struct model *m,
		     const struct cli_opts *o)
{
	int std = strcmp(o->batch, "-") == 0;
	const char *name = std ? "stdin" : o->batch;
	FILE *in = std ? stdin : fopen(o->batch, "r");
	if (!in) {
		fprintf(stderr, "attn-trace: %s: %s\n", name, strerror(errno));
		return -1;
	}
	char *line = NULL;
	size_t cap = 0;
	int lineno = 0, failed = 0, first = 1;
	ssize_t len;
	while ((len = getline(&line, &cap, in)) != -1 && !ferror(of->fp)) {
		lineno++;
		if (!memchr(line, '\0', (size_t)len) && tok_pair_skip(line))
			continue;
		if (batch_line(of, m, o, name, lineno, line, (size_t)len,
			       &first) != 0) {
			failed++;
			if (o->strict)
				break;
		}
	}
	if (ferror(in)) {
		fprintf(stderr, "attn-trace: %s: %s\n", name, strerror(errno));
		failed++;
	}
	if (o->format == FORMAT_JSON) {
		fputs(first ? "[]\n" : "]\n", of->fp);
		outfile_wrote(of);
	}
	free(line);
	if (!std)
		fclose(in);
	return failed;
}

/* Traces the sentence of the command line; returns 0 or -1. */
static int single_run(struct outfile *of, const struct model *m,
		      const struct cli_opts *o, const char *sentence)
{
	struct trace tr;
	struct errbuf err;
	if (tok_trace(&tr, m, sentence, o->target, o->scorers, &err) != 0) {
		cli_error(err.msg);
		return -1;
	}
	trace_write(of->fp, &tr, o, &o->fmt, 1);
	outfile_wrote(of);
	trace_free(&tr);
	return 0;
}

int cli_trace(int argc, char **argv, const struct cli_opts *o)
{
	if (o->present)
		return cli_usage_error("--present and --autoplay work with "
				       "'tui'; 'trace' prints text");
	if (o->batch && (optind < argc || o->target))
		return cli_usage_error("--batch reads its sentences from the "
				       "file; give no sentence or --target");
	struct model m;
	if (cli_load(&m, o) != 0)
		return EXIT_DATA;
	struct outfile of;
	struct errbuf err;
	if (outfile_open(&of, o->output, &err) != 0) {
		cli_error(err.msg);
		model_free(&m);
		return EXIT_DATA;
	}
	int failed;
	if (o->batch) {
		failed = batch_run(&of, &m, o);
	} else {
		char *sentence = cli_join(argc, argv, optind, DEFAULT_SENTENCE);
		failed = single_run(&of, &m, o, sentence) != 0;
		free(sentence);
	}
	model_free(&m);
	/* a run that failed outright, or a strict batch that stopped, leaves
	 * the old file alone; a batch with some bad lines keeps the good */
	if (failed < 0 || (failed && (o->strict || !o->batch))) {
		outfile_abort(&of);
		return EXIT_DATA;
	}
	if (outfile_commit(&of, &err) != 0) {
		cli_error(err.msg);
		return EXIT_DATA;
	}
	return failed ? EXIT_DATA : EXIT_OK;
}
