/*
 * test_impl.c - see test_impl.h.
 */
#include "test_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *t_feature_names(uint32_t mask)
{
	static char bufs[4][256]; /* several may appear in one printf */
	static unsigned next;
	char *buf = bufs[next++ % 4];
	size_t n = 0;

	buf[0] = 0;
	for (unsigned b = 0; b < 32; b++) {
		if (!(mask >> b & 1))
			continue;
		const char *name = raidx_cpu_feature_name(1u << b);
		n += (size_t)snprintf(buf + n, sizeof bufs[0] - n, "%s%s", n ? "," : "",
				      name ? name : "?");
		if (n >= sizeof bufs[0])
			break;
	}
	return buf;
}

void t_impls(enum raidx_op op, struct tlist *l)
{
	const struct raidx__impl *const *list;
	unsigned total = raidx__impl_list(op, &list);
	size_t nn = 0;

	memset(l, 0, sizeof *l);
	l->op = op;
	for (unsigned i = 0; i < total; i++) {
		const struct raidx__impl *impl = list[i];
		if (!raidx__impl_runnable(impl)) {
			t_log("%s: skipping %s (this CPU lacks %s)", raidx_op_name(op),
			      impl->name,
			      t_feature_names(impl->features & ~raidx_cpu_features()));
			continue;
		}
		if (l->n == T_MAX_IMPLS)
			break;
		l->v[l->n++] = impl;
		if (impl->granule > l->maxgran)
			l->maxgran = impl->granule;
		nn += (size_t)snprintf(l->names + nn, sizeof l->names - nn, "%s%s",
				       nn ? " " : "", impl->name);
		if (nn >= sizeof l->names)
			nn = sizeof l->names - 1;
	}
	if (!l->n) {
		t_fail("%s: no runnable implementation (not even ref)",
		       raidx_op_name(op));
		exit(1);
	}
}

size_t t_shape_len(const struct tlist *l, struct rng *r)
{
	return t_shape_len_g(l->maxgran, r);
}

size_t t_shape_len_g(unsigned maxgran, struct rng *r)
{
	size_t base = maxgran > 64 ? maxgran : 64;
	size_t len = base * (1 + rng_below(r, 3));

	if (rng_below(r, 8))
		len += rng_below(r, (uint32_t)base);
	return len;
}

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	return x < y ? -1 : x > y;
}

unsigned t_sweep_lens(const struct tlist *const *lists, unsigned nlists,
		      size_t **out)
{
	size_t *v = t_malloc(4096 * sizeof(*v));
	unsigned n = 0;

	if (t_quick) {
		for (size_t len = 0; len <= 96; len++)
			v[n++] = len;
		for (size_t len = 97; len <= 300; len += 13)
			v[n++] = len;
	} else {
		for (size_t len = 0; len <= 300; len++)
			v[n++] = len;
	}
	for (unsigned i = 0; i < t_ngranule_lens; i++)
		v[n++] = t_granule_lens[i];
	for (unsigned k = 0; k < nlists; k++)
		for (unsigned i = 0; i < lists[k]->n; i++) {
			size_t g = lists[k]->v[i]->granule;
			for (size_t m = 1; m <= 3 && n + 3 < 4096; m++) {
				v[n++] = g * m - 1;
				v[n++] = g * m;
				v[n++] = g * m + 1;
			}
		}
	qsort(v, n, sizeof(*v), cmp_size);
	unsigned u = 0;
	for (unsigned i = 0; i < n; i++)
		if (!u || v[u - 1] != v[i])
			v[u++] = v[i];
	*out = v;
	return u;
}
