#!/usr/bin/env python3
"""End-to-end check of the telephone mode's browser side (docs/PROTOCOL.md 12.5,
docs/CLIENT.md "Telephone mode") against the real server: four players in four headless
Chromium sessions (three desktops at 1280 x 800, one phone at 390 x 844) play a whole game.

  the host switches the room to Telephone in the settings editor (rounds, word choices,
  hints and the bots disappear, the write time appears; the others see it read-only);
  starts; everyone writes a sentence (one changes it after Done); each draws the sentence
  handed to it with real pointer strokes, one reloads its page in the middle of the draw
  step and gets its screen, prompt and drawing so far back; everyone describes the drawing
  handed to it; the last draw step (one leaves the canvas empty); the host reveals the
  album entry by entry to its end (the others follow, without a Next button) and the room
  is back in its lobby. Secrecy: before the album no page holds another chain's text.

SAVE_SCREENSHOTS=1 writes docs/screenshots/telephone-*.png (write, draw, describe,
waiting, album; desktop and phone).
Usage: DRAWSERVER_BIN=.build/debug/drawserver python3 tests/browser/e2e_telephone.py
"""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e  # noqa: E402
from e2e import Failure, log, draw_stroke  # noqa: E402
from e2e_party import start_session  # noqa: E402
from e2e_polish import fresh_page  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select  # noqa: E402

SETTINGS = "[data-settings=room]"
SENTENCES = {
    "hana": "A giraffe wearing sunglasses at the beach",
    "pablo": "Two robots dancing the tango",
    "rosa": "A castle made of cheese",
    "omar": "The moon eating a pizza slice",
}
CHANGED = "A castle made of Swiss cheese with a moat"  # rosa changes its mind after Done
DESCRIPTIONS = {
    "hana": "Sunny animal with a long neck",
    "pablo": "Metal friends having a party",
    "rosa": "Yellow fortress on a hill",
    "omar": "Round face with a triangle",
}
ALL_TEXTS = list(SENTENCES.values()) + [CHANGED] + list(DESCRIPTIONS.values())


CHECK = e2e.Checks()


def phone_state(p):
    return p.js("const s = window.drawserverClient.state; return {phase: s.phase, step: s.phone.step, kind: s.phone.kind, "
                "submitted: s.phone.submitted, done: s.phone.done.length, screen: document.getElementById('phone-panel').dataset.screen};")


def wait_step(p, step, kind, screen):
    p.wait(lambda: (lambda s: s["phase"] == "telephone" and s["step"] == step and s["kind"] == kind and s["screen"] == screen)(phone_state(p)),
           f"step {step} ({kind}) on the {screen} screen", timeout=35)


def texts_in_page(p):
    """Which of the game's texts this page holds anywhere in its DOM (markup, attributes, input values)."""
    return p.js("""
        const html = document.documentElement.outerHTML + [...document.querySelectorAll('input, textarea')].map((i) => i.value).join('\\n');
        return arguments[0].filter((t) => html.includes(t));""", ALL_TEXTS)


def setup(base, pages):
    host = fresh_page("hana", base, (1280, 800))
    pages.append(host)
    start_session(host, base, "Hana")
    code = e2e.create_room(host, "Telephone party", public=False)
    players = {"hana": host}
    for label, size, mobile in (("pablo", (390, 844), True), ("rosa", (1280, 800), False), ("omar", (1280, 800), False)):
        g = fresh_page(label, base, size, mobile=mobile)
        pages.append(g)
        g.d.get(f"{base}/?room={code}")
        g.wait(lambda: g.visible("#name-input"), "the nickname screen of the invite link")
        g.type_into("#name-input", label.capitalize(), enter=True)
        g.wait(lambda: g.visible("#screen-room"), f"{label} in the room")
        players[label] = g
    host.wait(lambda: host.js("return document.querySelectorAll('#player-list .player').length") == 4, "four players seated")
    log(f"room {code}: four players seated (one on a phone)")
    return players


