#!/bin/bash
# SPDX-License-Identifier: MIT
# Issue 33's traffic aims, judged against upstream iperf3 3.22 (Debian sid, scripts/upstream-iperf3.sh)
# with Debian's iperf3 3.12 beside: linerate <-> linerate, iperf3 3.22 <-> 3.22 (UDP with its own
# GSO/GRO path, --gsro) and iperf3 3.12 <-> 3.12, interleaved in each round on one veth between two
# network namespaces this script creates. UDP runs with the sender's tx-udp-segmentation off, so
# every datagram is a packet on the link as on a NIC without UDP segmentation offload (the same
# kernel work for every tool). Figures from independent witnesses: the receiver's own count in the
# client's JSON, the receiving veth's rx_packets, the receiver namespace's Udp RcvbufErrors, wait4()
# rusage of both processes. Writes the "upstream_traffic" section of bench/RESULTS.md. Never run by
# tests, never asserts. Knobs: UP_REPS=3 UP_SECS=5 UP_CASES="MTU PROTO ARG;..." LR_BIN=path
# IPERF3_UPSTREAM=path BENCH_RESULTS=FILE
set -u

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT=${BENCH_RESULTS:-$TOP/bench/RESULTS.md}
REPS=${UP_REPS:-3}
SECS=${UP_SECS:-5}
I322=${IPERF3_UPSTREAM:-/opt/linerate-iperf3/bin/iperf3-sid}
say() { echo "upstream_traffic: $*" >&2; }
die() { say "$*"; exit 1; }
[ "$(id -u)" -eq 0 ] || die "needs root (network namespaces)"
[ -x "$I322" ] || die "no upstream iperf3 at $I322 (scripts/upstream-iperf3.sh installs it)"
for t in iperf3 jq ethtool ss; do command -v $t >/dev/null || die "missing $t (scripts/deps.sh --bench)"; done

. "$TOP/bench/scratch.sh"
bench_pair up 10.77.0 || die "cannot create the namespaces and veth"
if [ -z "${LR_BIN:-}" ]; then
	make -s -C "$TOP" B=build-bench CFLAGS='-O2 -g' LDFLAGS= build-bench/linerate \
		>"$WORK/build.log" 2>&1 || { tail -5 "$WORK/build.log" >&2; exit 1; }
	LR_BIN=$TOP/build-bench/linerate
fi
cp "$LR_BIN" "$WORK/linerate" || exit 1
RU=$WORK/rusage
cc -O2 -Wall -Wextra -o "$RU" "$TOP/bench/rusage.c" || die "cannot build bench/rusage.c"
V322=$("$I322" --version | head -1)
V312=$(iperf3 --version | head -1)

CASES=("1500 udp 64" "1500 udp 1400" "9000 udp 8900" "1500 tcp 1" "1500 tcp 4")
[ -n "${UP_CASES:-}" ] && IFS=';' read -r -a CASES <<<"$UP_CASES"

# cmds TOOL PROTO ARG: sets SRV and CLI; the client is always the sender (no -R)
cmds() {
	local opts
	if [ "$2" = tcp ]; then opts="-P $3"; else opts="-u -b 0 -l $3"; fi
	case $1 in
	linerate) SRV="$WORK/linerate -s -1"; CLI="$WORK/linerate -c $ADDR2 --headless -t $SECS -J $opts" ;;
	iperf3-3.22) SRV="$I322 -s -1"; CLI="$I322 -c $ADDR2 -t $SECS -J $opts"
		[ "$2" = udp ] && CLI+=" --gsro" ;;
	iperf3-3.12) SRV="iperf3 -s -1"; CLI="iperf3 -c $ADDR2 -t $SECS -J $opts" ;;
	esac
}
rcvbuf_errors() {
	ip netns exec "$NS2" awk '/^Udp:/ { if (!h) { for (i = 2; i <= NF; i++) if ($i == "RcvbufErrors") c = i; h = 1 }
		else { print $c + 0; exit } }' /proc/net/snmp
}
rx_packets() { ip netns exec "$NS2" cat "/sys/class/net/$IF2/statistics/rx_packets"; }

