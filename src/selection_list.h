/* selection_list.h: the registry of selections, one line each, in the
 * order that listings use; the first is the default.  Each
 * SELECTION(NAME) needs src/selection_NAME.c defining
 * `const struct selection_class selection_NAME` (src/selection.h).  No
 * include guard: selection.h and the registry read this list more than
 * once. */
SELECTION(soft)
SELECTION(hard)
