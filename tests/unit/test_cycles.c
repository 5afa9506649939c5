// SPDX-License-Identifier: GPL-2.0-or-later
/* diagnose/cycles: the cycles' ledger on recorded CPU snapshots, through the sampler's own path
 * (lr_cpu_parse_stat/_softirqs into the CPU window, lr_cpuwin_build's percentages). The
 * witness is each capture's own text, read here by sscanf (not by linerate's parser): the
 * busiest CPU and its split are those jiffy deltas. tests/fixtures/cycles/busy-cpu1: this
 * 2-CPU machine's /proc/stat and /proc/softirqs 1 s apart while a shell loop pinned to CPU 1
 * (taskset -c 1) ran: CPU 1 100 % busy, CPU 0 45 % (other jobs). sysstat-root1 and
 * nodeexp-fixtures (sysstat's and node_exporter's test data): real hosts' captures read as
 * one window since boot (a zero reading before). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "fakes/fake_sysio.h"
#include "fakes/slurp.h"
#include "linerate/diagnose/cycles.h"
#include "linerate/diagnose/expect.h"
#include "linerate/present/cycles_out.h"
#include "linerate/sample/cpuwin.h"
#include "linerate/sample/snapshot.h"

#define SEC 1000000000ULL
#define BUF (256 * 1024)

static void read_into(struct lr_cpuwin *w, const char *dir, bool zero, uint64_t at_ns)
{
	char path[256], *buf = malloc(BUF);
	struct lr_cpu_table *t = lr_cpuwin_slot(w);
	size_t n;

	assert_non_null(buf);
	snprintf(path, sizeof(path), FIXTURES "/%s/proc/stat", dir);
	n = slurp(path, buf, BUF);
	assert_true(lr_cpu_parse_stat(buf, n, t) > 0);
	snprintf(path, sizeof(path), FIXTURES "/%s/proc/softirqs", dir);
	n = slurp(path, buf, BUF);
	assert_true(lr_cpu_parse_softirqs(buf, n, t) > 0);
	for (size_t c = 0; zero && c < t->n; c++) {	/* the reading at boot */
		memset(t->cpu[c].time, 0, sizeof(t->cpu[c].time));
		t->cpu[c].net_rx = t->cpu[c].net_tx = 0;
	}
	lr_cpuwin_push(w, at_ns);
	free(buf);
}

/* The snapshot the sampler would publish for a window from `before` (NULL: boot) to `after`. */
static void window(const char *before, const char *after, uint64_t dt_ns, struct lr_snapshot *s)
{
	struct lr_cpuwin w;

	lr_cpuwin_init(&w);
	lr_snapshot_init(s);
	read_into(&w, before ? before : after, !before, 1000 * SEC);
	read_into(&w, after, false, 1000 * SEC + dt_ns);
	assert_int_equal(lr_cpuwin_build(&w, s, dt_ns), 0);
	s->interval_ns = dt_ns;
	s->seq = 1;
	lr_cpuwin_free(&w);
}

/* The witness: a cpuN line's jiffy deltas between two captures (before NULL: since boot). */
struct jiffies {
	double busy, usr, sys, softirq, total;
};

static struct jiffies delta(const char *before, const char *after, int cpu)
{
	unsigned long long a[10] = {0}, b[10] = {0};
	char want[16], path[256], line[512];
	struct jiffies j;
	FILE *f;

	snprintf(want, sizeof(want), "cpu%d ", cpu);
	for (int k = 0; k < 2; k++) {
		const char *dir = k ? after : before;
		unsigned long long *v = k ? a : b;

		if (!dir)
			continue;
		snprintf(path, sizeof(path), FIXTURES "/%s/proc/stat", dir);
		f = fopen(path, "r");
		assert_non_null(f);
		while (fgets(line, sizeof(line), f))
			if (!strncmp(line, want, strlen(want)))
				sscanf(line + strlen(want), "%llu %llu %llu %llu %llu %llu %llu %llu", &v[0],
				       &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]);
		fclose(f);
	}
	j.total = 0;
	for (int i = 0; i < 8; i++)
		j.total += (double)(a[i] - b[i]);
	j.busy = 100 * (j.total - (double)(a[3] - b[3]) - (double)(a[4] - b[4])) / j.total;
	j.usr = 100 * (double)(a[0] - b[0] + a[1] - b[1]) / j.total;
	j.sys = 100 * (double)(a[2] - b[2]) / j.total;
	j.softirq = 100 * (double)(a[6] - b[6]) / j.total;
	return j;
}

/* The CPU number of the largest busy share in a capture (ties: the lower number). */
static int busiest(const char *before, const char *after, int ncpu)
{
	int best = 0;

	for (int c = 1; c < ncpu; c++)
		if (delta(before, after, c).busy > delta(before, after, best).busy + 1e-9)
			best = c;
	return best;
}

static struct lr_cycles_acc *acc(void)
{
	struct lr_cycles_acc *a = malloc(sizeof(*a));

	assert_non_null(a);
	lr_cycles_init(a);
	return a;
}

