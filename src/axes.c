/* axes.c: the registries of windows and selections, built from
 * src/window_list.h and src/selection_list.h. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "selection.h"
#include "window.h"

#define WINDOW(name) extern const struct window_class window_##name;
#include "window_list.h"
#undef WINDOW

const struct window_class *const window_registry[WINDOW_COUNT] = {
#define WINDOW(name) &window_##name,
#include "window_list.h"
#undef WINDOW
};

#define SELECTION(name) \
	extern const struct selection_class selection_##name;
#include "selection_list.h"
#undef SELECTION

const struct selection_class *const selection_registry[SELECTION_COUNT] = {
#define SELECTION(name) &selection_##name,
#include "selection_list.h"
#undef SELECTION
};

int window_find(const char *name)
{
	for (int k = 0; k < WINDOW_COUNT; k++)
		if (strcmp(name, window_registry[k]->name) == 0)
			return k;
	return -1;
}

const char *window_names(char *buf, size_t size)
{
	size_t at = 0;
	buf[0] = '\0';
	for (int k = 0; k < WINDOW_COUNT && at < size; k++)
		at += (size_t)snprintf(buf + at, size - at, "%s%s", k == 0 ?
				       "" : k + 1 < WINDOW_COUNT ? ", " :
				       " or ", window_registry[k]->name);
	return buf;
}

int selection_find(const char *name)
{
	for (int k = 0; k < SELECTION_COUNT; k++)
		if (strcmp(name, selection_registry[k]->name) == 0)
			return k;
	return -1;
}

int selection_by_option(const char *option)
{
	for (int k = 0; k < SELECTION_COUNT; k++)
		if (selection_registry[k]->option &&
		    strcmp(option, selection_registry[k]->option) == 0)
			return k;
	return -1;
}

int selection_value(const struct selection_class *c, const char *v,
		    size_t n, int *count)
{
	int found = -1, k = 0;

	for (; c->values && c->values[k]; k++)
		if (found < 0 && strlen(c->values[k]) == n &&
		    memcmp(c->values[k], v, n) == 0)
			found = k;
	*count = k;
	return found;
}

const char *selection_draws_option(void)
{
	for (int k = 0; k < SELECTION_COUNT; k++)
		if (selection_registry[k]->draws)
			return selection_registry[k]->option;
	return "";
}
