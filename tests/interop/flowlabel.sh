#!/usr/bin/env bash
# -L/--flowlabel (issue 10, docs/design.md §9): the IPv6 flow label on the client's data packets, read
# from the wire by tests/tools/flowlabel_sniff (AF_PACKET on the loopback of a namespace this
# script creates), against linerate's and Debian iperf3's servers, TCP and UDP. The kernel puts
# its own (random) flow labels on IPv6 packets by default, so each check asks for the exact
# label, and one runs without -L to see that the label is not there by chance. Also what
# iperf3 does with -L on an IPv4 test (exit 1, "unable to set IPv6 flow label") and that the
# label goes to the server in the test parameters ("flowlabel", as iperf3's client sends it).
. "$(dirname "$0")/../lib.sh"
lr_plan lrc-lrs-tcp lrc-lrs-udp lrc-lrs-none lrc-i3s-tcp lrc-params-key \
i3c-lrs-tcp i3c-lrs-reverse ipv4-refused
need_root flowlabel
SNIFF=$(dirname "$LR_BIN")/tools/flowlabel_sniff
[ -x "$LR_BIN" ] && [ -x "$SNIFF" ] || { lr_skip_plan flowlabel "$LR_BIN or flowlabel_sniff not built"; exit 0; }
have_i3=$(command -v iperf3)
tmp=$(mktemp -d) && lr_cleanup_add "rm -rf $tmp"
ns=$(lr_uniq)
ip netns add "$ns" && lr_cleanup_add "ip netns del $ns" || { lr_skip_plan flowlabel "cannot create a namespace"; exit 0; }
ip -n "$ns" link set lo up
IN="ip netns exec $ns"
LABEL=0x2a5c3	# 173507
port=5480

wait_listen() { lr_wait_listen "$1" "$ns" 60; }	# wait_listen PORT: up to 3 s, in the namespace
srv_start() {	# srv_start CMD...: a server in the namespace on $port ($spid)
	$IN "$@" >"$tmp/srv.out" 2>"$tmp/srv.err" &
	spid=$!
	lr_cleanup_add "kill $spid 2>/dev/null"
	wait_listen "$port"
}
srv_stop() { kill "$spid" 2>/dev/null; wait "$spid" 2>/dev/null; }

# sniffed CMD...: runs the client CMD in the namespace while the sniffer records port $port's
# flows ($tmp/sniff); the client's exit status in $crc
sniffed() {
	local i
	$IN "$SNIFF" lo "$port" 10 >"$tmp/sniff" 2>"$tmp/sniff.err" &
	local sn=$!
	lr_cleanup_add "kill $sn 2>/dev/null"
	for ((i = 0; i < 40; i++)); do grep -q ready "$tmp/sniff.err" && break; sleep 0.05; done
	$IN "$@" >"$tmp/cli.out" 2>"$tmp/cli.err"
	crc=$?
	sleep 0.1	# the last packets
	kill -TERM "$sn" 2>/dev/null
	wait "$sn"
}

# data_labels: the labels of the data flows to the server (over 100 kB each), one per line
data_labels() {
	awk -v p="dst=$port" '$3 == p { split($6, b, "="); if (b[2] > 100000) print $4 }' "$tmp/sniff" |
		sed 's/label=//'
}

# judge_labels NAME WANT_COUNT: every data flow carries $LABEL, and there are WANT_COUNT of them
judge_labels() {
	local name=$1 want=$2 got all
	all=$(data_labels | tr '\n' ' ')
	got=$(data_labels | grep -c "^$(printf '0x%05x' $((LABEL)))$")
	echo "# $name: client exit $crc, data flows' labels: ${all:-none} (want $want x $(printf '0x%05x' $((LABEL))))"
	if [ "$crc" -eq 0 ] && [ "$got" -eq "$want" ] && [ "$(data_labels | wc -l)" -eq "$want" ]; then
		pass "$name"
	else
		fail "$name" "exit $crc, labels ${all:-none}; $(tail -n1 "$tmp/cli.err")"
	fi
}

