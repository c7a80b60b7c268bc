"""Three drawserver nodes on one PostgreSQL behind HAProxy (scripts/cluster up --nodes 3).

1. Invitations across nodes: the invitee gets `invited` from the node holding its
   connection; an invitation for a player nobody holds is refused `not_online`.
2. Moderator routes on any node for any room: GET /api/rooms/{code} names the owner
   (`"node"`), canvas.png and strokes are the owner's, kick and close act on it.
3. Quick play from a node without a public room is sent (`redirect`) to another node's.
4. The owner of a room is killed mid-turn: both players reconnect through the balancer
   with their tokens and get the room back, canvas bytes identical, scores kept, and the
   guesser still does not see the word; the drawer's next frame is relayed.
5. Rolling restart: every node restarted in turn with SIGTERM: the room is handed over
   and both players are back in it each time, without a new token.

Usage: python3 tests/cluster/cluster_scale.py BALANCER_URL MODERATOR_TOKEN  (with
DRAWSERVER_CLUSTER_DIR set as for scripts/cluster; prints 'N passed, 0 failed')
"""
import json
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
import warnings

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

warnings.filterwarnings("ignore", category=DeprecationWarning)
CLUSTER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "cluster")


def ws_url(base, path):
    return base.replace("http://", "ws://", 1) + path


def status():
    return json.loads(subprocess.run([CLUSTER, "status"], check=True, capture_output=True, text=True).stdout)


def node_url(node):
    return next(n["url"] for n in status()["nodes"] if n["id"] == node)


def http(url, token, method="GET"):
    request = urllib.request.Request(url, method=method, headers={"Authorization": f"Bearer {token}"})
    try:
        with urllib.request.urlopen(request, timeout=10) as reply:
            return reply.status, reply.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def http_soon(url, token, method="GET", timeout=10):
    """`http`, asked again while the node has not yet heard of the room (404) or still
    sends it to a node that is gone (502)."""
    deadline = time.monotonic() + timeout
    while True:
        answer = http(url, token, method)
        if answer[0] not in (404, 502) or time.monotonic() > deadline:
            return answer
        time.sleep(0.2)


def next_message(ws, kind, timeout=10, allow_errors=False):
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError(f"no {kind!r} message within {timeout} s")
        data = ws.recv(timeout=left)
        if isinstance(data, bytes):
            continue
        message = json.loads(data)
        if message.get("t") == kind:
            return message
        if message.get("t") == "error" and not allow_errors:
            raise AssertionError(f"waiting for {kind!r}: {message}")


class Player:
    def __init__(self, base, name, path="/ws"):
        self.base, self.name = base, name
        self.ws = connect(ws_url(base, path), origin=base, open_timeout=5)
        self.ws.send(json.dumps({"t": "hello", "name": name}))
        welcome = next_message(self.ws, "welcome")
        self.id, self.token = welcome["playerId"], welcome["token"]

    def send(self, **message):
        self.ws.send(json.dumps(message))

    def expect(self, kind, timeout=10):
        return next_message(self.ws, kind, timeout)

    def back_in_room(self, code, timeout=20):
        """Reconnects through the balancer with the token, as the browser client does, and
        follows `redirect`s until the room arrives; returns (room message, seconds)."""
        started = time.monotonic()
        path = "/ws"
        while True:
            assert time.monotonic() - started < timeout, f"{self.name} never got room {code} back"
            try:
                self.ws = connect(ws_url(self.base, path), origin=self.base, open_timeout=2)
                self.ws.send(json.dumps({"t": "hello", "name": self.name, "token": self.token}))
                welcome = next_message(self.ws, "welcome", timeout=5)
                assert welcome["playerId"] == self.id and welcome["resumed"], welcome
                if path != "/ws":
                    self.send(t="join", code=code)
                while True:
                    message = json.loads(self.ws.recv(timeout=max(0.1, timeout - (time.monotonic() - started))))
                    if message.get("t") == "room":
                        assert message["code"] == code, message
                        return message, time.monotonic() - started
                    if message.get("t") == "redirect":
                        assert message["room"] == code, message
                        path = message["path"]
                        self.ws.close()
                        break
            except (ConnectionClosed, OSError, TimeoutError):
                time.sleep(0.1)


