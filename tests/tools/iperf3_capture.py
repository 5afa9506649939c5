#!/usr/bin/env python3
# Captures the params and results JSON a real iperf3 client sends, by playing a minimal
# iperf3 server on 127.0.0.1:PORT (TCP tests). Used to make the fixtures in
# tests/unit/test_proto.c. Usage: iperf3_capture.py PORT OUTDIR  (then run iperf3 -c).
import socket, struct, sys, threading, json

port, out = int(sys.argv[1]), sys.argv[2]
ls = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
ls.bind(("127.0.0.1", port)); ls.listen(16)

def rd(s, n):
    b = b""
    while len(b) < n:
        x = s.recv(n - len(b))
        if not x: raise EOFError
        b += x
    return b

def msg(s):
    n = struct.unpack(">I", rd(s, 4))[0]
    return rd(s, n)

def drain(s):
    try:
        while s.recv(1 << 16): pass
    except OSError: pass

c, _ = ls.accept()
cookie = rd(c, 37)
c.send(bytes([9]))
params = msg(c)
open(out + "/params.json", "wb").write(params)
p = json.loads(params)
n = p.get("parallel", 1) * (2 if p.get("bidirectional") else 1)
c.send(bytes([10]))
data = []
for i in range(n):
    d, _ = ls.accept(); rd(d, 37); data.append(d)
    threading.Thread(target=drain, args=(d,), daemon=True).start()
c.send(bytes([1, 2]))
assert rd(c, 1) == bytes([4])
for d in data: d.shutdown(socket.SHUT_RDWR)
c.send(bytes([13]))
res = msg(c)
open(out + "/results.json", "wb").write(res)
ids = [s["id"] for s in json.loads(res)["streams"]]
mine = json.dumps({"cpu_util_total": 1, "cpu_util_user": 0.5, "cpu_util_system": 0.5,
    "sender_has_retransmits": 0, "streams": [{"id": i, "bytes": 0, "retransmits": 0,
    "jitter": 0, "errors": 0, "packets": 0, "start_time": 0, "end_time": 1} for i in ids]},
    separators=(",", ":")).encode()
c.send(struct.pack(">I", len(mine)) + mine)
c.send(bytes([14]))
rd(c, 1)
c.close()
