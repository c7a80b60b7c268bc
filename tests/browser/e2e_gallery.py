#!/usr/bin/env python3
"""End-to-end test of drawings kept and shown (issue 22) against a real drawserver started
with --moderator-token (same harness as e2e.py):

  a game of two turns, Bob a protocol bot (host, draws a house) and Alice a browser (draws
  a stroke with the mouse); both turns end by skipping. With the podium Alice sees the
  game's gallery: both drawings with word, drawer and ratings, a time-lapse toggle that
  swaps in the APNG, and PNG/APNG download links that answer. Alice reports Bob's drawing
  and one of Bob's chat lines with a reason; /gallery lists both drawings (public room),
  filters by word and language, and "My games" uses her token; on /gallery Alice (her
  player token in this tab's session) reports Bob's drawing again (reason "hateful") and
  is refused her own, while a visitor without a token gets no report menu but a hint;
  the moderator page lists the three reports with their evidence (the canvas snapshot and
  the time-lapse load, also for the report from /gallery; the chat line is quoted),
  "Remove drawing" on the report from /gallery makes the drawing answer 404, leave
  /gallery and closes both reports about it, and "Dismiss" closes the chat report.

Usage: DRAWSERVER_BIN=.build/debug/drawserver python3 tests/browser/e2e_gallery.py
SAVE_SCREENSHOTS=1 also writes docs/screenshots/gallery-*.png.
"""
import json
import os
import secrets
import sys
import urllib.error
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e  # noqa: E402
from e2e import Bot, Failure, Page, draw_stroke, enter_name, log, make_driver  # noqa: E402
from e2e_moderator import bot_picture  # noqa: E402

RUDE = "your drawing is trash"


def http(base, path, token=None, method="GET"):
    req = urllib.request.Request(base + path, method=method)
    if token:
        req.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(req, timeout=5) as r:
            return r.status, r.headers.get("Content-Type"), r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers.get("Content-Type"), e.read()


def img_loaded(p, css):
    return p.js("const i=document.querySelector(arguments[0]); return !!i && i.complete && i.naturalWidth > 0;", css)


def gallery_ids(p):
    return p.js("return [...document.querySelectorAll('#gallery-grid .drawing-card')].map(c => c.dataset.id)")


