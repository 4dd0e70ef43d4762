/* arch.c: the registry of architectures, built from src/arch_list.h. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "arch.h"

#define ARCH(name) extern const struct arch_class arch_##name;
#include "arch_list.h"
#undef ARCH

const struct arch_class *const arch_registry[ARCH_COUNT] = {
#define ARCH(name) &arch_##name,
#include "arch_list.h"
#undef ARCH
};

const char *arch_builtin_model(int a)
{
	return arch_registry[a >= 0 && a < ARCH_COUNT ? a : ARCH_DEFAULT]->model;
}

const char *arch_feed_owner(void)
{
	for (int k = 0; k < ARCH_COUNT; k++)
		if (arch_registry[k]->feed_model)
			return arch_registry[k]->owner;
	return "no architecture's";
}

int arch_find(const char *name)
{
	for (int k = 0; k < ARCH_COUNT; k++)
		if (strcmp(name, arch_registry[k]->name) == 0)
			return k;
	return -1;
}

char *arch_names(char *buf, size_t size, const char *sep, const char *last)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int k = 0; k < ARCH_COUNT && used < size; k++) {
		const char *before = k == 0 ? ""
				   : k == ARCH_COUNT - 1 ? last : sep;
		int n = snprintf(buf + used, size - used, "%s%s", before,
				 arch_registry[k]->name);
		if (n < 0)
			break;
		used += (size_t)n;
	}
	return buf;
}

double arch_log_softmax_at(const double *x, int n, int k)
{
	double max = x[0], sum = 0;
	for (int j = 1; j < n; j++)
		if (x[j] > max)
			max = x[j];
	for (int j = 0; j < n; j++)
		sum += exp(x[j] - max);
	return (x[k] - max) - log(sum);
}
