#!/usr/bin/env python3
"""End-to-end checks of issue 39's client-side polish against the real server (the parts
that need no server addition; e2e_issue39.py has those):

  players (1280 x 720, 1920 x 1080, 390 x 844, English and Arabic; a 24-character name,
  two server bots): every name readable (wrapped, never cut), no badge overlapping a
  score or another badge, no sideways scroll in the players panel, a wider panel on a
  wide screen; the player id and "Copy ID" in the account menu, not the top bar.
  room: the Gallery link opens a new tab and the seat stays; names in system lines are
  isolated (<bdi>) and never upper-cased in the word label; a language switch keeps the
  chat at its newest line; kick and skip ask with the page's own dialog; no "Report" on
  one's own drawing (turn end, podium gallery, /gallery); the header does not jump when
  the word-length line appears; the brush-size cursor.
  phone (390 x 844): the "Correct!" toast leaves the guess box and Send free, the turn-end
  reveal shows all four score rows inside the board, the game-over dialog dims the page
  however far it is scrolled and its checkbox label is whole; the podium goes when the
  lobby comes back.

SAVE_SCREENSHOTS=1 writes docs/screenshots/polish-*.png.
Usage: DRAWSERVER_BIN=.build/debug/drawserver python3 tests/browser/e2e_polish.py
"""
import os
import sys
import time
import urllib.request
import json

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e  # noqa: E402
from e2e import Bot, Failure, draw_stroke, log  # noqa: E402
from e2e_party import party_page, set_viewport, set_locale, start_session  # noqa: E402

LONG_A = "Alexandra Konstantinopel"  # 24 characters, the name limit
LONG_B = "Bartholomew Higginbottom"
HOSTILE = "<svg onload=alert(1)>"
SIZES = ((1280, 720), (1920, 1080), (390, 844))
bots = []

PLAYERS_JS = """
const box = (e) => { if (!e) return null; const b = e.getBoundingClientRect(); return { l: b.left, r: b.right, t: b.top, b: b.bottom, w: b.width }; };
const panel = document.querySelector('.players-panel');
const rows = [...document.querySelectorAll('#player-list .player, #spectator-list .player')].map((li) => {
  const name = li.querySelector('.player-name');
  const parts = [li.querySelector('.avatar'), li.querySelector('.player-score'), ...li.querySelectorAll('.mark'), li.querySelector('.player-menu-btn')]
    .filter((e) => e && e.getClientRects().length).map((e) => ({ what: e.className.baseVal ?? e.className, ...box(e) }));
  // a word drawn on two lines (broken inside it) is as unreadable as a cut one
  const node = name.querySelector('bdi').firstChild;
  const broken = [];
  for (const m of node.textContent.matchAll(/\S+/g)) {
    const r = document.createRange();
    r.setStart(node, m.index);
    r.setEnd(node, m.index + m[0].length);
    if (new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size > 1) broken.push(m[0]);
  }
  return { id: li.dataset.id, text: name.textContent, name: box(name), row: box(li), clipped: name.scrollWidth > name.clientWidth + 1, broken, parts };
});
return { overflow: panel.scrollWidth > panel.clientWidth + 1, width: panel.getBoundingClientRect().width, rows };
"""


def overlap(a, b):
    return min(a["r"], b["r"]) - max(a["l"], b["l"]) > 1 and min(a["b"], b["b"]) - max(a["t"], b["t"]) > 1


def check_players(p, what, min_panel=0):
    m = p.js(PLAYERS_JS)
    problems = []
    if m["overflow"]:
        problems.append("the players panel scrolls sideways")
    if m["width"] < min_panel:
        problems.append(f"the panel is {m['width']:.0f} px wide (at least {min_panel})")
    for r in m["rows"]:
        if r["clipped"] or r["name"]["w"] < 80:
            problems.append(f"{r['text']!r} is cut or crushed ({r['name']['w']:.0f} px)")
        if r["broken"]:
            problems.append(f"{r['text']!r} breaks inside {r['broken']}")
        if r["name"]["r"] > r["row"]["r"] + 1 or r["name"]["l"] < r["row"]["l"] - 1:
            problems.append(f"{r['text']!r} runs out of its row")
        boxes = [("name", r["name"])] + [(x["what"], x) for x in r["parts"]]
        for i, (wa, ba) in enumerate(boxes):
            for wb, bb in boxes[i + 1:]:
                if overlap(ba, bb):
                    problems.append(f"{r['text']!r}: {wa} overlaps {wb}")
    if problems:
        raise Failure(f"[{p.label}] {what}: " + "; ".join(problems[:6]))
    log(f"{what}: {len(m['rows'])} rows readable, nothing overlaps, panel {m['width']:.0f} px, no sideways scroll")


