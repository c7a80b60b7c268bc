"""The hobby baseline: a room relay on the Python `websockets` package (asyncio).

Binary frames from the drawer are relayed with `websockets.asyncio.server.broadcast` to
every other member (no awaiting per recipient). The game is faked by fakegame.py (read
its docstring for what). Usage: python websockets_relay.py PORT
"""
import asyncio
import sys

from websockets.asyncio.server import broadcast, serve

from fakegame import FakeGame, Player


class Transport:
    def send(self, player, text):
        broadcast([player.conn], text)

    def to_room(self, room, text):
        broadcast([p.conn for p in room.members], text)

    def subscribe(self, player, room):
        pass

    def unsubscribe(self, player, room):
        pass


game = FakeGame(Transport())


async def handler(ws):
    player = Player(ws)
    try:
        async for message in ws:
            if isinstance(message, bytes):
                if game.is_drawing(player):
                    broadcast([p.conn for p in player.room.members if p is not player], message)
            else:
                game.on_text(player, message)
    except Exception:
        pass
    finally:
        game.on_close(player)


async def main(port):
    async with serve(handler, "127.0.0.1", port, max_size=64 * 1024, compression=None,
                     max_queue=64, write_limit=1024 * 1024) as server:
        print("listening on 127.0.0.1:%d" % port, flush=True)
        await server.serve_forever()


asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 9002))
