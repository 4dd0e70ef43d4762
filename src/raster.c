/* raster.c: an SVG picture as a PNG image, through librsvg and cairo
 * (raster.h). */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#ifdef HAVE_PNG
#include <cairo.h>
#include <dlfcn.h>
#include <librsvg/rsvg.h>
#endif

#include "i18n.h"
#include "raster.h"

/* The names of image formats that a picture is not written in: an SVG
 * under one of them would open as a broken image in slide software. */
static const char *const raster_other[] = {
	".jpg", ".jpeg", ".gif", ".webp", ".bmp", ".tif", ".tiff", ".pdf",
	".eps", ".ps"
};

int raster_available(void)
{
#ifdef HAVE_PNG
	return 1;
#else
	return 0;
#endif
}

/* Whether path ends in suffix, in any case. */
static int raster_ends(const char *path, const char *suffix)
{
	size_t n = strlen(path), k = strlen(suffix);
	return n > k && strcasecmp(path + n - k, suffix) == 0;
}

int raster_name(const char *path)
{
	return path && raster_ends(path, ".png");
}

int raster_check_name(const char *path, int picture, struct errbuf *err)
{
	if (!path || strcmp(path, "-") == 0)
		return 0;
	if (raster_ends(path, ".png.gz")) {
		err_set(err, _("%s: expected FILE.png or FILE.svg.gz, found "
			".png.gz (a PNG is compressed already)"), path);
		return -1;
	}
	if (raster_name(path) && !picture) {
		err_set(err, _("%s: expected a picture for a .png file, found "
			"text (-o FILE.png takes what attn-trace draws as "
			"SVG)"), path);
		return -1;
	}
	if (raster_name(path) && !raster_available()) {
		err_set(err, _("%s: this attn-trace was built without PNG "
			"support; build it with ./configure --with-png (which "
			"needs librsvg: Debian's librsvg2-dev), or write "
			"FILE.svg"), path);
		return -1;
	}
	for (size_t k = 0; picture && k < sizeof raster_other /
	     sizeof *raster_other; k++)
		if (raster_ends(path, raster_other[k])) {
			err_set(err, _("%s: expected FILE.svg or FILE.png, found "
				"%s (attn-trace draws SVG, or PNG)"), path,
				strrchr(path, '.'));
			return -1;
		}
	return 0;
}

/* One side of --png-size from *p, advancing it; -1 if it is not a whole
 * number from RASTER_MIN to RASTER_MAX. */
static int raster_side(const char **p)
{
	long v = 0;
	const char *s = *p;
	while (*s >= '0' && *s <= '9' && v <= RASTER_MAX)
		v = v * 10 + (*s++ - '0');
	if (s == *p || v < RASTER_MIN || v > RASTER_MAX)
		return -1;
	*p = s;
	return (int)v;
}

int raster_size_parse(const char *arg, struct raster_size *s,
		      struct errbuf *err)
{
	const char *p = arg;
	s->w = raster_side(&p);
	s->h = 0;
	if (s->w > 0 && *p == 'x') {
		p++;
		s->h = raster_side(&p);
	}
	if (s->w > 0 && s->h >= 0 && *p == '\0')
		return 0;
	err_set(err, _("--png-size expects W or WxH, each a whole number of "
		"pixels from %d to %d (as 1920x1080), not '%s'"), RASTER_MIN,
		RASTER_MAX, arg);
	return -1;
}

int raster_fit(double w, double h, const struct raster_size *box, int *pw,
	       int *ph)
{
	double scale = box->w / w;
	if (box->h > 0 && box->h / h < scale)
		scale = box->h / h;
	double x = floor(w * scale + 0.5), y = floor(h * scale + 0.5);
	if (x > RASTER_MAX || y > RASTER_MAX)
		return -1;
	*pw = x < 1 ? 1 : (int)x;
	*ph = y < 1 ? 1 : (int)y;
	return 0;
}

#ifdef HAVE_PNG
/* librsvg and the cairo it draws with, loaded at the first PNG: linked
 * into the program, their 50 libraries would cost every run of
 * attn-trace some 25 ms to load, PNG or not (doc/architecture.md). */
struct raster_lib {
	RsvgHandle *(*new_from_data)(const guint8 *, gsize, GError **);
	gboolean (*size)(RsvgHandle *, gdouble *, gdouble *);
	gboolean (*render)(RsvgHandle *, cairo_t *, const RsvgRectangle *,
			   GError **);
	void (*error_free)(GError *);
	void (*unref)(gpointer);
	cairo_surface_t *(*surface)(cairo_format_t, int, int);
	cairo_t *(*create)(cairo_surface_t *);
	void (*rgb)(cairo_t *, double, double, double);
	void (*paint)(cairo_t *);
	void (*destroy)(cairo_t *);
	cairo_status_t (*write_png)(cairo_surface_t *, cairo_write_func_t,
				    void *);
	const char *(*status)(cairo_status_t);
	void (*surface_destroy)(cairo_surface_t *);
};