def shot_of(p, css, name):
    """A screenshot of one element (a phone's players panel is below the fold)."""
    if os.environ.get("SAVE_SCREENSHOTS") == "1":
        os.makedirs(e2e.SHOTS_DIR, exist_ok=True)
        p.d.find_element(e2e.By.CSS_SELECTOR, css).screenshot(os.path.join(e2e.SHOTS_DIR, f"{name}.png"))
        log("saved", name)


SHARE_STUB = "navigator.share = (d) => { window.__shared = d; return Promise.resolve(); };"


def fresh_page(label, base, size, locale="en", mobile=False):
    p = party_page(label, size=size, mobile=mobile)
    p.base = base
    if mobile:
        # a phone's share sheet, recorded
        p.d.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": SHARE_STUB})
    p.d.get(base + "/")
    p.wait(lambda: p.visible("#name-input"), "nickname screen")
    p.js("localStorage.clear(); sessionStorage.clear(); localStorage.setItem('drawserver.locale', arguments[0]);", locale)
    p.d.refresh()
    return p


def rows(p):
    return p.js("return document.querySelectorAll('#player-list .player').length")


def players_and_room(base, pages):
    a = fresh_page("alice", base, (1280, 720))
    pages.append(a)
    start_session(a, base, LONG_A)
    bottom = a.js("return document.getElementById('create-submit').getBoundingClientRect().bottom")
    if bottom > 720:
        raise Failure(f"'Create room' is below the fold at 1280 x 720 (bottom {bottom:.0f})")
    log(f"lobby: 'Create room' above the fold (bottom {bottom:.0f} px)")
    # the id and "Copy ID" live in the account menu, not in the top bar
    if a.visible("#me-id") or a.visible("#copy-id"):
        raise Failure("the player id or Copy ID shows in the top bar")
    a.click("#me-menu-btn")
    a.wait(lambda: a.visible("#copy-id") and (a.text("#me-id") or "").strip() != "", "the id and Copy ID in the account menu")
    a.click("#me-menu-btn")
    log("player id and Copy ID: in the account menu")
    a.js("const r = document.querySelector('#create-form [data-key=rounds]'); r.value = '1';")
    code = e2e.create_room(a, "Polish")
    a.click("#add-bot")
    a.wait(lambda: rows(a) == 2, "the first server bot")
    a.click("#add-bot")
    a.wait(lambda: rows(a) == 3, "the second server bot")
    bob = Bot(base, LONG_B)
    bots.append(bob)
    bob.send({"t": "join", "code": code})
    a.wait(lambda: rows(a) == 4, "bob seated")
    bob.send({"t": "ready", "ready": True})
    a.wait(lambda: a.js("return !!document.querySelector('#player-list .mark-ready')"), "bob's ready badge")
    for w, h in SIZES:
        set_viewport(a, w, h, mobile=w < 500)
        check_players(a, f"players at {w}x{h}", min_panel=280 if w >= 1920 else 0)
        if w < 500:
            shot_of(a, ".players-panel", f"polish-players-{w}")
        else:
            a.screenshot(f"polish-players-{w}")
    set_locale(a, "ar")
    for w, h in ((1280, 720), (390, 844)):
        set_viewport(a, w, h, mobile=w < 500)
        check_players(a, f"players in Arabic at {w}x{h}")
        if w < 500:
            shot_of(a, ".players-panel", f"polish-players-ar-{w}")
        else:
            a.screenshot(f"polish-players-ar-{w}")
    set_viewport(a, 1280, 720)

    # ---- a hostile name in a system line, in Arabic: isolated, so it reads whole
    eve = Bot(base, HOSTILE)
    bots.append(eve)
    eve.send({"t": "join", "code": code})
    a.wait(lambda: rows(a) == 5, "eve seated")
    eve.send({"t": "leave"})
    a.wait(lambda: rows(a) == 4, "eve gone")
    line = a.js("""const l = [...document.querySelectorAll('#chat-log .chat-leave')].pop();
        return l ? { bdi: [...l.querySelectorAll('bdi')].map((b) => b.textContent), text: l.textContent } : null;""")
    if not line or line["bdi"] != [HOSTILE]:
        raise Failure(f"the leave line does not isolate the name: {line}")
    log("system lines: the name in its own <bdi> (Arabic)")
    set_locale(a, "en")

    # ---- chat at its newest line across language switches
    for i in range(16):
        bob.send({"t": "chat", "text": f"line {i + 1} of a long chat"})
    a.wait(lambda: "line 16 of" in (a.js("return document.querySelector('#chat-log').lastElementChild?.textContent") or ""), "the last chat line", timeout=30)
    at_end = "const l = document.getElementById('chat-log'); return [l.scrollHeight > l.clientHeight, l.scrollHeight - l.scrollTop - l.clientHeight];"
    for code_ in ("de", "ar", "en"):
        set_locale(a, code_)
        time.sleep(0.2)
        scrolls, gap = a.js(at_end)
        if not scrolls or gap > 2:
            raise Failure(f"after switching to {code_} the chat is {gap:.0f} px above its newest line (scrolls: {scrolls})")
    log("language switch: the chat stays at its newest line")

    # ---- the Gallery link opens a new tab; the seat stays
    link = a.js("const g = document.getElementById('gallery-link'); return [g.target, g.rel];")
    if link[0] != "_blank":
        raise Failure(f"the Gallery link in a room opens in the same tab: {link}")
    before = set(a.d.window_handles)
    a.click("#gallery-link")
    a.wait(lambda: len(a.d.window_handles) == len(before) + 1, "the gallery in a new tab")
    room_tab = a.d.current_window_handle
    a.d.switch_to.window((set(a.d.window_handles) - before).pop())
    a.wait(lambda: a.d.current_url.endswith("/gallery"), "the gallery page in the new tab")
    a.d.close()
    a.d.switch_to.window(room_tab)
    if not a.visible("#screen-room") or a.text("#room-code") != code:
        raise Failure("the room tab left the room after the Gallery link")
    log("Gallery link: a new tab, the seat stays")

    # ---- the bots out (a fast game of two people); the kick asks in the page
    for _ in range(2):
        bid = a.js("return document.querySelector('#player-list .player .mark-bot').closest('.player').dataset.id")
        a.js("document.querySelector(`#player-list .player[data-id='${arguments[0]}'] .player-menu-btn`).click()", bid)
        a.js("document.querySelector('#player-menu [data-action=removeBot]').click()")
        a.wait(lambda: not a.js("return !!document.querySelector(`#player-list .player[data-id='${arguments[0]}']`)", bid), "a bot removed")
    return a, bob, code


