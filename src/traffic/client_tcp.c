// SPDX-License-Identifier: GPL-2.0-or-later
/* A client stream's TCP_INFO on demand: the app cuts -J's intervals and samples each TCP
 * socket at their ends, as iperf3 does. */
#include "client_priv.h"
#include "linerate/traffic/stream.h"
#include "linerate/traffic/traffic.h"

void lr_client_stream_tcp(struct lr_client *c, unsigned i, struct lr_tcp_sample *out)
{
	const struct lr_stream_params *sp;

	out->valid = false;
	if (i >= lr_client_nstreams(c) || !c->streams[i])
		return;
	sp = lr_stream_params(c->streams[i]);
	if (!sp->udp)
		lr_tcp_sample_read(sp->fd, out);
}
