// SPDX-License-Identifier: GPL-2.0-or-later
/* Interface -> IRQ -> CPU map: the CPU list and mask parsers, /proc/interrupts rows on captured
 * files (40-CPU ixgbe server, virtio guest, shared legacy line), and whole maps built from this
 * host's capture (virtio-net) and the hand-made 72-CPU tree (16-queue eth2). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fakes/fake_sysio.h"
#include "linerate/collect/irqmap.h"

static void assert_set(const struct lr_cpuset *s, const int *want, size_t n)
{
	size_t i;

	assert_int_equal(s->n, n);
	for (i = 0; i < n; i++)
		assert_int_equal(s->cpu[i], want[i]);
}

static void test_cpulist(void **state)
{
	static const int want[] = {0, 1, 2, 3, 8, 10, 11};
	static const char *const bad[] = {"3-1", "1,", ",1", "a", "1--2", "16384", "1-", "0 1",
					  "1,,2", "-1"};
	struct lr_cpuset s = {0};
	size_t i;

	(void)state;
	assert_int_equal(lr_cpulist_parse("0-3,8,10-11\n", 12, &s), 7);
	assert_set(&s, want, LR_ARRAY_SIZE(want));
	lr_cpuset_clear(&s);
	assert_int_equal(lr_cpulist_parse("\n", 1, &s), 0);
	assert_int_equal(lr_cpulist_parse("", 0, &s), 0);
	assert_int_equal(s.n, 0);
	/* appends, keeps order and uniqueness */
	assert_int_equal(lr_cpulist_parse("5,1-2", 5, &s), 3);
	assert_int_equal(lr_cpulist_parse("2-5\n", 4, &s), 4);
	assert_set(&s, (const int[]){1, 2, 3, 4, 5}, 5);
	assert_true(lr_cpuset_has(&s, 4));
	assert_false(lr_cpuset_has(&s, 0));
	for (i = 0; i < LR_ARRAY_SIZE(bad); i++)
		assert_true(lr_cpulist_parse(bad[i], strlen(bad[i]), &s) < 0);
	lr_cpuset_free(&s);
	assert_int_equal(lr_cpuset_add(&s, -1), -ERANGE);
	assert_int_equal(lr_cpuset_add(&s, LR_CPU_MAX), -ERANGE);
	lr_cpuset_free(&s);
}

static void test_cpumask(void **state)
{
	static const char *const bad[] = {"123456789", "0x1", ",f", "f,", "g", "f,,f"};
	struct lr_cpuset s = {0};
	size_t i;

	(void)state;
	assert_int_equal(lr_cpumask_parse("00000000,0000000f\n", 18, &s), 4);
	assert_set(&s, (const int[]){0, 1, 2, 3}, 4);
	lr_cpuset_clear(&s);
	/* 80 possible CPUs: a 16-bit first word */
	assert_int_equal(lr_cpumask_parse("0003,00000f00,00000000\n", 23, &s), 6);
	assert_set(&s, (const int[]){40, 41, 42, 43, 64, 65}, 6);
	lr_cpuset_clear(&s);
	assert_int_equal(lr_cpumask_parse("0\n", 2, &s), 0);	/* this host: 2 CPUs, RPS off */
	assert_int_equal(lr_cpumask_parse("80000001", 8, &s), 2);
	assert_set(&s, (const int[]){0, 31}, 2);
	lr_cpuset_clear(&s);
	assert_int_equal(lr_cpumask_parse("1,00000000", 10, &s), 1);
	assert_set(&s, (const int[]){32}, 1);
	for (i = 0; i < LR_ARRAY_SIZE(bad); i++)
		assert_true(lr_cpumask_parse(bad[i], strlen(bad[i]), &s) < 0);
	lr_cpuset_free(&s);
}

struct rowfind {
	int irq;		/* the row wanted */
	char desc[128];
	uint64_t count[128];
	int cpu[128];
	size_t n;
	const char *ifname, *virtio;
	int mentions;		/* rows that mention ifname/virtio */
	int named;		/* rows with irq == -1 */
};

