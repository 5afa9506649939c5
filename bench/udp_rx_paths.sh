#!/bin/bash
# SPDX-License-Identifier: MIT
# Issue 33's receiver-path question for UDP 64 B, measured: linerate <-> linerate on one veth
# between two network namespaces (the sender's tx-udp-segmentation off, so every datagram is a
# packet on the link), the default receiver beside one change at a time, all variants interleaved
# in each round (rotated). The changes: plain recvmmsg instead of UDP GRO (server --no-gso), the socket
# buffer (-w 256K, -w 16M), where the stream threads run relative to the CPU that runs the veth's
# receive softirq (on a veth that is the sender's CPU: -A 0,0 together, -A 0,1 apart), and the
# number of 64 KiB GRO buffers per recvmmsg (LR_UDP_GRO_MSGS, 16 by default; 4 and 64 are builds
# of this tree with the one constant changed). Witnesses: the receiver's own count in the client's
# JSON, the receiver namespace's Udp RcvbufErrors, wait4() rusage of both ends. Writes the
# "udp_rx_paths" section of bench/RESULTS.md. Never run by tests, never asserts.
# Knobs: RX_REPS=3 RX_SECS=5 RX_LEN=64 BENCH_RESULTS=FILE, RX_VARIANTS="default gro4 gro8" to run a
# subset (groN is a build with N GRO buffers per recvmmsg, sendN one with N GSO super-buffers per
# sendmmsg, for any N; "default" is always run, the ratios need it)
set -u

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT=${BENCH_RESULTS:-$TOP/bench/RESULTS.md}
REPS=${RX_REPS:-3}
SECS=${RX_SECS:-5}
LEN=${RX_LEN:-64}
say() { echo "udp_rx_paths: $*" >&2; }
die() { say "$*"; exit 1; }
[ "$(id -u)" -eq 0 ] || die "needs root (network namespaces)"
for t in jq ethtool ss git make; do command -v $t >/dev/null || die "missing $t (scripts/deps.sh --bench)"; done
[ "$(nproc)" -ge 2 ] || die "needs two CPUs (the placement variants)"
[ -z "$(git -C "$TOP" status --porcelain 2>/dev/null)" ] || die "uncommitted changes: measure a clean tree"

. "$TOP/bench/scratch.sh"
bench_pair rx 10.78.0 || die "cannot create the namespaces and veth"
RU=$WORK/rusage
cc -O2 -Wall -Wextra -o "$RU" "$TOP/bench/rusage.c" || die "cannot build bench/rusage.c"

# build NAME MACRO VALUE: this tree's HEAD with one #define of src/traffic/stream_priv.h set, as $WORK/NAME
build() {
	local d=$WORK/src-$1
	mkdir -p "$d" && git -C "$TOP" archive HEAD | tar -x -C "$d" || die "cannot copy the tree"
	sed -i "s/^#define $2[[:space:]].*/#define $2 $3/" "$d/src/traffic/stream_priv.h"
	grep -q "^#define $2 $3\$" "$d/src/traffic/stream_priv.h" || die "$2 not found"
	make -s -C "$d" B=b CFLAGS='-O2 -g' LDFLAGS= b/linerate >"$WORK/build-$1.log" 2>&1 ||
		{ tail -5 "$WORK/build-$1.log" >&2; die "cannot build $1"; }
	cp "$d/b/linerate" "$WORK/$1"
}
DEF_MSGS=$(awk '/^#define LR_UDP_GRO_MSGS/ { print $3 }' "$TOP/src/traffic/stream_priv.h")
DEF_SEND=$(awk '/^#define LR_UDP_SEND_MSGS/ { print $3 }' "$TOP/src/traffic/stream_priv.h")
VARIANTS=(${RX_VARIANTS:-default server-no-gro w256k w16m together apart gro4 gro64})
[[ " ${VARIANTS[*]} " == *" default "* ]] || VARIANTS=(default "${VARIANTS[@]}")
say "building: this tree (default $DEF_MSGS GRO buffers per recvmmsg) and each groN variant"
build lr LR_UDP_GRO_MSGS "$DEF_MSGS"
for v in "${VARIANTS[@]}"; do
	case $v in
	gro[1-9]*) [[ ${v#gro} =~ ^[0-9]+$ ]] || die "bad variant $v"; build "lr-$v" LR_UDP_GRO_MSGS "${v#gro}" ;;
	send[1-9]*) [[ ${v#send} =~ ^[0-9]+$ ]] || die "bad variant $v"; build "lr-$v" LR_UDP_SEND_MSGS "${v#send}" ;;
	default | server-no-gro | w256k | w16m | together | apart) ;;
	*) die "unknown variant $v" ;;
	esac
done

# variant NAME: sets BIN, SRV_OPTS, CLI_OPTS and WHAT (the row's text)
variant() {
	BIN=$WORK/lr SRV_OPTS="" CLI_OPTS=""
	case $1 in
	default) WHAT="the default: UDP GRO, $DEF_MSGS × 64 KiB buffers per recvmmsg, the socket buffer grown to rmem_max (≤ 4 MiB, doubled)" ;;
	server-no-gro) SRV_OPTS="--no-gso"; WHAT="plain recvmmsg, 256 datagrams a call (server --no-gso)" ;;
	w256k) CLI_OPTS="-w 256K"; WHAT="socket buffer -w 256K" ;;
	w16m) CLI_OPTS="-w 16M"; WHAT="socket buffer -w 16M" ;;
	together) CLI_OPTS="-A 0,0"; WHAT="both ends' stream threads on CPU 0, where the veth's receive softirq runs (-A 0,0)" ;;
	apart) CLI_OPTS="-A 0,1"; WHAT="sender on CPU 0, receiver on CPU 1, away from the softirq (-A 0,1)" ;;
	gro*) BIN=$WORK/lr-$1; WHAT="${1#gro} × 64 KiB GRO buffers per recvmmsg (a build)" ;;
	send*) BIN=$WORK/lr-$1; WHAT="the sender: ${1#send} GSO super-buffers per sendmmsg, $DEF_SEND by default (a build)" ;;
	esac
}
rcvbuf_errors() {
	ip netns exec "$NS2" awk '/^Udp:/ { if (!h) { for (i = 2; i <= NF; i++) if ($i == "RcvbufErrors") c = i; h = 1 }
		else { print $c + 0; exit } }' /proc/net/snmp
}

