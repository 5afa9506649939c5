#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""burst_sniff IFACE PORT SECONDS LEN: how bunched a UDP sender's datagrams reached the wire.

Every IPv4 UDP packet on IFACE from or to PORT is read with an AF_PACKET socket (root) for
SECONDS, each stamped by the kernel on arrival (SO_TIMESTAMPNS). A GSO packet of k datagrams of
LEN bytes counts as k datagrams that left together. One line at the end:
    packets=N datagrams=D close=C
C: datagrams that followed the previous one within 200 us (or inside the same GSO packet).
A paced sender at 10 Mbit/s with 1000-byte datagrams spaces them 800 us apart (C near 0); one
that sends bursts of 100 back to back has C near D. "ready" goes to stderr once bound. A test's
witness of -b RATE/BURST, whichever program sent the datagrams."""
import select
import socket
import struct
import sys
import time

SO_TIMESTAMPNS = 35

ifc, port, secs, dlen = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
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
    if addr[2] == socket.PACKET_OUTGOING or len(data) < 28 or data[9] != 17:
        continue
    ihl = (data[0] & 15) * 4
    if port not in struct.unpack("!HH", data[ihl:ihl + 4]):
        continue
    k = max(1, round((len(data) - ihl - 8) / dlen))
    dgrams += k
    close += k - 1
    for lvl, typ, d in anc:
        if lvl == socket.SOL_SOCKET and typ == SO_TIMESTAMPNS:
            sec, ns = struct.unpack("qq", d[:16])
            stamps.append(sec + ns / 1e9)
close += sum(1 for a, b in zip(stamps, stamps[1:]) if b - a < 200e-6)
print("packets=%d datagrams=%d close=%d" % (len(stamps), dgrams, close))
