// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The Prometheus endpoint: libmicrohttpd with one internal epoll thread, on a socket bound
 * here (so a port in use is our one-line error, not the library's log). The run loop feeds
 * every snapshot to the exporter under a mutex; a scrape renders under the same mutex and
 * sends outside it, so a slow client holds nothing but its own connection. Only GET/HEAD of
 * /metrics and /; connection count, per-address count, idle time and request size are
 * bounded. At either connection bound a new connection closes the least recently active
 * one that is not being answered (an idle keep-alive or a half-sent request) instead of
 * being refused, so a local process holding connections cannot lock a scraper on the same
 * address out for the idle timeout (docs/design.md §13). Until the first snapshot a scrape
 * waits for it (LR_METRICS_FIRST_WAIT_MS at most, then 503): never an empty exposition.
 */
#include <dlfcn.h>
#include <errno.h>
#include <microhttpd.h>
#include <netdb.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <sys/socket.h>
#include <time.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "linerate/run/metrics_http.h"
#include "linerate/core/log.h"
#include "linerate/core/strutil.h"
#include "linerate/core/exporter.h"

/* libmicrohttpd is loaded when an endpoint opens, not at start: through it come gnutls, p11-kit,
 * nettle and their helpers (about 2.4 MB resident, and gnutls's constructor reading the system's
 * crypto policy) that a run without --listen never uses (issue 33: peak RSS). Never unloaded:
 * the daemon's thread runs its code. Its soname has been .12 since 0.9.x. */
#define MHD_SONAME "libmicrohttpd.so.12"

static struct {
	__typeof__(&MHD_start_daemon) start_daemon;
	__typeof__(&MHD_stop_daemon) stop_daemon;
	__typeof__(&MHD_create_response_from_buffer) create_response_from_buffer;
	__typeof__(&MHD_add_response_header) add_response_header;
	__typeof__(&MHD_queue_response) queue_response;
	__typeof__(&MHD_destroy_response) destroy_response;
	__typeof__(&MHD_get_connection_info) get_connection_info;
	__typeof__(&MHD_lookup_connection_value) lookup_connection_value;
} mhd;
static pthread_once_t mhd_once = PTHREAD_ONCE_INIT;
static char mhd_error[256];

static bool mhd_ok;

/* false (mhd_error says why) when the library or one of its functions is missing */
#define MHD_SYM(field, name)                                                          \
	do {                                                                          \
		mhd.field = (__typeof__(mhd.field))dlsym(h, name);                    \
		if (!mhd.field) {                                                     \
			snprintf(mhd_error, sizeof(mhd_error), "%s: no %s", MHD_SONAME, name); \
			return;                                                       \
		}                                                                     \
	} while (0)

static void mhd_load(void)
{
	void *h = dlopen(MHD_SONAME, RTLD_NOW | RTLD_LOCAL);

	if (!h) {
		snprintf(mhd_error, sizeof(mhd_error), "%s", dlerror());
		return;
	}
	MHD_SYM(start_daemon, "MHD_start_daemon");
	MHD_SYM(stop_daemon, "MHD_stop_daemon");
	MHD_SYM(create_response_from_buffer, "MHD_create_response_from_buffer");
	MHD_SYM(add_response_header, "MHD_add_response_header");
	MHD_SYM(queue_response, "MHD_queue_response");
	MHD_SYM(destroy_response, "MHD_destroy_response");
	MHD_SYM(get_connection_info, "MHD_get_connection_info");
	MHD_SYM(lookup_connection_value, "MHD_lookup_connection_value");
	mhd_ok = true;
}

/* One open connection. Only the daemon's thread touches these (every MHD callback runs on
 * it), so the list takes no lock. */
struct conn {
	struct conn *prev, *next;	/* m->conns: least recently active first */
	struct sockaddr_storage addr;	/* the client's; port ignored when compared */
	int fd;
	bool busy;	/* a request read whole, its answer not yet sent: never evicted */
	bool evicted;	/* shut down, closing: no longer counted */
};

struct lr_metrics_http {
	struct MHD_Daemon *daemon;
	pthread_mutex_t lock;	/* guards exp, have_sample and closing */
	pthread_cond_t sampled;	/* signalled by the first publish and by close */
	bool have_sample, closing;
	struct lr_exporter exp;	/* owned: closed with the endpoint */
	atomic_ulong scrapes;
	struct conn *head, *tail;	/* the daemon thread's */
	unsigned n_conns;	/* in the list and not evicted */
};

static const char index_page[] =
	"<!DOCTYPE html>\n<html><head><title>linerate</title></head><body>\n"
	"<h1>linerate</h1>\n<p><a href=\"/metrics\">Metrics</a></p>\n</body></html>\n";

static int bad_value(const char *spec, char *err, size_t errlen)
{
	snprintf(err, errlen,
		 "--listen: invalid value '%s' ([ADDR:]PORT, e.g. 9100, 0.0.0.0:9100, [::]:9100)",
		 spec);
	return -EINVAL;
}

int lr_metrics_listen_parse(const char *spec, struct sockaddr_storage *addr, socklen_t *len,
			    char *err, size_t errlen)
{
	char host[256] = "";
	const char *port = spec, *colon;
	struct addrinfo hints = {.ai_socktype = SOCK_STREAM, .ai_flags = AI_NUMERICSERV};
	struct addrinfo *res = NULL;
	uint64_t p;
	bool any = false;

	if (spec[0] == '[') {	/* [IPv6]:PORT */
		const char *close = strchr(spec, ']');

		if (!close || close[1] != ':' || (size_t)(close - spec - 1) >= sizeof(host))
			return bad_value(spec, err, errlen);
		memcpy(host, spec + 1, (size_t)(close - spec - 1));
		host[close - spec - 1] = '\0';
		port = close + 2;
		hints.ai_flags |= AI_NUMERICHOST;
		hints.ai_family = AF_INET6;
	} else if ((colon = strrchr(spec, ':')) != NULL) {
		if (strchr(spec, ':') != colon || (size_t)(colon - spec) >= sizeof(host))
			return bad_value(spec, err, errlen);	/* IPv6 goes in brackets */
		memcpy(host, spec, (size_t)(colon - spec));
		host[colon - spec] = '\0';
		port = colon + 1;
		hints.ai_family = AF_INET;
	} else {
		lr_strlcpy(host, "127.0.0.1", sizeof(host));	/* PORT alone: this host only */
	}
	if (lr_parse_u64(port, &p) || p < 1 || p > 65535)
		return bad_value(spec, err, errlen);
	if (!host[0] || !strcmp(host, "*")) {	/* ":PORT": every address, both families */
		lr_strlcpy(host, "::", sizeof(host));
		hints.ai_family = AF_INET6;
		any = true;
	}
	if (!any && hints.ai_family == AF_INET && !strchr(host, '.'))
		hints.ai_family = AF_UNSPEC;	/* a host name: whatever it resolves to */
	if (getaddrinfo(host, port, &hints, &res) || !res) {
		if (res)
			freeaddrinfo(res);
		return bad_value(spec, err, errlen);
	}
	memcpy(addr, res->ai_addr, res->ai_addrlen);
	*len = res->ai_addrlen;
	freeaddrinfo(res);
	return 0;
}

/* Bound and listening, or -errno with the reason in err. */
static int bind_socket(const char *spec, const struct sockaddr_storage *a, socklen_t len,
		       char *err, size_t errlen)
{
	int one = 1, fd = socket(a->ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0) {
		int e = errno;

		snprintf(err, errlen, "--listen %s: %s", spec, strerror(e));
		return -e;
	}
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));	/* TIME_WAIT only */
	if (a->ss_family == AF_INET6) {
		const struct sockaddr_in6 *s6 = (const struct sockaddr_in6 *)a;
		/* the wildcard serves IPv4 too; a given IPv6 address only itself */
		int v6only = !IN6_IS_ADDR_UNSPECIFIED(&s6->sin6_addr);

		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &v6only, sizeof(v6only));
	}
	/* a backlog of the connection bound: a burst of connects (a flood, then the scraper) is
	 * not left to SYN retransmits (1 s, then 3 s) while the daemon catches up */
	if (bind(fd, (const struct sockaddr *)a, len) || listen(fd, LR_METRICS_MAX_CONNS)) {
		int e = errno;

		snprintf(err, errlen, "--listen %s: %s", spec, strerror(e));
		close(fd);
		return -e;
	}
	return fd;
}

