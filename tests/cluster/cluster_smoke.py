"""Two drawserver nodes on one PostgreSQL behind HAProxy (scripts/cluster): a room made on
one node is joined by code from a player connected to the other, through the balancer,
by following the server's `redirect`, after finding it in the other node's public room
list (docs/PROTOCOL.md, docs/CLUSTER.md).

Usage: python3 tests/cluster/cluster_smoke.py BALANCER_URL   (prints '1 passed, 0 failed')
"""
import json
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
    print("1 passed, 0 failed")


if __name__ == "__main__":
    main(sys.argv[1])
