#!/usr/bin/env bash
# The ethtool collector against the real kernel: a veth pair between two network namespaces,
# read through lr_ethtool_* (tests/tools/ethtool_probe.c, built here against liblinerate.a)
# and through ethtool(8). Names and values must be identical, also as an unprivileged user
# and after the channel count changes at runtime; speed, duplex and driver must agree with
# `ethtool IF` / `ethtool -i IF`; peer_ifindex must be the peer's ifindex.
source "$(dirname "$0")/../lib.sh"
need_root "ethtool_veth"
command -v ethtool >/dev/null || { skip ethtool_veth "ethtool(8) not installed"; exit 0; }

cd "$LR_TOP" || exit 1
B=${LR_BUILD:-build}
work=$(mktemp -d); lr_cleanup_add "rm -rf $work"
probe=$B/tools/ethtool_probe	# built by `make test` with the build's own flags
if ! make -s B="$B" "$probe" >"$work/make.log" 2>&1; then
	fail ethtool_veth_build "$(tail -n 5 "$work/make.log")"
	exit 1
fi

NA=lrea$$ NB=lreb$$ IA=lrea$$ IB=lreb$$
lr_netns_pair "$NA" "$NB" "$IA" "$IB" 10.203.0.1 10.203.0.2 1500
for ns in "$NA" "$NB"; do	# no IPv6 chatter between two reads
	ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.disable_ipv6=1
	ip netns exec "$ns" sysctl -qw net.ipv6.conf.default.disable_ipv6=1
done

# GRO on the receiver (veth's NAPI path; also checked as a feature bit below), some traffic.
ip netns exec "$NB" ethtool -K "$IB" gro on >/dev/null 2>&1
ip netns exec "$NA" ping -q -c 20 -i 0.01 -W 1 10.203.0.2 >/dev/null 2>&1

# Reads probe and ethtool -S back to back until nothing moved in between (max 5 tries).
# $1: "root" or "nobody"; output in $work/probe.$1 and $work/ethtool.$1.
read_both() {
	local who=$1 i run=()

	[ "$who" = nobody ] && run=(setpriv --reuid=65534 --regid=65534 --clear-groups)
	for i in 1 2 3 4 5; do
		ip netns exec "$NB" ethtool -S "$IB" >"$work/e1" 2>&1
		ip netns exec "$NB" "${run[@]}" "$probe" "$IB" >"$work/probe.$who" 2>&1
		ip netns exec "$NB" ethtool -S "$IB" >"$work/ethtool.$who" 2>&1
		cmp -s "$work/e1" "$work/ethtool.$who" && return 0
	done
	return 1
}

if read_both root; then
	if cmp -s "$work/probe.root" "$work/ethtool.root"; then
		pass ethtool_veth_names_values
	else
		fail ethtool_veth_names_values "$(diff "$work/ethtool.root" "$work/probe.root" | head -5)"
	fi
else
	skip ethtool_veth_names_values "counters kept moving between reads"
fi

n=$(grep -c ': ' "$work/probe.root")
if [ "$n" -ge 8 ] && grep -q '^     rx_queue_0_xdp_packets: ' "$work/probe.root"; then
	pass ethtool_veth_stat_names
else
	fail ethtool_veth_stat_names "$n stats, rx_queue_0_xdp_packets missing"
fi

peer=$(ip netns exec "$NA" cat "/sys/class/net/$IA/ifindex")
got=$(sed -n 's/^     peer_ifindex: //p' "$work/probe.root")
check ethtool_veth_peer_ifindex [ "$got" = "$peer" ]

# Unprivileged: SIOCETHTOOL's get commands need no capability.
if read_both nobody; then
	if cmp -s "$work/probe.nobody" "$work/ethtool.nobody"; then
		pass ethtool_veth_non_root
	else
		fail ethtool_veth_non_root "$(head -3 "$work/probe.nobody")"
	fi
else
	skip ethtool_veth_non_root "counters kept moving between reads"
fi

# Link info against ethtool(8).
ip netns exec "$NB" "$probe" -i "$IB" >"$work/info" 2>&1
drv=$(ip netns exec "$NB" ethtool -i "$IB" | sed -n 's/^driver: //p')
spd=$(ip netns exec "$NB" ethtool "$IB" | sed -n 's/^[[:space:]]*Speed: \([0-9]*\)Mb\/s/\1/p')
dup=$(ip netns exec "$NB" ethtool "$IB" | sed -n 's/^[[:space:]]*Duplex: //p')
case $dup in Full) dup=1 ;; Half) dup=0 ;; *) dup=-1 ;; esac
[ -n "$spd" ] || spd=-1
if grep -qx "driver=$drv" "$work/info" && grep -qx "speed=$spd" "$work/info" &&
	grep -qx "duplex=$dup" "$work/info" && grep -qx "err_drvinfo=0" "$work/info"; then
	pass ethtool_veth_link_info
else
	fail ethtool_veth_link_info "want driver=$drv speed=$spd duplex=$dup; got $(tr '\n' ' ' <"$work/info")"
fi
gro_line=$(ip netns exec "$NB" ethtool -k "$IB" | sed -n 's/^generic-receive-offload: //p')
feat=$(sed -n 's/^features=//p' "$work/info")
if [ "${gro_line%% *}" = on ] && [ $((feat & 0x20)) -ne 0 ]; then
	pass ethtool_veth_features
else
	fail ethtool_veth_features "gro '$gro_line', features=$feat"
fi

# The count changes at runtime: more rx queues (veth set_channels, kernel 5.13+).
mkfifo "$work/go"
ip netns exec "$NB" "$probe" -w "$IB" <"$work/go" >"$work/watch" 2>&1 &
probe_pid=$!
lr_cleanup_add "kill $probe_pid 2>/dev/null; wait $probe_pid 2>/dev/null"
exec 9>"$work/go"
for _ in $(seq 50); do grep -q '^NIC statistics:' "$work/watch" && break; sleep 0.1; done
if ip netns exec "$NB" ethtool -L "$IB" rx 2 tx 2 >/dev/null 2>&1; then
	echo >&9
	exec 9>&-
	wait "$probe_pid"
	ip netns exec "$NB" ethtool -S "$IB" >"$work/ethtool.after"
	sed -n '/^names_changed/,$p' "$work/watch" | tail -n +2 >"$work/probe.after"
	if grep -q '^names_changed=1 err=0' "$work/watch" &&
		grep -q '^     rx_queue_1_xdp_packets: ' "$work/probe.after" &&
		cmp -s "$work/probe.after" "$work/ethtool.after"; then
		pass ethtool_veth_count_changes
	else
		fail ethtool_veth_count_changes "$(grep names_changed "$work/watch"); $(diff "$work/ethtool.after" "$work/probe.after" | head -3)"
	fi
else
	exec 9>&-
	wait "$probe_pid"
	skip ethtool_veth_count_changes "this kernel's veth cannot change its channel count"
fi
