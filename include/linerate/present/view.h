/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Views: a snapshot plus the app state rendered into a frame of cells. The overview (one row
 * per interface), the detail view (link line, Bitrate, Packets, Drops & FIFO, CPU panes,
 * hints), the status line and the help overlay. Views format and scale; the rates themselves
 * come from the snapshot. Unknown values are drawn "-", never 0. No curses. [main] */
#ifndef LINERATE_VIEW_H
#define LINERATE_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "linerate/present/ui.h"
#include "linerate/present/frame.h"
#include "linerate/collect/metrics.h"
#include "linerate/sample/snapshot.h"

struct lr_snapshot;
struct lr_iface_snap;
struct lr_series;
struct lr_verdict;
struct lr_verdict_acc;
struct lr_verdict_traffic;

#define LR_VIEW_MIN_W 70	/* the reduced layout from 70x20; the full one at 80x24 */
#define LR_VIEW_MIN_H 20

/* How graphs are drawn (--graph): block glyphs (1 sample per cell, 8 levels per row),
 * braille (2 samples per cell, 4 dot rows) or ASCII. */
enum lr_graph_style { LR_GRAPH_BLOCK, LR_GRAPH_BRAILLE, LR_GRAPH_ASCII };

struct lr_cpu_hist;

struct lr_view_ctx {
	const struct lr_snapshot *snap;	/* NULL: waiting for the first sample */
	const struct lr_ui *app;
	bool ascii;			/* ASCII graphs and borders (--ascii, non-UTF-8 locale) */
	enum lr_graph_style graph;	/* when !ascii */
	const char *host;		/* shown in the overview title; NULL none */
	const char *status_msg;		/* newest log or key feedback; NULL/"" none */
	bool status_is_error;		/* draw status_msg in the alert role */
	const char *theme_name;		/* shown in the help overlay; NULL none */
	/* Streams pane: when set, the detail view gives it a band above the hints (at heights
	 * >= 30). The dashboard sets lr_view_streams with a struct lr_view_traffic. */
	void (*streams_pane)(struct lr_frame *f, struct lr_rect r, const struct lr_view_ctx *ctx,
			     void *arg);
	void *streams_arg;
	int streams_extra_rows;		/* the pane's rows beyond its streams (a latency line) */
	/* The peer view (docs/wire.md, part 2): the other end's snapshot (its test interfaces,
	 * rates over its own interval) and host name; the overview lists its interfaces under
	 * ours. NULL: none (no test, or a plain iperf3 peer). */
	const struct lr_snapshot *peer;
	const char *peer_host;
	/* Per-CPU busy and softirq history (cpu_hist.h): the CPU pane draws it in rows it has
	 * to spare. NULL: none (the peer's CPUs, a test). */
	const struct lr_cpu_hist *cpu_hist;
	/* The Loss pane's ledger (L); NULL: no traffic configured. */
	const struct lr_view_loss *loss;
	/* > 0: nothing from the peer for this many seconds (past its stale bound, docs/design.md
	 * §10); its rates are then unknown in peer, and the views say "stale". */
	double peer_stale_s;
	/* Set by the layout in its copy of the context while it draws the peer's detail view
	 * (snap is then the peer's): panes that name a host or give advice say "on HOST". */
	bool peer_detail;
};

/* The whole screen for ctx into f (sized by the caller): the "too small" message below
 * LR_VIEW_MIN_W x LR_VIEW_MIN_H, else the view app->view, the status line and, when app->help,
 * the help overlay. */
void lr_view_render(struct lr_frame *f, const struct lr_view_ctx *ctx);

/* Panes, each drawing inside r (title row included). ifs is the interface shown. */
void lr_view_overview(struct lr_frame *f, struct lr_rect r, const struct lr_view_ctx *ctx);
void lr_view_link_line(struct lr_frame *f, struct lr_rect r, const struct lr_view_ctx *ctx,
		       const struct lr_iface_snap *ifs);
void lr_view_tuning_line(struct lr_frame *f, struct lr_rect r, const struct lr_view_ctx *ctx,
			 const struct lr_iface_snap *ifs);
