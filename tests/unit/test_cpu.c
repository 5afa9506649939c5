// SPDX-License-Identifier: GPL-2.0-or-later
/* Per-CPU parsers (/proc/stat, /proc/softirqs, /proc/net/softnet_stat), the reader and the
 * percentage maths, on captured trees, this host's capture and the hand-made 72-CPU tree.
 * Expected numbers were read off the fixture files by hand (hex converted with python). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "fakes/fake_sysio.h"
#include "linerate/collect/cpu.h"
#include "linerate/core/log.h"

/* Reads <tree>/<path> (a kernel path) into a heap buffer; *len its length. */
static char *slurp(const char *tree, const char *path, size_t *len)
{
	struct fake_sysio f;
	char root[256];
	size_t cap = 1 << 20;
	char *buf = malloc(cap);
	ssize_t n;

	assert_non_null(buf);
	snprintf(root, sizeof(root), FIXTURES "/%s", tree);
	fake_sysio_init(&f, root);
	n = f.io.read_file(&f.io, path, buf, cap);
	assert_true(n >= 0);
	*len = (size_t)n;
	return buf;
}

static int parse_file(const char *tree, const char *path,
		      int (*parse)(const char *, size_t, struct lr_cpu_table *),
		      struct lr_cpu_table *t)
{
	size_t len;
	char *buf = slurp(tree, path, &len);
	int rc = parse(buf, len, t);

	free(buf);
	return rc;
}

static void test_stat_10_fields_this_host(void **state)
{
	struct lr_cpu_table t;

	(void)state;
	lr_cpu_table_init(&t);
	assert_int_equal(parse_file("this-host", "/proc/stat", lr_cpu_parse_stat, &t), 2);
	assert_int_equal(t.n, 2);
	/* cpu  2358 0 1764 64564 460 0 84 111 0 0 */
	assert_true(t.all.valid & LR_CPUV_TIMES);
	assert_int_equal(t.all.time_valid, 0x3ff);
	assert_int_equal(t.all.time[LR_CT_USER], 2358);
	assert_int_equal(t.all.time[LR_CT_IDLE], 64564);
	assert_int_equal(t.all.time[LR_CT_STEAL], 111);
	/* cpu1 1652 0 1071 31383 433 0 64 65 0 0 */
	assert_true(t.cpu[1].present);
	assert_int_equal(t.cpu[1].time[LR_CT_SYSTEM], 1071);
	assert_int_equal(t.cpu[1].time[LR_CT_IOWAIT], 433);
	assert_int_equal(t.cpu[1].time[LR_CT_SOFTIRQ], 64);
	assert_int_equal(t.cpu[1].time[LR_CT_STEAL], 65);
	lr_cpu_table_free(&t);
}

static void test_stat_7_fields_old_kernel(void **state)
{
	struct lr_cpu_table t;

	(void)state;
	lr_cpu_table_init(&t);
	assert_int_equal(parse_file("sysstat-root6", "/proc/stat", lr_cpu_parse_stat, &t), 10);
	/* cpu  94891 2581673 52704 2909475 58343 27927 25855 */
	assert_int_equal(t.all.time_valid, 0x7f);
	assert_int_equal(t.all.time[LR_CT_NICE], 2581673);
	assert_int_equal(t.all.time[LR_CT_SOFTIRQ], 25855);
	assert_int_equal(t.all.time[LR_CT_STEAL], 0);
	/* cpu0 10600 331675 5802 352894 4235 3243 9600 */
	assert_int_equal(t.cpu[0].time_valid, 0x7f);
	assert_int_equal(t.cpu[0].time[LR_CT_USER], 10600);
	assert_int_equal(t.cpu[0].time[LR_CT_IRQ], 3243);
	assert_true(t.cpu[9].valid & LR_CPUV_TIMES);
	lr_cpu_table_free(&t);
}