# one VARIANT ROUND: a run, one line of runs.tsv
one() {
	local f="$WORK/$1-$2" spid e0 e1 j i cu cs su ss
	variant "$1"
	"$RU" "$f.srv.ru" ip netns exec "$NS2" "$BIN" -s -1 $SRV_OPTS >"$f.srv.out" 2>&1 &
	spid=$!
	PIDS+=("$spid")
	wait_listen "$NS2" 5201 || { say "server did not listen: $(tail -1 "$f.srv.out")"; kill "$spid"; wait "$spid"; return; }
	e0=$(rcvbuf_errors)
	"$RU" "$f.cli.ru" timeout -k 2 $((SECS + 20)) ip netns exec "$NS" "$BIN" -c "$ADDR2" --headless \
		-t "$SECS" -J -u -b 0 -l "$LEN" $CLI_OPTS >"$f.json" 2>"$f.err"
	e1=$(rcvbuf_errors)
	for ((i = 0; i < 50; i++)); do kill -0 "$spid" 2>/dev/null || break; sleep 0.1; done
	kill "$spid" 2>/dev/null
	wait "$spid" 2>/dev/null
	j=$(jq -r '[.end.sum_received.bytes // "-", .end.sum_sent.bytes // "-", .end.sum_sent.seconds // "-"] | @tsv' \
		"$f.json" 2>/dev/null)
	[ -n "$j" ] || j=$'-\t-\t-'
	read -r cu cs _ <"$f.cli.ru"
	read -r su ss _ <"$f.srv.ru"
	printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$j" "$(((cu + cs) / 1000))" "$(((su + ss) / 1000))" \
		"$((e1 - e0))" >>"$WORK/runs.tsv"
}

ip netns exec "$NS" ethtool -K "$IF" tx-udp-segmentation off >/dev/null ||
	die "cannot turn tx-udp-segmentation off on $IF"
