#!/usr/bin/env bash
# netem_udp: the UDP data path counts loss and reordering the way iperf3 does, through real
# kernels. Two namespaces joined by veth; tc netem on the sender's side drops 5% (then reorders
# 25% with 5 ms delay); tests/tools/stream_probe runs a paced sender in one namespace and a
# receiver in the other for 2 s. The witness is the kernel: nft counters on the sender's
# postrouting and the receiver's input hook (after any impairment) count the datagrams that left
# and arrived; the probe's sent, received and lost counts must equal them exactly.
# Kernels built without sch_netem (some VMs) get the same impairments from nftables instead:
# `numgen random` drops 5%, or sends 25% through a slow HTB class so they fall behind.
source "$(dirname "$0")/../lib.sh"
lr_plan netem_loss_sent_equals_kernel netem_loss_received_equals_kernel netem_loss_equals_kernel_drops \
	netem_loss_near_5pct netem_loss_no_reorder netem_loss_gso_sent_equals_kernel \
	netem_loss_gso_received_equals_kernel netem_loss_gso_equals_kernel_drops netem_loss_gso_near_5pct \
	netem_reorder_seen netem_reorder_sent_equals_kernel netem_reorder_received_equals_kernel \
	netem_reorder_equals_kernel_drops netem_reorder_all_arrive netem_reorder_no_loss_left \
	gso_fallback_path_reported gso_fallback_all_arrive gso_fallback_seq_contiguous gso_fallback_no_loss \
	gso_fallback_sent_equals_kernel gso_fallback_received_equals_kernel gso_fallback_equals_kernel_drops
need_root netem_udp
cd "$LR_TOP" || exit 1
B=${LR_BUILD:-build}
command -v tc >/dev/null || { lr_skip_plan netem_udp "no tc (iproute2)"; exit 0; }

PROBE=${LR_STREAM_PROBE:-}	# a prebuilt probe may be given (benchmarks, debugging)
if [ -n "$PROBE" ]; then
	:
elif ! make -s B="$B" "$B/tools/stream_probe" >/dev/null 2>&1; then	# the build's own flags
	fail netem_udp_build "make $B/tools/stream_probe failed"
	exit 0
else
	PROBE=$B/tools/stream_probe
fi

u=$(lr_uniq)
NA=${u}a NB=${u}b IA=${u}a0 IB=${u}b0
lr_netns_pair "$NA" "$NB" "$IA" "$IB" 10.213.7.1 10.213.7.2 1500
if tc -n "$NA" qdisc add dev "$IA" root netem loss 5% 2>/dev/null; then
	EMU=netem
# The drop happens on the receiving side: a drop in the sender's output hook would fail the
# send (EPERM) and the sender would rightly send that sequence number again.
elif command -v nft >/dev/null && ip netns exec "$NB" nft -f - <<-'EOF'
	table ip lr_impair {
		chain in {
			type filter hook input priority 0; policy accept;
			udp dport 5201 numgen random mod 100 < 5 drop
		}
	}
	EOF
then
	EMU=nft
	echo "# no sch_netem in this kernel: impairments from nftables + htb"
else
	lr_skip_plan netem_udp "neither tc netem (sch_netem) nor nft (nftables) available"
	exit 0
fi

set_reorder() {
	if [ "$EMU" = netem ]; then
		tc -n "$NA" qdisc change dev "$IA" root netem delay 5ms reorder 25%
		return
	fi
	# 25% of the datagrams get skb->priority 1:20, which HTB maps straight to a class
	# that is slower than their share of the stream: they queue and arrive late.
	ip netns exec "$NB" nft flush ruleset &&
	ip netns exec "$NA" nft add table ip lr_impair &&
	ip netns exec "$NA" nft add chain ip lr_impair out \
		'{ type filter hook output priority 0; policy accept; }' &&
	ip netns exec "$NA" nft add rule ip lr_impair out udp dport 5201 \
		numgen random mod 4 0 meta priority set 1:20 &&
	tc -n "$NA" qdisc add dev "$IA" root handle 1: htb default 10 r2q 1000 &&
	tc -n "$NA" class add dev "$IA" parent 1: classid 1:10 htb rate 1gbit &&
	tc -n "$NA" class add dev "$IA" parent 1: classid 1:20 htb rate 5500kbit burst 1600 \
		cburst 1600 quantum 1600 2>/dev/null
}