def header_top(p):
    return p.js("return document.querySelector('.room-grid').getBoundingClientRect().top")


def game(a, bob, code):
    a.click("#start-game")
    drew = False
    seen_label = False
    for _ in range(2):
        a.wait(lambda: a.visible("#overlay-choose") or bob.find("choose", lambda m: not m.get("_done")), "the next word choice", timeout=20)
        if a.visible("#overlay-choose"):
            top = header_top(a)
            a.click(".word-choice")
            a.wait(lambda: a.visible("#toolbar"), "alice's toolbar")
            a.js("document.querySelector('#widths [data-width=\"32\"]').click()")
            cursor = a.js("return getComputedStyle(document.getElementById('board')).cursor")
            if "url(" not in cursor:
                raise Failure(f"no brush-size cursor on the drawer's canvas: {cursor!r}")
            draw_stroke(a, 0.2, 0.4, 0.8, 0.6)
            a.click("#tool-skip")
            q = a.confirm(what="the question before skipping")
            log(f"skip asks in the page: {q!r}")
            a.wait(lambda: a.visible("#overlay-turnend"), "alice's turn end")
            if a.js("return !!document.querySelector('#turnend-report .report-menu')"):
                raise Failure("'Report' is offered on alice's own drawing at the turn's end")
            a.screenshot("polish-turnend-own-1280")
            drew = True
            del top
        else:
            msg = bob.find("choose", lambda m: not m.get("_done"))[-1]
            msg["_done"] = True
            a.wait(lambda: a.js("return !!document.querySelector('#word-label bdi')"), "the choosing label with bob's name")
            label = a.js("const b = document.querySelector('#word-label bdi'); return [b.textContent, getComputedStyle(b).textTransform, b.getBoundingClientRect().width > 0];")
            if label[0] != LONG_B or label[1] != "none":
                raise Failure(f"the word label shows the name as {label} (upper-cased or not isolated)")
            log("word label: the name isolated and in its own case")
            seen_label = True
            top = header_top(a)
            bob.send({"t": "choose", "index": 0})
            a.wait(lambda: (a.text("#word-lengths") or "").strip() != "", "the word-length line")
            if abs(header_top(a) - top) > 1:
                raise Failure(f"the room moved by {header_top(a) - top:.1f} px when the word-length line appeared")
            log("header: no jump when the word-length line appears")
            bob.send({"t": "skip"})
            a.wait(lambda: a.visible("#overlay-turnend") or a.visible("#overlay-gameend"), "bob's turn end")
    if not (drew and seen_label):
        raise Failure("the game did not give both players a turn")
    a.wait(lambda: a.visible("#overlay-gameend"), "the podium", timeout=20)
    a.wait(lambda: a.visible("#gameend-drawings"), "the podium's drawings button")
    a.click("#gameend-drawings")
    cards = a.js("return [...document.querySelectorAll('#game-gallery-list .drawing-card')].map((c) => [c.dataset.id, !!c.querySelector('.report-menu')])")
    if not cards or any(rep for _, rep in cards):
        raise Failure(f"the podium gallery offers 'Report' on alice's own drawing: {cards}")
    own = cards[0][0]
    log("podium gallery: no 'Report' on one's own drawing")
    # /gallery in a new tab (the link in the room): the own drawing has no report menu there
    before = set(a.d.window_handles)
    room_tab = a.d.current_window_handle
    a.d.switch_to.new_window("tab")
    a.d.get(a.base + "/gallery")
    deadline = time.time() + 15
    while time.time() < deadline:
        a.wait(lambda: a.js("return document.readyState") == "complete", "the gallery page")
        found = a.js("const c = document.querySelector(`.drawing-card[data-id='${arguments[0]}']`); return c ? !!c.querySelector('.report-menu') : null;", own)
        if found is not None:
            break
        time.sleep(1)
        a.d.refresh()
    if found is None:
        raise Failure("alice's drawing is not on /gallery")
    if found:
        raise Failure("/gallery offers 'Report' on alice's own drawing")
    log("/gallery: no 'Report' on one's own drawing")
    a.d.close()
    a.d.switch_to.window(room_tab)
    del before