/* This host's CPU 1 ran the loop and one of the test's threads: saturated, it bound the rate,
 * and the split is the capture's. The peer (a real host since boot) was half idle. */
static void test_saturated_cpu_named_with_its_split(void **state)
{
	struct lr_cycles_acc *a = acc();
	struct lr_snapshot s, p;
	struct lr_stream_snap st = {.id = 5, .sender = true, .cpu = 1, .node = -1};
	struct lr_cycles c;
	struct jiffies j = delta("cycles/busy-cpu1/before", "cycles/busy-cpu1/after", 1);
	const struct lr_cycles_cpu *hot = NULL;

	(void)state;
	window("cycles/busy-cpu1/before", "cycles/busy-cpu1/after", SEC, &s);
	s.streams = &st;
	s.n_streams = 1;
	lr_cycles_add(a, LR_CYCLES_LOCAL, &s, "vm");
	window(NULL, "sysstat-root1", SEC, &p);
	lr_cycles_add(a, LR_CYCLES_PEER, &p, "peer");
	lr_cycles_add(a, LR_CYCLES_PEER, &p, "peer");	/* the same frame again: once */
	lr_cycles_build(a, true, false, false, &c);
	assert_true(j.busy >= LR_CYCLES_SATURATED_PCT);	/* the capture is what it says */
	assert_true(c.end[LR_CYCLES_LOCAL].known);
	assert_true(c.end[LR_CYCLES_LOCAL].saturated);
	assert_int_equal(c.bound, LR_CYCLES_LOCAL);
	for (unsigned i = 0; i < c.end[LR_CYCLES_LOCAL].n_top; i++)
		if (c.end[LR_CYCLES_LOCAL].top[i].cpu == 1)
			hot = &c.end[LR_CYCLES_LOCAL].top[i];
	assert_non_null(hot);
	assert_true(hot->busy > j.busy - 0.5 && hot->busy < j.busy + 0.5);
	assert_true(hot->sys > j.sys - 0.5 && hot->sys < j.sys + 0.5);
	assert_true(hot->usr > j.usr - 0.5 && hot->usr < j.usr + 0.5);
	assert_int_equal(hot->threads, 100);
	assert_int_equal(c.end[LR_CYCLES_LOCAL].top[0].cpu,
			 busiest("cycles/busy-cpu1/before", "cycles/busy-cpu1/after", 2));
	assert_int_equal(c.end[LR_CYCLES_LOCAL].top[0].cpu, 1);	/* where the loop ran */
	assert_non_null(strstr(c.conclusion, "the sender's cpu1"));
	assert_non_null(strstr(c.conclusion, " on vm bound the rate"));
	/* the peer: half idle since boot, its busiest CPU the capture's; twice fed, once summed */
	assert_false(c.end[LR_CYCLES_PEER].saturated);
	assert_int_equal(c.end[LR_CYCLES_PEER].top[0].cpu, busiest(NULL, "sysstat-root1", 16));
	assert_true(c.end[LR_CYCLES_PEER].seconds > 0.99 && c.end[LR_CYCLES_PEER].seconds < 1.01);
	assert_true(c.end[LR_CYCLES_PEER].top[0].steal < 0);	/* the wire carries none */
	assert_int_equal(c.end[LR_CYCLES_PEER].top[0].threads, -1);
	/* ... and -J and the text say so: null and "unknown", never 0; this end's steal is known */
	{
		json_t *jc = lr_cycles_json(&c), *ends = json_object_get(jc, "ends");
		json_t *mine = json_array_get(json_object_get(json_array_get(ends, 0), "cpus"), 0);
		json_t *peer = json_array_get(json_object_get(json_array_get(ends, 1), "cpus"), 0);
		char *text = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&text, &len);

		assert_true(json_is_number(json_object_get(mine, "steal_pct")));
		assert_non_null(peer);
		assert_true(json_is_null(json_object_get(peer, "steal_pct")));
		assert_true(json_is_null(json_object_get(peer, "test_threads_pct")));
		json_decref(jc);
		assert_non_null(f);
		lr_cycles_print(f, &c);
		fclose(f);
		assert_non_null(strstr(text, "steal unknown\n"));
		free(text);
	}
	/* --rr: the same two ends ask and answer; neither is a bulk test's sender or receiver */
	lr_cycles_build(a, true, false, true, &c);
	assert_string_equal(c.end[LR_CYCLES_LOCAL].role, "asker");
	assert_string_equal(c.end[LR_CYCLES_PEER].role, "answerer");
	assert_non_null(strstr(c.conclusion, "the asker's cpu1"));
	s.streams = NULL;	/* the test's, not the snapshot's */
	s.n_streams = 0;
	lr_snapshot_free(&s);
	lr_snapshot_free(&p);
	free(a);
}

/* The same capture, the loop on cpu1, but the test's one thread ran on cpu0 every tick: cpu1
 * was filled by other work (a build beside the test, as on a shared 2-CPU host), so it did
 * not bind the test's rate and is named for what it was. */
