#!/usr/bin/env python3
"""End-to-end check of the big-screen page (issue 36, docs/PROTOCOL.md 12.3), against the
real server (same setup as e2e.py). Two protocol players fill a room of two; a browser at
1920 x 1080 opens /tv, types the code in lower case and lands on /tv/CODE as a screen that
watches (no seat: the room is full); its scoreboard lists both players and not itself; the
players see it as watching; the drawer's stroke appears on the TV's canvas; the TV shows
the mask and never the word; a correct guess shows on the TV and moves the scores; a
reload puts the TV back in the room; a bad code is refused on the page.

SAVE_SCREENSHOTS=1 writes docs/screenshots/tv-code-entry-1920.png and tv-1920.png.
Usage: DRAWSERVER_BIN=.build/debug/drawserver python3 tests/browser/e2e_tv.py
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e  # noqa: E402
from e2e import Bot, Failure, Page, log, make_driver, polyline, stroke_frame  # noqa: E402


def players_on_tv(p):
    return p.js("return [...document.querySelectorAll('#tv-scores .tv-score-name')].map((n) => n.textContent)")


def seat_full_room(base, bots):
    ada, bob = Bot(base, "Ada"), Bot(base, "Bob")
    bots += [ada, bob]
    ada.send({"t": "create", "name": "Living room", "public": True, "settings": {"maxPlayers": 2, "rounds": 1, "drawTimeSec": 90}})
    code = ada.wait_for("room")["code"]
    bob.send({"t": "join", "code": code})
    bob.wait_for("room", lambda m: len(m.get("players", [])) == 2, what="Bob seated")
    return ada, bob, code


def enter_code(tv, code):
    tv.d.get(tv.base + "/tv")
    tv.wait(lambda: tv.visible("#tv-entry"), "the code form")
    tv.type_into("#tv-code", "K7QX", enter=True)
    tv.wait(lambda: tv.visible("#tv-error"), "a short code refused on the page")
    tv.screenshot("tv-code-entry-1920")
    tv.js("document.getElementById('tv-code').value = ''")
    tv.type_into("#tv-code", code.lower(), enter=True)
    tv.wait(lambda: tv.visible("#tv-room") and tv.js("return location.pathname") == f"/tv/{code}", "the TV on /tv/CODE")
    tv.wait(lambda: sorted(players_on_tv(tv)) == ["Ada", "Bob"], "both players, and not the TV, on the scoreboard")


def play_a_turn(tv, ada, bob, code):
    tv_id = tv.js("return window.drawserverTV.conn && sessionStorage.getItem('drawserver.token') ? 'ok' : ''")
    if not tv_id:
        raise Failure("the TV has no token")
    seen = ada.wait_for("room", lambda m: any(p.get("watching") and p.get("spectator") for p in m.get("players", [])),
                        what="the TV listed as a screen that watches")
    if len(seen["players"]) != 3:
        raise Failure(f"the room lists {len(seen['players'])} members")
    ada.send({"t": "start"})
    chooser = None
    for bot in (ada, bob):
        try:
            bot.wait_for("choose", timeout=5)
            chooser = bot
            break
        except Failure:
            continue
    if chooser is None:
        raise Failure("nobody was asked to choose a word")
    chooser.send({"t": "choose", "index": 0})
    word = chooser.wait_for("turn", lambda m: m.get("word"), what="the drawer's turn with its word")["word"]
    guesser = bob if chooser is ada else ada
    chooser.send_frame(stroke_frame(polyline((100, 100), (700, 500)), rgb=(30, 60, 200), width=14))
    chooser.send_frame(stroke_frame(polyline((100, 500), (700, 100)), rgb=(220, 40, 40), width=14))
    tv.wait(lambda: tv.ink_near(400, 300, 4, canvas='tv-board') and tv.ink_near(160, 145, 4, canvas='tv-board'), "the strokes on the TV's canvas")
    tv.wait(lambda: "_" in (tv.text("#tv-mask") or ""), "the mask on the TV")
    if word.lower() in tv.js("return document.body.innerText").lower():
        raise Failure("the TV shows the word during the turn")
    tv.screenshot("tv-1920")
    guesser.send({"t": "guess", "text": word})
    tv.wait(lambda: tv.text("#tv-events"), "the correct guess on the TV")
    tv.wait(lambda: tv.visible("#tv-reveal") and word.lower() in tv.text("#tv-reveal-word").lower(), "the word revealed at the turn's end")
    tv.wait(lambda: any(int(x) > 0 for x in tv.js(
        "return [...document.querySelectorAll('#tv-scores .tv-score-points')].map((n) => n.textContent)")), "points on the scoreboard")


def main():
    bots = []

    def scenario(base, pages):
        tv = Page("tv", make_driver(), base)
        pages.append(tv)
        tv.d.set_window_size(1920, 1080)
        ada, bob, code = seat_full_room(base, bots)
        enter_code(tv, code)
        play_a_turn(tv, ada, bob, code)
        tv.d.refresh()
        tv.wait(lambda: tv.visible("#tv-room") and sorted(players_on_tv(tv)) == ["Ada", "Bob"], "the TV back in the room after a reload")
        log("tv: code entry, scoreboard, strokes, mask, guess, reveal, reload: ok")

    try:
        return e2e.run_suite("e2e_tv", [scenario])
    finally:
        for bot in bots:
            bot.close()


if __name__ == "__main__":
    sys.exit(main())
