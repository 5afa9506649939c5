// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --demo: an iperf3-compatible server on 127.0.0.1 inside this process, on a thread of its
 * own (signals blocked there, as every worker), and the client options that drive it. The
 * dashboard treats the result like any `-c HOST`: same keys, same panes, lo selected.
 * Opened and closed on the main thread; owns the server and its thread.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "linerate/run/demo.h"
#include "linerate/run/server_watch.h"
#include "linerate/core/log.h"
#include "linerate/traffic/traffic.h"

struct lr_demo {
	struct lr_server *srv;
	struct lr_server_watch *watch;	/* its tests' live counters: the receiver's loss */
	pthread_t thread;
	atomic_bool stop;
	uint16_t port;
	int run_err;
};

static bool demo_should_stop(void *arg)
{
	struct lr_demo *d = arg;

	return atomic_load(&d->stop);
}

static void *demo_thread(void *arg)
{
	struct lr_demo *d = arg;

	d->run_err = lr_server_run(d->srv);
	if (d->run_err)
		lr_log(LR_LOG_ERR, "demo server stopped: %s", strerror(-d->run_err));
	return NULL;
}

int lr_demo_open(struct lr_demo **out)
{
	struct lr_demo *d = calloc(1, sizeof(*d));
	struct lr_server_opts o;
	sigset_t block, old;
	int err = -EADDRINUSE;

	if (!d)
		return -ENOMEM;
	atomic_init(&d->stop, false);
	err = lr_server_watch_open(&d->watch);
	if (err)
		goto err_free;
	err = -EADDRINUSE;
	memset(&o, 0, sizeof(o));
	o.watch = lr_server_watch_hooks(d->watch);
	o.bind = LR_DEMO_HOST;
	o.should_stop = demo_should_stop;
	o.arg = d;
	for (unsigned p = LR_DEMO_PORT_FIRST; p <= LR_DEMO_PORT_LAST; p++) {
		o.port = (uint16_t)p;
		err = lr_server_open(&d->srv, &o);
		if (!err) {
			d->port = (uint16_t)p;
			break;
		}
		if (err != -EADDRINUSE)
			goto err_free;
	}
	if (err)
		goto err_free;
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	err = -pthread_create(&d->thread, NULL, demo_thread, d);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err)
		goto err_server;
	*out = d;
	return 0;
err_server:
	lr_server_close(d->srv);
err_free:
	lr_server_watch_close(d->watch);	/* NULL-safe */
	free(d);
	return err;
}

uint16_t lr_demo_port(const struct lr_demo *d)
{
	return d->port;
}

struct lr_server_watch *lr_demo_watch(const struct lr_demo *d)
{
	return d ? d->watch : NULL;
}

void lr_demo_close(struct lr_demo *d)
{
	if (!d)
		return;
	atomic_store(&d->stop, true);
	lr_server_stop(d->srv);
	pthread_join(d->thread, NULL);
	lr_server_close(d->srv);
	lr_server_watch_close(d->watch);	/* after the server */
	free(d);
}

void lr_demo_traffic(const struct lr_demo *d, const struct lr_traffic_config *user,
		     struct lr_traffic_config *out)
{
	*out = *user;
	out->host = LR_DEMO_HOST;
	out->port = d->port;
	out->bind = NULL;
	out->demo = true;
	if (out->parallel <= 1) /* -P's default is 1: the demo shows more than one stream */
		out->parallel = LR_DEMO_PARALLEL;
	if (!out->bitrate_set) {
		out->bitrate_bps = LR_DEMO_BITRATE_BPS;
		out->bitrate_set = true;
	}
}