static int on_row(const struct lr_irq_line *l, void *arg)
{
	struct rowfind *rf = arg;

	if (l->irq < 0)
		rf->named++;
	if (rf->ifname && lr_irq_desc_mentions(l->desc, l->desc_len, rf->ifname, rf->virtio))
		rf->mentions++;
	if (l->irq == rf->irq && l->n <= 128) {
		size_t dl = l->desc_len < sizeof(rf->desc) ? l->desc_len : sizeof(rf->desc) - 1;

		memcpy(rf->desc, l->desc, dl);
		rf->desc[dl] = '\0';
		memcpy(rf->count, l->count, l->n * sizeof(*l->count));
		memcpy(rf->cpu, l->cpu, l->n * sizeof(*l->cpu));
		rf->n = l->n;
	}
	return 0;
}

static int parse_tree(const char *tree, struct rowfind *rf, unsigned *bad)
{
	struct lr_irq_scratch s = {0};
	struct fake_sysio f;
	char root[256];
	size_t cap = 1 << 20;
	char *buf = malloc(cap);
	ssize_t n;
	int rc;

	assert_non_null(buf);
	snprintf(root, sizeof(root), FIXTURES "/%s", tree);
	fake_sysio_init(&f, root);
	n = f.io.read_file(&f.io, "/proc/interrupts", buf, cap);
	assert_true(n > 0);
	rc = lr_interrupts_parse(buf, (size_t)n, &s, on_row, rf, bad);
	lr_irq_scratch_free(&s);
	free(buf);
	return rc;
}

static void test_interrupts_40cpu_ixgbe(void **state)
{
	struct rowfind rf = {.irq = 208, .ifname = "eno1"};
	unsigned bad = 99;

	(void)state;
	assert_int_equal(parse_tree("pcp-meminfo-root-008", &rf, &bad), 349);
	assert_int_equal(bad, 0);
	assert_int_equal(rf.mentions, 41);	/* eno1-TxRx-0..39 + the link vector "eno1" */
	assert_int_equal(rf.n, 40);
	assert_int_equal(rf.count[0], 25241);
	assert_int_equal(rf.count[39], 41);
	assert_int_equal(rf.cpu[39], 39);
	assert_string_equal(rf.desc, "IR-PCI-MSIX-0000:3a:00.0   39-edge      eno1-TxRx-39");
}

static void test_interrupts_virtio_guest(void **state)
{
	struct rowfind rf = {.irq = 31, .ifname = "eth0", .virtio = "virtio1"};
	unsigned bad;

	(void)state;
	assert_int_equal(parse_tree("datadog-proc-extras", &rf, &bad), 37);	/* 38 lines */
	assert_int_equal(bad, 0);
	assert_int_equal(rf.mentions, 8);	/* input.0-3, output.0-3; not config */
	assert_int_equal(rf.count[3], 4190886484ULL);
	assert_int_equal(rf.count[0], 1);
	assert_int_equal(rf.named, 18);	/* NMI LOC ... ERR MIS PIN PIW (ERR/MIS: one value) */
}

static void test_interrupts_shared_legacy_and_s390(void **state)
{
	struct rowfind rf = {.irq = 11, .ifname = "ens3"};
	unsigned bad;

	(void)state;
	assert_true(parse_tree("pcp-i686-1cpu", &rf, &bad) > 0);
	assert_int_equal(rf.mentions, 1);	/* "uhci_hcd:usb1, ens3" */
	assert_int_equal(rf.count[0], 307009);
	assert_int_equal(rf.n, 1);

	memset(&rf, 0, sizeof(rf));
	rf.irq = -1;
	assert_int_equal(parse_tree("pcp-s390x-2cpu", &rf, &bad), 2);
	assert_int_equal(rf.named, 2);	/* EXT:, I/O: */
}

