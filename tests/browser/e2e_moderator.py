#!/usr/bin/env python3
"""End-to-end test of the moderator dashboard (/moderator.html) against a real drawserver
started with --moderator-token (same harness as e2e.py):

  a wrong token is refused on the login form; the right one opens the dashboard with a
  card per room (private rooms included) showing name (as text), code, phase, players
  and a live PNG thumbnail of the canvas (fetched with the bearer token) in which the
  drawer's stroke appears; the grid follows changes without a reload (a new room, a
  phase change, a new stroke); "Kick player…" lists the room's players by name from
  GET /api/rooms/{code} and removes the chosen one (the browser is sent to the lobby);
  while storage fails (a full disk through the server's test-only page limit hook) a banner
  names the fault, and it goes when storage recovers;
  "Close room" closes a room (its players get "closed"), the card disappears; a token
  that stops being accepted (401) returns to the login form with a message.

Usage: DRAWSERVER_BIN=.build/debug/drawserver python3 tests/browser/e2e_moderator.py
SAVE_SCREENSHOTS=1 also writes docs/screenshots/moderator.png.
"""
import math
import os
import secrets
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e  # noqa: E402
from e2e import (Bot, Failure, Page, create_room, draw_stroke, enter_name, log, make_driver,  # noqa: E402
                 polyline, stroke_frame)

HTML_NAME = "<b>Night</b> owls"
# The server's test-only full-disk hook (docs/PERSISTENCE.md, "Storage faults").
PAGE_LIMIT_FILE = os.path.join(tempfile.mkdtemp(prefix="drawserver-e2e-pages-"), "pages")


def card_js(code, inner=""):
    return f"document.querySelector('#mod-grid .mod-room[data-code=\"{code}\"] {inner}')"


def thumb_ink(m, code):
    """Fraction of non-white pixels in the card's thumbnail (None while not loaded)."""
    return m.js(f"""
        const img = {card_js(code, '.mod-thumb img')};
        if (!img || img.hidden || !img.complete || !img.naturalWidth) return null;
        const c = document.createElement('canvas');
        c.width = img.naturalWidth; c.height = img.naturalHeight;
        const g = c.getContext('2d'); g.drawImage(img, 0, 0);
        const d = g.getImageData(0, 0, c.width, c.height).data;
        let ink = 0;
        for (let i = 0; i < d.length; i += 4) if (d[i] < 200 || d[i+1] < 200 || d[i+2] < 200) ink++;
        return ink / (c.width * c.height);""")


def thumb_size(m, code):
    return m.js(f"const i={card_js(code, '.mod-thumb img')}; return i ? [i.naturalWidth, i.naturalHeight] : null;")


def card_meta(m, code):
    return m.js(f"const e={card_js(code, '.mod-meta')}; return e ? e.textContent : null;")


def card_phase(m, code):
    return m.js(f"const e={card_js(code)}; return e ? e.dataset.phase : null;")


def card_players(m, code):
    return m.js(f"const e={card_js(code)}; return e ? [...e.querySelectorAll('.mod-player')].map(p => p.querySelector('span').textContent) : [];")


def card_count(m):
    return m.js("return document.querySelectorAll('#mod-grid .mod-room').length")


def bot_picture(bot):
    """The drawer bot draws a small house under a sun (a colourful thumbnail)."""
    frames = [
        stroke_frame(polyline((60, 520), (740, 520)), (22, 163, 74), 14),                        # grass
        stroke_frame(polyline((250, 500), (250, 330), (530, 330), (530, 500), (250, 500)), (120, 72, 40), 10),  # walls
        stroke_frame(polyline((225, 340), (390, 200), (555, 340)), (220, 38, 38), 12),           # roof
        stroke_frame(polyline((360, 500), (360, 410), (420, 410), (420, 500)), (120, 72, 40), 8),  # door
        stroke_frame(polyline((450, 370), (500, 370), (500, 410), (450, 410), (450, 370)), (14, 165, 233), 7),  # window
        stroke_frame(polyline(*[(610 + round(40 * math.cos(a / 12 * math.pi)), 175 + round(40 * math.sin(a / 12 * math.pi)))
                                for a in range(25)]), (250, 204, 21), 12),                       # sun
    ]
    for a in range(0, 360, 45):
        r = math.radians(a)
        frames.append(stroke_frame(polyline((610 + round(56 * math.cos(r)), 175 + round(56 * math.sin(r))),
                                            (610 + round(76 * math.cos(r)), 175 + round(76 * math.sin(r)))), (250, 204, 21), 6))
    for f in frames:
        bot.send_frame(f)