def kick(a, bob):
    a.wait(lambda: a.visible("#lobby-panel") or a.visible("#overlay-gameend"), "back in the lobby", timeout=30)
    if a.visible("#overlay-gameend"):
        a.click("#gameend-close")
    a.js("document.querySelector(`#player-list .player[data-id='${arguments[0]}'] .player-menu-btn`).click()", str(bob.welcome["playerId"]))
    a.js("document.querySelector('#player-menu [data-action=kick]').click()")
    text = a.confirm(accept=False, what="the kick question")
    if LONG_B not in text:
        raise Failure(f"the kick question does not name bob: {text!r}")
    time.sleep(0.3)
    if bob.find("kicked"):
        raise Failure("Cancel kicked bob")
    a.js("document.querySelector(`#player-list .player[data-id='${arguments[0]}'] .player-menu-btn`).click()", str(bob.welcome["playerId"]))
    a.js("document.querySelector('#player-menu [data-action=kick]').click()")
    a.confirm(what="the kick question")
    bob.wait_for("kicked", timeout=5, what="bob kicked")
    log("kick: the page's own dialog (Cancel keeps, Yes kicks)")


def phone(base, pages):
    a = fresh_page("alice-phone", base, (390, 844), mobile=True)
    pages.append(a)
    # the avatar grid: a part's choices as pictures, one tap picks
    a.click('.avatar-part[data-part="eyes"] .avatar-part-name')
    a.wait(lambda: a.js("return document.querySelectorAll('.avatar-option[data-part=eyes]').length") == 6, "the six eyes in the grid")
    a.click('.avatar-option[data-part="eyes"][data-index="3"]')
    stored = a.js("return JSON.parse(localStorage.getItem('drawserver.avatar')).eyes")
    if stored != 3 or a.js("return document.querySelector('.avatar-option[data-index=\"3\"]').getAttribute('aria-pressed')") != "true":
        raise Failure(f"the avatar grid did not pick eyes 4: stored {stored}")
    a.screenshot("polish-avatar-grid-390")
    log("avatar grid: one tap picks a choice")
    start_session(a, base, "Alice")
    a.js("const r = document.querySelector('#create-form [data-key=rounds]'); r.value = '1';")
    code = e2e.create_room(a, "Phone polish")
    if a.text("#copy-invite") != "Share invite":
        raise Failure(f"the phone offers {a.text('#copy-invite')!r} instead of the share sheet")
    a.click("#copy-invite")
    a.wait(lambda: a.js("return window.__shared && window.__shared.url"), "the share sheet")
    shared = a.js("return window.__shared")
    if not shared["url"].endswith(f"/?room={code}") or code not in shared["text"]:
        raise Failure(f"the share sheet got {shared}")
    log("invite: the phone's share sheet with the link")
    trio = [Bot(base, n) for n in ("Bob", "Carol", "Dave")]
    bots.extend(trio)
    for b in trio:
        b.send({"t": "join", "code": code})
    a.wait(lambda: rows(a) == 4, "four players")
    a.click("#start-game")
    guessed_once = False
    for _ in range(4):
        drawer = None

        def probe():
            nonlocal drawer
            if a.visible("#overlay-choose"):
                drawer = "alice"
                return True
            for b in trio:
                new = b.find("choose", lambda m: not m.get("_done"))
                if new:
                    new[-1]["_done"] = True
                    drawer = b
                    return True
            return False
        a.wait(probe, "the next word choice", timeout=20)
        if drawer == "alice":
            a.click(".word-choice")
            a.wait(lambda: a.visible("#toolbar"), "the phone's toolbar")
            draw_stroke(a, 0.2, 0.3, 0.8, 0.7)
            a.click("#tool-skip")
            a.confirm(what="the question before skipping")
        else:
            drawer.send({"t": "choose", "index": 0})
            turn = drawer.wait_for("turn", lambda m: "word" in m and not m.get("_done"), what="the bot's word")
            turn["_done"] = True
            if not guessed_once:
                a.wait(lambda: a.visible("#timer"), "the timer")
                # every other guesser guesses too, so the turn ends with four score rows
                a.type_into("#chat-input", turn["word"], enter=True)
                a.wait(lambda: a.visible(".toast"), "the Correct! toast")
                m = a.js("""const r = (s) => document.querySelector(s).getBoundingClientRect();
                    const t = [...document.querySelectorAll('.toast')].map((e) => e.getBoundingClientRect());
                    const f = r('#chat-form');
                    return t.map((b) => Math.min(b.bottom, f.bottom) - Math.max(b.top, f.top) > 0 && Math.min(b.right, f.right) - Math.max(b.left, f.left) > 0);""")
                if any(m):
                    raise Failure("the toast covers the guess box or Send on the phone")
                a.screenshot("polish-correct-390")
                log("phone: the Correct! toast leaves the guess box free")
                for b in trio:
                    if b is not drawer:
                        b.send({"t": "chat", "text": turn["word"]})
                guessed_once = True
            else:
                drawer.send({"t": "skip"})
        a.wait(lambda: a.visible("#overlay-turnend") or a.visible("#overlay-gameend"), "turn end")
        if a.visible("#overlay-turnend") and a.js("return document.querySelectorAll('#turnend-scores li').length") >= 4:
            m = a.js("""const card = document.querySelector('#overlay-turnend .overlay-card').getBoundingClientRect();
                const wrap = document.getElementById('board-wrap').getBoundingClientRect();
                const c = document.querySelector('#overlay-turnend .overlay-card');
                const li = [...document.querySelectorAll('#turnend-scores li')].map((e) => e.getBoundingClientRect());
                return { scrolls: c.scrollHeight > c.clientHeight + 1, out: li.filter((b) => b.top < card.top - 0.5 || b.bottom > card.bottom + 0.5 || b.bottom > wrap.bottom + 0.5).length, n: li.length };""")
            if m["scrolls"] or m["out"]:
                raise Failure(f"the phone's turn-end reveal clips score rows: {m}")
            a.screenshot("polish-turnend-390")
            log(f"phone: the turn-end reveal shows all {m['n']} score rows")
    a.wait(lambda: a.visible("#overlay-gameend"), "the podium on the phone", timeout=20)
    a.click("#gameend-drawings")
    m = a.js("""
        window.scrollTo(0, document.documentElement.scrollHeight);
        const o = document.getElementById('overlay-gameend').getBoundingClientRect();
        const hit = document.elementFromPoint(5, innerHeight - 5);
        const label = document.querySelector('.gallery-listed');
        const span = label.querySelector('span').getBoundingClientRect();
        const card = document.querySelector('#overlay-gameend .overlay-card').getBoundingClientRect();
        return { covers: o.top <= 0.5 && o.bottom >= innerHeight - 0.5, dimmed: !!(hit && hit.closest('#overlay-gameend')),
                 cut: label.scrollWidth > label.clientWidth + 1 || span.right > card.right + 0.5 || span.left < card.left - 0.5, scrollY };""")
    if not m["covers"] or not m["dimmed"] or m["cut"]:
        raise Failure(f"the phone's game-over dialog: {m}")
    a.screenshot("polish-gameover-390")
    log("phone: the game-over dialog dims the scrolled page; its checkbox label is whole")
    a.wait(lambda: a.visible("#lobby-panel"), "the lobby back on the phone", timeout=30)
    if a.visible("#overlay-gameend"):
        raise Failure("the phone's podium stays over the lobby")
    log("phone: the podium goes when the lobby comes back")


