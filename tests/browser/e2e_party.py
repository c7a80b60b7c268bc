#!/usr/bin/env python3
"""End-to-end checks of the party features of the browser client (same setup as e2e.py,
plus a moderator token and short turn ends):

  game (two browsers at 1280 x 657, Bob's browser set to German, and two protocol bots,
  Carol with an avatar and Dave without one, who keeps a turn open during a reload):
    the interface follows the browser's language and the picker (remembered; Arabic is
    right to left); avatars from the builder in the player list, chat, invite prompt,
    podium and the moderator wall; a German room (word list from GET /api/languages)
    judged with umlaut folding; like/dislike with live counts for the drawer; sounds
    (AudioContext stubbed: which notes start) and the remembered mute toggle; chat
    restored after a reload without the word a guessed player wrote and without a turn
    line twice; the drawer's header, whole canvas and one-row toolbar fit at 1280 x 657
    and 1920 x 1080 without scrolling.
  phone (390 x 844): the top bar never covers the timer; the podium is not clipped.

SAVE_SCREENSHOTS=1 writes docs/screenshots/party-*.png.
Usage: DRAWSERVER_BIN=.build/debug/drawserver python3 tests/browser/e2e_party.py
"""
import json
import os
import sys
import unicodedata
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e  # noqa: E402
from e2e import Bot, Failure, Page, draw_stroke, log, make_driver  # noqa: E402

MOD_TOKEN = "party-moderator-token"

# Records the frequency of every oscillator the client starts (sounds.js), so a test can
# tell which sound played: installed before any page script runs.
AUDIO_STUB = """
window.__audio = [];
(() => {
  class Param { setValueAtTime(v) { this.v = v; } exponentialRampToValueAtTime() {} }
  class Ctx {
    constructor() { this.currentTime = 0; this.destination = {}; this.state = 'running'; }
    resume() { return Promise.resolve(); }
    createGain() { return { gain: new Param(), connect() {} }; }
    createOscillator() {
      const f = new Param();
      return { type: '', frequency: f, connect() {}, start() { window.__audio.push(f.v); }, stop() {} };
    }
  }
  window.AudioContext = Ctx;
  window.webkitAudioContext = Ctx;
})();
"""
# the first note that only this sound has (sounds.js)
NOTE = {"yourTurn": 523.25, "wordChosen": 880, "correctMine": 1567.98, "correctOther": 1318.51,
        "close": 466.16, "turnEnd": 493.88, "gameEnd": 1046.5, "tick": 1500}

LAYOUT_JS = """
const box = (s) => {
  const e = document.querySelector(s);
  if (!e || e.closest('[hidden]')) return null;
  const b = e.getBoundingClientRect();
  return { top: b.top, bottom: b.bottom, left: b.left, right: b.right };
};
const tb = document.getElementById('toolbar');
const kids = [...tb.children].map((c) => c.getBoundingClientRect());
return {
  vw: innerWidth, vh: innerHeight, scrollY, docH: document.documentElement.scrollHeight,
  word: box('#turn-word'), timer: box('#timer'), board: box('#board'), toolbar: box('#toolbar'),
  oneRow: kids.every((k) => kids.every((j) => k.top < j.bottom && j.top < k.bottom)),
  overflow: tb.scrollWidth > tb.clientWidth + 1,
};
"""


def party_page(label, size=(1280, 657), lang=None, mobile=False):
    d = make_driver(lang)
    d.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": AUDIO_STUB})
    p = Page(label, d, None)
    set_viewport(p, *size, mobile=mobile)
    return p


def set_viewport(p, w, h, mobile=False):
    p.d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": w, "height": h, "deviceScaleFactor": 1, "mobile": mobile})
    try:
        p.js("window.dispatchEvent(new Event('resize'))")
    except Exception:  # noqa: BLE001 - no page yet
        pass


def shot(p, name):
    p.screenshot(f"party-{name}")


def audio(p):
    return p.js("return window.__audio || []")


def heard(p, sound, since=0):
    return NOTE[sound] in audio(p)[since:]


def avatar_of(p, css):
    return p.js("const e = document.querySelector(arguments[0]); return e ? e.dataset.avatar || null : null;", css)


