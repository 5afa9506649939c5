// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * One traffic stream: lifecycle (open/start/stop/join/close), the thread body and the TCP
 * data path (large paced writes, optional MSG_ZEROCOPY, TCP_INFO sampled a few times a second;
 * reads until EOF). The UDP path lives in stream_udp.c. Each stream thread owns its fd and
 * buffers; other threads see only the atomics in struct lr_stream_stats and the stop flag.
 */
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <linux/errqueue.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include "linerate/core/clock.h"
#include "linerate/core/log.h"
#include "linerate/traffic/traffic.h"
#include "stream_priv.h"

#ifndef SO_ZEROCOPY
#define SO_ZEROCOPY 60
#endif
#ifndef MSG_ZEROCOPY
#define MSG_ZEROCOPY 0x4000000
#endif
#ifndef SO_EE_ORIGIN_ZEROCOPY
#define SO_EE_ORIGIN_ZEROCOPY 5
#endif
#ifndef SO_EE_CODE_ZEROCOPY_COPIED
#define SO_EE_CODE_ZEROCOPY_COPIED 1
#endif

#define relaxed memory_order_relaxed

bool lr_stream_stopping(const struct lr_stream *s)
{
	return atomic_load_explicit(&s->stop, relaxed);
}

void lr_stream_fail(struct lr_stream *s, int err)
{
	atomic_store(&s->err, err);
	/* the session that owns the stream reports it, in its own words */
	lr_log(LR_LOG_INFO, "stream %d: %s", s->p.id, strerror(-err));
}

/* Applies a rate change made by lr_stream_set_rate to the thread's own pacer. */
void lr_stream_pace_refresh(struct lr_stream *s, uint64_t now_ns)
{
	uint32_t gen = atomic_load_explicit(&s->rate_gen, memory_order_acquire);

	if (gen == s->rate_gen_seen)
		return;
	s->rate_gen_seen = gen;
	lr_pacer_set_rate(&s->pacer, atomic_load_explicit(&s->rate_bps, relaxed), now_ns);
}

/* Data buffers start on a page boundary, as iperf3's mmap'd ones do. A plain malloc of 128 KiB
 * comes back 16 bytes into a page, and on this kind of host (AMD EPYC VM, kernel copies with rep
 * movsb) that offset against the socket's page fragments halved single-stream TCP: 12.5 against
 * 24 Gbit/s received over veth, median of 5 (bench/RESULTS.md, issue 4).
 * Mapped, not malloc'd: freeing a 1 MiB malloc'd block raises glibc's mmap threshold, the next
 * tests' buffers then come from a thread's arena and stay resident after they are freed, and a
 * matrix of UDP cases grew by 1 MiB steps (make soak). A mapping goes back whole. */
void *lr_stream_buf_alloc(size_t len)
{
	void *p = mmap(NULL, len ? len : 1, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		       -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

void lr_stream_buf_free(void *buf, size_t len)
{
	if (buf)
		munmap(buf, len ? len : 1);
}

int lr_stream_sock_window(int fd, uint64_t bytes)
{
	int v = bytes > INT_MAX ? INT_MAX : (int)bytes;

	if (setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &v, sizeof(v)) < 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &v, sizeof(v)) < 0)
		return -errno;
	return 0;
}

static void fill_pattern(uint8_t *buf, size_t len, bool repeating)
{
	uint32_t x = 0x9e3779b9u; /* deterministic filler: runs compare byte for byte */
	size_t i;

	if (repeating) {	/* iperf3's --repeating-payload */
		for (i = 0; i < len; i++)
			buf[i] = (uint8_t)('0' + i % 10);
		return;
	}
	for (i = 0; i < len; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		buf[i] = (uint8_t)x;
	}
}

static int set_timeouts(int fd)
{
	struct timeval tv = {.tv_sec = 0, .tv_usec = LR_STREAM_TIMEO_US};
	int fl = fcntl(fd, F_GETFL);

	if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0)
		return -errno;
	if (setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) < 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)) < 0)
		return -errno;
	return 0;
}