def switch_mode(players):
    host = players["hana"]
    CHECK.ok(host.visible(f"{SETTINGS} [data-key=rounds]") and not host.visible(f"{SETTINGS} [data-key=writeTimeSec]"),
             "classic settings: rounds shown, write time hidden")
    CHECK.ok(host.visible("#add-bot"), "classic: the host can add bots")
    Select(host.d.find_element(By.CSS_SELECTOR, f"{SETTINGS} [data-key=mode]")).select_by_value("telephone")
    for key in ("rounds", "wordChoices", "hints", "customWords", "language"):
        CHECK.ok(not host.visible(f"{SETTINGS} [data-key={key}]"), f"telephone settings: {key} still shown")
    CHECK.ok(host.visible(f"{SETTINGS} [data-key=writeTimeSec]"), "telephone settings: no write time field")
    CHECK.ok("3 players" in host.text(f"{SETTINGS} .mode-hint"), "the mode's hint does not say it needs 3 players")
    # short enough that omar's describe step runs out (his typed text is handed in for him)
    host.type_into(f"{SETTINGS} [data-key=writeTimeSec]", "25")
    host.type_into(f"{SETTINGS} [data-key=drawTimeSec]", "120")
    host.click("#settings-save")
    for p in players.values():
        p.wait(lambda: p.js("return window.drawserverClient.state.room.settings.mode") == "telephone", f"[{p.label}] the room in telephone mode")
        p.wait(lambda: p.js(f"return document.querySelector('{SETTINGS} [data-key=mode]').value") == "telephone", f"[{p.label}] the form shows Telephone")
        CHECK.ok(not p.visible("#bot-controls"), f"[{p.label}] the bot controls show in telephone mode")
        CHECK.ok(p.visible(f"{SETTINGS} [data-key=writeTimeSec]") and not p.visible(f"{SETTINGS} [data-key=rounds]"), f"[{p.label}] the wrong fields")
    guest = players["omar"]
    CHECK.ok(guest.js(f"return document.querySelector('{SETTINGS} [data-key=mode]').disabled"), "a guest can change the mode")
    CHECK.ok(host.js("return window.drawserverClient.state.room.settings.writeTimeSec") == 25, "the write time was not saved")
    host.screenshot("telephone-settings-1280")
    log("host switched to Telephone: classic-only fields and the bots hidden, the write time shown, read-only for guests")


def join_watcher(base, pages, code):
    """Vera comes by the invite link after the start: she watches (no step of hers)."""
    v = fresh_page("vera", base, (1280, 800))
    pages.append(v)
    v.d.get(f"{base}/?room={code}")
    v.wait(lambda: v.visible("#name-input"), "the nickname screen of the invite link")
    v.type_into("#name-input", "Vera", enter=True)
    v.wait(lambda: v.visible("#screen-room"), "vera in the room")
    return v


def watcher_ok(v, what):
    """A watcher sees the telephone panel's note and the progress, no board, no form, no text."""
    v.wait(lambda: v.js("return document.getElementById('phone-panel').dataset.screen") == "watching" and v.visible("#phone-panel"),
           f"[vera] the watcher's screen ({what})")
    CHECK.ok(not v.visible("#board-wrap") and not v.visible("#phone-form") and not v.visible("#toolbar"), f"[vera] board or form shown ({what})")
    CHECK.ok(texts_in_page(v) == [], f"[vera] holds a text before the album ({what}): {texts_in_page(v)}")
    CHECK.ok(not v.visible("#timer"), f"[vera] a watcher shows a step clock it is not told ({what})")
    CHECK.ok(v.text("#phone-progress-text").endswith("/4 done"), f"[vera] counts herself among the game's players: {v.text('#phone-progress-text')!r}")


