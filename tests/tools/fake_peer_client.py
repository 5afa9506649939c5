#!/usr/bin/env python3
"""A hostile "linerate client" for tests/integration/peer_view.sh: it asks a linerate server for
peer stats (docs/wire.md, part 2), runs a one-stream TCP test of SECONDS, and abuses the channel:

  stall      opens the channel and never reads a byte of it
  badtag     presents the right cookie with a wrong tag
  badcookie  presents another cookie
  twice      opens two channels

Prints "offer" when the server offered, "frames N" (frames read on a channel it reads), and
"done" when the test's results came back; exits 0 then, 1 otherwise.
usage: fake_peer_client.py MODE HOST PORT SECONDS
"""
import json
import random
import socket
import string
import struct
import sys
import time

MODE, HOST, PORT, SECS = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])


def read_exact(s, n):
    b = b""
    while len(b) < n:
        c = s.recv(n - len(b))
        if not c:
            raise EOFError("closed")
        b += c
    return b


def send_msg(s, obj):
    body = json.dumps(obj, separators=(",", ":")).encode()
    s.sendall(struct.pack(">I", len(body)) + body)


def read_msg(s):
    (n,) = struct.unpack(">I", read_exact(s, 4))
    return json.loads(read_exact(s, n))


def cookie():
    return "".join(random.choice(string.ascii_lowercase + "234567") for _ in range(36))


def channel(ck, tag=b"peer-stats/1\n"):
    c = socket.create_connection((HOST, PORT), timeout=5)
    c.sendall(ck.encode() + b"P" + tag)
    return c


def main():
    ck = cookie()
    ctl = socket.create_connection((HOST, PORT), timeout=10)
    ctl.sendall(ck.encode() + b"\0")
    assert read_exact(ctl, 1) == bytes([9])
    send_msg(ctl, {"tcp": True, "omit": 0, "time": int(SECS), "num": 0, "blockcount": 0,
                   "parallel": 1, "len": 131072, "pacing_timer": 1000,
                   "client_version": "fake", "linerate_peer_stats": {"v": 1, "interval_ms": 100}})
    st = read_exact(ctl, 1)[0]
    if st == 80:
        print("offer", read_msg(ctl), flush=True)
        st = read_exact(ctl, 1)[0]
    assert st == 10, st
    chans = []
    if MODE == "stall":
        chans.append(channel(ck))
    elif MODE == "badtag":
        chans.append(channel(ck, b"peer-stats/9\n"))
    elif MODE == "badcookie":
        chans.append(channel(cookie()))
    elif MODE == "twice":
        chans.append(channel(ck))
        time.sleep(0.2)
        chans.append(channel(ck))
    data = socket.create_connection((HOST, PORT), timeout=10)
    data.sendall(ck.encode() + b"\0")
    assert read_exact(ctl, 2) == bytes([1, 2])
    end = time.time() + SECS
    buf = b"x" * 65536
    data.settimeout(0.2)
    while time.time() < end:
        try:
            data.send(buf)
        except socket.timeout:
            pass
    if MODE == "twice":  # the second channel must have been closed at once, the first one works
        chans[1].settimeout(2)
        try:
            got = chans[1].recv(100)
            print("second closed" if not got else "second got %d bytes" % len(got), flush=True)
        except ConnectionResetError:
            print("second closed", flush=True)
        except (socket.timeout, OSError):
            print("second open", flush=True)
    ctl.sendall(bytes([4]))
    data.close()
    while read_exact(ctl, 1) != bytes([13]):
        pass
    send_msg(ctl, {"cpu_util_total": 0, "cpu_util_user": 0, "cpu_util_system": 0,
                   "sender_has_retransmits": 0,
                   "streams": [{"id": 1, "bytes": 0, "retransmits": 0, "jitter": 0,
                                "errors": 0, "packets": 0}]})
    read_msg(ctl)
    assert read_exact(ctl, 1) == bytes([14])
    ctl.sendall(bytes([16]))
    ctl.close()
    print("done", flush=True)


try:
    main()
except Exception as e:  # noqa: BLE001 - any failure is the test's answer
    print("error", repr(e), flush=True)
    sys.exit(1)
