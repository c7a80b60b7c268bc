#!/usr/bin/env python3
"""End-to-end check of the big screen in telephone mode (issue 36, docs/CLIENT.md "The big
screen", docs/PROTOCOL.md 12.5) against the real server: four players (protocol bots, so
the game's every text and drawing is known to the test) and one /tv page at 1920 x 1080.

  the lobby of a telephone room says the mode and its times; the host starts; step 1
  (write): the screen says everyone is writing, the step of four, the step's clock, each
  player's card and who has handed in (3/4); the fourth never does, the step runs out and
  the screen moves to step 2 (draw) with step 2's clock (the server's `phoneProgress` at
  every step's start carries it); two drawings handed in (2/4), then a reload of the screen
  mid-step brings back the step, the same check marks and the clock, also with its
  sessionStorage cleared (the server sends a returning screen the step's progress);
  everyone done: step 3 (describe) at once, with its clock; the last draw step (one drawing
  left empty), where a second screen that comes in mid-step shows the step, who has handed
  in and the clock; at every step the screens' markup and state hold no text and no
  drawing of any player. The album: the host reveals it entry by entry; at each reveal the
  screen shows the chain's title card, or the newest entry with its author (texts large,
  drawings loaded), the entry it answers beside it and the chain so far, and nothing the
  host has not revealed; a reload mid-album comes back at the host's entry; the second
  screen, which left for the code form before the album, joins again during it and shows
  the album at the host's entry, then follows the reveals; Finish brings back the lobby.
  The layout fits 1920 x 1080 and 1280 x 720 without scrolling (e2e_tv.py's LAYOUT_JS).

SAVE_SCREENSHOTS=1 writes docs/screenshots/tv-telephone-lobby-1920.png, tv-telephone-progress-1920.png,
tv-telephone-progress-1280.png, tv-telephone-title-1920.png, tv-telephone-album-1920.png,
tv-telephone-album-text-1920.png, tv-telephone-album-1280.png, tv-telephone-step2-1920.png,
tv-telephone-joined-mid-step-1920.png and tv-telephone-joined-album-1920.png.
Usage: DRAWSERVER_BIN=.build/debug/drawserver python3 tests/browser/e2e_tv_telephone.py
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from e2e import Bot, Failure, log, polyline, stroke_frame  # noqa: E402
from e2e_party import party_page, set_viewport  # noqa: E402
from e2e_tv import LAYOUT_JS, PICTURE, seconds, tv_view  # noqa: E402

WRITE_S = 15  # short: step 1 runs out while one player has not written
DRAW_S = 60
NAMES = ["Hana", "Pablo", "Rosa", "Omar"]
AVATARS = [
    {"color": 2, "eyes": 1, "mouth": 2, "accessory": 3},
    {"color": 6, "eyes": 3, "mouth": 1, "accessory": 0},
    {"color": 9, "eyes": 2, "mouth": 4, "accessory": 5},
    {"color": 4, "eyes": 5, "mouth": 0, "accessory": 2},
]
SENTENCES = {
    "Hana": "A giraffe wearing sunglasses at the beach",
    "Pablo": "Two robots dancing the tango",
    "Rosa": "A castle made of cheese",
    # Omar writes nothing: the first step runs out on him
}
DESCRIPTIONS = {
    "Hana": "Sunny animal with a long neck",
    "Pablo": "Metal friends having a party",
    "Rosa": "Yellow fortress on a hill",
    "Omar": "Round face with a triangle",
}
ALL_TEXTS = list(SENTENCES.values()) + list(DESCRIPTIONS.values())
DRAWINGS = {  # what each one draws (logical 800 x 600)
    "Hana": PICTURE,
    "Pablo": [(polyline((150, 450), (300, 150), (450, 450), (150, 450)), (30, 110, 220), 14),
              (polyline((500, 200), (700, 200), (700, 400), (500, 400), (500, 200)), (200, 40, 40), 12)],
    "Rosa": [(polyline((400, 100), (520, 300), (400, 500), (280, 300), (400, 100)), (240, 180, 0), 16),
             (polyline((100, 550), (700, 550)), (40, 150, 60), 18)],
    "Omar": [(polyline((200, 300), (600, 300)), (0, 0, 0), 20),
             (polyline((400, 100), (400, 500)), (120, 72, 30), 20)],
}

bots = []


CHECK = e2e.Checks()

# what the screen shows of the steps: the state it knows, and its markup
PHONE_JS = """
const q = (s) => document.querySelector(s);
const vis = (s) => { const e = q(s); return !!e && !e.closest('[hidden]') && e.getClientRects().length > 0; };
const s = window.tvClient.state;
return {
  phase: s.phase, step: s.phone.progressStep,
  now: [...document.querySelectorAll('#tv-phone-steps .is-now')].map((e) => Number(e.dataset.step)),
  title: q('#tv-phone-title').textContent, round: q('#tv-round').textContent, line: q('#tv-drawer').textContent,
  count: q('#tv-phone-count').textContent, countShown: vis('#tv-phone-count'),
  cards: [...document.querySelectorAll('#tv-phone-players .phone-player')].map((e) => [e.dataset.id, e.classList.contains('is-done')]),
  timer: vis('#tv-timer'), timerText: q('#tv-timer-value').textContent,
  panel: vis('#tv-phone'), board: vis('#board'), side: vis('#tv-side'), album: vis('#tv-album'),
};"""

# what the screen shows of the album
ALBUM_JS = """
const q = (s) => document.querySelector(s);
const vis = (s) => { const e = q(s); return !!e && !e.closest('[hidden]') && e.getClientRects().length > 0; };
const r = window.tvClient.state.phone.reveal;
const card = (s) => { const e = q(s + ' .tv-entry-card'); if (!e || !vis(s)) return null;
  const img = e.querySelector('img');
  return { by: e.dataset.by, name: e.querySelector('.entry-name').textContent, text: e.querySelector('.entry-text')?.textContent ?? null,
    src: img ? img.getAttribute('src') : null, loaded: img ? img.complete && img.naturalWidth > 0 : null }; };