/* The other zero-copy: the pattern in a memfd, sent with sendfile() (iperf3 -Z does this with
 * a file). Pages are referenced, not copied, on any route. */
static bool sendfile_setup(struct lr_stream *s)
{
	int fd = memfd_create("linerate-stream", MFD_CLOEXEC);
	size_t done = 0;

	if (fd < 0)
		return false;
	while (done < s->buf_len) {
		ssize_t n = write(fd, s->buf + done, s->buf_len - done);

		if (n <= 0) {
			close(fd);
			return false;
		}
		done += (size_t)n;
	}
	s->sf_fd = fd;
	atomic_store(&s->path, "tcp sendfile");
	return true;
}

size_t lr_stream_tcp_read_len(size_t len, unsigned receivers)
{
	size_t want = LR_TCP_RX_BUDGET / (receivers ? receivers : 1);

	if (want > LR_TCP_RX_MAX)
		want = LR_TCP_RX_MAX;
	return want > len ? want : len;
}

static int tcp_setup(struct lr_stream *s)
{
	s->buf_len = !s->p.sender && s->p.rx_len > s->p.len ? s->p.rx_len : s->p.len;
	s->buf = lr_stream_buf_alloc(s->buf_len);
	if (!s->buf)
		return -ENOMEM;
	fill_pattern(s->buf, s->buf_len, s->p.repeating_payload);
	atomic_store(&s->path, "tcp");
	if (s->p.file) {	/* the file's bytes themselves: no zero-copy pattern, no MSG_TRUNC */
		s->file_fd = open(s->p.file, s->p.sender ? O_RDONLY : O_WRONLY | O_CREAT | O_TRUNC,
				  S_IRUSR | S_IWUSR);
		if (s->file_fd < 0)
			return -errno;
		s->p.zerocopy = false;
		s->p.skip_rx_copy = false;
		atomic_store(&s->path, "tcp file");
	}
	if (s->p.sender && s->p.zerocopy) {
		int one = 1, zc_err;

		if (setsockopt(s->p.fd, SOL_SOCKET, SO_ZEROCOPY, &one, sizeof(one)) == 0) {
			s->zc = true;
			atomic_store(&s->path, "tcp zerocopy");
			return 0;
		}
		zc_err = errno;
		if (sendfile_setup(s))
			lr_log(LR_LOG_INFO, "stream %d: no MSG_ZEROCOPY (%s), sendfile", s->p.id,
			       strerror(zc_err));
		else
			lr_log(LR_LOG_INFO, "stream %d: no MSG_ZEROCOPY nor memfd, plain writes",
			       s->p.id);
	}
	return 0;
}

int lr_stream_open(struct lr_stream **out, const struct lr_stream_params *p)
{
	struct lr_stream *s;
	int err;

	if (p->fd < 0)
		return -EBADF;
	if (!p->rr_req_bytes &&
	    (!p->len || (p->udp && (p->len < LR_UDP_MIN_LEN || p->len > LR_UDP_MAX_LEN)) ||
	     p->len > (64u << 20))) {
		err = -EINVAL;
		goto err_fd;
	}
	s = calloc(1, sizeof(*s));
	if (!s) {
		err = -ENOMEM;
		goto err_fd;
	}
	s->p = *p;
	s->sf_fd = -1;
	s->file_fd = -1;
	atomic_init(&s->stop, false);
	atomic_init(&s->file_done, false);
	atomic_init(&s->rate_bps, p->rate_bps);
	lr_stream_stats_set_target(&s->st, p->rate_bps);
	/* the stream's constant facts for --streams-csv, before anyone can see the stream */
	atomic_store_explicit(&s->st.length, p->len, relaxed);
	if (!p->udp) {
		char cc[32];

		lr_tcp_congestion_read(p->fd, cc, sizeof(cc));
		lr_stream_stats_set_congestion(&s->st, cc);
	}
	atomic_init(&s->rate_gen, 0);
	atomic_init(&s->err, 0);
	atomic_init(&s->omit_gen, 0);
	err = set_timeouts(p->fd);
	if (err < 0)
		goto err_free;
	err = p->rr_req_bytes ? lr_stream_rr_setup(s) : p->udp ? lr_stream_udp_setup(s)
							       : tcp_setup(s);
	if (err < 0)
		goto err_free;
	*out = s;
	return 0;
err_free:
	if (s->sf_fd >= 0)
		close(s->sf_fd);
	if (s->file_fd >= 0)
		close(s->file_fd);
	free(s->msgs);
	free(s->iov);
	free(s->ctrl);
	lr_stream_buf_free(s->buf, s->buf_len);
	free(s);
err_fd:
	close(p->fd);
	return err;
}

