// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * TCP_INFO and TCP_CONGESTION of a data socket, read where iperf3 reads them (each report
 * interval's end, and a data socket once the streams run), for -J's snd_cwnd, snd_wnd, rtt,
 * rttvar, pmtu, reorder and the congestion control actually in use; and by the stream threads
 * for their data segments (a TCP stream's packets). The kernel's own header:
 * glibc's struct tcp_info stops before tcpi_snd_wnd and tcpi_reord_seen.
 */
#include <string.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <linux/tcp.h>

#include "linerate/traffic/traffic.h"

#ifndef TCP_CA_NAME_MAX
#define TCP_CA_NAME_MAX 16	/* the kernel's, not exported to user space */
#endif

void lr_tcp_sample_read(int fd, struct lr_tcp_sample *out)
{
	struct tcp_info ti;
	socklen_t sl = sizeof(ti);

	memset(out, 0, sizeof(*out));
	memset(&ti, 0, sizeof(ti));
	if (fd < 0 || getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &sl) < 0)
		return;
	out->valid = true;
	out->snd_cwnd = (uint64_t)ti.tcpi_snd_cwnd * ti.tcpi_snd_mss;	/* iperf3: bytes */
	out->rtt_us = ti.tcpi_rtt;
	out->rttvar_us = ti.tcpi_rttvar;
	out->pmtu = ti.tcpi_pmtu;
	out->retransmits = ti.tcpi_total_retrans;
	/* older kernels fill less: what they did not write stays 0 */
	if (sl >= offsetof(struct tcp_info, tcpi_reord_seen) + sizeof(ti.tcpi_reord_seen))
		out->reorder = ti.tcpi_reord_seen;
	if (sl >= offsetof(struct tcp_info, tcpi_snd_wnd) + sizeof(ti.tcpi_snd_wnd))
		out->snd_wnd = ti.tcpi_snd_wnd;
	if (sl >= offsetof(struct tcp_info, tcpi_data_segs_out) + sizeof(ti.tcpi_data_segs_out)) {
		out->data_segs_out = ti.tcpi_data_segs_out;
		out->data_segs_in = ti.tcpi_data_segs_in;
		out->have_segs = true;
	}
}

void lr_tcp_congestion_read(int fd, char *buf, size_t len)
{
	char ca[TCP_CA_NAME_MAX + 1];
	socklen_t sl = TCP_CA_NAME_MAX;

	if (!len)
		return;
	buf[0] = '\0';
	memset(ca, 0, sizeof(ca));
	if (fd < 0 || getsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, ca, &sl) < 0 || !ca[0])
		return;
	ca[TCP_CA_NAME_MAX] = '\0';
	strncat(buf, ca, len - 1);
}

void lr_tcp_path_add(struct lr_tcp_path *p, const struct lr_tcp_sample *s)
{
	if (!s->valid)
		return;
	if (s->snd_cwnd > p->max_snd_cwnd)
		p->max_snd_cwnd = s->snd_cwnd;
	if (s->snd_wnd > p->max_snd_wnd)
		p->max_snd_wnd = s->snd_wnd;
	if (s->rtt_us > p->max_rtt_us)
		p->max_rtt_us = s->rtt_us;
	if (!p->samples || s->rtt_us < p->min_rtt_us)
		p->min_rtt_us = s->rtt_us;
	p->sum_rtt_us += s->rtt_us;
	p->reorder = s->reorder;
	p->samples++;
}
