#!/usr/bin/env python3
"""Supplementary end-to-end checks of the browser client (same setup as e2e.py):

  quick play + public room list, invite by player id (incoming prompt, accept),
  host settings editor (read-only for others), votekick counts and removal,
  host kick + rejoin ban, room-code validation, close code 4001 ("moved to another
  tab", no auto-reconnect, manual reconnect), touch drawing on a phone-sized
  window, fill / undo / clear relayed to the guesser, skip -> turn-end reason.

Usage: DRAWSERVER_BIN=.build/debug/drawserver python3 tests/browser/e2e_more.py [--mock]
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e  # noqa: E402
from e2e import Bot, Failure, Page, enter_name, log, make_driver  # noqa: E402
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.actions import interaction  # noqa: E402
from selenium.webdriver.common.actions.action_builder import ActionBuilder  # noqa: E402
from selenium.webdriver.common.actions.pointer_input import PointerInput  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402


def row_js(pid, inner=""):
    return f"document.querySelector('#player-list .player[data-id=\"{pid}\"] {inner}')"


def menu_label(p, pid, action):
    """Open the player menu of pid's row (if closed) and return the item's text."""
    if not p.visible(f'#player-menu [data-action="{action}"]'):
        p.js(f"{row_js(pid, '.player-menu-btn')}.click()")
        p.wait(lambda: p.visible(f'#player-menu [data-action="{action}"]'), f"'{action}' in the player menu")
    return p.text(f'#player-menu [data-action="{action}"]')


def menu_action(p, pid, action):
    menu_label(p, pid, action)
    p.js(f"document.querySelector('#player-menu [data-action=\"{action}\"]').click()")
    if action in ("votekick", "kick"):
        # the page's own question (a <dialog>), never the browser's native confirm()
        p.confirm(what=f"the question before {action}")


def lobby_flows(base, pages):
    a = Page("alice", make_driver(), base)
    pages.append(a)
    b = Page("bob", make_driver(), base)
    pages.append(b)
    a.d.get(base + "/")
    enter_name(a, "Alice")
    b.d.get(base + "/")
    enter_name(b, "Bob")

    a.click("#quickplay")
    a.wait(lambda: a.visible("#screen-room"), "alice in a room via quick play")
    code = a.text("#room-code")
    b.wait(lambda: b.js(f"return !!document.querySelector('#room-list [data-code=\"{code}\"]')"),
           "the quick-play room in bob's public list (live refresh)", timeout=10)

    a.type_into("#invite-id", b.my_id(), enter=True)
    b.wait(lambda: b.visible("#invite-prompt"), "incoming invite prompt")
    if "Alice" not in (b.text("#invite-text") or ""):
        raise Failure(f"invite prompt does not name the inviter: {b.text('#invite-text')!r}")
    b.click("#invite-accept")
    b.wait(lambda: b.visible("#screen-room") and b.text("#room-code") == code, "bob joined after accepting")
    log("quick play, room list, invite: ok")

    rounds = "[data-settings=room] [data-key=rounds]"
    a.js(f"const i=document.querySelector('{rounds}'); i.value='2'; i.dispatchEvent(new Event('input',{{bubbles:true}}));")
    a.click("#settings-save")
    b.wait(lambda: b.js(f"return document.querySelector('{rounds}').value") == "2", "bob sees the new settings")
    if not b.js(f"return document.querySelector('{rounds}').disabled"):
        raise Failure("a non-host can edit the settings")
    log("settings editor: ok")

    bot = Bot(base)
    try:
        bot.send({"t": "join", "code": code})
        bot.wait_for("room")
        bid = str(bot.welcome["playerId"])
        a.wait(lambda: a.js("return document.querySelectorAll('#player-list .player').length") == 3, "three players")
        # in the lobby only the host has a per-player menu (kick); vote kick applies in a game
        if b.js("return document.querySelectorAll('#player-list .player-menu-btn').length"):
            raise Failure("a non-host has player menus in the lobby")
        if a.js("return document.querySelectorAll('#player-list .player-menu-btn').length") != 2:
            raise Failure("the host has no kick menu on the other players' rows")
        if a.js("return document.querySelectorAll('#player-list button').length") != 2:
            raise Failure("player rows carry buttons besides the one menu button")
        a.click("#start-game")
        b.wait(lambda: b.js(f"return !!{row_js(bid, '.player-menu-btn')}"), "a player menu for bob once the game runs")
        menu_action(a, bid, "votekick")
        a.wait(lambda: "1/" in (menu_label(a, bid, "votekick") or ""), "vote count in the player menu")
        a.js("document.dispatchEvent(new KeyboardEvent('keydown', {key: 'Escape'}))")
        menu_action(b, bid, "votekick")
        bot.wait_for("kicked", timeout=5, what="kicked after the votekick")
        a.wait(lambda: a.js("return document.querySelectorAll('#player-list .player').length") == 2, "the bot removed by votekick")
        log("votekick: ok")
    finally:
        bot.close()

    menu_action(a, b.my_id(), "kick")
    b.wait(lambda: b.visible("#screen-lobby"), "bob back in the lobby after the kick")
    b.type_into("#join-code", code.lower(), enter=True)
    b.wait(lambda: (b.text("#join-error") or "") != "", "an error when rejoining after a kick")
    log("kick + ban:", b.text("#join-error"))
    b.type_into("#join-code", "ABCDE0", enter=True)
    if "6 characters" not in (b.text("#join-error") or ""):
        raise Failure(f"an invalid code is not rejected locally: {b.text('#join-error')!r}")

    token = b.js("return sessionStorage.getItem('drawserver.token')")
    c = Page("bob-tab2", make_driver(), base)
    pages.append(c)
    c.d.get(base + "/")
    c.js("localStorage.setItem('drawserver.name','Bob'); sessionStorage.setItem('drawserver.token', arguments[0]);", token)
    c.d.refresh()
    c.wait(lambda: c.my_id() == b.my_id(), "the second tab resumed the same player")
    b.wait(lambda: b.visible("#banner") and "another tab" in (b.text("#banner-text") or ""), "4001 banner")
    # no automatic reconnect: the connection is stopped with no retry scheduled
    conn_state = b.js("const c = window.drawserverClient.conn; return [c.stopped, c.retryTimer === null, c.ws === null, c.state];")
    if conn_state != [True, True, True, "stopped"] or b.text("#conn-text") != "Offline":
        raise Failure(f"the replaced tab would reconnect by itself after 4001: {conn_state}, {b.text('#conn-text')!r}")
    b.click("#banner-action")
    b.wait(lambda: b.text("#conn-text") == "Online", "manual reconnect")
    c.wait(lambda: c.visible("#banner") and "another tab" in (c.text("#banner-text") or ""), "the other tab now replaced")
    log("4001 handling: ok")
    a.click("#leave-room")
    # a game runs (the votekick's): leaving asks first, in the page
    a.confirm(what="the question before leaving a game")
    a.wait(lambda: a.visible("#screen-lobby"), "lobby after leave")


def phone_drawing(base, pages):
    a = Page("alice-phone", make_driver(), base)
    pages.append(a)
    b = Page("bob-phone", make_driver(), base)
    pages.append(b)
    for p in (a, b):
        p.d.set_window_size(390, 844)
    e2e.seat_and_start_turn(a, b, base, "Alice", "Bob")
    canvas = a.d.find_element(By.ID, "board")
    a.d.execute_script("arguments[0].scrollIntoView({block:'center'})", canvas)
    r = a.js("const r=document.getElementById('board').getBoundingClientRect(); return [r.left,r.top,r.width,r.height]")
    w, h = a.canvas_size()
    touch = PointerInput(interaction.POINTER_TOUCH, "finger")
    ab = ActionBuilder(a.d, mouse=touch, duration=20)
    x0, y0 = r[0] + r[2] * 0.2, r[1] + r[3] * 0.3
    ab.pointer_action.move_to_location(int(x0), int(y0)).pointer_down()
    for i in range(1, 15):
        ab.pointer_action.move_to_location(int(x0 + i * r[2] * 0.04), int(y0 + i * r[3] * 0.03))
    ab.pointer_action.pointer_up()
    ab.perform()
    lx, ly = int(0.2 * w + 7 * 0.04 * w), int(0.3 * h + 7 * 0.03 * h)
    b.wait(lambda: b.ink_near(lx, ly, 8), f"touch ink near ({lx},{ly}) on the guesser", timeout=8)
    log("touch drawing: ok")

    a.click('button[data-tool="fill"]')
    a.js("document.querySelectorAll('#palette .swatch')[5].click()")  # red
    ActionChains(a.d).move_to_element_with_offset(canvas, int(-r[2] * 0.4), int(r[3] * 0.4)).click().perform()
    fx, fy = int(0.1 * w), int(0.9 * h)
    b.wait(lambda: b.pixel(fx, fy)[0] > 200 and b.pixel(fx, fy)[1] < 120, "the fill relayed", timeout=8)
    if not b.ink_near(lx, ly, 2):
        raise Failure("the fill covered the stroke (flood fill not exact-colour)")
    a.click("#tool-undo")
    b.wait(lambda: b.pixel(fx, fy) == [255, 255, 255], "undo of the fill relayed", timeout=8)
    if not b.ink_near(lx, ly, 8):
        raise Failure("undo removed more than the fill")
    a.click("#tool-clear")
    b.wait(lambda: not b.ink_near(lx, ly, 8), "clear relayed", timeout=8)
    log("fill / undo / clear: ok")
    a.click("#tool-skip")
    a.confirm(what="the question before skipping")
    b.wait(lambda: b.visible("#overlay-turnend"), "turn end after skip")
    if "skipped" not in (b.text("#turnend-reason") or ""):
        raise Failure(f"unexpected turn-end reason text {b.text('#turnend-reason')!r}")
    log("skip: ok")


def main():
    mock = "--mock" in sys.argv
    e2e.install_signal_handlers()
    server = e2e.ServerProcess(mock=mock)
    pages = []
    try:
        server.start()
        lobby_flows(server.base, pages)
        phone_drawing(server.base, pages)
        log("PASS")
        return 0
    except Failure as e:
        return e2e.report_failure("e2e_more", e, pages, server)
    finally:
        e2e.quit_all(pages)
        server.stop()


if __name__ == "__main__":
    sys.exit(main())
