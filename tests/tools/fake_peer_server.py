#!/usr/bin/env python3
"""A hostile "linerate server" for tests/integration/peer_view.sh: it runs one iperf3 TCP test
well enough for a linerate client to finish it, offers peer stats (docs/wire.md, part 2), and
then feeds the peer-stats channel something a real server never would:

  garbage   valid length prefixes around random bytes
  huge      a 2 GiB length prefix, then a trickle of bytes
  endless   well-formed frames as fast as the socket takes them, never an end frame
  silent    accepts the channel and sends nothing
  backwards well-formed frames whose cumulative counters shrink
  bigqueues an interface with 257 queues (one over the bound) in every frame
  badstate  state fields of the wrong type or out of range (rings, tuning, queue counts)
  softnet   well-formed frames whose CPUs' softnet backlog drops grow (cpu3 by 40, cpu1 by 1 a
            frame) with the peer's netdev_max_backlog 1000: the client's report must name them
  nicstate  a well-behaved peer NIC in trouble: fk0 on NUMA node 1 served by cpu0 (node 0), rx
            ring 512 of 4096 while rx_missed rises: the client's views must say so, "on fake"
  oddstate  frames at every state bound (4 interfaces x 256 queues, the longest names, 2^24
            rings) whose driver / congestion names carry terminal escape sequences

usage: fake_peer_server.py MODE PORT   (serves one test, then exits)
"""
import json
import os
import socket
import struct
import sys
import threading
import time

MODE, PORT = sys.argv[1], int(sys.argv[2])


def read_exact(s, n):
    b = b""
    while len(b) < n:
        c = s.recv(n - len(b))
        if not c:
            raise EOFError
        b += c
    return b


def read_msg(s):
    (n,) = struct.unpack(">I", read_exact(s, 4))
    return read_exact(s, n)


def send_msg(s, obj):
    body = json.dumps(obj, separators=(",", ":")).encode()
    s.sendall(struct.pack(">I", len(body)) + body)


def drain(s):
    try:
        while s.recv(1 << 16):
            pass
    except OSError:
        pass


def feed(ch):
    """The channel: read the tag, then misbehave until the client hangs up."""
    try:
        read_exact(ch, 13)
        deadline = time.time() + 30
        if MODE == "garbage":
            while time.time() < deadline:
                junk = os.urandom(200)
                ch.sendall(struct.pack(">I", len(junk)) + junk)
                time.sleep(0.05)
        elif MODE == "huge":
            ch.sendall(struct.pack(">I", 0x7FFFFFFF))
            while time.time() < deadline:
                ch.sendall(b"{" * 1024)
                time.sleep(0.01)
        elif MODE == "endless":
            seq = 0
            while time.time() < deadline:
                seq += 1
                frame = {"v": 1, "seq": seq, "host": "fake", "mono_ns": seq * 1000,
                         "end": False, "ifaces": [], "cpus": []}
                body = json.dumps(frame).encode()
                ch.sendall(struct.pack(">I", len(body)) + body)
        elif MODE == "backwards":
            seq = 0
            while time.time() < deadline:
                seq += 1
                frame = {"v": 1, "seq": seq, "host": "fake", "mono_ns": seq * 100000000,
                         "end": False, "cpus": [],
                         "ifaces": [{"name": "fk0", "base_ns": 1,
                                     "c": {"rx_bytes": 1000000 - seq * 1000}}]}
                body = json.dumps(frame).encode()
                ch.sendall(struct.pack(">I", len(body)) + body)
                time.sleep(0.1)
        elif MODE in ("bigqueues", "badstate", "oddstate", "softnet", "nicstate"):
            seq = 0
            while time.time() < deadline:
                seq += 1
                ch.sendall(state_frame(seq))
                time.sleep(0.1)
        elif MODE == "silent":
            time.sleep(30)
    except OSError:
        pass
    ch.close()


def queues(n, seq):
    return [{"q": q, "k": 63, "b": 1, "c": [seq * 10, seq * 1000, seq, seq * 100, 0, 0],
             "cpu": q % 4, "sq": 1.5} for q in range(n)]


