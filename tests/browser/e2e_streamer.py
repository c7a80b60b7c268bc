#!/usr/bin/env python3
"""End-to-end checks of streamer mode (issue 36, docs/PROTOCOL.md 12.2, docs/CLIENT.md)
against the real server:

  the host creates a PUBLIC room (listed in a third browser's lobby and in GET /api/rooms),
  adds a server bot, and turns streamer mode on in the settings editor: the room leaves the
  lobby list and GET /api/rooms; a guest who follows the invite link on a phone (the URL is
  cleaned at once) sees the code as dots in the header, the "You are in" line and nowhere
  else, a badge instead of "Public", the setting ticked but read-only, no reveal button and
  no invite button, and a click on the hidden reveal button changes nothing; on neither
  screen does any player id show (visible text with the account menu open, title and
  aria-label attributes, the page title, the URL). The host's eye shows the code and hides
  it again (the guest's stays dots); "Copy invite link" copies the real link without
  showing it, and a failed copy says so without printing the link. Turned off, everything
  comes back live and the room is listed again. A room created with the box ticked in the
  create form starts hidden.

SAVE_SCREENSHOTS=1 writes docs/screenshots/streamer-host-1280.png and streamer-guest-390.png.
Usage: DRAWSERVER_BIN=.build/debug/drawserver python3 tests/browser/e2e_streamer.py
"""
import json
import os
import sys
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e  # noqa: E402
from e2e import Failure, log  # noqa: E402
from e2e_party import start_session  # noqa: E402
from e2e_polish import fresh_page, rows  # noqa: E402

MASK = "\u2022" * 6
STREAMER = "[data-settings=room] [data-key=streamer]"

# Everything a person could read on the page: the visible text, every title and aria-label
# (tooltips and what a screen reader says), the page title and the address.
SCREEN_JS = """
const attrs = [...document.querySelectorAll('[title], [aria-label]')]
  .map((e) => `${e.getAttribute('title') || ''} ${e.getAttribute('aria-label') || ''}`);
return { text: document.body.innerText, attrs: attrs.join('\\n'), title: document.title, url: location.href };
"""


def api_rooms(base):
    with urllib.request.urlopen(base + "/api/rooms", timeout=5) as r:
        return [room["code"] for room in json.loads(r.read())]


def listed(p, code):
    """Whether the lobby page lists `code` (after asking for a fresh list)."""
    p.click("#rooms-refresh")
    return p.js("return !!document.querySelector(`#room-list [data-code='${arguments[0]}']`)", code)


def ids_of(p):
    return p.js("const s = window.drawserverClient.state; return [s.meId, ...(s.room?.players || []).map((x) => x.id)];")


def on_screen(p, secrets, what):
    """None of `secrets` is readable on p's screen; the account menu is opened for the check."""
    p.js("document.getElementById('me-menu').hidden = false")
    if not p.visible("#me-id"):
        raise Failure(f"[{p.label}] the account menu did not open")
    s = p.js(SCREEN_JS)
    p.js("document.getElementById('me-menu').hidden = true")
    found = [(x, where) for x in secrets for where in ("text", "attrs", "title", "url") if x and x in s[where]]
    if found:
        raise Failure(f"[{p.label}] {what}: shown on screen: {found}")


def masked(p):
    return p.text("#room-code") == MASK


def setup(base, pages):
    host = fresh_page("host", base, (1280, 720))
    pages.append(host)
    start_session(host, base, "Streamer Sam")
    if not host.js("return !!document.querySelector('#create-form [data-key=streamer]')"):
        raise Failure("the create form has no streamer mode box")
    code = e2e.create_room(host, "Sam's stream", public=True)
    host.click("#add-bot")
    host.wait(lambda: rows(host) == 2, "a server bot seated")
    lurker = fresh_page("lurker", base, (1280, 720))
    pages.append(lurker)
    start_session(lurker, base, "Lurker")
    lurker.wait(lambda: listed(lurker, code), "the public room in the third browser's list")
    if code not in api_rooms(base):
        raise Failure("the public room is not in GET /api/rooms")
    log(f"public room {code}: in the lobby list and GET /api/rooms")
    return host, lurker, code