static void test_desc_mentions(void **state)
{
	static const struct {
		const char *desc, *ifname, *virtio;
		bool want;
	} cases[] = {
		{"IR-PCI-MSIX-0000:3a:00.0    0-edge      eno1-TxRx-0", "eno1", NULL, true},
		{"PCI-MSI 1-edge      eth2-rx-3", "eth2", NULL, true},
		{"PCI-MSI 1-edge      eth2-tx-3", "eth2", NULL, true},
		{"PCI-MSI 1-edge      eth2", "eth2", NULL, true},
		{"PCI-MSI 1-edge      i40e-eth2-TxRx-7", "eth2", NULL, true},
		{"PCI-MSI 1-edge      eth20-TxRx-0", "eth2", NULL, false},
		{"PCI-MSI 1-edge      i40e-eth2x-TxRx-0", "eth2", NULL, false},
		{"PCI-MSI 1-edge      veth2", "eth2", NULL, false},
		{"IO-APIC  11-fasteoi   uhci_hcd:usb1, ens3", "ens3", NULL, true},
		{"IO-APIC  11-fasteoi   ens3,ehci", "ens3", NULL, true},
		{"PCI-MSI 65537-edge      virtio1-input.0", "eth0", "virtio1", true},
		{"PCI-MSI 65537-edge      virtio1-output.3", "eth0", "virtio1", true},
		{"PCI-MSI 65537-edge      virtio1-virtqueues", "eth0", "virtio1", true},
		{"PCI-MSI 65536-edge      virtio1-config", "eth0", "virtio1", false},
		{"PCI-MSI 65536-edge      virtio10-input.0", "eth0", "virtio1", false},
		{"PCI-MSI 65536-edge      virtio1-input.0", "eth0", "", false},
		{"", "eth0", NULL, false},
	};
	size_t i;

	(void)state;
	for (i = 0; i < LR_ARRAY_SIZE(cases); i++) {
		bool got = lr_irq_desc_mentions(cases[i].desc, strlen(cases[i].desc),
						cases[i].ifname, cases[i].virtio);

		if (got != cases[i].want)
			fail_msg("case %zu: \"%s\" vs %s", i, cases[i].desc, cases[i].ifname);
	}
}

static void test_interrupts_bad(void **state)
{
	static const char noheader[] = "  0:  1  2  IO-APIC timer\n";
	static const char rows[] = "      CPU0  CPU1\n"
				   "  0:   5   6   IO-APIC   2-edge  timer\n"
				   "this line has no colon\n"
				   "  1:   5x  IO-APIC junk\n"
				   " 99:   18446744073709551616  big\n"
				   "  7:   1";
	struct rowfind rf = {.irq = 1};
	struct lr_irq_scratch s = {0};
	unsigned bad = 0;

	(void)state;
	assert_int_equal(lr_interrupts_parse(noheader, sizeof(noheader) - 1, &s, on_row, &rf,
					     &bad), -EINVAL);
	assert_int_equal(lr_interrupts_parse(rows, sizeof(rows) - 1, &s, on_row, &rf, &bad), 4);
	assert_int_equal(bad, 1);
	assert_int_equal(rf.n, 0);	/* "5x" is not a count: all description */
	assert_string_equal(rf.desc, "5x  IO-APIC junk");
	rf.irq = 7;
	assert_int_equal(lr_interrupts_parse(rows, sizeof(rows) - 1, &s, on_row, &rf, &bad), 4);
	assert_int_equal(rf.n, 1);
	assert_int_equal(rf.count[0], 1);
	assert_string_equal(rf.desc, "");
	lr_irq_scratch_free(&s);
}

/* 16-queue eth2 on the 72-CPU tree: msi_irqs 120..136, queue q on CPU 4+q, queue 15's
 * effective affinity empty (falls back to smp_affinity_list "19"), RPS on rx-0 across words. */
