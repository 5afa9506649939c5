// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The Loss pane (L): the running test's ledger at 80x24 from two ticks of a real tbf run
 * (ledger_veth.sh's: -u -b 500M -l 1400 --no-gso through `tbf rate 100mbit` on the sender's
 * veth, -i 0.25; the sender's interface counts chosen so one skb is one datagram, as with
 * --no-gso): each line's last interval per second beside the total, its side, host and
 * counter; the receiver's count unknown live (the peer reports it at the end), the
 * unaccounted remainder always there, stages that saw nothing folded, the conclusion under
 * them; --bidir's two directions, each its own ledger; the L key. A golden frame beside the
 * figures; LR_UPDATE_GOLDEN=1 rewrites it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fakes/golden.h"
#include "linerate/diagnose/ledger_live.h"
#include "linerate/present/frame.h"
#include "linerate/present/ui.h"
#include "linerate/present/view.h"
#include "linerate/sample/snapshot.h"

struct fixture {
	struct lr_ui app;
	struct lr_frame frame;
	struct lr_view_ctx ctx;
	struct lr_ledger_live live;
	struct lr_view_loss loss;
};

/* The books' totals after one tick (0.250 s) and after two (0.500 s) of that run. */
static void totals(struct lr_ledger_input *in, int tick)
{
	memset(in, 0, sizeof(*in));
	lr_ledger_end_init(&in->snd);
	lr_ledger_end_init(&in->rcv);
	in->udp = true;
	in->sender_local = true;
	in->lost = -1;		/* the receiver's count comes with the results */
	strcpy(in->snd.host, "ns-a");
	strcpy(in->snd.iface, "veth-a");
	strcpy(in->snd.qdisc, "tbf 8001:");
	in->snd.tx_dropped = in->snd.tx_errors = 0;
	/* the first tick's peer frame had not come yet: its counters unknown */
	in->sent = tick == 1 ? 10085 : 10085 + 11031;
	in->snd.qdisc_drops = tick == 1 ? 8116 : 8116 + 8896;
	/* UDP counts each qdisc drop as a SndbufError too; 13 were the socket's own */
	in->snd.udp_sndbuf = in->snd.qdisc_drops + (tick == 1 ? 0 : 13);
	in->snd.if_tx_packets = in->sent - in->snd.udp_sndbuf;
	if (tick == 2) {
		strcpy(in->rcv.host, "ns-b");
		strcpy(in->rcv.iface, "veth-b");
		in->rcv.if_rx_packets = in->snd.if_tx_packets;
		in->rcv.rx_missed = in->rcv.rx_fifo = in->rcv.rx_over = 0;
		in->rcv.nic_drop = in->rcv.nic_fifo = 0;
		in->rcv.udp_rcvbuf = in->rcv.udp_in_errors = 0;
		/* the receiver's softnet: unknown (an older peer) */
	}
}

static int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));
	struct lr_ledger_input in;

	lr_ui_init(&fx->app, LR_NSEC_PER_SEC, 5, NULL);
	fx->app.traffic = true;
	fx->app.loss = true;
	lr_frame_init(&fx->frame);
	fx->ctx.app = &fx->app;
	fx->ctx.host = "ns-a";
	fx->ctx.theme_name = "default";
	fx->ctx.ascii = true;
	lr_ledger_live_reset(&fx->live);
	totals(&in, 1);
	lr_ledger_live_step(&fx->live, &in, 1000000000ull, 250000000ull);
	totals(&in, 2);
	lr_ledger_live_step(&fx->live, &in, 1250000000ull, 250000000ull);
	fx->loss = (struct lr_view_loss){.interval = &fx->live.interval, .interval_s = 0.25,
					 .total = &fx->live.total, .sender_local = true};
	fx->ctx.loss = &fx->loss;
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *fx = *state;

	lr_frame_free(&fx->frame);
	free(fx);
	return 0;
}

static void render(struct fixture *fx, int w, int h)
{
	assert_int_equal(lr_frame_resize(&fx->frame, w, h), 0);
	lr_view_render(&fx->frame, &fx->ctx);
}