def write_step(players, base, pages):
    host = players["hana"]
    code = host.js("return window.drawserverClient.state.room.code")
    host.click("#start-game")
    players_v = join_watcher(base, pages, code)
    watcher_ok(players_v, "write step")
    for p in players.values():
        wait_step(p, 0, "write", "answer")
        CHECK.ok(p.text("#room-round") == "Step 1 of 4" and p.text("#phone-step") == "Step 1 of 4", f"[{p.label}] step label {p.text('#room-round')!r}")
        CHECK.ok("Write a sentence" in p.text("#phone-title"), f"[{p.label}] write title {p.text('#phone-title')!r}")
        CHECK.ok(p.visible("#timer") and not p.visible("#board-wrap") and not p.visible("#lobby-panel"), f"[{p.label}] timer/board/lobby wrong on the write step")
    host.screenshot("telephone-write-1280")
    players["pablo"].screenshot("telephone-write-390")
    order = ["hana", "pablo", "rosa", "omar"]
    for i, label in enumerate(order):
        p = players[label]
        p.type_into("#phone-input", SENTENCES[label], enter=True)
        if label == order[-1]:
            break  # the last one ends the step: the draw step follows at once
        p.wait(lambda: phone_state(p)["screen"] == "waiting", f"[{label}] the waiting state")
        CHECK.ok(p.text("#phone-mine") == SENTENCES[label], f"[{label}] the waiting state does not show the sentence sent")
        if i == 1:
            # two of four done: everyone sees it (avatars with a check, "2/4 done"), nobody sees what
            for q in players.values():
                q.wait(lambda: q.text("#phone-progress-text") == "2/4 done", f"[{q.label}] 2/4 done")
                CHECK.ok(q.js("return document.querySelectorAll('#phone-avatars li.is-done').length") == 2, f"[{q.label}] two check marks")
            CHECK.ok("2/4" in p.text("#phone-waiting-text"), f"waiting text {p.text('#phone-waiting-text')!r}")
            p.screenshot("telephone-waiting-390")
        if label == "rosa":
            # changing one's mind: the form again with the text, Update replaces it
            p.click("#phone-edit")
            p.wait(lambda: phone_state(p)["screen"] == "answer", "[rosa] the form reopened")
            CHECK.ok(p.js("return document.getElementById('phone-input').value") == SENTENCES["rosa"], "the reopened form lost the text")
            p.type_into("#phone-input", CHANGED)
            p.click("#phone-done")
            p.wait(lambda: phone_state(p)["screen"] == "waiting" and p.text("#phone-mine") == CHANGED, "[rosa] the changed sentence sent")
        if i == 2:
            host.screenshot("telephone-waiting-1280")
        # secrecy: a page holds its own sentence and no one else's
        for q_label, q in players.items():
            held = texts_in_page(q)
            own = CHANGED if q_label == "rosa" else SENTENCES[q_label]
            CHECK.ok(all(t == own for t in held), f"[{q_label}] holds another player's text during the write step: {held}")
    log("write step: four sentences sent (one changed after Done), progress 2/4 shown, no page holds another's text")
    return players_v


def draw_step(players, step):
    prompts = {}
    for label, p in players.items():
        wait_step(p, step, "draw", "draw")
        prompts[label] = p.js("return window.drawserverClient.state.phone.prompt")
        CHECK.ok(p.visible("#board-wrap") and p.visible("#toolbar") and p.visible("#phone-draw-done"), f"[{label}] board, tools or Done missing")
        CHECK.ok(not p.visible("#tool-skip"), f"[{label}] a skip button in a telephone step")
        if step == 1:
            CHECK.ok(p.text("#turn-word") == prompts[label] and p.visible(".word-box"), f"[{label}] the prompt is not in the header: {p.text('#turn-word')!r}")
            held = texts_in_page(p)
            CHECK.ok(held == [prompts[label]], f"[{label}] holds {held}, expected only its prompt")
            own = CHANGED if label == "rosa" else SENTENCES[label]
            CHECK.ok(prompts[label] != own, f"[{label}] was handed its own sentence")
    if step == 1:
        CHECK.ok(sorted(prompts.values()) == sorted([SENTENCES["hana"], SENTENCES["pablo"], CHANGED, SENTENCES["omar"]]),
                 f"the prompts are not the four sentences: {prompts}")
    return prompts


def draw_and_reload(players, prompts):
    rosa = players["rosa"]
    draw_stroke(rosa, 0.2, 0.3, 0.5, 0.6)
    draw_stroke(rosa, 0.6, 0.2, 0.8, 0.7)
    time.sleep(1.2)  # the frames are with the server (no wait is needed for a reload, but be fair)
    w, h = rosa.canvas_size()
    rosa.d.refresh()
    wait_step(rosa, 1, "draw", "draw")
    CHECK.ok(rosa.js("return window.drawserverClient.state.phone.prompt") == prompts["rosa"], "the prompt changed across the reload")
    CHECK.ok(rosa.text("#turn-word") == prompts["rosa"], "the reloaded page does not show the prompt")
    rosa.wait(lambda: rosa.ink_near(int(0.35 * w), int(0.45 * h), 4) and rosa.ink_near(int(0.7 * w), int(0.45 * h), 4),
              "rosa's drawing so far back after the reload")
    CHECK.ok(rosa.js("return window.drawserverClient.state.phone.submitted") is False, "submitted after a reload without Done")
    CHECK.ok(not rosa.ink_near(int(0.9 * w), int(0.9 * h), 4), "ink where nobody drew")
    draw_stroke(rosa, 0.3, 0.8, 0.7, 0.8)
    log("draw step: a reload in the middle brings back the screen, the prompt and the drawing so far; drawing goes on")


