/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The server's tests as the app sees them: the engine's test hooks (lr_server_test_hooks) on
 * one side; on the other the main thread's copy-out view of the current test (parameters,
 * live or final counters, results) and a gen source that lets the sampler read the incoming
 * streams for the dashboard and the CSV. Thread-safe: a mutex guards the test, the stream
 * counters are relaxed atomics. [any] unless tagged. */
#ifndef LINERATE_SERVER_WATCH_H
#define LINERATE_SERVER_WATCH_H

#include <stdbool.h>
#include <stdint.h>

#include "linerate/core/common.h"
#include "linerate/sample/gencol.h"
#include "linerate/traffic/server_view.h"
#include "linerate/traffic/traffic.h"

struct lr_server_watch; /* opaque */
struct lr_snapsrc;

int lr_server_watch_open(struct lr_server_watch **out) LR_MUST_CHECK;
void lr_server_watch_close(struct lr_server_watch *w); /* NULL-safe; after the server closed */
/* The hooks for lr_server_opts.watch; valid until close. */
const struct lr_server_test_hooks *lr_server_watch_hooks(struct lr_server_watch *w);
/* [main, before the server runs] Each test's streams become src's traffic (a new generation
 * per test, so the streams CSV and the Streams pane start over). NULL: none. */
void lr_server_watch_set_snapsrc(struct lr_server_watch *w, struct lr_snapsrc *src);
/* [main] A consumer reads each test's end: test_end then waits (<= 1 s) until it was read, so
 * a test that begins and ends between two reads is still seen whole. */
void lr_server_watch_set_reader(struct lr_server_watch *w, bool reader);
/* [main] Copies the newest test into *v. true when v->seq or v->ended changed since the last
 * call. */
bool lr_server_watch_read(struct lr_server_watch *w, struct lr_server_test_view *v);
struct lr_server_test_view *lr_server_watch_view_new(void); /* calloc; free() it */

#endif
