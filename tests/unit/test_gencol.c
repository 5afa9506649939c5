// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The traffic source as the sampler reads it: each stream's target (-b) travels from the live
 * stream stats the engine writes to that stream's snapshot row and on to its --streams-csv row
 * (an empty field when unknown, "0" unlimited), and a rate changed while the test runs shows
 * from the next row on, stream by stream. The threaded case is for TSan (scripts/stage-tsan.sh):
 * the main thread changes the target while the sampler's thread reads it.
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "linerate/core/streamstats.h"
#include "linerate/sample/csv.h"
#include "linerate/sample/gencol.h"
#include "linerate/sample/snapshot.h"

#define SEC 1000000000ULL
#define N 3

struct fake {
	struct lr_stream_stats st[N];
};

static unsigned fake_count(void *arg)
{
	(void)arg;
	return N;
}

static int fake_info(void *arg, unsigned i, struct lr_gen_stream *out)
{
	struct fake *f = arg;

	if (i >= N)
		return -ENOENT;
	out->id = i == 0 ? 1 : (int)i + 2;	/* iperf3's ids: 1, 3, 4 */
	out->sender = i != 1;
	out->udp = false;
	out->stats = &f->st[i];
	return 0;
}

/* Stream 1 at 20 Mbit/s, stream 3 with no target known (zeroed stats), stream 4 unlimited. */
static void fake_init(struct fake *f, struct lr_gencol *g)
{
	struct lr_gen_source src = {.count = fake_count, .info = fake_info, .arg = f};

	memset(f, 0, sizeof(*f));
	for (int i = 0; i < N; i++)
		atomic_store(&f->st[i].start_ns, 100 * SEC);
	lr_stream_stats_set_target(&f->st[0], 20000000);
	lr_stream_stats_set_target(&f->st[2], 0);
	atomic_store(&f->st[0].length, 131072);	/* stream 3's facts unknown: zeroed */
	atomic_store(&f->st[2].length, 1000);
	lr_stream_stats_set_congestion(&f->st[0], "cubic");
	lr_stream_stats_set_congestion(&f->st[2], "bbr");
	lr_gencol_set_source(g, &src);
}

static void read_at(struct lr_gencol *g, struct lr_snapshot *s, uint64_t seq)
{
	s->seq = seq;
	s->mono_ns = 100 * SEC + seq * SEC / 2;
	s->real_ns = 1700000000ULL * SEC + seq * SEC / 2;
	s->elapsed_ns = seq * SEC / 2;
	assert_int_equal(lr_gencol_read(g, SEC / 2, s), 0);
	assert_int_equal(s->n_streams, N);
}

static void test_target_reaches_the_snapshot(void **state)
{
	struct lr_gencol *g;
	struct lr_snapshot s;
	struct fake f;

	(void)state;
	assert_int_equal(lr_gencol_open(&g), 0);
	fake_init(&f, g);
	memset(&s, 0, sizeof(s));
	read_at(g, &s, 1);
	assert_int_equal(s.streams[0].target_bps, 20000000);
	assert_int_equal(s.streams[1].target_bps, -1);
	assert_int_equal(s.streams[2].target_bps, 0);
	assert_int_equal(s.streams[0].length, 131072);
	assert_int_equal(s.streams[1].length, 0);
	assert_string_equal(s.streams[0].congestion, "cubic");
	assert_string_equal(s.streams[1].congestion, "");
	/* the name's codec: TCP_CA_NAME_MAX (16) bytes whole, a longer one cut there */
	lr_stream_stats_set_congestion(&f.st[1], "sixteen_bytes_cc");
	lr_stream_stats_set_congestion(&f.st[2], "seventeen_bytes_c");
	/* the dashboard's rate key on a running test: the next reading has it */
	lr_stream_stats_set_target(&f.st[0], 40000000);
	read_at(g, &s, 2);
	assert_int_equal(s.streams[0].target_bps, 40000000);
	assert_string_equal(s.streams[1].congestion, "sixteen_bytes_cc");
	assert_string_equal(s.streams[2].congestion, "seventeen_bytes_");
	assert_int_equal(s.streams[2].target_bps, 0);
	/* a rate past what int64 holds stays a known (huge) rate, never "unknown" */
	lr_stream_stats_set_target(&f.st[2], UINT64_MAX);
	read_at(g, &s, 3);
	assert_int_equal(s.streams[2].target_bps, INT64_MAX - 1);
	lr_gencol_close(g);
}

/* What the engine counted reaches the stream's row as counted (issue 29: bits and retransmits
 * once went missing unseen): stream 1's counters move 25 MB and 7 retransmits over the 0.5 s
 * between two readings, so its row says 25 MB, 400 Mbit/s (the bytes times 8 over the
 * interval) and 7; the totals are the counters' own values. */