static void test_build_multiqueue(void **state)
{
	struct lr_irqmap m;
	struct fake_sysio f;
	size_t i;

	(void)state;
	fake_sysio_init(&f, FIXTURES "/handmade-72cpu");
	lr_irqmap_init(&m);
	assert_int_equal(lr_irqmap_build(&f.io, "eth2", &m), 0);
	assert_int_equal(m.n_irqs, 17);
	for (i = 0; i < 17; i++)
		assert_int_equal(m.irqs[i], 120 + (int)i);
	assert_int_equal(m.n_msi, 17);
	assert_int_equal(m.n_named, 0);	/* all names were also msi vectors */
	assert_string_equal(m.virtio, "");
	assert_true(m.affinity_known);
	assert_set(&m.affinity, (const int[]){0, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17,
					      18, 19}, 17);
	assert_set(&m.rps, (const int[]){40, 41, 42, 43, 64, 65}, 6);
	assert_int_equal(m.serving.n, 23);
	assert_true(lr_cpuset_has(&m.serving, 65));
	assert_false(lr_cpuset_has(&m.serving, 70));	/* eth20's CPU */
	assert_false(lr_cpuset_has(&m.serving, 3));
	assert_int_equal(m.n_took, 17);	/* CPU 0 and 4..19 */
	assert_int_equal(m.took[0].cpu, 0);
	assert_int_equal(m.took[0].count, 7 + 5);
	assert_int_equal(m.took[1].cpu, 4);
	assert_int_equal(m.took[1].count, 1000000);
	assert_int_equal(m.took[16].cpu, 19);
	assert_int_equal(m.took[16].count, 16000015);

	/* rebuild into the same map: same result, and the memory is reused, not reallocated */
	{
		const void *ptrs[] = {m.irqs, m.took, m.own.buf, m.per_cpu, m.msi, m.own.scratch.count,
				      m.affinity.cpu, m.rps.cpu, m.serving.cpu};
		const void *again[LR_ARRAY_SIZE(ptrs)];

		assert_int_equal(lr_irqmap_build(&f.io, "eth2", &m), 0);
		assert_int_equal(m.n_irqs, 17);
		assert_int_equal(m.serving.n, 23);
		assert_int_equal(m.took[0].count, 12);	/* per-CPU sums restarted from 0 */
		again[0] = m.irqs, again[1] = m.took, again[2] = m.own.buf, again[3] = m.per_cpu;
		again[4] = m.msi, again[5] = m.own.scratch.count, again[6] = m.affinity.cpu;
		again[7] = m.rps.cpu, again[8] = m.serving.cpu;
		for (i = 0; i < LR_ARRAY_SIZE(ptrs); i++)
			assert_ptr_equal(ptrs[i], again[i]);
	}
	lr_irqmap_free(&m);
}

/* This host: virtio-net eth0 is virtio2 under PCI 0000:00:03.0 (real capture). */
static void test_build_virtio_this_host(void **state)
{
	struct lr_irqmap m;
	struct fake_sysio f;

	(void)state;
	fake_sysio_init(&f, FIXTURES "/this-host");
	lr_irqmap_init(&m);
	assert_int_equal(lr_irqmap_build(&f.io, "eth0", &m), 0);
	assert_string_equal(m.virtio, "virtio2");
	assert_int_equal(m.n_irqs, 3);
	assert_int_equal(m.irqs[0], 37);	/* virtio2-config, from msi_irqs */
	assert_int_equal(m.irqs[1], 38);	/* virtio2-input.0 */
	assert_int_equal(m.irqs[2], 39);	/* virtio2-output.0 */
	assert_int_equal(m.n_msi, 3);
	assert_set(&m.affinity, (const int[]){0, 1}, 2);
	assert_int_equal(m.rps.n, 0);
	assert_set(&m.serving, (const int[]){0, 1}, 2);
	assert_int_equal(m.n_took, 2);
	assert_int_equal(m.took[0].count, 487);
	assert_int_equal(m.took[1].count, 554);

	/* lo: no device, no IRQs, no RPS: empty, not an error */
	assert_int_equal(lr_irqmap_build(&f.io, "lo", &m), 0);
	assert_int_equal(m.n_irqs, 0);
	assert_int_equal(m.serving.n, 0);
	assert_string_equal(m.ifname, "lo");
	assert_int_equal(lr_irqmap_build(&f.io, "../x", &m), -EINVAL);
	assert_int_equal(lr_irqmap_build(&f.io, "", &m), -EINVAL);
	lr_irqmap_free(&m);
	lr_irqmap_free(NULL);
}