static enum MHD_Result reply(struct MHD_Connection *c, unsigned status, const char *type,
			     void *body, size_t len, enum MHD_ResponseMemoryMode mode,
			     const char *allow)
{
	struct MHD_Response *r = mhd.create_response_from_buffer(len, body, mode);
	enum MHD_Result ret;

	if (!r) {
		if (mode == MHD_RESPMEM_MUST_FREE)
			free(body);
		return MHD_NO;	/* closes the connection */
	}
	mhd.add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	mhd.add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
	if (allow)
		mhd.add_response_header(r, MHD_HTTP_HEADER_ALLOW, allow);
	ret = mhd.queue_response(c, status, r);
	mhd.destroy_response(r);
	return ret;
}

static enum MHD_Result text_reply(struct MHD_Connection *c, unsigned status, const char *msg,
				  const char *allow)
{
	return reply(c, status, "text/plain; charset=utf-8", (void *)msg, strlen(msg),
		     MHD_RESPMEM_PERSISTENT, allow);
}

static bool same_addr(const struct sockaddr_storage *a, const struct sockaddr *b)
{
	if (a->ss_family != b->sa_family)
		return false;
	if (b->sa_family == AF_INET)
		return ((const struct sockaddr_in *)a)->sin_addr.s_addr ==
		       ((const struct sockaddr_in *)b)->sin_addr.s_addr;
	if (b->sa_family == AF_INET6)
		return !memcmp(&((const struct sockaddr_in6 *)a)->sin6_addr,
			       &((const struct sockaddr_in6 *)b)->sin6_addr, sizeof(struct in6_addr));
	return false;
}

