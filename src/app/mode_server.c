// SPDX-License-Identifier: GPL-2.0-or-later
/* `linerate -s`: the iperf3-compatible server on the main thread until a signal (or, with -1,
 * one test). Prints iperf3's banner; the engine logs each test. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "linerate/app/config.h"
#include "linerate/app/output.h"
#include "linerate/app/peer.h"
#include "linerate/core/log.h"
#include "linerate/app/run.h"
#include "linerate/app/server_app.h"
#include "linerate/traffic/traffic.h"

int lr_run_server(const struct lr_config *cfg)
{
	const struct lr_traffic_config *tc = &cfg->traffic;
	struct lr_server_opts o = {
		.bind = tc->bind,
		.port = tc->port,
		.one_off = tc->one_off,
		.pin = tc->affinity >= 0,
		.cpu = tc->affinity,
		.pin_set = tc->affinity_node >= 0,
		.cpus = tc->affinity_cpus,
		.no_gso = tc->no_gso,
		.rcv_timeout_ms = tc->rcv_timeout_ms,
		.snd_timeout_ms = tc->snd_timeout_ms,
		/* no should_stop: the server runs on its own thread and the main thread, which
		 * sees the signals, stops it (server_app.c, dash_server.c) */
	};
	struct lr_server *s;
	struct lr_server_app *app;
	struct lr_peer_server *peer = NULL;
	struct lr_output out;
	int rc;

	/* the peer view (docs/peer-stats.md): offered to linerate clients unless --no-peer-stats */
	if (!tc->no_peer_stats && lr_peer_server_open(&peer) == 0)
		o.peer = lr_peer_server_hooks(peer);

	/* on a terminal the dashboard, else each test's lines and the CSVs (server_app.c) */
	bool dash = lr_server_app_dashboard(cfg);
	char why[200];

	if (lr_server_app_unused(cfg, dash, why, sizeof(why))) {
		fprintf(stderr, "linerate: %s (see linerate --help)\n", why);
		lr_peer_server_close(peer);
		return 2;
	}
	if (lr_server_app_open(&app, cfg, !dash)) {
		lr_peer_server_close(peer);
		return 1;
	}
	o.watch = lr_server_app_hooks(app);
	lr_log_set_echo(LR_LOG_INFO);
	unsigned logged = lr_log_errors_echoed();

	rc = lr_server_open(&s, &o);
	if (rc < 0) {
		lr_server_app_close(app);
		if (lr_log_errors_echoed() == logged)	/* else the cause is on stderr already */
			fprintf(stderr, "linerate: cannot listen on port %u: %s\n",
				tc->port ? tc->port : 5201u, strerror(-rc));
		lr_peer_server_close(peer);
		return 1;
	}
	if (dash) {
		rc = lr_run_dashboard_server(cfg, app, s);
		lr_server_app_stop(app);
		lr_server_close(s);
		lr_server_app_close(app);
		lr_peer_server_close(peer);
		return rc;
	}
	if (lr_output_open(&out, cfg)) {
		lr_server_close(s);
		lr_server_app_close(app);
		lr_peer_server_close(peer);
		return 1;
	}
	/* --logfile takes everything, as iperf3's: the engine's lines (stderr) go there too */
	if (out.file && dup2(fileno(out.file), STDERR_FILENO) < 0)
		fprintf(stderr, "linerate: --logfile: %s\n", strerror(errno));
	fprintf(out.text, "-----------------------------------------------------------\n"
		"Server listening on %u (linerate, iperf3 protocol)\n"
		"-----------------------------------------------------------\n",
		lr_server_port(s));
	fflush(out.text);
	rc = lr_server_app_run(app, s, out.text);
	lr_server_close(s);
	if (lr_server_app_close(app) && rc >= 0)
		rc = -EIO;
	lr_peer_server_close(peer);
	if (rc < 0 && rc != -EIO)
		fprintf(stderr, "linerate: server failed: %s\n", strerror(-rc));
	if (lr_output_close(&out, cfg))
		rc = -EIO;
	return rc < 0 ? 1 : 0;
}
