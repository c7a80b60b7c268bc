#!/usr/bin/env python3
"""End-to-end checks of the big-screen page (issue 36, docs/CLIENT.md "The big screen")
against the real server:

  a room of two (`maxPlayers` 2: full, a third player is refused) with one browser player
  and one protocol bot; a 1920 x 1080 browser opens /tv: a bad code and an unknown room
  are told under the field, the lower-case code of the room lands on /tv/CODE; the
  scoreboard lists both players and not the screen; the players' page lists the screen
  among the spectators, not the players; the lobby shows the code in large letters and
  the invite link; the screen's token is kept under drawserver.tvToken, not the player's
  key; during a turn the screen shows the mask (as many blanks as the word has letters)
  and never the word, the timer, who draws, and the drawer's ink; the layout fits at
  1920 x 1080 and 1280 x 720 (nothing outside the window, the canvas 4:3 and most of the
  height); a correct guess marks the guesser and raises its score, the feed says so, and
  the reveal shows the word; a reload of the screen mid-turn resumes it (same player id,
  same room, mask and ink back, still one screen in the room); the game of one round
  ends with both players on the podium. A streamer's room on /tv/CODE: the address becomes
  /tv, the code is masked and not in the lobby (nor the invite link), also after a reload.

SAVE_SCREENSHOTS=1 writes docs/screenshots/tv-code-entry-1920.png, tv-lobby-1920.png,
tv-1920.png, tv-1280.png, tv-turnend-1920.png and tv-podium-1920.png.
Usage: DRAWSERVER_BIN=.build/debug/drawserver python3 tests/browser/e2e_tv.py
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e  # noqa: E402
from e2e import Bot, Failure, draw_stroke, log, polyline, stroke_frame  # noqa: E402
from e2e_party import party_page, set_viewport, start_session  # noqa: E402

bots = []

SCORES_JS = """return [...document.querySelectorAll('#tv-scores .score-row')].map((li) => ({
  id: li.dataset.id, name: li.querySelector('.row-name').textContent, score: Number(li.querySelector('.row-score').textContent),
  guessed: li.classList.contains('guessed'), drawing: li.classList.contains('drawing') }));"""

# every key element inside the window, the canvas 4:3, no scrolling either way
LAYOUT_JS = """
const box = (s) => { const e = document.querySelector(s); if (!e || !e.getClientRects().length) return null;
  const b = e.getBoundingClientRect(); return { l: b.left, t: b.top, r: b.right, b: b.bottom, w: b.width, h: b.height }; };
const out = { vw: innerWidth, vh: innerHeight, sw: document.scrollingElement.scrollWidth, sh: document.scrollingElement.scrollHeight, boxes: {} };
for (const s of ['#tv-round', '#tv-drawer', '#tv-mask', '#tv-timer', '#board', '#tv-scores', '#tv-feed', '#tv-code', '.tv-side']) out.boxes[s] = box(s);
const rows = [...document.querySelectorAll('#tv-scores .score-row')];
out.rowsClipped = rows.filter((r) => { const b = r.getBoundingClientRect(); const s = document.querySelector('.scores-box').getBoundingClientRect(); return b.bottom > s.bottom + 1; }).length;
out.maskFont = parseFloat(getComputedStyle(document.querySelector('#tv-mask .mask') || document.body).fontSize);
return out;
"""


def tv_view(p):
    return p.js("return document.body.dataset.view")


def seconds(text):
    """The timer's "1:20" or "45" in seconds."""
    m, _, s = (text or "0").strip().rpartition(":")
    return int(m or 0) * 60 + int(s or 0)


def scores(p):
    return p.js(SCORES_JS)


