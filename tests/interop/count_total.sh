#!/usr/bin/env bash
# -n/-k with -P > 1 count over all streams together, as iperf3 does (issue 10): the test ends
# when the streams' total reaches the count, whichever stream sent it. On the loopback of a
# fresh namespace, each case runs iperf3 3.12 <-> iperf3 and then linerate in iperf3's place
# (as the client, and as the server of a -R test, where the server counts); the witness is
# iperf3's own report of the peer's bytes (its -J): the linerate total is within one block per
# stream of iperf3's own total, and for unpaced TCP -n exactly the count in whole blocks (what
# iperf3 sends; split per stream it was a block more). Split per stream (the old way) a stream that fell behind made
# the others wait for it, or the total overshot by up to a block per stream. Unpaced UDP -k
# over 2 streams sends exactly the count (nft's counter of the datagrams on the way out): a
# batch of 256 must be cut short at the count. Root only.
. "$(dirname "$0")/../lib.sh"
CASES=("tcp -n:-n 10M -P 3" "tcp -k paced:-k 100 -P 3 -b 100M" "udp -n:-u -n 5M -P 3 -b 50M -l 1400"
	"tcp -n -R:-n 10M -P 3 -R")
for c in "${CASES[@]}"; do lr_plan "count total: ${c%%:*}"; done
lr_plan "count total: udp -k unpaced, the datagrams on the wire"
need_root count_total
command -v iperf3 >/dev/null || { lr_skip_plan count_total "iperf3 not installed"; exit 0; }
command -v python3 >/dev/null || { lr_skip_plan count_total "python3 not installed"; exit 0; }
[ -x "$LR_BIN" ] || { lr_skip_plan count_total "$LR_BIN not built"; exit 0; }

PORT=5564
ns=$(lr_uniq)n
lr_netns_lo "$ns" || { lr_skip_plan count_total "netns"; exit 0; }
tmp=$(mktemp -d) && lr_cleanup_add "rm -rf $tmp"
in_ns() { ip netns exec "$ns" "$@"; }

wait_listen() { lr_wait_listen "$PORT" "$ns" 60; }

# run CLIENT SERVER TAG ARGS...: the iperf3 end's -J in $tmp/TAG.json
run() {
	local c=$1 s=$2 tag=$3 spid
	shift 3
	if [ "$s" = lr ]; then
		in_ns "$LR_BIN" -s -1 -p "$PORT" >/dev/null 2>&1 &
	else
		in_ns iperf3 -s -1 -p "$PORT" -J >"$tmp/$tag-s.json" 2>&1 &
	fi
	spid=$!
	lr_cleanup_add "kill $spid 2>/dev/null"
	wait_listen || { kill "$spid"; return; }
	if [ "$c" = lr ]; then
		in_ns timeout 30 "$LR_BIN" -c 127.0.0.1 -p "$PORT" --headless "$@" >/dev/null 2>&1
	else
		in_ns timeout 30 iperf3 -c 127.0.0.1 -p "$PORT" -J "$@" >"$tmp/$tag-c.json" 2>&1
	fi
	wait "$spid" 2>/dev/null
}