def run(base, token, pages, bots):
    a = Page("alice", make_driver(), base)
    pages.append(a)

    # ---- Bob hosts a public one-round room; Alice joins in the browser
    bob = Bot(base, "Bob")
    bots.append(bob)
    bob.send({"t": "create", "name": "Gallery night", "public": True, "settings": {"rounds": 1}})
    code = bob.wait_for("room", what="bob's room")["code"]
    a.d.get(f"{base}/?room={code}")
    enter_name(a, "Alice")
    a.wait(lambda: a.visible("#screen-room") and a.text("#room-code") == code, "alice in bob's room")
    bob.send({"t": "chat", "text": RUDE})
    a.wait(lambda: a.js("return [...document.querySelectorAll('.chat-line[data-text]')].some(l => l.dataset.text === arguments[0])", RUDE),
           "bob's chat line in alice's chat")

    # ---- turn 1: Bob draws a house and skips
    bob.send({"t": "start"})
    bob.wait_for("choose", what="bob's word choice")
    bob.send({"t": "choose", "index": 0})
    bob_word = bob.wait_for("turn", what="bob's turn")["word"]
    bot_picture(bob)
    a.wait(lambda: a.ink_near(610, 175, 30), "bob's sun on alice's canvas")
    bob.send({"t": "skip"})
    end1 = bob.wait_for("turnEnd", what="the end of bob's turn")
    bob_drawing = end1["drawing"]["id"]
    a.wait(lambda: a.visible("#turnend-report .report-menu"), "a report menu for bob's drawing at the turn's end")

    # ---- turn 2: Alice draws with the mouse and skips
    a.wait(lambda: a.visible("#overlay-choose"), "alice's word choice", timeout=20)
    a.click(".word-choice")
    a.wait(lambda: a.visible("#toolbar"), "alice's toolbar")
    a.click('#widths [aria-label="Width 16"]')
    draw_stroke(a, 0.2, 0.5, 0.8, 0.5)
    a.click("#tool-skip")
    a.confirm(what="the question before skipping")
    end2 = bob.wait_for("turnEnd", lambda m: m.get("drawing", {}).get("id") != bob_drawing, what="the end of alice's turn")
    alice_drawing = end2["drawing"]["id"]
    alice_word = end2["word"]

    # ---- the podium's gallery
    a.wait(lambda: a.visible("#overlay-gameend"), "the podium", timeout=20)
    a.wait(lambda: a.visible("#gameend-drawings") and "2" in a.text("#gameend-drawings"), "the 'Drawings (2)' button with the podium")
    a.click("#gameend-drawings")
    a.wait(lambda: a.visible("#game-gallery") and not a.visible("#podium"), "the game's drawings in place of the podium")
    cards = a.js("return [...document.querySelectorAll('#game-gallery-list .drawing-card')].map(c => [c.dataset.id, c.querySelector('.drawing-word').textContent, c.querySelector('.drawing-by').textContent])")
    if [c[0] for c in cards] != [bob_drawing, alice_drawing]:
        raise Failure(f"the game's gallery shows {cards}, expected bob's then alice's drawing")
    if cards[0][1] != bob_word or "Bob" not in cards[0][2] or cards[1][1] != alice_word or "Alice" not in cards[1][2]:
        raise Failure(f"words or drawers wrong in the game's gallery: {cards}")
    first = f'#game-gallery-list .drawing-card[data-id="{bob_drawing}"]'
    a.wait(lambda: img_loaded(a, f"{first} img"), "bob's drawing loaded in the gallery")
    a.wait(lambda: img_loaded(a, f'#game-gallery-list .drawing-card[data-id="{alice_drawing}"] img'), "alice's drawing loaded in the gallery")
    a.screenshot("gallery-podium")
    if a.js(f"return document.querySelector('{first} .drawing-ratings') === null"):
        raise Failure("no ratings on the gallery card")
    # issue 39: cards of a row are equally high, their buttons at the same height
    rows = a.js("""return [...document.querySelectorAll('#game-gallery-list .drawing-card')].map((c) => {
        const b = c.getBoundingClientRect();
        return [Math.round(b.top), b.height, c.querySelector('.drawing-actions').getBoundingClientRect().bottom]; });""")
    same_row = [r for r in rows if r[0] == rows[0][0]]
    if len(same_row) > 1 and (max(r[1] for r in same_row) - min(r[1] for r in same_row) > 1 or max(r[2] for r in same_row) - min(r[2] for r in same_row) > 1):
        raise Failure(f"the gallery cards of a row differ in height or button line: {rows}")
    a.click(f"{first} .drawing-play")
    a.wait(lambda: ".apng" in a.js(f"return document.querySelector('{first} img').src") and img_loaded(a, f"{first} img"),
           "the time-lapse (APNG) playing in the card", timeout=60)
    # while it plays the button says Stop with a stop icon (not a play triangle)
    playing = a.js(f"const b = document.querySelector('{first} .drawing-play'); return [b.textContent.trim(), b.querySelector('svg').getAttribute('class')];")
    if playing[0] != "Stop" or "icon-stop" not in playing[1]:
        raise Failure(f"the playing time-lapse's button reads {playing}")
    for kind, ctype in (("png", "image/png"), ("apng", "image/apng")):
        href = a.js(f"return document.querySelector('{first} .drawing-{kind}').getAttribute('href')")
        status, got, body = http(base, href)
        if status != 200 or got != ctype or len(body) < 100:
            raise Failure(f"the {kind} download {href}: {status} {got} {len(body)} bytes")
    if a.js(f"return !!document.querySelector('#game-gallery-list .drawing-card[data-id=\"{alice_drawing}\"] .report-menu')"):
        raise Failure("alice is offered to report her own drawing")
    log("podium gallery: two drawings, word, drawer, ratings, time-lapse, downloads: ok")

    # ---- reports: bob's drawing from the podium, bob's chat line from the chat
    a.click(f"{first} .report-menu summary")
    a.wait(lambda: a.visible(f'{first} .report-menu button[data-reason="offensive"]'), "the report reasons")
    a.click(f'{first} .report-menu button[data-reason="offensive"]')
    a.wait(lambda: "moderator" in (a.text("#toasts") or ""), "the thanks toast after a report")
    a.click("#gameend-drawings")
    a.wait(lambda: a.visible("#podium") and not a.visible("#game-gallery"), "back to the podium")
    a.click("#gameend-close")
    line = f'.chat-line[data-text="{RUDE}"]'
    a.js(f"document.querySelector('{line} .report-menu').open = true")
    a.wait(lambda: a.visible(f'{line} .report-menu button[data-reason="spam"]'), "the report reasons in the chat line")
    a.click(f'{line} .report-menu button[data-reason="spam"]')
    a.wait(lambda: len(json.loads(http(base, "/api/reports", token)[2])) == 2, "two open reports on the server")
    log("reports from the podium and the chat: ok")

    # ---- /gallery: both drawings of the public room, filters, "My games"
    g = Page("gallery", a.d, base)
    a.d.get(base + "/gallery")
    g.wait(lambda: set(gallery_ids(g) or []) >= {bob_drawing, alice_drawing}, "both drawings on /gallery", timeout=15)
    g.wait(lambda: img_loaded(g, f'#gallery-grid .drawing-card[data-id="{bob_drawing}"] img'), "the drawing's image on /gallery")
    g.screenshot("gallery-page")
    g.type_into("#gallery-word", bob_word)
    g.js("document.querySelector('#gallery-lang').value = 'en'")
    g.click("#gallery-filters button[type=submit]")
    g.wait(lambda: gallery_ids(g) == [bob_drawing], f"only bob's drawing for the word {bob_word!r}")
    g.js("document.querySelector('#gallery-lang').value = 'de'")
    g.click("#gallery-filters button[type=submit]")
    g.wait(lambda: gallery_ids(g) == [] and g.text("#gallery-status") != "", "no drawing in German, and a message saying so")
    g.type_into("#gallery-word", "")
    g.js("document.querySelector('#gallery-lang').value = ''")
    g.click("#gallery-filters button[type=submit]")
    g.wait(lambda: len(gallery_ids(g)) == 2, "both again without filters")
    if not g.visible("#view-mine-label"):
        raise Failure("'My games' is not offered to a browser with a player token")
    g.click('#gallery-filters input[value="mine"]')
    g.wait(lambda: set(gallery_ids(g)) == {bob_drawing, alice_drawing}, "alice's games under 'My games'")
    log("/gallery: listing, word and language filters, my games: ok")

    # ---- a report from /gallery (alice's player token), and none without a token
    g.click('#gallery-filters input[value="recent"]')
    g.wait(lambda: len(gallery_ids(g)) == 2, "the public list again")
    if g.visible("#gallery-report-hint"):
        raise Failure("the 'play first to report' hint shows to a browser with a player token")
    card = f'#gallery-grid .drawing-card[data-id="{bob_drawing}"]'
    g.click(f"{card} .report-menu summary")
    g.wait(lambda: g.visible(f'{card} .report-menu button[data-reason="hateful"]'), "the report reasons on /gallery")
    g.screenshot("gallery-report")
    g.click(f'{card} .report-menu button[data-reason="hateful"]')
    g.wait(lambda: "moderator" in (g.text("#toasts") or ""), "the thanks toast after a report from /gallery")
    reports = json.loads(http(base, "/api/reports", token)[2])
    from_gallery = [r for r in reports if r.get("reason") == "hateful"]
    if len(reports) != 3 or len(from_gallery) != 1 or from_gallery[0].get("drawing") != bob_drawing:
        raise Failure(f"the report from /gallery is not filed about bob's drawing: {reports}")
    if from_gallery[0].get("reporter", {}).get("name") != "Alice" or from_gallery[0].get("reported", {}).get("name") != "Bob":
        raise Failure(f"the report from /gallery names the wrong people: {from_gallery[0]}")
    gallery_report = from_gallery[0]["id"]
    own = f'#gallery-grid .drawing-card[data-id="{alice_drawing}"]'
    # issue 39: "Report" is not offered on one's own drawing (this browser drew it)
    if not g.visible(own) or g.js(f"return !!document.querySelector('{own} .report-menu')"):
        raise Failure("/gallery offers 'Report' on alice's own drawing")
    v = Page("visitor", make_driver(), base)
    pages.append(v)
    v.d.get(base + "/gallery")
    v.wait(lambda: len(gallery_ids(v) or []) == 2 and v.visible("#gallery-report-hint"), "a visitor sees the drawings and the hint")
    if v.js("return document.querySelectorAll('#gallery-grid .report-menu').length") != 0:
        raise Failure("a visitor without a player token is offered to report")
    log("/gallery: report with the player's token, none on one's own drawing, visitor hint: ok")

    # ---- the moderator page: evidence, remove, dismiss
    m = Page("moderator", make_driver(), base)
    pages.append(m)
    m.d.get(base + "/moderator.html")
    m.wait(lambda: m.visible("#token-input"), "the token form")
    m.type_into("#token-input", token, enter=True)
    m.wait(lambda: m.js("return document.querySelectorAll('#report-list .report-item').length") == 3, "three reports on the moderator page")
    drawing_report = f'#report-list .report-item[data-id="{gallery_report}"]'
    chat_report = '#report-list .report-item[data-kind="chat"]'
    # Evidence renders on the idle-priority render thread: slow when the machine is busy.
    m.wait(lambda: img_loaded(m, f"{drawing_report} .report-snapshot img") and img_loaded(m, f"{drawing_report} .report-timelapse img"),
           "the snapshot and time-lapse of the report made on /gallery", timeout=120)
    if RUDE not in (m.text(f"{chat_report} .report-quote") or ""):
        raise Failure("the reported chat line is not quoted")
    if not m.js(f"return !!document.querySelector('{chat_report} .reported-line')"):
        raise Failure("the reported line is not marked among the chat lines around it")
    m.screenshot("gallery-moderator")
    m.js("window.confirm = () => true;")
    m.click(f'{drawing_report} button[data-action="remove"]')
    m.wait(lambda: m.js("return document.querySelectorAll('#report-list .report-item').length") == 1,
           "both reports about the drawing closed after removing it from the report made on /gallery")
    for ext in ("png", "apng"):
        status = http(base, f"/d/{bob_drawing}.{ext}")[0]
        if status != 404:
            raise Failure(f"a removed drawing's {ext} answers {status}, not 404")
    a.d.get(base + "/gallery")
    g.wait(lambda: gallery_ids(g) == [alice_drawing], "the removed drawing gone from /gallery")
    m.click(f'{chat_report} button[data-action="dismiss"]')
    m.wait(lambda: m.visible("#reports-empty"), "no open reports after dismissing")
    log("moderator: evidence (also of the report from /gallery), remove (404 everywhere), dismiss: ok")
    for p in pages:
        # 404: removed drawings; 403: alice's report of her own drawing, refused on purpose.
        errors = [e for e in p.console_errors() if "404" not in e.get("message", "")
                  and not ("/report" in e.get("message", "") and "403" in e.get("message", ""))]
        if errors:
            raise Failure(f"[{p.label}] console errors: {errors[:3]}")


def main():
    e2e.install_signal_handlers()
    token = secrets.token_urlsafe(18)
    server = e2e.ServerProcess(extra=[f"--moderator-token={token}", "--turn-end-seconds", "2", "--game-end-seconds", "30"])
    pages, bots = [], []
    try:
        server.start()
        run(server.base, token, pages, bots)
        log("PASS")
        return 0
    except Failure as e:
        return e2e.report_failure("e2e_gallery", e, pages, server)
    finally:
        for bot in bots:
            bot.close()
        e2e.quit_all(pages)
        server.stop()


if __name__ == "__main__":
    sys.exit(main())
