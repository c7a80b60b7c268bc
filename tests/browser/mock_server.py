#!/usr/bin/env python3
"""A small stand-in for the drawserver, used ONLY to develop and smoke-test the
browser client while the Swift server is not runnable (`e2e.py --mock`).

It implements just enough of /work/shared/protocol.md for the e2e scenario:
hello/welcome with resumable tokens, rooms/create/join/quickplay/leave/ready/start,
chat with guess judging (exact/close), choose/turn/hint-less drawing, binary relay
with a canvas replay for resumed players, guessed/turnEnd/gameEnd, invite, kick,
votekick, spectate (flag only), /healthz and /api/rooms. It is NOT a reference
implementation: when it and the protocol disagree, the protocol wins.

Issue 39's additions (/work/coord/issue39-contract.md) are here too, so the client can
be exercised before the real server has them: `guessed.word` and `room.solvedWord`,
chat history lines with `kind`, `gameDrawings` on a resume, `notice` (slow_down after 5
lines in 3 s, settings_adjusted, and bot_passed on the chat line "!botpassed"),
`left.reason`, `room.nextGameMs` between games (MOCK_NEXT_GAME_MS, default 20000) and
the RoomSummary's language/round/rounds/bots.

Usage: python3 tests/browser/mock_server.py --port 8099 --web-root web-static
"""
import argparse
import asyncio
import json
import mimetypes
import os
import secrets
import string
import sys
import struct
import time
import zlib

from websockets.asyncio.server import serve
from websockets.datastructures import Headers
from websockets.http11 import Response

ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
WORDS = ["giraffe", "pizza", "rainbow", "castle", "bicycle", "volcano", "penguin", "guitar"]
MOD_TOKEN = os.environ.get("MOCK_MODERATOR_TOKEN", "modtoken")
NEXT_GAME_MS = int(os.environ.get("MOCK_NEXT_GAME_MS", "20000"))
LIMITS = {"rounds": (1, 10), "drawTimeSec": (30, 240), "maxPlayers": (2, 50), "wordChoices": (1, 5), "hints": (0, 5)}
HISTORY_MAX = 50
CHAT_BUDGET = (5, 3.0)  # lines per seconds before slow_down


def clamp_settings(raw):
    """The settings with numbers moved into range, and {field: value used} for the moved ones."""
    out, adjusted = dict(raw or {}), {}
    for k, (lo, hi) in LIMITS.items():
        if k in out:
            try:
                v = int(out[k])
            except (TypeError, ValueError):
                continue
            c = min(hi, max(lo, v))
            if c != v:
                adjusted[k] = c
            out[k] = c
    return out, adjusted


def lev(a, b):
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]


def norm(s):
    return " ".join("".join(c for c in s.casefold() if c.isalnum() or c.isspace()).split())


def tiny_png(w, h, rgb):
    """A solid-colour RGB PNG (the mock does not render canvases)."""
    raw = b"".join(b"\x00" + bytes(rgb) * w for _ in range(h))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def mask_of(word):
    return "   ".join(" ".join("_" if c.isalnum() else c for c in w) for w in word.split())


def request_method(request):
    # websockets only parses GET requests; see process_request below
    return getattr(request, "method", "GET")


class Player:
    def __init__(self, pid, name, token):
        self.id, self.name, self.token = pid, name, token
        self.ws = None
        self.room = None
        self.score = 0
        self.ready = False
        self.guessed = False
        self.spectator = False

    def public(self):
        return {"id": self.id, "name": self.name, "score": self.score, "ready": self.ready,
                "connected": self.ws is not None, "guessed": self.guessed, "spectator": self.spectator}


