"""Abusive drawserver clients, for benchmarks/abuse.sh.

Each attacker pair opens a private room (host + accomplice), starts the game and, whenever
the host is the drawer, floods the server as fast as its socket takes bytes with worst-case
drawing frames: 1,024-point zig-zags of width 64 reaching the edges of the legal coordinate
range [-w, 2w), and fills. Other attackers spam chat, send frames over the size limit, or
open and drop connections. Every attacker reconnects (with its token, so it resumes its
seat) whenever the server closes it, so the abuse never stops.

Usage: flooder.py URL SECONDS [--source ADDR] [--pairs N] [--chatters N] [--oversize N] [--churners N]
(--source: the local address to connect from, e.g. 127.0.0.2, so that on loopback the
attacker is a different client address from the load it disturbs.)
Prints one JSON line of counters at the end.
"""
import argparse
import asyncio
import json
import time

import websockets

# Extra arguments for every connection (the source address), set from the command line.
CONNECT = {}


def uvarint(n):
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        if n:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def svarint(n):
    return uvarint(((n << 1) ^ (n >> 31)) & 0xFFFFFFFF)


def bomb_frame(w=800, h=600):
    """BEGIN at (-w+1, -h+1), width 64; 1,024 points alternating between the far corners of
    the legal range; END. Then a fill of the whole canvas."""
    frame = bytearray([0x01, 0, 0, 0, 0, 64]) + svarint(-w + 1) + svarint(-h + 1)
    frame += bytes([0x02]) + uvarint(1024)
    x, y = -w + 1, -h + 1
    for i in range(1024):
        nx, ny = (2 * w - 1, 2 * h - 1) if i % 2 == 0 else (-w + 1, -h + 1 + (i % 7))
        frame += svarint(nx - x) + svarint(ny - y)
        x, y = nx, ny
    frame += bytes([0x03])
    frame += bytes([0x04, 255, 0, 0]) + uvarint(w // 2) + uvarint(h // 2)
    return bytes(frame)


class Counters:
    def __init__(self):
        self.frames_sent = 0
        self.chats_sent = 0
        self.oversize_sent = 0
        self.connections = 0
        self.refused = 0
        self.closes = {}

    def closed(self, code):
        self.closes[str(code)] = self.closes.get(str(code), 0) + 1


async def hello(ws, name, token):
    message = {"t": "hello", "name": name}
    if token:
        message["token"] = token
    await ws.send(json.dumps(message))
    while True:
        reply = json.loads(await ws.recv())
        if reply["t"] == "welcome":
            return reply["token"]


async def read_until(ws, kind, timeout=5):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        raw = await asyncio.wait_for(ws.recv(), deadline - time.monotonic())
        if isinstance(raw, str):
            message = json.loads(raw)
            if message.get("t") == kind:
                return message
    raise TimeoutError(kind)


async def drain(ws):
    """Reads everything the server sends (a client that reads is not a slow consumer),
    answers choose with index 0 and gets ready again after each game."""
    async for raw in ws:
        if isinstance(raw, str):
            message = json.loads(raw)
            t = message.get("t")
            if t == "choose":
                await ws.send(json.dumps({"t": "choose", "index": 0}))
            elif t == "room" and message.get("phase") == "lobby":
                await ws.send(json.dumps({"t": "ready", "ready": True}))


async def drawer_pair(url, index, until, counters, frame):
    host_token = guest_token = None
    code = None
    while time.monotonic() < until:
        try:
            async with websockets.connect(url, max_size=None, **CONNECT) as host, websockets.connect(url, max_size=None, **CONNECT) as guest:
                counters.connections += 2
                host_token = await hello(host, "Flood%d" % index, host_token)
                guest_token = await hello(guest, "Mate%d" % index, guest_token)
                if code is None:
                    await host.send(json.dumps({"t": "create", "public": False, "settings": {"rounds": 10, "drawTimeSec": 240, "wordChoices": 1}}))
                    room = await read_until(host, "room")
                    code = room["code"]
                    await guest.send(json.dumps({"t": "join", "code": code}))
                    await read_until(guest, "room")
                for ws in (host, guest):
                    await ws.send(json.dumps({"t": "ready", "ready": True}))
                readers = [asyncio.create_task(drain(host)), asyncio.create_task(drain(guest))]
                try:
                    while time.monotonic() < until:
                        # Whoever draws floods; the server refuses the other's frames anyway.
                        for ws in (host, guest):
                            await ws.send(frame)
                            counters.frames_sent += 1
                        await asyncio.sleep(0)
                finally:
                    for r in readers:
                        r.cancel()
        except websockets.exceptions.InvalidHandshake:
            counters.refused += 1
            await asyncio.sleep(0.05)
        except (websockets.ConnectionClosed, OSError, TimeoutError, asyncio.TimeoutError) as error:
            code_seen = getattr(getattr(error, "rcvd", None), "code", None)
            counters.closed(code_seen)
            # The room may be gone (closed when everyone left): make a new one.
            if not isinstance(error, websockets.ConnectionClosed):
                code = None
            await asyncio.sleep(0.05)


async def chatter(url, index, until, counters):
    token = None
    while time.monotonic() < until:
        try:
            async with websockets.connect(url, **CONNECT) as ws:
                counters.connections += 1
                token = await hello(ws, "Spam%d" % index, token)
                reader = asyncio.create_task(ws.wait_closed())
                while time.monotonic() < until and not reader.done():
                    await ws.send(json.dumps({"t": "chat", "text": "x" * 200}))
                    counters.chats_sent += 1
                    await asyncio.sleep(0)
        except websockets.exceptions.InvalidHandshake:
            counters.refused += 1
        except (websockets.ConnectionClosed, OSError) as error:
            counters.closed(getattr(getattr(error, "rcvd", None), "code", None))
        await asyncio.sleep(0.05)


async def oversize(url, index, until, counters):
    big = bytes([0x06]) * 70_000
    while time.monotonic() < until:
        try:
            async with websockets.connect(url, max_size=None, **CONNECT) as ws:
                counters.connections += 1
                await hello(ws, "Big%d" % index, None)
                while time.monotonic() < until:
                    await ws.send(big)
                    counters.oversize_sent += 1
        except websockets.exceptions.InvalidHandshake:
            counters.refused += 1
        except (websockets.ConnectionClosed, OSError) as error:
            counters.closed(getattr(getattr(error, "rcvd", None), "code", None))
        await asyncio.sleep(0.05)


async def churner(url, until, counters):
    while time.monotonic() < until:
        try:
            async with websockets.connect(url, **CONNECT) as ws:
                counters.connections += 1
                await ws.send(json.dumps({"t": "hello", "name": "Churn"}))
        except websockets.exceptions.InvalidHandshake:
            counters.refused += 1
            await asyncio.sleep(0.01)
        except (websockets.ConnectionClosed, OSError):
            pass


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("url")
    parser.add_argument("seconds", type=float)
    parser.add_argument("--source", default=None)
    parser.add_argument("--pairs", type=int, default=2)
    parser.add_argument("--chatters", type=int, default=2)
    parser.add_argument("--oversize", type=int, default=1)
    parser.add_argument("--churners", type=int, default=1)
    args = parser.parse_args()
    if args.source:
        CONNECT["local_addr"] = (args.source, 0)
    until = time.monotonic() + args.seconds
    counters = Counters()
    frame = bomb_frame()
    tasks = [drawer_pair(args.url, i, until, counters, frame) for i in range(args.pairs)]
    tasks += [chatter(args.url, i, until, counters) for i in range(args.chatters)]
    tasks += [oversize(args.url, i, until, counters) for i in range(args.oversize)]
    tasks += [churner(args.url, until, counters) for _ in range(args.churners)]
    await asyncio.gather(*tasks, return_exceptions=True)
    print(json.dumps({"refusedUpgrades": counters.refused, "framesSent": counters.frames_sent, "frameBytes": len(frame), "chatsSent": counters.chats_sent,
                      "oversizeSent": counters.oversize_sent, "connections": counters.connections, "closes": counters.closes}))


if __name__ == "__main__":
    asyncio.run(main())