kv() { sed -n "s/.*\b$2=\([^ ]*\).*/\1/p" <<<"$1"; }	# kv LINE KEY

# The kernel's witness: an nft counter of UDP to port 5201 leaving NA (postrouting, before the
# qdisc) and one arriving in NB (input, after the impairment's drop chain at priority 0).
# Counters count skbs: a GSO or GRO skb carries several datagrams, so the datagram count is
# taken from the bytes: (bytes - 28 per skb for the IP and UDP headers) / datagram length.
HAVE_NFT=0
command -v nft >/dev/null && HAVE_NFT=1
witness_reset() {
	[ "$HAVE_NFT" -eq 1 ] || return 0
	ip netns exec "$NA" nft delete table ip lr_witness 2>/dev/null
	ip netns exec "$NB" nft delete table ip lr_witness 2>/dev/null
	ip netns exec "$NA" nft -f - <<-'NFT' || HAVE_NFT=0
	table ip lr_witness {
		chain out { type filter hook postrouting priority 10; udp dport 5201 counter; }
	}
	NFT
	ip netns exec "$NB" nft -f - <<-'NFT' || HAVE_NFT=0
	table ip lr_witness {
		chain in { type filter hook input priority 10; udp dport 5201 counter; }
	}
	NFT
}
witness_datagrams() {	# witness_datagrams NS LEN: datagrams the counter in NS saw, or empty
	local pk by
	read -r pk by < <(ip netns exec "$1" nft list table ip lr_witness 2>/dev/null |
		sed -n 's/.*counter packets \([0-9]*\) bytes \([0-9]*\).*/\1 \2/p')
	[ -n "$pk" ] && [ $(((by - 28 * pk) % $2)) -eq 0 ] && echo $(((by - 28 * pk) / $2))
}

# run NAME LEN RATE [probe options]: sets SENT RECV LOST OOO MAXSEQ
run() {
	local name=$1 len=$2 rate=$3 out rpid sline rline
	shift 3
	out=$(mktemp)
	lr_cleanup_add "rm -f $out"
	witness_reset
	ip netns exec "$NB" "$PROBE" recv -u -p 5201 -l "$len" -t 3.5 "$@" >"$out" &
	rpid=$!
	lr_cleanup_add "kill $rpid 2>/dev/null"
	sleep 0.3
	sline=$(ip netns exec "$NA" "$PROBE" send -u -c 10.213.7.2 -p 5201 -l "$len" -b "$rate" \
		-t 2 "$@")
	wait "$rpid"
	rline=$(cat "$out")
	echo "# $name send: $sline"
	echo "# $name recv: $rline"
	LAST_SEND=$sline
	SENT=$(kv "$sline" packets) RECV=$(kv "$rline" packets) LOST=$(kv "$rline" lost)
	OOO=$(kv "$rline" out_of_order) MAXSEQ=$(kv "$rline" max_seq)
	K_OUT='' K_IN=''
	if [ "$HAVE_NFT" -eq 1 ]; then
		K_OUT=$(witness_datagrams "$NA" "$len") K_IN=$(witness_datagrams "$NB" "$len")
		echo "# $name kernel: $K_OUT datagrams left $IA, $K_IN arrived in $NB's input"
	fi
	[ -n "$SENT" ] && [ -n "$RECV" ] && [ -n "$LOST" ] && [ "$SENT" -gt 0 ] && [ "$RECV" -gt 0 ]
}