: >"$WORK/runs.tsv"
say "warm-up: one default run, not counted"
one default 0; : >"$WORK/runs.tsv"
# each round starts one variant later, so no variant always runs first (or right after another)
n=0 total=$((${#VARIANTS[@]} * REPS))
for ((rep = 1; rep <= REPS; rep++)); do
	for ((k = 0; k < ${#VARIANTS[@]}; k++)); do
		v=${VARIANTS[$(((k + rep - 1) % ${#VARIANTS[@]}))]}
		n=$((n + 1))
		say "[$n/$total] $v (round $rep)"
		one "$v" "$rep"
	done
done

LOAD=$(cut -d' ' -f1-3 /proc/loadavg)
REV=$(git -C "$TOP" rev-parse --short HEAD 2>/dev/null || echo '?')
WHATS=""
for v in "${VARIANTS[@]}"; do variant "$v"; WHATS+="$v"$'\t'"$WHAT"$'\t'"$SRV_OPTS"$'\t'"$CLI_OPTS"$'\n'; done
printf '%s' "$WHATS" >"$WORK/variants.tsv"
section=$(awk -F'\t' -v reps="$REPS" -v secs="$SECS" -v len="$LEN" -v load="$LOAD" -v rev="$REV" \
	-v date="$(date -u '+%Y-%m-%d %H:%M UTC')" '
	# variants.tsv: name, text, server options, client options; runs.tsv: 1 variant 2 round
	# 3 received bytes 4 sent bytes 5 sender seconds 6 client CPU ms 7 server CPU ms 8 RcvbufErrors
	FNR == NR { order[++nv] = $1; what[$1] = $2; sopt[$1] = $3; copt[$1] = $4; next }
	$3 == "-" || $3 == 0 || $5 == "-" || $5 == 0 { fails[$1]++; next }
	{
		d = $3 / len / $5
		n = ++cnt[$1]; dps[$1, n] = d; rnd[$1, n] = $2
		loss[$1, n] = $4 > 0 ? ($4 - $3) / $4 * 100 : 0; rb[$1, n] = $8
		cpu[$1, n] = ($6 + $7) / 1000 / ($3 / len / 1e6)	# CPU s of both ends per million delivered
		byround[$2, $1] = d
	}
	function med(a, k,   n, i, j, t, b) {
		n = cnt[k]
		if (!n) return ""
		for (i = 1; i <= n; i++) b[i] = a[k, i]
		for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (b[j] < b[i]) { t = b[i]; b[i] = b[j]; b[j] = t }
		return n % 2 ? b[(n + 1) / 2] : (b[n / 2] + b[n / 2 + 1]) / 2
	}
	function lo(a, k,   i, m) { m = ""; for (i = 1; i <= cnt[k]; i++) if (m == "" || a[k, i] < m) m = a[k, i]; return m }
	function hi(a, k,   i, m) { m = ""; for (i = 1; i <= cnt[k]; i++) if (m == "" || a[k, i] > m) m = a[k, i]; return m }
	function f(x, d) { return x == "" ? "-" : sprintf("%.*f", d, x) }
	END {
		printf "### UDP %d B: the receiver path, one change at a time (issue 33; bench/udp_rx_paths.sh)\n\n", len
		printf "%s, load average %s at the end; linerate %s. linerate to linerate over one veth between two network namespaces, the sending veth'"'"'s tx-udp-segmentation off (every datagram a packet on the link), `-u -b 0 -l %d -t %d`; %d rounds after one uncounted warm-up run, each running every variant once, each round starting one variant later than the one before. Delivered = the receiver'"'"'s own count (`end.sum_received.bytes` of the client'"'"'s JSON) / %d B / the sender'"'"'s seconds. Ratio = the variant over the default of the same round (lowest..highest). CPU = user + sys of both ends (wait4() rusage) per million datagrams delivered.\n\n", date, load, rev, len, secs, reps, len
		printf "| variant | what changes | datagrams/s delivered (median; lowest..highest) | /default per round | loss %% (median) | UDP RcvbufErrors (median) | CPU s per M delivered (median) | failed runs |\n"
		printf "|---|---|---:|---:|---:|---:|---:|---:|\n"
		for (i = 1; i <= nv; i++) {
			k = order[i]; rl = ""; rh = ""
			for (r = 1; r <= reps; r++)
				if (((r SUBSEP k) in byround) && ((r SUBSEP "default") in byround) && byround[r, "default"] > 0) {
					x = byround[r, k] / byround[r, "default"]
					if (rl == "" || x < rl) rl = x
					if (rh == "" || x > rh) rh = x
				}
			printf "| %s | %s | %s; %s..%s | %s..%s | %s | %s | %s | %d |\n", k, what[k], f(med(dps, k), 0),
				f(lo(dps, k), 0), f(hi(dps, k), 0), f(rl, 2), f(rh, 2), f(med(loss, k), 2),
				f(med(rb, k), 0), f(med(cpu, k), 2), fails[k] + 0
		}
		printf "\nCommands: server `linerate -s -1 [server options]` in one namespace, client `linerate -c 10.78.0.2 --headless -t %d -J -u -b 0 -l %d [client options]` in the other; options per variant: ", secs, len
		for (i = 1; i <= nv; i++) {
			k = order[i]; o = (sopt[k] != "" ? "server `" sopt[k] "`" : "") (sopt[k] != "" && copt[k] != "" ? ", " : "") (copt[k] != "" ? "client `" copt[k] "`" : "")
			printf "%s%s: %s", (i > 1 ? "; " : ""), k, (o == "" ? "none" : o)
		}
		printf ".\n"
	}' "$WORK/variants.tsv" "$WORK/runs.tsv")
section=${section//$WORK\//}
echo "$section"
[ -f "$OUT" ] && python3 "$TOP/bench/results_section.py" "$OUT" udp_rx_paths "$section"
