"""One address's budgets hold across three drawserver nodes behind HAProxy (scripts/cluster,
issue 37 item 4), with the nodes' default flags but `--ip-room-rate 6/60s`:

1. WebSocket connections: 8 open at once from one address, spread over the three nodes
   (`/ws?node=nodeK`), are accepted; the 9th is answered 429 by the balancer, whichever node
   it asks for; once one closes, a new one is accepted again.
2. Room creations: the address creates rooms on all three nodes in turn; 6 in all are
   made (one node's budget), the rest are refused `rate_limited`.

Usage: python3 tests/cluster/cluster_limits.py BALANCER_URL  (prints '2 passed, 0 failed')
"""
import json
import sys
import time
import warnings

from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

warnings.filterwarnings("ignore", category=DeprecationWarning)

CONNECTIONS_PER_ADDRESS = 8  # the nodes' default --max-connections-per-ip
ROOMS_PER_ADDRESS = 6        # --ip-room-rate 6/60s, as 60-cluster starts the nodes


def ws_url(base, node):
    return base.replace("http://", "ws://", 1) + f"/ws?node={node}"


def answer(ws, kinds, timeout=10):
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        assert left > 0, f"none of {kinds} within {timeout} s"
        data = ws.recv(timeout=left)
        if isinstance(data, bytes):
            continue
        message = json.loads(data)
        if message.get("t") in kinds:
            return message


def refused_status(base, node):
    """The HTTP status an upgrade is refused with, or None when it is accepted."""
    try:
        ws = connect(ws_url(base, node), origin=base, open_timeout=5)
    except InvalidStatus as refusal:
        return refusal.response.status_code
    ws.close()
    return None


def connections(base):
    nodes = ["node1", "node2", "node3"]
    open_ = []
    for i in range(CONNECTIONS_PER_ADDRESS):
        open_.append(connect(ws_url(base, nodes[i % 3]), origin=base, open_timeout=5))
    for node in nodes:
        status = refused_status(base, node)
        assert status == 429, f"connection {CONNECTIONS_PER_ADDRESS + 1} to {node}: {status or 'accepted'}"
    open_.pop().close()
    # The balancer counts the close once the connection is gone.
    deadline = time.monotonic() + 5
    while True:
        try:
            open_.append(connect(ws_url(base, "node2"), origin=base, open_timeout=5))
            break
        except InvalidStatus:
            assert time.monotonic() < deadline, "no connection accepted after one closed"
            time.sleep(0.1)
    for ws in open_:
        ws.close()
    print(f"connections: {CONNECTIONS_PER_ADDRESS} open across 3 nodes, the next refused 429 on each node")


def room_creations(base):
    makers = []
    for k in (1, 2, 3):
        ws = connect(ws_url(base, f"node{k}"), origin=base, open_timeout=5)
        ws.send(json.dumps({"t": "hello", "name": f"Maker{k}"}))
        answer(ws, ["welcome"])
        makers.append(ws)
    made = refused = 0
    for round_ in range(4):
        for ws in makers:
            ws.send(json.dumps({"t": "create", "name": f"Budget {round_}", "public": False, "settings": {}}))
            reply = answer(ws, ["room", "error"])
            if reply["t"] == "room":
                made += 1
                ws.send(json.dumps({"t": "leave"}))
                answer(ws, ["left"])
            else:
                assert reply.get("code") == "rate_limited", reply
                refused += 1
            # The other nodes hear of a creation on the cluster channel within a moment.
            time.sleep(0.15)
    for ws in makers:
        ws.close()
    assert made == ROOMS_PER_ADDRESS, f"{made} rooms made across 3 nodes, {refused} refused; one budget is {ROOMS_PER_ADDRESS}"
    print(f"room creations: {made} made across 3 nodes, {refused} refused rate_limited")


def main(base):
    passed = failed = 0
    for check in (connections, room_creations):
        try:
            check(base)
            passed += 1
        except AssertionError as error:
            print(f"FAILED {check.__name__}: {error}")
            failed += 1
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