class Room:
    def __init__(self, code, name, public, settings, host):
        self.code, self.name, self.public = code, name, public
        self.settings = {"rounds": 1, "drawTimeSec": 80, "maxPlayers": 8, "wordChoices": 3, "hints": 2,
                         "language": "en", "customWords": [], "customOnly": False, "streamer": False}
        self.settings.update({k: v for k, v in (settings or {}).items() if k in self.settings})
        self.players = []
        self.host = host.id
        self.phase = "lobby"
        self.round = 0
        self.drawer_idx = -1
        self.word = None
        self.choices = []
        self.deadline = 0
        self.log = []  # binary frames of the current turn
        self.task = None
        self.votes = {}
        self.history = []  # chat history lines (with `kind`); "_to" marks a private line
        self.drawings = []  # this game's finished turns with a drawing
        self.next_game_at = None

    def drawer(self):
        if 0 <= self.drawer_idx < len(self.players):
            return self.players[self.drawer_idx]
        return None

    def remaining(self):
        return max(0, int((self.deadline - time.monotonic()) * 1000))

    def listed(self):
        # streamer mode (docs/PROTOCOL.md 12.2) keeps a room out of every list and quick play
        return self.public and self.settings.get("streamer") is not True

    def summary(self):
        return {"code": self.code, "name": self.name, "public": self.public, "players": len(self.players),
                "maxPlayers": self.settings["maxPlayers"], "phase": self.phase,
                "language": self.settings.get("language", "en"), "round": self.round,
                "rounds": self.settings["rounds"], "bots": 0}

    def remember(self, line, to=None):
        if to is not None:
            line = {**line, "_to": to}
        self.history = (self.history + [line])[-HISTORY_MAX:]

    def history_for(self, p):
        return [{k: v for k, v in line.items() if k != "_to"} for line in self.history if line.get("_to", p.id) == p.id]

    def state(self, for_player):
        d = self.drawer()
        msg = {"t": "room", "code": self.code, "name": self.name, "public": self.public, "host": self.host,
               "settings": self.settings, "phase": self.phase, "round": self.round,
               "rounds": self.settings["rounds"], "drawer": d.id if d and self.phase != "lobby" else None,
               "mask": mask_of(self.word) if self.word else "", "remainingMs": self.remaining(),
               "players": [p.public() for p in self.players], "canvas": {"w": 800, "h": 600}}
        if d is for_player and self.word and self.phase == "drawing":
            msg["word"] = self.word
        if for_player is not None and for_player.guessed and self.word and self.phase in ("drawing", "turnEnd"):
            msg["solvedWord"] = self.word
        if self.phase == "lobby" and self.next_game_at is not None:
            msg["nextGameMs"] = max(0, int((self.next_game_at - time.monotonic()) * 1000))
        return msg


