"""The PostgreSQL primary killed mid-game under load (scripts/cluster up --ha).

Several rooms mid-turn on both nodes (strokes drawn, a correct guess scored), their
drawers drawing a stroke every 100 ms; then `scripts/cluster kill-primary` (Patroni and
PostgreSQL of the primary SIGKILLed) while the drawing goes on. Patroni promotes the
synchronous standby; the test polls its REST API for the moment of promotion. Within 10 s
of it every room must be back: its node's /readyz `ready` (held changes written), its
guesser reconnected with its token into the room with the scores unchanged and no word,
and a stroke drawn after the promotion relayed. Then the rooms keep drawing for a moment,
and each node in turn is restarted (its rooms are handed over and the other node loads
them from the promoted server): the canvas PNG loaded from the store must be
byte-identical to the live one before, with the strokes drawn before, during and after the
failover, and the scores the same: a batch whose COMMIT reached the promoted server but
whose answer was lost with the primary is written again under its id and so stored once
(docs/PERSISTENCE.md). /readyz must have said `storage failing: ...` on each
node during the outage and `ready` after, `drawserver_db_commit_failures_total` risen, and
`drawserver_db_queued_bytes` above 0 during the outage (changes held) and 0 after, and
`drawserver_db_commit_seconds_count` risen after it (commits go through again).

Usage: python3 tests/cluster/cluster_ha.py BALANCER_URL MODERATOR_TOKEN [ROOMS]  (with
DRAWSERVER_CLUSTER_DIR set as for scripts/cluster; prints the figures and 'N passed,
0 failed')
"""
import json
import os
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cluster_scale import CLUSTER, Player, begin, http, http_soon, next_message, node_url, status, ws_url  # noqa: E402
from websockets.exceptions import ConnectionClosed, InvalidHandshake  # noqa: E402
from websockets.sync.client import connect  # noqa: E402

SETTINGS = {"rounds": 2, "drawTimeSec": 240}
BACK_WITHIN = 10.0  # seconds after the promotion


def get(url, timeout=1.0):
    try:
        with urllib.request.urlopen(url, timeout=timeout) as reply:
            return reply.status, reply.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()
    except OSError as error:
        return None, str(error)


def metric(node, name):
    code, body = get(f"{node_url(node)}/metrics", timeout=5)
    assert code == 200, (node, code, body[:200])
    return sum(float(line.split()[-1]) for line in body.splitlines() if line.startswith(name + " ") or line.startswith(name + "{"))


def game_on(base, node, name):
    """A four-player room on `node`, mid-turn: strokes relayed and one correct guess
    scored (the solver then leaves); returns (code, drawer, guesser, watcher), the last two
    still guessing (so the turn goes on while one of them reconnects)."""
    players = [Player(base, f"{name}{k}", f"/ws?node={node}") for k in range(4)]
    for p in players:
        p.path = f"/ws?node={node}"
    players[0].send(t="create", name=name, public=False, settings=SETTINGS)
    code = players[0].expect("room")["code"]
    for p in players[1:]:
        p.send(t="join", code=code)
        p.expect("room")
    players[0].send(t="start")
    drawer, deadline = None, time.monotonic() + 10
    while drawer is None:
        for p in players:
            try:
                data = p.ws.recv(timeout=0.2)
            except TimeoutError:
                continue
            if isinstance(data, str) and json.loads(data).get("t") == "choose":
                drawer = p
        assert time.monotonic() < deadline, "nobody was asked to choose"
    guesser, watcher, solver = [p for p in players if p is not drawer]
    drawer.send(t="choose", index=0)
    word = drawer.expect("turn")["word"]
    for p in (guesser, watcher, solver):
        p.expect("turn")
    frames = [begin(60 + 50 * k, 80 + 20 * k) for k in range(6)]
    for frame in frames:
        drawer.ws.send(frame)
    relayed = 0
    while relayed < sum(map(len, frames)):
        data = guesser.ws.recv(timeout=5)
        if isinstance(data, bytes):
            relayed += len(data)
    solver.send(t="guess", text=word)
    guessed = guesser.expect("guessed")
    assert guessed["playerId"] == solver.id and guessed["points"] > 0, guessed
    solver.ws.close()
    return code, drawer, guesser, watcher


