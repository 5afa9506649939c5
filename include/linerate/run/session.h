/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One traffic test's lifecycle, the same for the dashboard and headless `-c` (and the
 * matrix): start, live rate change, stop, follow the client's state, feed the verdict the
 * snapshots taken while data flowed, then results and verdict, close. A restart is a finish
 * and a start. Also the glue that lets neither traffic/ nor sample/ and present/ know each
 * other: the client as the sampler's gen source, its results as the verdict's input. [main] */
#ifndef LINERATE_SESSION_H
#define LINERATE_SESSION_H

#include <stdbool.h>
#include <stdint.h>

#include "linerate/core/common.h"
#include "linerate/sample/gencol.h"
#include "linerate/traffic/traffic.h"
#include "linerate/diagnose/cycles.h"
#include "linerate/diagnose/ledger.h"
#include "linerate/diagnose/ledger_live.h"
#include "linerate/diagnose/verdict.h"
#include "linerate/traffic/probe.h"

struct lr_latency;
struct lr_snapsrc;
struct lr_snapshot;

struct lr_session {
	struct lr_snapsrc *src;		/* borrowed; NULL: the test runs without samples */
	char iface[LR_IFNAMSIZ];	/* the interface the verdict speaks of, "" the busiest */
	struct lr_client *client;	/* NULL between tests */
	struct lr_gen_source gen;	/* the source's sampler reads client's streams */
	bool udp;			/* the running test's protocol and streams, for a verdict */
	unsigned parallel;		/* without results */
	uint64_t window;		/* -w, 0 unset */
	bool demo;			/* --demo: the server is this process, on this host */
	bool reverse, bidir;		/* the running test's direction */
	bool rr;			/* --rr: the ledger is the requests' way */
	bool one_link;			/* the peer is on the test interface's link: the wire
					 * stage applies (lr_route_one_link at the start) */
	char host[65];			/* this host's nodename, for the ledgers */
	uint64_t running_ns;		/* mono when RUNNING was first seen, 0 before */
	uint64_t done_ns;		/* mono when DONE/ERROR was first seen, 0 before */
	uint64_t elapsed_at_end_ns;	/* running_ns .. done_ns */
	bool stop_asked;		/* lr_session_stop ended the test */
	bool failed;			/* ended in LR_CLIENT_ERROR; error says why */
	char error[160];
	unsigned samples;		/* snapshots fed to the verdict */
	/* after lr_session_finish */
	bool have_res;
	struct lr_traffic_results *res;	/* heap: large */
	struct lr_verdict_acc *acc;	/* heap: large */
	struct lr_verdict_traffic vt;
	struct lr_verdict verdict;	/* verdict.iface points into acc; concluded from ledger */
	bool have_verdict;
	struct lr_ledger ledger;	/* where the packets went, both ends (docs/design.md §14):
					 * the test's direction, under --bidir the up one */
	bool have_ledger;		/* a test ran */
	struct lr_ledger ledger_rev;	/* --bidir: the down direction's (server -> client) */
	bool have_ledger_rev;
	struct lr_cycles_acc *cyc;	/* heap: large; both ends' CPU times in the test's window */
	struct lr_cycles cycles;	/* which end and CPU bound the rate (docs/design.md §14) */
	bool have_cycles;
	/* the running test's ledger, each interval's and the total, stepped by lr_session_sample
	 * (docs/design.md §14); live.steps stays 0 before the test runs. live is the test's
	 * direction (--bidir: up), live_rev --bidir's down one (steps 0 otherwise) */
	struct lr_ledger_live live, live_rev;
	uint64_t live_real_ns, live_elapsed_ns;	/* the snapshot of the newest interval */
	/* the peer view (docs/wire.md, part 2): opened by lr_session_poll once the server offered,
	 * closed with the client; NULL against a plain iperf3 or with --no-peer-stats */
	struct lr_peer_rx *peer;
	/* latency under load (docs/design.md §16): the probes' intervals on the report interval
	 * (-i, else 1 s) from the test's start, the idle baseline and the load's summary; after
	 * lr_session_finish, final. lat->known false: the engine was never read. heap: large */
	struct lr_latency *lat;
	struct lr_probe_stats *probe_now, *probe_prev;	/* heap: the newest two readings */
	bool probe_have_prev;
	uint64_t lat_every_ns, lat_last_ns, lat_next_ns;
};

/* Allocates the large parts. src may be NULL. 0 or -ENOMEM. */
int lr_session_init(struct lr_session *s, struct lr_snapsrc *src, const char *iface) LR_MUST_CHECK;
/* Opens and starts a client for tc (duration_ns: the test's length) and lets the source's
 * sampler read its streams. 0, or -errno with error set ("cannot set up the test: ..."). */
int lr_session_start(struct lr_session *s, const struct lr_traffic_config *tc,
		     uint64_t duration_ns) LR_MUST_CHECK;
/* A client is open and has not ended. */
bool lr_session_active(const struct lr_session *s);
/* Asks the running test to end (the peer is told); finish it once it is DONE. */
void lr_session_stop(struct lr_session *s);
void lr_session_set_rate(struct lr_session *s, uint64_t bps);
/* Follows the client's state (LR_CLIENT_IDLE when none is open) and stamps running/done. */
enum lr_client_state lr_session_poll(struct lr_session *s);
/* A new snapshot: the verdict counts it when the test has been running, and the live ledger
 * takes a step. */
void lr_session_sample(struct lr_session *s, const struct lr_snapshot *snap);
/* The probes read now (mono ns): an interval closes once its report interval has passed.
 * lr_session_sample does the same at each snapshot; a mode that wakes at its report
 * intervals' ends calls this too, so that theirs and the probes' line up. */
void lr_session_latency_tick(struct lr_session *s, uint64_t now_ns);
/* The latency interval after the *seen ones (the caller's count, from 0 at the start) as a
 * streams-CSV row; false when there is none new. */
struct lr_csv_latency;
bool lr_session_latency_row(const struct lr_session *s, unsigned *seen, struct lr_csv_latency *out);
/* The test has ended (and the snapshot that saw its last bytes was fed): results, error,
 * verdict and loss ledger (when it ran, with the peer's totals when it shared them), then the
 * source lets go of the streams and the client closes. */
void lr_session_finish(struct lr_session *s);
/* Quit or a signal mid-test: stop and wait up to wait_ns for the end. false on a time-out. */
bool lr_session_shutdown(struct lr_session *s, uint64_t wait_ns);
/* Closes a client still open (no results) and frees. NULL-safe parts. */
void lr_session_free(struct lr_session *s);

/* *out reads c's streams; valid until c is closed (clear the sampler's source first). */
void lr_client_gen_source(struct lr_client *c, struct lr_gen_source *out);
/* What the test achieved, for lr_verdict_compute: receiver-side goodput per direction (the
 * sender's count when the test was stopped before results came), retransmits, and UDP loss
 * only where the receiver's count is known. */
void lr_verdict_traffic_from(const struct lr_traffic_results *r, struct lr_verdict_traffic *vt);

#endif