static void test_counts_reach_the_snapshot(void **state)
{
	struct lr_gencol *g;
	struct lr_snapshot s;
	struct fake f;

	(void)state;
	assert_int_equal(lr_gencol_open(&g), 0);
	fake_init(&f, g);
	memset(&s, 0, sizeof(s));
	atomic_store(&f.st[0].bytes, 1000000);
	atomic_store(&f.st[0].retransmits, 3);
	read_at(g, &s, 1);
	atomic_store(&f.st[0].bytes, 26000000);
	atomic_store(&f.st[0].retransmits, 10);
	read_at(g, &s, 2);
	assert_true(s.streams[0].valid);
	assert_int_equal(s.streams[0].bytes, 25000000);
	assert_true(s.streams[0].bps == 400e6);
	assert_int_equal(s.streams[0].retransmits, 7);
	assert_int_equal(s.streams[0].total_bytes, 26000000);
	assert_int_equal(s.streams[0].total_retransmits, 10);
	lr_gencol_close(g);
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = calloc(1, 8192);
	size_t n;

	assert_non_null(f);
	assert_non_null(buf);
	n = fread(buf, 1, 8191, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* The field of column `name` (found in the header, as a script reads it) of each data row,
 * joined by '|'. The rows hold no quoted field. */
static void column_of(const char *text, const char *name, char *out, size_t len)
{
	const char *row = strchr(text, '\n'), *p = text;
	size_t want = 0, nlen = strlen(name);

	while (!(!strncmp(p, name, nlen) && (p[nlen] == ',' || p[nlen] == '\n'))) {
		p = strpbrk(p, ",\n");
		assert_true(p && *p == ',');	/* the header has the column */
		p++;
		want++;
	}
	out[0] = '\0';
	while (row && row[1]) {
		const char *f = row + 1, *end = strchr(f, '\n');

		assert_non_null(end);
		for (size_t k = 0; k < want; k++)
			f = strchr(f, ',') + 1;
		snprintf(out + strlen(out), len - strlen(out), "%s%.*s", out[0] ? "|" : "",
			 (int)strcspn(f, ",\n"), f);
		row = end;
	}
}

static void test_target_reaches_the_csv_row(void **state)
{
	char path[] = "/tmp/lr-gencol-XXXXXX";
	int fd = mkstemp(path);
	struct lr_gencol *g;
	struct lr_csv *c;
	struct lr_snapshot s;
	struct fake f;
	char got[256], *text;

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(lr_gencol_open(&g), 0);
	assert_int_equal(lr_csv_open(&c, path, LR_CSV_STREAMS), 0);
	fake_init(&f, g);
	memset(&s, 0, sizeof(s));
	read_at(g, &s, 1);
	assert_int_equal(lr_csv_write(c, &s), 0);
	lr_stream_stats_set_target(&f.st[0], 5000000);	/* only stream 1 changes */
	read_at(g, &s, 2);
	assert_int_equal(lr_csv_write(c, &s), 0);
	assert_int_equal(lr_csv_close(c), 0);
	lr_gencol_close(g);
	text = slurp(path);
	unlink(path);
	column_of(text, "target_bps", got, sizeof(got));
	assert_string_equal(got, "20000000||0|5000000||0");
	/* the constant facts: -l as set (unknown empty), TCP_CONGESTION's name */
	column_of(text, "length", got, sizeof(got));
	assert_string_equal(got, "131072||1000|131072||1000");
	column_of(text, "congestion", got, sizeof(got));
	assert_string_equal(got, "cubic||bbr|cubic||bbr");
	/* and the rows are the streams in that order: 1 send, 3 recv, 4 send */
	assert_non_null(strstr(text, ",1,send,tcp,"));
	assert_non_null(strstr(text, ",3,recv,tcp,"));
	assert_non_null(strstr(text, ",4,send,tcp,"));
	free(text);
}

struct reader {
	struct lr_gencol *g;
	atomic_bool stop;
	int64_t last;
	unsigned reads, torn;	/* torn: a value that no one set */
};

static void note(struct reader *r, const struct lr_snapshot *s)
{
	int64_t v = s->streams[0].target_bps;

	r->torn += v < 1000000 || v > 2000000000 || v % 1000000;
	r->last = v;
}

static void *reader_main(void *arg)
{
	struct reader *r = arg;
	struct lr_snapshot s;

	memset(&s, 0, sizeof(s));
	while (!atomic_load(&r->stop) || !r->reads) {
		if (lr_gencol_read(r->g, SEC / 2, &s) == 0 && s.n_streams == N)
			note(r, &s);
		r->reads++;
	}
	if (lr_gencol_read(r->g, SEC / 2, &s) == 0 && s.n_streams == N)
		note(r, &s);	/* after the last change */
	return NULL;
}

/* Rate keys pressed while the sampler reads: every value it sees is one that was set (a rate
 * of 1..2000 Mbit/s), and the last reading has the last one. */
static void test_target_changes_while_read(void **state)
{
	struct reader r = {.last = -2};
	pthread_t th;
	struct fake f;

	(void)state;
	assert_int_equal(lr_gencol_open(&r.g), 0);
	fake_init(&f, r.g);
	atomic_init(&r.stop, false);
	assert_int_equal(pthread_create(&th, NULL, reader_main, &r), 0);
	for (uint64_t i = 1; i <= 2000; i++)
		lr_stream_stats_set_target(&f.st[0], i * 1000000);
	atomic_store(&r.stop, true);
	assert_int_equal(pthread_join(th, NULL), 0);
	assert_true(r.reads > 0);
	assert_int_equal(r.torn, 0);
	assert_int_equal(r.last, 2000000000);
	lr_gencol_close(r.g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_target_reaches_the_snapshot),
		cmocka_unit_test(test_counts_reach_the_snapshot),
		cmocka_unit_test(test_target_reaches_the_csv_row),
		cmocka_unit_test(test_target_changes_while_read),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