/* Where a TCP stream's packets count from, taken as it starts (lr_stream_start), where its
 * bytes do: the data connection's cookie, sent before, is not the stream's. */
static void tcp_segs_base(struct lr_stream *s)
{
	struct lr_tcp_sample ts;

	lr_tcp_sample_read(s->p.fd, &ts);
	s->segs_seen = s->p.sender ? ts.data_segs_out : ts.data_segs_in;
	/* no count is no count: never the write() calls, never a 0 that reads as none sent */
	atomic_store_explicit(&s->st.packets_unknown, !ts.have_segs, relaxed);
}

/* TCP_INFO of the data socket: a sender's retransmits, cwnd and RTT, and either end's packets:
 * the data segments it sent (tcpi_data_segs_out) or received (tcpi_data_segs_in), counted per
 * segment whatever TSO, GSO or GRO made of the skbs, as a capture would see them. The kernel's
 * count is 32 bits: the stream adds its deltas, read often enough never to lap it, from the
 * baseline tcp_segs_base took. */
static void tcp_sample_info(struct lr_stream *s)
{
	struct lr_tcp_sample ts;

	lr_tcp_sample_read(s->p.fd, &ts);
	if (!ts.valid)
		return;
	if (ts.have_segs) {
		uint32_t segs = s->p.sender ? ts.data_segs_out : ts.data_segs_in;

		atomic_fetch_add_explicit(&s->st.packets, (uint32_t)(segs - s->segs_seen), relaxed);
		s->segs_seen = segs;
	}
	if (!s->p.sender)
		return;
	atomic_store_explicit(&s->st.retransmits, ts.retransmits, relaxed);
	atomic_store_explicit(&s->st.cwnd_bytes, ts.snd_cwnd, relaxed);
	atomic_store_explicit(&s->st.rtt_us, ts.rtt_us, relaxed);
}

/* Drains MSG_ZEROCOPY completions; the buffer is never rewritten, so they only need reaping
 * (an unreaped error queue ends in ENOBUFS). When the kernel says it copied anyway (loopback,
 * veth, devices without scatter-gather), zero-copy only adds work: switch it off. */
static void zc_reap(struct lr_stream *s)
{
	bool copied = false;

	char control[128];

	for (;;) {
		struct msghdr msg = {.msg_control = control, .msg_controllen = sizeof(control)};
		struct cmsghdr *cm;

		if (recvmsg(s->p.fd, &msg, MSG_ERRQUEUE | MSG_DONTWAIT) < 0)
			return;
		for (cm = CMSG_FIRSTHDR(&msg); cm; cm = CMSG_NXTHDR(&msg, cm)) {
			struct sock_extended_err ee;

			if (cm->cmsg_len < CMSG_LEN(sizeof(ee)))
				continue;
			memcpy(&ee, CMSG_DATA(cm), sizeof(ee));
			if (ee.ee_origin != SO_EE_ORIGIN_ZEROCOPY)
				continue;
			uint32_t n = ee.ee_data - ee.ee_info + 1;

			s->zc_pending = n > s->zc_pending ? 0 : s->zc_pending - n;
			copied |= (ee.ee_code & SO_EE_CODE_ZEROCOPY_COPIED) != 0;
		}
		if (copied && s->zc) {
			s->zc = false;
			if (!sendfile_setup(s))
				atomic_store(&s->path, "tcp");
			lr_log(LR_LOG_INFO,
			       "stream %d: the kernel copies MSG_ZEROCOPY sends on this "
			       "route, %s instead",
			       s->p.id, lr_stream_path(s));
		}
	}
}

