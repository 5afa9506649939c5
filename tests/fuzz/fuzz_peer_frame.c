// SPDX-License-Identifier: GPL-2.0-or-later
/* libFuzzer: the peer-stats frame decoder (docs/peer-stats.md) reads what a possibly hostile
 * "server" sends; it must never crash or leak, accepted frames stay within their bounds (counts,
 * name lengths, rising CPU numbers, printable host) and survive an encode/decode round trip. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "linerate/traffic/peer_wire.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lr_peer_frame f, g;
	char err[LR_PROTO_ERR_MAX];
	char *out;
	size_t len;

	if (lr_peer_frame_decode((const char *)data, size, &f, err) != 0) {
		if (f.ifaces || f.cpus || f.n_ifaces || f.n_cpus)
			abort(); /* a refused frame leaves nothing behind */
		return 0;
	}
	if (f.n_ifaces > LR_PEER_MAX_IFACES || f.n_cpus > LR_PEER_MAX_CPUS)
		abort();
	for (size_t i = 0; i < f.n_ifaces; i++)
		if (!f.ifaces[i].name[0] || strlen(f.ifaces[i].name) >= sizeof(f.ifaces[i].name))
			abort();
	for (size_t i = 1; i < f.n_cpus; i++)
		if (f.cpus[i].cpu <= f.cpus[i - 1].cpu)
			abort();
	for (const char *p = f.host; *p; p++)
		if ((unsigned char)*p < 0x20)
			abort();
	if (lr_peer_frame_encode(&f, &out, &len) < 0)
		abort();
	if (lr_peer_frame_decode(out, len, &g, err) != 0 || g.n_ifaces != f.n_ifaces ||
	    g.n_cpus != f.n_cpus || g.seq != f.seq || strcmp(g.host, f.host))
		abort();
	for (size_t i = 0; i < f.n_ifaces; i++)
		if (memcmp(g.ifaces[i].c, f.ifaces[i].c, sizeof(f.ifaces[i].c)) ||
		    g.ifaces[i].known != f.ifaces[i].known)
			abort();
	free(out);
	lr_peer_frame_free(&g);
	lr_peer_frame_free(&f);
	return 0;
}