static void test_stat_guest_and_no_newline(void **state)
{
	struct lr_cpu_table t;

	(void)state;
	lr_cpu_table_init(&t);
	/* node_exporter's stat: guest columns edited to non-zero; cpu7 .. 0 9 8 */
	assert_int_equal(parse_file("nodeexp-fixtures", "/proc/stat", lr_cpu_parse_stat, &t), 8);
	assert_int_equal(t.cpu[7].time[LR_CT_GUEST], 9);
	assert_int_equal(t.cpu[7].time[LR_CT_GUEST_NICE], 8);
	assert_int_equal(t.all.time[LR_CT_USER], 301854);
	assert_int_equal(t.all.time[LR_CT_GUEST], 44);
	lr_cpu_table_free(&t);

	lr_cpu_table_init(&t);
	/* otel's stat has no newline after its last line and 5 CPUs */
	assert_int_equal(parse_file("otel-hostmetrics-e2e", "/proc/stat", lr_cpu_parse_stat, &t),
			 5);
	assert_int_equal(t.cpu[0].time[LR_CT_IDLE], 14666);
	assert_int_equal(t.all.time[LR_CT_SYSTEM], 566);
	lr_cpu_table_free(&t);
}

/* CPU 6 is offline in sysstat-root4: no cpu6 line, no softnet row; softirqs lists all 9. */
static void test_hotplug_gap_root4(void **state)
{
	struct lr_cpu_table t;

	(void)state;
	lr_cpu_table_init(&t);
	assert_int_equal(parse_file("sysstat-root4", "/proc/stat", lr_cpu_parse_stat, &t), 8);
	assert_int_equal(t.n, 9);
	assert_false(t.cpu[6].present);
	assert_int_equal(t.cpu[8].time[LR_CT_USER], 1422);
	assert_int_equal(parse_file("sysstat-root4", "/proc/softirqs", lr_cpu_parse_softirqs, &t),
			 9);
	assert_int_equal(t.cpu[6].valid, LR_CPUV_SOFTIRQS);	/* possible CPU: softirqs only */
	assert_false(t.cpu[6].present);				/* ... and offline */
	assert_true(t.cpu[8].present);
	assert_int_equal(t.cpu[3].net_rx, 52674);
	assert_int_equal(t.cpu[3].net_tx, 697);
	assert_int_equal(t.cpu[8].net_tx, 132);
	/* 13 columns: column 12 is the CPU (0..5, 7, 8) */
	assert_int_equal(parse_file("sysstat-root4", "/proc/net/softnet_stat",
				    lr_cpu_parse_softnet, &t), 8);
	assert_false(t.cpu[6].valid & LR_CPUV_SOFTNET);
	assert_int_equal(t.cpu[7].softnet_processed, 18776);
	assert_int_equal(t.cpu[8].softnet_processed, 34);
	assert_int_equal(t.cpu[3].softnet_processed, 66787);
	assert_int_equal(t.cpu[8].valid, LR_CPUV_TIMES | LR_CPUV_SOFTIRQS | LR_CPUV_SOFTNET);
	lr_cpu_table_free(&t);
}

