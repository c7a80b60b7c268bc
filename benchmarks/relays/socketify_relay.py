"""The upper bound: a room pub/sub relay on uWebSockets (PyPI `socketify`).

Binary frames from the drawer go out through uWebSockets' own C++ pub/sub (the native
`uws_ws_publish_with_options` on the sender's socket, which skips the sender; socketify's
`WebSocket.publish` would send it back to the drawer too), so Python runs once per drawer
frame, not once per delivery. The game is faked by fakegame.py (read its docstring for what).
Usage: python socketify_relay.py PORT   (prints "listening on 127.0.0.1:PORT")
"""
import sys

from socketify import App, OpCode, CompressOptions
from socketify.native import ffi, lib

from fakegame import FakeGame, Player


class Transport:
    def send(self, player, text):
        player.conn.send(text, OpCode.TEXT)

    def to_room(self, room, text):
        # Sent to each member, not published: uWebSockets delivers a published message
        # after the direct sends of the same event-loop turn, so `turnEnd` (to the room)
        # reached members after the next `turn` (to each member) and ended the new turn
        # in the client. Text messages are rare; drawing frames still go through pub/sub.
        for member in room.members:
            member.conn.send(text, OpCode.TEXT)

    def subscribe(self, player, room):
        player.conn.subscribe(room.code)

    def unsubscribe(self, player, room):
        try:
            player.conn.unsubscribe(room.code)
        except Exception:
            pass


game = FakeGame(Transport())
players = {}  # uWS socket pointer -> Player


def key(ws):
    """The uWebSockets socket pointer: stable for the connection (the Python wrapper is not)."""
    return int(ffi.cast("uintptr_t", ws.ws))


def on_open(ws):
    players[key(ws)] = Player(ws.clone())


def on_message(ws, message, opcode):
    player = players.get(key(ws))
    if player is None:
        return
    if opcode == OpCode.BINARY:
        if game.is_drawing(player):
            topic = player.room.code.encode()
            lib.uws_ws_publish_with_options(app.SSL, ws.ws, topic, len(topic), message, len(message), int(OpCode.BINARY), False)
    elif opcode == OpCode.TEXT:
        game.on_text(player, message)


def on_close(ws, code, message):
    player = players.pop(key(ws), None)
    if player is not None:
        game.on_close(player)


port = int(sys.argv[1]) if len(sys.argv) > 1 else 9001
app = App()
app.ws("/ws", {
    "compression": CompressOptions.DISABLED,
    "max_payload_length": 64 * 1024,
    "idle_timeout": 0,
    "max_backpressure": 1024 * 1024,
    "open": on_open,
    "message": on_message,
    "close": on_close,
})
app.listen(port, lambda config: print("listening on 127.0.0.1:%d" % config.port, flush=True))
app.run()
