#!/usr/bin/env bash
# Captures the seeds of tests/fuzz/corpus/probe/ from a real run: a linerate server and client
# on the loopback of a namespace of their own, and a packet socket on that loopback keeping the
# UDP payloads that start with the probe's magic (docs/wire.md part 3): the first request and
# reply of the idle baseline and one of each under load. Root.
# Usage: LR_BUILD=build bash tests/fuzz/capture_probe_corpus.sh [OUTDIR] (default: the corpus)
source "$(dirname "$0")/../lib.sh"
need_root "probe capture"
dest=${1:-$LR_TOP/tests/fuzz/corpus/probe}
mkdir -p "$dest"
ns=$(lr_uniq)
work=$(mktemp -d); lr_cleanup_add "rm -rf $work"
ip netns add "$ns" && lr_cleanup_add "ip netns del $ns"
ip -n "$ns" link set lo up
cat >"$work/sniff.py" <<'PY'
import socket, struct, sys
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(3))
s.bind(("lo", 0))
s.settimeout(15)
n = 0
while n < 4000:
    f = s.recv(65536)
    eth = struct.unpack("!H", f[12:14])[0]
    if eth == 0x0800 and f[23] == 17:
        ihl = (f[14] & 15) * 4
        p = f[14 + ihl + 8:]
    elif eth == 0x86DD and f[20] == 17:
        p = f[14 + 40 + 8:]
    else:
        continue
    if p[:4] == b"LRpb":
        open(f"{sys.argv[1]}/d-{n:04d}-t{p[5]}", "wb").write(p)
        n += 1
PY
lr_bg ip netns exec "$ns" timeout 20 python3 "$work/sniff.py" "$work"
sleep 0.3
lr_bg ip netns exec "$ns" timeout 20 "$LR_BIN" -s -1 -p 5201 >/dev/null 2>&1
lr_wait_listen 5201 "$ns"
ip netns exec "$ns" timeout 20 "$LR_BIN" --headless -c 127.0.0.1 -t 1 -b 10M >/dev/null 2>&1 ||
	{ echo "client: exit $?"; exit 1; }
sleep 0.3
all=("$work"/d-*)
[ "${#all[@]}" -ge 40 ] || { echo "only ${#all[@]} probe datagrams captured"; exit 1; }
req=("$work"/d-*-t1) rep=("$work"/d-*-t2)
cp "${req[0]}" "$dest/request-idle"
cp "${rep[0]}" "$dest/reply-idle"
cp "${req[-1]}" "$dest/request-load"
cp "${rep[-1]}" "$dest/reply-load"
echo "4 datagrams of ${#all[@]} kept in $dest"