/* No affinity files (none captured in the shared trees): serving falls back to the CPUs that
 * took the interrupts. */
static void test_build_names_only_no_affinity(void **state)
{
	struct lr_irqmap m;
	struct fake_sysio f;

	(void)state;
	fake_sysio_init(&f, FIXTURES "/datadog-proc-extras");
	lr_irqmap_init(&m);
	assert_int_equal(lr_irqmap_build(&f.io, "virtio1-input.2", &m), 0);	/* as a name */
	assert_int_equal(m.n_irqs, 1);
	assert_int_equal(m.irqs[0], 29);
	assert_false(m.affinity_known);
	assert_int_equal(m.n_named, 1);
	/* 29: 1 0 4143655300 0 */
	assert_set(&m.serving, (const int[]){0, 2}, 2);
	assert_int_equal(m.took[1].count, 4143655300ULL);
	lr_irqmap_free(&m);
}

/* Queue numbers by IRQ name: the driver's own numbering after the interface name, virtio's
 * virtqueue pair index, mlx5's completion vector; names without one stay -1. */
static void test_desc_queue(void **state)
{
	static const struct {
		const char *desc, *ifname, *virtio;
		int queue;
		enum lr_irq_dir dir;
	} cases[] = {
		{"IR-PCI-MSIX-0000:3a:00.0   39-edge      eno1-TxRx-39", "eno1", NULL, 39,
		 LR_IRQ_DIR_BOTH},
		{"IR-PCI-MSIX-0000:3a:00.0    0-edge      eno1", "eno1", NULL, -1, LR_IRQ_DIR_BOTH},
		{"PCI-MSI 1-edge      eth2-rx-3", "eth2", NULL, 3, LR_IRQ_DIR_RX},
		{"PCI-MSI 1-edge      eth2-tx-12", "eth2", NULL, 12, LR_IRQ_DIR_TX},
		{"PCI-MSI 1-edge      i40e-eth2-TxRx-7", "eth2", NULL, 7, LR_IRQ_DIR_BOTH},
		{"PCI-MSI 1-edge      ice-eth2-TxRx-0", "eth2", NULL, 0, LR_IRQ_DIR_BOTH},
		{"PCI-MSI 1-edge      eth20-TxRx-5", "eth2", NULL, -1, LR_IRQ_DIR_BOTH},
		{"PCI-MSI 65537-edge      virtio1-input.3", "eth0", "virtio1", 3, LR_IRQ_DIR_RX},
		{"PCI-MSI 65538-edge      virtio1-output.0", "eth0", "virtio1", 0, LR_IRQ_DIR_TX},
		{"PCI-MSI 65537-edge      virtio1-virtqueues", "eth0", "virtio1", -1,
		 LR_IRQ_DIR_BOTH},
		{"PCI-MSI 65536-edge      virtio1-config", "eth0", "virtio1", -1, LR_IRQ_DIR_BOTH},
		{"PCI-MSI 65536-edge      virtio10-input.2", "eth0", "virtio1", -1, LR_IRQ_DIR_BOTH},
		{"IR-PCI-MSIX-0000:5e:00.0  4-edge  mlx5_comp3@pci:0000:5e:00.0", "eth0", NULL, 3,
		 LR_IRQ_DIR_BOTH},
		{"IR-PCI-MSIX-0000:5e:00.0  0-edge  mlx5_async0@pci:0000:5e:00.0", "eth0", NULL, -1,
		 LR_IRQ_DIR_BOTH},
		{"IR-PCI-MSIX-0000:13:00.0 20-edge  mlx4-20@0000:13:00.0", "eth0", NULL, -1,
		 LR_IRQ_DIR_BOTH},	/* mlx4's EQ numbers are not ring numbers: unknown */
		{"IO-APIC  11-fasteoi   uhci_hcd:usb1, ens3", "ens3", NULL, -1, LR_IRQ_DIR_BOTH},
		{"", "eth0", NULL, -1, LR_IRQ_DIR_BOTH},
	};

	(void)state;
	for (size_t i = 0; i < LR_ARRAY_SIZE(cases); i++) {
		enum lr_irq_dir dir = 99;
		int q = lr_irq_desc_queue(cases[i].desc, strlen(cases[i].desc), cases[i].ifname,
					  cases[i].virtio, &dir);

		if (q != cases[i].queue || dir != cases[i].dir)
			fail_msg("case %zu: \"%s\": queue %d dir %d", i, cases[i].desc, q, (int)dir);
	}
}