def finish_draw(players, step, empty=()):
    for label, p in players.items():
        if label not in empty and not (step == 1 and label == "rosa"):
            draw_stroke(p, 0.25, 0.25, 0.75, 0.7)
            draw_stroke(p, 0.3, 0.7, 0.7, 0.3)
        if step == 1 and label == "hana":
            p.screenshot("telephone-draw-1280")
        if step == 1 and label == "pablo":
            p.screenshot("telephone-draw-390")
    labels = list(players)
    for i, label in enumerate(labels):
        p = players[label]
        p.click("#phone-draw-done")
        if i < len(labels) - 1:
            p.wait(lambda: phone_state(p)["screen"] == "drawDone", f"[{label}] the drawing sent")
            CHECK.ok(p.visible("#board-wrap") and "keep drawing" in p.text("#phone-title"), f"[{label}] cannot keep drawing after Done")
            CHECK.ok(p.js("return window.drawserverClient.board && !document.getElementById('toolbar').hidden"), f"[{label}] the tools went away after Done")
    log(f"draw step {step + 1}: everyone drew with real strokes and pressed I'm done" + (f" ({', '.join(empty)} left it empty)" if empty else ""))


def describe_step(players):
    for label, p in players.items():
        wait_step(p, 2, "describe", "answer")
        p.wait(lambda: p.js("const i = document.getElementById('phone-drawing-img'); return i.complete && i.naturalWidth > 0"),
               f"[{label}] the drawing to describe loaded")
        CHECK.ok(p.visible("#phone-drawing") and not p.visible("#phone-empty") and not p.visible("#board-wrap"), f"[{label}] describe screen wrong")
        CHECK.ok(texts_in_page(p) == [], f"[{label}] holds a text in the describe step: {texts_in_page(p)}")
    players["hana"].screenshot("telephone-describe-1280")
    players["pablo"].screenshot("telephone-describe-390")
    for label, p in players.items():
        p.type_into("#phone-input", DESCRIPTIONS[label])
        if label != "omar":
            p.click("#phone-done")
    # omar typed but never pressed Done: his page hands the text in just before the time is up
    omar = players["omar"]
    omar.wait(lambda: phone_state(omar)["submitted"] or phone_state(omar)["step"] == 3, "[omar] the typed text handed in at the end", timeout=35)
    log("describe step: everyone saw the drawing handed to it (loaded) and described it; omar's typed text was sent for him as time ran out")


def reveal_state(p):
    return p.js("const s = window.drawserverClient.state; return s.phase === 'album' ? [s.phone.reveal.chain, s.phone.reveal.entry, "
                "document.querySelectorAll('#album-entries .album-entry').length, document.getElementById('album-panel').dataset.state] : null;")


