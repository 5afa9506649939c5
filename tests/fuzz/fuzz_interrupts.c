// SPDX-License-Identifier: GPL-2.0-or-later
/* libFuzzer target: /proc/interrupts rows, the name matcher and the queue-number reader on
 * every description, and the
 * "%*pbl" CPU list and "%*pb" mask parsers on the same bytes. */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "linerate/collect/irqmap.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int on_row(const struct lr_irq_line *l, void *arg)
{
	uint64_t *sum = arg;
	size_t i;

	for (i = 0; i < l->n; i++)
		*sum += l->count[i] + (uint64_t)l->cpu[i];
	*sum += lr_irq_desc_mentions(l->desc, l->desc_len, "eth0", "virtio1");
	*sum += lr_irq_desc_mentions(l->label, l->label_len, "e", NULL);
	{
		enum lr_irq_dir dir;
		int q = lr_irq_desc_queue(l->desc, l->desc_len, "eth0", "virtio1", &dir);

		if (q < -1 || q > 99999 || (q < 0 && dir != LR_IRQ_DIR_BOTH))
			abort();
		*sum += (uint64_t)(q + 1) +
			lr_irq_desc_queue(l->label, l->label_len, "e", NULL, NULL);
	}
	return 0;
}

/* The filtered parse: every other IRQ, and rows whose rest holds an "e". */
static bool want_some(int irq, const char *rest, size_t len, void *arg)
{
	(void)arg;
	return (irq >= 0 && irq % 2) || memchr(rest, 'e', len);
}

static void check_sorted(const struct lr_cpuset *s)
{
	size_t i;

	for (i = 1; i < s->n; i++)
		if (s->cpu[i - 1] >= s->cpu[i])
			abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lr_irq_scratch scratch = {0};
	struct lr_cpuset set = {0};
	char *buf = malloc(size ? size : 1);
	uint64_t sum = 0;
	unsigned bad;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	{
		int all = lr_interrupts_parse(buf, size, &scratch, on_row, &sum, &bad);
		int some = lr_interrupts_parse_some(buf, size, &scratch, want_some, on_row, &sum,
						    &bad);

		if ((all < 0) != (some < 0) && all != -ENOMEM && some != -ENOMEM)
			abort(); /* the filter never changes whether the file parses */
	}
	lr_irq_scratch_free(&scratch);
	if (lr_cpulist_parse(buf, size, &set) >= 0)
		check_sorted(&set);
	lr_cpuset_clear(&set);
	if (lr_cpumask_parse(buf, size, &set) >= 0)
		check_sorted(&set);
	lr_cpuset_free(&set);
	free(buf);
	return 0;
}