static void test_softnet_columns(void **state)
{
	struct lr_cpu_table t;

	(void)state;
	/* 10 columns (RHEL6), no stat parsed: row i is CPU i */
	lr_cpu_table_init(&t);
	assert_int_equal(parse_file("pcp-qa1030-el6", "/proc/net/softnet_stat",
				    lr_cpu_parse_softnet, &t), 4);
	assert_int_equal(t.cpu[0].softnet_processed, 5129);
	assert_int_equal(t.cpu[0].softnet_dropped, 2);
	assert_int_equal(t.cpu[0].softnet_squeezed, 3);
	assert_int_equal(t.cpu[3].softnet_processed, 3835);
	lr_cpu_table_free(&t);

	/* 11 columns after a stat of 8 CPUs: rows map to the online CPUs 0..3 */
	lr_cpu_table_init(&t);
	assert_int_equal(parse_file("nodeexp-fixtures", "/proc/stat", lr_cpu_parse_stat, &t), 8);
	assert_int_equal(parse_file("nodeexp-fixtures", "/proc/net/softnet_stat",
				    lr_cpu_parse_softnet, &t), 4);
	assert_int_equal(t.cpu[1].softnet_processed, 916354);	/* 000dfb82 */
	assert_int_equal(t.cpu[1].softnet_dropped, 41);		/* 00000029 */
	assert_int_equal(t.cpu[1].softnet_squeezed, 10);	/* 0000000a */
	assert_int_equal(t.cpu[3].softnet_squeezed, 50);
	assert_false(t.cpu[4].valid & LR_CPUV_SOFTNET);
	lr_cpu_table_free(&t);

	/* 9 columns (before 2.6.35): processed dropped time_squeeze 0 0 0 0 0 cpu_collision */
	lr_cpu_table_init(&t);
	{
		static const char nine[] =
			"0000a2c1 00000003 0000001f 00000000 00000000 00000000 00000000 00000000 "
			"00000000\n"
			"FFFFFFFF 00000000 00000001 00000000 00000000 00000000 00000000 00000000 "
			"00000002\n";

		assert_int_equal(lr_cpu_parse_softnet(nine, sizeof(nine) - 1, &t), 2);
		assert_int_equal(t.cpu[0].softnet_processed, 0xa2c1);
		assert_int_equal(t.cpu[0].softnet_dropped, 3);
		assert_int_equal(t.cpu[0].softnet_squeezed, 0x1f);
		assert_int_equal(t.cpu[1].softnet_processed, 0xffffffffULL);
		assert_true(t.cpu[1].present);
		/* junk rows are skipped; nothing valid at all is -EINVAL and clears the bits */
		assert_int_equal(lr_cpu_parse_softnet("zz 1 2\n1 2\n", 11, &t), -EINVAL);
		assert_false(t.cpu[0].valid & LR_CPUV_SOFTNET);
	}
	lr_cpu_table_free(&t);

	/* 15 columns (6.4+), this host */
	lr_cpu_table_init(&t);
	assert_int_equal(parse_file("this-host", "/proc/net/softnet_stat", lr_cpu_parse_softnet,
				    &t), 2);
	assert_int_equal(t.cpu[0].softnet_processed, 0x11);
	assert_int_equal(t.cpu[1].softnet_processed, 0x327);
	lr_cpu_table_free(&t);
}

static void test_40cpu_server(void **state)
{
	struct lr_cpu_table t;

	(void)state;
	lr_cpu_table_init(&t);
	assert_int_equal(parse_file("pcp-meminfo-root-008", "/proc/stat", lr_cpu_parse_stat, &t),
			 40);
	assert_int_equal(t.cpu[7].time[LR_CT_IDLE], 1162464020);
	assert_int_equal(parse_file("pcp-meminfo-root-008", "/proc/softirqs",
				    lr_cpu_parse_softirqs, &t), 40);
	assert_int_equal(t.cpu[0].net_rx, 21436449);
	assert_int_equal(t.cpu[39].net_rx, 18697200);
	assert_int_equal(t.cpu[0].net_tx, 36507);
	assert_int_equal(t.cpu[39].net_tx, 842350);
	assert_int_equal(parse_file("pcp-meminfo-root-008", "/proc/net/softnet_stat",
				    lr_cpu_parse_softnet, &t), 40);
	assert_int_equal(t.cpu[0].softnet_processed, 25078767);
	assert_int_equal(t.cpu[0].softnet_squeezed, 2);
	assert_int_equal(t.cpu[39].softnet_processed, 1099625);
	lr_cpu_table_free(&t);
}