/* Row y as text, trailing blanks cut. */
static void row_text(const struct lr_frame *f, int y, char *out, size_t len)
{
	int n = 0;

	for (int x = 0; x < f->w && (size_t)n + 1 < len; x++) {
		uint32_t cp = lr_frame_at(f, x, y)->cp;

		out[n++] = cp < 128 && cp ? (char)cp : '?';
	}
	while (n > 0 && out[n - 1] == ' ')
		n--;
	out[n] = '\0';
}

/* The row holding needle, as text; fails when none does. */
static int line_of(const struct lr_frame *f, const char *needle, char *out, size_t len)
{
	int col, y = golden_find(f, needle, &col);

	if (y < 0)
		fail_msg("no row holds '%s'", needle);
	row_text(f, y, out, len);
	return y;
}

/* The first row below y0 holding needle, as text; fails when none does. */
static int line_after(const struct lr_frame *f, int y0, const char *needle, char *out, size_t len)
{
	for (int y = y0 + 1; y < f->h; y++) {
		row_text(f, y, out, len);
		if (strstr(out, needle))
			return y;
	}
	fail_msg("no row below %d holds '%s'", y0, needle);
	return -1;
}

/* Each word of want appears in the row, in order. */
static void has_words(const char *row, const char *want)
{
	char buf[256], *save = NULL;
	const char *at = row;

	snprintf(buf, sizeof(buf), "%s", want);
	for (char *w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		const char *p = strstr(at, w);

		if (!p)
			fail_msg("'%s' lacks '%s' (after '%s')", row, w, at);
		at = p + strlen(w);
	}
}

/* --bidir's down direction, this host receiving: 3000 of 10000 lost, its own UDP receive
 * buffer overflowed 3000 times (--no-gso: one datagram an skb), the peer's qdisc dropped none. */
static void down_ledger(struct lr_ledger *down)
{
	struct lr_ledger_input in;

	memset(&in, 0, sizeof(in));
	lr_ledger_end_init(&in.snd);
	lr_ledger_end_init(&in.rcv);
	in.udp = in.bidir = true;
	in.dir = LR_LDIR_DOWN;
	in.sent = 10000;
	in.lost = 3000;
	strcpy(in.snd.host, "ns-b");
	strcpy(in.snd.iface, "veth-b");
	in.snd.qdisc_drops = in.snd.tx_dropped = in.snd.tx_errors = in.snd.udp_sndbuf = 0;
	in.snd.if_tx_packets = 10000;
	strcpy(in.rcv.host, "ns-a");
	strcpy(in.rcv.iface, "veth-a");
	in.rcv.if_rx_packets = 10000;
	in.rcv.rx_missed = in.rcv.rx_fifo = in.rcv.rx_over = 0;
	in.rcv.softnet_dropped = 0;
	in.rcv.udp_rcvbuf = in.rcv.udp_in_errors = 3000;
	lr_ledger_build(&in, down);
}

/* Outside the pane, the detail view's first hint is the ledger's (issue 28: the live hints and
 * the verdict read one ledger): the interval's qdisc drops, 8896 in 0.25 s, at the sender's
 * qdisc on ns-a; the peer's detail view gets none (its hints are its own snapshot's). */
static void test_hint_from_the_ledger(void **state)
{
	struct fixture *fx = *state;
	static struct lr_ledger down;
	struct lr_snapshot s;
	char row[256];

	lr_snapshot_init(&s);
	s.seq = 2;
	s.interval_ns = s.target_interval_ns = LR_NSEC_PER_SEC / 4;
	s.ifaces = calloc(1, sizeof(*s.ifaces));
	s.n_ifaces = s.cap_ifaces = 1;
	strcpy(s.ifaces[0].name, "veth-a");
	s.ifaces[0].mtu = 1500;
	s.ifaces[0].speed_mbps = -1;
	s.ifaces[0].softirq_cpu = -1;
	s.ifaces[0].softirq_max_pct = -1;
	fx->ctx.snap = &s;
	fx->app.loss = false;
	fx->app.view = LR_VIEW_DETAIL;
	lr_ui_sync(&fx->app, &s);
	render(fx, 80, 24);
	line_of(&fx->frame, "hint", row, sizeof(row));
	has_words(row, "hint loss datagrams 35.6k/s at the sender's qdisc: tbf 8001: on ns-a");
	fx->ctx.loss = NULL;	/* no test: no such hint */
	render(fx, 80, 24);
	assert_true(golden_find(&fx->frame, "at the sender's qdisc", &(int){0}) < 0);
	fx->ctx.loss = &fx->loss;
	/* --bidir: the down direction's interval gives its own hint, named (3 hints at 40 rows) */
	down_ledger(&down);
	fx->loss.rev_interval = &down;
	fx->loss.rev_interval_s = 1.0;
	render(fx, 80, 40);
	line_of(&fx->frame, "down: loss", row, sizeof(row));
	has_words(row, "down: loss datagrams 3.00k/s at the receiver's transport: UDP");
	fx->ctx.snap = NULL;
	lr_snapshot_free(&s);
}

