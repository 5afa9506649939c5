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
# The two clients run at once, each against its own server of the same build, and at the same
# time the servers' pair below (a quarter of the wall time; the shape does not depend on the
# bitrate).
# The server's text the same way: `linerate -s -1` and iperf3 3.22's `-s -1` each serve iperf3
# 3.22's client. Two things are left out of that comparison: the banner (ours names linerate
# where iperf3's counts tests), and the number of interval blocks: iperf3 -s adds a short tail
# interval of its own whenever bytes arrive after its last tick (1.00-1.00 sec), so its interval
# lines are compared as their distinct shapes in order; the summary from its "- - -" line on is
# compared line by line.
source "$(dirname "$0")/../lib.sh"
cases=("tcp:-t 1 -i 0.5" "tcp-R:-t 1 -R" "udp:-t 1 -u -b 50M" "udp-R:-t 1 -u -b 50M -R"
	"bidir:-t 1 --bidir" "P2:-t 1 -i 0.5 -P 2")
for c in "${cases[@]}"; do
	lr_plan "client text = iperf3 3.22's: ${c%%:*}" "server text = iperf3 3.22's: ${c%%:*}"
done
lr_plan "no zero-length interval in linerate's lines" "server -J: 2 intervals in -t 1 at -i 0.5"
need_root text_lines
dir=$(lr_iperf3_path sid) || { lr_skip_plan text_lines "iperf3 3.22 (sid) not installed: scripts/upstream-iperf3.sh"; exit 0; }
ver=$(lr_iperf3_version sid)
[ "$ver" = 3.22 ] || { lr_skip_plan text_lines "sid's iperf3 is $ver, not 3.22"; exit 0; }
[ -x "$LR_BIN" ] || { lr_skip_plan text_lines "$LR_BIN not built"; exit 0; }
command -v jq >/dev/null || { lr_skip_plan text_lines "jq not installed (scripts/deps.sh)"; exit 0; }
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
# shape_srv FILE: a server's shapes, banner out, interval lines before the summary's "- - -"
# (the last one) kept once each
shape_srv() {
	shape "$1" | grep -v -e '^-----*$' -e '^Server listening on ' | awk '
		{ line[NR] = $0; if ($0 ~ /^- - -/) last = NR }
		END { for (i = 1; i <= NR; i++) if (i >= last || !seen[line[i]]++) print line[i] }'
}

