#!/usr/bin/env bash
# Captures the seeds of tests/fuzz/corpus/peer_frame/ from a real run: a linerate server in one
# namespace, a linerate client in another talking to it through tests/tools/peer_capture.py
# (TCP; UDP datagrams reach the server by an nftables DNAT), for a TCP, a -R, a --bidir and a
# UDP test. Every message of docs/wire.md part 2 that a decoder reads, from both directions: the
# client's parameters (its ask), the server's offer, its first, a middle and its end frame of
# each test (the server as receiver, as sender and as both). (The 50-byte channel hello, which
# the acceptor compares byte for byte, is captured but not kept.) Root.
# Usage: LR_BUILD=build bash tests/fuzz/capture_peer_corpus.sh [OUTDIR] (default: the corpus)
source "$(dirname "$0")/../lib.sh"
need_root "peer frame capture"
dest=${1:-$LR_TOP/tests/fuzz/corpus/peer_frame}
mkdir -p "$dest"
u=$(lr_uniq)
A=${u}a B=${u}b ADDR_A=10.204.0.1 ADDR_B=10.204.0.2
work=$(mktemp -d); lr_cleanup_add "rm -rf $work"
lr_netns_pair "$A" "$B" "${u}x" "${u}y" "$ADDR_A" "$ADDR_B" 1500
ip netns exec "$A" nft -f - <<NFT
table ip cap {
	chain out {
		type nat hook output priority -100
		ip daddr $ADDR_A udp dport 5301 dnat to $ADDR_B:5201
	}
}
NFT
lr_bg ip netns exec "$B" unshare -u sh -c "hostname peerhost; exec $LR_BIN -s >$work/srv.log 2>&1"
lr_wait_listen 5201 "$B"
lr_bg ip netns exec "$A" python3 "$LR_TOP/tests/tools/peer_capture.py" "$ADDR_A" 5301 "$ADDR_B" \
	5201 "$work"
lr_wait_listen 5301 "$A"
for opts in "" "-R" "--bidir" "-u -b 100M"; do
	# shellcheck disable=SC2086
	ip netns exec "$A" timeout 20 "$LR_BIN" --headless -c "$ADDR_A" -p 5301 -t 1 -i 0.2 $opts \
		--csv /dev/null >/dev/null 2>&1 || echo "client $opts: exit $?"
done
sleep 0.5
kinds=(tcp reverse bidir udp)	# the tests, in the order run
n=0
for params in "$work"/c2s-params-*.json; do
	t=${params##*-}; t=${t%.json}; k=${kinds[t]}
	frames=("$work"/s2c-frame-"$t"-*.json)
	[ -e "${frames[0]}" ] || { echo "test $k: no frame captured"; exit 1; }
	grep -q '"end":true' "${frames[-1]}" || { echo "test $k: the last frame is not the end"; exit 1; }
	cp "$params" "$dest/c2s-params-$k.json"
	# the offer is the same for every test at one -i: kept once
	if [ "$t" = 0 ] || ! cmp -s "$work/s2c-offer-$t.json" "$work/s2c-offer-0.json"; then
		cp "$work/s2c-offer-$t.json" "$dest/s2c-offer-$k.json"
	fi
	for f in "${frames[0]}" "${frames[${#frames[@]} / 2]}" "${frames[-1]}"; do
		g=${f##*-}; cp "$f" "$dest/s2c-frame-$k-$g"; n=$((n + 1))
	done
done
all=("$work"/s2c-frame-*)
echo "$n frames of ${#all[@]} kept in $dest"