def check_layout(p, what, min_mask_px):
    m = p.js(LAYOUT_JS)
    problems = []
    if m["sw"] > m["vw"] + 1 or m["sh"] > m["vh"] + 1:
        problems.append(f"the page scrolls ({m['sw']}x{m['sh']} in {m['vw']}x{m['vh']})")
    for sel, b in m["boxes"].items():
        if b is None:
            problems.append(f"{sel} is not shown")
        elif b["l"] < -1 or b["t"] < -1 or b["r"] > m["vw"] + 1 or b["b"] > m["vh"] + 1:
            problems.append(f"{sel} runs out of the window: {b}")
    board = m["boxes"]["#board"]
    if board:
        if abs(board["w"] / board["h"] - 4 / 3) > 0.02:
            problems.append(f"the canvas is {board['w']:.0f}x{board['h']:.0f}, not 4:3")
        # as large as possible: the canvas takes most of the window's height
        if board["h"] < 0.7 * m["vh"]:
            problems.append(f"the canvas is only {board['h']:.0f} px high in a {m['vh']} px window")
        side = m["boxes"][".tv-side"]
        if side and board["r"] > side["l"] + 1:
            problems.append("the canvas runs under the scoreboard")
    if m["rowsClipped"]:
        problems.append(f"{m['rowsClipped']} scoreboard rows are cut off")
    if m["maskFont"] < min_mask_px:
        problems.append(f"the mask is set in {m['maskFont']:.0f} px (at least {min_mask_px})")
    if problems:
        raise Failure(f"[{p.label}] {what}: " + "; ".join(problems))
    log(f"{what}: canvas {board['w']:.0f}x{board['h']:.0f}, mask {m['maskFont']:.0f} px, nothing outside the window")


def ink_on_tv(tv, x, y, r=5):
    return tv.ink_near(x, y, r)


class Turn:
    """Who draws this turn (the browser player or the bot), and the word."""

    def __init__(self, alice, bob, bob_id):
        self.alice, self.bob, self.bob_id = alice, bob, bob_id
        self.drawer = None
        self.word = None

    def start(self, seen_chooses):
        alice, bob = self.alice, self.bob

        def who():
            if alice.visible("#overlay-choose") and alice.js("return document.querySelectorAll('.word-choice').length") > 0:
                self.drawer = "alice"
            elif len(bob.find("choose")) > seen_chooses:
                self.drawer = "bob"
            return self.drawer is not None
        alice.wait(who, "a drawer choosing a word", timeout=20)
        if self.drawer == "alice":
            alice.click(".word-choice")
            alice.wait(lambda: (alice.js("return document.querySelector('#turn-word').dataset.word || ''") or "") != "", "alice sees her word")
            self.word = alice.js("return document.querySelector('#turn-word').dataset.word")
        else:
            bob.send({"t": "choose", "index": 0})
            turn = bob.wait_for("turn", lambda m: m.get("drawer") == self.bob_id and m.get("word"), what="bob's turn with the word")
            self.word = turn["word"]
        log(f"{self.drawer} draws {self.word!r}")

    def paint(self, strokes):
        """Strokes [(points in logical px, rgb, width)]: the bot sends frames, the browser
        player's board draws them as local operations (the ops its pointer input makes)."""
        if self.drawer == "bob":
            for pts, rgb, width in strokes:
                self.bob.send_frame(stroke_frame(pts, rgb, width))
            return
        for pts, rgb, width in strokes:
            deltas = []
            for (x0, y0), (x1, y1) in zip(pts, pts[1:]):
                deltas += [x1 - x0, y1 - y0]
            self.alice.js("""const [pts, rgb, width, deltas] = arguments; const b = window.drawserverClient.board;
                b.local({ type: 1, tool: 0, r: rgb[0], g: rgb[1], b: rgb[2], width, x: pts[0][0], y: pts[0][1] });
                if (deltas.length) b.local({ type: 2, deltas }); b.local({ type: 3 });""", pts, list(rgb), width, deltas)

    def guess(self):
        if self.drawer == "alice":
            self.bob.send({"t": "chat", "text": self.word})
        else:
            self.alice.type_into("#chat-input", self.word, enter=True)

    @property
    def guesser_id(self):
        return self.bob_id if self.drawer == "alice" else self.alice.my_id()


PICTURE = [  # a house under a sun, in logical 800 x 600 coordinates
    (polyline((220, 330), (580, 330), (580, 520), (220, 520), (220, 330)), (30, 30, 30), 10),
    (polyline((200, 340), (400, 180), (600, 340)), (200, 40, 40), 12),
    (polyline((360, 520), (360, 420), (440, 420), (440, 520)), (120, 72, 30), 10),
    (polyline((470, 370), (540, 370), (540, 420), (470, 420), (470, 370)), (30, 110, 220), 8),
    (polyline((660, 90), (700, 70), (740, 90), (750, 130), (720, 165), (670, 160), (650, 125), (660, 90)), (240, 180, 0), 14),
    (polyline((60, 560), (740, 560)), (40, 150, 60), 16),
]