def avatar_key(a):
    return f"{a['color']}-{a['eyes']}-{a['mouth']}-{a['accessory']}"


def fold(word):
    """What a German player types without umlauts: ä -> a, ß -> ss, any case."""
    s = unicodedata.normalize("NFD", word.replace("ß", "ss").replace("ẞ", "SS"))
    return "".join(c for c in s if not unicodedata.combining(c))


def spell_out(word):
    """The other way without an umlaut key: ä -> ae, ö -> oe, ü -> ue, ß -> ss."""
    for a, b in (("ä", "ae"), ("ö", "oe"), ("ü", "ue"), ("Ä", "Ae"), ("Ö", "Oe"), ("Ü", "Ue"), ("ß", "ss")):
        word = word.replace(a, b)
    return word


def set_locale(p, code):
    p.js("const s = document.getElementById('locale-select'); s.value = arguments[0]; s.dispatchEvent(new Event('change'));", code)
    p.wait(lambda: p.js("return document.documentElement.lang") == code, f"the interface in {code}")


def chat_texts(p):
    return p.js("return [...document.querySelectorAll('#chat-log .chat-line')].map((e) => e.textContent)")


def start_session(p, base, name, avatar_clicks=()):
    """Name screen with the avatar builder: step some parts, then play. Returns the avatar."""
    p.d.get(base + "/")
    p.wait(lambda: p.visible("#name-input"), "nickname screen")
    for part, n in avatar_clicks:
        for _ in range(n):
            p.click(f'.avatar-part[data-part="{part}"] .avatar-next')
    avatar = json.loads(p.js("return localStorage.getItem('drawserver.avatar')"))
    if avatar_of(p, "#avatar-preview svg") != avatar_key(avatar):
        raise Failure(f"[{p.label}] the builder preview does not show the stored avatar {avatar}")
    p.type_into("#name-input", name, enter=True)
    p.wait(lambda: p.my_id() != "", "welcome")
    return avatar


def check_fits(p, what):
    """The drawer sees word, timer, whole canvas and a one-row toolbar without scrolling."""
    p.js("window.scrollTo(0, 0); window.dispatchEvent(new Event('resize'))")
    m = p.js(LAYOUT_JS)
    problems = []
    for k in ("word", "timer", "board", "toolbar"):
        b = m[k]
        if not b:
            problems.append(f"{k} is not shown")
        elif b["top"] < -0.5 or b["bottom"] > m["vh"] + 0.5 or b["left"] < -0.5 or b["right"] > m["vw"] + 0.5:
            problems.append(f"{k} is outside the {m['vw']}x{m['vh']} viewport: {b}")
    if not m["oneRow"]:
        problems.append("the toolbar wraps onto more than one row")
    if m["overflow"]:
        problems.append("the toolbar overflows its box")
    if problems:
        raise Failure(f"[{p.label}] {what}: " + "; ".join(problems))
    log(f"{what}: header, canvas ({m['board']['right'] - m['board']['left']:.0f} px wide) and one-row toolbar fit")


seen = set()  # ids of the bot's `choose` messages already handled
bots = []


def who_draws(pages, bots_, timeout=20):
    """The page, or (bot, its new `choose` message), that got the next word choice."""
    found = {}

    def probe():
        for p in pages:
            if p.visible("#overlay-choose") and p.js("return document.querySelectorAll('.word-choice').length") > 0:
                found["d"] = p
                return True
        for bot in bots_:
            new = bot.find("choose", lambda m: id(m) not in seen)
            if new:
                seen.add(id(new[-1]))
                found["d"] = (bot, new[-1])
                return True
        return False
    pages[0].wait(probe, "a word choice for the next drawer", timeout=timeout)
    return found["d"]


def german_words():
    """The server's German word list, for checking the choices ('#' lines are comments)."""
    with open(os.path.join(e2e.REPO, "Sources", "Rooms", "Resources", "words-de.txt"), encoding="utf-8") as fh:
        return {w.strip().lower() for w in fh if w.strip() and not w.startswith("#")}


def umlaut_first(words):
    """Index of the first word with ä, ö, ü or ß (the folding under test), else 0."""
    return next((i for i, w in enumerate(words) if any(c in w for c in "äöüÄÖÜß")), 0)