/* 80 possible CPUs, 71 online (CPU 3 offline), 13-column softnet. See generate.py. */
static void test_72cpu_handmade(void **state)
{
	struct lr_cpu_table t;
	size_t i;

	(void)state;
	lr_cpu_table_init(&t);
	assert_int_equal(parse_file("handmade-72cpu", "/proc/stat", lr_cpu_parse_stat, &t), 71);
	assert_false(t.cpu[3].valid & LR_CPUV_TIMES);
	assert_int_equal(t.cpu[71].time[LR_CT_USER], 1071);
	assert_int_equal(t.cpu[71].time[LR_CT_GUEST], 71);
	assert_int_equal(parse_file("handmade-72cpu", "/proc/softirqs", lr_cpu_parse_softirqs, &t),
			 80);
	assert_int_equal(t.n, 80);
	assert_int_equal(t.cpu[70].net_rx, 7000017);
	assert_int_equal(t.cpu[71].net_rx, 4294967295ULL);
	assert_int_equal(t.cpu[79].net_rx, 0);
	assert_false(t.cpu[79].present);	/* possible, never online */
	assert_false(t.cpu[3].present);		/* offline */
	assert_true(t.cpu[71].present);
	assert_int_equal(t.cpu[64].net_tx, 64003);
	assert_int_equal(parse_file("handmade-72cpu", "/proc/net/softnet_stat",
				    lr_cpu_parse_softnet, &t), 71);
	for (i = 0; i < 72; i++) {
		if (i == 3) {
			assert_int_equal(t.cpu[i].valid, LR_CPUV_SOFTIRQS);
			continue;
		}
		assert_int_equal(t.cpu[i].valid,
				 LR_CPUV_TIMES | LR_CPUV_SOFTIRQS | LR_CPUV_SOFTNET);
		assert_int_equal(t.cpu[i].softnet_processed, 0x1000 * i + 1);
		assert_int_equal(t.cpu[i].softnet_dropped, i % 5);
		assert_int_equal(t.cpu[i].softnet_squeezed, 2 * i);
	}
	lr_cpu_table_free(&t);
}

static void test_softirqs_single_and_bad(void **state)
{
	static const char no_header[] = "      NET_RX:         23          2\n";
	static const char rx_only[] = "        CPU0       CPU1\n      NET_RX:   5   6\n";
	struct lr_cpu_table t;

	(void)state;
	lr_cpu_table_init(&t);
	assert_int_equal(parse_file("pcp-i686-1cpu", "/proc/softirqs", lr_cpu_parse_softirqs, &t),
			 1);
	assert_int_equal(t.n, 1);
	assert_true(t.cpu[0].present);	/* no stat/softnet read: softirqs decide */
	assert_int_equal(lr_cpu_parse_softirqs(no_header, sizeof(no_header) - 1, &t), -EINVAL);
	assert_false(t.cpu[0].valid & LR_CPUV_SOFTIRQS);	/* cleared, not stale */
	/* NET_TX row missing: neither CPU gets LR_CPUV_SOFTIRQS */
	assert_int_equal(lr_cpu_parse_softirqs(rx_only, sizeof(rx_only) - 1, &t), 0);
	assert_int_equal(t.cpu[1].valid, 0);
	assert_false(t.cpu[1].present);
	lr_cpu_table_free(&t);
}

static void test_stat_garbage(void **state)
{
	static const char text[] = "cpu  1 2 3 4 5 6 7\n"
				   "cpu0 1 2 3\n"			/* too few */
				   "cpu1 1 2 3 4 x 6 7\n"		/* junk */
				   "cpu2 1 2 3 4 5 6 7 8 9 10 11\n"	/* 11: extra ignored */
				   "cpu99999999 1 2 3 4 5 6 7\n"	/* beyond LR_CPU_MAX */
				   "cpu3 18446744073709551616 2 3 4 5 6 7\n"	/* 2^64 */
				   "cpux 1 2 3 4\n"
				   "cpu4 1 2 3 4";
	struct lr_cpu_table t;

	(void)state;
	lr_cpu_table_init(&t);
	assert_int_equal(lr_cpu_parse_stat(text, sizeof(text) - 1, &t), 2);
	assert_int_equal(t.n, 5);
	assert_false(t.cpu[0].present);
	assert_false(t.cpu[1].present);
	assert_int_equal(t.cpu[2].time_valid, 0x3ff);
	assert_int_equal(t.cpu[2].time[LR_CT_GUEST_NICE], 10);
	assert_false(t.cpu[3].present);
	assert_int_equal(t.cpu[4].time_valid, 0xf);
	assert_int_equal(lr_cpu_parse_stat("intr 1 2\n", 9, &t), -EINVAL);
	assert_false(t.cpu[2].present);
	assert_false(t.all.present);
	lr_cpu_table_free(&t);
}