void lr_view_bitrate(struct lr_frame *f, struct lr_rect r, const struct lr_view_ctx *ctx,
		     const struct lr_iface_snap *ifs);
void lr_view_packets(struct lr_frame *f, struct lr_rect r, const struct lr_view_ctx *ctx,
		     const struct lr_iface_snap *ifs);
void lr_view_drops(struct lr_frame *f, struct lr_rect r, const struct lr_view_ctx *ctx,
		   const struct lr_iface_snap *ifs);
/* Rows the Drops & FIFO pane needs to show every row of ifs (title and header included). */
int lr_view_drops_rows(const struct lr_iface_snap *ifs);
/* ifs NULL: no interface's CPUs are marked (overview). */
void lr_view_cpu(struct lr_frame *f, struct lr_rect r, const struct lr_view_ctx *ctx,
		 const struct lr_iface_snap *ifs);
/* The Queues pane (view_queues.c): ifs's queues hottest first. */
void lr_view_queues(struct lr_frame *f, struct lr_rect r, const struct lr_view_ctx *ctx,
		    const struct lr_iface_snap *ifs);
/* The hottest queue of ifs over the interval (most rx+tx packets): hot indexes ifs->queues,
 * share is its fraction (0..1) of all its queues' packets, imbalance its packets over their
 * mean; -1 each when unknown. false when no queue has a known packet count. */
struct lr_view_queue_stats {
	int hot;
	double share, imbalance, total_packets;
};
bool lr_view_queue_stats(const struct lr_iface_snap *ifs, struct lr_view_queue_stats *st);
void lr_view_status(struct lr_frame *f, struct lr_rect r, const struct lr_view_ctx *ctx);
void lr_view_help(struct lr_frame *f, const struct lr_view_ctx *ctx);

/* --- the peer view (view_peer.c) --- */

/* The peer's interface the detail view shows: the one moving the most bytes, then app's
 * peer_sel steps from it (Tab on the peer's side, wrapping). NULL: no peer interface. */
const struct lr_iface_snap *lr_view_peer_iface(const struct lr_view_ctx *ctx);
/* One line in r for our detail view while the peer shares: its host, interface, rx/tx rate,
 * drops/s, FIFO/s and hottest softirq CPU, the overview's units. */
void lr_view_peer_line(struct lr_frame *f, struct lr_rect r, const struct lr_view_ctx *ctx);
/* The peer's stack error rates and its sampling interval: in the peer's detail view in place
 * of the tuning line when the peer sends no sysctls (an older linerate), under the panes when
 * it does. ctx is the peer's (snap = its own). */
void lr_view_peer_stack_line(struct lr_frame *f, struct lr_rect r, const struct lr_view_ctx *ctx);

/* --- traffic (view_streams.c, view_verdict.c) --- */

enum lr_view_tstate {
	LR_VTS_IDLE,		/* no test yet (--no-start) */
	LR_VTS_CONNECTING,
	LR_VTS_RUNNING,
	LR_VTS_ENDING,		/* exchanging results */
	LR_VTS_DONE,		/* ran its duration */
	LR_VTS_STOPPED,		/* `s` (or a restart) ended it */
	LR_VTS_ERROR,
};

#define LR_VIEW_STREAM_BASE_MAX 128	/* iperf3's most parallel streams */

/* A stream's counts at the last `r`: the pane shows retransmits and loss since then. */
struct lr_view_stream_base {
	int id;
	uint64_t retr, lost;
};

/* Latency under load (docs/design.md §16) for the Streams pane's latency line, copied by the
 * app from the running test's probes each frame. */
enum lr_view_lat_state {
	LR_VLAT_NONE,		/* no line: a server, no test yet */
	LR_VLAT_WAIT,		/* asked; no answer or no interval under load yet */
	LR_VLAT_PLAIN,		/* the peer offers no probes: a plain iperf3 */
	LR_VLAT_OFF,		/* --no-latency, --no-peer-stats */
	LR_VLAT_ON,
};
struct lr_view_latency {
	enum lr_view_lat_state state;
	double p50_ms, p99_ms;		/* the newest interval with an answered probe, < 0 none */
	double idle_p99_ms;		/* the idle baseline, < 0 unknown */
	uint64_t lost;			/* probes lost over the test */
	struct lr_series p99;		/* each interval's p99 in ms, NAN none answered */
};

