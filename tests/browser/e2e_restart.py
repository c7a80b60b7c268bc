#!/usr/bin/env python3
"""End-to-end test of the client's resume across server restarts (same harness as e2e.py;
the test stops and starts the real server itself, on the same port and database):

  two browsers in a turn, the drawer's stroke committed to the database; the server is
  killed with SIGKILL: both pages show the "connection lost" banner and retry; the server
  starts again on the same --db and port: both pages reconnect by themselves with their
  saved token (same player id), get their room back in phase drawing (the drawer its
  word, the guesser the mask) and the canvas with the stroke; drawing goes on.
  Then SIGTERM: the server drains (exit status 0), the pages are closed with 1012 and
  say the server is restarting; after the restart they resume again with both strokes,
  and the guesser's correct guess ends the turn.

Usage: DRAWSERVER_BIN=.build/debug/drawserver python3 tests/browser/e2e_restart.py
"""
import os
import signal
import sqlite3
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e  # noqa: E402
from e2e import Failure, Page, create_room, draw_stroke, enter_name, log, make_driver  # noqa: E402


def committed_strokes(db):
    """Stroke frames of current turns committed to the database (docs/PERSISTENCE.md)."""
    try:
        con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=2)
        try:
            return con.execute("SELECT count(*) FROM stroke").fetchone()[0]
        finally:
            con.close()
    except sqlite3.Error:
        return 0


def record_closes(p):
    """Remember the close codes the page's connection sees (window.__closes)."""
    p.js("""
        window.__closes = [];
        window.drawserverClient.conn.addEventListener('closed', (e) => window.__closes.push(e.detail.code));""")


def closes(p):
    return p.js("return window.__closes || []")


def status(p):
    return (p.text("#conn-text") or "").strip()


def resumed(p, code, pid):
    return (status(p) == "Online" and p.my_id() == pid and p.visible("#screen-room")
            and (p.text("#room-code") or "").strip() == code and not p.visible("#banner"))


def check_turn(drawer, guesser, word, points):
    """Drawer sees its word and the toolbar, guesser the mask; every point has ink on both."""
    drawer.wait(lambda: drawer.js("return document.querySelector('#turn-word').dataset.word || ''") == word,
                "the drawer's word back after the restart")
    drawer.wait(lambda: drawer.visible("#toolbar"), "the drawer's toolbar back after the restart")
    guesser.wait(lambda: "_" in (guesser.text("#turn-word") or ""), "the guesser's mask back after the restart")
    for x, y in points:
        for p in (drawer, guesser):
            p.wait(lambda p=p, x=x, y=y: p.ink_near(x, y, 4), f"ink at ({x},{y}) on {p.label}'s canvas after the restart")


CHAT = "see you after the crash"


def no_repeated_lines(pages, when):
    """A resume resends `room`, `turn` and the canvas (protocol 4): the page must not show
    "X is drawing now." (or any other system line) a second time."""
    for p in pages:
        lines = p.js("return [...document.querySelectorAll('#chat-log .chat-line:not([data-from])')].map((e) => e.textContent)")
        twice = sorted({t for t in lines if lines.count(t) > 1})
        if twice:
            raise Failure(f"[{p.label}] {when}: system lines shown twice: {twice}")
        if p.js("return document.querySelectorAll('#chat-log .chat-turn').length") != 1:
            raise Failure(f"[{p.label}] {when}: the turn line is not shown exactly once: {lines}")
        # the resume's chatHistory is merged into what the page still shows
        said = p.js("return [...document.querySelectorAll('#chat-log .chat-line[data-from]')].map((e) => e.dataset.text)")
        if said.count(CHAT) != 1 or len(said) != len(set(said)):
            raise Failure(f"[{p.label}] {when}: chat lines {said}, expected {CHAT!r} once and no line twice")


