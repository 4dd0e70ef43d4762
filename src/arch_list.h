/* arch_list.h: the registry of architectures, one line each, in the
 * order that --arch=all and listings use.  Each ARCH(NAME) needs
 * src/arch_NAME.c defining `const struct arch_class arch_NAME`
 * (src/arch.h).  No include guard: model.h and arch.c read this list more
 * than once. */
ARCH(luong)
ARCH(bahdanau)
