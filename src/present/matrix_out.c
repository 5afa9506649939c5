// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The matrix's rows out: --matrix-csv, the Markdown table (the seeds' tables: a column per
 * varied parameter, then throughput, packets, CPU and service demand local and remote, as
 * netperf prints them) and the linerate_matrix JSON array. Numbers are locale-independent
 * (printf's "C" locale: linerate never calls setlocale for numbers).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "linerate/sample/csv.h"
#include "linerate/present/matrix_out.h"

static const char header[] =
	"case,proto,streams,length,reverse,bitrate_target,window,mss,congestion,seconds,"
	"sender_bps,receiver_bps,receiver_pps,retransmits,lost,lost_pct,jitter_ms,"
	"local_cpu_busy_pct,local_softirq_max_pct,local_softirq_cpu,peer_cpu_busy_pct,"
	"peer_softirq_max_pct,peer_softirq_cpu,local_service_demand_us_per_kb,"
	"peer_service_demand_us_per_kb,local_drops,local_fifo,peer_drops,peer_fifo,verdict,"
	"time_start,time_end,rtt_idle_us,rtt_p99_us,rr_tps,rr_p99_us";

static const char *const dirs[3] = {"0", "1", "bidir"};

const char *lr_matrix_csv_header(void)
{
	return header;
}

static const char *dir_name(int d)
{
	return d >= 0 && d < 3 ? dirs[d] : "";
}

/* ",<value>" or "," when unknown. */
static void put_num(FILE *f, double v, int prec)
{
	if (v >= 0 && isfinite(v))
		fprintf(f, ",%.*f", prec, v);
	else
		fputc(',', f);
}

static void put_int(FILE *f, int64_t v)
{
	if (v >= 0)
		fprintf(f, ",%lld", (long long)v);
	else
		fputc(',', f);
}

static void put_u_or_empty(FILE *f, uint64_t v)
{
	if (v)
		fprintf(f, ",%llu", (unsigned long long)v);
	else
		fputc(',', f);
}

static void put_str(FILE *f, const char *s)
{
	fputc(',', f);
	lr_csv_field(f, s);
}

int lr_matrix_csv_row(FILE *f, const struct lr_matrix_row *r)
{
	fprintf(f, "%u,%s,%u", r->index, r->udp ? "udp" : "tcp", r->streams);
	put_u_or_empty(f, r->length);
	fprintf(f, ",%s,%llu", dir_name(r->dir), (unsigned long long)r->bitrate_bps);
	put_u_or_empty(f, r->window);
	put_u_or_empty(f, r->mss);
	put_str(f, r->congestion);
	put_num(f, r->seconds, 6);
	put_num(f, r->sender_bps, 0);
	put_num(f, r->receiver_bps, 0);
	put_num(f, r->receiver_pps, 0);
	put_int(f, r->retransmits);
	put_int(f, r->lost);
	put_num(f, r->lost_pct, 4);
	put_num(f, r->jitter_ms, 3);
	put_num(f, r->cpu_busy_pct, 2);
	put_num(f, r->softirq_max_pct, 2);
	put_int(f, r->softirq_cpu);
	put_num(f, r->peer_cpu_busy_pct, 2);
	put_num(f, r->peer_softirq_max_pct, 2);
	put_int(f, r->peer_softirq_cpu);
	put_num(f, r->service_demand, 3);
	put_num(f, r->peer_service_demand, 3);
	put_int(f, r->drops);
	put_int(f, r->fifo);
	put_int(f, r->peer_drops);
	put_int(f, r->peer_fifo);
	put_str(f, r->verdict);
	put_num(f, r->time_start, 6);	/* appended: the case's test on the wall clock */
	put_num(f, r->time_end, 6);
	put_int(f, r->rtt_idle_us);	/* appended: the latency probes' p99, idle and loaded */
	put_int(f, r->rtt_p99_us);
	put_num(f, r->rr_tps, 1);	/* appended: rr=1 cases */
	put_num(f, r->rr_p99_us, 3);
	fputc('\n', f);
	return ferror(f) ? -EIO : 0;
}

/* A rate as the SPEC would write it: 0, 100M, 1.5G. */
static void fmt_rate(char *buf, size_t len, uint64_t bps)
{
	static const char units[] = " KMGT";
	double v = (double)bps;
	int u = 0;

	while (v >= 1000 && u < 4 && fmod(v, 1000) == 0)
		v /= 1000, u++;
	while (v >= 1000 && u < 4)
		v /= 1000, u++;
	if (u)
		snprintf(buf, len, "%.4g%c", v, units[u]);
	else
		snprintf(buf, len, "%.0f", v);
}

static void key_cell(char *buf, size_t len, char key, const struct lr_matrix_row *r)
{
	switch (key) {
	case 'P': snprintf(buf, len, "%u", r->streams); break;
	case 'l':
		if (r->length)
			snprintf(buf, len, "%llu", (unsigned long long)r->length);
		else
			snprintf(buf, len, "default");
		break;
	case 'u': snprintf(buf, len, "%s", r->udp ? "udp" : "tcp"); break;
	case 'R': snprintf(buf, len, "%s", dir_name(r->dir)); break;
	case 'b': fmt_rate(buf, len, r->bitrate_bps); break;
	case 'w':
		if (r->window)
			snprintf(buf, len, "%llu", (unsigned long long)r->window);
		else
			snprintf(buf, len, "default");
		break;
	case 'M':
		if (r->mss)
			snprintf(buf, len, "%u", r->mss);
		else
			snprintf(buf, len, "default");
		break;
	case 'C': snprintf(buf, len, "%s", r->congestion[0] ? r->congestion : "default"); break;
	case 'r': snprintf(buf, len, "%d", r->rr); break;
	default: snprintf(buf, len, "?"); break;
	}
}

static const char *key_title(char key)
{
	switch (key) {
	case 'P': return "Streams";
	case 'l': return "Length B";
	case 'u': return "Proto";
	case 'R': return "Reverse";
	case 'b': return "Target bit/s";
	case 'w': return "Window B";
	case 'M': return "MSS";
	case 'C': return "Congestion";
	case 'r': return "RR";
	default: return "?";
	}
}

static void md_num(FILE *f, double v, double scale, int prec)
{
	if (v >= 0 && isfinite(v))
		fprintf(f, " %.*f |", prec, v / scale);
	else
		fputs(" - |", f);
}

static void md_int(FILE *f, int64_t v)
{
	if (v >= 0)
		fprintf(f, " %lld |", (long long)v);
	else
		fputs(" - |", f);
}

/* '|' would end the cell: escaped as Markdown does. */
static void md_text(FILE *f, const char *s)
{
	fputc(' ', f);
	for (; *s; s++) {
		if (*s == '|')
			fputc('\\', f);
		fputc(*s == '\n' ? ' ' : *s, f);
	}
	fputs(" |", f);
}

static const char *const result_titles[] = {
	"Sender Mbit/s", "Receiver Mbit/s", "Receiver kpps", "Retr", "Lost %", "Jitter ms",
	"CPU % local", "CPU % remote", "Softirq max %", "Softirq CPU", "us/KB local",
	"us/KB remote", "Drops", "FIFO", "Verdict",
};

int lr_matrix_markdown(FILE *f, const char *keys, const struct lr_matrix_row *rows, unsigned n)
{
	size_t nk = strlen(keys), nr = sizeof(result_titles) / sizeof(result_titles[0]);
	bool rr = strchr(keys, 'r') != NULL; /* rr=0,1: its two figures before the verdict */

	fputs("| Case |", f);
	for (size_t k = 0; k < nk; k++)
		fprintf(f, " %s |", key_title(keys[k]));
	for (size_t k = 0; k < nr; k++)
		fprintf(f, "%s %s |", rr && k + 1 == nr ? " RR tr/s | RR p99 us |" : "",
			result_titles[k]);
	fputs("\n|---:|", f);
	for (size_t k = 0; k < nk; k++)
		fputs("---|", f);
	for (size_t k = 0; k + 1 < nr + (rr ? 2 : 0); k++)
		fputs("---:|", f);
	fputs("---|\n", f);
	for (unsigned i = 0; i < n; i++) {
		const struct lr_matrix_row *r = &rows[i];
		char cell[64];

		fprintf(f, "| %u |", r->index);
		for (size_t k = 0; k < nk; k++) {
			key_cell(cell, sizeof(cell), keys[k], r);
			fprintf(f, " %s |", cell);
		}
		md_num(f, r->sender_bps, 1e6, 2);
		md_num(f, r->receiver_bps, 1e6, 2);
		md_num(f, r->receiver_pps, 1e3, 2);
		md_int(f, r->retransmits);
		md_num(f, r->lost_pct, 1, 4);
		md_num(f, r->jitter_ms, 1, 3);
		md_num(f, r->cpu_busy_pct, 1, 2);
		md_num(f, r->peer_cpu_busy_pct, 1, 2);
		md_num(f, r->softirq_max_pct, 1, 2);
		md_int(f, r->softirq_cpu);
		md_num(f, r->service_demand, 1, 3);
		md_num(f, r->peer_service_demand, 1, 3);
		md_int(f, r->drops);
		md_int(f, r->fifo);
		if (rr) {
			md_num(f, r->rr_tps, 1, 1);
			md_num(f, r->rr_p99_us, 1, 1);
		}
		md_text(f, r->verdict);
		fputc('\n', f);
	}
	return ferror(f) ? -EIO : 0;
}

static json_t *jnum(double v)
{
	return v >= 0 && isfinite(v) ? json_real(v) : json_null();
}

static json_t *jint(int64_t v)
{
	return v >= 0 ? json_integer((json_int_t)v) : json_null();
}

static json_t *jopt(uint64_t v)
{
	return v ? json_integer((json_int_t)v) : json_null();
}

json_t *lr_matrix_json_row(const struct lr_matrix_row *r)
{
	json_t *o = json_object();

	if (!o)
		return NULL;
	json_object_set_new(o, "case", json_integer(r->index));
	json_object_set_new(o, "proto", json_string(r->udp ? "udp" : "tcp"));
	json_object_set_new(o, "streams", json_integer(r->streams));
	json_object_set_new(o, "length", jopt(r->length));
	json_object_set_new(o, "reverse", json_string(dir_name(r->dir)));
	json_object_set_new(o, "bitrate_target", json_integer((json_int_t)r->bitrate_bps));
	json_object_set_new(o, "window", jopt(r->window));
	json_object_set_new(o, "mss", jopt(r->mss));
	json_object_set_new(o, "congestion",
			    r->congestion[0] ? json_string(r->congestion) : json_null());
	json_object_set_new(o, "seconds", jnum(r->seconds));
	json_object_set_new(o, "sender_bps", jnum(r->sender_bps));
	json_object_set_new(o, "receiver_bps", jnum(r->receiver_bps));
	json_object_set_new(o, "receiver_pps", jnum(r->receiver_pps));
	json_object_set_new(o, "retransmits", jint(r->retransmits));
	json_object_set_new(o, "lost", jint(r->lost));
	json_object_set_new(o, "lost_pct", jnum(r->lost_pct));
	json_object_set_new(o, "jitter_ms", jnum(r->jitter_ms));
	json_object_set_new(o, "local_cpu_busy_pct", jnum(r->cpu_busy_pct));
	json_object_set_new(o, "local_softirq_max_pct", jnum(r->softirq_max_pct));
	json_object_set_new(o, "local_softirq_cpu", jint(r->softirq_cpu));
	json_object_set_new(o, "peer_cpu_busy_pct", jnum(r->peer_cpu_busy_pct));
	json_object_set_new(o, "peer_softirq_max_pct", jnum(r->peer_softirq_max_pct));
	json_object_set_new(o, "peer_softirq_cpu", jint(r->peer_softirq_cpu));
	json_object_set_new(o, "local_service_demand_us_per_kb", jnum(r->service_demand));
	json_object_set_new(o, "peer_service_demand_us_per_kb", jnum(r->peer_service_demand));
	json_object_set_new(o, "local_drops", jint(r->drops));
	json_object_set_new(o, "local_fifo", jint(r->fifo));
	json_object_set_new(o, "peer_drops", jint(r->peer_drops));
	json_object_set_new(o, "peer_fifo", jint(r->peer_fifo));
	json_object_set_new(o, "verdict", json_string(r->verdict));
	json_object_set_new(o, "time_start", jnum(r->time_start));
	json_object_set_new(o, "time_end", jnum(r->time_end));
	json_object_set_new(o, "rtt_idle_us", jint(r->rtt_idle_us));
	json_object_set_new(o, "rtt_p99_us", jint(r->rtt_p99_us));
	json_object_set_new(o, "rr_tps", jnum(r->rr_tps));
	json_object_set_new(o, "rr_p99_us", jnum(r->rr_p99_us));
	return o;
}

int lr_matrix_report(FILE *f, bool json, const char *host, const char *keys,
		     const struct lr_matrix_row *rows, unsigned n_rows, unsigned n_cases,
		     double case_s, double omit_s)
{
	int rc = 0;

	if (json) {
		json_t *o = json_object(), *arr = json_array();

		if (!o || !arr) {
			json_decref(o);
			json_decref(arr);
			return -ENOMEM;
		}
		for (unsigned i = 0; i < n_rows; i++)
			json_array_append_new(arr, lr_matrix_json_row(&rows[i]));
		json_object_set_new(o, "linerate_matrix", arr);
		json_dumpf(o, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		fputc('\n', f);
		json_decref(o);
	} else {
		fprintf(f, "linerate matrix to %s: %u of %u cases, %.3g s each after %.3g s omitted\n\n",
			host, n_rows, n_cases, case_s, omit_s);
		rc = lr_matrix_markdown(f, keys, rows, n_rows);
	}
	if (fflush(f) || ferror(f))
		rc = -EIO;
	return rc;
}