static void unlink_conn(struct lr_metrics_http *m, struct conn *k)
{
	*(k->prev ? &k->prev->next : &m->head) = k->next;
	*(k->next ? &k->next->prev : &m->tail) = k->prev;
	k->prev = k->next = NULL;
}

static void append_conn(struct lr_metrics_http *m, struct conn *k)
{
	k->prev = m->tail;
	*(m->tail ? &m->tail->next : &m->head) = k;
	m->tail = k;
}

/* Closes the least recently active connection not being answered, from addr only when it is
 * not NULL. shutdown(), not close(): the daemon still owns the fd and closes it when it sees
 * the end (one loop later), which calls on_conn(CLOSED). false: every one is busy. */
static bool evict_oldest(struct lr_metrics_http *m, const struct sockaddr *addr)
{
	for (struct conn *k = m->head; k; k = k->next) {
		if (k->busy || k->evicted || (addr && !same_addr(&k->addr, addr)))
			continue;
		shutdown(k->fd, SHUT_RDWR);
		k->evicted = true;
		m->n_conns--;
		return true;
	}
	return false;
}

/* A new connection at either bound makes room (the per-address one first) or is refused. */
static enum MHD_Result on_accept(void *cls, const struct sockaddr *addr, socklen_t len)
{
	struct lr_metrics_http *m = cls;
	unsigned same = 0;

	(void)len;
	for (struct conn *k = m->head; k; k = k->next)
		same += !k->evicted && same_addr(&k->addr, addr);
	if (same >= LR_METRICS_MAX_PER_IP && !evict_oldest(m, addr))
		return MHD_NO;
	if (m->n_conns >= LR_METRICS_MAX_CONNS && !evict_oldest(m, NULL))
		return MHD_NO;
	return MHD_YES;
}

static void on_conn(void *cls, struct MHD_Connection *c, void **ctx,
		    enum MHD_ConnectionNotificationCode what)
{
	struct lr_metrics_http *m = cls;
	struct conn *k = *ctx;
	const union MHD_ConnectionInfo *fd, *ad;

	if (what == MHD_CONNECTION_NOTIFY_CLOSED) {
		if (!k)
			return;
		if (!k->evicted)
			m->n_conns--;
		unlink_conn(m, k);
		free(k);
		*ctx = NULL;
		return;
	}
	fd = mhd.get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
	ad = mhd.get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
	k = calloc(1, sizeof(*k));
	if (!k || !fd || !ad) {	/* untracked would escape the bounds: closed at once */
		free(k);
		if (fd)
			shutdown(fd->connect_fd, SHUT_RDWR);
		return;
	}
	k->fd = fd->connect_fd;
	memcpy(&k->addr, ad->client_addr, ad->client_addr->sa_family == AF_INET6 ?
			 sizeof(struct sockaddr_in6) : sizeof(struct sockaddr_in));
	append_conn(m, k);
	m->n_conns++;
	*ctx = k;
}

