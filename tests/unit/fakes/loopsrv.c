// SPDX-License-Identifier: GPL-2.0-or-later
/* The tests' in-process server on 127.0.0.1 (loopsrv.h). */
#include <stdio.h>
#include <unistd.h>

#include "linerate/core/clock.h"
#include "loopsrv.h"

static void *srv_main(void *arg)
{
	struct loopsrv *v = arg;

	if (lr_server_run(v->s) < 0)
		fprintf(stderr, "server run failed\n");
	return NULL;
}

int loopsrv_start(struct loopsrv *v, struct lr_server_opts o, unsigned salt)
{
	v->s = NULL;
	o.bind = "127.0.0.1";
	for (unsigned tries = 0; tries < 50 && !v->s; tries++) {
		o.port = (uint16_t)(30000 + ((unsigned)getpid() * salt + tries * 131) % 30000);
		if (lr_server_open(&v->s, &o) == 0)
			v->port = o.port;
	}
	if (!v->s)
		return -1;
	pthread_create(&v->t, NULL, srv_main, v);
	return 0;
}

void loopsrv_stop(struct loopsrv *v)
{
	uint64_t t0 = lr_clock_mono_ns();

	lr_server_stop(v->s);
	pthread_join(v->t, NULL);
	if (lr_clock_mono_ns() - t0 > 300 * LR_NSEC_PER_MSEC)
		fprintf(stderr, "server stop took %llu ms\n",
			(unsigned long long)((lr_clock_mono_ns() - t0) / LR_NSEC_PER_MSEC));
	lr_server_close(v->s);
}
