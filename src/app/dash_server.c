// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `linerate -s` on a terminal: the dashboard with the server running on its own thread
 * (mode_server.c). Each incoming test, from a linerate or a plain iperf3 client, is in the
 * Streams pane: its streams come to the sampler through the server's watch, its parameters
 * and state from the watch's view; the detail view turns to the interface the first test
 * arrives on. q stops the server (a client mid-test gets SERVER_TERMINATE). Main thread.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linerate/app/server_app.h"
#include "linerate/run/server_watch.h"
#include "linerate/run/snapsrc.h"
#include "linerate/collect/route.h"
#include "linerate/core/clock.h"
#include "linerate/core/strutil.h"
#include "linerate/present/iperf3_out.h"

#include "dashboard_priv.h"

struct lr_dash_srv {
	struct lr_server_app *app;
	struct lr_server_test_view *v;
	struct lr_view_traffic view;
	char iface[LR_IFNAMSIZ];
	bool turned; /* the view went to the first test's interface */
	bool have_res; /* v->res is a finished test's */
	uint16_t port;
};

int lr_dash_srv_setup(struct dash *d, struct lr_server_app *app, struct lr_server *srv,
		      uint16_t port)
{
	struct lr_dash_srv *s = calloc(1, sizeof(*s));

	if (!s || !(s->v = lr_server_watch_view_new())) {
		free(s);
		snprintf(d->fatal, sizeof(d->fatal), "out of memory");
		return -1;
	}
	s->app = app;
	s->port = port;
	s->view.state = LR_VTS_IDLE;
	s->view.port = port;
	s->view.elapsed_s = -1;
	s->view.knobs.parallel = 1;
	s->view.server = true;
	d->srv = s;
	d->ctx.streams_pane = lr_view_streams;
	d->ctx.streams_arg = &s->view;
	lr_server_watch_set_snapsrc(lr_server_app_watch(app), d->src);
	if (lr_server_app_start(app, srv) < 0) {
		snprintf(d->fatal, sizeof(d->fatal), "cannot start the server thread");
		return -1;
	}
	lr_dash_msg(d, false, "listening on port %u (q stops)", port);
	return 0;
}

/* The test as the Streams pane names it: directions are this side's (the server's). */
static void view_from(struct dash *d, struct lr_dash_srv *s)
{
	const struct lr_server_test_info *in = &s->v->info;
	uint64_t end = 0;

	s->view.host = in->remote_host;
	s->view.iface = s->iface;
	s->view.knobs = (struct lr_ui_traffic){
		.udp = in->udp,
		.reverse = !in->reverse && !in->bidir, /* the client sends: we receive */
		.bidir = in->bidir,
		.parallel = in->parallel ? in->parallel : 1,
		.rate_bps = in->bitrate_bps,
		.length = in->len,
	};
	s->view.duration_s = (double)in->time_s;
	for (unsigned i = 0; i < in->n_streams; i++)
		if (s->v->c[i].end_ns > end)
			end = s->v->c[i].end_ns;
	s->view.elapsed_s =
		(double)((s->v->ended && end ? end : s->v->now_ns) - in->start_ns) / 1e9;
	s->view.state = !s->v->ended	    ? LR_VTS_RUNNING
			: s->v->res.stopped ? LR_VTS_STOPPED
					    : LR_VTS_DONE;
	(void)d;
}

bool lr_dash_srv_poll(struct dash *d)
{
	struct lr_dash_srv *s = d->srv;
	unsigned seq;
	bool changed;

	if (!s)
		return false;
	if (lr_server_app_done(s->app)) /* -1 after its test, or a listener error */
		d->app.quit = true;
	seq = s->v->seq;
	changed = lr_server_watch_read(lr_server_app_watch(s->app), s->v);
	if (!s->v->seq)
		return false;
	if (s->v->seq != seq) {
		if (lr_route_iface(s->v->info.remote_host, s->iface, sizeof(s->iface)))
			s->iface[0] = '\0';
		if (!s->turned && s->iface[0] &&
		    !(d->cfg->ifaces && !strchr(d->cfg->ifaces, ','))) {
			lr_strlcpy(d->app.sel_name, s->iface, sizeof(d->app.sel_name));
			d->app.view = LR_VIEW_DETAIL; /* the Streams pane is in the detail view */
		}
		s->turned = true;
		lr_dash_msg(d, false, "test from %s: %s x%u", s->v->info.remote_host,
			    s->v->info.udp ? "UDP" : "TCP", s->v->info.parallel);
	}
	s->have_res = s->v->ended;
	view_from(d, s);
	return changed || !s->v->ended;
}

void lr_dash_srv_stop(struct dash *d)
{
	int rc;

	if (!d->srv)
		return;
	rc = lr_server_app_stop(d->srv->app);
	if (rc < 0 && d->rc == 0) {
		snprintf(d->fatal, sizeof(d->fatal), "server failed: %s", strerror(-rc));
		d->rc = 1;
	}
}

void lr_dash_srv_print(struct dash *d)
{
	struct lr_dash_srv *s = d->srv;

	if (!s || !s->have_res)
		return;
	printf("Last test: from %s, port %u\n", s->v->info.remote_host, s->v->info.remote_port);
	lr_iperf3_print_server_summary(stdout, &s->v->res, d->cfg->format);
	fflush(stdout);
}

void lr_dash_srv_close(struct dash *d)
{
	if (!d->srv)
		return;
	/* the server has stopped: nothing begins a test now; the source goes before the watch */
	lr_server_watch_set_snapsrc(lr_server_app_watch(d->srv->app), NULL);
	if (d->src)
		lr_snapsrc_set_traffic(d->src, NULL);
	free(d->srv->v);
	free(d->srv);
	d->srv = NULL;
}