static struct lr_cpu_raw raw(uint64_t user, uint64_t nice, uint64_t sys, uint64_t idle,
			     uint64_t iowait, uint64_t irq, uint64_t si, uint64_t steal,
			     uint64_t guest)
{
	struct lr_cpu_raw r = {.present = true, .valid = LR_CPUV_TIMES, .time_valid = 0x3ff};

	r.time[LR_CT_USER] = user;
	r.time[LR_CT_NICE] = nice;
	r.time[LR_CT_SYSTEM] = sys;
	r.time[LR_CT_IDLE] = idle;
	r.time[LR_CT_IOWAIT] = iowait;
	r.time[LR_CT_IRQ] = irq;
	r.time[LR_CT_SOFTIRQ] = si;
	r.time[LR_CT_STEAL] = steal;
	r.time[LR_CT_GUEST] = guest;
	return r;
}

static void test_pct(void **state)
{
	struct lr_cpu_raw a = raw(1000, 100, 500, 9000, 50, 10, 20, 0, 300);
	struct lr_cpu_raw b;
	double u = -1, s = -1, i = -1, si = -1, id = -1;

	(void)state;
	/* +40 user (20 of it guest) +10 nice +10 sys +20 idle +10 iowait +5 irq +5 si = 100 */
	b = raw(1040, 110, 510, 9020, 60, 15, 25, 0, 320);
	assert_true(lr_cpu_pct(&a, &b, &u, &s, &i, &si, &id));
	assert_float_equal(u, 50.0, 1e-9);	/* nice included, guest not counted twice */
	assert_float_equal(s, 10.0, 1e-9);
	assert_float_equal(i, 5.0, 1e-9);
	assert_float_equal(si, 5.0, 1e-9);
	assert_float_equal(id, 30.0, 1e-9);	/* iowait included */

	/* steal 100 on top: total 200, the five sum to 50 */
	b = raw(1040, 110, 510, 9020, 60, 15, 25, 100, 320);
	assert_true(lr_cpu_pct(&a, &b, &u, NULL, NULL, NULL, &id));
	assert_float_equal(u, 25.0, 1e-9);
	assert_float_equal(id, 15.0, 1e-9);

	/* no time passed */
	u = -1;
	assert_false(lr_cpu_pct(&a, &a, &u, &s, &i, &si, &id));
	assert_float_equal(u, -1, 0);
	/* system went backwards: reset, no numbers */
	b = raw(1040, 110, 400, 9020, 60, 15, 25, 0, 320);
	assert_false(lr_cpu_pct(&a, &b, &u, &s, &i, &si, &id));
	/* iowait went backwards by 5 while idle moved 20: folded into idle (15 of 85) */
	b = raw(1040, 110, 510, 9020, 45, 15, 25, 0, 320);
	assert_true(lr_cpu_pct(&a, &b, &u, &s, &i, &si, &id));
	assert_float_equal(id, 100.0 * 15 / 85, 1e-9);
	/* ... but not when idle + iowait went backwards */
	b = raw(1040, 110, 510, 9001, 30, 15, 25, 0, 320);
	assert_false(lr_cpu_pct(&a, &b, &u, &s, &i, &si, &id));
	/* either reading without times */
	b = raw(1040, 110, 510, 9020, 60, 15, 25, 0, 320);
	b.valid = LR_CPUV_SOFTIRQS;
	assert_false(lr_cpu_pct(&a, &b, &u, &s, &i, &si, &id));

	/* 7-column kernels: no steal/guest columns */
	a.time_valid = b.time_valid = 0x7f;
	b.valid = LR_CPUV_TIMES;
	b.time[LR_CT_STEAL] = 12345;	/* not a column: ignored */
	assert_true(lr_cpu_pct(&a, &b, &u, &s, &i, &si, &id));
	assert_float_equal(s, 10.0, 1e-9);
}