def run(base, token, pages, bots):
    a = Page("alice", make_driver(), base)
    pages.append(a)
    b = Page("bob", make_driver(), base)
    pages.append(b)
    m = Page("moderator", make_driver(), base)
    pages.append(m)

    # ---- room 1: private, two browsers, game started, one stroke drawn
    a.d.get(base + "/")
    enter_name(a, "Alice")
    code = create_room(a, "Pencil pushers", public=False)
    b.d.get(f"{base}/?room={code}")
    enter_name(b, "Bob")
    b.wait(lambda: b.visible("#screen-room") and b.text("#room-code") == code, "bob in the room")
    a.wait(lambda: a.visible("#start-game"), "start button for the host")
    a.click("#start-game")
    a.wait(lambda: a.visible("#overlay-choose"), "word choice for alice (first seat)")
    a.click(".word-choice")
    a.wait(lambda: a.visible("#toolbar"), "drawing toolbar")
    a.click('#widths [aria-label="Width 16"]')
    draw_stroke(a, 0.25, 0.5, 0.75, 0.5)
    b.wait(lambda: b.ink_near(400, 300, 4), "the stroke on bob's canvas")

    # ---- room 2: two protocol bots playing, the drawer draws a picture
    erin, frank = Bot(base, "Erin"), Bot(base, "Frank")
    bots += [erin, frank]
    erin.send({"t": "create", "name": "Sketch club", "public": True})
    sketch = erin.wait_for("room", what="erin's room")["code"]
    frank.send({"t": "join", "code": sketch})
    frank.wait_for("room", lambda r: r.get("code") == sketch, what="frank in erin's room")
    erin.send({"t": "start"})
    erin.wait_for("choose", what="the word choice for erin")
    erin.send({"t": "choose", "index": 0})
    erin.wait_for("turn", what="erin's turn")
    bot_picture(erin)
    frank.wait_for("room", lambda r: r.get("phase") == "drawing", what="drawing phase")

    # ---- room 3: public, lobby, with a name that is HTML
    carol = Bot(base, "Carol")
    bots.append(carol)
    carol.send({"t": "create", "name": HTML_NAME, "public": True})
    html_code = carol.wait_for("room", what="carol's room")["code"]

    # ---- login: wrong token, then the right one
    m.d.get(base + "/moderator.html")
    m.wait(lambda: m.visible("#token-input"), "the token form")
    m.js("sessionStorage.clear();")
    m.arm_alert_trap()
    m.type_into("#token-input", "not-the-token", enter=True)
    m.wait(lambda: "rejected" in (m.text("#login-error") or ""), "'token rejected' on the login form")
    if m.visible("#mod-dashboard"):
        raise Failure("the dashboard is shown after a wrong token")
    m.type_into("#token-input", token, enter=True)
    m.wait(lambda: m.visible("#mod-dashboard"), "the dashboard after the right token")
    m.wait(lambda: card_count(m) == 3, "three room cards (the private room included)")
    log("login ok; rooms:", code, sketch, html_code)

    # ---- card contents
    m.wait(lambda: card_phase(m, code) == "drawing", f"phase 'drawing' on the card of {code}")
    m.wait(lambda: "Round 1/3" in (card_meta(m, code) or ""), f"the round on the card of {code}")
    meta = card_meta(m, code)
    if "2/8 players" not in meta or "private" not in meta:
        raise Failure(f"card of {code}: expected '2/8 players' and 'private' in {meta!r}")
    m.wait(lambda: sorted(card_players(m, code)) == ["Alice", "Bob"], f"the players of {code} by name")
    drawer_sel = f'#mod-grid .mod-room[data-code="{code}"] .mod-player[data-id="{a.my_id()}"] .icon-pencil'
    if not m.js("return !!document.querySelector(arguments[0])", drawer_sel):
        raise Failure("the drawer is not marked on the card")
    m.wait(lambda: m.visible(f'.mod-room[data-code="{code}"] .mod-clock'), "the phase clock on a drawing card")
    title = m.js(f"return {card_js(html_code, '.mod-title strong')}.textContent")
    if title != HTML_NAME:
        raise Failure(f"the room name is not shown as text: {title!r}")
    if m.js("return document.querySelectorAll('#mod-grid b, #mod-grid img:not(.mod-thumb img)').length"):
        raise Failure("markup from a room name was inserted into the page")
    if card_phase(m, html_code) != "lobby" or "public" not in card_meta(m, html_code):
        raise Failure(f"card of {html_code}: phase {card_phase(m, html_code)!r}, {card_meta(m, html_code)!r}")
    m.wait(lambda: (thumb_ink(m, code) or 0) > 0.005, f"the stroke in the thumbnail of {code}", timeout=10)
    m.wait(lambda: (thumb_ink(m, sketch) or 0) > 0.02, f"the bot's picture in the thumbnail of {sketch}", timeout=10)
    size = thumb_size(m, code)
    if max(size) != 320:
        raise Failure(f"thumbnail of {code} is {size}, expected max side 320")
    m.wait(lambda: thumb_ink(m, html_code) is not None, f"the thumbnail of {html_code}")
    if thumb_ink(m, html_code) > 0:
        raise Failure(f"the empty room's thumbnail has ink ({thumb_ink(m, html_code)})")
    log("cards: phase, round, players, drawer, clock, text-only name, thumbnails: ok")

    # ---- close a room
    m.js("window.confirm = () => true;")
    m.js(f"{card_js(html_code, '.mod-actions .btn-danger')}.click()")
    carol.wait_for("closed", what="'closed' for the players of the closed room")
    m.wait(lambda: not m.js(f"return !!{card_js(html_code)}"), "the closed room's card removed")
    if card_count(m) != 2:
        raise Failure("expected two room cards after closing one")
    log("close room: ok")

    # ---- live refresh: a new stroke and a new room appear without a reload
    before = thumb_ink(m, code)
    draw_stroke(a, 0.5, 0.15, 0.5, 0.85)
    m.wait(lambda: (thumb_ink(m, code) or 0) > before * 1.4, "the second stroke in the thumbnail (auto-refresh)", timeout=12)
    dave = Bot(base, "Dave")
    bots.append(dave)
    dave.send({"t": "create", "name": "Quiet corner", "public": True})
    quiet = dave.wait_for("room", what="dave's room")["code"]
    m.wait(lambda: card_phase(m, quiet) == "lobby", "the new room's card (auto-refresh)", timeout=12)
    m.wait(lambda: card_players(m, quiet) == ["Dave"], "the new room's player", timeout=12)
    log("live refresh: ok")
    m.wait(lambda: all((thumb_ink(m, c) is not None) for c in (code, sketch, quiet)), "every thumbnail loaded")
    m.screenshot("moderator")

    # ---- storage fails (the test-only page limit: a full disk), then recovers: a banner meanwhile
    if m.visible("#storage-banner"):
        raise Failure("the storage banner is shown while storage is healthy")
    with open(PAGE_LIMIT_FILE, "w") as f:
        f.write("1")
    # a fresh turn whose stroke rows need new pages: the commit fails
    gina, hugo = Bot(base, "Gina"), Bot(base, "Hugo")
    bots += [gina, hugo]
    gina.send({"t": "create", "name": "Full disk", "public": True})
    full = gina.wait_for("room", what="gina's room")["code"]
    hugo.send({"t": "join", "code": full})
    hugo.wait_for("room", lambda r: r.get("code") == full, what="hugo in gina's room")
    gina.send({"t": "start"})
    gina.wait_for("choose", what="the word choice for gina")
    gina.send({"t": "choose", "index": 0})
    gina.wait_for("turn", what="gina's turn")
    bot_picture(gina)
    m.wait(lambda: m.visible("#storage-banner") and "disk full" in (m.text("#storage-banner-title") or ""),
           "the storage banner naming the fault", timeout=12)
    if "held and retried" not in (m.text("#storage-banner-text") or ""):
        raise Failure(f"the banner does not say the changes are held: {m.text('#storage-banner-text')!r}")
    os.remove(PAGE_LIMIT_FILE)
    m.wait(lambda: not m.visible("#storage-banner"), "the storage banner gone after recovery", timeout=12)
    log("storage banner: ok")

    # ---- kick through the player list of GET /api/rooms/{code}
    m.js(f"{card_js(code, '.mod-actions button')}.click()")
    m.wait(lambda: m.js("return document.querySelector('#kick-dialog').open"), "the kick dialog")
    m.wait(lambda: m.js("return document.querySelectorAll('#kick-choices input[name=kick-player]').length") == 2,
           "both players listed in the kick dialog")
    names = m.js("return [...document.querySelectorAll('#kick-choices .kick-option')].map(e => e.textContent)")
    if not any("Bob" in n and b.my_id() in n for n in names):
        raise Failure(f"the kick dialog does not list Bob with his id: {names}")
    m.js("document.querySelector('#kick-choices input[value=\"' + arguments[0] + '\"]').click()", b.my_id())
    if m.js("return document.querySelector('#kick-id').value") != b.my_id():
        raise Failure("choosing a player does not fill the player id")
    m.click("#kick-confirm")
    m.wait(lambda: not m.js("return document.querySelector('#kick-dialog').open"), "the kick dialog closes after the kick")
    b.wait(lambda: b.visible("#screen-lobby"), "bob back in the lobby after the moderator's kick")
    m.wait(lambda: card_players(m, code) == ["Alice"], "only alice left on the card")
    if "1/8 players" not in card_meta(m, code):
        raise Failure(f"player count after the kick: {card_meta(m, code)!r}")
    log("kick: ok")

    # ---- a kick by hand of an unknown id: an error in the dialog
    m.js(f"{card_js(code, '.mod-actions button')}.click()")
    m.wait(lambda: m.js("return document.querySelectorAll('#kick-choices input[name=kick-player]').length") == 1, "the kick dialog again")
    m.type_into("#kick-id", "nobody42")
    m.click("#kick-confirm")
    m.wait(lambda: "No such player" in (m.text("#kick-error") or ""), "'no such player' for an unknown id")
    m.js("document.querySelector('#kick-dialog').close()")

    # ---- issue 39: at game end the thumbnail keeps the last drawing, as the players see it
    ivy, jack = Bot(base, "Ivy"), Bot(base, "Jack")
    bots += [ivy, jack]
    ivy.send({"t": "create", "name": "Last picture", "public": True, "settings": {"rounds": 1}})
    last = ivy.wait_for("room", what="ivy's room")["code"]
    jack.send({"t": "join", "code": last})
    jack.wait_for("room", lambda r: r.get("code") == last, what="jack in ivy's room")
    ivy.send({"t": "start"})
    for turn in range(2):
        found = {}

        def chooser():
            for bot in (ivy, jack):
                new = bot.find("choose", lambda msg: not msg.get("_done"))
                if new:
                    new[-1]["_done"] = True
                    found["bot"] = bot
                    return True
            return False
        m.wait(chooser, f"a word choice in turn {turn + 1}", timeout=20)
        drawer = found["bot"]
        drawer.send({"t": "choose", "index": 0})
        drawer.wait_for("turn", lambda msg: "word" in msg and not msg.get("_done"), what="the bot's turn")["_done"] = True
        bot_picture(drawer)
        if turn == 1:
            m.wait(lambda: (thumb_ink(m, last) or 0) > 0.01, "the last turn's drawing on the card", timeout=15)
        drawer.send({"t": "skip"})
    m.wait(lambda: card_phase(m, last) == "gameEnd", "the card at game end", timeout=20)
    stamp = m.text("#mod-updated")
    m.wait(lambda: m.text("#mod-updated") != stamp, "a refresh during game end", timeout=12)
    if (thumb_ink(m, last) or 0) <= 0.01:
        raise Failure("the thumbnail went blank at game end while the players still see the drawing")
    log("game end: the thumbnail keeps the last drawing")

    # ---- a token that stops working: back to the login form
    m.js("sessionStorage.setItem('drawserver.moderatorToken', 'revoked-token');")
    m.d.refresh()
    m.wait(lambda: m.visible("#token-input") and "rejected" in (m.text("#login-error") or ""),
           "the login form with 'rejected' after a 401")
    if m.js("return sessionStorage.getItem('drawserver.moderatorToken')"):
        raise Failure("the rejected token is still stored")
    if m.alerts():
        raise Failure(f"alerts on the moderator page: {m.alerts()}")
    log("401 handling: ok")


def main():
    e2e.install_signal_handlers()
    token = secrets.token_urlsafe(18)
    os.environ["DRAWSERVER_TEST_PAGE_LIMIT_FILE"] = PAGE_LIMIT_FILE
    server = e2e.ServerProcess(extra=[f"--moderator-token={token}"])
    pages, bots = [], []
    try:
        server.start()
        run(server.base, token, pages, bots)
        log("PASS")
        return 0
    except Failure as e:
        return e2e.report_failure("e2e_moderator", e, pages, server)
    finally:
        for bot in bots:
            bot.close()
        e2e.quit_all(pages)
        server.stop()


if __name__ == "__main__":
    sys.exit(main())