def setup_room(base, pages):
    a = party_page("alice", size=(1280, 720))
    pages.append(a)
    start_session(a, base, "Alice")
    a.js("""document.querySelector('#create-form [data-key=maxPlayers]').value = '2';
        document.querySelector('#create-form [data-key=rounds]').value = '1';""")
    code = e2e.create_room(a, "Living room", public=False)
    bob = Bot(base, "Bob")
    bots.append(bob)
    bob.send({"t": "join", "code": code})
    bob.wait_for("room", lambda m: m.get("code") == code, what="bob in the room")
    a.wait(lambda: a.js("return document.querySelectorAll('#player-list .player').length") == 2, "two players on alice's page")
    carol = Bot(base, "Carol")
    bots.append(carol)
    carol.send({"t": "join", "code": code})
    carol.wait_for("error", lambda m: m.get("code") == "room_full", what="room_full for a third player")
    log(f"room {code} is full: two players, a third one refused")
    return a, bob, code


def open_tv(base, pages, code):
    tv = party_page("tv", size=(1920, 1080))
    pages.append(tv)
    tv.d.get(base + "/tv")
    tv.wait(lambda: tv.visible("#entry-code") and tv.js("return document.activeElement?.id") == "entry-code", "the code form, focused")
    tv.js("localStorage.clear(); sessionStorage.clear();")
    tv.d.refresh()
    tv.wait(lambda: tv.visible("#entry-code"), "the code form after a clean start")
    tv.screenshot("tv-code-entry-1920")
    tv.type_into("#entry-code", "k7q", enter=True)
    tv.wait(lambda: "6" in (tv.text("#entry-error") or ""), "a short code refused under the field")
    tv.type_into("#entry-code", "zzzzzz", enter=True)
    tv.wait(lambda: "does not exist" in (tv.text("#entry-error") or ""), "the server's room_not_found under the field")
    if tv_view(tv) != "entry" or not tv.d.current_url.endswith("/tv"):
        raise Failure(f"[tv] an unknown room left the form: {tv.d.current_url}")
    log("code form: a bad code and an unknown room are told under the field")
    tv.type_into("#entry-code", code.lower(), enter=True)
    tv.wait(lambda: tv_view(tv) == "room" and tv.d.current_url.endswith(f"/tv/{code}"), f"the room on /tv/{code}")
    log(f"typed {code.lower()!r} + Enter: {tv.d.current_url}")
    return tv


def check_membership(a, tv, bob, code):
    tv_id = tv.js("return window.tvClient.state.meId")
    ids = {a.my_id(), bob.welcome["playerId"]}
    tv.wait(lambda: {r["id"] for r in scores(tv)} == ids, "the scoreboard with both players")
    if tv_id in {r["id"] for r in scores(tv)}:
        raise Failure("the screen lists itself on its scoreboard")
    if tv.text("#tv-code") != code:
        raise Failure(f"the corner shows {tv.text('#tv-code')!r}, expected {code}")
    a.wait(lambda: a.js("return !!document.querySelector('#spectator-list .player[data-id=\"' + arguments[0] + '\"]')", tv_id),
           "the screen among the spectators on alice's page")
    if a.js("return document.querySelectorAll('#player-list .player').length") != 2:
        raise Failure("the screen is listed among the players on alice's page")
    row = a.js("const li = document.querySelector('#spectator-list .player[data-id=\"' + arguments[0] + '\"]'); return li.textContent;", tv_id)
    entry = next(p for p in bob.wait_for("room", lambda m: any(x["id"] == tv_id for x in m["players"]))["players"] if p["id"] == tv_id)
    if not (entry.get("spectator") and entry.get("watching")):
        raise Failure(f"the server lists the screen as {entry}")
    log(f"the screen ({tv_id}) is a watching spectator; alice's page shows it as {row.strip()!r}; not on the scoreboard")
    tv.wait(lambda: tv.visible("#ov-lobby") and f"/?room={code}" in (tv.text("#ov-lobby-join") or ""), "the lobby with the invite link")
    if tv.text("#ov-lobby-code") != code:
        raise Failure(f"the lobby shows the code {tv.text('#ov-lobby-code')!r}, expected {code}")
    # the screen's own token: a player's page in the same tab (or a duplicated one) never resumes as the screen
    tokens = tv.js("return [sessionStorage.getItem('drawserver.tvToken'), sessionStorage.getItem('drawserver.token')]")
    if not tokens[0] or tokens[1]:
        raise Failure(f"the screen's token is not kept under drawserver.tvToken alone: {tokens}")
    tv.screenshot("tv-lobby-1920")
    return tv_id