/* Writes a /proc tree under a temp dir: a stat big enough to overflow the reader's first
 * buffer (1000 CPUs), and no softirqs/softnet_stat files. */
static void make_big_tree(char *dir, size_t len)
{
	char path[512];
	FILE *f;
	int c;

	snprintf(dir, len, "/tmp/lr-test-cpu-XXXXXX");
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/proc", dir);
	assert_int_equal(mkdir(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/proc/stat", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "cpu  1 2 3 4 5 6 7 8 9 10\n");
	for (c = 0; c < 1000; c++)
		fprintf(f, "cpu%d %d 0 %d 100000 0 0 %d 0 0 0\n", c, c, 2 * c, 3 * c);
	fprintf(f, "intr 0\nctxt 1\n");
	assert_int_equal(fclose(f), 0);
}

static void rm_big_tree(const char *dir)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/proc/stat", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/proc", dir);
	rmdir(path);
	rmdir(dir);
}

static void test_reader_this_host(void **state)
{
	struct lr_cpu_reader *r = NULL;
	struct lr_cpu_table t;
	struct fake_sysio f;
	struct lr_cpu_raw *before;
	int k;

	(void)state;
	fake_sysio_init(&f, FIXTURES "/this-host");
	lr_cpu_table_init(&t);
	assert_int_equal(lr_cpu_reader_open(&r, &f.io), 0);
	for (k = 0; k < 2; k++) {
		assert_int_equal(lr_cpu_reader_read(r, &t), 0);
		if (k == 0)
			before = t.cpu;
		assert_ptr_equal(t.cpu, before);	/* steady state: no realloc */
		assert_int_equal(t.n, 2);
		assert_int_equal(t.cpu[0].valid,
				 LR_CPUV_TIMES | LR_CPUV_SOFTIRQS | LR_CPUV_SOFTNET);
		assert_int_equal(t.cpu[0].time[LR_CT_IDLE], 33181);
		assert_int_equal(t.cpu[1].net_rx, 563);
		assert_int_equal(t.cpu[0].net_tx, 4);
		assert_int_equal(t.cpu[1].softnet_processed, 807);
	}
	lr_cpu_reader_close(r);
	lr_cpu_table_free(&t);
}

static void test_reader_missing_files_and_growth(void **state)
{
	struct lr_cpu_reader *r = NULL;
	struct lr_log_entry e[16];
	struct lr_cpu_table t;
	struct fake_sysio f;
	uint64_t seen = 0;
	size_t n, i, warns = 0;
	char dir[64];

	(void)state;
	lr_log_read(&seen, e, LR_ARRAY_SIZE(e));	/* drain */
	make_big_tree(dir, sizeof(dir));
	fake_sysio_init(&f, dir);
	lr_cpu_table_init(&t);
	assert_int_equal(lr_cpu_reader_open(&r, &f.io), 0);
	n = lr_log_read(&seen, e, LR_ARRAY_SIZE(e));
	for (i = 0; i < n; i++)
		warns += e[i].level == LR_LOG_WARN && strstr(e[i].msg, "cpu:") != NULL;
	assert_int_equal(warns, 2);	/* softirqs and softnet_stat, once each */
	assert_int_equal(lr_cpu_reader_read(r, &t), 0);
	assert_int_equal(lr_cpu_reader_read(r, &t), 0);
	assert_int_equal(lr_log_read(&seen, e, LR_ARRAY_SIZE(e)), 0);	/* not per tick */
	assert_int_equal(t.n, 1000);
	assert_int_equal(t.cpu[999].time[LR_CT_SYSTEM], 1998);
	assert_int_equal(t.cpu[999].time[LR_CT_SOFTIRQ], 2997);
	assert_int_equal(t.cpu[999].valid, LR_CPUV_TIMES);	/* the rest stays unknown */
	lr_cpu_reader_close(r);
	lr_cpu_table_free(&t);
	rm_big_tree(dir);

	/* nothing there at all */
	fake_sysio_init(&f, FIXTURES "/no-such-tree");
	assert_int_equal(lr_cpu_reader_open(&r, &f.io), -ENOENT);
}