# against_kernel NAME: the probe's counts against the kernel's. The sender's count is what left
# the stack, the receiver's what arrived; the loss the receiver reports (the gaps it saw, plus
# the tail after its last datagram, which iperf3 takes from the sender's count) is what the
# impairment dropped.
against_kernel() {
	local name=$1
	if [ "$HAVE_NFT" -ne 1 ]; then
		for c in sent_equals_kernel received_equals_kernel equals_kernel_drops; do
			skip "${name}_$c" "no nft to count the datagrams in the kernel"
		done
		return
	fi
	if [ -z "$K_OUT" ] || [ -z "$K_IN" ]; then
		fail "${name}_sent_equals_kernel" "nft counters unreadable or not whole datagrams"
		return
	fi
	check "${name}_sent_equals_kernel (probe $SENT, kernel $K_OUT)" [ "$SENT" -eq "$K_OUT" ]
	check "${name}_received_equals_kernel (probe $RECV, kernel $K_IN)" [ "$RECV" -eq "$K_IN" ]
	check "${name}_equals_kernel_drops (lost $LOST + tail $((SENT - MAXSEQ)), kernel dropped $((K_OUT - K_IN)))" \
		[ $((LOST + SENT - MAXSEQ)) -eq $((K_OUT - K_IN)) ]
}

# loss_band NAME LO_PERMILLE HI_PERMILLE
loss_band() {
	local pm=$(((SENT - RECV) * 1000 / SENT))
	if [ "$pm" -ge "$2" ] && [ "$pm" -le "$3" ]; then
		pass "$1"
	else
		fail "$1" "loss ${pm} permille, want $2..$3"
	fi
}

# 1) 5% loss, paced at 20 Mbit/s, 1000-byte datagrams (one datagram per batch)
if run loss 1000 20000000 --no-gso; then
	against_kernel netem_loss
	loss_band netem_loss_near_5pct 30 70
	check netem_loss_no_reorder [ "$OOO" -eq 0 ]
else
	fail netem_loss_run "probe failed"
fi

# 2) the same with GSO batches (200 Mbit/s: several datagrams per super-buffer) and GRO on the
#    receiver: netem drops whole super-buffers, the split on receive must still count right
if run loss_gso 1000 200000000; then
	against_kernel netem_loss_gso
	loss_band netem_loss_gso_near_5pct 20 80
else
	fail netem_loss_gso_run "probe failed"
fi

# 3) reordering without loss
set_reorder
if run reorder 1000 20000000 --no-gso; then
	check netem_reorder_seen [ "$OOO" -gt 0 ]
	against_kernel netem_reorder
	check netem_reorder_all_arrive [ "$RECV" -eq "$SENT" ]
	check netem_reorder_no_loss_left [ "$LOST" -eq 0 ]
else
	fail netem_reorder_run "probe failed"
fi

# 4) GSO refused by the kernel: datagrams longer than the route MTU cannot be GSO segments
#    (EMSGSIZE/EINVAL). The sender must fall back to plain sendmmsg (IP fragments) without
#    losing or skipping a sequence number.
if [ "$EMU" = netem ]; then
	tc -n "$NA" qdisc del dev "$IA" root 2>/dev/null
else
	ip netns exec "$NA" nft flush ruleset
	tc -n "$NA" qdisc del dev "$IA" root 2>/dev/null
fi
ip -n "$NA" link set "$IA" mtu 1280
ip -n "$NB" link set "$IB" mtu 1280
if run gso_fallback 1400 200000000; then
	check gso_fallback_path_reported grep -q 'path="udp sendmmsg"' <<<"$LAST_SEND"
	check gso_fallback_all_arrive [ "$RECV" -eq "$SENT" ]
	check gso_fallback_seq_contiguous [ "$MAXSEQ" -eq "$SENT" ]
	check gso_fallback_no_loss [ "$LOST" -eq 0 ]
	against_kernel gso_fallback
else
	fail gso_fallback_run "probe failed"
fi