/* The 40-CPU ixgbe capture: every eno1-TxRx-N row carries N, each exactly once, and the link
 * vector none. */
struct qrows {
	int seen[64];
	int none, other;
};

static int on_queue_row(const struct lr_irq_line *l, void *arg)
{
	struct qrows *r = arg;
	int q;

	if (!lr_irq_desc_mentions(l->desc, l->desc_len, "eno1", NULL))
		return 0;
	q = lr_irq_desc_queue(l->desc, l->desc_len, "eno1", NULL, NULL);
	if (q < 0)
		r->none++;
	else if (q < 64)
		r->seen[q]++;
	else
		r->other++;
	return 0;
}

static void test_queue_rows_40cpu_ixgbe(void **state)
{
	struct lr_irq_scratch s = {0};
	struct qrows r = {0};
	struct fake_sysio f;
	size_t cap = 1 << 20;
	char *buf = malloc(cap);
	ssize_t n;

	(void)state;
	assert_non_null(buf);
	fake_sysio_init(&f, FIXTURES "/pcp-meminfo-root-008");
	n = f.io.read_file(&f.io, "/proc/interrupts", buf, cap);
	assert_true(n > 0);
	assert_true(lr_interrupts_parse(buf, (size_t)n, &s, on_queue_row, &r, NULL) > 0);
	for (int q = 0; q < 40; q++)
		assert_int_equal(r.seen[q], 1);
	assert_int_equal(r.seen[40], 0);
	assert_int_equal(r.none, 1);	/* "eno1", the link vector */
	assert_int_equal(r.other, 0);
	lr_irq_scratch_free(&s);
	free(buf);
}

/* Per queue CPU on the maps built from trees: 72-CPU eth2 (queue q on CPU 4+q by effective
 * affinity, queue 15 by smp_affinity_list "19"), this host's virtio-net (rx and tx of queue 0
 * on their own CPUs), the virtio guest without affinity files (the CPU that took most). */
static void test_build_queue_cpus(void **state)
{
	struct lr_irqmap m;
	struct fake_sysio f;

	(void)state;
	lr_irqmap_init(&m);
	fake_sysio_init(&f, FIXTURES "/handmade-72cpu");
	assert_int_equal(lr_irqmap_build(&f.io, "eth2", &m), 0);
	assert_int_equal(m.n_iq, 17);
	assert_int_equal(m.iq[0].irq, 120);
	assert_int_equal(m.iq[0].queue, -1);	/* "eth2": the link vector */
	assert_int_equal(lr_irqmap_n_queues(&m), 16);
	for (unsigned q = 0; q < 16; q++) {
		assert_int_equal(m.iq[q + 1].queue, (int)q);
		assert_int_equal(lr_irqmap_queue_cpu(&m, q), 4 + (int)q);
	}
	assert_int_equal(lr_irqmap_queue_cpu(&m, 16), -1);

	fake_sysio_init(&f, FIXTURES "/this-host");
	assert_int_equal(lr_irqmap_build(&f.io, "eth0", &m), 0);
	assert_int_equal(lr_irqmap_n_queues(&m), 1);
	assert_int_equal(m.n_iq, 3);
	assert_int_equal(m.iq[0].queue, -1);	/* virtio2-config */
	assert_int_equal(m.iq[1].dir, LR_IRQ_DIR_RX);
	assert_int_equal(m.iq[2].dir, LR_IRQ_DIR_TX);
	/* effective_affinity_list: input.0 (IRQ 38) "1", output.0 (IRQ 39) "0"; rx first */
	assert_int_equal(m.iq[1].cpu, 1);
	assert_int_equal(m.iq[2].cpu, 0);
	assert_int_equal(lr_irqmap_queue_cpu(&m, 0), 1);

	fake_sysio_init(&f, FIXTURES "/datadog-proc-extras");
	assert_int_equal(lr_irqmap_build(&f.io, "virtio1-input.2", &m), 0);
	assert_int_equal(m.n_iq, 1);
	assert_int_equal(m.iq[0].queue, -1);	/* matched as an interface name, no suffix */
	assert_int_equal(m.iq[0].cpu, 2);	/* 29: 1 0 4143655300 0 */
	lr_irqmap_free(&m);
}

