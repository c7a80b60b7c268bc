"""A balancer pair (`scripts/cluster up --balancers 2`, issue 37): two HAProxy with the same
configuration and the per-address stick tables peered.

1. Two players in a room through the first balancer; the first balancer is killed
   (`scripts/cluster kill-balancer 1`): both come back through the second with their tokens,
   resumed, in the same room.
2. The second balancer holds one address to the nodes' budget as the first did: with those
   two connections open, six more are accepted and the ninth is answered 429.

Usage: python3 tests/cluster/cluster_balancers.py BALANCER1_URL BALANCER2_URL  (with
DRAWSERVER_CLUSTER_DIR set as for scripts/cluster; prints '2 passed, 0 failed')
"""
import json
import os
import subprocess
import sys
import time
import warnings

from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

warnings.filterwarnings("ignore", category=DeprecationWarning)

CONNECTIONS_PER_ADDRESS = 8  # the nodes' default --max-connections-per-ip


def ws_url(base):
    return base.replace("http://", "ws://", 1) + "/ws"


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


def main(first, second):
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    passed = failed = 0
    players = []

    def failover():
        ada = connect(ws_url(first), origin=first, open_timeout=5)
        ada.send(json.dumps({"t": "hello", "name": "Ada"}))
        ada_token = answer(ada, ["welcome"])["token"]
        ada.send(json.dumps({"t": "create", "name": "Pair", "public": False, "settings": {}}))
        created = answer(ada, ["room", "error"])
        assert created["t"] == "room", f"the room was not made: {created}"
        code = created["code"]
        bob = connect(ws_url(first), origin=first, open_timeout=5)
        bob.send(json.dumps({"t": "hello", "name": "Bob"}))
        bob_token = answer(bob, ["welcome"])["token"]
        bob.send(json.dumps({"t": "join", "code": code}))
        # Joined here or sent to the room's node (`redirect`): follow it through the same balancer.
        reply = answer(bob, ["room", "redirect"])
        if reply["t"] == "redirect":
            bob.close()
            bob = connect(ws_url(first).replace("/ws", reply["path"]), origin=first, open_timeout=5)
            bob.send(json.dumps({"t": "hello", "name": "Bob", "token": bob_token}))
            answer(bob, ["welcome"])
            bob.send(json.dumps({"t": "join", "code": code}))
            answer(bob, ["room"])
        subprocess.run([os.path.join(root, "scripts", "cluster"), "kill-balancer", "1"], check=True, stdout=subprocess.DEVNULL)
        for ws in (ada, bob):
            try:
                while True:
                    ws.recv(timeout=5)
            except (ConnectionClosed, TimeoutError):
                pass
            ws.close()
        for name, token in (("Ada", ada_token), ("Bob", bob_token)):
            again = connect(ws_url(second), origin=second, open_timeout=5)
            again.send(json.dumps({"t": "hello", "name": name, "token": token}))
            welcome = answer(again, ["welcome"])
            assert welcome.get("resumed") is True, welcome
            # Put back in its room by the hello when this node runs it; else it asks, as the
            # browser client does, and follows the redirect.
            try:
                reply = answer(again, ["room"], timeout=1)
            except (AssertionError, TimeoutError):
                again.send(json.dumps({"t": "join", "code": code}))
                reply = answer(again, ["room", "redirect"])
            if reply["t"] == "redirect":
                again.close()
                again = connect(ws_url(second).replace("/ws", reply["path"]), origin=second, open_timeout=5)
                again.send(json.dumps({"t": "hello", "name": name, "token": token}))
                answer(again, ["welcome"])
                again.send(json.dumps({"t": "join", "code": code}))
                reply = answer(again, ["room"])
            assert reply["code"] == code, reply
            players.append(again)
        print(f"     both players back in room {code} through the second balancer")

    def budget():
        extra = []
        for _ in range(CONNECTIONS_PER_ADDRESS - len(players)):
            extra.append(connect(ws_url(second), origin=second, open_timeout=5))
        try:
            connect(ws_url(second), origin=second, open_timeout=5).close()
            raise AssertionError(f"connection {CONNECTIONS_PER_ADDRESS + 1} through the second balancer was accepted")
        except InvalidStatus as refusal:
            assert refusal.response.status_code == 429, refusal.response.status_code
        for ws in extra + players:
            ws.close()
        print(f"     {CONNECTIONS_PER_ADDRESS} open through the second balancer, the next refused 429")

    for name, check in (("failover to the second balancer", failover), ("the second balancer's budgets", budget)):
        try:
            check()
            print(f"ok   {name}")
            passed += 1
        except AssertionError as error:
            print(f"FAIL {name}: {error}")
            failed += 1
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
