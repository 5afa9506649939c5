#!/usr/bin/env bash
# Paced UDP loses nothing where iperf3 loses nothing (issue 10): `-u -b 200M -P 2 -t 2` on the
# loopback of a fresh network namespace, 32 KiB datagrams (the loopback MSS), so a default
# receive buffer holds three of them. Witnesses: the receiver's own lost count (in the
# client's -J, from the results exchange) and the namespace kernel's Udp RcvbufErrors delta.
# Cases: linerate <-> linerate, linerate -c -> iperf3 -s (linerate's pacing), iperf3 -c ->
# linerate -s (linerate's reading). iperf3 <-> iperf3 runs beside each as the reference: when
# a linerate case loses and iperf3 lost too, in the run before or right after it, the host is
# overloaded and the case runs again; three times overloaded counts as SKIP, never as passed.
# Root only.
. "$(dirname "$0")/../lib.sh"
lr_plan "udp-paced lr-lr" "udp-paced lr-c i3-s" "udp-paced i3-c lr-s"
need_root udp_paced_loss
command -v iperf3 >/dev/null || { lr_skip_plan udp_paced_loss "iperf3 not installed"; exit 0; }
command -v python3 >/dev/null || { lr_skip_plan udp_paced_loss "python3 not installed"; exit 0; }
[ -x "$LR_BIN" ] || { lr_skip_plan udp_paced_loss "$LR_BIN not built"; exit 0; }

PORT=5561
ARGS=(-u -b 200M -P 2 -t 2)
ns=$(lr_uniq)u
lr_netns_lo "$ns" || { lr_skip_plan udp_paced_loss "netns"; exit 0; }
tmp=$(mktemp -d) && lr_cleanup_add "rm -rf $tmp"
in_ns() { ip netns exec "$ns" "$@"; }

rcvbuf_errors() { in_ns awk '/^Udp:/ { if (h) print $6; else h = 1 }' /proc/net/snmp; }

wait_listen() { lr_wait_listen "$PORT" "$ns" 60; }

# run CLIENT SERVER: one test (lr = linerate, i3 = iperf3); prints "LOST PACKETS RCVBUFERR"
# or "ERR why". LOST/PACKETS are the receiver's, as the client's -J carries them.
run() {
	local c=$1 s=$2 before after spid
	before=$(rcvbuf_errors)
	if [ "$s" = lr ]; then
		in_ns "$LR_BIN" -s -1 -p "$PORT" --headless >"$tmp/s.out" 2>&1 &
	else
		in_ns iperf3 -s -1 -p "$PORT" >"$tmp/s.out" 2>&1 &
	fi
	spid=$!
	lr_cleanup_add "kill $spid 2>/dev/null"
	wait_listen || { kill "$spid" 2>/dev/null; wait "$spid" 2>/dev/null; echo "ERR server did not listen"; return; }
	if [ "$c" = lr ]; then
		in_ns timeout 30 "$LR_BIN" -c 127.0.0.1 -p "$PORT" --headless -J "${ARGS[@]}" \
			>"$tmp/c.json" 2>"$tmp/c.err"
	else
		in_ns timeout 30 iperf3 -c 127.0.0.1 -p "$PORT" -J "${ARGS[@]}" >"$tmp/c.json" 2>"$tmp/c.err"
	fi
	wait "$spid" 2>/dev/null
	after=$(rcvbuf_errors)
	python3 - "$tmp/c.json" "$((after - before))" <<'PY'
import json, sys
try:
    s = json.load(open(sys.argv[1]))["end"]["sum"]
    print(s["lost_packets"], s["packets"], sys.argv[2])
except Exception as e:
    print("ERR", "no result:", e)
PY
}

lossless() { [ "$1" = 0 ] && [ "$3" = 0 ] && [ "${2:-0}" -gt 0 ]; }

ref=$(run i3 i3)
echo "# iperf3 <-> iperf3: lost/packets/RcvbufErrors $ref"
# An overloaded host (the reference lost too) is not a verdict: the case runs again, up to
# three times, and only then counts as SKIP.
for c in "lr lr lr-lr" "lr i3 lr-c i3-s" "i3 lr i3-c lr-s"; do
	set -- $c
	name="udp-paced ${c#* * }"
	for try in 1 2 3; do
		set -- $c
		got=$(run "$1" "$2")
		echo "# $name (try $try): lost/packets/RcvbufErrors $got"
		case $got in ERR*) fail "$name" "$got"; break ;; esac
		if lossless $got; then
			set -- $got; pass "$name: 0 of $2 lost, RcvbufErrors +0 (iperf3 <-> iperf3 lost/packets/RcvbufErrors: $ref)"
			break
		fi
		after=$(run i3 i3)
		echo "# iperf3 <-> iperf3 again: $after"
		if lossless $ref && lossless $after; then
			fail "$name" "lost/packets/RcvbufErrors $got where iperf3 <-> iperf3 lost nothing ($ref / $after)"
			ref=$after
			break
		fi
		[ "$try" = 3 ] && skip "$name" "host overloaded 3 times: iperf3 <-> iperf3 lost too ($ref / $after); linerate: $got"
		ref=$after
	done
done
lr_summary