def album(players, ids, first_prompts, watcher):
    host = players["hana"]
    watcher.wait(lambda: reveal_state(watcher) == [0, -1, 0, "title"], "[vera] the album's first title card", timeout=20)
    CHECK.ok(not watcher.visible("#album-next") and watcher.visible("#album-wait"), "[vera] a watcher has Next in the album")
    for label, p in players.items():
        p.wait(lambda: reveal_state(p) == [0, -1, 0, "title"], f"[{label}] the album's first title card", timeout=20)
        CHECK.ok(p.visible("#album-next") == (label == "hana"), f"[{label}] Next button shown to the wrong player")
        CHECK.ok(p.visible("#album-wait") == (label != "hana"), f"[{label}] 'the host is showing' wrong")
    chains = host.js("return window.drawserverClient.state.phone.album")
    CHECK.ok(len(chains) == 4 and all(len(c["entries"]) == 4 for c in chains), "four chains of four entries")
    # the chains match what each wrote, and what each was handed
    by_id = {v: k for k, v in ids.items()}
    for c in chains:
        e = c["entries"]
        CHECK.ok([x["kind"] for x in e] == ["text", "drawing", "text", "drawing"], f"entry kinds {[x['kind'] for x in e]}")
        owner = by_id[c["owner"]]
        CHECK.ok(e[0]["text"] == (CHANGED if owner == "rosa" else SENTENCES[owner]), f"chain of {owner} starts with {e[0]['text']!r}")
        CHECK.ok(first_prompts[by_id[e[1]["by"]]] == e[0]["text"], f"{by_id[e[1]['by']]} drew another prompt than its chain's")
        CHECK.ok(e[2]["text"] == DESCRIPTIONS[by_id[e[2]["by"]]], "a description is not its author's")
    host.screenshot("telephone-album-title-1280")
    total = sum(len(c["entries"]) + 1 for c in chains)
    empties = 0
    shot = {(0, 1): "telephone-album-1280", (1, 2): "telephone-album-text-1280"}
    for n in range(1, total):
        host.click("#album-next")
        ci, ei = divmod(n, 5)
        ei -= 1
        for label, p in players.items():
            p.wait(lambda: (reveal_state(p) or [None])[:3] == [ci, ei, max(0, ei + 1)], f"[{label}] reveal {ci}:{ei}")
        if ei >= 0:
            entry = chains[ci]["entries"][ei]
            newest = host.js("const e = document.querySelector('#album-entries .is-newest'); return e ? e.textContent : null")
            CHECK.ok(newest is not None and players_name(players, by_id[entry["by"]]) in newest, f"newest entry {ci}:{ei} lacks its author: {newest!r}")
            if entry["kind"] == "drawing" and not entry.get("drawing"):
                CHECK.ok("(left empty)" in host.text("#album-entries .is-newest"), "an empty drawing is not said to be empty")
                empties += 1
            if entry["kind"] == "drawing" and entry.get("drawing"):
                host.wait(lambda: host.js("const i = document.querySelector('#album-entries .is-newest img'); return !!i && i.complete && i.naturalWidth > 0"),
                          f"album drawing {ci}:{ei} loaded")
        if (ci, ei) == (1, 2):
            # a reload during the album: `album` then `albumReveal` put the page where the others are
            pablo = players["pablo"]
            pablo.d.refresh()
            pablo.wait(lambda: (reveal_state(pablo) or [None])[:3] == [1, 2, 3], "[pablo] the album back at 1:2 after a reload", timeout=20)
            CHECK.ok(not pablo.visible("#album-next") and pablo.visible("#album-wait"), "[pablo] Next after a reload")
        if (ci, ei) in shot:
            host.screenshot(shot[(ci, ei)])
            players["pablo"].screenshot(shot[(ci, ei)].replace("1280", "390"))
        if (ci, ei) == (3, 3):
            CHECK.ok(host.text("#album-next") == "Finish", f"the last Next says {host.text('#album-next')!r}")
    CHECK.ok(empties == 1, f"{empties} empty drawings in the album, expected omar's one")
    # the time-lapse plays on a click (the APNG), and stops again
    host.click("#album-entries .album-entry.album-kind-drawing .album-replay")
    CHECK.ok(".apng" in host.js("return document.querySelector('#album-entries .album-kind-drawing img').src"), "the time-lapse does not play")
    host.click("#album-next")
    for label, p in players.items():
        p.wait(lambda: p.js("return window.drawserverClient.state.phase") == "lobby" and p.visible("#lobby-panel"), f"[{label}] back in the lobby")
        CHECK.ok(not p.visible("#album-panel") and not p.visible("#phone-panel"), f"[{label}] telephone panels left in the lobby")
    log(f"album: {total - 1} reveals by the host followed on all four pages (author names, drawings loaded, empty drawing said, "
        "a reload mid-album comes back at the same entry), "
        "Finish returned everyone to the lobby")


def players_name(players, label):
    return label.capitalize()


def game(base, pages):
    players = setup(base, pages)
    ids = {label: p.js("return window.drawserverClient.state.meId") for label, p in players.items()}
    switch_mode(players)
    vera = write_step(players, base, pages)
    first_prompts = draw_step(players, 1)
    watcher_ok(vera, "draw step")
    vera.screenshot("telephone-watching-1280")
    CHECK.ok(vera.text("#phone-progress-text").endswith("done"), "[vera] no progress line")
    draw_and_reload(players, first_prompts)
    finish_draw(players, 1)
    describe_step(players)
    watcher_ok(vera, "describe step")
    draw_step(players, 3)
    finish_draw(players, 3, empty=("omar",))
    album(players, ids, first_prompts, vera)
    log("a later joiner watched: the telephone note and the progress, never a board, a form or a text before the album")
    for p in players.values():
        errors = [e for e in p.console_errors() if "favicon" not in e.get("message", "")]
        CHECK.ok(not errors, f"[{p.label}] console errors: {errors}")


def main():
    return e2e.run_suite("e2e_telephone", [game], checks=CHECK)


if __name__ == "__main__":
    sys.exit(main())