def run(server, pages):
    base = server.base
    a = Page("alice", make_driver(), base)
    pages.append(a)
    b = Page("bob", make_driver(), base)
    pages.append(b)

    a.d.get(base + "/")
    enter_name(a, "Alice")
    code = create_room(a, "Restart room")
    b.d.get(f"{base}/?room={code}")
    enter_name(b, "Bob")
    b.wait(lambda: b.visible("#screen-room") and b.text("#room-code") == code, "bob in the room")
    a_id, b_id = a.my_id(), b.my_id()
    a.wait(lambda: a.visible("#start-game"), "start button")
    a.click("#start-game")
    a.wait(lambda: a.visible("#overlay-choose"), "word choice for alice")
    a.click(".word-choice")
    a.wait(lambda: a.visible("#toolbar"), "drawing toolbar")
    word = a.js("return document.querySelector('#turn-word').dataset.word")
    w, h = a.canvas_size()
    a.click('#widths [aria-label="Width 16"]')
    draw_stroke(a, 0.2, 0.5, 0.8, 0.5)
    p1 = (int(0.5 * w), int(0.5 * h))
    b.wait(lambda: b.ink_near(*p1, 4), "the stroke on bob's canvas")
    # the stroke is in the database once the writer committed it (every 75 ms)
    a.wait(lambda: committed_strokes(server.db) > 0, "the stroke committed to the database", timeout=10)
    for p in (a, b):
        record_closes(p)

    b.type_into("#chat-input", CHAT, enter=True)
    a.wait(lambda: a.js("return [...document.querySelectorAll('#chat-log .chat-line[data-from]')].some((e) => e.dataset.text === arguments[0])", CHAT),
           "bob's chat line on alice's page")
    no_repeated_lines((a, b), "before the restart")

    # ---- SIGKILL mid-turn, restart on the same database and port
    server.signal(signal.SIGKILL)
    server.wait_exit()
    for p in (a, b):
        p.wait(lambda p=p: p.visible("#banner") and "Connection lost" in (p.text("#banner-text") or ""),
               "the 'connection lost' banner after the crash")
        p.wait(lambda p=p: status(p) == "Reconnecting…", "'Reconnecting…' status")
    log("crash: both pages show the banner and retry")
    started = time.time()
    server.start()
    for p, pid in ((a, a_id), (b, b_id)):
        p.wait(lambda p=p, pid=pid: resumed(p, code, pid), "an automatic resume (same id, same room, banner gone)", timeout=30)
    log(f"both pages resumed {time.time() - started:.1f}s after the restart began")
    check_turn(a, b, word, [p1])
    no_repeated_lines((a, b), "after SIGKILL and restart")
    log("after SIGKILL: room, word, mask and canvas are back, no chat line twice")

    # drawing goes on after the resume
    draw_stroke(a, 0.5, 0.2, 0.5, 0.8)
    p2 = (int(0.5 * w), int(0.3 * h))
    b.wait(lambda: b.ink_near(*p2, 4), "a new stroke relayed after the resume")
    a.wait(lambda: committed_strokes(server.db) >= 2, "the second stroke committed", timeout=10)

    # ---- SIGTERM: drain with 1012, exit 0, restart
    server.signal(signal.SIGTERM)
    for p in (a, b):
        p.wait(lambda p=p: 1012 in closes(p), "close code 1012 on SIGTERM")
        p.wait(lambda p=p: p.visible("#banner") and "restarting" in (p.text("#banner-text") or ""),
               "the 'server is restarting' banner")
    status_code = server.wait_exit()
    if status_code != 0:
        raise Failure(f"the server exited with status {status_code} after SIGTERM (expected 0)")
    log("drain: 1012 on both pages, server exit status 0")
    server.start()
    for p, pid in ((a, a_id), (b, b_id)):
        p.wait(lambda p=p, pid=pid: resumed(p, code, pid), "an automatic resume after the drain", timeout=30)
    check_turn(a, b, word, [p1, p2])
    no_repeated_lines((a, b), "after SIGTERM and restart")
    log("after SIGTERM: room, word, mask and both strokes are back, no chat line twice")

    # ---- the game goes on: the guess ends the turn
    b.type_into("#chat-input", word, enter=True)
    b.wait(lambda: b.visible("#overlay-turnend"), "turn end after the correct guess")
    if (b.text("#turnend-word") or "").strip().lower() != word.lower():
        raise Failure(f"turn-end reveals {b.text('#turnend-word')!r}, expected {word!r}")
    log("correct guess after two restarts ends the turn")


def main():
    if "--mock" in sys.argv:
        print("e2e_restart: needs the real server (persistence)", file=sys.stderr)
        return 2
    e2e.install_signal_handlers()
    server = e2e.ServerProcess()
    pages = []
    try:
        server.start()
        run(server, pages)
        log("PASS")
        return 0
    except Failure as e:
        return e2e.report_failure("e2e_restart", e, pages, server, tail_chars=3000)
    finally:
        e2e.quit_all(pages)
        server.stop()


if __name__ == "__main__":
    sys.exit(main())