def turn_on(host, lurker, base, code):
    host.wait(lambda: host.visible(STREAMER) and host.visible("[data-settings=room] .field-streamer .field-hint"), "the streamer box and its hint")
    host.click(STREAMER)
    host.click("#settings-save")
    host.wait(lambda: masked(host), "the host's code masked")
    if not host.visible("#streamer-badge") or host.visible("#room-visibility"):
        raise Failure("the host sees no streamer badge, or still 'Public'")
    if not host.visible("#code-reveal") or not host.visible("#copy-invite"):
        raise Failure("the host has no reveal button or no invite button")
    lurker.wait(lambda: not listed(lurker, code), "the room gone from the third browser's list")
    if code in api_rooms(base):
        raise Failure("a streamer's room is in GET /api/rooms")
    log("streamer mode on: the host's code is dots; the room is listed nowhere")


def guest_joins(base, pages, code):
    g = fresh_page("guest", base, (390, 844), mobile=True)
    pages.append(g)
    g.d.get(f"{base}/?room={code}")
    g.wait(lambda: g.visible("#name-input"), "the nickname screen of the invite link")
    if g.js("return location.search") != "":
        raise Failure(f"the invite link stays in the address: {g.js('return location.href')}")
    g.type_into("#name-input", "Guest Gil", enter=True)
    g.wait(lambda: g.visible("#screen-room"), "the guest in the room by the invite link")
    g.wait(lambda: masked(g), "the guest's code masked")
    problems = []
    if not g.visible("#streamer-badge") or g.visible("#room-visibility"):
        problems.append("no badge, or 'Public' shown")
    if g.visible("#code-reveal"):
        problems.append("a reveal button for a guest")
    if g.visible("#copy-invite"):
        problems.append("an invite button for a guest")
    if not g.js(f"const b = document.querySelector('{STREAMER}'); return b.checked && b.disabled"):
        problems.append("the streamer box is not shown ticked and read-only")
    if problems:
        raise Failure("[guest] " + "; ".join(problems))
    g.js("document.getElementById('code-reveal').click()")  # a forced click: nothing happens
    if not masked(g):
        raise Failure("a guest revealed the code")
    you_are_in = g.js("return document.querySelector('#chat-log .chat-line[data-key=\"chat.youAreIn\"]')?.textContent")
    if not you_are_in or MASK not in you_are_in:
        raise Failure(f"the 'You are in' line does not mask the code: {you_are_in!r}")
    log("guest (phone, invite link): code masked, badge, no reveal, no invite, address cleaned")
    return g


def nothing_leaks(host, g, code):
    ids = sorted(set(ids_of(host)) | set(ids_of(g)))
    if len(ids) != 3 or not all(ids):
        raise Failure(f"expected three player ids, got {ids}")
    on_screen(g, ids + [code], "the guest's screen")
    on_screen(host, ids + [code], "the host's screen")
    if host.text("#me-id") != MASK:
        raise Failure(f"the host's own id shows: {host.text('#me-id')!r}")
    log(f"no player id ({', '.join(ids)}) and no code on either screen (text, titles, labels, title, URL)")


