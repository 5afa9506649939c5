/* SPDX-License-Identifier: GPL-2.0-or-later */
/* An in-process linerate server on 127.0.0.1 for the tests that run a client against it: a
 * free port found by trying, lr_server_run on a thread of its own, stopped and joined. */
#ifndef LINERATE_TEST_LOOPSRV_H
#define LINERATE_TEST_LOOPSRV_H

#include <pthread.h>
#include <stdint.h>

#include "linerate/traffic/traffic.h"

struct loopsrv {
	struct lr_server *s;
	pthread_t t;
	uint16_t port;
};

/* Opens a server with o (bind and port set here; salt spreads the ports the binaries try)
 * and runs it. 0, or -1 when no port could be had. */
int loopsrv_start(struct loopsrv *v, struct lr_server_opts o, unsigned salt);
/* Stops, joins and closes it; says on stderr when the stop took over 300 ms. */
void loopsrv_stop(struct loopsrv *v);

#endif