static void tcp_send_loop(struct lr_stream *s)
{
	uint64_t now = lr_clock_mono_ns(), next_info = now;
	bool zc_sent = false, counted = true; /* false once -n/-k is reached */
	bool have_block = false; /* the block being sent was taken from -n/-k's count */
	size_t off = 0, blk = s->buf_len; /* blk: this block's bytes (-F: what the file gave) */

	while (!lr_stream_stopping(s)) {
		int flags = MSG_NOSIGNAL | (s->zc ? MSG_ZEROCOPY : 0);
		ssize_t n;

		lr_stream_pace_refresh(s, now);
		if (off == 0 && !have_block && counted) {
			/* -n/-k: a whole block at a time, or the count is reached: the session
			 * ends the test; wait for its stop */
			have_block = lr_stream_count_take(s, 1, s->buf_len) == 1;
			counted = have_block;
			if (counted && s->file_fd >= 0) {	/* the file's end is -n's */
				ssize_t r = read(s->file_fd, s->buf, s->buf_len);

				if (r < 0) {
					lr_stream_fail(s, -errno);
					break;
				}
				blk = (size_t)r;
				counted = r > 0;
				if (!r)	/* a whole number of blocks: this read found the end */
					atomic_store(&s->file_done, true);
			}
		}
		if (!counted) {
			lr_pacer_wait(now + LR_STREAM_SLICE_NS, 0, &s->stop, NULL, 0);
			now = lr_clock_mono_ns();
			continue;
		}
		if (off == 0 && s->pacer.rate_bps && !s->burst_left) {
			/* -b RATE/BURST: the whole burst is charged and waited for at its start;
			 * its blocks then leave back to back */
			uint64_t at;

			s->burst_left = s->p.burst ? s->p.burst : 1;
			at = lr_pacer_reserve(&s->pacer, now, s->burst_left * s->buf_len);

			/* a stop that came while it waited wins over the block now due: the
			 * peer's count ended there (iperf3 -R sends nothing after TEST_END) */
			if (at > now) {
				lr_pacer_wait(at, LR_STREAM_SLICE_NS, &s->stop, &s->rate_gen,
					      s->rate_gen_seen);
				if (lr_stream_stopping(s))
					break;
			}
		}
		if (s->sf_fd >= 0) {
			off_t o = (off_t)off;

			n = sendfile(s->p.fd, s->sf_fd, &o, s->buf_len - off);
		} else {
			n = send(s->p.fd, s->buf + off, blk - off, flags);
		}
		now = lr_clock_mono_ns();
		if (n > 0) {
			atomic_fetch_add_explicit(&s->st.bytes, (uint64_t)n, relaxed);
			atomic_store_explicit(&s->st.last_ns, now, relaxed);
			lr_stream_note_cpu(s);
			off = (off + (size_t)n) % blk;
			/* -F: a short block was the file's last: its end is the stream's (an
			 * iperf3 receiver reads whole blocks: a short one only at EOF) */
			if (!off && s->file_fd >= 0 && blk < s->buf_len) {
				shutdown(s->p.fd, SHUT_WR);
				atomic_store(&s->file_done, true);
			}
			if (!off) {
				have_block = false;
				if (s->burst_left)
					s->burst_left--;
			}
			if (s->zc) {
				zc_sent = true;
				if (++s->zc_pending >= 64)
					zc_reap(s);
			}
		} else if (n < 0 && errno == ENOBUFS && s->zc) {
			zc_reap(s);
		} else if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
			/* SO_SNDTIMEO expired: re-check stop */
		} else if (n < 0) {
			lr_stream_fail(s, -errno);
			break;
		}
		if (now >= next_info) {
			tcp_sample_info(s);
			next_info = now + LR_TCP_INFO_EVERY_NS;
		}
	}
	tcp_sample_info(s);
	if (zc_sent)
		zc_reap(s);
}