def invites(base, token):
    ada = Player(base, "Ada", "/ws?node=node1")
    ada.send(t="create", name="Invites", public=False, settings={})
    code = ada.expect("room")["code"]
    bob = Player(base, "Bob", "/ws?node=node2")
    ada.send(t="invite", playerId=bob.id)
    invited = bob.expect("invited", timeout=5)
    assert invited["code"] == code and invited["from"]["id"] == ada.id, invited
    ada.send(t="invite", playerId="nobody-at-all")
    error = next_message(ada.ws, "error", timeout=5, allow_errors=True)
    assert error["code"] == "not_online", error
    ada.ws.close(); bob.ws.close()


def moderator_anywhere(base, token):
    host = Player(base, "Mia", "/ws?node=node1")
    host.send(t="create", name="Moderated", public=True, settings={})
    code = host.expect("room")["code"]
    guest = Player(base, "Ned", "/ws?node=node1")
    guest.send(t="join", code=code)
    guest.expect("room")
    # node3 learns of node1 (its room and its address) within a moment.
    deadline = time.monotonic() + 10
    while True:
        status_code, body = http(f"{node_url('node3')}/api/rooms/{code}", token)
        if status_code == 200:
            break
        assert time.monotonic() < deadline, f"node3 never answered for {code}: {status_code} {body[:200]}"
        time.sleep(0.2)
    assert json.loads(body)["node"] == "node1", body
    own = http(f"{node_url('node1')}/api/rooms/{code}/canvas.png", token)
    far = http_soon(f"{node_url('node2')}/api/rooms/{code}/canvas.png", token)
    assert own[0] == far[0] == 200 and own[1] == far[1] and far[1][:8] == b"\x89PNG\r\n\x1a\n", (own[0], far[0])
    assert http(f"{node_url('node3')}/api/rooms/{code}/strokes", token)[0] == 200
    assert http(f"{node_url('node2')}/api/rooms/{code}/kick/{guest.id}", token, "POST")[0] == 204
    guest.expect("kicked")
    assert http(f"{node_url('node3')}/api/rooms/{code}", token, "DELETE")[0] == 204
    assert http(f"{node_url('node1')}/api/rooms/{code}", token)[0] == 404
    assert http(f"{node_url('node2')}/api/rooms/ZZZZZZ", token)[0] == 404
    host.ws.close(); guest.ws.close()


def quickplay_across(base, token):
    host = Player(base, "Quin", "/ws?node=node1")
    host.send(t="create", name="Quick", public=True, settings={})
    code = host.expect("room")["code"]
    deadline = time.monotonic() + 10
    while True:
        seeker = Player(base, "Seek", "/ws?node=node3")
        seeker.send(t="quickplay")
        data = json.loads(seeker.ws.recv(timeout=5))
        while data.get("t") not in ("redirect", "room"):
            data = json.loads(seeker.ws.recv(timeout=5))
        # Another node's public room in its lobby (this one, or an earlier test's).
        if data["t"] == "redirect" and data["node"] != "node3":
            break
        # node3 made a room of its own before it heard of node1's: try again.
        seeker.send(t="leave"); seeker.ws.close()
        assert time.monotonic() < deadline, f"quick play never found {code}: {data}"
        time.sleep(0.5)
    seeker.ws.close(); host.ws.close()


def begin(x, y):
    def sv(n):
        z = (n << 1) ^ (n >> 31)
        out = bytearray()
        while True:
            b = z & 0x7F
            z >>= 7
            out.append(b | (0x80 if z else 0))
            if not z:
                return bytes(out)
    return bytes([0x01, 0, 200, 30, 30, 9]) + sv(x) + sv(y) + bytes([0x02, 2]) + sv(40) + sv(25) + sv(-10) + sv(30) + bytes([0x03])


