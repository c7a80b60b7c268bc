"""Two drawserver nodes on one PostgreSQL behind HAProxy (scripts/cluster).

1. A room made on one node is joined by code from a player connected to the other, through the balancer,
by following the server's `redirect`, after finding it in the other node's public room
list (docs/PROTOCOL.md, docs/CLUSTER.md).
2. The node running a room is killed (scripts/cluster kill node1): a player reconnecting
   through the balancer with its token gets the room back from node2.

Usage: python3 tests/cluster/cluster_smoke.py BALANCER_URL  (with DRAWSERVER_CLUSTER_DIR
set as for scripts/cluster; prints '2 passed, 0 failed')
"""
import json
import os
import subprocess
import sys
import time
import warnings

from websockets.sync.client import connect

# connect() outside a `with` is what this script wants (websockets >= 14 warns).
warnings.filterwarnings("ignore", category=DeprecationWarning)


def ws_url(base, path):
    return base.replace("http://", "ws://", 1) + path


def next_message(ws, kind, timeout=10):
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
        if message.get("t") == "error":
            raise AssertionError(f"waiting for {kind!r}: {message}")


def main(base):
    origin = base
    host = connect(ws_url(base, "/ws?node=node1"), origin=origin)
    host.send(json.dumps({"t": "hello", "name": "Ada"}))
    next_message(host, "welcome")
    host.send(json.dumps({"t": "create", "name": "Across", "public": True, "settings": {}}))
    code = next_message(host, "room")["code"]

    guest = connect(ws_url(base, "/ws?node=node2"), origin=origin)
    guest.send(json.dumps({"t": "hello", "name": "Bob"}))
    welcome = next_message(guest, "welcome")
    token, player = welcome["token"], welcome["playerId"]
    # node2 learns which node runs the room from the store (leases, read every 0.5 s):
    # the public room list covers both nodes.
    deadline = time.monotonic() + 10
    while True:
        guest.send(json.dumps({"t": "rooms"}))
        listed = next_message(guest, "rooms")["rooms"]
        if any(r["code"] == code for r in listed):
            break
        assert time.monotonic() < deadline, f"room {code} never listed on node2: {listed}"
        time.sleep(0.2)
    entry = next(r for r in listed if r["code"] == code)
    assert entry["name"] == "Across" and entry["players"] == 1, entry
    redirect = None
    deadline = time.monotonic() + 10
    while redirect is None:
        guest.send(json.dumps({"t": "join", "code": code.lower()}))
        data = json.loads(guest.recv(timeout=5))
        if data["t"] == "redirect":
            redirect = data
        elif data["t"] == "error" and data.get("code") == "room_not_found" and time.monotonic() < deadline:
            time.sleep(0.2)
        else:
            raise AssertionError(f"expected a redirect, got {data}")
    assert redirect == {"t": "redirect", "room": code, "node": "node1", "path": "/ws?node=node1"}, redirect
    guest.close()

    # Follow it at once: same balancer, the node's path, the same token (node1 asks the
    # store for a token it does not know yet); then join again.
    moved = connect(ws_url(base, redirect["path"]), origin=origin)
    moved.send(json.dumps({"t": "hello", "name": "Bob", "token": token}))
    welcome = next_message(moved, "welcome")
    assert welcome["resumed"] and welcome["playerId"] == player, f"the token resumes on the other node: {welcome}"
    moved.send(json.dumps({"t": "join", "code": code}))
    room = next_message(moved, "room")
    ids = sorted(p["id"] for p in room["players"])
    assert room["code"] == code and player in ids and len(ids) == 2, room
    joined = next_message(host, "joined")
    assert joined["player"]["id"] == player, joined
    host.close()
    moved.close()


def failover(base):
    origin = base
    host = connect(ws_url(base, "/ws?node=node1"), origin=origin)
    host.send(json.dumps({"t": "hello", "name": "Eve"}))
    next_message(host, "welcome")
    host.send(json.dumps({"t": "create", "name": "Survives", "public": True, "settings": {}}))
    code = next_message(host, "room")["code"]
    guest = connect(ws_url(base, "/ws?node=node1"), origin=origin)
    guest.send(json.dumps({"t": "hello", "name": "Fay"}))
    welcome = next_message(guest, "welcome")
    guest.send(json.dumps({"t": "join", "code": code}))
    next_message(guest, "room")
    next_message(host, "joined")
    # The host's join is committed with the room (75 ms batches): wait for the store to
    # show both, through the other node's room list.
    watcher = connect(ws_url(base, "/ws?node=node2"), origin=origin)
    watcher.send(json.dumps({"t": "hello", "name": "Watcher"}))
    next_message(watcher, "welcome")
    deadline = time.monotonic() + 10
    while True:
        watcher.send(json.dumps({"t": "rooms"}))
        if any(r["code"] == code and r["players"] == 2 for r in next_message(watcher, "rooms")["rooms"]):
            break
        assert time.monotonic() < deadline, "node2 never saw the room with both players"
        time.sleep(0.2)

    subprocess.run([os.path.join(os.path.dirname(__file__), "..", "..", "scripts", "cluster"), "kill", "node1"], check=True)
    killed = time.monotonic()
    # The client's way back: the same URL through the balancer, until it answers.
    while True:
        try:
            back = connect(ws_url(base, "/ws?node=node1"), origin=origin, open_timeout=2)
            back.send(json.dumps({"t": "hello", "name": "Fay", "token": welcome["token"]}))
            resumed = next_message(back, "welcome", timeout=5)
            break
        except Exception:  # noqa: BLE001 - the balancer has not yet marked node1 down
            assert time.monotonic() - killed < 20, "the balancer never sent us to node2"
            time.sleep(0.2)
    assert resumed["resumed"] and resumed["playerId"] == welcome["playerId"], resumed
    # With more than two nodes the room may come back on another node than this one:
    # that node sends us `redirect` there (docs/CLUSTER.md).
    while True:
        message = json.loads(back.recv(timeout=20))
        if message.get("t") == "room":
            room = message
            break
        if message.get("t") == "redirect":
            back.close()
            back = connect(ws_url(base, message["path"]), origin=origin, open_timeout=2)
            back.send(json.dumps({"t": "hello", "name": "Fay", "token": welcome["token"]}))
            next_message(back, "welcome", timeout=5)
            back.send(json.dumps({"t": "join", "code": message["room"]}))
    assert room["code"] == code and sorted(p["name"] for p in room["players"]) == ["Eve", "Fay"], room
    print(f"failover: room {code} back on node2 {time.monotonic() - killed:.1f} s after the kill")


if __name__ == "__main__":
    main(sys.argv[1])
    failover(sys.argv[1])
    print("2 passed, 0 failed")
