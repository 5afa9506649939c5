// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `linerate -s` headless: lr_server_run on a thread of its own (signals blocked there; the
 * main thread sees them and stops it), the main thread pumping the sampler into the CSVs and
 * printing iperf3's server lines. The watch lends the incoming streams to the sampler.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "linerate/app/config.h"
#include "linerate/app/run.h"
#include "linerate/run/sampling.h"
#include "linerate/app/server_app.h"
#include "linerate/app/server_text.h"
#include "linerate/run/server_watch.h"
#include "linerate/core/clock.h"
#include "linerate/traffic/traffic.h"

#define POLL_NS (50 * LR_NSEC_PER_MSEC)

struct lr_server_app {
	const struct lr_config *cfg;
	struct lr_server_watch *watch;
	struct lr_sampling *smp; /* NULL: no CSV asked for */
	struct lr_server *srv;
	pthread_t thread;
	bool started;
	int rc;
	atomic_bool done;
};

bool lr_server_app_dashboard(const struct lr_config *cfg)
{
	/* -T, --timestamps, --forceflush ask for iperf3's text: they choose it */
	return !cfg->headless && !cfg->daemon && !cfg->logfile && !cfg->json && !cfg->title &&
	       !cfg->timestamps && !cfg->forceflush && isatty(STDOUT_FILENO) &&
	       isatty(STDIN_FILENO);
}

const char *lr_server_app_unused(const struct lr_config *cfg, bool dash, char *why, size_t len)
{
	bool rec = lr_config_csv_named(cfg);
	const char *o = NULL;

	if (dash)
		return NULL;
	if (cfg->theme || cfg->ascii) {
		o = cfg->theme ? "--theme" : "--ascii";
		snprintf(why, len,
			 "%s: -s prints iperf3's lines here (--headless, or stdout is not a "
			 "terminal): only the dashboard draws",
			 o);
	} else if (!rec &&
		   (cfg->ifaces || cfg->source != LR_SOURCE_NETLINK || cfg->procfs || cfg->sysfs)) {
		o = cfg->ifaces	  ? "-I"
		    : cfg->procfs ? "--procfs"
		    : cfg->sysfs  ? "--sysfs"
				  : "--source";
		snprintf(why, len,
			 "%s: -s without the dashboard samples only for --csv, --cpu-csv or "
			 "--streams-csv",
			 o);
	}
	return o;
}

int lr_server_app_open(struct lr_server_app **out, const struct lr_config *cfg, bool record)
{
	struct lr_server_app *a = calloc(1, sizeof(*a));
	int err;

	if (!a)
		return -ENOMEM;
	a->cfg = cfg;
	atomic_init(&a->done, false);
	err = lr_server_watch_open(&a->watch);
	if (!err && record && (cfg->csv || cfg->cpu_csv || cfg->streams_csv)) {
		err = lr_config_sampling_open(&a->smp, cfg, false); /* reports its errors */
		if (!err)
			lr_server_watch_set_snapsrc(a->watch, lr_sampling_snapsrc(a->smp));
	}
	if (err) {
		lr_server_app_close(a);
		return err;
	}
	*out = a;
	return 0;
}

const struct lr_server_test_hooks *lr_server_app_hooks(struct lr_server_app *a)
{
	return lr_server_watch_hooks(a->watch);
}

static void *server_thread(void *arg)
{
	struct lr_server_app *a = arg;

	a->rc = lr_server_run(a->srv);
	atomic_store(&a->done, true);
	return NULL;
}

int lr_server_app_start(struct lr_server_app *a, struct lr_server *s)
{
	sigset_t all, old;
	int rc;

	a->srv = s;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	rc = pthread_create(&a->thread, NULL, server_thread, a);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	a->started = rc == 0;
	return -rc;
}

bool lr_server_app_done(struct lr_server_app *a)
{
	return !a->started || atomic_load(&a->done);
}

int lr_server_app_stop(struct lr_server_app *a)
{
	if (!a->started)
		return 0;
	lr_server_stop(a->srv);
	pthread_join(a->thread, NULL);
	a->started = false;
	return a->rc;
}

struct lr_server_watch *lr_server_app_watch(struct lr_server_app *a)
{
	return a->watch;
}

int lr_server_app_run(struct lr_server_app *a, struct lr_server *s, FILE *text)
{
	struct lr_server_text *tx = NULL;
	bool stopping = false;
	char banner[256];
	int err = 0, rc;

	/* iperf3 -s says it listens again after each test (not with -1: it exits) */
	snprintf(banner, sizeof(banner),
		 "-----------------------------------------------------------\n"
		 "Server listening on %u (linerate, iperf3 protocol)\n"
		 "-----------------------------------------------------------\n",
		 lr_server_port(s));
	if (text && lr_server_text_open(&tx, text, a->cfg->interval_set ? a->cfg->interval_ns : 0,
					a->cfg->format, a->cfg->traffic.one_off ? NULL : banner))
		return -ENOMEM;
	if (a->cfg->json_stream)	/* iperf3's events on text, instead of its lines */
		lr_server_text_set_json_stream(tx, &a->cfg->traffic);
	lr_server_watch_set_reader(a->watch, tx != NULL);
	if (a->smp && lr_sampling_start(a->smp)) {
		lr_server_text_close(tx);
		return -EIO;
	}
	rc = lr_server_app_start(a, s);
	if (rc) {
		lr_server_text_close(tx);
		return rc;
	}
	while (!lr_server_app_done(a)) {
		if (lr_stop_signal && !stopping) {
			lr_server_stop(s);
			stopping = true;
			lr_server_text_set_after(tx, NULL); /* it will not listen again */
		}
		uint64_t now = lr_clock_mono_ns(), due = lr_server_text_next_ns(tx);
		uint64_t wait = due <= now ? 0 : due - now < POLL_NS ? due - now : POLL_NS;

		if (a->smp && !err) {
			if (lr_sampling_pump(a->smp, wait) < 0) {
				err = -EIO; /* reported; stop serving rather than lose rows */
				lr_server_stop(s);
				stopping = true;
			}
		} else if (wait) {
			(void)lr_clock_sleep_until(now + wait);
		}
		if (tx && lr_server_text_poll(tx, a->watch) < 0)
			tx = (lr_server_text_close(tx), NULL); /* stdout gone: serve on */
	}
	rc = lr_server_app_stop(a);
	if (tx)
		(void)lr_server_text_poll(tx, a->watch); /* a test that ended with the server */
	lr_server_text_close(tx);
	if (a->smp && !err && lr_sampling_finish(a->smp, true) < 0)
		err = -EIO;
	return err ? err : rc;
}

int lr_server_app_close(struct lr_server_app *a)
{
	int rc;

	if (!a)
		return 0;
	lr_server_app_stop(a);
	lr_server_watch_close(a->watch);
	rc = lr_sampling_close(a->smp);
	free(a);
	return rc;
}