def state_frame(seq):
    """One frame of the state-field modes (docs/wire.md §P4.1), length-prefixed."""
    iface = {"name": "fk0", "base_ns": 1, "mtu": 1500, "speed_mbps": 10000,
             "c": {"rx_bytes": seq * 1000, "rx_packets": seq}}
    frame = {"v": 1, "seq": seq, "host": "fake", "mono_ns": seq * 100000000, "end": False,
             "cpus": [{"cpu": 0, "node": 0}], "ifaces": [iface]}
    if MODE == "softnet":  # cumulative: [cov_s, processed, dropped, squeezed]
        frame["cpus"] = [{"cpu": c, "node": 0,
                          "n": [seq * 0.1, seq * 1000, seq * {1: 1, 3: 40}.get(c, 0), seq * 2]}
                         for c in range(4)]
        frame["tuning"] = {"netdev_max_backlog": 1000}
        with open(os.environ.get("FAKE_PEER_LOG", "/dev/null"), "w") as log:
            log.write("%d\n" % seq)  # the last frame sent: what the client must total
    elif MODE == "nicstate":
        iface.update(ring_rx=512, ring_rx_max=4096, ring_tx=512, ring_tx_max=4096, duplex=1,
                     driver="ixgbe", numa_node=1, serving=[0])
        iface["c"] = {"rx_bytes": seq * 12500000, "rx_packets": seq * 10000,
                      "rx_missed": seq * 100, "tx_bytes": seq * 1000, "tx_packets": seq * 10}
        frame["cpus"] = [{"cpu": c, "node": c // 2,
                          "t": [seq * 0.1, 0, seq * 0.01, 0, seq * 0.02, seq * 0.07]}
                         for c in range(4)]
        frame["tuning"] = {"rmem_max": 212992, "tcp_congestion": "cubic"}
    elif MODE == "bigqueues":
        iface.update(qsrc=2, queues=queues(257, seq))
    elif MODE == "badstate":
        variants = [{"ring_rx": -5}, {"ring_rx_max": 1 << 40}, {"driver": 7},
                    {"queues": [{"q": 0, "b": 1, "c": [1, 2]}]}, {"numa_node": "0"},
                    {"serving": [1, -2]}]
        iface.update(variants[seq % len(variants)])
        if seq % 2:
            frame["tuning"] = {"tcp_rmem": [1, "2", 3], "tcp_congestion": "x" * 64}
    else:  # oddstate: at every bound, and names that would drive a terminal
        iface.update(ring_rx=1 << 24, ring_rx_max=1 << 24, ring_tx=0, ring_tx_max=1 << 24,
                     driver="\u001b[2Jdrv\u0007" + "d" * 23, numa_node=65536, qsrc=2,
                     queues=queues(256, seq), serving=list(range(1024)))
        frame["ifaces"] = [iface] + [dict(iface, name="fk%d" % k, serving=[])
                                     for k in (1, 2, 3)]
        frame["tuning"] = {"rmem_max": 1 << 48, "tcp_rmem": [-1, -1, -1],
                           "tcp_congestion": "\u001b]0;pwned\u0007"}
    body = json.dumps(frame, separators=(",", ":")).encode()
    return struct.pack(">I", len(body)) + body


def main():
    ls = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ls.bind(("0.0.0.0", PORT))
    ls.listen(16)
    ctl, _ = ls.accept()
    cookie = read_exact(ctl, 37)
    ctl.sendall(bytes([9]))
    params = json.loads(read_msg(ctl))
    parallel = params.get("parallel", 1)
    ctl.sendall(bytes([80]))
    send_msg(ctl, {"v": 1, "interval_ms": 100, "max_frame": 1 << 20})
    ctl.sendall(bytes([10]))
    data = []
    while len(data) < parallel:
        c, _ = ls.accept()
        first = read_exact(c, 37)
        if first[:36] == cookie[:36] and first[36:37] == b"P":
            threading.Thread(target=feed, args=(c,), daemon=True).start()
            continue
        data.append(c)
        threading.Thread(target=drain, args=(c,), daemon=True).start()

    def late_channel():  # the channel may come after the data streams
        try:
            c, _ = ls.accept()
            read_exact(c, 37)
            feed(c)
        except OSError:
            pass
    threading.Thread(target=late_channel, daemon=True).start()
    ctl.sendall(bytes([1, 2]))
    while read_exact(ctl, 1) != bytes([4]):
        pass
    for c in data:
        c.close()
    ctl.sendall(bytes([13]))
    read_msg(ctl)
    send_msg(ctl, {"cpu_util_total": 0, "cpu_util_user": 0, "cpu_util_system": 0,
                   "sender_has_retransmits": -1,
                   "streams": [{"id": 1 if i == 0 else i + 2, "bytes": 0, "retransmits": -1,
                                "jitter": 0, "errors": 0, "packets": 0}
                               for i in range(parallel)]})
    ctl.sendall(bytes([14]))
    try:
        read_exact(ctl, 1)
    except (EOFError, OSError):
        pass
    ctl.close()


main()
