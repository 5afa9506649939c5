// SPDX-License-Identifier: GPL-2.0-or-later
/* The loss ledger tests' books (ledger_books.h). */
#include <string.h>

#include "fakes/ledger_books.h"

/* Two namespaces joined by a veth pair, ns-a veth-a sending UDP to ns-b veth-b; every counter
 * unknown. */
void ledger_ends(struct lr_ledger_input *in)
{
	memset(in, 0, sizeof(*in));
	lr_ledger_end_init(&in->snd);
	lr_ledger_end_init(&in->rcv);
	in->udp = true;
	in->sender_local = true;
	in->one_link = true;
	strcpy(in->snd.host, "ns-a");
	strcpy(in->snd.iface, "veth-a");
	strcpy(in->rcv.host, "ns-b");
	strcpy(in->rcv.iface, "veth-b");
}

/* Every counter of an end read, none moved. */
void ledger_quiet(struct lr_ledger_end *e)
{
	e->tx_dropped = e->tx_errors = 0;
	e->rx_missed = e->rx_fifo = e->rx_over = e->nic_drop = e->nic_fifo = 0;
	e->qdisc_drops = e->softnet_dropped = 0;
	e->udp_sndbuf = e->udp_rcvbuf = e->udp_in_errors = 0;
	for (int d = 0; d < LR_SD__COUNT; d++)
		e->stack_drop[d] = 0;
}

/* Both ends read, nothing moved yet. */
void ledger_read_ends(struct lr_ledger_input *in)
{
	ledger_ends(in);
	ledger_quiet(&in->snd);
	ledger_quiet(&in->rcv);
}

/* The ledger's row of stage st, NULL when it has none. */
const struct lr_ledger_row *ledger_row(const struct lr_ledger *l, enum lr_ledger_stage st)
{
	for (unsigned i = 0; i < l->n_rows; i++)
		if (l->rows[i].stage == st)
			return &l->rows[i];
	return NULL;
}