/* -F: all of it, or -errno (iperf3 ignores a short write; a file left short is not the test) */
static int write_all(int fd, const uint8_t *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -errno;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

static void tcp_recv_loop(struct lr_stream *s)
{
	uint64_t next_info = 0;

	while (!lr_stream_stopping(s)) {
		/* --skip-rx-copy: TCP's MSG_TRUNC consumes the bytes without copying them */
		ssize_t n = recv(s->p.fd, s->buf, s->buf_len, s->p.skip_rx_copy ? MSG_TRUNC : 0);
		uint64_t now = lr_clock_mono_ns();

		if (n > 0) {
			s->last_rx_ns = now;
			atomic_store_explicit(&s->st.last_ns, s->last_rx_ns, relaxed);
			lr_stream_note_cpu(s);
			atomic_fetch_add_explicit(&s->st.bytes, (uint64_t)n, relaxed);
			if (s->file_fd >= 0 && write_all(s->file_fd, s->buf, (size_t)n) < 0) {
				lr_stream_fail(s, -errno);
				break;
			}
		} else if (n == 0) {
			break; /* peer closed: the stream ends by itself */
		} else if (errno != EAGAIN && errno != EINTR) {
			lr_stream_fail(s, -errno);
			break;
		}
		if (now >= next_info) {
			tcp_sample_info(s);
			next_info = now + LR_TCP_INFO_EVERY_NS;
		}
	}
	tcp_sample_info(s);
}

static void *stream_main(void *arg)
{
	struct lr_stream *s = arg;
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	/* The default 50 us timer slack would stretch the UDP receiver's naps and the pacer's
	 * short waits by up to half their length again. */
	prctl(PR_SET_TIMERSLACK, 1000UL, 0UL, 0UL, 0UL);
	{	/* named, so that ps/top -H (and the -A tests) can tell stream threads apart */
		char name[16];

		snprintf(name, sizeof(name), "lr-stream-%d", s->p.id);
		prctl(PR_SET_NAME, name, 0UL, 0UL, 0UL);
	}
	if (s->p.pin_set) {	/* -A node:N */
		int rc = pthread_setaffinity_np(pthread_self(), sizeof(s->p.cpus), &s->p.cpus);

		if (rc)
			lr_log(LR_LOG_WARN, "stream %d: cannot pin to its node's CPUs: %s",
			       s->p.id, strerror(rc));
	} else if (s->p.cpu >= 0) {
		cpu_set_t cpus;
		int rc;

		CPU_ZERO(&cpus);
		CPU_SET(s->p.cpu, &cpus);
		rc = pthread_setaffinity_np(pthread_self(), sizeof(cpus), &cpus);
		if (rc)
			lr_log(LR_LOG_WARN, "stream %d: cannot pin to cpu %d: %s", s->p.id,
			       s->p.cpu, strerror(rc));
	}
	lr_pacer_init(&s->pacer, atomic_load(&s->rate_bps), lr_clock_mono_ns());
	s->rate_gen_seen = atomic_load(&s->rate_gen);
	if (s->p.rr_req_bytes)
		lr_stream_rr_loop(s);
	else if (s->p.udp && s->p.sender)
		lr_stream_udp_send_loop(s);
	else if (s->p.udp)
		lr_stream_udp_recv_loop(s);
	else if (s->p.sender)
		tcp_send_loop(s);
	else
		tcp_recv_loop(s);
	atomic_store_explicit(&s->st.end_ns,
			      !s->p.sender && s->last_rx_ns ? s->last_rx_ns : lr_clock_mono_ns(),
			      memory_order_release);
	return NULL;
}

int lr_stream_start(struct lr_stream *s)
{
	sigset_t set, old;
	int rc;

	if (s->started)
		return -EALREADY;
	if (s->p.cpu >= CPU_SETSIZE)
		return -EINVAL;
	/* The thread is born with the signals blocked: no window where it could take one. */
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &set, &old);
	if (!s->p.udp)
		tcp_segs_base(s);
	atomic_store(&s->st.start_ns, lr_clock_mono_ns());
	rc = pthread_create(&s->thread, NULL, stream_main, s);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc) {
		atomic_store(&s->st.start_ns, 0);
		return -rc;
	}
	s->started = true;
	return 0;
}

