#!/usr/bin/env python3
"""Writes the hand-made seed inputs of the fuzz corpus (fuzz/corpus/{frames,messages,http}/seed-*).

Inputs found by fuzzing are merged in beside them with `-merge=1` (scripts/fuzz.sh), which
keeps only those that add coverage. Run from anywhere: python3 fuzz/seeds.py
"""
import base64
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
FRAMES = os.path.join(HERE, "corpus", "frames")
MESSAGES = os.path.join(HERE, "corpus", "messages")
HTTP = os.path.join(HERE, "corpus", "http")

BEGIN, POINTS, END, FILL, UNDO, CLEAR = 1, 2, 3, 4, 5, 6


def uvarint(n):
    out = bytearray()
    while n >= 0x80:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def svarint(n):
    return uvarint(((n << 1) ^ (n >> 31)) & 0xFFFFFFFF)


def begin(x, y, tool=0, rgb=(0, 0, 0), width=3):
    return bytes([BEGIN, tool, *rgb, width]) + svarint(x) + svarint(y)


def points(deltas):
    out = bytes([POINTS]) + uvarint(len(deltas))
    for dx, dy in deltas:
        out += svarint(dx) + svarint(dy)
    return out


def fill(x, y, rgb=(255, 0, 0)):
    return bytes([FILL, *rgb]) + uvarint(x) + uvarint(y)


# Header byte of a FuzzFrames input: bits 0-1 canvas (800x600, 16x16, 37x19, 4096x4096),
# bit 2 a stroke already open (pen position from bits 3-6), bit 7 NDJSON stroke log.
STD, TINY, ODD, HUGE = 0, 1, 2, 3
OPEN = 0x04 | (5 << 3)
LOG = 0x80

frames = {
    # valid
    "stroke": (STD, begin(10, 20) + points([(1, 1), (2, -1), (5, 0)]) + bytes([END])),
    "dot": (STD, begin(400, 300, width=64) + bytes([END])),
    "fill": (STD, fill(5, 5)),
    "undo": (STD, bytes([UNDO])),
    "clear": (STD, bytes([CLEAR])),
    "eraser-undo": (STD, begin(0, 0, tool=1, width=20) + points([(100, 100)]) + bytes([END, UNDO])),
    "two-strokes-clear": (STD, begin(1, 1) + points([(3, 3)]) + begin(50, 50, rgb=(0, 128, 255))
                          + points([(-3, 7), (9, 9)]) + bytes([END, CLEAR, UNDO])),
    "open-continue": (OPEN, points([(4, 4), (-2, 6)]) + bytes([END])),
    "open-undo": (OPEN, bytes([UNDO, UNDO])),
    "offcanvas-points": (STD, begin(-800, -600) + points([(2399, 1799)]) + bytes([END])),
    "tiny-fill-corner": (TINY, fill(15, 15) + begin(3, 3, width=9) + bytes([END]) + fill(0, 0, (1, 2, 3))),
    "odd-fill-stroke": (ODD, begin(0, 18) + points([(36, -18)]) + bytes([END]) + fill(20, 5, (9, 9, 9))),
    "huge-stroke": (HUGE, begin(4095, 4095, width=1) + points([(-8191, -8191)]) + bytes([END])),
    "max-points": (STD, begin(0, 0) + points([(1, 0)] * 1024) + bytes([END])),
    "noncanonical-varint": (STD, bytes([BEGIN, 0, 0, 0, 0, 3, 0x94, 0x80, 0x80, 0x00, 0x28, END])),
    # nearly valid: each breaks one rule
    "empty": (STD, b""),
    "truncated-begin": (STD, bytes([BEGIN, 0, 0, 0, 0])),
    "width-zero": (STD, begin(1, 1, width=0)),
    "width-65": (STD, begin(1, 1, width=65)),
    "tool-2": (STD, begin(1, 1, tool=2)),
    "fill-outside": (STD, fill(800, 0)),
    "tiny-fill-outside": (TINY, fill(0, 16)),
    "points-zero": (STD, begin(1, 1) + bytes([POINTS, 0])),
    "points-1025": (STD, begin(1, 1) + points([(0, 0)] * 1025)),
    "varint-too-long": (STD, bytes([BEGIN, 0, 0, 0, 0, 3, 0xFF, 0xFF, 0xFF, 0xFF, 0x1F, 0])),
    "varint-truncated": (STD, bytes([BEGIN, 0, 0, 0, 0, 3, 0x80])),
    "unknown-opcode": (STD, bytes([UNDO, 7])),
    "points-no-stroke": (STD, points([(1, 1)])),
    "end-no-stroke": (STD, bytes([END])),
    "points-after-end": (STD, begin(1, 1) + bytes([END]) + points([(1, 1)])),
    "point-out-of-range": (STD, begin(1, 1) + points([(1600, 0)])),
    "begin-out-of-range": (STD, begin(-801, 0)),
    "delta-wraps": (STD, begin(0, 0) + bytes([POINTS, 1]) + uvarint(0xFFFFFFFF) + uvarint(0)),
}