def game(base, pages):
    a = party_page("alice")
    pages.append(a)
    b = party_page("bob", lang="de")
    pages.append(b)

    # ---- the browser's language picks the interface; the picker switches and is remembered
    b.d.get(base + "/")
    b.wait(lambda: b.visible("#name-input"), "nickname screen")
    b.js("localStorage.clear(); sessionStorage.clear();")
    b.d.refresh()
    b.wait(lambda: b.js("return document.documentElement.lang") == "de", "a German interface from the browser's languages")
    if b.text("#name-submit") != "Los geht’s":
        raise Failure(f"the German submit button reads {b.text('#name-submit')!r}")
    set_locale(b, "ar")
    if b.js("return document.documentElement.dir") != "rtl":
        raise Failure("Arabic does not switch the page to right-to-left")
    b.d.refresh()
    b.wait(lambda: b.js("return document.documentElement.lang + '/' + document.documentElement.dir") == "ar/rtl", "Arabic remembered after a reload")
    shot(b, "rtl-name")
    set_locale(b, "de")
    if b.js("return document.documentElement.dir") != "ltr":
        raise Failure("German is not left to right")
    log("interface language: browser default, picker, remembered, rtl: ok")

    a.d.get(base + "/")
    a.wait(lambda: a.visible("#name-input"), "nickname screen")
    a.js("localStorage.clear(); sessionStorage.clear(); localStorage.setItem('drawserver.locale', 'en');")
    a.d.refresh()
    a_av = start_session(a, base, "Alice", [("eyes", 2), ("accessory", 3)])
    b_av = start_session(b, base, "Bob", [("color", 4), ("mouth", 1)])
    carol_av = {"color": 7, "eyes": 1, "mouth": 4, "accessory": 2}
    if avatar_of(a, "#me-avatar svg") != avatar_key(a_av):
        raise Failure("alice's own avatar is not in the top bar")

    # ---- a German room; the word list picker is filled from GET /api/languages
    langs = json.loads(urllib.request.urlopen(base + "/api/languages", timeout=5).read())
    de = next((l for l in langs if l.get("code") == "de"), None)
    if not de or not isinstance(de.get("words"), int) or de["words"] < 800:
        raise Failure(f"GET /api/languages has no German list of 800+ words: {langs}")
    a.wait(lambda: a.js("return [...document.querySelectorAll('#create-form [data-key=language] option')].some((o) => /\\d/.test(o.textContent) && o.value === 'de')"),
           "the word-language picker lists German with its word count")
    a.js("const s = document.querySelector('#create-form [data-key=language]'); s.value = 'de';")
    a.js("const r = document.querySelector('#create-form [data-key=rounds]'); r.value = '1';")
    a.js("const w = document.querySelector('#create-form [data-key=wordChoices]'); w.value = '5';")
    code = e2e.create_room(a, "Kritzelrunde")
    a.wait(lambda: a.js("return document.querySelector('[data-settings=room] [data-key=language]').value") == "de", "the room's language is German")

    # ---- Carol (a bot with an avatar) invites Bob: the prompt shows her avatar
    carol = Bot(base, "Carol", avatar=carol_av)
    bots.append(carol)
    carol.send({"t": "join", "code": code})
    carol.wait_for("room", lambda m: m.get("code") == code, what="carol in the room")
    carol.send({"t": "invite", "playerId": b.my_id()})
    b.wait(lambda: b.visible("#invite-prompt"), "bob's invite prompt")
    if avatar_of(b, "#invite-avatar svg") != avatar_key(carol_av):
        raise Failure(f"the invite prompt shows avatar {avatar_of(b, '#invite-avatar svg')}, not carol's")
    b.click("#invite-accept")
    b.wait(lambda: b.visible("#screen-room") and b.text("#room-code") == code, "bob in the room")
    # Dave sends no avatar (as an older client would): the server gives him one derived from his id
    dave = Bot(base, "Dave")
    bots.append(dave)
    dave.send({"t": "join", "code": code})
    dave.wait_for("room", lambda m: m.get("code") == code, what="dave in the room")
    ids = {"alice": a.my_id(), "bob": b.my_id(), "carol": str(carol.welcome["playerId"]), "dave": str(dave.welcome["playerId"])}
    dave_entry = next(p for p in dave.wait_for("room", lambda m: m.get("code") == code)["players"] if str(p["id"]) == ids["dave"])
    keys = {ids["alice"]: avatar_key(a_av), ids["bob"]: avatar_key(b_av), ids["carol"]: avatar_key(carol_av), ids["dave"]: avatar_key(dave_entry["avatar"])}
    row = lambda pid: f'#player-list .player[data-id="{pid}"] svg.avatar'  # noqa: E731
    for p in (a, b):
        for pid, key in keys.items():
            p.wait(lambda p=p, pid=pid, key=key: avatar_of(p, row(pid)) == key, f"avatar {key} of {pid} in {p.label}'s player list")
    a.type_into("#chat-input", "Hallo zusammen!", enter=True)
    b.wait(lambda: b.js("return [...document.querySelectorAll('#chat-log .chat-line[data-from]')].some((l) => l.dataset.text === 'Hallo zusammen!' && l.querySelector('svg.avatar')?.dataset.avatar === arguments[0])", avatar_key(a_av)),
           "alice's chat line with her avatar on bob's page")
    log("avatars in the list, chat, top bar and invite prompt: ok")
    shot(a, "room-lobby")

    # ---- the game: four turns (one per player), rounds = 1
    a.click("#start-game")
    drawn, judged = [], []
    dewords = german_words()
    while len(drawn) < 4:
        d = who_draws([a, b], [carol, dave])
        if isinstance(d, tuple):
            bot, msg = d
            pick = umlaut_first(msg["words"])
            word = msg["words"][pick]
            bot_id = str(bot.welcome["playerId"])
            drawn.append(bot_id)
            bot.send({"t": "choose", "index": pick})
            bot.wait_for("turn", lambda m: m.get("drawer") == bot_id and m.get("word") == word, what="the bot's turn")
            if bot is dave:
                bot.send({"t": "skip"})
            else:
                # carol draws; both browsers guess her word folded, then dave
                judged.append(word)
                for p, guess in ((a, fold(word).lower()), (b, spell_out(word).upper())):
                    p.wait(lambda p=p: "_" in (p.text("#turn-word") or ""), "the mask of carol's word")
                    p.type_into("#chat-input", guess, enter=True)
                    p.wait(lambda p=p: p.js("return !!document.querySelector(arguments[0])", f'#player-list .player.guessed[data-id="{p.my_id()}"]'),
                           f"{guess!r} judged correct for {word!r}")
                dave.send({"t": "guess", "text": spell_out(word).lower()})
            a.wait(lambda: a.visible("#overlay-turnend") or a.visible("#overlay-gameend"), "the end of the bot's turn")
            continue
        g = b if d is a else a
        drawn.append(d.label)
        judged.append(browser_turn(d, g, carol, dave, ids, dewords, first=drawn.count("alice") + drawn.count("bob") == 1))
    if not any(c in w for w in judged for c in "äöüÄÖÜß"):
        raise Failure(f"no word with an umlaut or ß came up to judge: {judged}")
    log(f"German words judged with folding: {judged}")

    # ---- podium with avatars
    for p in (a, b):
        p.wait(lambda p=p: p.visible("#overlay-gameend"), "the podium", timeout=20)
        got = p.js("return [...document.querySelectorAll('#podium .place')].map((e) => [e.dataset.id, e.querySelector('svg.avatar')?.dataset.avatar])")
        if len(got) < 3 or any(keys.get(pid) != key for pid, key in got):
            raise Failure(f"[{p.label}] podium avatars {got}, expected {keys}")
        if not heard(p, "gameEnd"):
            raise Failure(f"[{p.label}] no game-end sound")
    check_podium(a, "podium at 1280x657")
    shot(a, "podium-1280")
    log("podium with avatars: ok")

    # ---- the moderator wall shows the avatars
    b.d.get(base + "/moderator.html")
    b.wait(lambda: b.visible("#token-input"), "moderator login")
    b.type_into("#token-input", MOD_TOKEN, enter=True)
    b.wait(lambda: b.js("return [...document.querySelectorAll('.mod-player svg.avatar')].map((s) => s.dataset.avatar)").count(avatar_key(carol_av)) >= 1,
           "carol's avatar on the moderator wall", timeout=20)
    log("moderator wall avatars: ok")