return {
  phase: window.tvClient.state.phase, reveal: [r.chain, r.entry], state: q('#tv-album').dataset.state,
  title: vis('#tv-album-title') ? q('#tv-album-name').textContent : null, line: q('#tv-drawer').textContent,
  main: card('#tv-album-main'), before: card('#tv-album-before'),
  strip: [...document.querySelectorAll('#tv-album-strip .strip-item')].map((e) => e.classList.contains('strip-pending') ? 'pending' : e.dataset.entry),
  round: q('#tv-round').textContent,
};"""


def phone(tv):
    return tv.js(PHONE_JS)


def album_state(tv):
    return tv.js(ALBUM_JS)


def held(tv):
    """The game's texts and drawings (/d/ID) anywhere in the screen's markup and in its state."""
    return tv.js("""
        const html = document.documentElement.outerHTML;
        const st = JSON.stringify(window.tvClient.state);
        const texts = arguments[0].filter((t) => html.includes(t) || st.includes(t));
        const drawings = [...new Set([...html.matchAll(/\\/d\\/([A-Za-z0-9_-]+)\\.a?png/g)].map((m) => m[1]))];
        return { texts, drawings, stateDrawings: /\\/d\\//.test(st) };""", ALL_TEXTS)


def secret(tv, what):
    h = held(tv)
    CHECK.ok(h["texts"] == [] and h["drawings"] == [] and not h["stateDrawings"], f"[tv] {what}: the screen holds {h}")


def settled(tv):
    """Once the finite animations (an entry's entrance) have run, as Page.screenshot waits."""
    tv.d.execute_async_script("""
        const done = arguments[arguments.length - 1];
        const running = document.getAnimations().filter((a) => a.effect && a.effect.getComputedTiming().endTime !== Infinity);
        Promise.all(running.map((a) => a.finished.catch(() => null))).then(() => requestAnimationFrame(() => done(true)));""")


def fits(tv, what, sels):
    """e2e_tv.py's LAYOUT_JS (no scrolling either way), and every one of `sels` shown inside the window."""
    settled(tv)
    m = tv.js(LAYOUT_JS)
    CHECK.ok(m["sw"] <= m["vw"] + 1 and m["sh"] <= m["vh"] + 1, f"[tv] {what}: the page scrolls ({m['sw']}x{m['sh']} in {m['vw']}x{m['vh']})")
    boxes = tv.js("""return arguments[0].map((s) => { const e = document.querySelector(s);
        if (!e || e.closest('[hidden]') || !e.getClientRects().length) return [s, null];
        const b = e.getBoundingClientRect(); return [s, [b.left, b.top, b.right, b.bottom]]; });""", sels)
    for sel, b in boxes:
        CHECK.ok(b is not None, f"[tv] {what}: {sel} is not shown")
        CHECK.ok(b[0] >= -1 and b[1] >= -1 and b[2] <= m["vw"] + 1 and b[3] <= m["vh"] + 1, f"[tv] {what}: {sel} runs out of the window: {b}")
    # nothing in the stage spills out of it (cut off by its overflow)
    spill = tv.js("""const st = document.getElementById('tv-stage').getBoundingClientRect();
        return [...document.querySelectorAll('#tv-stage *')].filter((e) => e.getClientRects().length && !e.closest('[hidden]'))
          .filter((e) => { const b = e.getBoundingClientRect(); return b.width && (b.bottom > st.bottom + 1 || b.right > st.right + 1 || b.top < st.top - 1); })
          .map((e) => e.id || e.className.baseVal || e.className).slice(0, 5);""")
    CHECK.ok(spill == [], f"[tv] {what}: parts of the stage run out of it: {spill}")
    log(f"{what}: {m['vw']}x{m['vh']}, nothing outside the window, no scrolling")


def setup(base, pages):
    players = {}
    for i, name in enumerate(NAMES):
        bot = Bot(base, name, avatar=AVATARS[i])
        bots.append(bot)
        players[name] = bot
    host = players["Hana"]
    host.send({"t": "create", "name": "Telephone party", "public": False,
               "settings": {"mode": "telephone", "writeTimeSec": WRITE_S, "drawTimeSec": DRAW_S}})
    room = host.wait_for("room", lambda m: m.get("settings", {}).get("mode") == "telephone", what="a telephone room")
    code = room["code"]
    for name in NAMES[1:]:
        players[name].send({"t": "join", "code": code})
        players[name].wait_for("room", lambda m: m.get("code") == code, what=f"{name} in the room")
    ids = {name: b.welcome["playerId"] for name, b in players.items()}
    tv = party_page("tv", size=(1920, 1080))
    tv.base = base
    pages.append(tv)
    tv.d.get(f"{base}/tv/{code}")
    tv.wait(lambda: tv_view(tv) == "room" and tv.visible("#ov-lobby"), "the room's lobby on the screen")
    tv.wait(lambda: tv.js("return document.querySelectorAll('#tv-scores .score-row').length") == 4, "the four players listed")
    mode = tv.text("#ov-lobby-mode") or ""
    CHECK.ok(tv.visible("#ov-lobby-mode") and "Telephone" in mode and f"Write {WRITE_S} s" in mode and f"Draw {DRAW_S} s" in mode,
             f"the lobby does not say the mode and its times: {mode!r}")
    CHECK.ok(tv.text("#tv-scores-title") == "Players", f"a telephone room's list is titled {tv.text('#tv-scores-title')!r}")
    CHECK.ok(tv.js("return [...document.querySelectorAll('#tv-scores .row-score, #tv-scores .row-place')].every((e) => !e.checkVisibility())"),
             "scores or places shown in a telephone room")
    tv.screenshot("tv-telephone-lobby-1920")
    log(f"room {code}: four players (bots), the screen's lobby says {mode!r}")
    return players, ids, code, tv


def wait_phone(tv, what, cond, timeout=15):
    tv.wait(lambda: (lambda s: s["phase"] == "telephone" and cond(s))(phone(tv)), what, timeout=timeout)
    return phone(tv)


def done_cards(s):
    return sorted(i for i, d in s["cards"] if d)


def write_step(players, ids, tv):
    host = players["Hana"]
    host.send({"t": "start"})
    s = wait_phone(tv, "step 1 (write) on the screen", lambda s: s["step"] == 0 and s["panel"])
    CHECK.ok("Everyone is writing" in s["title"] and "Step 1 of 4" in s["line"] and s["now"] == [0], f"the write step: {s}")
    CHECK.ok(not s["board"] and not s["side"], "the canvas or the scoreboard shown during a telephone step")
    CHECK.ok(sorted(i for i, _ in s["cards"]) == sorted(ids.values()) and done_cards(s) == [], f"the cards: {s['cards']}")
    tv.wait(lambda: phone(tv)["timer"] and 0 < seconds(phone(tv)["timerText"]) <= WRITE_S, "the step's clock (from the room message that started the game)")
    secret(tv, "write step")
    for i, name in enumerate(["Hana", "Pablo", "Rosa"]):
        players[name].wait_for("phoneStep", lambda m: m.get("step") == 0, what=f"{name}'s write step")
        players[name].send({"t": "phoneSubmit", "text": SENTENCES[name]})
        want = sorted(ids[n] for n in ["Hana", "Pablo", "Rosa"][:i + 1])
        s = wait_phone(tv, f"{i + 1}/4 handed in on the screen", lambda s: done_cards(s) == want)
        CHECK.ok(s["count"] == f"{i + 1}/4", f"the count says {s['count']!r}")
        secret(tv, f"{i + 1} sentences handed in")
    CHECK.ok(phone(tv)["timer"], "the clock went away while step 1 runs")
    log("write step: the step, its clock and 3/4 handed in on the screen; no sentence on it")


def draw_for(bot, name, empty=False):
    if not empty:
        for pts, rgb, width in DRAWINGS[name]:
            bot.send_frame(stroke_frame(pts, rgb, width))
    bot.send({"t": "phoneSubmit"})


def step_clock(tv, what, limit_s):
    """The timer shown, counting the step's time (at most `limit_s`, the step's length)."""
    tv.wait(lambda: (lambda s: s["timer"] and 0 < seconds(s["timerText"]) <= limit_s)(phone(tv)), f"{what}: the step's clock")
    return seconds(phone(tv)["timerText"])


def time_up(players, ids, tv):
    """Omar never writes: the step runs out, and the step's start tells the screen step 2 and its clock."""
    s = wait_phone(tv, "step 2 (draw) after the write step ran out", lambda s: s["step"] == 1, timeout=WRITE_S + 10)
    players["Hana"].wait_for("phoneStep", lambda m: m.get("step") == 1, what="the server's step 2")
    CHECK.ok("Everyone is drawing" in s["title"] and "Step 2 of 4" in s["line"] and s["now"] == [1], f"the draw step: {s}")
    CHECK.ok(done_cards(s) == [] and s["count"] == "0/4", f"step 1's check marks on step 2: {s}")
    left = step_clock(tv, "step 2", DRAW_S)
    CHECK.ok(left > WRITE_S, f"step 2's clock shows {left} s: not a draw step's {DRAW_S} s")
    secret(tv, "draw step")
    tv.screenshot("tv-telephone-step2-1920")
    log(f"write step ran out: the screen moved to step 2 with its clock ({left} s)")


def draw_step(players, ids, tv, step, code, mid_step=None):
    """A draw step: two drawings in, then `mid_step(done)` (or, in step 2, a reload), then
    the other two. Returns the prompts and what `mid_step` returned."""
    prompts = {n: players[n].wait_for("phoneStep", lambda m: m.get("step") == step, what=f"{n}'s step {step + 1}") for n in NAMES}
    order = ["Pablo", "Hana", "Rosa", "Omar"]
    for i, name in enumerate(order[:2]):
        draw_for(players[name], name)
        want = sorted(ids[n] for n in order[:i + 1])
        wait_phone(tv, f"{i + 1}/4 drawings in", lambda s: done_cards(s) == want)
        secret(tv, f"{i + 1} drawings handed in")
    late = None
    if step == 1:
        reload_mid_step(tv, ids, code, sorted(ids[n] for n in order[:2]))
    if mid_step:
        late = mid_step(sorted(ids[n] for n in order[:2]))
    for name in order[2:]:
        draw_for(players[name], name, empty=(step == 3 and name == "Omar"))
    return prompts, late


def screen_joins_mid_step(base, pages, code, done):
    """A second screen, new to the room, comes in during the last step: the server sends it
    the step's progress with its clock. It then leaves for the code form (Escape)."""
    tv2 = party_page("tv2", size=(1920, 1080))
    tv2.base = base
    pages.append(tv2)
    tv2.d.get(f"{base}/tv/{code}")
    tv2.wait(lambda: tv_view(tv2) == "room", "the second screen in the room", timeout=20)
    s = wait_phone(tv2, "the last step and its check marks on a screen that came in mid-step", lambda s: s["step"] == 3 and done_cards(s) == done)
    CHECK.ok("Everyone is drawing" in s["title"] and "Step 4 of 4" in s["line"] and s["now"] == [3] and s["count"] == "2/4",
             f"[tv2] the step a screen that came in mid-step shows: {s}")
    step_clock(tv2, "[tv2] came in mid-step", DRAW_S)
    secret(tv2, "a screen that came in mid-step")
    tv2.screenshot("tv-telephone-joined-mid-step-1920")
    tv2.d.find_element(By.TAG_NAME, "body").send_keys(Keys.ESCAPE)  # a remote's Back: the code form
    tv2.wait(lambda: tv_view(tv2) == "entry", "[tv2] the code form after Escape")
    log(f"a second screen came in mid-step: step 4, 2/4 handed in and the clock ({phone(tv2)['timerText']} s)")
    return tv2


def reload_mid_step(tv, ids, code, done):
    tv_id = tv.js("return window.tvClient.state.meId")
    tv.d.refresh()
    tv.wait(lambda: tv_view(tv) == "room" and tv.js("return window.tvClient.state.room?.code") == code, "the screen back after a reload", timeout=20)
    s = wait_phone(tv, "step 2 and its check marks back after the reload", lambda s: s["step"] == 1 and done_cards(s) == done)
    CHECK.ok(tv.js("return window.tvClient.state.meId") == tv_id, "the reloaded screen is another member")
    CHECK.ok("Everyone is drawing" in s["title"] and "Step 2 of 4" in s["line"] and s["count"] == "2/4", f"after the reload: {s}")
    step_clock(tv, "after the reload", DRAW_S)
    secret(tv, "after a reload mid-step")
    # with no memo at all the server's progress still brings back the step, its check marks and its clock
    tv.js("sessionStorage.removeItem('drawserver.tvPhone')")
    tv.d.refresh()
    tv.wait(lambda: tv_view(tv) == "room" and tv.js("return window.tvClient.state.room?.code") == code, "the screen back after a reload without its memo", timeout=20)
    s = wait_phone(tv, "step 2 and its check marks back without the memo", lambda s: s["step"] == 1 and done_cards(s) == done)
    CHECK.ok("Step 2 of 4" in s["line"] and s["count"] == "2/4" and len(s["cards"]) == 4, f"after a reload without the memo: {s}")
    step_clock(tv, "after a reload without the memo", DRAW_S)
    CHECK.ok(tv.js("return JSON.parse(sessionStorage.getItem('drawserver.tvPhone') || 'null')") is None,
             "a screen that came in mid-step keeps its guess of the seats as if it were the game's")
    sels = ["#tv-phone-title", "#tv-phone-count", "#tv-phone-players", "#tv-phone-steps", "#tv-timer", "#tv-round"]
    fits(tv, "draw step at 1920 x 1080", sels)
    tv.screenshot("tv-telephone-progress-1920")
    set_viewport(tv, 1280, 720)
    fits(tv, "draw step at 1280 x 720", sels)
    tv.screenshot("tv-telephone-progress-1280")
    set_viewport(tv, 1920, 1080)
    log(f"reload mid-step: step 2, 2/4 handed in ({len(done)} check marks) and the clock ({phone(tv)['timerText']} s) back")


def describe_step(players, ids, tv):
    s = wait_phone(tv, "step 3 (describe) as soon as all four drew", lambda s: s["step"] == 2)
    CHECK.ok("Everyone is describing" in s["title"] and "Step 3 of 4" in s["line"] and done_cards(s) == [], f"the describe step: {s}")
    step_clock(tv, "step 3", WRITE_S)
    for name in NAMES:
        players[name].wait_for("phoneStep", lambda m: m.get("step") == 2, what=f"{name}'s describe step")
        players[name].send({"t": "phoneSubmit", "text": DESCRIPTIONS[name]})
    wait_phone(tv, "step 4 (draw)", lambda s: s["step"] == 3 and "Everyone is drawing" in s["title"])
    left = step_clock(tv, "step 4", DRAW_S)
    CHECK.ok(left > WRITE_S, f"step 4's clock shows {left} s: not a draw step's {DRAW_S} s")
    secret(tv, "the last draw step")
    log("describe step: shown at once when the drawings were all in; four descriptions, none on the screen")


def reveal_ok(tv, chains, ci, ei, names):
    """The screen at the host's reveal (ci, ei): what it shows, and nothing the host has not shown."""
    tv.wait(lambda: album_state(tv)["reveal"] == [ci, ei], f"reveal {ci}:{ei} on the screen")
    a = album_state(tv)
    chain = chains[ci]
    CHECK.ok(a["round"] == f"Album {ci + 1} of 4", f"the header says {a['round']!r} at reveal {ci}:{ei}")
    if ei < 0:
        owner = names[chain["owner"]]
        CHECK.ok(a["state"] == "title" and a["title"] == f"{owner}'s album", f"title card {ci}: {a}")
        CHECK.ok(a["main"] is None and a["strip"] == [], f"title card {ci} shows entries: {a}")
    else:
        e = chain["entries"][ei]
        main = a["main"]
        CHECK.ok(a["state"] == "entry" and main and main["by"] == e["by"] and main["name"] == names[e["by"]], f"entry {ci}:{ei} author: {a}")
        CHECK.ok(a["line"] == f"{names[chain['owner']]}'s album", f"the header says {a['line']!r} at reveal {ci}:{ei}")
        if e["kind"] == "text":
            CHECK.ok(main["text"] == (e["text"] or "(nothing written)"), f"entry {ci}:{ei} text {main['text']!r}")
        elif e.get("drawing"):
            tv.wait(lambda: (album_state(tv)["main"] or {}).get("loaded"), f"drawing {ci}:{ei} loaded")
            CHECK.ok(main["src"] == e["drawing"]["png"], f"entry {ci}:{ei} shows {main['src']}")
        else:
            CHECK.ok(main["text"] == "(left empty)", f"an empty drawing is shown as {main}")
        before = a["before"]
        if ei == 0:
            CHECK.ok(before is None, f"entry {ci}:0 has an entry before it: {before}")
        else:
            p = chain["entries"][ei - 1]
            CHECK.ok(before and before["by"] == p["by"], f"entry {ci}:{ei} is not shown beside the one it answers: {before}")
        CHECK.ok(a["strip"] == [str(i) for i in range(ei + 1)] + ["pending"] * (len(chain["entries"]) - ei - 1), f"the strip: {a['strip']}")
    # nothing past the reveal: every text and drawing of the entries still to come is absent
    shown = {(c, i) for c in range(len(chains)) for i in range(len(chains[c]["entries"])) if c < ci or (c == ci and i <= ei)}
    html = tv.js("return document.documentElement.outerHTML")
    for c, ch in enumerate(chains):
        for i, e in enumerate(ch["entries"]):
            marks = [e["text"]] if e["kind"] == "text" and e["text"] else []
            if e.get("drawing"):
                marks.append(e["drawing"]["id"])
            for mark in marks:
                if (c, i) in shown:
                    continue
                CHECK.ok(mark not in html, f"reveal {ci}:{ei}: the screen shows entry {c}:{i} ({mark!r}) before the host does")


def screen_joins_album(tv2, code, chains, names):
    """The second screen types the code again during the album (it left the room): the
    server sends it the album and the host's place in it."""
    tv2.type_into("#entry-code", code.lower(), enter=True)
    tv2.wait(lambda: tv_view(tv2) == "room" and album_state(tv2)["phase"] == "album", "[tv2] the album on a screen that joined during it", timeout=20)
    reveal_ok(tv2, chains, 2, 1, names)
    CHECK.ok(album_state(tv2)["state"] == "entry", f"[tv2] a screen that joined during the album says {album_state(tv2)['state']!r}")
    fits(tv2, "[tv2] album joined at 1920 x 1080", ["#tv-album-main", "#tv-album-before", "#tv-album-strip", "#tv-round"])
    tv2.screenshot("tv-telephone-joined-album-1920")
    log("a screen that joined during the album: the host's entry 2:1 and nothing further")


def album(players, ids, tv, tv2, code):
    names = {v: k for k, v in ids.items()}
    host = players["Hana"]
    msg = host.wait_for("album", what="the album")
    chains = msg["chains"]
    CHECK.ok(len(chains) == 4 and all(len(c["entries"]) == 4 for c in chains), "four chains of four entries")
    tv.wait(lambda: album_state(tv)["phase"] == "album", "the album on the screen", timeout=20)
    reveal_ok(tv, chains, 0, -1, names)
    s = phone(tv)
    CHECK.ok(s["album"] and not s["panel"] and not s["board"] and not s["timer"], f"the album's stage: {s}")
    fits(tv, "album title card at 1920 x 1080", ["#tv-album-name", "#tv-album-owner", "#tv-round"])
    tv.screenshot("tv-telephone-title-1920")
    sequence = [(c, e) for c in range(4) for e in range(-1, 4)]
    reloaded = False
    for ci, ei in sequence[1:]:
        host.send({"t": "albumNext"})
        host.wait_for("albumReveal", lambda m: m.get("chain") == ci and m.get("entry") == ei, what=f"reveal {ci}:{ei}")
        reveal_ok(tv, chains, ci, ei, names)
        if (ci, ei) == (0, 1):
            fits(tv, "album at 1920 x 1080", ["#tv-album-main", "#tv-album-before", "#tv-album-strip", "#tv-round"])
            big = tv.js("const r = document.querySelector('#tv-album-main img').getBoundingClientRect(); return [r.width, r.height];")
            CHECK.ok(big[1] >= 0.55 * 1080 and abs(big[0] / big[1] - 4 / 3) < 0.02, f"the revealed drawing is only {big[0]:.0f}x{big[1]:.0f} at 1920 x 1080")
            tv.screenshot("tv-telephone-album-1920")
            set_viewport(tv, 1280, 720)
            fits(tv, "album at 1280 x 720", ["#tv-album-main", "#tv-album-before", "#tv-album-strip", "#tv-round"])
            tv.screenshot("tv-telephone-album-1280")
            set_viewport(tv, 1920, 1080)
        if (ci, ei) == (0, 2):
            settled(tv)
            tv.screenshot("tv-telephone-album-text-1920")
        if (ci, ei) == (1, 0):
            font = tv.js("return parseFloat(getComputedStyle(document.querySelector('#tv-album-main .entry-text')).fontSize)")
            CHECK.ok(font >= 48, f"a revealed text is set in {font:.0f} px at 1920 x 1080")
        if (ci, ei) == (2, 1) and tv2 is not None:
            screen_joins_album(tv2, code, chains, names)
        if (ci, ei) == (2, 2) and tv2 is not None:
            reveal_ok(tv2, chains, 2, 2, names)
            log("the screen that joined during the album follows the host's next reveal")
        if (ci, ei) == (1, 2) and not reloaded:
            reloaded = True
            tv.d.refresh()
            tv.wait(lambda: tv_view(tv) == "room", "the screen back after a reload mid-album", timeout=20)
            reveal_ok(tv, chains, 1, 2, names)
            log("reload mid-album: the screen is back at the host's entry 1:2, nothing further")
    host.send({"t": "albumNext"})
    tv.wait(lambda: tv.js("return window.tvClient.state.phase") == "lobby" and tv.visible("#ov-lobby") and tv.visible("#board"),
            "the lobby on the screen after Finish")
    CHECK.ok(not tv.visible("#tv-album") and not tv.visible("#tv-phone") and tv.visible("#tv-side"), "telephone views left in the lobby")
    CHECK.ok(tv.js("return sessionStorage.getItem('drawserver.tvPhone')") is None, "the steps' memo kept after the game")
    log(f"album: {len(sequence) - 1} reveals followed on the screen (title cards, texts, drawings loaded, the empty one said, "
        "nothing ahead of the host), back in the lobby after Finish")


def scenario(base, pages):
    players, ids, code, tv = setup(base, pages)
    write_step(players, ids, tv)
    time_up(players, ids, tv)
    draw_step(players, ids, tv, 1, code)
    describe_step(players, ids, tv)
    _, tv2 = draw_step(players, ids, tv, 3, code, mid_step=lambda done: screen_joins_mid_step(base, pages, code, done))
    album(players, ids, tv, tv2, code)
    for page in (tv, tv2):
        errors = [e for e in page.console_errors() if "favicon" not in e.get("message", "")]
        CHECK.ok(not errors, f"[{page.label}] console errors: {errors}")


def main():
    return e2e.run_suite("e2e_tv_telephone", [scenario], checks=CHECK, cleanup=lambda: [bot.close() for bot in bots])


if __name__ == "__main__":
    sys.exit(main())
