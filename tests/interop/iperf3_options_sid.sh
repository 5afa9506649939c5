#!/usr/bin/env bash
# iperf3 3.22's last options (issue 30, docs/design.md §9): --bind-dev (and HOST%DEV), -m/--mptcp,
# -b RATE/BURST, --pacing-timer, each between linerate and iperf3 3.22 (sid's build) in both
# roles over a veth between two namespaces, judged by a witness that does not take linerate's
# word: the socket's bound device as `ss` shows it, the namespace's MPTCP counters (nstat
# MPTcpExt*), the datagrams' and TCP segments' arrival stamps on the wire (burst_sniff.py), iperf3's
# debug print of the parameters it received. --sctp is refused with one line (no sctp module).
. "$(dirname "$0")/../lib.sh"
lr_plan iperf3_options_sid "bind-dev-lrs bind-dev-lrc mptcp-lrs mptcp-lrc burst-lrc burst-lrs \
burst-lrc-tcp pacing-timer-lrc sctp-refused sctp-lrs"
need_root iperf3_options_sid
[ -x "$LR_BIN" ] || { lr_skip_plan iperf3_options_sid "$LR_BIN not built"; exit 0; }
sid=$(lr_iperf3_path sid) || { lr_skip_plan iperf3_options_sid "iperf3 3.22 (sid) not installed (scripts/upstream-iperf3.sh)"; exit 0; }
v=$(lr_iperf3_version sid)
SNIFF=$(dirname "$0")/../tools/burst_sniff.py
tmp=$(mktemp -d) && lr_cleanup_add "rm -rf $tmp"
u=$(lr_uniq) a=${u}a b=${u}b va=${u:2}va vb=${u:2}vb
lr_netns_pair "$a" "$b" "$va" "$vb" 10.97.0.1 10.97.0.2
A=(ip netns exec "$a") B=(ip netns exec "$b")
i3() { PATH=$sid:$PATH iperf3 "$@"; }
port=5201

# srv CHECKS NS CMD...: a server in NS on $port, in the background ($spid), output in
# $tmp/srv.out; when it does not listen, CHECKS fail with its words
srv() {
	local checks=$1 ns=$2 c; shift 2
	ip netns exec "$ns" "$@" >"$tmp/srv.out" 2>&1 &
	spid=$!
	lr_cleanup_add "kill $spid 2>/dev/null"
	lr_wait_listen "$port" "$ns" 60 && return 0
	for c in $checks; do fail "$c" "the server did not listen: $(head -c 200 "$tmp/srv.out")"; done
	return 1
}
srv_stop() { kill "$spid" 2>/dev/null; wait "$spid" 2>/dev/null; port=$((port + 1)); }
mpc() { ip netns exec "$1" nstat -az "$2" | awk -v k="$2" '$1 == k {print $2}'; }

# --- --bind-dev: SO_BINDTODEVICE, seen by ss as ADDR%DEV ------------------------------------
if srv bind-dev-lrs "$b" "$LR_BIN" -s -p "$port" --bind-dev "$vb"; then
	"${B[@]}" ss -Hltn "sport = :$port" >"$tmp/bd.ls"
	"${A[@]}" timeout 20 env PATH="$sid:$PATH" iperf3 -c 10.97.0.2 -p "$port" -t 2 >"$tmp/bd.c" 2>&1 &
	cp=$!
	sleep 1
	"${B[@]}" ss -Htn "sport = :$port" >"$tmp/bd.es"
	wait $cp; rc=$?
	echo "# linerate -s --bind-dev $vb, iperf3 $v -c: exit $rc; listener: $(cat "$tmp/bd.ls")"
	echo "# its connections: $(tr '\n' ';' <"$tmp/bd.es")"
	check bind-dev-lrs sh -c "[ $rc -eq 0 ] && grep -q '%$vb:$port' $tmp/bd.ls &&
		[ \$(grep -c '%$vb:$port' $tmp/bd.es) -ge 2 ]"
	srv_stop
