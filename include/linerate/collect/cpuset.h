/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Sets of CPU numbers, and the kernel's "%*pbl" list and "%*pb" mask that write them
 * (effective_affinity_list, rps_cpus, a node's cpulist). Pure parsers, exposed for tests and
 * fuzzing. [any] */
#ifndef LINERATE_CPUSET_H
#define LINERATE_CPUSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "linerate/core/common.h"
#include "linerate/collect/cpu.h" /* LR_CPU_MAX */

/* A set of CPU numbers, sorted ascending, unique. Owned by its holder; zero-init is empty. */
struct lr_cpuset {
	int *cpu;
	size_t n, cap;
};

void lr_cpuset_free(struct lr_cpuset *s);  /* NULL-safe; leaves an empty set */
void lr_cpuset_clear(struct lr_cpuset *s); /* n = 0, keeps the memory */
/* 0, -ERANGE (cpu < 0 or >= LR_CPU_MAX) or -ENOMEM. Adding a member again is a no-op. */
int lr_cpuset_add(struct lr_cpuset *s, int cpu) LR_MUST_CHECK;
bool lr_cpuset_has(const struct lr_cpuset *s, int cpu);
int lr_cpuset_union(struct lr_cpuset *dst, const struct lr_cpuset *src) LR_MUST_CHECK;

/* Kernel "%*pbl" CPU list ("0-3,8,10-11\n"; "" or "\n" = empty) added to out. len bytes,
 * NUL not needed. Returns the number of CPUs in the list, -EINVAL on bad syntax (nothing is
 * guaranteed about out then), -ERANGE, -ENOMEM. */
int lr_cpulist_parse(const char *buf, size_t len, struct lr_cpuset *out) LR_MUST_CHECK;
/* Kernel "%*pb" hex mask ("00000000,0000000f\n": 32-bit words, most significant first,
 * comma-separated) added to out. Same returns as lr_cpulist_parse. */
int lr_cpumask_parse(const char *buf, size_t len, struct lr_cpuset *out) LR_MUST_CHECK;

/* The pieces /proc/interrupts' reader shares: a CPU number at *p (a digit first, below
 * LR_CPU_MAX; *p advanced past it), and a sorted insert into a[0..*n) that ignores
 * duplicates (0 or -ENOMEM). */
bool lr_cpu_scan(const char **p, const char *end, uint64_t *v);
int lr_sorted_int_add(int **a, size_t *n, size_t *cap, int v) LR_MUST_CHECK;

#endif
