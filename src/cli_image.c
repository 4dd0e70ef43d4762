/* cli_image.c: "attn-trace image": a PGM image (src/pgm.h) as shaded
 * blocks on standard output, or as SVG pixels into -o FILE. */
#include "config.h"

#include <getopt.h>
#include <langinfo.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cli_image.h"
#include "cli_options.h"
#include "i18n.h"
#include "image_fmt.h"
#include "outfile.h"
#include "raster.h"
#include "pgm.h"

struct cli_image_opts {
	const char *output; /* -o: the SVG file; NULL: blocks on stdout */
	int ascii;          /* --ascii, or a terminal that is not UTF-8 */
	int values;         /* --values */
	struct raster_size png; /* --png-size; w 0: not given */
};

static void cli_image_help(void)
{
	fputs(_(
"Usage: attn-trace image [OPTION]... FILE.pgm\n"
"Show a grayscale image in the Netpbm PGM format (plain P2 or binary P5,\n"
"at most 32x32 pixels, maxval up to 65535), as attention over an image\n"
"reads it: each pixel a value from 0 (black) to 1 (white), the file's\n"
"number divided by its maxval.  On standard output the pixels are shaded\n"
"blocks, two columns each, with row and column numbers from 1; with -o,\n"
"an SVG picture of them.  FILE - reads standard input.\n"
"\n"
"Options:\n"), stdout);
	cli_help_options(CLI_CMD_BIT(image), 24);
	fputs(_(
"\n"
"A file that is not such an image is refused with the place of the first\n"
"fault (FILE:LINE:COLUMN, or FILE: byte N in a P5 file's pixels), exit\n"
"status 1, and nothing written.  data/images/ holds the shipped images.\n"),
	      stdout);
}

/* Parses the options into *o and returns optind, or -1 after --help, or
 * -(EXIT_USAGE + 1) after a usage error. */
static int cli_image_parse(struct cli_image_opts *o, int argc, char **argv)
{
	int c;
	memset(o, 0, sizeof *o);
	optind = 1;
	while ((c = cli_getopt(CLI_CMD_BIT(image), argc, argv)) != -1) {
		switch (c) {
		case 'o': o->output = optarg; break;
		case CLI_OPT_ascii: o->ascii = 1; break;
		case CLI_OPT_values: o->values = 1; break;
		case CLI_OPT_png_size:
			if (cli_png_size(optarg, &o->png) != 0)
				return -(EXIT_USAGE + 1);
			break;
		case 'h': cli_image_help(); return -1;
		default: /* '?': cli_getopt has said what was wrong */
			return -(EXIT_USAGE + 1);
		}
	}
	if (strcmp(nl_langinfo(CODESET), "UTF-8") != 0)
		o->ascii = 1;
	if (cli_png_check(&o->png, o->output, 0))
		return -(EXIT_USAGE + 1);
	return optind;
}

/* Writes the picture of im into o->output as SVG (or PNG). */
static int cli_image_svg(const struct pgm_image *im, const char *name,
			 const struct cli_image_opts *o)
{
	struct outfile of;
	struct errbuf err;
	if (outfile_open_picture(&of, o->output, &o->png, &err) != 0) {
		cli_messagef("%s", err.msg);
		return EXIT_DATA;
	}
	image_fmt_svg(of.fp, im, name);
	outfile_wrote(&of);
	if (outfile_commit(&of, &err) != 0) {
		cli_messagef("%s", err.msg);
		return EXIT_DATA;
	}
	return EXIT_OK;
}

int cli_image(int argc, char **argv)
{
	struct cli_image_opts o;
	int first = cli_image_parse(&o, argc, argv);
	if (first < 0)
		return first == -1 ? EXIT_OK : -first - 1;
	if (first >= argc)
		return cli_usage_errorf("'image' needs the PGM file to show");
	if (first + 1 < argc)
		return cli_usage_errorf("'image' shows one file, but was also "
					"given '%s'", argv[first + 1]);
	const char *path = argv[first];
	if (o.output && strcmp(o.output, "-") != 0 &&
	    outfile_same_file(o.output, path))
		return cli_usage_errorf("-o %s: expected a file other than the "
					"image %s, found the same file",
					o.output, path);
	static struct pgm_image im;
	struct errbuf err;
	if (pgm_load(&im, path, &err) != 0) {
		cli_messagef("%s", err.msg);
		return EXIT_DATA;
	}
	const char *name = strcmp(path, "-") == 0 ? "standard input" : path;
	if (o.output)
		return cli_image_svg(&im, name, &o);
	image_fmt_text(stdout, &im, name, o.ascii, o.values);
	return cli_flush();
}
