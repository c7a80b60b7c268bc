"""Just enough of the drawserver protocol (shared/protocol.md) for `drawserver replay`.

The relays in this folder exist to measure what a bare relay costs on this machine, next
to drawserver doing the whole game. They speak this much of the protocol and FAKE the rest:

  hello  -> welcome {playerId, token, resumed:false, name}  (no tokens kept, no resume)
  create -> a room with a random 6-character code; the creator joins; `room` to all
  join   -> `room` to all members (error room_not_found for an unknown code)
  ready  -> `ready` to all; when every member (at least 2) is ready, a game starts
  turn   -> no `choose`/`choosing` phase: `turn` straight away, the drawer's copy has the
            word (words come from a fixed list), remainingMs 240000, no timers, no hints
  guess  -> the exact word counts (no normalising, no `close`), `guessed` to all; once every
            other member guessed: `turnEnd` (reason allGuessed, empty scores) and the next
            member's `turn` at once. Games never end (no rounds, no gameEnd, no scores).
  binary -> from the current drawer only, relayed unchanged to every other member: no
            validation, no canvas, no stroke log, no persistence, no rate limits.
  leave / close -> the member is removed; a drawer leaving passes the turn on.
Everything else (chat, settings, kick, spectate, rooms list...) is ignored.
"""
import json
import secrets

WORDS = ["house", "tree", "sun", "cat", "boat", "apple", "guitar", "bridge", "rocket", "flower"]
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"


class Player:
    __slots__ = ("id", "name", "conn", "room", "ready")

    def __init__(self, conn):
        self.id = secrets.token_hex(5)
        self.name = "?"
        self.conn = conn
        self.room = None
        self.ready = False


class Room:
    __slots__ = ("code", "name", "members", "phase", "drawer", "turns", "word", "guessed")

    def __init__(self, code, name):
        self.code = code
        self.name = name
        self.members = []
        self.phase = "lobby"
        self.drawer = None
        self.turns = 0
        self.word = None
        self.guessed = set()


class FakeGame:
    """The game logic; `transport` sends: send(player, text), to_room(room, text),
    subscribe(player, room), unsubscribe(player, room). Binary relaying is the adapter's."""

    def __init__(self, transport):
        self.t = transport
        self.rooms = {}

    # -- connection events -------------------------------------------------------------
    def on_text(self, player, text):
        try:
            msg = json.loads(text)
            kind = msg.get("t")
        except (ValueError, AttributeError):
            return
        if kind == "hello":
            player.name = str(msg.get("name", "?"))[:24]
            self.t.send(player, json.dumps({"t": "welcome", "playerId": player.id, "token": secrets.token_urlsafe(24),
                                            "resumed": False, "name": player.name}))
        elif kind == "create" and player.room is None:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(6))
            room = Room(code, str(msg.get("name") or player.name + "'s room"))
            self.rooms[code] = room
            self._join(player, room)
        elif kind == "join" and player.room is None:
            room = self.rooms.get(str(msg.get("code", "")).strip().upper())
            if room is None:
                self.t.send(player, json.dumps({"t": "error", "code": "room_not_found", "message": "no such room", "ref": "join"}))
            else:
                self._join(player, room)
        elif kind == "ready" and player.room is not None:
            room = player.room
            player.ready = msg.get("ready", True) is not False
            self.t.to_room(room, json.dumps({"t": "ready", "playerId": player.id, "ready": player.ready}))
            if room.phase == "lobby" and len(room.members) >= 2 and all(p.ready for p in room.members):
                room.phase = "drawing"
                self._turn(room)
        elif kind in ("guess", "chat") and player.room is not None:
            room = player.room
            if room.phase == "drawing" and player is not room.drawer and player.id not in room.guessed \
                    and str(msg.get("text", "")).strip().lower() == room.word:
                room.guessed.add(player.id)
                self.t.to_room(room, json.dumps({"t": "guessed", "playerId": player.id, "points": 100}))
                if all(p.id in room.guessed for p in room.members if p is not room.drawer):
                    self._end_turn(room)
        elif kind == "leave":
            self.on_close(player)

    def is_drawing(self, player):
        """True when a binary frame from this player is to be relayed."""
        room = player.room
        return room is not None and room.phase == "drawing" and room.drawer is player

    def on_close(self, player):
        room = player.room
        if room is None:
            return
        player.room = None
        self.t.unsubscribe(player, room)
        room.members.remove(player)
        if not room.members:
            del self.rooms[room.code]
            return
        self.t.to_room(room, json.dumps({"t": "left", "playerId": player.id}))
        if room.phase == "drawing" and (room.drawer is player or len(room.members) < 2):
            if len(room.members) < 2:
                room.phase = "lobby"
                room.drawer = None
            else:
                self._end_turn(room, "drawerLeft")

    # -- game --------------------------------------------------------------------------
    def _join(self, player, room):
        player.room = room
        player.ready = False
        room.members.append(player)
        self.t.subscribe(player, room)
        self.t.to_room(room, json.dumps(self._room_view(room)))

    def _room_view(self, room):
        return {"t": "room", "code": room.code, "name": room.name, "public": False,
                "host": room.members[0].id if room.members else None, "settings": {},
                "phase": room.phase, "round": 1, "rounds": 1,
                "drawer": room.drawer.id if room.drawer else None, "mask": None, "remainingMs": 0,
                "players": [{"id": p.id, "name": p.name, "score": 0, "ready": p.ready, "connected": True,
                             "guessed": p.id in room.guessed, "spectator": False} for p in room.members],
                "canvas": {"w": 800, "h": 600}}

    def _turn(self, room):
        room.drawer = room.members[room.turns % len(room.members)]
        room.word = WORDS[room.turns % len(WORDS)]
        room.turns += 1
        room.guessed = set()
        mask = " ".join("_" for _ in room.word)
        base = {"t": "turn", "drawer": room.drawer.id, "round": 1, "mask": mask, "remainingMs": 240000}
        text = json.dumps(base)
        for p in room.members:
            if p is room.drawer:
                self.t.send(p, json.dumps(dict(base, word=room.word)))
            else:
                self.t.send(p, text)

    def _end_turn(self, room, reason="allGuessed"):
        self.t.to_room(room, json.dumps({"t": "turnEnd", "word": room.word, "reason": reason, "scores": {}}))
        self._turn(room)