log_header = {"format": "drawserver-strokes/1", "w": 800, "h": 600}


def ndjson(header, lines):
    text = json.dumps(header, separators=(",", ":")) + "\n"
    for at, ops in lines:
        text += json.dumps({"at": at, "ops": base64.b64encode(ops).decode()}, separators=(",", ":")) + "\n"
    return text.encode()


logs = {
    "log-two-frames": ndjson(dict(log_header, word="cat"), [(0, begin(10, 10)), (40, points([(5, 5)]) + bytes([END]))]),
    "log-header-only": ndjson(log_header, []),
    "log-tiny-fill": ndjson({"format": "drawserver-strokes/1", "w": 16, "h": 16}, [(3, fill(1, 1))]),
    "log-bad-format": ndjson({"format": "drawserver-strokes/2", "w": 800, "h": 600}, []),
    "log-bad-size": ndjson({"format": "drawserver-strokes/1", "w": 15, "h": 600}, []),
    "log-at-backwards": ndjson(log_header, [(50, bytes([CLEAR])), (10, bytes([UNDO]))]),
    "log-bad-frame": ndjson(log_header, [(0, bytes([END]))]),
    "log-bad-base64": b'{"format":"drawserver-strokes/1","w":800,"h":600}\n{"at":1,"ops":"!!"}\n',
    "log-word-number": b'{"format":"drawserver-strokes/1","w":800,"h":600,"word":5}\n',
    "log-blank-lines": b'\n{"format":"drawserver-strokes/1","w":800,"h":600}\n \r\n\t\n',
    "log-not-json": b'{"format":"drawserver-strokes/1","w":800,"h":600}\n{"at":1,"ops":\n',
    "log-at-float": b'{"format":"drawserver-strokes/1","w":800.0,"h":600}\n{"at":1.5,"ops":"BQ=="}\n',
}