# --- linerate client -> linerate server --------------------------------------------------------
if srv_start "$LR_BIN" -s -p "$port"; then
	sniffed "$LR_BIN" -c ::1 -p "$port" --headless -t 1 -P 2 -L "$LABEL"
	judge_labels lrc-lrs-tcp 2
	sniffed "$LR_BIN" -c ::1 -p "$port" --headless -t 1 -u -b 20M -L "$LABEL"
	judge_labels lrc-lrs-udp 1
	sniffed "$LR_BIN" -c ::1 -p "$port" --headless -t 1
	all=$(data_labels | tr '\n' ' ')
	echo "# lrc-lrs-none: client exit $crc, data flow labels without -L: ${all:-none}"
	if [ "$crc" -eq 0 ] && [ -n "$all" ] && ! data_labels | grep -q "$(printf '0x%05x' $((LABEL)))"; then
		pass lrc-lrs-none
	else
		fail lrc-lrs-none "exit $crc, labels ${all:-none}: the requested label without -L?"
	fi
	srv_stop
else
	fail lrc-lrs-tcp "linerate -s did not listen"; skip lrc-lrs-udp "no server"; skip lrc-lrs-none "no server"
fi

# --- linerate client -> iperf3 server: the label on the wire, and in the parameters ----------
port=$((port + 1))
if [ -z "$have_i3" ]; then
	skip lrc-i3s-tcp "iperf3 not installed"; skip lrc-params-key "iperf3 not installed"
elif srv_start iperf3 -s -1 -d -p "$port"; then
	sniffed "$LR_BIN" -c ::1 -p "$port" --headless -t 1 -L "$LABEL"
	judge_labels lrc-i3s-tcp 1
	srv_stop
	# iperf3 -d prints the parameters it received
	if grep -q "\"flowlabel\":[[:space:]]*$((LABEL))\b" "$tmp/srv.out"; then pass lrc-params-key
	else fail lrc-params-key "iperf3 -s -d shows no \"flowlabel\":$((LABEL)) in the parameters"; fi
else
	fail lrc-i3s-tcp "iperf3 -s did not listen"; skip lrc-params-key "no server"
fi

# --- iperf3 client -> linerate server: the server takes the key (its strict decoder) ----------
port=$((port + 1))
if [ -z "$have_i3" ]; then
	skip i3c-lrs-tcp "iperf3 not installed"; skip i3c-lrs-reverse "iperf3 not installed"
elif srv_start "$LR_BIN" -s -p "$port"; then
	sniffed iperf3 -c ::1 -p "$port" -t 1 -L "$LABEL"
	judge_labels i3c-lrs-tcp 1
	# -R: iperf3's server sets no label on the data it sends (it applies -L only where it
	# connects), and neither does linerate's; the client's parameters must still be taken
	$IN iperf3 -c ::1 -p "$port" -t 1 -R -L "$LABEL" -J >"$tmp/r.json" 2>&1
	rc=$?
	bytes=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["end"]["sum_received"]["bytes"])' "$tmp/r.json" 2>/dev/null)
	echo "# i3c-lrs-reverse: iperf3 exit $rc, received ${bytes:-?} bytes"
	if [ "$rc" -eq 0 ] && [ "${bytes:-0}" -gt 0 ]; then pass i3c-lrs-reverse
	else fail i3c-lrs-reverse "iperf3 -R -L against linerate -s: exit $rc, ${bytes:-no} bytes"; fi
	srv_stop
else
	fail i3c-lrs-tcp "linerate -s did not listen"; skip i3c-lrs-reverse "no server"
fi

# --- -L on an IPv4 test: iperf3's client fails it (exit 1), linerate's too -------------------
port=$((port + 1))
if srv_start "$LR_BIN" -s -p "$port"; then
	$IN "$LR_BIN" -c 127.0.0.1 -p "$port" --headless -t 1 -L 5 >/dev/null 2>"$tmp/v4.err"
	rc=$?
	i3rc=1
	[ -n "$have_i3" ] && { $IN iperf3 -c 127.0.0.1 -p "$port" -t 1 -L 5 >/dev/null 2>&1; i3rc=$?; }
	echo "# ipv4-refused: linerate exit $rc ($(head -c 120 "$tmp/v4.err")), iperf3 exit $i3rc"
	if [ "$rc" -eq 1 ] && [ "$i3rc" -eq 1 ] && grep -q "unable to set IPv6 flow label" "$tmp/v4.err"; then
		pass ipv4-refused
	else
		fail ipv4-refused "linerate exit $rc, iperf3 exit $i3rc"
	fi
	srv_stop
else
	fail ipv4-refused "linerate -s did not listen"
fi
lr_summary