class Server:
    def __init__(self):
        self.players_by_token = {}
        self.players_by_id = {}
        self.rooms = {}

    async def send(self, p, obj):
        if p.ws is not None:
            try:
                await p.ws.send(json.dumps(obj) if isinstance(obj, dict) else obj)
            except Exception:
                pass

    async def broadcast(self, room, obj, exclude=None):
        for p in list(room.players):
            if p is not exclude:
                await self.send(p, obj)

    async def send_room(self, room):
        for p in list(room.players):
            await self.send(p, room.state(p))

    def new_code(self):
        while True:
            c = "".join(secrets.choice(ALPHABET) for _ in range(6))
            if c not in self.rooms:
                return c

    async def error(self, p, code, ref, message=""):
        await self.send(p, {"t": "error", "code": code, "message": message or code, "ref": ref})

    async def join(self, p, room):
        if p.room:
            return await self.error(p, "already_in_room", "join")
        if len(room.players) >= room.settings["maxPlayers"]:
            return await self.error(p, "room_full", "join")
        p.room, p.score, p.ready, p.guessed = room, 0, False, False
        room.players.append(p)
        await self.broadcast(room, {"t": "joined", "player": p.public()}, exclude=p)
        await self.send_room(room)
        if room.phase in ("drawing", "turnEnd"):
            await self.send_canvas(p, room)

    async def send_canvas(self, p, room):
        await self.send(p, {"t": "canvas", "w": 800, "h": 600})
        for frame in room.log:
            await self.send(p, frame)

    async def leave(self, p, reason="left"):
        room = p.room
        if not room:
            return
        await self.broadcast(room, {"t": "left", "playerId": p.id, "reason": reason})
        idx = room.players.index(p)
        room.players.remove(p)
        p.room = None
        if idx < room.drawer_idx:
            room.drawer_idx -= 1
        if not room.players:
            if room.task:
                room.task.cancel()
            self.rooms.pop(room.code, None)
            return
        if room.host == p.id:
            room.host = room.players[0].id
        await self.send_room(room)

    async def maybe_start(self, room, force=False):
        seated = [p for p in room.players if not p.spectator]
        if room.phase != "lobby" or len(seated) < 2:
            return False
        if force or all(p.ready for p in seated):
            for p in room.players:
                p.score = 0
            room.next_game_at = None
            room.drawings = []
            room.round = 1
            room.drawer_idx = -1
            await self.next_turn(room)
            return True
        return False

    async def next_turn(self, room):
        room.drawer_idx += 1
        # spectators never draw
        while room.drawer_idx < len(room.players) and room.players[room.drawer_idx].spectator:
            room.drawer_idx += 1
        if room.drawer_idx >= len(room.players):
            room.round += 1
            room.drawer_idx = next((i for i, q in enumerate(room.players) if not q.spectator), 0)
            if room.round > room.settings["rounds"]:
                return await self.game_end(room)
        room.phase = "choosing"
        room.word = None
        room.log = []
        for p in room.players:
            p.guessed = False
        room.choices = WORDS[room.drawer_idx % len(WORDS):][:room.settings["wordChoices"]] or WORDS[:3]
        room.deadline = time.monotonic() + 15
        d = room.drawer()
        await self.send_room(room)
        for p in room.players:
            if p is d:
                await self.send(p, {"t": "choose", "words": room.choices, "remainingMs": room.remaining()})
            else:
                await self.send(p, {"t": "choosing", "drawer": d.id, "remainingMs": room.remaining()})
        self.schedule(room, 15, lambda: self.choose(room, 0))

    def schedule(self, room, seconds, fn):
        if room.task:
            room.task.cancel()

        async def run():
            await asyncio.sleep(seconds)
            room.task = None
            await fn()
        room.task = asyncio.ensure_future(run())

    async def choose(self, room, index):
        if room.phase != "choosing":
            return
        room.word = room.choices[max(0, min(index, len(room.choices) - 1))]
        room.phase = "drawing"
        room.deadline = time.monotonic() + room.settings["drawTimeSec"]
        d = room.drawer()
        await self.send_room(room)
        for p in room.players:
            msg = {"t": "turn", "drawer": d.id, "round": room.round, "mask": mask_of(room.word), "remainingMs": room.remaining()}
            if p is d:
                msg["word"] = room.word
            await self.send(p, msg)
        self.schedule(room, room.settings["drawTimeSec"], lambda: self.turn_end(room, "time"))

    async def turn_end(self, room, reason, scores=None):
        if room.phase != "drawing":
            return
        room.phase = "turnEnd"
        deltas = scores or {}
        end = {"t": "turnEnd", "word": room.word, "reason": reason, "scores": deltas}
        if room.log:
            d = room.drawer()
            did = secrets.token_urlsafe(16)[:22]
            end["drawing"] = {"id": did, "png": f"/d/{did}.png", "timelapse": f"/d/{did}.apng"}
            room.drawings.append({**end["drawing"], "word": room.word, "drawer": d.id, "name": d.name, "round": room.round})
        room.remember({"kind": "reveal", "word": room.word, "reason": reason})
        await self.broadcast(room, end)
        await self.send_room(room)
        self.schedule(room, 3, lambda: self.next_turn(room))

    async def game_end(self, room):
        room.phase = "gameEnd"
        ranked = sorted(room.players, key=lambda p: -p.score)
        ranking, place, prev = [], 0, None
        for i, p in enumerate(ranked):
            if p.score != prev:
                place = i + 1
            prev = p.score
            ranking.append({"id": p.id, "name": p.name, "score": p.score, "place": place})
        await self.broadcast(room, {"t": "gameEnd", "ranking": ranking})
        room.phase = "lobby"
        room.word = None
        room.drawer_idx = -1
        # between games (issue 39): ready flags stay, a countdown runs to the next game
        room.next_game_at = time.monotonic() + NEXT_GAME_MS / 1000
        self.schedule(room, NEXT_GAME_MS / 1000, lambda: self.next_game(room))
        await self.send_room(room)

    async def next_game(self, room):
        room.next_game_at = None
        ready = [p for p in room.players if p.ready and not p.spectator]
        if room.phase != "lobby" or len(ready) < 2:
            return await self.send_room(room)
        for p in room.players:
            if not p.ready:
                p.spectator = True
        await self.maybe_start(room, force=True)

    async def handle_chat(self, p, text):
        room = p.room
        if not room:
            return await self.error(p, "not_in_room", "chat")
        text = text.strip()
        if len(text) > 200:
            return await self.error(p, "too_large", "chat")
        d = room.drawer()
        if room.phase == "drawing" and p is not d and not p.guessed and not p.spectator:
            a, b = norm(text), norm(room.word)
            if a == b:
                p.guessed = True
                pts = max(50, int(room.remaining() / 1000) * 5)
                p.score += pts
                d.score += pts // 2
                room.remember({"kind": "guessed", "playerId": p.id, "name": p.name})
                await self.broadcast(room, {"t": "guessed", "playerId": p.id, "points": pts}, exclude=p)
                await self.send(p, {"t": "guessed", "playerId": p.id, "points": pts, "word": room.word})
                room.pending = getattr(room, "pending", {})
                room.pending[p.id] = pts
                room.pending[d.id] = room.pending.get(d.id, 0) + pts // 2
                if all(q.guessed or q is d or q.spectator or q.ws is None for q in room.players):
                    scores, room.pending = room.pending, {}
                    await self.turn_end(room, "allGuessed", scores)
                return
            if lev(a, b) <= (2 if len(b.replace(" ", "")) >= 8 else 1):
                room.remember({"kind": "close", "text": text}, to=p.id)
                return await self.send(p, {"t": "close", "text": text})
        if text == "!botpassed":
            room.remember({"kind": "passed", "playerId": "bot-pixel", "name": "Pixel"})
            return await self.broadcast(room, {"t": "notice", "code": "bot_passed", "playerId": "bot-pixel", "name": "Pixel"})
        msg = {"t": "chat", "from": p.id, "name": p.name, "text": text}
        room.remember({"from": p.id, "name": p.name, "text": text})
        if room.phase == "drawing" and (p.guessed or p is d):
            for q in room.players:
                if q.guessed or q is d:
                    await self.send(q, msg)
        else:
            await self.broadcast(room, msg)

    async def handle(self, p, msg):
        t = msg.get("t")
        room = p.room
        if t == "rooms":
            await self.send(p, {"t": "rooms", "rooms": [r.summary() for r in self.rooms.values() if r.listed()]})
        elif t == "create":
            if room:
                return await self.error(p, "already_in_room", t)
            settings, adjusted = clamp_settings(msg.get("settings"))
            r = Room(self.new_code(), msg.get("name") or f"{p.name}'s room", msg.get("public", True) is not False, settings, p)
            self.rooms[r.code] = r
            await self.join(p, r)
            if adjusted:
                await self.send(p, {"t": "notice", "code": "settings_adjusted", "fields": adjusted})
        elif t == "join":
            r = self.rooms.get(str(msg.get("code", "")).upper())
            if not r:
                return await self.error(p, "room_not_found", t)
            await self.join(p, r)
        elif t == "quickplay":
            cands = [r for r in self.rooms.values() if r.listed() and r.phase == "lobby" and len(r.players) < r.settings["maxPlayers"]]
            if cands:
                await self.join(p, max(cands, key=lambda r: len(r.players)))
            else:
                r = Room(self.new_code(), f"{p.name}'s room", True, {}, p)
                self.rooms[r.code] = r
                await self.join(p, r)
        elif not room:
            await self.error(p, "not_in_room", t or "")
        elif t == "leave":
            await self.leave(p)
        elif t == "ready":
            p.ready = bool(msg.get("ready"))
            await self.broadcast(room, {"t": "ready", "playerId": p.id, "ready": p.ready})
            await self.maybe_start(room)
        elif t == "start":
            if room.host != p.id:
                return await self.error(p, "not_host", t)
            if not await self.maybe_start(room, force=True):
                await self.error(p, "not_enough_players", t)
        elif t == "settings":
            if room.host != p.id:
                return await self.error(p, "not_host", t)
            if room.phase != "lobby":
                return await self.error(p, "wrong_phase", t)
            settings, adjusted = clamp_settings(msg.get("settings"))
            room.settings.update({k: v for k, v in settings.items() if k in room.settings})
            if adjusted:
                await self.send(p, {"t": "notice", "code": "settings_adjusted", "fields": adjusted})
            await self.send_room(room)
        elif t in ("chat", "guess"):
            now = time.monotonic()
            p.sent = [x for x in getattr(p, "sent", []) if now - x < CHAT_BUDGET[1]] + [now]
            if len(p.sent) > CHAT_BUDGET[0]:
                if now - getattr(p, "slowed", 0) >= CHAT_BUDGET[1]:
                    p.slowed = now
                    await self.send(p, {"t": "notice", "code": "slow_down", "retryMs": int((CHAT_BUDGET[1] - (now - p.sent[0])) * 1000)})
                return
            await self.handle_chat(p, str(msg.get("text", "")))
        elif t == "choose":
            if room.drawer() is not p or room.phase != "choosing":
                return await self.error(p, "not_drawer", t)
            await self.choose(room, int(msg.get("index", 0)))
        elif t == "skip":
            if room.drawer() is not p:
                return await self.error(p, "not_drawer", t)
            await self.turn_end(room, "skipped")
        elif t == "invite":
            q = self.players_by_id.get(msg.get("playerId"))
            if not q or q.ws is None:
                return await self.error(p, "not_online", t)
            await self.send(q, {"t": "invited", "from": {"id": p.id, "name": p.name}, "code": room.code})
        elif t in ("kick", "votekick"):
            target = next((q for q in room.players if q.id == msg.get("playerId")), None)
            if not target:
                return await self.error(p, "bad_message", t)
            if t == "kick" and room.host != p.id:
                return await self.error(p, "not_host", t)
            if t == "votekick":
                votes = room.votes.setdefault(target.id, set())
                votes.add(p.id)
                others = [q for q in room.players if q is not target and q.ws is not None]
                needed = len(others) // 2 + 1
                await self.broadcast(room, {"t": "votekick", "target": target.id, "votes": len(votes), "needed": needed})
                if len(votes) < needed:
                    return
            await self.leave(target, "votekicked" if t == "votekick" else "kicked")
            await self.send(target, {"t": "kicked"})
        elif t == "spectate":
            p.spectator = bool(msg.get("on"))
            await self.send_room(room)
        else:
            await self.error(p, "bad_message", t or "")

    async def ws_handler(self, ws):
        p = None
        try:
            raw = await asyncio.wait_for(ws.recv(), 10)
            hello = json.loads(raw)
            name = str(hello.get("name", "")).strip()
            if hello.get("t") != "hello" or not 1 <= len(name) <= 24:
                await ws.send(json.dumps({"t": "error", "code": "bad_name", "message": "bad name", "ref": "hello"}))
                return
            p = self.players_by_token.get(hello.get("token"))
            resumed = p is not None
            if p is None:
                p = Player(secrets.token_hex(4), name, secrets.token_urlsafe(24))
                self.players_by_token[p.token] = p
                self.players_by_id[p.id] = p
            elif p.ws is not None:
                await p.ws.close(4001, "replaced")
            p.ws = ws
            await ws.send(json.dumps({"t": "welcome", "playerId": p.id, "token": p.token, "resumed": resumed, "name": p.name}))
            if p.room:
                await self.send_room(p.room)
                await self.send(p, {"t": "chatHistory", "lines": p.room.history_for(p)})
                if p.room.phase in ("choosing", "drawing", "turnEnd", "gameEnd"):
                    await self.send(p, {"t": "gameDrawings", "drawings": p.room.drawings})
                if p.room.phase in ("drawing", "turnEnd"):
                    await self.send_canvas(p, p.room)
                    d = p.room.drawer()
                    if p.room.phase == "drawing" and d:
                        turn = {"t": "turn", "drawer": d.id, "round": p.room.round, "mask": mask_of(p.room.word), "remainingMs": p.room.remaining()}
                        if d is p:
                            turn["word"] = p.room.word
                        await self.send(p, turn)
            async for data in ws:
                if isinstance(data, bytes):
                    room = p.room
                    if not room or room.drawer() is not p or room.phase != "drawing":
                        await self.error(p, "not_drawer", "binary")
                        continue
                    room.log.append(data)
                    await self.broadcast(room, data, exclude=p)
                    continue
                try:
                    msg = json.loads(data)
                    assert isinstance(msg, dict)
                except Exception:
                    await self.error(p, "bad_json", "")
                    continue
                await self.handle(p, msg)
        except (asyncio.TimeoutError, Exception) as e:  # noqa: BLE001 - a mock
            if not isinstance(e, asyncio.TimeoutError) and "ConnectionClosed" not in type(e).__name__:
                print("mock: handler error:", repr(e), file=sys.stderr)
        finally:
            if p is not None and p.ws is ws:
                p.ws = None
                if p.room:
                    await self.send_room(p.room)

    async def close_room(self, room):
        for p in list(room.players):
            p.room = None
            await self.send(p, {"t": "closed"})
        if room.task:
            room.task.cancel()
        self.rooms.pop(room.code, None)

    async def mod_kick(self, target):
        await self.leave(target)
        await self.send(target, {"t": "kicked"})

    def http(self, connection, request, web_root):
        path = request.path.split("?", 1)[0]
        if path == "/ws":
            return None
        if path == "/healthz":
            return connection.respond(200, "ok\n")
        auth = request.headers.get("Authorization", "")
        mod = auth == f"Bearer {MOD_TOKEN}"
        if auth and not mod:
            return connection.respond(401, "unauthorized\n")
        if path.startswith("/d/"):
            return self.respond(200, tiny_png(320, 240, (250, 230, 200)), "image/png")
        if path == "/api/rooms":
            rooms = [r.summary() for r in self.rooms.values() if r.listed() or mod]
            return self.respond(200, json.dumps(rooms).encode(), "application/json")
        if path.startswith("/api/"):
            if not mod:
                return connection.respond(401, "unauthorized\n")
            parts = path.split("/")
            room = self.rooms.get(parts[3]) if len(parts) > 3 else None
            if not room:
                return connection.respond(404, "not found\n")
            if len(parts) == 4 and request_method(request) == "DELETE":
                asyncio.ensure_future(self.close_room(room))
                return connection.respond(204, "")
            if len(parts) == 4:
                st = room.state(None)
                return self.respond(200, json.dumps(st).encode(), "application/json")
            if len(parts) == 5 and parts[4] == "canvas.png":
                shade = (len(room.log) * 40) % 200
                return self.respond(200, tiny_png(320, 240, (255, 255 - shade, 255 - shade)), "image/png")
            if len(parts) == 6 and parts[4] == "kick":
                target = next((q for q in room.players if q.id == parts[5]), None)
                if not target:
                    return connection.respond(404, "not found\n")
                asyncio.ensure_future(self.mod_kick(target))
                return connection.respond(204, "")
            return connection.respond(404, "not found\n")
        rel = "index.html" if path == "/" else path.lstrip("/")
        full = os.path.realpath(os.path.join(web_root, rel))
        if not full.startswith(os.path.realpath(web_root)) or not os.path.isfile(full):
            return connection.respond(404, "not found\n")
        ctype = mimetypes.guess_type(full)[0] or "application/octet-stream"
        if full.endswith(".js"):
            ctype = "text/javascript"
        with open(full, "rb") as f:
            return self.respond(200, f.read(), ctype)

    @staticmethod
    def respond(status, body, ctype):
        headers = Headers([("Content-Type", ctype), ("Content-Length", str(len(body))), ("Cache-Control", "no-store")])
        return Response(status, "OK" if status == 200 else "Error", headers, body)


async def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, default=8099)
    ap.add_argument("--web-root", default="web-static")
    args = ap.parse_args()
    server = Server()
    async with serve(server.ws_handler, "127.0.0.1", args.port,
                     process_request=lambda c, r: server.http(c, r, args.web_root)):
        print(f"mock drawserver on http://127.0.0.1:{args.port}", flush=True)
        await asyncio.get_running_loop().create_future()


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        pass
