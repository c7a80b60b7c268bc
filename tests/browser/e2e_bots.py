#!/usr/bin/env python3
"""End-to-end check of bots in the browser client (same setup as e2e.py, with short turns:
--draw-seconds 8 --choose-seconds 4):

  one person, Ada, creates a room; as host she sees Add bot with a level picker, seats
  three bots (each shown with a bot badge), takes one out through its menu and seats
  another, sets one round and gets ready. The bots start with her: when a bot draws, its
  ink appears on her canvas; when she draws, she picks a word and draws a stroke. The
  game completes and the podium shows four places, three of them with a bot badge.

Usage: DRAWSERVER_BIN=.build/debug/drawserver python3 tests/browser/e2e_bots.py
"""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e  # noqa: E402
from e2e import Failure, Page, draw_stroke, log, make_driver  # noqa: E402
from selenium.common.exceptions import WebDriverException  # noqa: E402

BADGES = "return document.querySelectorAll('#player-list .player .mark-bot').length"
INK = """
const c = document.getElementById('board');
const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
for (let i = 0; i < d.length; i += 64) if (d[i] < 200 || d[i+1] < 200 || d[i+2] < 200) return true;
return false;
"""


def add_bot(p, level, expect):
    p.js("const s = document.getElementById('bot-level'); s.value = arguments[0]; s.dispatchEvent(new Event('change'));", level)
    p.click("#add-bot")
    p.wait(lambda: p.js(BADGES) == expect, f"{expect} bot badges in the player list")


def run(base, pages):
    d = make_driver()
    ada = Page("ada", d, base)
    pages.append(ada)
    d.get(base + "/")
    e2e.enter_name(ada, "Ada")
    e2e.create_room(ada, "Bots", public=False)
    ada.wait(lambda: ada.visible("#bot-controls"), "the host's Add bot controls")
    if ada.text("#add-bot").strip() != "Add bot":
        raise Failure(f"the Add bot button reads {ada.text('#add-bot')!r}")
    for n, level in enumerate(["easy", "normal", "hard"], start=1):
        add_bot(ada, level, n)
    log("three bots seated")

    # The host's menu on a bot removes it.
    bot_id = ada.js("return document.querySelector('#player-list .player .mark-bot').closest('.player').dataset.id")
    ada.click(f'#player-list .player[data-id="{bot_id}"] .player-menu-btn')
    ada.wait(lambda: ada.visible('#player-menu [data-action="removeBot"]'), "Remove bot in the bot's menu")
    ada.click('#player-menu [data-action="removeBot"]')
    ada.wait(lambda: ada.js(BADGES) == 2, "the bot gone from the list")
    add_bot(ada, "hard", 3)

    rounds = "[data-settings=room] [data-key=rounds]"
    ada.js(f"const i=document.querySelector('{rounds}'); i.value='1'; i.dispatchEvent(new Event('input',{{bubbles:true}}));")
    ada.click("#settings-save")
    time.sleep(0.3)  # let the settings message go before ready (same socket, in order anyway)
    ada.click("#ready-toggle")
    log("ready; the game starts with three bots")

    saw_bot_ink = drew = False
    deadline = time.time() + 120
    while time.time() < deadline:
        if ada.visible("#overlay-gameend"):
            break
        if not drew and ada.visible("#overlay-choose") and ada.js("return document.querySelectorAll('.word-choice').length") > 0:
            try:
                ada.click(".word-choice")
            except WebDriverException as err:  # the overlay re-rendered under the click: try again
                log("word choice click missed:", str(err).splitlines()[0])
                continue
            ada.wait(lambda: (ada.js("return document.querySelector('#turn-word').dataset.word || ''") or "") != "", "Ada sees her word")
            draw_stroke(ada, 0.2, 0.2, 0.7, 0.6)
            drew = True
            log("Ada drew her turn")
        elif not saw_bot_ink and ada.js("return document.querySelector('.player.drawing') && !document.querySelector('.player.me.drawing')") and ada.js(INK):
            saw_bot_ink = True
            log("a bot's drawing shows on Ada's canvas")
        time.sleep(0.2)
    ada.wait(lambda: ada.visible("#overlay-gameend"), "the podium", timeout=5)
    places = ada.js("return [...document.querySelectorAll('#podium .place, #ranking .place')].map((e) => !!e.querySelector('.mark-bot'))")
    if len(places) != 4 or places.count(True) != 3:
        raise Failure(f"the podium shows {places} (want 4 places, 3 bots)")
    if not drew:
        raise Failure("Ada never got her turn to draw")
    if not saw_bot_ink:
        raise Failure("no bot drawing ever showed on Ada's canvas")
    bad = [e for e in ada.console_errors() if "favicon" not in e.get("message", "")]
    if bad:
        raise Failure(f"console errors: {bad[:3]}")


def main():
    e2e.install_signal_handlers()
    server = e2e.ServerProcess(extra=["--draw-seconds", "8", "--choose-seconds", "4", "--turn-end-seconds", "1", "--game-end-seconds", "60"])
    pages = []
    try:
        server.start()
        run(server.base, pages)
        log("PASS")
        return 0
    except Failure as e:
        return e2e.report_failure("e2e_bots", e, pages, server)
    finally:
        e2e.quit_all(pages)
        server.stop()


if __name__ == "__main__":
    sys.exit(main())