messages = {
    "hello": {"t": "hello", "name": "Ada"},
    "hello-token": {"t": "hello", "name": "Ada", "token": "abcdefghijklmnopqrstuvwxyz012345"},
    "rooms": {"t": "rooms"},
    "create": {"t": "create", "name": "Ada's room", "public": True,
               "settings": {"rounds": 3, "drawTimeSec": 80, "maxPlayers": 8, "wordChoices": 3, "hints": 2,
                            "language": "en", "customWords": ["cat", "dog"], "customOnly": False}},
    "create-bare": {"t": "create"},
    "join": {"t": "join", "code": "K7QX2M"},
    "quickplay": {"t": "quickplay"},
    "leave": {"t": "leave"},
    "invite": {"t": "invite", "playerId": "abcdefghjk"},
    "settings": {"t": "settings", "settings": {"rounds": 1e20, "hints": -3}},
    "ready": {"t": "ready", "ready": False},
    "start": {"t": "start"},
    "kick": {"t": "kick", "playerId": "abcdefghjk"},
    "votekick": {"t": "votekick", "playerId": "abcdefghjk"},
    "spectate": {"t": "spectate", "on": True},
    "chat": {"t": "chat", "text": "h\u00e9llo w\u00f6rld \U0001F3A8"},
    "guess": {"t": "guess", "text": "cat"},
    "choose": {"t": "choose", "index": 2},
    "skip": {"t": "skip"},
    "extra-fields": {"t": "chat", "text": "x", "score": 9999, "word": "cat", "playerId": "zzz"},
    # nearly valid
    "unknown-type": {"t": "teleport"},
    "t-number": {"t": 5},
    "no-t": {"name": "Ada"},
    "hello-no-name": {"t": "hello"},
    "hello-name-number": {"t": "hello", "name": 7},
    "ready-string": {"t": "ready", "ready": "yes"},
    "choose-float": {"t": "choose", "index": 1.5},
    "choose-huge": {"t": "choose", "index": -1e300},
    "settings-missing": {"t": "settings"},
    "settings-array": {"t": "settings", "settings": [1, 2]},
    "custom-words-number": {"t": "create", "settings": {"customWords": ["a", 1]}},
    "custom-words-501": {"t": "settings", "settings": {"customWords": ["w"] * 501}},
    "token-null": {"t": "hello", "name": "Ada", "token": None},
}

raw_messages = {
    "not-json": b"hello",
    "array": b'[{"t":"rooms"}]',
    "string": b'"rooms"',
    "truncated": b'{"t":"chat","text":"abc',
    "escapes": b'{"t":"chat","text":"\\u00e9\\n\\t\\"\\\\\\/\\ud83c\\udfa8"}',
    "lone-surrogate": b'{"t":"chat","text":"\\ud800"}',
    "invalid-utf8": b'{"t":"chat","text":"\xff\xfe"}',
    "duplicate-t": b'{"t":"chat","t":"skip","text":"x"}',
    "deep": b'{"t":"chat","text":"x","x":' + b"[" * 600 + b"]" * 600 + b"}",
    "whitespace": b' \r\n\t{ "t" : "skip" } \n',
    "bom": b'\xef\xbb\xbf{"t":"skip"}',
    "nul": b'{"t":"skip"}\x00',
    "exponent-index": b'{"t":"choose","index":2e0}',
    "neg-zero-index": b'{"t":"choose","index":-0.0}',
}

# What a client sends on a new HTTP connection (FuzzHTTPHead; its head limit is 512 bytes).
http_heads = {
    "get": b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n",
    "pipelined": b"GET / HTTP/1.1\r\nHost: x\r\n\r\nGET /a HTTP/1.1\r\nHost: x\r\n\r\n",
    "post-length": b"POST /api/drawings/abc/report HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello",
    "chunked": b"POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
    "cl-te": b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
    "dup-cl": b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello!",
    "version": b"GET / HTTP/9.9\r\nHost: x\r\n\r\n",
    "h2": b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n",
    "tls": bytes([0x16, 3, 1, 0, 5, 1, 0, 0, 1, 0]),
    "big": b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 700 + b"\r\n\r\n",
    "partial": b"GET / HTTP/1.1\r\nHost: x\r\n",
    "upgrade": b"GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
    b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n",
}


def write(folder, name, data):
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "seed-" + name), "wb") as handle:
        handle.write(data)


for name, (header, body) in frames.items():
    write(FRAMES, name, bytes([header]) + body)
for name, text in logs.items():
    write(FRAMES, name, bytes([LOG]) + text)
for name, obj in messages.items():
    write(MESSAGES, name, json.dumps(obj, separators=(",", ":"), ensure_ascii=False).encode())
for name, data in raw_messages.items():
    write(MESSAGES, name, data)
for name, data in http_heads.items():
    write(HTTP, name, data)
print(f"{len(frames) + len(logs)} frame seeds, {len(messages) + len(raw_messages)} message seeds, {len(http_heads)} HTTP seeds")
