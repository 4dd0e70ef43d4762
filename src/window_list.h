/* window_list.h: the registry of windows, one line each, in the order
 * that listings use; the first is the default.  Each WINDOW(NAME) needs
 * src/window_NAME.c defining `const struct window_class window_NAME`
 * (src/window.h).  No include guard: window.h and window.c read this
 * list more than once. */
WINDOW(global)
WINDOW(local_m)
WINDOW(local_p)
WINDOW(fixed)
