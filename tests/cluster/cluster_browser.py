"""The browser client on a two-node cluster (scripts/cluster), through HAProxy: a player
whose page is on one node joins rooms that run on each node, by invite link and by code,
and the client follows the server's `redirect` by itself (docs/PROTOCOL.md).

Two protocol bots host a room each, one on node1 and one on node2 (`/ws?node=ID`). The
browser's socket lands on either node; it joins node1's room (a redirect when it landed
on node2), leaves, then joins node2's room by typing the code: by then it is on node1, so
that join always needs a redirect. Then node2 is restarted (SIGTERM: its rooms are handed
over): the page gets node2's room back by itself, without a reload.

Usage: python3 tests/cluster/cluster_browser.py BALANCER_URL [POSTGRES_URL]
(prints '1 passed, 0 failed'); with the store's URL it also checks, with psql, that the
guest stayed one player throughout.
Needs scripts/setup.d/10-browser (Chromium, chromedriver, selenium).
"""
import json
import os
import subprocess
import sys
import time
import urllib.request
import warnings

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "browser"))
from e2e import Page, enter_name, make_driver  # noqa: E402
from websockets.sync.client import connect  # noqa: E402

warnings.filterwarnings("ignore", category=DeprecationWarning)


def host_room(base, node, name):
    ws = connect(base.replace("http://", "ws://", 1) + f"/ws?node={node}", origin=base)
    ws.send(json.dumps({"t": "hello", "name": name}))
    ws.send(json.dumps({"t": "create", "name": f"{name}'s", "public": True, "settings": {}}))
    while True:
        message = json.loads(ws.recv(timeout=10))
        if message["t"] == "room":
            return ws, message["code"]


def wait_joined(ws, player_id, timeout=20):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        data = ws.recv(timeout=max(0.1, deadline - time.monotonic()))
        if isinstance(data, str):
            message = json.loads(data)
            if message["t"] == "joined" and message["player"]["id"] == player_id:
                return
    raise AssertionError(f"{player_id} never joined")


def main(base, store=None):
    first, code1 = host_room(base, "node1", "Ada")
    second, code2 = host_room(base, "node2", "Cy")
    driver = make_driver()
    try:
        page = Page("guest", driver, base)
        # The directory is read every 0.5 s: give both nodes time to see both rooms.
        time.sleep(1.5)
        driver.get(f"{base}/?room={code1.lower()}")
        enter_name(page, "Dot")
        page.wait(lambda: page.visible("#screen-room") and (page.text("#room-code") or "").strip() == code1,
                  f"the guest in node1's room {code1}", timeout=20)
        me = page.my_id()
        wait_joined(first, me)

        page.click("#leave-room")
        page.wait(lambda: page.visible("#join-form"), "the lobby after leaving")
        page.type_into("#join-code", code2, enter=True)
        page.wait(lambda: page.visible("#screen-room") and (page.text("#room-code") or "").strip() == code2,
                  f"the guest in node2's room {code2} (after a redirect)", timeout=20)
        assert page.my_id() == me, f"the same player on both nodes: {page.my_id()} != {me}"
        wait_joined(second, me)
        url = page.js("return performance.getEntriesByType('resource').map(e => e.name).filter(n => n.includes('/ws')).join(' ')")
        print(f"cluster_browser: guest {me} joined {code1} (node1) and {code2} (node2)", url)

        # Rolling restart of the room's node: the page gets the room back by itself, without
        # a reload (the marker survives), as the same player.
        page.js("window.__sameDocument = 'yes'")
        cluster = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "cluster")
        started = time.monotonic()
        subprocess.run([cluster, "restart", "node2"], check=True, capture_output=True)
        token = os.environ.get("CLUSTER_MODERATOR_TOKEN", "cluster-test")

        def connected_again():
            request = urllib.request.Request(f"{base}/api/rooms/{code2}", headers={"Authorization": f"Bearer {token}"})
            try:
                with urllib.request.urlopen(request, timeout=5) as reply:
                    room = json.load(reply)
            except Exception:  # noqa: BLE001 - not yet taken over, or asked a node that has not heard
                return False
            return room.get("node") != "node2" and any(p["id"] == me and p["connected"] for p in room["players"])

        page.wait(lambda: connected_again() and page.js("return document.querySelector('#conn-state').dataset.state") == "open"
                  and page.visible("#screen-room") and (page.text("#room-code") or "").strip() == code2,
                  f"the guest connected in {code2} again after node2's restart", timeout=30)
        assert page.js("return window.__sameDocument") == "yes", "the page was reloaded"
        assert page.my_id() == me, f"the same player after the restart: {page.my_id()} != {me}"
        print(f"cluster_browser: {code2} back on the page {time.monotonic() - started:.1f} s after node2's restart began, no reload")
    finally:
        driver.quit()
        first.close()
        second.close()
    if store:
        count = subprocess.run(["psql", store, "-tAc", "SELECT COUNT(*) FROM player WHERE name = 'Dot'"],
                               check=True, capture_output=True, text=True).stdout.strip()
        assert count == "1", f"the guest became {count} players"
    print("1 passed, 0 failed")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else None)