def browser_turn(d, g, carol, dave, ids, dewords, first):
    """One turn drawn by browser d, guessed by browser g and the bots (Dave keeps the turn
    open while g reloads: a turn ends once every connected guesser has guessed)."""
    since_g, since_d = len(audio(g)), len(audio(d))
    choices = d.js("return [...document.querySelectorAll('.word-choice')].map((b) => b.textContent)")
    foreign = [w for w in choices if w.lower() not in dewords]
    if foreign:
        raise Failure(f"word choices not from the German list: {foreign}")
    if NOTE["yourTurn"] not in audio(d):  # game end shares the note, but comes later
        raise Failure(f"[{d.label}] no 'your turn' sound at the word choice")
    pick = umlaut_first(choices)
    d.js(f"document.querySelectorAll('.word-choice')[{pick}].click()")
    d.wait(lambda: (d.js("return document.querySelector('#turn-word').dataset.word || ''") or "") != "", "the drawer's word")
    word = d.js("return document.querySelector('#turn-word').dataset.word")
    log(f"{d.label} draws {word!r}; {g.label} guesses")
    g.wait(lambda: heard(g, "wordChosen", since_g), "the word-chosen sound for the guesser")
    draw_stroke(d, 0.3, 0.4, 0.7, 0.6)
    if first:
        check_fits(d, "drawer at 1280x657")
        shot(d, "drawing-1280")
        set_viewport(d, 1920, 1080)
        check_fits(d, "drawer at 1920x1080")
        shot(d, "drawing-1920")
        set_viewport(d, 1280, 657)
    else:
        # the same room right to left
        before = d.js("return document.documentElement.lang")
        set_locale(d, "ar")
        check_fits(d, "drawer at 1280x657 in Arabic")
        shot(d, "drawing-ar-1280")
        set_locale(d, before)

    # ---- ratings: the guesser likes, changes its mind; the drawer sees the counts live
    if not d.js("return document.getElementById('rate-like').disabled"):
        raise Failure("the drawer can rate its own drawing")
    g.click("#rate-like")
    d.wait(lambda: d.text("#likes") == "1" and d.text("#dislikes") == "0", "1 like on the drawer's page")
    g.click("#rate-dislike")
    d.wait(lambda: d.text("#likes") == "0" and d.text("#dislikes") == "1", "the like turned into a dislike")
    if g.js("return document.getElementById('rate-dislike').getAttribute('aria-pressed')") != "true":
        raise Failure("the guesser's dislike is not shown as pressed")
    g.click("#rate-dislike")
    d.wait(lambda: d.text("#dislikes") == "0", "the dislike withdrawn")
    g.click("#rate-like")
    d.wait(lambda: d.text("#likes") == "1", "liked again")
    log("ratings: ok")

    # ---- chat history: carol guesses, then writes the word (only those who know see it)
    g.type_into("#chat-input", f"hallo von {g.label}", enter=True)
    d.wait(lambda: any(f"hallo von {g.label}" in t for t in chat_texts(d)), "the guesser's chat on the drawer's page")
    carol.send({"t": "guess", "text": word})
    carol.wait_for("guessed", lambda m: m.get("playerId") == ids["carol"], what="carol's correct guess")
    g.wait(lambda: heard(g, "correctOther", since_g), "the 'someone guessed' sound")
    carol.send({"t": "chat", "text": f"psst {word}"})
    d.wait(lambda: any(f"psst {word}" in t for t in chat_texts(d)), "carol's line for those who know the word")
    if first:
        # mute before the reload: the choice must survive it
        g.click("#sound-toggle")
        if g.js("return localStorage.getItem('drawserver.muted')") != "1":
            raise Failure("the mute choice is not stored")
    g.d.refresh()
    g.wait(lambda: g.visible("#screen-room") and "_" in (g.text("#turn-word") or ""), "the guesser back in the turn after reload", timeout=20)
    g.wait(lambda: any(f"hallo von {g.label}" in t for t in chat_texts(g)), "the guesser's own line restored from chatHistory")
    lines = chat_texts(g)
    if sum(f"hallo von {g.label}" in t for t in lines) != 1:
        raise Failure(f"[{g.label}] a restored line shows twice: {lines}")
    if any(word.lower() in t.lower() for t in lines):
        raise Failure(f"[{g.label}] the chat leaks the word after reload: {lines}")
    if not any("Hallo zusammen!" in t for t in lines):
        raise Failure(f"[{g.label}] the earlier room chat is not restored: {lines}")
    turn_lines = g.js("return document.querySelectorAll('#chat-log .chat-turn').length")
    if turn_lines != 1:
        raise Failure(f"[{g.label}] the turn line shows {turn_lines} times after reload")
    log("chat restored after reload, once, without the word: ok")
    if first:
        shot(g, "guessing-1280")
    if first and g.js("return document.getElementById('sound-toggle').getAttribute('aria-pressed')") != "true":
        raise Failure("mute not remembered across the reload")

    # ---- a close guess (one letter off): a private notice and its sound
    since_g, since_d = len(audio(g)), len(audio(d))
    if not first:
        folded = fold(word).lower()
        near = folded[:-1] + ("x" if folded[-1] != "x" else "y")
        g.type_into("#chat-input", near, enter=True)
        g.wait(lambda: g.js("return !!document.querySelector('#chat-log .chat-close')"), f"the close-guess notice for {near!r}")
        g.wait(lambda: heard(g, "close", since_g), "the close-guess sound")

    # ---- the German guess, folded (no umlauts, ß as ss, other case)
    guess = fold(word).upper() if first else fold(word).lower()
    g.type_into("#chat-input", guess, enter=True)
    sel = f'#player-list .player.guessed[data-id="{g.my_id()}"]'
    d.wait(lambda: d.js("return !!document.querySelector(arguments[0])", sel), f"{guess!r} judged correct for {word!r}")
    d.wait(lambda: heard(d, "correctOther", since_d), "the drawer hears someone guess")
    # dave writes the umlauts out ("ae"), as players without an umlaut key do
    dave.send({"t": "guess", "text": spell_out(word).lower()})
    dave.wait_for("guessed", lambda m: m.get("playerId") == ids["dave"] and id(m) not in seen,
                  what=f"{spell_out(word).lower()!r} judged correct for {word!r}")
    seen.update(id(m) for m in dave.find("guessed"))
    if first:
        if audio(g)[since_g:]:
            raise Failure(f"[{g.label}] sounds played while muted: {audio(g)[since_g:]}")
        g.click("#sound-toggle")  # sound on again for the rest
    else:
        g.wait(lambda: heard(g, "correctMine", since_g), "the 'you guessed' sound")
    for p in (d, g):
        p.wait(lambda p=p: p.visible("#overlay-turnend"), "turn end")
    if d.js("return document.getElementById('turnend-ratings').textContent").count("1") < 1:
        raise Failure(f"the turn end shows no rating counts: {d.text('#turnend-ratings')!r}")
    log(f"{guess!r} and {spell_out(word).lower()!r} accepted for {word!r}; sounds and mute: ok")
    return word


