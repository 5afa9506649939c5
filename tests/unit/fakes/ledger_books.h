/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The loss ledger's input as the tests build it (test_ledger.c, test_ledger_tcp.c): two
 * namespaces joined by a veth pair, ns-a veth-a sending to ns-b veth-b. */
#ifndef LINERATE_TEST_LEDGER_BOOKS_H
#define LINERATE_TEST_LEDGER_BOOKS_H

#include "linerate/diagnose/ledger.h"

/* UDP, this host sending, one link; every counter unknown. */
void ledger_ends(struct lr_ledger_input *in);
/* Every counter of an end read, none moved. */
void ledger_quiet(struct lr_ledger_end *e);
/* Both ends read, nothing moved yet. */
void ledger_read_ends(struct lr_ledger_input *in);
/* The ledger's row of stage st, NULL when it has none. */
const struct lr_ledger_row *ledger_row(const struct lr_ledger *l, enum lr_ledger_stage st);

#endif
