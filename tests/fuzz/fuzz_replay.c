// SPDX-License-Identifier: GPL-2.0-or-later
/* libFuzzer target: the replay (app/replay*.c) on any bytes. They either read into a recording
 * or fail with -EINVAL and one "fuzz.csv:LINE: why" line; a recording is then played: the
 * snapshot at the start, after seeks both ways and speed changes, and at the end, each read
 * with the peer's, so the tick ordering and the state rebuilt on a seek back meet every shape
 * the reader lets through. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linerate/app/replay.h"
#include "linerate/sample/snapshot.h"

/* scripts/fuzz.sh links src/{core,collect,sample,present,traffic}/ but not src/app/, so the
 * replay's files are compiled in here (they share no static names). */
#include "../../src/app/replay_rows.c"
#include "../../src/app/replay.c"
#include "../../src/app/replay_queues.c"
#include "../../src/app/replay_matrix.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const double seeks[] = {0, 10, 10, -10, 1e9, -1e9, 0.3};
	const uint64_t t0 = 1000000000000ULL;
	struct lr_replay *rp;
	struct lr_snapshot s;
	char err[512];
	uint64_t seen = 0, now = t0;
	FILE *in;
	int rc;

	if (!size || lr_replay_new(&rp))
		return 0;
	in = fmemopen((void *)data, size, "r");
	if (!in) {
		lr_replay_close(rp);
		return 0;
	}
	err[0] = '\0';
	rc = lr_replay_add(rp, in, "fuzz.csv", err, sizeof(err));
	fclose(in);
	if (rc && rc != -EINVAL && rc != -ENOMEM)
		abort();
	if (rc == -EINVAL && (strncmp(err, "fuzz.csv:", 9) || strchr(err, '\n')))
		abort();
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
			if (i == 3)
				lr_replay_reset_totals(rp);
		}
		lr_snapshot_free(&s);
	}
	lr_replay_close(rp);
	return 0;
}