/* A virtual interface (in sysfs, no parent device) skips /proc/interrupts even where a row
 * carries its name; the same name with a device is read and its queue numbered. */
static void test_build_virtual_skips_interrupts(void **state)
{
	char root[] = "/tmp/lr_irqvirt.XXXXXX", path[128], cmd[160];
	struct lr_irqmap m;
	struct fake_sysio f;
	FILE *fp;

	(void)state;
	assert_non_null(mkdtemp(root));
	snprintf(cmd, sizeof(cmd), "mkdir -p %s/proc %s/sys/class/net/v0", root, root);
	assert_int_equal(system(cmd), 0);
	snprintf(path, sizeof(path), "%s/proc/interrupts", root);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs("           CPU0       CPU1\n"
	      " 50:          7          0  PCI-MSI 1-edge      v0-TxRx-0\n",
	      fp);
	fclose(fp);
	fake_sysio_init(&f, root);
	lr_irqmap_init(&m);
	assert_int_equal(lr_irqmap_build(&f.io, "v0", &m), 0);
	assert_int_equal(m.n_irqs, 0);
	assert_int_equal(m.n_iq, 0);
	snprintf(cmd, sizeof(cmd), "mkdir -p %s/sys/class/net/v0/device", root);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(lr_irqmap_build(&f.io, "v0", &m), 0);
	assert_int_equal(m.n_irqs, 1);
	assert_int_equal(m.iq[0].queue, 0);
	assert_int_equal(m.iq[0].cpu, 0);	/* no affinity file: where it ran */
	lr_irqmap_free(&m);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	assert_int_equal(system(cmd), 0);
}

/* Opens of /proc/interrupts through the wrapped fake (test_build_round_reads_once). */
static int (*real_open_ro)(const struct lr_sysio *io, const char *path);
static int interrupts_opens;

static int counting_open_ro(const struct lr_sysio *io, const char *path)
{
	interrupts_opens += !strcmp(path, "/proc/interrupts");
	return real_open_ro(io, path);
}

static void write_interrupts(const char *root, const char *rows)
{
	char path[128];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/proc/interrupts", root);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs("           CPU0       CPU1       CPU2\n", fp);
	fputs(rows, fp);
	fclose(fp);
}

/* A round of maps for two interfaces opens /proc/interrupts once (issue 33: the sampler rebuilds
 * every interface's map in turn; a 1024-CPU host's file is tens of MB) and each map is the one
 * lr_irqmap_build makes alone; after lr_irq_rows_reset the next map reads the file again and
 * sees what changed in it, and until then it does not. */