def big_room(base, pages):
    """Issue 36: a room of 50 (one person, 49 server bots): every row readable at 1280 x 720
    and on a phone, the list scrolls inside its panel, the last seat can be scrolled to."""
    a = fresh_page("host50", base, (1280, 720))
    pages.append(a)
    start_session(a, base, "Host of fifty")
    a.js("const m = document.querySelector('#create-form [data-key=maxPlayers]'); m.value = '50';")
    if a.js("return document.querySelector('#create-form [data-key=maxPlayers]').max") != "50":
        raise Failure("the create form does not offer 50 players")
    e2e.create_room(a, "Fifty", public=False)
    for n in range(2, 51):
        a.click("#add-bot")
        a.wait(lambda: rows(a) == n, f"{n} players seated")
    log("a room of 50: the host and 49 bots seated")
    a.wait(lambda: a.js("return document.getElementById('add-bot').disabled"), "Add bot disabled in a full room")
    for w, h in ((1280, 720), (390, 844)):
        set_viewport(a, w, h, mobile=w < 500)
        check_players(a, f"50 players at {w}x{h}")
        scroll = a.js("const p = document.querySelector('.players-panel'); return [p.scrollHeight, p.clientHeight];")
        page_scroll = a.js("return [document.scrollingElement.scrollHeight, window.innerHeight];")
        if scroll[0] <= scroll[1] and page_scroll[0] <= page_scroll[1]:
            raise Failure(f"50 rows fit without scrolling at {w}x{h}? panel {scroll}, page {page_scroll}")
        a.js("document.querySelector('#player-list .player:last-child').scrollIntoView({block: 'end'})")
        seen = a.js("""const r = document.querySelector('#player-list .player:last-child').getBoundingClientRect();
            return r.bottom <= window.innerHeight + 1 && r.top >= 0;""")
        if not seen:
            raise Failure(f"the 50th seat cannot be scrolled into view at {w}x{h}")
        if w < 500:
            shot_of(a, ".players-panel", f"big-room-50-{w}")
        else:
            a.screenshot(f"big-room-50-{w}")
    log("50 players: readable and reachable at 1280 x 720 and 390 x 844")


def main():
    e2e.install_signal_handlers()
    server = e2e.ServerProcess(extra=["--turn-end-seconds", "2", "--game-end-seconds", "6"])
    pages = []
    try:
        server.start()
        a, bob, _ = players_and_room(server.base, pages)
        game(a, bob, _)
        kick(a, bob)
        e2e.quit_all(pages)
        pages.clear()
        phone(server.base, pages)
        e2e.quit_all(pages)
        pages.clear()
        big_room(server.base, pages)
        log("PASS")
        return 0
    except Failure as e:
        return e2e.report_failure("e2e_polish", e, pages, server)
    finally:
        for bot in bots:
            bot.close()
        e2e.quit_all(pages)
        server.stop()


if __name__ == "__main__":
    sys.exit(main())
