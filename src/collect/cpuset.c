// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Sets of CPU numbers and the kernel's two ways of writing them: the "%*pbl" list of
 * effective_affinity_list ("0-3,8") and the "%*pb" hex mask of rps_cpus ("00000000,0000000f").
 * The IRQ map, the NUMA view and the queue tables hold CPUs this way. Pure; any thread.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "linerate/collect/cpuset.h"
#include "linerate/core/array.h"
#include "linerate/core/strutil.h"

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* ---- CPU sets ---- */

void lr_cpuset_free(struct lr_cpuset *s)
{
	if (!s)
		return;
	free(s->cpu);
	memset(s, 0, sizeof(*s));
}

void lr_cpuset_clear(struct lr_cpuset *s)
{
	s->n = 0;
}

/* Index of the first member >= cpu. */
static size_t lower_bound(const int *a, size_t n, int cpu)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (a[mid] < cpu)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

bool lr_cpuset_has(const struct lr_cpuset *s, int cpu)
{
	size_t i = lower_bound(s->cpu, s->n, cpu);

	return i < s->n && s->cpu[i] == cpu;
}

/* Sorted insert into a[0..*n); duplicates ignored. */
int lr_sorted_int_add(int **a, size_t *n, size_t *cap, int v)
{
	size_t i;
	int err;

	if (*n && (*a)[*n - 1] < v) { /* the usual case: ascending input */
		i = *n;
	} else {
		i = lower_bound(*a, *n, v);
		if (i < *n && (*a)[i] == v)
			return 0;
	}
	err = lr_array_grow(a, cap, *n + 1, sizeof(**a));
	if (err)
		return err;
	memmove(*a + i + 1, *a + i, (*n - i) * sizeof(**a));
	(*a)[i] = v;
	(*n)++;
	return 0;
}

int lr_cpuset_add(struct lr_cpuset *s, int cpu)
{
	if (cpu < 0 || cpu >= LR_CPU_MAX)
		return -ERANGE;
	return lr_sorted_int_add(&s->cpu, &s->n, &s->cap, cpu);
}

int lr_cpuset_union(struct lr_cpuset *dst, const struct lr_cpuset *src)
{
	size_t i;
	int err;

	for (i = 0; i < src->n; i++) {
		err = lr_cpuset_add(dst, src->cpu[i]);
		if (err)
			return err;
	}
	return 0;
}

/* ---- "%*pbl" and "%*pb" ---- */

bool lr_cpu_scan(const char **p, const char *end, uint64_t *v)
{
	if (*p >= end || **p < '0' || **p > '9')
		return false;
	return lr_scan_u64(p, end, v) && *v < LR_CPU_MAX;
}

int lr_cpulist_parse(const char *buf, size_t len, struct lr_cpuset *out)
{
	const char *p = buf, *end = buf + len;
	int count = 0, err;

	while (end > p && is_space(end[-1]))
		end--;
	while (p < end) {
		uint64_t a, b, c;

		if (!lr_cpu_scan(&p, end, &a))
			return -EINVAL;
		b = a;
		if (p < end && *p == '-') {
			p++;
			if (!lr_cpu_scan(&p, end, &b) || b < a)
				return -EINVAL;
		}
		if (p < end) {
			if (*p != ',' || p + 1 == end)
				return -EINVAL;
			p++;
		}
		for (c = a; c <= b; c++) {
			err = lr_cpuset_add(out, (int)c);
			if (err)
				return err;
			count++;
		}
	}
	return count;
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int lr_cpumask_parse(const char *buf, size_t len, struct lr_cpuset *out)
{
	const char *start = buf, *end = buf + len, *p;
	size_t word = 0; /* 32-bit word index, from the right */
	int count = 0, err;

	while (end > start && is_space(end[-1]))
		end--;
	while (start < end && is_space(*start))
		start++;
	if (start == end)
		return 0;
	/* Walk the words right to left so bit numbers come out directly. */
	p = end;
	for (;;) {
		const char *wend = p, *wstart = p;
		unsigned shift = 0;

		while (wstart > start && wstart[-1] != ',')
			wstart--;
		if (wend - wstart == 0 || wend - wstart > 8)
			return -EINVAL;
		for (p = wend; p > wstart; p--, shift += 4) {
			int d = hex_digit(p[-1]);
			unsigned bit;

			if (d < 0)
				return -EINVAL;
			for (bit = 0; bit < 4; bit++) {
				uint64_t cpu = (uint64_t)word * 32 + shift + bit;

				if (!(d & (1 << bit)))
					continue;
				if (cpu >= LR_CPU_MAX)
					return -ERANGE;
				err = lr_cpuset_add(out, (int)cpu);
				if (err)
					return err;
				count++;
			}
		}
		if (wstart == start)
			break;
		p = wstart - 1; /* the comma */
		if (++word * 32 >= LR_CPU_MAX)
			return -ERANGE;
	}
	return count;
}
