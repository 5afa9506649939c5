// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A headless sampling run on the main thread: the source and the recorder. Used by
 * `--headless` and by headless traffic runs. Every output error is reported once, naming the
 * file.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linerate/core/log.h"
#include "linerate/run/peer.h"
#include "linerate/run/metrics_http.h"
#include "linerate/run/recorder.h"
#include "linerate/run/sampling.h"
#include "linerate/sample/snapshot.h"
#include "linerate/run/snapsrc.h"

struct lr_sampling {
	struct lr_snapsrc *src;
	struct lr_recorder *rec;
	struct lr_metrics_http *metrics;	/* --listen, NULL without */
	struct lr_snapshot snap;
	uint64_t seen;
	bool have_snap;
	struct lr_peer_rx *peer;	/* borrowed: the peer view's rows go with ours */
};

int lr_sampling_open(struct lr_sampling **out, const struct lr_sampling_opts *o)
{
	struct lr_sampling *h = calloc(1, sizeof(*h));
	char msg[320];
	unsigned logged;
	int err;

	if (!h) {
		if (o->exporter.ops)
			o->exporter.ops->close(o->exporter.ctx);
		return -ENOMEM;
	}
	lr_snapshot_init(&h->snap);
	if (o->listen) {	/* first: a port in use ends the run before any output */
		err = lr_metrics_http_open(&h->metrics, o->listen, &o->exporter, msg, sizeof(msg));
		if (err) {
			fprintf(stderr, "linerate: %s\n", msg);
			free(h);
			return err;
		}
	}
	/* the source next: a bad -I is named before any CSV file is created */
	logged = lr_log_errors_echoed();
	err = lr_snapsrc_open(&h->src, &o->sampler);
	if (err && lr_log_errors_echoed() == logged)	/* else the cause is on stderr */
		fprintf(stderr, "linerate: cannot start sampling: %s\n", strerror(-err));
	if (!err) {
		err = lr_recorder_open(&h->rec, &o->files, o->stdout_default, msg, sizeof(msg));
		if (err)
			fprintf(stderr, "linerate: %s\n", msg);
	}
	if (err) {
		lr_sampling_close(h);
		return err;
	}
	*out = h;
	return 0;
}

int lr_sampling_start(struct lr_sampling *h)
{
	int err = lr_snapsrc_start(h->src);

	if (err)
		fprintf(stderr, "linerate: cannot start the sampler thread: %s\n", strerror(-err));
	return err;
}

/* A write error: its line on stderr; -EPIPE (stdout's reader gone) has none and stays. */
static int reported(int e, const char *msg)
{
	if (msg[0])
		fprintf(stderr, "linerate: %s\n", msg);
	return e == -EPIPE ? e : -EIO;
}

/* The peer's newest frame, on this local tick's clock (docs/wire.md (part 2) §5). */
static int write_peer(struct lr_sampling *h)
{
	char msg[320] = "";
	const char *host = NULL;
	const struct lr_snapshot *ps;
	int e;

	e = lr_peer_rx_record(h->peer, h->rec, &h->snap, msg, sizeof(msg));
	if (e)
		return reported(e, msg);
	ps = h->metrics && h->peer ? lr_peer_rx_snapshot(h->peer, &host) : NULL;
	if (ps && lr_metrics_http_publish_peer(h->metrics, ps, host))	/* side="peer" */
		lr_log(LR_LOG_WARN, "--listen: out of memory: the peer's metrics lag");
	return 0;
}

static int read_and_write(struct lr_sampling *h)
{
	char msg[320];
	int got = lr_snapsrc_read(h->src, &h->snap, &h->seen), e;

	if (got <= 0)
		return got;
	h->have_snap = true;
	if (h->metrics && lr_metrics_http_publish(h->metrics, &h->snap))
		lr_log(LR_LOG_WARN, "--listen: out of memory: the metrics lag");
	e = lr_recorder_write(h->rec, &h->snap, msg, sizeof(msg));
	if (e)
		return reported(e, msg);
	e = write_peer(h);
	return e < 0 ? e : 1;
}

void lr_sampling_set_peer(struct lr_sampling *h, struct lr_peer_rx *peer)
{
	h->peer = peer;
}

int lr_sampling_pump(struct lr_sampling *h, uint64_t timeout_ns)
{
	if (!lr_snapsrc_wait(h->src, h->seen, timeout_ns))
		return 0;
	return read_and_write(h);
}

int lr_sampling_finish(struct lr_sampling *h, bool final_tick)
{
	int err = lr_snapsrc_stop(h->src, final_tick);	/* nothing publishes behind our back */

	if (err)
		return err;
	/* the server sent its last frame before the results: it is here or on its way */
	if (h->peer)
		lr_peer_rx_wait_end(h->peer, 2 * LR_NSEC_PER_SEC);
	err = read_and_write(h);
	return err < 0 ? err : 0;
}

const struct lr_snapshot *lr_sampling_last(const struct lr_sampling *h)
{
	return h->have_snap ? &h->snap : NULL;
}

struct lr_snapsrc *lr_sampling_snapsrc(struct lr_sampling *h)
{
	return h->src;
}

struct lr_recorder *lr_sampling_recorder(struct lr_sampling *h)
{
	return h->rec;
}

int lr_sampling_close(struct lr_sampling *h)
{
	char msg[320];
	int ret;

	if (!h)
		return 0;
	lr_snapsrc_close(h->src);
	lr_metrics_http_close(h->metrics);
	ret = lr_recorder_close(h->rec, msg, sizeof(msg));
	if (msg[0])
		fprintf(stderr, "linerate: %s\n", msg);
	lr_snapshot_free(&h->snap);
	free(h);
	return ret;
}