def check_podium(p, what):
    m = p.js("""
        const card = document.querySelector('#overlay-gameend .overlay-card');
        const places = [...document.querySelectorAll('#podium .place, #gameend-close')].map((e) => e.getBoundingClientRect())
          .map((b) => [b.top, b.bottom, b.left, b.right]);
        return { vw: innerWidth, vh: innerHeight, places, clipped: card.scrollHeight > card.clientHeight + 1 };""")
    bad = [r for r in m["places"] if r[0] < -0.5 or r[1] > m["vh"] + 0.5 or r[2] < -0.5 or r[3] > m["vw"] + 0.5]
    if bad or m["clipped"]:
        raise Failure(f"[{p.label}] {what}: clipped podium {m}")
    log(f"{what}: not clipped")


def phone(base, pages):
    a = party_page("alice-phone", size=(390, 844), mobile=True)
    pages.append(a)
    a.d.get(base + "/")
    a.wait(lambda: a.visible("#name-input"), "nickname screen")
    a.js("localStorage.clear(); sessionStorage.clear(); localStorage.setItem('drawserver.locale', 'en');")
    a.d.refresh()
    start_session(a, base, "Alice", [("accessory", 1)])
    a.js("const r = document.querySelector('#create-form [data-key=rounds]'); r.value = '1';")
    a.js("const r = document.querySelector('#create-form [data-key=drawTimeSec]'); r.value = '30';")
    code = e2e.create_room(a, "Phone")
    bob = Bot(base, "Bob", avatar={"color": 2, "eyes": 3, "mouth": 2, "accessory": 5})
    bots.append(bob)
    bob.send({"t": "join", "code": code})
    bob.wait_for("room", lambda m: m.get("code") == code, what="bob in the room")
    a.click("#start-game")
    turns = 0
    while turns < 2:
        d = who_draws([a], [bob])
        turns += 1
        if isinstance(d, tuple):
            bob.send({"t": "choose", "index": 0})
            a.wait(lambda: a.visible("#timer"), "the timer on the phone")
            a.type_into("#chat-input", "a house?", enter=True)
            # scrolled to the chat: the sticky header keeps the timer visible, nothing covers it
            for where in ("0", "document.documentElement.scrollHeight"):
                m = a.js(f"""
                    window.scrollTo(0, {where});
                    const t = document.getElementById('timer').getBoundingClientRect();
                    const hit = document.elementFromPoint((t.left + t.right) / 2, (t.top + t.bottom) / 2);
                    return {{ top: t.top, bottom: t.bottom, scrollY, covered: !(hit && hit.closest('#timer')) }};""")
                if m["covered"] or m["top"] < 0:
                    raise Failure(f"on the phone the timer is covered or off screen: {m}")
            log(f"phone: the timer stays visible and uncovered while scrolled ({m['scrollY']:.0f} px)")
            a.js("window.scrollTo(0, 0)")
            shot(a, "guessing-390")
            # the last ten seconds tick, once a second (a 30 s turn: about 20 s to wait)
            a.wait(lambda: audio(a).count(NOTE["tick"]) >= 1, "the first tick", timeout=30)
            first_at = int(a.text("#timer-value") or "99")
            a.wait(lambda: audio(a).count(NOTE["tick"]) >= 3, "three ticks", timeout=10)
            left = int(a.text("#timer-value") or "99")
            ticks = audio(a).count(NOTE["tick"])
            # (a tick may land between reading the clock and the count)
            if not (8 <= first_at <= 10) or ticks not in (10 - left + 1, 10 - left + 2):
                raise Failure(f"ticks: first at {first_at} s, {ticks} ticks with {left} s left")
            log(f"ticks: the first at {first_at} s left, one per second ({ticks} with {left} s left)")
            # the urgent timer pulses, except for players who asked for reduced motion
            anim = lambda: a.js("return getComputedStyle(document.getElementById('timer')).animationName")  # noqa: E731
            if anim() != "pulse":
                raise Failure(f"the urgent timer does not pulse: {anim()!r}")
            a.d.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-reduced-motion", "value": "reduce"}]})
            if anim() != "none":
                raise Failure(f"the timer still animates with prefers-reduced-motion: {anim()!r}")
            a.d.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
            log("prefers-reduced-motion stops the timer's pulse")
            bob.send({"t": "skip"})
        else:
            a.click(".word-choice")
            a.wait(lambda: a.visible("#toolbar"), "the phone drawer's toolbar")
            draw_stroke(a, 0.2, 0.3, 0.8, 0.7)
            a.click("#tool-skip")
            a.confirm(what="the question before skipping")
        a.wait(lambda: a.visible("#overlay-turnend") or a.visible("#overlay-gameend"), "turn end")
    a.wait(lambda: a.visible("#overlay-gameend"), "the podium on the phone", timeout=20)
    check_podium(a, "podium at 390x844")
    shot(a, "podium-390")


def main():
    e2e.install_signal_handlers()
    server = e2e.ServerProcess(extra=["--moderator-token", MOD_TOKEN, "--turn-end-seconds", "2", "--game-end-seconds", "60"])
    pages = []
    try:
        server.start()
        game(server.base, pages)
        e2e.quit_all(pages)
        pages.clear()
        phone(server.base, pages)
        log("PASS")
        return 0
    except Failure as e:
        return e2e.report_failure("e2e_party", e, pages, server)
    finally:
        for bot in bots:
            bot.close()
        e2e.quit_all(pages)
        server.stop()


if __name__ == "__main__":
    sys.exit(main())