fi
if srv bind-dev-lrc "$b" env PATH="$sid:$PATH" iperf3 -s -1 -p "$port"; then
	"${A[@]}" timeout 20 "$LR_BIN" -c "10.97.0.2%$va" -p "$port" -t 2 -u -b 1M -P 2 >"$tmp/bdc.c" 2>&1 &
	cp=$!
	sleep 1
	"${A[@]}" ss -Htun "dport = :$port" >"$tmp/bdc.es"
	wait $cp; rc=$?
	echo "# linerate -c 10.97.0.2%$va -u -P 2 to iperf3 $v -s: exit $rc; its sockets: $(tr '\n' ';' <"$tmp/bdc.es")"
	# the control connection and both UDP streams
	check bind-dev-lrc sh -c "[ $rc -eq 0 ] && [ \$(grep -c '%$va:' $tmp/bdc.es) -eq 3 ]"
	srv_stop
fi

# --- -m/--mptcp: the server's namespace counts MP_CAPABLE handshakes --------------------------
if srv mptcp-lrs "$b" "$LR_BIN" -s -p "$port"; then
	n0=$(mpc "$b" MPTcpExtMPCapableACKRX)
	"${A[@]}" timeout 20 env PATH="$sid:$PATH" iperf3 -c 10.97.0.2 -p "$port" -t 1 -m -P 2 >"$tmp/m.c" 2>&1
	rc=$?
	n1=$(mpc "$b" MPTcpExtMPCapableACKRX)
	echo "# iperf3 $v -c -m -P 2 to linerate -s: exit $rc; MPTcpExtMPCapableACKRX $n0 -> $n1"
	check mptcp-lrs sh -c "[ $rc -eq 0 ] && [ $((n1 - n0)) -eq 2 ]"
	srv_stop
fi
if srv mptcp-lrc "$b" env PATH="$sid:$PATH" iperf3 -s -1 -p "$port"; then
	n0=$(mpc "$b" MPTcpExtMPCapableACKRX)
	"${A[@]}" timeout 20 "$LR_BIN" -c 10.97.0.2 -p "$port" -t 1 --mptcp >"$tmp/mc.c" 2>&1
	rc=$?
	n1=$(mpc "$b" MPTcpExtMPCapableACKRX)
	echo "# linerate -c --mptcp to iperf3 $v -s: exit $rc; MPTcpExtMPCapableACKRX $n0 -> $n1"
	check mptcp-lrc sh -c "[ $rc -eq 0 ] && [ $((n1 - n0)) -eq 1 ]"
	srv_stop
fi

# --- -b RATE/BURST: 100 datagrams back to back, where 10M alone spaces them 800 us -----------
# sniff NS IFACE OUT: burst_sniff on the receiving veth for 4 s, started before the test
sniff() {
	ip netns exec "$1" python3 "$SNIFF" "$2" "$port" 4 1000 >"$3" 2>"$3.err" &
	snp=$!
	lr_cleanup_add "kill $snp 2>/dev/null"
	for _ in $(seq 40); do grep -q ready "$3.err" && break; sleep 0.05; done
}
bunched() {	# bunched FILE: most datagrams came in bursts, and enough of them came
	sed -n 's/packets=\([0-9]*\) datagrams=\([0-9]*\) close=\([0-9]*\)/\2 \3/p' "$1" |
		awk '{ exit !($1 >= 1000 && $2 >= 0.6 * $1) }'
}
if srv "burst-lrc pacing-timer-lrc" "$b" env PATH="$sid:$PATH" iperf3 -s -1 -d -p "$port"; then
	sniff "$b" "$vb" "$tmp/bl.sn"
	"${A[@]}" timeout 20 "$LR_BIN" -c 10.97.0.2 -p "$port" -t 1 -u -l 1000 -b 10M/100 \
		--pacing-timer 5000 >"$tmp/bl.c" 2>&1
	rc=$?
	wait $snp
	srv_stop
	echo "# linerate -c -u -l 1000 -b 10M/100 to iperf3 $v -s: exit $rc; on the wire: $(cat "$tmp/bl.sn")"
	wire=0; bunched "$tmp/bl.sn" && wire=1
	check burst-lrc sh -c "[ $rc -eq 0 ] && [ $wire -eq 1 ] &&
		grep -Eq '\"burst\":[[:space:]]*100' $tmp/srv.out"
	echo "# iperf3 -s -d: $(grep -Eo '"pacing_timer":[[:space:]]*[0-9]+' "$tmp/srv.out")"
	check pacing-timer-lrc grep -Eq '"pacing_timer":[[:space:]]*5000' "$tmp/srv.out"