def reveal_and_copy(host, g, code, base):
    host.click("#code-reveal")
    host.wait(lambda: host.text("#room-code") == code, "the host's code revealed")
    if host.js("return document.getElementById('code-reveal').getAttribute('aria-pressed')") != "true":
        raise Failure("the reveal button is not pressed")
    line = host.js("return document.querySelector('#chat-log .code-ref')?.textContent")
    if line != code:
        raise Failure(f"the chat line's code does not follow the reveal: {line!r}")
    if not masked(g):
        raise Failure("the host's reveal showed the guest the code")
    host.click("#code-reveal")
    host.wait(lambda: masked(host), "the host's code hidden again")
    log("host: the eye shows the code and hides it again; the guest's stays dots")

    # copy the invite without revealing: the real link, a toast without it
    host.js("""window.__copied = null;
        navigator.clipboard.writeText = (t) => { window.__copied = t; return Promise.resolve(); };""")
    host.click("#copy-invite")
    host.wait(lambda: host.js("return window.__copied") is not None, "the invite link copied")
    if host.js("return window.__copied") != f"{base}/?room={code}":
        raise Failure(f"copied {host.js('return window.__copied')!r}")
    toasts = host.js("return document.getElementById('toasts').innerText")
    if code in toasts or not masked(host):
        raise Failure(f"copying showed the code: toast {toasts!r}, header {host.text('#room-code')!r}")
    # a failed copy (no clipboard, no execCommand) says so, without printing the link
    host.js("""navigator.clipboard.writeText = () => Promise.reject(new Error('denied'));
        document.execCommand = () => false;""")
    host.click("#copy-invite")
    host.wait(lambda: "Could not copy" in host.js("return document.getElementById('toasts').innerText"), "the copy failure toast")
    if code in host.js("return document.getElementById('toasts').innerText"):
        raise Failure("a failed copy printed the invite link")
    log("host: Copy invite link copies the real link, masked; a failed copy does not print it")


def turn_off(host, g, lurker, base, code):
    host.js("document.getElementById('toasts').replaceChildren()")
    host.click(STREAMER)
    host.click("#settings-save")
    for p in (host, g):
        p.wait(lambda: p.text("#room-code") == code, f"[{p.label}] the code back")
        if p.visible("#streamer-badge") or not p.visible("#room-visibility") or p.visible("#code-reveal"):
            raise Failure(f"[{p.label}] streamer mode off, but the badge or the reveal stays, or no 'Public'")
        if p.text("#me-id") != p.js("return window.drawserverClient.state.meId"):
            raise Failure(f"[{p.label}] the own id does not come back")
    if g.js("return document.querySelector('#chat-log .code-ref')?.textContent") != code:
        raise Failure("the guest's 'You are in' line keeps the dots")
    # the phone's header hides the invite button only during a game; here it is back
    if not g.visible("#copy-invite"):
        raise Failure("the guest has no invite button after streamer mode")
    lurker.wait(lambda: listed(lurker, code), "the room back in the third browser's list")
    if code not in api_rooms(base):
        raise Failure("the room is not back in GET /api/rooms")
    log("streamer mode off: code, id, 'Public' and invite back live; listed again")


def created_streaming(lurker, base):
    lurker.js("document.querySelector('#create-form details').open = true")
    lurker.click("#create-form [data-key=streamer]")
    e2e.create_room(lurker, "", public=True)
    lurker.wait(lambda: masked(lurker), "a room created in streamer mode starts masked")
    code = lurker.js("return window.drawserverClient.state.room.code")
    if code in api_rooms(base):
        raise Failure("a room created in streamer mode is listed")
    on_screen(lurker, [code, lurker.js("return window.drawserverClient.state.meId")], "a room created in streamer mode")
    log("a room created with the box ticked: masked from the start, not listed")


def main():
    e2e.install_signal_handlers()
    server = e2e.ServerProcess()
    pages = []
    try:
        server.start()
        base = server.base
        host, lurker, code = setup(base, pages)
        turn_on(host, lurker, base, code)
        g = guest_joins(base, pages, code)
        nothing_leaks(host, g, code)
        host.screenshot("streamer-host-1280")
        g.screenshot("streamer-guest-390")
        reveal_and_copy(host, g, code, base)
        turn_off(host, g, lurker, base, code)
        created_streaming(lurker, base)
        log("PASS")
        return 0
    except Failure as e:
        return e2e.report_failure("e2e_streamer", e, pages, server)
    finally:
        e2e.quit_all(pages)
        server.stop()


if __name__ == "__main__":
    sys.exit(main())