static void test_golden_80x24(void **state)
{
	struct fixture *fx = *state;

	render(fx, 80, 24);
	golden_check(&fx->frame, "loss_tbf_80x24");
	assert_int_equal(fx->frame.clipped, 0);
}

/* Each stage with its side, host and counter, its interval per second and its total: the
 * qdisc's 8896 drops in 0.25 s are 35584/s, 17012 over both ticks; the socket's own 13. */
static void test_stages(void **state)
{
	struct fixture *fx = *state;
	char row[128];

	render(fx, 80, 24);
	line_of(&fx->frame, "qdisc", row, sizeof(row));
	has_words(row, "qdisc sender ns-a tbf 8001: 35584 17012");
	line_of(&fx->frame, "socket", row, sizeof(row));
	has_words(row, "socket sender ns-a UDP SndbufErrors 52 13");
	line_of(&fx->frame, "sent", row, sizeof(row));
	has_words(row, "sent sender ns-a 44124 21116");
}

/* The receiver's count is unknown live, so is what was lost and the remainder: "unknown",
 * never 0; the remainder's line is there all the same; the receiver's softnet unknown. */
static void test_unknown(void **state)
{
	struct fixture *fx = *state;
	char row[128];

	render(fx, 80, 24);
	line_of(&fx->frame, "received", row, sizeof(row));
	has_words(row, "received receiver ns-b unknown unknown");
	line_of(&fx->frame, "unaccounted", row, sizeof(row));
	has_words(row, "unaccounted unknown unknown");
	line_of(&fx->frame, "backlog", row, sizeof(row));
	has_words(row, "backlog receiver ns-b softnet unknown unknown");
}

/* Stages that saw nothing in the interval or the test fold into one line; the conclusion and
 * every line fit 80x24 and 70x20 (the reduced layout) with nothing cut. */
static void test_fold(void **state)
{
	struct fixture *fx = *state;
	char row[128];

	render(fx, 80, 24);
	line_of(&fx->frame, "0 at:", row, sizeof(row));
	has_words(row, "0 at: driver tx, nic rx, transport");
	assert_int_equal(golden_find(&fx->frame, "driver tx  ", &(int){0}), -1);
	assert_true(golden_find(&fx->frame, "=> loss unknown", &(int){0}) > 0);
	render(fx, 70, 20);
	assert_true(golden_find(&fx->frame, "unaccounted", &(int){0}) > 0);
	assert_true(golden_find(&fx->frame, "=> loss unknown", &(int){0}) > 0);
}

/* The end-of-test ledger: the receiver's count in (17019 lost of 21116: 4097 received), the
 * unaccounted remainder a number, negative here: the stages saw 6 more than were lost. */
static void test_ended(void **state)
{
	struct fixture *fx = *state;
	struct lr_ledger_input in;
	struct lr_ledger end;
	char row[128];

	totals(&in, 2);
	in.lost = 17012 + 13 - 6;
	lr_ledger_build(&in, &end);
	fx->loss.total = &end;
	fx->loss.ended = true;
	render(fx, 80, 24);
	assert_true(golden_find(&fx->frame, "(test ended)", &(int){0}) == 0);
	line_of(&fx->frame, "unaccounted", row, sizeof(row));
	has_words(row, "unaccounted -6");
	line_of(&fx->frame, "received", row, sizeof(row));
	has_words(row, "received receiver ns-b 4097");
}