def check_turn(tv, turn, what):
    word = turn.word
    tv.wait(lambda: tv.js("return document.querySelectorAll('#tv-mask .cell.blank').length") > 0, f"the mask on the screen ({what})")
    letters = len(re.findall(r"[^\W\d_]|\d", word))
    cells = tv.js("return document.querySelectorAll('#tv-mask .cell.blank, #tv-mask .cell.letter').length")
    if cells != letters:
        raise Failure(f"the mask has {cells} letter cells, the word {letters} letters")
    text = tv.js("return document.body.innerText + ' ' + document.body.textContent").lower()
    if re.search(r"(?<!\w)" + re.escape(word.lower()) + r"(?!\w)", text):
        raise Failure(f"the screen shows the word {word!r} during the turn")
    if tv.js("return window.tvClient.state.word") is not None:
        raise Failure("the screen's state holds the word")
    tv.wait(lambda: tv.visible("#tv-timer") and seconds(tv.text("#tv-timer-value")) > 0, "the timer running")
    tv.wait(lambda: "draw" in (tv.text("#tv-drawer") or "").lower(), "who draws")
    log(f"{what}: mask of {cells} letters, timer {tv.text('#tv-timer-value')} s, never the word")


def game(a, bob, tv):
    bob_id = bob.welcome["playerId"]
    bob.send({"t": "ready", "ready": True})
    a.wait(lambda: a.js("return !!document.querySelector('#player-list .mark-ready')"), "bob's ready mark")
    a.click("#ready-toggle")
    turn = Turn(a, bob, bob_id)
    turn.start(0)
    check_turn(tv, turn, "turn 1")
    # ink: the first stroke with real pointer input when the browser player draws
    if turn.drawer == "alice":
        draw_stroke(a, 0.25, 0.5, 0.75, 0.5)
    else:
        turn.paint([(polyline((200, 300), (600, 300)), (0, 0, 0), 12)])
    tv.wait(lambda: ink_on_tv(tv, 400, 300), "the drawer's ink on the screen's canvas", timeout=10)
    if ink_on_tv(tv, 400, 100):
        raise Failure("ink on the screen where nothing was drawn")
    turn.paint(PICTURE)
    tv.wait(lambda: ink_on_tv(tv, 700, 70, 6) and ink_on_tv(tv, 400, 560, 6), "the picture on the screen")
    log("the drawer's ink reached the screen")
    check_layout(tv, "1920 x 1080", min_mask_px=50)
    tv.screenshot("tv-1920")
    set_viewport(tv, 1280, 720)
    check_layout(tv, "1280 x 720", min_mask_px=34)
    tv.screenshot("tv-1280")
    set_viewport(tv, 1920, 1080)

    # a correct guess: the guesser is marked, its score rises, the feed says it, the reveal shows the word
    gid = turn.guesser_id
    turn.guess()
    tv.wait(lambda: any(r["id"] == gid and r["guessed"] for r in scores(tv)), "the guesser marked on the scoreboard")
    tv.wait(lambda: any(r["id"] == gid and r["score"] > 0 for r in scores(tv)), "the guesser's score up")
    tv.wait(lambda: tv.js("return !!document.querySelector('#tv-feed .feed-guessed')"), "the guess in the feed")
    tv.wait(lambda: tv.visible("#ov-turnend") and (tv.text("#ov-turnend-word") or "").strip().lower() == turn.word.lower(), "the reveal")
    if scores(tv)[0]["id"] != gid:
        raise Failure(f"the scoreboard is not sorted by score: {scores(tv)}")
    log(f"correct guess: {scores(tv)}")
    tv.screenshot("tv-turnend-1920")
    return turn