/* The functions' names, in the order of struct raster_lib's fields. */
static const char *const raster_syms[] = {
	"rsvg_handle_new_from_data", "rsvg_handle_get_intrinsic_size_in_pixels",
	"rsvg_handle_render_document", "g_error_free", "g_object_unref",
	"cairo_image_surface_create", "cairo_create", "cairo_set_source_rgb",
	"cairo_paint", "cairo_destroy", "cairo_surface_write_to_png_stream",
	"cairo_status_to_string", "cairo_surface_destroy"
};

/* Loads RSVG_SONAME once and fills the table.  Returns it, or NULL with
 * err set to what is missing.  The only state of this module. */
static const struct raster_lib *raster_load(struct errbuf *err)
{
	static struct raster_lib lib;
	static int loaded;
	_Static_assert(sizeof lib == sizeof raster_syms / sizeof *raster_syms
		       * sizeof(void (*)(void)), "a name for every field");
	if (loaded)
		return &lib;
	void *h = dlopen(RSVG_SONAME, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		err_set(err, _("expected librsvg (%s) to draw PNG, found none: "
			"%s"), RSVG_SONAME, dlerror());
		return NULL;
	}
	void (**f)(void) = (void (**)(void))&lib;
	for (size_t k = 0; k < sizeof raster_syms / sizeof *raster_syms; k++) {
		void *p = dlsym(h, raster_syms[k]);
		if (!p) {
			err_set(err, _("expected %s in %s, found none"),
				raster_syms[k], RSVG_SONAME);
			return NULL;
		}
		memcpy(&f[k], &p, sizeof p);
	}
	loaded = 1;
	return &lib;
}

/* Where cairo's PNG bytes go: the stream, and errno of a failed write. */
struct raster_sink {
	FILE *out;
	int err;
};

static cairo_status_t raster_put(void *closure, const unsigned char *data,
				 unsigned int len)
{
	struct raster_sink *k = closure;
	if (len == 0 || fwrite(data, 1, len, k->out) == len)
		return CAIRO_STATUS_SUCCESS;
	k->err = errno ? errno : EIO;
	return CAIRO_STATUS_WRITE_ERROR;
}

/* Draws h onto a white pw by ph image and writes it to out as PNG. */
static int raster_draw(const struct raster_lib *L, FILE *out, RsvgHandle *h,
		       int pw, int ph, int *write_errno, struct errbuf *err)
{
	cairo_surface_t *s = L->surface(CAIRO_FORMAT_RGB24, pw, ph);
	cairo_t *cr = L->create(s);
	L->rgb(cr, 1, 1, 1);
	L->paint(cr);
	RsvgRectangle vp = { 0, 0, pw, ph };
	GError *e = NULL;
	int rc = 0;
	if (!L->render(h, cr, &vp, &e)) {
		err_set(err, _("cannot draw the picture as PNG: %s"),
			e ? e->message : _("librsvg failed"));
		rc = -1;
	}
	if (e)
		L->error_free(e);
	L->destroy(cr);
	struct raster_sink k = { out, 0 };
	cairo_status_t st = rc == 0 ? L->write_png(s, raster_put, &k)
				    : CAIRO_STATUS_SUCCESS;
	if (rc == 0 && st != CAIRO_STATUS_SUCCESS) {
		*write_errno = k.err;
		err_set(err, "%s", k.err ? strerror(k.err) : L->status(st));
		rc = -1;
	}
	L->surface_destroy(s);
	return rc;
}
#endif

int raster_png(FILE *out, const char *svg, size_t len,
	       const struct raster_size *box, int *write_errno,
	       struct errbuf *err)
{
	*write_errno = 0;
#ifdef HAVE_PNG
	const struct raster_lib *L = raster_load(err);
	if (!L)
		return -1;
	GError *e = NULL;
	RsvgHandle *h = L->new_from_data((const guint8 *)svg, len, &e);
	if (!h) {
		err_set(err, _("expected an SVG picture to draw as PNG: %s"),
			e ? e->message : _("librsvg cannot read it"));
		if (e)
			L->error_free(e);
		return -1;
	}
	double w = 0, ht = 0;
	int pw, ph, rc = -1;
	if (!L->size(h, &w, &ht) || !(w > 0) || !(ht > 0))
		err_set(err, _("expected an SVG picture with a width and a "
			"height in pixels, found none"));
	else if (raster_fit(w, ht, box, &pw, &ph) != 0)
		err_set(err, _("expected a PNG at most %d pixels a side, found "
			"%gx%g scaled to more (a smaller --png-size)"),
			RASTER_MAX, w, ht);
	else
		rc = raster_draw(L, out, h, pw, ph, write_errno, err);
	L->unref(h);
	return rc;
#else
	(void)out, (void)svg, (void)len, (void)box;
	err_set(err, _("this attn-trace was built without PNG support "
		"(./configure --with-png)"));
	return -1;
#endif
}
