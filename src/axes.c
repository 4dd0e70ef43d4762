/* axes.c: the registries of windows and selections, built from
 * src/window_list.h and src/selection_list.h. */
#include "config.h"

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

int selection_find(const char *name)
{
	for (int k = 0; k < SELECTION_COUNT; k++)
		if (strcmp(name, selection_registry[k]->name) == 0)
			return k;
	return -1;
}