# one MTU PROTO ARG TOOL REP: a run, one line of runs.tsv
one() {
	local f="$WORK/$1-$2-$3-$4-$5" spid e0 e1 l0 l1 j i cu cs su ss
	cmds "$4" "$2" "$3"
	"$RU" "$f.srv.ru" ip netns exec "$NS2" $SRV >"$f.srv.out" 2>&1 &
	spid=$!
	PIDS+=("$spid")
	wait_listen "$NS2" 5201 || { say "server did not listen: $(tail -1 "$f.srv.out")"; kill "$spid"; wait "$spid"; return; }
	e0=$(rcvbuf_errors) l0=$(rx_packets)
	"$RU" "$f.cli.ru" timeout -k 2 $((SECS + 20)) ip netns exec "$NS" $CLI >"$f.json" 2>"$f.err"
	e1=$(rcvbuf_errors) l1=$(rx_packets)
	for ((i = 0; i < 50; i++)); do kill -0 "$spid" 2>/dev/null || break; sleep 0.1; done
	kill "$spid" 2>/dev/null
	wait "$spid" 2>/dev/null
	j=$(jq -r '[.end.sum_received.bytes // "-", .end.sum_sent.bytes // "-", .end.sum_sent.seconds // "-",
		.end.sum_sent.retransmits // "-"] | @tsv' "$f.json" 2>/dev/null)
	[ -n "$j" ] || j=$'-\t-\t-\t-'
	read -r cu cs _ <"$f.cli.ru"
	read -r su ss _ <"$f.srv.ru"
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$5" "$j" \
		"$(((cu + cs) / 1000))" "$(((su + ss) / 1000))" "$((e1 - e0))" "$((l1 - l0))" >>"$WORK/runs.tsv"
}

: >"$WORK/runs.tsv"
n=0 total=$((${#CASES[@]} * REPS * 3))
for c in "${CASES[@]}"; do
	set -- $c
	ip -n "$NS" link set "$IF" mtu "$1" && ip -n "$NS2" link set "$IF2" mtu "$1" || die "mtu $1"
	ip netns exec "$NS" ethtool -K "$IF" tx-udp-segmentation off >/dev/null ||
		die "cannot turn tx-udp-segmentation off on $IF"
	for ((rep = 1; rep <= REPS; rep++)); do
		for tool in linerate iperf3-3.22 iperf3-3.12; do
			n=$((n + 1))
			say "[$n/$total] MTU $1 $2 $3 $tool (round $rep)"
			one "$1" "$2" "$3" "$tool" "$rep"
		done
	done
done

LOAD=$(cut -d' ' -f1-3 /proc/loadavg)
REV=$(git -C "$TOP" rev-parse --short HEAD 2>/dev/null || echo '?')
cmds linerate udp L; C_LR_U="$CLI"; cmds linerate tcp N; C_LR_T="$CLI"
cmds iperf3-3.22 udp L; C_22_U="$CLI"; cmds iperf3-3.22 tcp N; C_22_T="$CLI"
section=$(awk -F'\t' -v reps="$REPS" -v secs="$SECS" -v load="$LOAD" -v rev="$REV" \
	-v date="$(date -u '+%Y-%m-%d %H:%M UTC')" -v v322="$V322" -v v312="$V312" \
	-v clu="$C_LR_U" -v clt="$C_LR_T" -v c2u="$C_22_U" -v c2t="$C_22_T" -v work="$WORK/" '
	# runs.tsv: 1 mtu 2 proto 3 arg 4 tool 5 rep 6 rbytes 7 sbytes 8 ssecs 9 retr 10 client CPU ms
	# 11 server CPU ms 12 RcvbufErrors 13 receiver veth rx_packets
	function med(k, what,   n, i, j, t, a) {
		n = cnt[k, what]
		if (!n) return ""
		for (i = 1; i <= n; i++) a[i] = v[k, what, i]
		for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
		return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
	}
	function put(k, what, x) { cnt[k, what]++; v[k, what, cnt[k, what]] = x }
	function f(x, d) { return x == "" ? "-" : sprintf("%.*f", d, x) }
	function r(a, b) { return a == "" || b == "" || b == 0 ? "" : a / b }
	function judge(x, op, aim) { return x == "" ? "n/a" : (op == ">=" ? x >= aim : x <= aim) ? "met" : "NOT met" }
	{
		k = $1 SUBSEP $2 SUBSEP $3
		if (!(k in seen)) { seen[k] = 1; order[++nk] = k }
		t = k SUBSEP $4
		if ($6 == "-" || $6 == 0 || $8 == "-" || $8 == 0) { fails[t]++; next }
		gb = $6 * 8 / $8 / 1e9
		put(t, "gbps", gb)
		put(t, "scpug", $10 / 1000 / gb / $8)	# sender (client) CPU s per Gbit/s-second
		put(t, "cpu", ($10 + $11) / 1000)
		if ($2 == "udp") {
			put(t, "dps", $6 / $3 / $8); put(t, "sent", $7 / $3 / $8); put(t, "link", $13 / $8)
			put(t, "loss", $7 > 0 ? ($7 - $6) / $7 * 100 : 0); put(t, "rcvbuf", $12)
		} else put(t, "retr", $9)
	}
	END {
		printf "### Traffic against upstream iperf3 3.22 (issue 33; bench/upstream_traffic.sh)\n\n"
		printf "%s, load average %s at the end; linerate %s; %s (Debian sid) and %s (Debian 12). %d rounds of %d s per case; in each round the three tools ran one after the other on the same veth between two network namespaces (MTU as shown; UDP with the sending veth'"'"'s tx-udp-segmentation off: every datagram a packet on the link). Medians over the rounds.\n\n", date, load, rev, v322, v312, reps, secs
		printf "| MTU | test | tool | Gbit/s delivered | datagrams/s delivered | datagrams/s sent | packets/s on the link | loss %% | UDP RcvbufErrors | TCP retransmits | sender CPU s per Gbit | CPU s (both ends) | failed runs |\n"
		printf "|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n"
		for (i = 1; i <= nk; i++) {
			split(order[i], p, SUBSEP)
			test = p[2] == "udp" ? "UDP -b 0 -l " p[3] : "TCP -P " p[3]
			for (ti = 1; ti <= 3; ti++) {
				tool = ti == 1 ? "linerate" : ti == 2 ? "iperf3-3.22" : "iperf3-3.12"
				t = order[i] SUBSEP tool
				shown = tool == "iperf3-3.22" && p[2] == "udp" ? tool " --gsro" : tool
				printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %d |\n", p[1], test, shown,
					f(med(t, "gbps"), 3), f(med(t, "dps"), 0), f(med(t, "sent"), 0), f(med(t, "link"), 0),
					f(med(t, "loss"), 2), f(med(t, "rcvbuf"), 0), f(med(t, "retr"), 0),
					f(med(t, "scpug"), 3), f(med(t, "cpu"), 2), fails[t] + 0
			}
		}
		printf "\nRatios, linerate over the other tool of the same case and run; the aims are issue 33'"'"'s.\n\n"
		printf "| MTU | test | /3.22: delivered | /3.22: packets on the link | /3.22: sender CPU per Gbit | /3.12: delivered | aim | judged |\n"
		printf "|---:|---|---:|---:|---:|---:|---|---|\n"
		for (i = 1; i <= nk; i++) {
			split(order[i], p, SUBSEP)
			L = order[i] SUBSEP "linerate"; U = order[i] SUBSEP "iperf3-3.22"; D = order[i] SUBSEP "iperf3-3.12"
			what = p[2] == "udp" && p[3] == 64 ? "dps" : "gbps"
			rd = r(med(L, what), med(U, what)); rl = r(med(L, "link"), med(U, "link"))
			rc = r(med(L, "scpug"), med(U, "scpug")); r12 = r(med(L, what), med(D, what))
			if (p[2] == "udp" && p[3] == 64) {
				aim = ">= 2x 3.22 --gsro in datagrams/s delivered, loss <= 0.1 %"
				ok = judge(rd, ">=", 2) == "met" && med(L, "loss") != "" && med(L, "loss") <= 0.1 ? "met" : "NOT met"
				ok = ok " (loss " f(med(L, "loss"), 2) " %)"
			} else if (p[2] == "udp") {
				aim = ">= 1.5x 3.22 --gsro in Gbit/s delivered"; ok = judge(rd, ">=", 1.5)
			} else if (p[3] == 1) {
				aim = ">= 1.0x 3.22 at <= 0.9x its sender CPU per Gbit"
				ok = judge(rd, ">=", 1) == "met" && judge(rc, "<=", 0.9) == "met" ? "met" : "NOT met"
			} else if (p[3] == 4) {
				aim = ">= 1.1x 3.22"; ok = judge(rd, ">=", 1.1)
			} else { aim = "(none stated)"; ok = "-" }
			printf "| %s | %s | %s | %s | %s | %s | %s | %s |\n", p[1], p[2] == "udp" ? "UDP -b 0 -l " p[3] : "TCP -P " p[3],
				f(rd, 2), f(rl, 2), f(rc, 2), f(r12, 2), aim, ok
		}
		printf "\nCommands (server `-s -1` in the other namespace, client as below; 10.77.0.2 is the server):\n\n"
		printf "- linerate: `%s`, `%s`\n- iperf3 3.22: `%s`, `%s`\n- iperf3 3.12: the same options as 3.22 without --gsro\n", clu, clt, c2u, c2t
		printf "\nDelivered = the receiver'"'"'s own count in the client'"'"'s JSON (`end.sum_received.bytes`) over the sender'"'"'s seconds (`end.sum_sent.seconds`); datagrams/s = that / the datagram size. Packets on the link = the receiving veth'"'"'s rx_packets over the run / the sender'"'"'s seconds (a few control packets included). Loss %% = (sent − received) / sent from the two byte sums. Sender CPU s per Gbit = the client'"'"'s user + sys (wait4() rusage) / (Gbit/s × seconds): on a veth the sending CPU also runs the receiving side'"'"'s softirq, charged to whichever process is running, the same for every tool.\n"
	}' "$WORK/runs.tsv")
section=${section//$WORK\//}
echo "$section"
[ -f "$OUT" ] && python3 "$TOP/bench/results_section.py" "$OUT" upstream_traffic "$section"