def reload_mid_turn(a, bob, tv, tv_id, code, first):
    turn = Turn(a, bob, bob.welcome["playerId"])
    turn.start(1 if first.drawer == "bob" else 0)  # the choices bob had before this turn
    check_turn(tv, turn, "turn 2")
    turn.paint([(polyline((150, 450), (650, 450)), (200, 30, 30), 14)])
    tv.wait(lambda: ink_on_tv(tv, 400, 450), "turn 2's ink on the screen")
    tv.d.refresh()
    tv.wait(lambda: tv_view(tv) == "room" and tv.js("return window.tvClient.state.room?.code") == code, "the screen back in the room after a reload", timeout=20)
    if tv.js("return window.tvClient.state.meId") != tv_id:
        raise Failure("the reloaded screen is another player (token not resumed)")
    if not tv.d.current_url.endswith(f"/tv/{code}"):
        raise Failure(f"after the reload the address is {tv.d.current_url}")
    tv.wait(lambda: ink_on_tv(tv, 400, 450), "the ink back after the reload", timeout=15)
    check_turn(tv, turn, "after the reload")
    tv.wait(lambda: len(scores(tv)) == 2, "both players on the scoreboard after the reload")
    screens = a.js("return document.querySelectorAll('#spectator-list .player').length")
    if screens != 1:
        raise Failure(f"alice's page lists {screens} spectators after the screen's reload")
    log("reload: same screen id, room, mask and ink; still one screen in the room")
    return turn


def game_end(tv, turn):
    """The last turn of a one-round game: a correct guess, then the podium."""
    turn.guess()
    tv.wait(lambda: tv.visible("#ov-gameend"), "the podium", timeout=20)
    places = tv.js("return [...document.querySelectorAll('#ov-podium .place')].map((li) => li.dataset.place)")
    if sorted(places) != ["1", "2"] and sorted(places) != ["1", "1"]:
        raise Failure(f"the podium shows places {places}")
    names = tv.js("return [...document.querySelectorAll('#ov-podium .place-name')].map((e) => e.textContent)")
    if sorted(names) != ["Alice", "Bob"]:
        raise Failure(f"the podium shows {names}")
    log(f"game end: the podium with {names}")
    tv.screenshot("tv-podium-1920")


def scenario(base, pages):
    a, bob, code = setup_room(base, pages)
    tv = open_tv(base, pages, code)
    tv_id = check_membership(a, tv, bob, code)
    first = game(a, bob, tv)
    second = reload_mid_turn(a, bob, tv, tv_id, code, first)
    game_end(tv, second)


def streamer_room(base, pages):
    """A streamer's room: the code stays off the screen and out of the address, and a
    reload still brings the screen back (its token, not the address)."""
    host = Bot(base, "Host")
    bots.append(host)
    host.send({"t": "create", "name": "On stream", "public": False, "settings": {"streamer": True}})
    code = host.wait_for("room", lambda m: m.get("settings", {}).get("streamer"), what="a streamer's room")["code"]
    tv = party_page("tv", size=(1280, 720))
    pages.append(tv)
    tv.d.get(base + f"/tv/{code}")

    def masked():
        tv.wait(lambda: tv_view(tv) == "room" and tv.visible("#ov-lobby"), "the streamer's room on the screen")
        problems = []
        if tv.js("return location.pathname") != "/tv":
            problems.append(f"the address is {tv.js('return location.pathname')}")
        if tv.text("#tv-code") != "••••••":
            problems.append(f"the corner shows {tv.text('#tv-code')!r}")
        if tv.visible("#ov-lobby-codebox") or tv.visible("#ov-lobby-join"):
            problems.append("the lobby shows the code or the invite link")
        if code in tv.js("return document.body.innerText + document.title"):
            problems.append("the code is in the page's text")
        if problems:
            raise Failure("[tv] streamer mode: " + "; ".join(problems))
    masked()
    tv.d.refresh()
    masked()
    log("streamer's room: the code masked, the address /tv, back after a reload")


def main():
    try:
        return e2e.run_suite("e2e_tv", [scenario, streamer_room], extra=["--turn-end-seconds", "4"])
    finally:
        for bot in bots:
            bot.close()


if __name__ == "__main__":
    sys.exit(main())
