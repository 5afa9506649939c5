#!/usr/bin/env python3
# A TCP relay between a linerate client and a linerate server that records what the peer-stats
# extension (docs/wire.md, part 2) put on the wire, both directions, as the seeds of
# tests/fuzz/corpus/peer_frame/ (tests/fuzz/capture_peer_corpus.sh drives it):
#   c2s-params-N.json  the client's parameters (with its linerate_peer_stats key)
#   c2s-hello-N.bin    the client's 50-byte channel hello (cookie, 'P', tag)
#   s2c-offer-N.json   the server's offer (after its 0x50 state byte and length)
#   s2c-frame-N-SEQ.json  every frame body the server sent on the channel, the end frame too
# N counts tests (control connections). Data streams are relayed untouched.
# Usage: peer_capture.py LISTEN_ADDR LISTEN_PORT SERVER_ADDR SERVER_PORT OUTDIR
import socket, struct, sys, threading

laddr, lport, saddr, sport, out = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4]), sys.argv[5]
lock = threading.Lock()
cookies = {}    # cookie -> test number N


def save(name, data):
    with open(f"{out}/{name}", "wb") as f:
        f.write(data)


def pump(src, dst, tap):
    buf = b""
    try:
        while True:
            b = src.recv(1 << 16)
            if not b:
                break
            dst.sendall(b)
            if tap:
                buf = tap(buf + b)
    except OSError:
        pass
    for s in (dst, src):
        try:
            s.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass


def frames_tap(n):
    """len + JSON body, one after another: each body saved."""
    seq = [0]

    def tap(buf):
        while len(buf) >= 4:
            ln = struct.unpack(">I", buf[:4])[0]
            if len(buf) < 4 + ln:
                break
            save(f"s2c-frame-{n}-{seq[0]:03d}.json", buf[4:4 + ln])
            seq[0] += 1
            buf = buf[4 + ln:]
        return buf
    return tap


def params_tap(n):
    done = [False]

    def tap(buf):   # the cookie was read before: 4-byte length + the parameters, once
        if done[0] or len(buf) < 4:
            return b"" if done[0] else buf
        ln = struct.unpack(">I", buf[:4])[0]
        if len(buf) < 4 + ln:
            return buf
        save(f"c2s-params-{n}.json", buf[4:4 + ln])
        done[0] = True
        return b""
    return tap


def offer_tap(n):
    done = [False]

    def tap(buf):   # state bytes, then 0x50 + length + the offer (before CREATE_STREAMS)
        if done[0]:
            return b""
        i = buf.find(b"\x50")
        if i < 0 or len(buf) < i + 5:
            return buf
        ln = struct.unpack(">I", buf[i + 1:i + 5])[0]
        if ln > 1024:
            done[0] = True
            return b""
        if len(buf) < i + 5 + ln:
            return buf
        save(f"s2c-offer-{n}.json", buf[i + 5:i + 5 + ln])
        done[0] = True
        return b""
    return tap


def serve(c):
    up = socket.create_connection((saddr, sport))
    head = b""
    while len(head) < 37:
        b = c.recv(37 - len(head))
        if not b:
            c.close(); up.close(); return
        head += b
    up.sendall(head)
    cookie = head[:36]
    c2s = s2c = None
    with lock:
        if head[36:37] == b"P":         # the peer-stats channel
            n = cookies.get(cookie, 0)
            hello = head
            while len(hello) < 50:
                b = c.recv(50 - len(hello))
                if not b:
                    break
                hello += b
            up.sendall(hello[37:])
            save(f"c2s-hello-{n}.bin", hello)
            s2c = frames_tap(n)
        elif cookie not in cookies:     # a new test's control connection
            n = cookies[cookie] = len(cookies)
            c2s, s2c = params_tap(n), offer_tap(n)
    threading.Thread(target=pump, args=(c, up, c2s), daemon=True).start()
    threading.Thread(target=pump, args=(up, c, s2c), daemon=True).start()


ls = socket.socket()
ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
ls.bind((laddr, lport))
ls.listen(64)
print("listening", flush=True)
while True:
    conn, _ = ls.accept()
    threading.Thread(target=serve, args=(conn,), daemon=True).start()