void lr_stream_set_rate(struct lr_stream *s, uint64_t rate_bps)
{
	atomic_store_explicit(&s->rate_bps, rate_bps, relaxed);
	lr_stream_stats_set_target(&s->st, rate_bps);
	atomic_fetch_add_explicit(&s->rate_gen, 1, memory_order_release);
}

void lr_stream_share_count(struct lr_stream *s, _Atomic uint64_t *taken, uint64_t limit)
{
	s->count_taken = limit ? taken : NULL;
	s->count_limit = limit;
}

size_t lr_stream_count_take(struct lr_stream *s, size_t want, size_t unit)
{
	uint64_t done, left;

	if (s->count_taken) {
		uint64_t cur = atomic_load_explicit(s->count_taken, relaxed);
		uint64_t next;
		size_t grant;

		do {
			if (cur >= s->count_limit)
				return 0;
			left = (s->count_limit - cur + unit - 1) / unit;
			grant = left < want ? (size_t)left : want;
			next = cur + (uint64_t)grant * unit;
		} while (!atomic_compare_exchange_weak_explicit(s->count_taken, &cur, next, relaxed,
								relaxed));
		return grant;
	}
	if (!s->p.max_bytes)
		return want;
	done = atomic_load_explicit(&s->st.bytes, relaxed);
	left = done < s->p.max_bytes ? (s->p.max_bytes - done + unit - 1) / unit : 0;
	return left < want ? (size_t)left : want;
}

void lr_stream_count_unsent(struct lr_stream *s, size_t n, size_t unit)
{
	if (s->count_taken && n)
		atomic_fetch_sub_explicit(s->count_taken, (uint64_t)n * unit, relaxed);
}

void lr_stream_omit_mark(struct lr_stream *s)
{
	atomic_fetch_add_explicit(&s->omit_gen, 1, memory_order_release);
}

void lr_stream_stop(struct lr_stream *s)
{
	atomic_store(&s->stop, true);
}

void lr_stream_join(struct lr_stream *s)
{
	if (!s->started || s->joined)
		return;
	pthread_join(s->thread, NULL);
	s->joined = true;
}

void lr_stream_close(struct lr_stream *s)
{
	if (!s)
		return;
	if (s->started && !s->joined) {
		lr_stream_stop(s);
		lr_stream_join(s);
	}
	close(s->p.fd);
	if (s->sf_fd >= 0)
		close(s->sf_fd);
	if (s->file_fd >= 0)
		close(s->file_fd);
	free(s->msgs);
	free(s->iov);
	free(s->ctrl);
	lr_stream_buf_free(s->buf, s->buf_len);
	free(s);
}

const struct lr_stream_stats *lr_stream_stats(const struct lr_stream *s)
{
	return &s->st;
}

const struct lr_stream_params *lr_stream_params(const struct lr_stream *s)
{
	return &s->p;
}

const char *lr_stream_path(const struct lr_stream *s)
{
	return atomic_load(&s->path);
}

int lr_stream_error(const struct lr_stream *s)
{
	return atomic_load(&s->err);
}

bool lr_stream_file_done(const struct lr_stream *s)
{
	return atomic_load(&s->file_done);
}
