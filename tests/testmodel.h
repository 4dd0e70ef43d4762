/* testmodel.h: loading the test models from the source tree. */
#ifndef ATTN_TESTMODEL_H
#define ATTN_TESTMODEL_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>

#include "model.h"

/* Loads $srcdir/tests/data/NAME into *m, failing the test if it cannot. */
static inline void testmodel_load(struct model *m, const char *name)
{
	const char *dir = getenv("srcdir");
	char path[4096];
	struct errbuf err;
	snprintf(path, sizeof path, "%s/tests/data/%s", dir ? dir : ".", name);
	if (model_load_file(m, path, &err) != 0)
		ck_abort_msg("cannot load %s: %s", path, err.msg);
}

#endif
