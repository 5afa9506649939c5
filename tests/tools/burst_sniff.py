#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""burst_sniff IFACE PORT SECONDS LEN [tcp]: how bunched a sender's datagrams reached the wire.

Every IPv4 UDP packet on IFACE from or to PORT is read with an AF_PACKET socket (root) for
SECONDS, each stamped by the kernel on arrival (SO_TIMESTAMPNS). A GSO packet of k datagrams of
LEN bytes counts as k datagrams that left together. One line at the end:
    packets=N datagrams=D close=C
C: datagrams that followed the previous one within 200 us (or inside the same GSO packet).
A paced sender at 10 Mbit/s with 1000-byte datagrams spaces them 800 us apart (C near 0); one
that sends bursts of 100 back to back has C near D. "ready" goes to stderr once bound. A test's
witness of -b RATE/BURST, whichever program sent the datagrams.

With "tcp", the TCP segments that carry data from or to PORT instead, and one line
    packets=N bytes=B gaps=G
G: the silences longer than 2 ms between one data segment and the next. A sender paced at
4 Mbit/s in 8 KiB blocks writes one every 16 ms (G about 60 a second); one that writes bursts
of 20 blocks back to back is silent 330 ms between them (G about 3 a second)."""
import select
import socket
import struct
import sys
import time

SO_TIMESTAMPNS = 35

ifc, port, secs, dlen = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
tcp = len(sys.argv) > 5 and sys.argv[5] == "tcp"
s = socket.socket(socket.AF_PACKET, socket.SOCK_DGRAM, socket.htons(0x0800))
s.bind((ifc, 0))
s.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
print("ready", file=sys.stderr, flush=True)
end = time.monotonic() + secs
stamps, dgrams, close = [], 0, 0
while time.monotonic() < end:
    if not select.select([s], [], [], 0.1)[0]:
        continue
    data, anc, _, addr = s.recvmsg(65536, 64)
    if addr[2] == socket.PACKET_OUTGOING or len(data) < 28 or data[9] != (6 if tcp else 17):
        continue
    ihl = (data[0] & 15) * 4
    if port not in struct.unpack("!HH", data[ihl:ihl + 4]):
        continue
    if tcp:  # the IP total length, less the IP and TCP headers: the data it carries
        payload = struct.unpack("!H", data[2:4])[0] - ihl - (data[ihl + 12] >> 4) * 4
        if payload <= 0:
            continue
        dgrams += payload
    else:
        k = max(1, round((len(data) - ihl - 8) / dlen))
        dgrams += k
        close += k - 1
    for lvl, typ, d in anc:
        if lvl == socket.SOL_SOCKET and typ == SO_TIMESTAMPNS:
            sec, ns = struct.unpack("qq", d[:16])
            stamps.append(sec + ns / 1e9)
if tcp:
    gaps = sum(1 for a, b in zip(stamps, stamps[1:]) if b - a > 2e-3)
    print("packets=%d bytes=%d gaps=%d" % (len(stamps), dgrams, gaps))
else:
    close += sum(1 for a, b in zip(stamps, stamps[1:]) if b - a < 200e-6)
    print("packets=%d datagrams=%d close=%d" % (len(stamps), dgrams, close))