/* Steal on real captures (the fedora30 host and this project's own VM): /proc/stat starts at
 * zero at boot, so the shares since boot are the reading against an all-zero one. Steal is
 * its own share, outside idle, and the six add up to 100. Expected: the lines by hand. */
static void check_steal_since_boot(const char *tree, int ncpu, double want_steal, double want_idle)
{
	struct lr_cpu_table t;
	struct lr_cpu_raw boot;
	double u, s, i, si, id, st;

	lr_cpu_table_init(&t);
	assert_int_equal(parse_file(tree, "/proc/stat", lr_cpu_parse_stat, &t), ncpu);
	memset(&boot, 0, sizeof(boot));
	boot.valid = LR_CPUV_TIMES;
	boot.time_valid = t.all.time_valid;
	assert_true(lr_cpu_pct_steal(&boot, &t.all, &u, &s, &i, &si, &id, &st));
	assert_true(st > want_steal - 0.0001 && st < want_steal + 0.0001);
	assert_true(id > want_idle - 0.0001 && id < want_idle + 0.0001);
	assert_true(u + s + i + si + id + st > 99.999 && u + s + i + si + id + st < 100.001);
	lr_cpu_table_free(&t);
}

static void test_steal_real_captures(void **state)
{
	(void)state;
	/* cpu  31608779 223223 15924288 1134746753 223880 4348430 1995355 266903 0 0:
	 * total 1189337611, steal 266903 -> 0.02244 %, idle+iowait 1134970633 -> 95.42880 % */
	check_steal_since_boot("gosysinfo-fedora30", 4, 0.022441, 95.428802);
	/* cpu  2358 0 1764 64564 460 0 84 111 0 0: total 69341, steal 0.16008 %,
	 * idle+iowait 65024 -> 93.7743 % */
	check_steal_since_boot("this-host", 2, 0.160078, 93.774246);
}

/* A 7-column line (before 2.6.11) has no steal: unknown, not 0. */
static void test_steal_unknown_on_old_kernels(void **state)
{
	struct lr_cpu_raw a, b;
	double st = 0;

	(void)state;
	memset(&a, 0, sizeof(a));
	a.valid = LR_CPUV_TIMES;
	a.time_valid = 0x7f;
	b = a;
	b.time[LR_CT_USER] = 10;
	b.time[LR_CT_IDLE] = 90;
	assert_true(lr_cpu_pct_steal(&a, &b, NULL, NULL, NULL, NULL, NULL, &st));
	assert_true(st < 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stat_10_fields_this_host),
		cmocka_unit_test(test_stat_7_fields_old_kernel),
		cmocka_unit_test(test_stat_guest_and_no_newline),
		cmocka_unit_test(test_hotplug_gap_root4),
		cmocka_unit_test(test_softnet_columns),
		cmocka_unit_test(test_40cpu_server),
		cmocka_unit_test(test_72cpu_handmade),
		cmocka_unit_test(test_softirqs_single_and_bad),
		cmocka_unit_test(test_stat_garbage),
		cmocka_unit_test(test_pct),
		cmocka_unit_test(test_steal_real_captures),
		cmocka_unit_test(test_steal_unknown_on_old_kernels),
		cmocka_unit_test(test_reader_this_host),
		cmocka_unit_test(test_reader_missing_files_and_growth),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