def repeated_block(before, after):
    """How many strokes `after` (the stroke log loaded from the store) has twice compared
    with `before` (the live log), when that is its only difference: one run of strokes
    stored again right after itself, as a batch retried after its COMMIT's answer was lost
    is (its rows, with the strokes drawn since, inserted again). None otherwise."""
    extra = len(after) - len(before)
    if extra <= 0:
        return None
    k = next((i for i, (a, b) in enumerate(zip(before, after)) if a != b), len(before))
    for start in range(max(0, k - extra), k + 1):
        # `after` with after[start:start + extra] removed must be `before`, and the
        # removed run must repeat strokes that are in `before` just around it.
        if after[:start] + after[start + extra:] == before and set(after[start:start + extra]) <= set(before[max(0, start - 2 * extra):start + 2 * extra]):
            return extra
    return None


def rejoin(player, code, timeout=30):
    """Reconnects through the balancer with the token to the path it last used (as the
    browser client does: /ws?node=ID once it reached its room's node) and follows
    `redirect`s until the room arrives, as `Player.back_in_room` does; also through the
    balancer's 503 while no node is ready (every node's /readyz fails while the database
    is away). HAProxy sends /ws?node=ID to that node even while its /readyz fails
    (force-persist), so a resume reaches the node running its room; one that reached
    another node would get `welcome` and nothing more (the server redirects after
    `welcome` only for a room taken over lately). Then, after 2 s, it sends `join` with the
    code, which is answered with `redirect`, and counts it in `player.joined_by_code`: the
    test fails on any. Returns (room message, seconds)."""
    started, path, seen, joining = time.monotonic(), player.path, [], False
    while True:
        assert time.monotonic() - started < timeout, f"{player.name} never got room {code} back: {seen[-6:]}"
        try:
            player.ws = connect(ws_url(player.base, path), origin=player.base, open_timeout=2)
            player.ws.send(json.dumps({"t": "hello", "name": player.name, "token": player.token}))
            welcome = next_message(player.ws, "welcome", timeout=5)
            assert welcome["playerId"] == player.id and welcome["resumed"], welcome
            if joining:
                player.send(t="join", code=code)
            asked = joining
            while True:
                try:
                    data = player.ws.recv(timeout=2 if not asked else max(0.1, timeout - (time.monotonic() - started)))
                except TimeoutError:
                    if asked:
                        raise
                    seen.append("nothing after welcome: join")
                    player.joined_by_code = getattr(player, "joined_by_code", 0) + 1
                    player.send(t="join", code=code)
                    asked = True
                    continue
                if isinstance(data, bytes):
                    continue
                message = json.loads(data)
                seen.append(message.get("t") if message.get("t") not in ("error", "redirect") else message)
                if message.get("t") == "room":
                    assert message["code"] == code, message
                    return message, time.monotonic() - started
                if message.get("t") == "redirect":
                    assert message["room"] == code, message
                    path = player.path = message["path"]
                    joining = True
                    player.ws.close()
                    break
        except (ConnectionClosed, OSError, TimeoutError, InvalidHandshake) as error:
            seen.append(repr(error)[:120])
            time.sleep(0.1)


def room_info(base, token, code, timeout=30):
    """GET /api/rooms/{code} through the balancer, asked again while it has no ready node
    (503) or the node does not know the room yet."""
    deadline = time.monotonic() + timeout
    while True:
        answer = http_soon(f"{base}/api/rooms/{code}", token)
        if answer[0] != 503 or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert answer[0] == 200, (code, answer[0], answer[1][:200])
    return json.loads(answer[1])


def scores(players):
    return sorted((p["id"], p["score"]) for p in players)