static void test_saturated_by_other_work(void **state)
{
	struct lr_cycles_acc *a = acc();
	struct lr_snapshot s;
	struct lr_stream_snap st = {.id = 5, .sender = true, .cpu = 0, .node = -1};
	struct lr_cycles c;

	(void)state;
	window("cycles/busy-cpu1/before", "cycles/busy-cpu1/after", SEC, &s);
	s.streams = &st;
	s.n_streams = 1;
	lr_cycles_add(a, LR_CYCLES_LOCAL, &s, "vm");
	lr_cycles_build(a, true, false, false, &c);
	assert_true(c.end[LR_CYCLES_LOCAL].saturated);
	assert_int_equal(c.end[LR_CYCLES_LOCAL].top[0].cpu, 1);
	assert_int_equal(c.end[LR_CYCLES_LOCAL].top[0].threads, 0);
	assert_true(c.end[LR_CYCLES_LOCAL].other_work);
	assert_int_equal(c.bound, -1);
	assert_non_null(strstr(c.conclusion, "no CPU carrying the test was saturated; cpu1 on vm "
					     "(the sender) was"));
	assert_non_null(strstr(c.conclusion, "busy with other work"));
	assert_null(strstr(c.conclusion, "bound the rate"));
	s.streams = NULL;
	s.n_streams = 0;
	lr_snapshot_free(&s);
	free(a);
}

/* Both ends known, neither saturated: "no CPU was saturated", naming the busiest of the two. */
static void test_none_saturated(void **state)
{
	struct lr_cycles_acc *a = acc();
	struct lr_snapshot s, p;
	struct lr_cycles c;
	struct jiffies l1 = delta(NULL, "sysstat-root1", busiest(NULL, "sysstat-root1", 16));
	struct jiffies p1 = delta(NULL, "nodeexp-fixtures", busiest(NULL, "nodeexp-fixtures", 16));

	(void)state;
	window(NULL, "sysstat-root1", SEC, &s);
	window(NULL, "nodeexp-fixtures", SEC, &p);
	lr_cycles_add(a, LR_CYCLES_LOCAL, &s, "a");
	lr_cycles_add(a, LR_CYCLES_PEER, &p, "b");
	lr_cycles_build(a, false, true, false, &c);
	assert_true(l1.busy < LR_CYCLES_SATURATED_PCT && p1.busy < LR_CYCLES_SATURATED_PCT);
	assert_int_equal(c.bound, -1);
	assert_non_null(strstr(c.conclusion, "no CPU was saturated: the busiest, cpu"));
	assert_non_null(strstr(c.conclusion, l1.busy > p1.busy ? " on a (the receiver)"
							       : " on b (the sender)"));
	lr_snapshot_free(&s);
	lr_snapshot_free(&p);
	free(a);
}

/* A plain iperf3 peer: its CPUs unknown (null in -J), never 0; --expect cpu not judged. */
static void test_far_end_unknown(void **state)
{
	struct lr_cycles_acc *a = acc();
	struct lr_snapshot s;
	struct lr_cycles c;
	struct lr_expect_facts f = {.ran = true};
	json_t *j, *ends;

	(void)state;
	window(NULL, "sysstat-root1", SEC, &s);
	lr_cycles_add(a, LR_CYCLES_LOCAL, &s, "a");
	lr_cycles_build(a, true, false, false, &c);
	assert_false(c.end[LR_CYCLES_PEER].known);
	assert_int_equal(c.bound, -1);
	assert_non_null(strstr(c.conclusion, "the receiver's CPUs are unknown (a plain iperf3 "
					     "shares none)"));
	j = lr_cycles_json(&c);
	ends = json_object_get(j, "ends");
	assert_true(json_is_null(json_object_get(json_array_get(ends, 1), "cpus")));
	assert_true(json_is_null(json_object_get(j, "bound_by")));
	json_decref(j);
	lr_cycles_expect_facts(&c, &f);
	assert_true(f.cpu_local.known);
	assert_false(f.cpu_peer.known);
	lr_snapshot_free(&s);
	free(a);
}

/* Less than 100 ms of CPU times is no window: the end is unknown, not its figures. */
static void test_short_window_unknown(void **state)
{
	struct lr_cycles_acc *a = acc();
	struct lr_snapshot s;
	struct lr_cycles c;

	(void)state;
	window("cycles/busy-cpu1/before", "cycles/busy-cpu1/after", SEC, &s);
	s.interval_ns = 50 * 1000000ULL;
	lr_cycles_add(a, LR_CYCLES_LOCAL, &s, "vm");
	lr_cycles_build(a, true, false, false, &c);
	assert_false(c.end[LR_CYCLES_LOCAL].known);
	assert_string_equal(c.conclusion, "CPU times unknown on both ends");
	lr_snapshot_free(&s);
	free(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_saturated_by_other_work),
		cmocka_unit_test(test_saturated_cpu_named_with_its_split),
		cmocka_unit_test(test_none_saturated),
		cmocka_unit_test(test_far_end_unknown),
		cmocka_unit_test(test_short_window_unknown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