static struct conn *conn_of(struct MHD_Connection *c)
{
	const union MHD_ConnectionInfo *i =
		mhd.get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);

	return i ? i->socket_context : NULL;
}

/* A request answered (or abandoned): its connection is the most recently active. */
static void on_done(void *cls, struct MHD_Connection *c, void **req,
		    enum MHD_RequestTerminationCode why)
{
	struct lr_metrics_http *m = cls;
	struct conn *k = conn_of(c);

	(void)req;
	(void)why;
	if (!k || !k->busy)
		return;
	k->busy = false;
	unlink_conn(m, k);
	append_conn(m, k);
}

/* Waits (LR_METRICS_FIRST_WAIT_MS at most) for the first snapshot; called with m->lock held.
 * Blocks the daemon's one thread, so only ever before the first sample. */
static bool wait_first_sample(struct lr_metrics_http *m)
{
	struct timespec until;

	if (m->have_sample)
		return true;
	clock_gettime(CLOCK_MONOTONIC, &until);
	until.tv_sec += LR_METRICS_FIRST_WAIT_MS / 1000;
	until.tv_nsec += (long)(LR_METRICS_FIRST_WAIT_MS % 1000) * 1000000L;
	if (until.tv_nsec >= 1000000000L) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000L;
	}
	while (!m->have_sample && !m->closing)
		if (pthread_cond_timedwait(&m->sampled, &m->lock, &until) == ETIMEDOUT)
			break;
	return m->have_sample;
}

static enum MHD_Result scrape(struct lr_metrics_http *m, struct MHD_Connection *c)
{
	const char *accept = mhd.lookup_connection_value(c, MHD_HEADER_KIND, "Accept");
	struct lr_exporter_body b = {0};
	int err;