class Room(threading.Thread):
    """One room's drawer draws a stroke every 100 ms (reconnecting if its connection
    drops) until the promotion; then the room is checked back, and the drawing goes on
    until `stop`."""

    def __init__(self, base, token, node, name, promoted, stop):
        super().__init__(daemon=True)
        self.base, self.token, self.promoted, self.stop = base, token, promoted, stop
        self.code, self.drawer, self.guesser, self.watcher = game_on(base, node, name)
        self.before = room_info(base, token, self.code)
        assert any(p["score"] > 0 for p in self.before["players"]), self.before
        self.frames = self.drops = 0
        self.back_after = None
        self.error = None
        self.step = 0

    def draw(self):
        self.step += 1
        frame = begin(40 + (self.step * 37) % 700, 40 + (self.step * 53) % 500)
        try:
            self.drawer.ws.send(frame)
            self.frames += 1
        except ConnectionClosed:
            self.drops += 1
            rejoin(self.drawer, self.code)
        # The guessers' side: drain what was relayed (the load's receiving end).
        for player in (self.guesser, self.watcher):
            try:
                while True:
                    player.ws.recv(timeout=0)
            except TimeoutError:
                pass
            except ConnectionClosed:
                self.drops += 1
                rejoin(player, self.code)

    def back(self):
        """The room is back: its node writes again (/readyz ready), the guesser reconnects
        with its token into it (scores kept, no word), and a stroke drawn now is relayed."""
        promoted_at = self.promoted.at
        while True:
            node = room_info(self.base, self.token, self.code)["node"]
            if get(f"{node_url(node)}/readyz")[1].strip() == "ready":
                break
            assert time.monotonic() - promoted_at < 60, f"{node} never ready again"
            time.sleep(0.05)
        # The guesser's connection dropped (no close frame: a clean close would be leaving).
        self.guesser.ws.socket.shutdown(socket.SHUT_RDWR)
        self.guesser.ws.close()
        room, _ = rejoin(self.guesser, self.code)
        assert room["phase"] == "drawing" and "word" not in room, f"the guesser must not see the word: {room}"
        assert scores(room["players"]) == scores(self.before["players"]), (room["players"], self.before["players"])
        frame = begin(500, 400)
        try:
            self.drawer.ws.send(frame)
        except ConnectionClosed:
            self.drops += 1
            rejoin(self.drawer, self.code)
            self.drawer.ws.send(frame)
        self.frames += 1
        while not isinstance(self.guesser.ws.recv(timeout=5), bytes):
            pass
        self.back_after = time.monotonic() - promoted_at

    def run(self):
        try:
            while not self.promoted.is_set():
                self.draw()
                time.sleep(0.1)
            self.back()
            while not self.stop.is_set():
                self.draw()
                time.sleep(0.1)
        except Exception as error:  # reported by the main thread
            self.error = error


class Promotion(threading.Event):
    at = None


def watch_readyz(nodes, seen, peaks, stop):
    """Every /readyz answer's text, per node, as it changes, and the peak of
    drawserver_db_queued_bytes (changes held while the database is away)."""
    last = {}
    while not stop.is_set():
        for node, url in nodes.items():
            text = get(f"{url}/readyz", timeout=0.5)[1].strip()
            if last.get(node) != text:
                last[node] = text
                seen.setdefault(node, []).append((time.monotonic(), text))
            code, body = get(f"{url}/metrics", timeout=0.5)
            if code == 200:
                held = sum(float(l.split()[-1]) for l in body.splitlines() if l.startswith("drawserver_db_queued_bytes "))
                peaks[node] = max(peaks.get(node, 0), held)
        time.sleep(0.1)