# verdict REF LR REV LEN P EXACT WANT: REF = iperf3 <-> iperf3 (its client's -J), LR = the iperf3
# end of the linerate test; REV: the sender is the server; EXACT (0: none) the count unpaced TCP
# must hit in whole blocks; WANT the -n/-k count in bytes
verdict() {
	python3 - "$@" <<'PY'
import json, sys
ref, lr, rev, blk, p = sys.argv[1], sys.argv[2], sys.argv[3] == "1", int(sys.argv[4]), int(sys.argv[5])
count = int(sys.argv[6])
def total(f, key):
    try:
        return json.load(open(f))["end"][key]["bytes"]
    except Exception as e:
        print(f"BAD no result in {f}: {e}"); sys.exit(0)
r = total(ref, "sum_sent")
want = int(sys.argv[7]) if len(sys.argv) > 7 else 0
try:
    ver = json.load(open(ref))["start"]["version"]
    threaded = int(ver.split(".")[1].split()[0]) >= 16
except Exception:
    threaded = False
if threaded and want:
    # iperf3 3.16+ checks -n/-k in its main loop only while threads send: against itself it
    # overshoots (3.21: 37748736 for -k 100 x 128K paced). The count is the reference then.
    print("# iperf3 <-> iperf3 (%s) sent %d for a count of %d: the count is the reference" % (ver, r, want))
    r = want
# iperf3 -s of a linerate client: what it received; iperf3 -c -R of a linerate server: what the
# server reported sending (its results) and what iperf3 read
got = total(lr, "sum_sent" if rev else "sum_received")
txt = "linerate %d bytes, iperf3 <-> iperf3 %d (block %d x %d streams)" % (got, r, blk, p)
if abs(got - r) > blk * p:
    print("BAD totals differ by more than a block per stream: " + txt)
elif count and got != -(-count // blk) * blk:
    # unpaced TCP: iperf3 sends whole blocks until the total reaches the count, no more
    print("BAD not the count rounded up to whole blocks (%d): %s" % (-(-count // blk) * blk, txt))
else:
    print("OK " + txt)
PY
}

for c in "${CASES[@]}"; do
	name="count total: ${c%%:*}" args=${c#*:}
	# shellcheck disable=SC2086
	set -- $args
	blk=131072
	case " $args " in *" -l 1400 "*) blk=1400 ;; esac
	exact=0	# unpaced TCP -n: exactly the count in whole blocks, as iperf3 sends
	case $args in "-n 10M -P 3"*) exact=$((10 << 20)) ;; esac
	want=$((10 << 20))	# the count in bytes
	case $args in "-k 100 "*) want=$((100 * blk)) ;; *"-n 5M"*) want=$((5 << 20)) ;; esac
	run i3 i3 ref "$@"
	case " $args " in
	*" -R "*)	# linerate -s sends and counts; iperf3 -c reports both ends
		run i3 lr lr "$@"
		out=$(verdict "$tmp/ref-c.json" "$tmp/lr-c.json" 1 "$blk" 3 "$exact" "$want") ;;
	*)
		run lr i3 lr "$@"
		out=$(verdict "$tmp/ref-c.json" "$tmp/lr-s.json" 0 "$blk" 3 "$exact" "$want") ;;
	esac
	grep '^#' <<<"$out"
	out=$(grep -v '^#' <<<"$out")
	case $out in
	OK*) pass "$name: ${out#OK }" ;;
	*) fail "$name" "${out#BAD }" ;;
	esac
done

# Unpaced UDP, -k 3000 over 2 streams (plain sendmmsg: one skb a datagram, so nft counts
# datagrams): the streams ask for batches of up to 256 datagrams, and the shared count must cut
# the last one short. The witness is nft's counter on the way out, whatever the receiver lost;
# iperf3's own report beside it can only be lower (datagrams lost at the tail have no later
# sequence number to show them).
name="count total: udp -k unpaced, the datagrams on the wire"
if in_ns nft -f - <<-EOF
	table inet lrcount {
		chain out {
			type filter hook output priority 0; policy accept;
			udp dport $PORT udp length > 100 counter
		}
	}
	EOF
then
	run lr i3 udpk -u -k 3000 -P 2 -b 0 -l 1000 --no-gso
	wire=$(in_ns nft list table inet lrcount | grep -oP 'counter packets \K[0-9]+')
	got=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["end"]["sum_received"]["packets"])' \
		"$tmp/udpk-s.json" 2>/dev/null)
	if [ "$wire" = 3000 ] && [ -n "$got" ] && [ "$got" -le 3000 ]; then
		pass "$name: nft counted $wire, iperf3 -s saw up to datagram $got"
	else
		fail "$name" "nft counted ${wire:-nothing}, iperf3 -s saw up to datagram ${got:-?}: not the count 3000"
	fi
else
	fail "$name" "nft cannot count in $ns"
fi
lr_summary