# compare NAME SIDE IPERF3_OUT LINERATE_OUT IPERF3_SHAPES LINERATE_SHAPES: one check
compare() {
	local name=$1 side=$2 n first
	n=$(diff "$5" "$6" | grep -c '^[<>]')
	first=$(paste -d '\n' "$5" "$6" | awk 'NR % 2 { a = $0; next }
		a != $0 { printf "line %d: iperf3 [%s] linerate [%s]", NR / 2, a, $0; exit }')
	echo "# $side $name: $(wc -l <"$5") iperf3 shapes, $(wc -l <"$6") linerate shapes, $n differ (diff)"
	if [ -n "$first" ]; then
		fail "$side text = iperf3 3.22's: $name" "$first"
		echo "--- iperf3 3.22:"; cat "$3"; echo "--- linerate:"; sed '/Done\.$/q' "$4"
	else
		pass "$side text = iperf3 3.22's: $name"
	fi
}

for c in "${cases[@]}"; do
	name=${c%%:*}; read -ra opts <<<"${c#*:}"
	# the servers' test: iperf3 3.22 -s on 5321, ours on 5322, one test each, two intervals
	# in it (a server's -i is its own: -P's "- - -" between intervals needs two)
	ip netns exec "$B" "$I3" -s -1 -i 0.5 -p 5321 >"$work/$name.si3" 2>&1 &
	si3=$!
	ip netns exec "$B" timeout 20 "$LR_BIN" -s -1 -i 0.5 -p 5322 >"$work/$name.slr" \
		2>"$work/$name.serr" &
	slr=$!
	lr_cleanup_add "kill $si3 $slr 2>/dev/null"
	lr_wait_listen 5321 "$B"; lr_wait_listen 5322 "$B"
	if [ "$name" = tcp ]; then	# and our server's -J intervals for the same test
		ip netns exec "$B" timeout 20 "$LR_BIN" -s -1 -J -i 0.5 -p 5323 >"$work/sj.json" 2>"$work/sj.err" &
		sj=$!
		lr_cleanup_add "kill $sj 2>/dev/null"
		lr_wait_listen 5323 "$B"
		ip netns exec "$A" "$I3" -c 10.209.0.2 -p 5323 "${opts[@]}" >/dev/null 2>&1 &
		c3=$!
	fi
	# all four tests at once: the clients' pair and the servers' pair
	ip netns exec "$A" "$I3" -c 10.209.0.2 -p 5321 "${opts[@]}" >/dev/null 2>&1 &
	c1=$!
	ip netns exec "$A" "$I3" -c 10.209.0.2 -p 5322 "${opts[@]}" >/dev/null 2>&1 &
	c2=$!
	ip netns exec "$A" "$I3" -c 10.209.0.2 -p 5311 "${opts[@]}" >"$work/$name.i3" 2>&1 &
	i3=$!
	ip netns exec "$A" timeout 20 "$LR_BIN" -c 10.209.0.2 -p 5312 --headless "${opts[@]}" \
		>"$work/$name.lr" 2>"$work/$name.err"
	lrc=$?
	wait "$i3"; irc=$?
	if [ "$irc" -ne 0 ] || [ "$lrc" -ne 0 ]; then
		fail "client text = iperf3 3.22's: $name" "exit iperf3 $irc, linerate $lrc: $(head -c 300 "$work/$name.err")"
	else
		shape "$work/$name.i3" >"$work/$name.i3s"; shape "$work/$name.lr" >"$work/$name.lrs"
		compare "$name" client "$work/$name.i3" "$work/$name.lr" "$work/$name.i3s" "$work/$name.lrs"
	fi
	wait "$c1"; wait "$c2"; wait "$si3"; irc=$?; wait "$slr"; lrc=$?
	if [ "$name" = tcp ]; then
		# the client's -t 1 in -i 0.5 steps is two intervals, the last up to the test's end
		wait "$c3"; wait "$sj"
		spans=$(jq -r '[.intervals[].sum | "\(.start)-\(.end)"] | join(" ")' "$work/sj.json" 2>&1)
		echo "# our server's -J intervals for -t 1 -i 0.5: $spans"
		check "server -J: 2 intervals in -t 1 at -i 0.5" test "$(wc -w <<<"$spans")" -eq 2
	fi
	if [ "$irc" -ne 0 ] || [ "$lrc" -ne 0 ]; then
		fail "server text = iperf3 3.22's: $name" "exit iperf3 -s $irc, linerate -s $lrc: $(head -c 300 "$work/$name.serr")"
	else
		shape_srv "$work/$name.si3" >"$work/$name.si3s"; shape_srv "$work/$name.slr" >"$work/$name.slrs"
		compare "$name" server "$work/$name.si3" "$work/$name.slr" "$work/$name.si3s" "$work/$name.slrs"
	fi
done
# design §9: no interval "a-b sec" with a = b (the tail a test's last bytes once got), in any of
# linerate's lines above, client's or server's (the server's count is not compared above)
zero=$(cat "$work"/*.lr "$work"/*.slr | awk '{ for (i = 1; i < NF; i++) if ($(i + 1) == "sec" &&
	split($i, t, "-") == 2 && t[1] == t[2]) print }')
echo "# linerate's interval lines: $(cat "$work"/*.lr "$work"/*.slr | grep -c ' sec ')"
check "no zero-length interval in linerate's lines" test -z "$zero" || echo "$zero"
lr_summary