	pthread_mutex_lock(&m->lock);
	if (!wait_first_sample(m)) {
		pthread_mutex_unlock(&m->lock);
		return text_reply(c, MHD_HTTP_SERVICE_UNAVAILABLE, "503 no sample yet\n", NULL);
	}
	err = m->exp.ops->render(m->exp.ctx, accept, &b);
	pthread_mutex_unlock(&m->lock);
	if (err) {
		free(b.p);
		return text_reply(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory\n", NULL);
	}
	atomic_fetch_add(&m->scrapes, 1);
	/* MHD frees the text with free() once sent (an empty page has no buffer at all) */
	return reply(c, MHD_HTTP_OK, b.content_type, b.p ? b.p : (void *)"", b.len,
		     b.p ? MHD_RESPMEM_MUST_FREE : MHD_RESPMEM_PERSISTENT, NULL);
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url,
				  const char *method, const char *version, const char *upload,
				  size_t *upload_len, void **req)
{
	static int started;
	bool get = !strcmp(method, MHD_HTTP_METHOD_GET) || !strcmp(method, MHD_HTTP_METHOD_HEAD);

	if (!get)	/* answered at once: the body is never read, the connection closes */
		return text_reply(c, MHD_HTTP_METHOD_NOT_ALLOWED,
				  "405 method not allowed: GET /metrics\n", "GET, HEAD");
	if (!*req) {	/* headers read: answer once the request is complete (keep-alive) */
		struct conn *k = conn_of(c);

		if (k)
			k->busy = true;
		*req = &started;
		return MHD_YES;
	}
	if (*upload_len) {	/* a GET with a body: discarded */
		*upload_len = 0;
		return MHD_YES;
	}
	if (!strcmp(url, "/metrics"))
		return scrape(cls, c);
	if (!strcmp(url, "/"))
		return reply(c, MHD_HTTP_OK, "text/html; charset=utf-8", (void *)index_page,
			     sizeof(index_page) - 1, MHD_RESPMEM_PERSISTENT, NULL);
	return text_reply(c, MHD_HTTP_NOT_FOUND, "404 not found: try /metrics\n", NULL);
}

static void on_log(void *cls, const char *fmt, va_list ap) LR_PRINTF(2, 0);
static void on_log(void *cls, const char *fmt, va_list ap)
{
	char msg[LR_LOG_MSG_MAX];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	msg[strcspn(msg, "\n")] = '\0';
	lr_log(LR_LOG_INFO, "metrics: %s", msg);	/* client noise: never on stderr */
}

int lr_metrics_http_open(struct lr_metrics_http **out, const char *spec,
			 const struct lr_exporter *exp, char *err, size_t errlen)
{
	struct sockaddr_storage a;
	socklen_t alen;
	sigset_t all, old;
	pthread_condattr_t ca;
	struct lr_metrics_http *m;
	int fd, ret = lr_metrics_listen_parse(spec, &a, &alen, err, errlen);

	if (ret) {
		exp->ops->close(exp->ctx);
		return ret;
	}
	pthread_once(&mhd_once, mhd_load);
	if (!mhd_ok) {
		exp->ops->close(exp->ctx);
		snprintf(err, errlen, "--listen %s: cannot load the HTTP library (%s)", spec,
			 mhd_error);
		return -ELIBACC;
	}
	m = calloc(1, sizeof(*m));
	if (!m) {
		exp->ops->close(exp->ctx);
		snprintf(err, errlen, "--listen %s: out of memory", spec);
		return -ENOMEM;
	}
	m->exp = *exp;
	pthread_mutex_init(&m->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&m->sampled, &ca);
	pthread_condattr_destroy(&ca);
	atomic_init(&m->scrapes, 0);
	fd = bind_socket(spec, &a, alen, err, errlen);
	if (fd < 0) {
		lr_metrics_http_close(m);
		return fd;
	}
	/* the daemon's thread inherits this mask: signals stay the main thread's */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	m->daemon = mhd.start_daemon(
		MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_USE_ERROR_LOG |
			(a.ss_family == AF_INET6 ? MHD_USE_IPv6 : 0),
		0, on_accept, m, on_request, m, MHD_OPTION_EXTERNAL_LOGGER, on_log, m,
		MHD_OPTION_LISTEN_SOCKET, fd, MHD_OPTION_NOTIFY_CONNECTION, on_conn, m,
		MHD_OPTION_NOTIFY_COMPLETED, on_done, m,
		/* the bounds are on_accept's; the library's only caps what is still closing */
		MHD_OPTION_CONNECTION_LIMIT, (unsigned)(2 * LR_METRICS_MAX_CONNS),
		MHD_OPTION_CONNECTION_TIMEOUT,
		(unsigned)LR_METRICS_TIMEOUT_S, MHD_OPTION_CONNECTION_MEMORY_LIMIT,
		(size_t)LR_METRICS_REQUEST_BYTES, MHD_OPTION_END);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!m->daemon) {
		/* the socket was handed over: MHD closes it on its failure paths */
		snprintf(err, errlen, "--listen %s: cannot start the HTTP server", spec);
		lr_metrics_http_close(m);
		return -EIO;
	}
	*out = m;
	return 0;
}

int lr_metrics_http_publish(struct lr_metrics_http *m, const struct lr_snapshot *s)
{
	int err;

	pthread_mutex_lock(&m->lock);
	err = m->exp.ops->update(m->exp.ctx, s);
	if (!err && !m->have_sample) {
		m->have_sample = true;
		pthread_cond_broadcast(&m->sampled);
	}
	pthread_mutex_unlock(&m->lock);
	return err;
}

int lr_metrics_http_publish_peer(struct lr_metrics_http *m, const struct lr_snapshot *peer,
				 const char *host)
{
	int err;

	if (!peer)
		return 0;
	pthread_mutex_lock(&m->lock);
	err = m->exp.ops->update_peer(m->exp.ctx, peer, host);
	pthread_mutex_unlock(&m->lock);
	return err;
}

unsigned long lr_metrics_http_scrapes(const struct lr_metrics_http *m)
{
	return atomic_load(&((struct lr_metrics_http *)m)->scrapes);
}

void lr_metrics_http_close(struct lr_metrics_http *m)
{
	if (!m)
		return;
	pthread_mutex_lock(&m->lock);	/* a scrape waiting for a first sample: 503 now */
	m->closing = true;
	pthread_cond_broadcast(&m->sampled);
	pthread_mutex_unlock(&m->lock);
	if (m->daemon)
		mhd.stop_daemon(m->daemon);	/* joins its thread, closes the socket */
	pthread_mutex_destroy(&m->lock);
	pthread_cond_destroy(&m->sampled);
	if (m->exp.ops)
		m->exp.ops->close(m->exp.ctx);
	free(m);
}