def main(base, token, room_count):
    start = status()
    assert start.get("primary"), f"no primary: {start}"
    nodes = {n["id"]: n["url"] for n in start["nodes"]}
    standby = next(s for s in start["postgres_servers"] if s["name"] != start["primary"])
    failures = {node: metric(node, "drawserver_db_commit_failures_total") for node in nodes}
    commits = {node: metric(node, "drawserver_db_commit_seconds_count") for node in nodes}

    promoted, stop, stop_watch = Promotion(), threading.Event(), threading.Event()
    node_ids = sorted(nodes)
    rooms = [Room(base, token, node_ids[k % len(node_ids)], f"Ha{k}", promoted, stop) for k in range(room_count)]
    print(f"{room_count} rooms mid-turn on {', '.join(node_ids)}; primary {start['primary']}")
    seen, peaks = {}, {}
    watcher = threading.Thread(target=watch_readyz, args=(nodes, seen, peaks, stop_watch), daemon=True)
    watcher.start()
    for room in rooms:
        room.start()
    time.sleep(2)  # drawing load before the kill

    killed = json.loads(subprocess.run([CLUSTER, "kill-primary"], check=True, capture_output=True, text=True).stdout)
    killed_at = time.monotonic()
    assert killed["killed"] == start["primary"], killed
    while get(f"{standby['rest']}/primary", timeout=0.5)[0] != 200:
        assert time.monotonic() - killed_at < 60, f"{standby['name']} was not promoted within 60 s"
        time.sleep(0.05)
    promoted.at = time.monotonic()
    promoted.set()
    promotion = promoted.at - killed_at
    print(f"killed {killed['killed']}; {standby['name']} promoted {promotion:.2f} s after the kill")

    deadline = promoted.at + 60
    for room in rooms:
        while room.back_after is None and room.error is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert room.error is None, f"room {room.code}: {room.error!r}"
        assert room.back_after is not None, f"room {room.code} not back"
    back = sorted(room.back_after for room in rooms)
    print(f"rooms back after the promotion: max {back[-1]:.2f} s, median {statistics.median(back):.2f} s "
          f"({', '.join(f'{b:.2f}' for b in back)}); after the kill: max {promotion + back[-1]:.2f} s")
    assert back[-1] <= BACK_WITHIN, f"a room came back {back[-1]:.2f} s after the promotion (limit {BACK_WITHIN} s)"
    time.sleep(2)  # drawing after the failover
    stop.set()
    for room in rooms:
        room.join(timeout=35)
        assert room.error is None, f"room {room.code}: {room.error!r}"
    stop_watch.set()
    watcher.join()
    print(f"strokes drawn: {sum(r.frames for r in rooms)}; connections dropped and resumed during the load: {sum(r.drops for r in rooms)}")
    stuck = sum(getattr(p, "joined_by_code", 0) for r in rooms for p in (r.drawer, r.guesser, r.watcher))
    assert not stuck, f"resumes that reached another node and got no redirect (joined by code after 2 s): {stuck}"

    for node in nodes:
        texts = [text for _, text in seen.get(node, [])]
        failing = [t for t in texts if t.startswith("storage failing")]
        print(f"{node} /readyz: {' -> '.join(texts)}")
        assert failing, f"{node}'s /readyz never said storage failing: {texts}"
        assert texts[-1] == "ready", texts
        risen = metric(node, "drawserver_db_commit_failures_total") - failures[node]
        assert risen > 0, f"{node}: drawserver_db_commit_failures_total did not rise"
        held = metric(node, "drawserver_db_queued_bytes")
        assert peaks.get(node, 0) > 0 and held == 0, (node, peaks.get(node), held)
        committed = metric(node, "drawserver_db_commit_seconds_count") - commits[node]
        assert committed > 0, f"{node}: drawserver_db_commit_seconds_count did not rise"
        print(f"{node}: drawserver_db_commit_failures_total +{risen:.0f}, drawserver_db_commit_seconds_count +{committed:.0f}; "
              f"drawserver_db_queued_bytes peaked at "
              f"{peaks[node]:.0f} during the outage, {held:.0f} after")

    # Everything is on the promoted server: each node restarted in turn hands its rooms
    # over, and the other node loads them from the store.
    time.sleep(0.5)  # the last strokes' batch is committed (75 ms)
    live = {}
    for room in rooms:
        info = room_info(base, token, room.code)
        code, png = http(f"{node_url(info['node'])}/api/rooms/{room.code}/canvas.png", token)
        assert code == 200 and png[:8] == b"\x89PNG\r\n\x1a\n", code
        strokes = http(f"{node_url(info['node'])}/api/rooms/{room.code}/strokes", token)[1].splitlines()
        live[room.code] = (png, scores(info["players"]), strokes)
    for node in node_ids:
        moved = [r for r in rooms if room_info(base, token, r.code)["node"] == node]
        subprocess.run([CLUSTER, "restart", node], check=True, capture_output=True)
        for room in moved:
            got, _ = rejoin(room.guesser, room.code)
            rejoin(room.drawer, room.code)
            rejoin(room.watcher, room.code)
            assert "word" not in got, got
            info = room_info(base, token, room.code)
            assert info["node"] != node, info
            png = http(f"{node_url(info['node'])}/api/rooms/{room.code}/canvas.png", token)[1]
            if png != live[room.code][0]:
                strokes = http(f"{node_url(info['node'])}/api/rooms/{room.code}/strokes", token)[1].splitlines()
                before = live[room.code][2]
                repeated = repeated_block(before, strokes)
                first = next((k for k, (a, b) in enumerate(zip(before, strokes)) if a != b), min(len(before), len(strokes)))
                raise AssertionError(f"room {room.code}: the canvas loaded from the promoted server differs: "
                                     f"{len(before)} strokes live before, {len(strokes)} loaded; first difference at {first}: "
                                     f"{before[first:first + 1]} / {strokes[first:first + 1]}; drawn by the test: {room.frames}"
                                     + (f"; {repeated} strokes stored twice (a commit in doubt retried)" if repeated else ""))
            assert scores(info["players"]) == live[room.code][1], (info["players"], live[room.code][1])
        print(f"{node} restarted: {len(moved)} rooms loaded from the promoted server, canvases identical, scores kept")
    for room in rooms:
        for player in (room.guesser, room.drawer, room.watcher):
            player.ws.close()
    stuck = sum(getattr(p, "joined_by_code", 0) for r in rooms for p in (r.drawer, r.guesser, r.watcher))
    assert not stuck, f"resumes after a node restart that got no redirect (joined by code after 2 s): {stuck}"
    print(f"figures: promotion {promotion:.2f} s after the kill; rooms back {back[-1]:.2f} s max, "
          f"{statistics.median(back):.2f} s median after the promotion")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 6)
    print("1 passed, 0 failed")