/* --bidir: each direction its own ledger at 80x24, up over down, both readable. The up one
 * is the tbf run's (this host sent, its qdisc dropped 17012 of the 17019 lost); the down one
 * this host received: 3000 of 10000 lost, its own UDP receive buffer overflowed 3000 times
 * (--no-gso: one datagram an skb), the peer's qdisc dropped none. Each title names its
 * direction and its ends, each stage its host, each conclusion its direction. */
static void test_bidir(void **state)
{
	struct fixture *fx = *state;
	struct lr_ledger_input in;
	static struct lr_ledger up, down;
	char row[128];
	int yu, yd;

	totals(&in, 2);
	in.bidir = true;
	in.lost = 17012 + 13 + 6;
	lr_ledger_build(&in, &up);
	down_ledger(&down);
	fx->loss = (struct lr_view_loss){.total = &up, .sender_local = true, .ended = true,
					 .rev_total = &down};
	render(fx, 80, 24);
	assert_int_equal(fx->frame.clipped, 0);
	yu = line_of(&fx->frame, "Loss ledger up: ns-a -> ns-b", row, sizeof(row));
	yd = line_of(&fx->frame, "Loss ledger down: ns-b -> ns-a", row, sizeof(row));
	assert_true(yu < yd);
	assert_true(line_of(&fx->frame, "qdisc", row, sizeof(row)) < yd);
	has_words(row, "qdisc sender ns-a tbf 8001: 17012");
	line_after(&fx->frame, yd, "transport", row, sizeof(row));
	has_words(row, "transport receiver ns-a UDP RcvbufErrors 3000");
	line_after(&fx->frame, yd, "qdisc", row, sizeof(row));	/* the peer's, none */
	has_words(row, "0 at: socket, qdisc, driver tx, nic rx, backlog; unknown at: ip");
	line_of(&fx->frame, "0 at:", row, sizeof(row));	/* up's: the peer's unknown, not 0 */
	has_words(row, "0 at: driver tx, nic rx, transport; unknown at: backlog, ip");
	assert_true(line_of(&fx->frame, "=> up (client -> server)", row, sizeof(row)) < yd);
	line_after(&fx->frame, yd, "=> down (server -> client): 3000 of 3000", row,
		   sizeof(row));
	/* 70x20, the reduced layout: each half still ends in its remainder and conclusion */
	render(fx, 70, 20);
	yd = line_of(&fx->frame, "Loss ledger down", row, sizeof(row));
	assert_true(line_of(&fx->frame, "unaccounted", row, sizeof(row)) < yd);
	has_words(row, "unaccounted 6");
	assert_true(line_of(&fx->frame, "=> up (client -> server)", row, sizeof(row)) < yd);
	line_after(&fx->frame, yd, "unaccounted", row, sizeof(row));
	line_after(&fx->frame, yd, "=> down (server -> client)", row, sizeof(row));

}

static void test_none(void **state)
{
	struct fixture *fx = *state;

	fx->ctx.loss = NULL;
	render(fx, 80, 24);
	assert_true(golden_find(&fx->frame, "no ledger here", &(int){0}) > 0);
}

static void test_key(void **state)
{
	struct fixture *fx = *state;

	assert_int_equal(lr_ui_key('L'), LR_ACT_LOSS);
	assert_true(lr_ui_handle(&fx->app, LR_ACT_LOSS));
	assert_false(fx->app.loss);
	assert_true(lr_ui_handle(&fx->app, LR_ACT_LOSS));
	assert_true(fx->app.loss);
	fx->app.loss = false;
	fx->app.traffic = false;	/* nothing to show: it says so and stays */
	assert_true(lr_ui_handle(&fx->app, LR_ACT_LOSS));
	assert_false(fx->app.loss);
	assert_non_null(strstr(fx->app.msg, "-c HOST"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_hint_from_the_ledger, setup, teardown),
		cmocka_unit_test_setup_teardown(test_golden_80x24, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stages, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unknown, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fold, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ended, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bidir, setup, teardown),
		cmocka_unit_test_setup_teardown(test_none, setup, teardown),
		cmocka_unit_test_setup_teardown(test_key, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