/* The test the Streams pane describes; the per-stream numbers come from ctx->snap->streams. */
struct lr_view_traffic {
	enum lr_view_tstate state;
	const char *host;		/* the peer as given; NULL "-" */
	uint16_t port;
	const char *iface;		/* the route interface, NULL/"" unknown */
	struct lr_ui_traffic knobs;	/* protocol, streams, per-stream target, direction */
	const char *rate_text;		/* NULL: the target is knobs.rate_bps; else what the
					 * target column says instead (a replay: "unknown") */
	double elapsed_s;		/* since the data started, < 0 unknown */
	double duration_s;		/* the test's length, 0 until stopped */
	const char *error;		/* LR_VTS_ERROR: why; NULL none */
	bool server;			/* `linerate -s`: tests come from clients on port */
	/* The receiving end's live loss per stream id (lost = datagrams), when this process is
	 * also the receiver (--demo): a UDP sender's lost column shows it. */
	const struct lr_view_stream_base *recv;
	size_t n_recv;
	struct lr_view_latency lat;	/* its line is the pane's last row, when state is set */
	/* set by lr_view_streams_reset; a later test (another traffic_generation) starts at 0 */
	struct lr_view_stream_base base[LR_VIEW_STREAM_BASE_MAX];
	size_t n_base;
	uint32_t base_generation;
};

/* `r` (reset totals and peaks): the Streams pane's retr and lost count from s's totals on. */
void lr_view_streams_reset(struct lr_view_traffic *t, const struct lr_snapshot *s);

/* The Streams pane in r: state, protocol, streams, per stream target and achieved rate,
 * packets/s, retransmits, loss, jitter, cwnd and RTT, and a sum row. arg is a
 * const struct lr_view_traffic * (the signature of lr_view_ctx.streams_pane). */
void lr_view_streams(struct lr_frame *f, struct lr_rect r, const struct lr_view_ctx *ctx,
		     void *arg);
/* "running", "connecting", ... */
const char *lr_view_tstate_name(enum lr_view_tstate s);

/* The Loss pane (view_loss.c, the L key): the running test's ledger (docs/design.md §14), its
 * newest interval per second beside its total so far; once the test has ended, the end-of-test
 * ledger (the receiver's own count) as the total. Each line names its side, host and
 * counter; the unaccounted remainder is always there; unknown is "unknown". */
struct lr_ledger;
struct lr_view_loss {
	const struct lr_ledger *interval;	/* the newest interval's, NULL none yet */
	double interval_s;			/* its measured seconds */
	const struct lr_ledger *total;		/* the test's so far, NULL none yet */
	bool sender_local;			/* this host sends */
	bool ended;				/* total is the end-of-test ledger */
	/* --bidir: the down direction's (this host receives), drawn under the up one's; NULL
	 * otherwise */
	const struct lr_ledger *rev_interval, *rev_total;
	double rev_interval_s;
};

/* In place of the views (ctx->app->loss). */
void lr_view_loss(struct lr_frame *f, struct lr_rect r, const struct lr_view_ctx *ctx);

/* The end-of-test verdict panel (an overlay, drawn after lr_view_render). */
struct lr_view_verdict {
	const struct lr_verdict *v;		/* computed; v->iface points into acc */
	const struct lr_verdict_acc *acc;
	const struct lr_verdict_traffic *t;	/* the test's own results */
	const char *test;			/* "TCP, 2 streams to HOST, 10.0 s, stopped" */
	/* A failed test: why it failed (NULL: it did not), and where its data stopped (the
	 * last interval that moved bytes; NULL unknown). v may be NULL then (nothing ran). */
	const char *failure;
	const char *stopped;
	/* The other end's own loss counters over the test (the peer view): "receiver
	 * peerhost: veth1 rx_missed (NIC FIFO full) 1234"; NULL when the peer shares none. */
	const char *peer_loss;
	bool peer_lost;				/* peer_loss names a counter that moved */
	/* The cycles' ledger's conclusion (which end and CPU bound the rate, or none); NULL
	 * when it has none. cycles_bound: a CPU of the test's bound it. */
	const char *cycles;
	bool cycles_bound;
};