fi
if srv burst-lrs "$b" "$LR_BIN" -s -p "$port"; then
	sniff "$a" "$va" "$tmp/bs.sn"
	"${A[@]}" timeout 20 env PATH="$sid:$PATH" iperf3 -c 10.97.0.2 -p "$port" -t 1 -u -R -l 1000 \
		-b 10M/100 >"$tmp/bs.c" 2>&1
	rc=$?
	wait $snp
	echo "# iperf3 $v -c -u -R -l 1000 -b 10M/100 to linerate -s: exit $rc; on the wire: $(cat "$tmp/bs.sn")"
	wire=0; bunched "$tmp/bs.sn" && wire=1
	check burst-lrs sh -c "[ $rc -eq 0 ] && [ $wire -eq 1 ]"
	srv_stop
fi
# TCP: 20 blocks of 8 KiB back to back, then the wait that keeps 4 Mbit/s (330 ms), against the
# same rate without a burst (a block every 16 ms): the silences over 2 ms between data segments
# on the receiving veth, a few a second against about 60
tcp_gaps() {	# tcp_gaps RATE: linerate -c -t 2 -l 8K -b RATE to iperf3 -s; prints the wire's gaps
	local out=$tmp/tcp-${1//\//_}.sn
	srv burst-lrc-tcp "$b" env PATH="$sid:$PATH" iperf3 -s -1 -p "$port" || return
	ip netns exec "$b" python3 "$SNIFF" "$vb" "$port" 3 1000 tcp >"$out" 2>"$out.err" &
	snp=$!
	lr_cleanup_add "kill $snp 2>/dev/null"
	for _ in $(seq 40); do grep -q ready "$out.err" && break; sleep 0.05; done
	"${A[@]}" timeout 20 "$LR_BIN" -c 10.97.0.2 -p "$port" -t 2 -l 8K -b "$1" >/dev/null 2>&1
	wait $snp
	srv_stop
	echo "# linerate -c -l 8K -b $1 to iperf3 $v -s: on the wire $(cat "$out")" >&2
	sed -n 's/^packets=[0-9]* bytes=\([0-9]*\) gaps=\([0-9]*\)$/\1 \2/p' "$out"
}
read -r tb tg < <(tcp_gaps 4M/20)
read -r pb pg < <(tcp_gaps 4M)
check "burst-lrc-tcp (gaps: $tg in bursts of 20, $pg paced; bytes $tb, $pb)" \
	awk -v tb="${tb:-0}" -v tg="${tg:-}" -v pb="${pb:-0}" -v pg="${pg:-}" \
	'BEGIN { exit !(tg != "" && pg != "" && tb > 500000 && pb > 500000 && pg >= 40 && tg * 4 <= pg) }'

# --- --sctp: one line naming why; an iperf3 client asking for it hears what iperf3 -s says -------
if srv sctp-lrs "$b" "$LR_BIN" -s -p "$port"; then
	"${A[@]}" timeout 20 env PATH="$sid:$PATH" iperf3 -c 10.97.0.2 -p "$port" -t 1 --sctp >"$tmp/sc.c" 2>&1
	rc=$?
	echo "# iperf3 $v -c --sctp to linerate -s: exit $rc: $(tail -n 1 "$tmp/sc.c")"
	# iperf3 3.22 -s on this kernel: "unable to start stream listener: Protocol not supported"
	check sctp-lrs sh -c "[ $rc -eq 1 ] && grep -q 'unable to start stream listener: Protocol not supported' $tmp/sc.c"
	srv_stop
fi
"$LR_BIN" -c 10.97.0.2 --sctp >"$tmp/sctp.out" 2>&1
rc=$?
echo "# linerate -c --sctp: exit $rc: $(cat "$tmp/sctp.out")"
check sctp-refused sh -c "[ $rc -eq 2 ] && [ \$(wc -l <$tmp/sctp.out) -eq 1 ] &&
	grep -q 'SCTP.*sctp module' $tmp/sctp.out"
lr_summary