static void test_build_round_reads_once(void **state)
{
	char root[] = "/tmp/lr_irqround.XXXXXX", cmd[200];
	struct lr_irq_rows rows = {0};
	struct lr_irqmap m, alone;
	struct fake_sysio f;

	(void)state;
	assert_non_null(mkdtemp(root));
	snprintf(cmd, sizeof(cmd), "mkdir -p %s/proc %s/sys/class/net/a0/device "
		 "%s/sys/class/net/b0/device", root, root, root);
	assert_int_equal(system(cmd), 0);
	write_interrupts(root, " 50:          7          0          0  PCI-MSI 1-edge      a0-TxRx-0\n"
			       " 51:          0          9          0  PCI-MSI 2-edge      a0-TxRx-1\n"
			       " 60:          0          0          4  PCI-MSI 3-edge      b0-TxRx-0\n"
			       "NMI:          0          0          0   Non-maskable interrupts\n");
	fake_sysio_init(&f, root);
	real_open_ro = f.io.open_ro;
	f.io.open_ro = counting_open_ro;
	interrupts_opens = 0;
	lr_irqmap_init(&m);
	lr_irqmap_init(&alone);

	assert_int_equal(lr_irqmap_build_rows(&f.io, "a0", &rows, &m), 0);
	assert_int_equal(m.n_iq, 2);
	assert_int_equal(m.iq[0].irq, 50);
	assert_int_equal(m.iq[1].cpu, 1);
	assert_int_equal(m.n_took, 2);
	assert_int_equal(m.took[1].count, 9);
	assert_int_equal(lr_irqmap_build_rows(&f.io, "b0", &rows, &m), 0);
	assert_int_equal(interrupts_opens, 1);
	assert_int_equal(lr_irqmap_build(&f.io, "b0", &alone), 0);
	assert_int_equal(interrupts_opens, 2);
	assert_int_equal(m.n_iq, alone.n_iq);
	assert_int_equal(m.n_iq, 1);
	assert_int_equal(m.iq[0].irq, alone.iq[0].irq);
	assert_int_equal(m.iq[0].queue, alone.iq[0].queue);
	assert_int_equal(m.iq[0].cpu, alone.iq[0].cpu);
	assert_int_equal(m.iq[0].took, alone.iq[0].took);
	assert_int_equal(m.iq[0].irq, 60);
	assert_int_equal(m.n_took, 1);
	assert_int_equal(m.took[0].cpu, 2);
	assert_int_equal(m.took[0].count, alone.took[0].count);

	/* b0 gains a vector: unseen within the round, seen after the reset */
	write_interrupts(root, " 50:          7          0          0  PCI-MSI 1-edge      a0-TxRx-0\n"
			       " 60:          0          0          4  PCI-MSI 3-edge      b0-TxRx-0\n"
			       " 61:          0          5          0  PCI-MSI 4-edge      b0-TxRx-1\n");
	assert_int_equal(lr_irqmap_build_rows(&f.io, "b0", &rows, &m), 0);
	assert_int_equal(m.n_iq, 1);
	lr_irq_rows_reset(&rows);
	assert_int_equal(lr_irqmap_build_rows(&f.io, "b0", &rows, &m), 0);
	assert_int_equal(interrupts_opens, 3);
	assert_int_equal(m.n_iq, 2);
	assert_int_equal(m.iq[1].irq, 61);
	assert_int_equal(m.iq[1].queue, 1);
	assert_int_equal(m.iq[1].cpu, 1);

	lr_irqmap_free(&m);
	lr_irqmap_free(&alone);
	lr_irq_rows_free(&rows);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpulist),
		cmocka_unit_test(test_cpumask),
		cmocka_unit_test(test_interrupts_40cpu_ixgbe),
		cmocka_unit_test(test_interrupts_virtio_guest),
		cmocka_unit_test(test_interrupts_shared_legacy_and_s390),
		cmocka_unit_test(test_desc_mentions),
		cmocka_unit_test(test_interrupts_bad),
		cmocka_unit_test(test_build_multiqueue),
		cmocka_unit_test(test_build_virtio_this_host),
		cmocka_unit_test(test_build_names_only_no_affinity),
		cmocka_unit_test(test_desc_queue),
		cmocka_unit_test(test_queue_rows_40cpu_ixgbe),
		cmocka_unit_test(test_build_queue_cpus),
		cmocka_unit_test(test_build_virtual_skips_interrupts),
		cmocka_unit_test(test_build_round_reads_once),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
