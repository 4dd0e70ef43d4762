/* cli_set.c: --set on the commands that draw a trace (src/cli_set.h). */
#include "config.h"

#include "cli.h"
#include "cli_set.h"
#include "i18n.h"
#include "util.h"

int cli_set_add(struct cli_set *s, const char *arg)
{
	if (s->n == WHATIF_MAX)
		return cli_usage_errorf("--set:%d:1: expected at most %d --set",
					WHATIF_MAX + 1, WHATIF_MAX);
	s->arg[s->n++] = arg;
	return 0;
}

int cli_set_apply(struct cli_set *s, struct model *m, struct trace_cfg *cfg)
{
	struct errbuf err;
	for (int k = 0; k < s->n; k++)
		if (whatif_apply(m, s->arg[k], k + 1, &s->edit[k], &err) != 0)
			return cli_usage_error(err.msg);
	cfg->set = s->n ? s->edit : NULL;
	cfg->nset = s->n;
	if (whatif_check_cfg(s->edit, s->n, cfg, &err) != 0)
		return cli_usage_error(err.msg);
	return 0;
}

int cli_set_check_trace(const struct cli_set *s, const struct trace *tr)
{
	struct errbuf err;
	if (whatif_check_trace(s->edit, s->n, tr, &err) == 0)
		return 0;
	return cli_usage_error(err.msg);
}

int cli_set_refuse(const struct cli_set *s, const char *why)
{
	if (!s->n)
		return 0;
	/* TRANSLATORS: %s says what the command draws instead, "--arch=all
	 * draws the built-in model of each architecture" */
	return cli_usage_errorf("--set:1:1: %s; expected no --set with it",
				why);
}