void lr_view_verdict(struct lr_frame *f, const struct lr_view_ctx *ctx,
		     const struct lr_view_verdict *vv);

/* --- helpers shared by the view files (view_fmt.c), exported for tests --- */

/* "38.41 Gb/s" / "4.80 GB/s" (bytes: bits / 8), "-" when bps < 0 or NaN. */
void lr_view_fmt_rate(char *buf, size_t len, double bps, bool bytes);
/* Compact SI number for columns: "38.41G", "531k", "0", "-" when v < 0 or NaN. */
void lr_view_fmt_num(char *buf, size_t len, double v);
/* Byte totals with binary-free SI units: "212.4 GB", "-" when unknown. */
void lr_view_fmt_bytes(char *buf, size_t len, double bytes);
/* Link speed "40G", "100M", "2.5G", "-" unknown. */
void lr_view_fmt_speed(char *buf, size_t len, int64_t speed_mbps);
/* s in at most maxw columns, never cut inside a word: what does not fit is left out and
 * marked with an ellipsis ('~' in ASCII). Returns the columns used. */
int lr_view_text_words(struct lr_frame *f, int x, int y, int maxw, enum lr_role role, const char *s,
		       bool ascii);
/* Word-wraps s into rows of at most w columns from (x, *y), up to max_rows (*y advances). */
void lr_view_wrap(struct lr_frame *f, int x, int *y, int w, int max_rows, enum lr_role role,
		  const char *s);
/* s in at most w columns: whole when it fits, else its first w - 1 characters and '~' (names:
 * interfaces, hosts, counters). Returns the columns drawn. */
int lr_view_text_mark(struct lr_frame *f, int x, int y, int w, enum lr_role role, const char *s);
/* Draws s at column *at of a line w columns wide starting at x when it fits whole, and
 * advances *at; else draws nothing and sets *at = w, so the fields after it are left out too
 * (a line of fields never ends in a cut one). Returns whether it was drawn. */
bool lr_view_field(struct lr_frame *f, int x, int y, int *at, int w, enum lr_role role,
		   const char *s);

/* Top of a graph's scale for values up to max_v (auto: the next 1-2-5 step, at least 1000;
 * link: link_max when > 0). */
double lr_view_scale_top(enum lr_scale mode, double max_v, double link_max);
/* Draws the newest r.w points of series s as a bar graph in r, scaled to top (log: log10 from
 * log_floor to top). Unknown points draw a dotted baseline. */
void lr_view_graph(struct lr_frame *f, struct lr_rect r, const struct lr_series *s, double top,
		   bool log_scale, double log_floor, bool ascii, enum lr_role role);
/* The same in braille (view_braille.c): the newest 2 * r.w points, 4 dot rows per cell. */
void lr_view_graph_braille(struct lr_frame *f, struct lr_rect r, const struct lr_series *s,
			   double top, bool log_scale, double log_floor, enum lr_role role);
/* lr_view_graph or lr_view_graph_braille as ctx says (ascii, graph). */
void lr_view_graph_ctx(struct lr_frame *f, struct lr_rect r, const struct lr_series *s,
		       double top, bool log_scale, double log_floor, const struct lr_view_ctx *ctx,
		       enum lr_role role);
/* Largest known value among the newest n points of s; 0 when none. */
double lr_view_series_max(const struct lr_series *s, uint32_t n);
/* A pane title row: " Title ───────" in the border role (ASCII: '-'). */
void lr_view_pane_title(struct lr_frame *f, struct lr_rect r, const char *title, bool ascii);
/* A vertical separator column at x from y0 to y0 + h - 1. */
void lr_view_vline(struct lr_frame *f, int x, int y0, int h, bool ascii);
/* A box drawn over the screen (help, verdict): cleared, with a border, so what lies beside
 * it never reads as part of its lines. */
void lr_view_overlay(struct lr_frame *f, struct lr_rect r, bool ascii);

#endif