def game_on(base, node, name):
    """A three-player room on `node` in phase drawing, with some strokes relayed and one
    guesser who guessed (so it has points) and one still guessing; returns
    (code, drawer, guesser) with the guesser still guessing."""
    players = [Player(base, f"{name}{k}", f"/ws?node={node}") for k in range(3)]
    players[0].send(t="create", name=name, public=False, settings={})
    code = players[0].expect("room")["code"]
    for p in players[1:]:
        p.send(t="join", code=code)
        p.expect("room")
    players[0].send(t="start")
    drawer = None
    deadline = time.monotonic() + 10
    while drawer is None:
        for p in players:
            try:
                data = p.ws.recv(timeout=0.2)
            except TimeoutError:
                continue
            if isinstance(data, str) and json.loads(data).get("t") == "choose":
                drawer = p
        assert time.monotonic() < deadline, "nobody was asked to choose"
    guesser, solver = [p for p in players if p is not drawer]
    drawer.send(t="choose", index=0)
    word = drawer.expect("turn")["word"]
    guesser.expect("turn")
    solver.expect("turn")
    frames = [begin(60 + 50 * k, 80 + 20 * k) for k in range(6)]
    for frame in frames:
        drawer.ws.send(frame)
    # The relay may merge back-to-back frames: wait for all their bytes.
    relayed = 0
    while relayed < sum(map(len, frames)):
        data = guesser.ws.recv(timeout=5)
        if isinstance(data, bytes):
            relayed += len(data)
    solver.send(t="guess", text=word)
    guessed = guesser.expect("guessed")
    assert guessed["playerId"] == solver.id and guessed["points"] > 0, guessed
    solver.ws.close()
    return code, drawer, guesser


def owner(base, token, code):
    status_code, body = http_soon(f"{base}/api/rooms/{code}", token)
    assert status_code == 200, (status_code, body[:200])
    return json.loads(body)


def killed_mid_turn(base, token):
    code, drawer, guesser = game_on(base, "node1", "Busy")
    time.sleep(0.5)  # the strokes' batch is committed (75 ms)
    before = owner(base, token, code)
    assert before["node"] == "node1", before
    canvas = http(f"{node_url('node1')}/api/rooms/{code}/canvas.png", token)[1]
    subprocess.run([CLUSTER, "kill", "node1"], check=True)
    killed = time.monotonic()
    room_g, _ = guesser.back_in_room(code)
    room_d, _ = drawer.back_in_room(code)
    took = time.monotonic() - killed
    assert room_g["phase"] == "drawing" and "word" not in room_g, f"the guesser must not see the word: {room_g}"
    assert room_d.get("word"), f"the drawer sees its word: {room_d}"
    scores = lambda r: sorted((p["id"], p["score"]) for p in r["players"])
    assert scores(room_g) == scores(before) and any(p["score"] > 0 for p in room_g["players"]), (room_g["players"], before["players"])
    after = owner(base, token, code)
    assert after["node"] != "node1", after
    again = http(f"{node_url(after['node'])}/api/rooms/{code}/canvas.png", token)[1]
    assert again == canvas, "the canvas is pixel-identical after the take-over"
    drawer.ws.send(begin(300, 300))
    while not isinstance(guesser.ws.recv(timeout=5), bytes):
        pass
    print(f"killed mid-turn: room {code} back for both players {took:.1f} s after the kill, on {after['node']}")
    subprocess.run([CLUSTER, "restart", "node1"], check=True, capture_output=True)
    guesser.ws.close(); drawer.ws.close()


def rolling_restart(base, token):
    code, drawer, guesser = game_on(base, "node2", "Rolling")
    for node in ("node1", "node2", "node3"):
        before = owner(base, token, code)
        started = time.monotonic()
        subprocess.run([CLUSTER, "restart", node], check=True, capture_output=True)
        if before["node"] == node:
            room_g, _ = guesser.back_in_room(code)
            room_d, _ = drawer.back_in_room(code)
            assert "word" not in room_g and room_d.get("word"), (room_g, room_d)
            assert {drawer.id, guesser.id} <= {p["id"] for p in room_g["players"]} and len(room_g["players"]) == 3, room_g
            assert room_g["phase"] == "drawing" and room_g["drawer"] == drawer.id, room_g
            drawer.ws.send(begin(100, 100))
            while not isinstance(guesser.ws.recv(timeout=5), bytes):
                pass
        after = owner(base, token, code)
        assert after["node"] != node or before["node"] != node, (node, after)
        print(f"rolling restart: {node} restarted in {time.monotonic() - started:.1f} s; room {code} on {after['node']}")
    guesser.ws.close(); drawer.ws.close()


if __name__ == "__main__":
    base, token = sys.argv[1], sys.argv[2]
    tests = [invites, moderator_anywhere, quickplay_across, killed_mid_turn, rolling_restart]
    for test in tests:
        test(base, token)
        print(f"ok: {test.__name__}")
    print(f"{len(tests)} passed, 0 failed")
