// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The snapshot board: one snapshot behind a mutex. The sampler publishes by copy, the main
 * thread reads by copy, so no snapshot memory is ever shared between threads. A condition
 * variable lets the reader sleep until the next tick instead of polling.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#include "linerate/sample/board.h"
#include "linerate/sample/snapshot.h"

struct lr_board {
	pthread_mutex_t lock;
	pthread_cond_t fresh;	/* signalled on publish; uses CLOCK_MONOTONIC */
	struct lr_snapshot snap;
	uint64_t seq;		/* of snap; 0 = nothing published yet */
};

int lr_board_open(struct lr_board **out)
{
	struct lr_board *b = calloc(1, sizeof(*b));
	pthread_condattr_t attr;

	if (!b)
		return -ENOMEM;
	pthread_mutex_init(&b->lock, NULL);
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&b->fresh, &attr);
	pthread_condattr_destroy(&attr);
	lr_snapshot_init(&b->snap);
	*out = b;
	return 0;
}

void lr_board_close(struct lr_board *b)
{
	if (!b)
		return;
	lr_snapshot_free(&b->snap);
	pthread_cond_destroy(&b->fresh);
	pthread_mutex_destroy(&b->lock);
	free(b);
}

int lr_board_publish(struct lr_board *b, const struct lr_snapshot *snap)
{
	int err;

	pthread_mutex_lock(&b->lock);
	err = lr_snapshot_copy(&b->snap, snap);
	if (!err) {
		b->seq++;
		b->snap.seq = b->seq;
		pthread_cond_broadcast(&b->fresh);
	}
	pthread_mutex_unlock(&b->lock);
	return err;
}

int lr_board_read(struct lr_board *b, struct lr_snapshot *out, uint64_t *seen)
{
	int ret = 0;

	pthread_mutex_lock(&b->lock);
	if (b->seq != *seen && b->seq) {
		ret = lr_snapshot_copy(out, &b->snap);
		if (!ret) {
			*seen = b->seq;
			ret = 1;
		}
	}
	pthread_mutex_unlock(&b->lock);
	return ret;
}

bool lr_board_wait(struct lr_board *b, uint64_t seen, uint64_t timeout_ns)
{
	struct timespec ts;
	bool fresh;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	ts.tv_sec += (time_t)(timeout_ns / 1000000000ULL);
	ts.tv_nsec += (long)(timeout_ns % 1000000000ULL);
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&b->lock);
	while (b->seq == seen)
		if (pthread_cond_timedwait(&b->fresh, &b->lock, &ts) == ETIMEDOUT)
			break;
	fresh = b->seq != seen;
	pthread_mutex_unlock(&b->lock);
	return fresh;
}
