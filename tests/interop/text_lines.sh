#!/usr/bin/env bash
# iperf3's text, line for line (design §9), held against iperf3 3.22 (Debian sid's build,
# scripts/upstream-iperf3.sh): for each case iperf3 3.22's own client and `linerate -c
# --headless` run the same options against iperf3 3.22 servers in a namespace pair, and the two
# outputs, reduced line by line to a shape, must be the same sequence. A line's shape: addresses
# -> A; up to its " sec " (the ID, role and interval columns, fixed-width in iperf3) each digit ->
# 9 so the alignment is kept; after it each number -> N, unit prefixes dropped (the magnitude
# depends on the run, the kind of unit does not), runs of blanks -> one (a trailing one kept).
# Both outputs end at their "Done." line ("iperf Done." / "linerate Done."); what linerate
# prints after it (the NIC view, the verdict, the loss ledger) is its own and not compared.
# The two clients run at once, each against its own server of the same build (half the wall
# time; the shape does not depend on the bitrate).
source "$(dirname "$0")/../lib.sh"
cases=("tcp:-t 1 -i 0.5" "tcp-R:-t 1 -R" "udp:-t 1 -u -b 50M" "udp-R:-t 1 -u -b 50M -R"
	"bidir:-t 1 --bidir" "P2:-t 2 -P 2")
for c in "${cases[@]}"; do lr_plan "client text = iperf3 3.22's: ${c%%:*}"; done
need_root text_lines
dir=$(lr_iperf3_path sid) || { lr_skip_plan text_lines "iperf3 3.22 (sid) not installed: scripts/upstream-iperf3.sh"; exit 0; }
ver=$(lr_iperf3_version sid)
[ "$ver" = 3.22 ] || { lr_skip_plan text_lines "sid's iperf3 is $ver, not 3.22"; exit 0; }
[ -x "$LR_BIN" ] || { lr_skip_plan text_lines "$LR_BIN not built"; exit 0; }
I3=$dir/iperf3

A=lrtA$$ B=lrtB$$
work=$(mktemp -d); lr_cleanup_add "rm -rf $work"
lr_netns_pair "$A" "$B" lrta$$ lrtb$$ 10.209.0.1 10.209.0.2 1500
for port in 5311 5312; do
	lr_bg ip netns exec "$B" "$I3" -s -p "$port" >/dev/null 2>&1
	lr_wait_listen "$port" "$B" || fail "server on $port" "iperf3 3.22 -s did not listen"
done

# shape FILE: one shape per line, up to and with the "Done." line
shape() {
	awk '{
		gsub(/[0-9]+\.[0-9]+\.[0-9]+\.[0-9]+/, "A")
		if ($0 ~ /^(iperf|linerate) Done\.$/) { print "Done."; exit }
		i = index($0, " sec ")
		head = i ? substr($0, 1, i + 4) : ""; rest = i ? substr($0, i + 5) : $0
		gsub(/[0-9]/, "9", head)
		gsub(/[0-9]+(\.[0-9]+)?(e[-+]?[0-9]+)?/, "N", rest)
		gsub(/[KMGT]Bytes/, "Bytes", rest); gsub(/[KMGT]bits/, "bits", rest)
		gsub(/ +/, " ", rest)
		print head rest
	}' "$1"
}

for c in "${cases[@]}"; do
	name=${c%%:*}; read -ra opts <<<"${c#*:}"
	ip netns exec "$A" "$I3" -c 10.209.0.2 -p 5311 "${opts[@]}" >"$work/$name.i3" 2>&1 &
	i3=$!
	ip netns exec "$A" timeout 20 "$LR_BIN" -c 10.209.0.2 -p 5312 --headless "${opts[@]}" \
		>"$work/$name.lr" 2>"$work/$name.err"
	lrc=$?
	wait "$i3"; irc=$?
	shape "$work/$name.i3" >"$work/$name.i3s"; shape "$work/$name.lr" >"$work/$name.lrs"
	n=$(diff "$work/$name.i3s" "$work/$name.lrs" | grep -c '^[<>]')
	first=$(paste -d '\n' "$work/$name.i3s" "$work/$name.lrs" | awk 'NR % 2 { a = $0; next }
		a != $0 { printf "line %d: iperf3 [%s] linerate [%s]", NR / 2, a, $0; exit }')
	[ -z "$first" ] && [ "$(wc -l <"$work/$name.i3s")" != "$(wc -l <"$work/$name.lrs")" ] &&
		first="iperf3 has $(wc -l <"$work/$name.i3s") lines, linerate $(wc -l <"$work/$name.lrs")"
	echo "# $name (${opts[*]}): $(wc -l <"$work/$name.i3s") iperf3 lines, $(wc -l <"$work/$name.lrs") linerate lines, $n differ (diff)"
	if [ "$irc" -ne 0 ] || [ "$lrc" -ne 0 ]; then
		fail "client text = iperf3 3.22's: $name" "exit iperf3 $irc, linerate $lrc: $(head -c 300 "$work/$name.err")"
	elif [ -n "$first" ]; then
		fail "client text = iperf3 3.22's: $name" "$first"
		echo "--- iperf3 3.22:"; cat "$work/$name.i3"; echo "--- linerate:"; sed '/Done\.$/q' "$work/$name.lr"
	else
		pass "client text = iperf3 3.22's: $name"
	fi
done
lr_summary
