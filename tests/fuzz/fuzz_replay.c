// SPDX-License-Identifier: GPL-2.0-or-later
/* libFuzzer target: the replay (run/replay*.c) on any bytes. They either read into a recording
 * or fail with -EINVAL and one "fuzz.csv:LINE: why" line; a recording is then played: the
 * snapshot at the start, after seeks both ways and speed changes, and at the end, each read
 * with the peer's, so the tick ordering and the state rebuilt on a seek back meet every shape
 * the reader lets through. A form feed in the input splits it into two files (a matrix CSV
 * and the streams CSV that times its rows): the Matrix pane's view is checked at every stop. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linerate/run/replay.h"
#include "linerate/diagnose/matrix_row.h"
#include "linerate/sample/snapshot.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Reads data[0..size) as one more file of the recording; 0 or the read's error (checked). */
static int add(struct lr_replay *rp, const uint8_t *data, size_t size, const char *name)
{
	char err[512];
	FILE *in = size ? fmemopen((void *)data, size, "r") : NULL;
	int rc;

	if (!in)
		return -EINVAL;
	err[0] = '\0';
	rc = lr_replay_add(rp, in, name, err, sizeof(err));
	fclose(in);
	if (rc && rc != -EINVAL && rc != -ENOMEM)
		abort();
	if (rc == -EINVAL && (strncmp(err, name, strlen(name)) || err[strlen(name)] != ':' ||
			      strchr(err, '\n')))
		abort();
	return rc;
}

/* The Matrix pane's view at pos: rows only ever those read, the running case the next one. */
static void matrix_view(const struct lr_replay *rp, double pos)
{
	struct lr_matrix_progress v;
	char name[64];

	lr_replay_matrix_view(rp, pos, &v, name, sizeof(name));
	if (v.n_rows > lr_replay_matrix_rows(rp) || v.n_rows > v.n_cases ||
	    (v.running && v.running != v.n_rows + 1) || strlen(name) >= sizeof(name))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const double seeks[] = {0, 10, 10, -10, 1e9, -1e9, 0.3};
	const uint64_t t0 = 1000000000000ULL;
	/* a form feed splits the input into two files of one recording (a matrix CSV and the
	 * streams CSV that times its rows, say) */
	const uint8_t *ff = size ? memchr(data, '\f', size) : NULL;
	size_t n1 = ff ? (size_t)(ff - data) : size;
	struct lr_replay *rp;
	struct lr_snapshot s;
	char err[512];
	uint64_t seen = 0, now = t0;
	int rc;

	if (!size || lr_replay_new(&rp))
		return 0;
	rc = add(rp, data, n1, "fuzz.csv");
	if (!rc && ff)
		rc = add(rp, ff + 1, size - n1 - 1, "fuzz2.csv");
	if (!rc && lr_replay_start(rp, t0, err, sizeof(err)) == 0) {
		lr_snapshot_init(&s);
		for (size_t i = 0; i < sizeof(seeks) / sizeof(seeks[0]); i++) {
			lr_replay_seek(rp, seeks[i], now);
			lr_replay_speed_step(rp, i & 1 ? 1 : -1, now);
			now += 250000000;
			if (lr_replay_read(rp, now, &s, &seen) < 0)
				break;
			if (s.real_ns / 1e9 > lr_replay_last_time(rp) + 1e-3)
				abort();	/* never past the end of the recording */
			(void)lr_replay_peer(rp, NULL);
			(void)lr_replay_stream_target(rp);
			matrix_view(rp, lr_replay_pos(rp, now));
			if (i == 3)
				lr_replay_reset_totals(rp);
		}
		matrix_view(rp, -1e300);
		matrix_view(rp, 1e300);
		matrix_view(rp, NAN);
		lr_snapshot_free(&s);
	}
	lr_replay_close(rp);
	return 0;
}
