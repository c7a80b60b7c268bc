#!/usr/bin/env python3
"""End-to-end checks of pen pressure (issue 36 §3, protocol 12.4) against the real server
(same setup as e2e.py), two browsers at 1280 x 900, the first one draws:

  a pen without a pressure sensor (CDP Input.dispatchMouseEvent with pointerType "pen" and
  a constant force 0.5) draws a uniform stroke sent as BEGIN/POINTS; a pen whose pressure
  grows from 0.05 to 1 along a horizontal stroke is sent as PRESSURE_BEGIN/PRESSURE_POINTS
  and the GUESSER's canvas shows it tapered: its thickness (read with getImageData) near the
  thin end is far less than near the thick end; a mouse stroke stays uniform and without
  pressure; an eraser with pen pressure erases a tapered band; undo of the last stroke
  leaves the tapered ones exactly as they were; the guesser's canvas equals the drawer's
  pixel for pixel; a reload of the guesser (the server's canvas replay) gives the same
  pixels again. The toolbar's pressure switch is hidden until the pen shows pressure,
  then on (the toolbar still one row); switched off, the pen draws without pressure, and
  the choice is remembered in localStorage.
  phone (390 x 844, touch through CDP Input.dispatchTouchEvent with a varying `force`): a
  finger with a constant force 1 draws a uniform stroke without pressure; a finger whose
  force stays at 1 for a few points, then grows (its stroke held back 150 ms, then sent
  as BEGIN, POINTS and PRESSURE_POINTS) arrives tapered on the guesser, equal to the
  drawer's board.

SAVE_SCREENSHOTS=1 writes docs/screenshots/pressure.png (the guesser's page) and
pressure-drawer.png (the drawer's, with the switch in the toolbar).
Usage: DRAWSERVER_BIN=.build/debug/drawserver python3 tests/browser/e2e_pressure.py
"""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e  # noqa: E402
from e2e import Failure, Page, log, make_driver  # noqa: E402
from e2e_tools import RASTER_HASH_JS, TOOLBAR_ROW_JS, items, mouse_drag, pick_colour, set_viewport  # noqa: E402
from e2e_tools import Touch  # noqa: E402

BLUE, RED, GREEN, PURPLE = 12, 5, 9, 14  # palette indices

# The ink thickness of the board across the column x (or the row y) near a point: the
# longest run of non-white pixels through it, from the visible <canvas>.
THICKNESS_JS = """
const [id, x, y, vertical] = arguments;
const c = document.getElementById(id);
const n = vertical ? c.height : c.width;
const d = vertical ? c.getContext('2d').getImageData(x, 0, 1, n).data : c.getContext('2d').getImageData(0, y, n, 1).data;
const ink = (i) => d[4 * i] < 235 || d[4 * i + 1] < 235 || d[4 * i + 2] < 235;
let at = vertical ? y : x;
if (!ink(at)) {
  let k = 1;
  while (k < 6 && !ink(at - k) && !ink(at + k)) k++;
  if (k === 6) return 0;
  at = ink(at - k) ? at - k : at + k;
}
let a = at, b = at;
while (a > 0 && ink(a - 1)) a--;
while (b < n - 1 && ink(b + 1)) b++;
return b - a + 1;
"""


def thickness(p, x, y):
    """Vertical extent of the ink through (x, y): the width of a horizontal stroke there."""
    return p.js(THICKNESS_JS, "board", x, y, True)


def last_item(p):
    return p.js("""const it = window.drawserverClient.board.model.items;
        const s = it[it.length - 1]; return s ? {kind: s.kind, n: s.points && s.points.length / 2, pressures: s.pressures || null} : null;""")


class Pen:
    """A pen on a page through CDP (Input.dispatchMouseEvent with pointerType "pen")."""

    def __init__(self, page):
        self.p = page

    def _send(self, typ, x, y, force, pressed):
        ev = {"type": typ, "x": x, "y": y, "pointerType": "pen", "force": force,
              "button": "left" if typ != "mouseMoved" or pressed else "none", "buttons": 1 if pressed else 0}
        if typ in ("mousePressed", "mouseReleased"):
            ev["clickCount"] = 1
        self.p.d.execute_cdp_cmd("Input.dispatchMouseEvent", ev)

    def stroke(self, pts):
        """pts: [(client x, client y, pressure), ...]"""
        x, y, f = pts[0]
        self._send("mouseMoved", x, y, 0, False)
        self._send("mousePressed", x, y, f, True)
        for x, y, f in pts[1:]:
            self._send("mouseMoved", x, y, f, True)
        self._send("mouseReleased", x, y, 0, False)


def client_at(p, fx, fy):
    """Client point of a fraction of the board."""
    left, top, w, h = p.js("const r=document.getElementById('board').getBoundingClientRect(); return [r.left, r.top, r.width, r.height]")
    return left + fx * w, top + fy * h


def logical_at(p, fx, fy):
    w, h = p.canvas_size()
    return int(fx * w), int(fy * h)


def pen_line(p, f0, f1, pressure, steps=40):
    """Client points from fraction f0 to f1 with pressure(t), t in 0..1."""
    (x0, y0), (x1, y1) = client_at(p, *f0), client_at(p, *f1)
    return [(x0 + (x1 - x0) * i / steps, y0 + (y1 - y0) * i / steps, pressure(i / steps)) for i in range(steps + 1)]


def start_turn(base, pages, size=(1280, 900), mobile=False, label=""):
    a = Page("drawer" + label, make_driver(), base)
    pages.append(a)
    b = Page("guesser" + label, make_driver(), base)
    pages.append(b)
    for p in (a, b):
        set_viewport(p, *size, mobile=mobile)
    e2e.seat_and_start_turn(a, b, base, "Ada", "Bea")
    b.wait(lambda: b.js("return window.drawserverClient.state.phase") == "drawing", "the guesser sees the turn")
    for p in (a, b):
        p.js("window.dispatchEvent(new Event('resize'))")
        p.js("document.getElementById('board').scrollIntoView({block: 'center'})")
    return a, b


def wait_items(a, b, n, what):
    a.wait(lambda: items(a) == n, f"{what} on the drawer's board ({n} items)", timeout=5)
    b.wait(lambda: items(b) == n, f"{what} on the guesser's board ({n} items)", timeout=8)


def flat_pen(a, b, pen):
    """A pen without a sensor (constant 0.5): BEGIN/POINTS, a uniform stroke."""
    pick_colour(a, GREEN)
    pen.stroke(pen_line(a, (0.15, 0.15), (0.85, 0.15), lambda t: 0.5))
    wait_items(a, b, 1, "the flat pen's stroke")
    for p in (a, b):
        it = last_item(p)
        if it["pressures"] is not None:
            raise Failure(f"[{p.label}] a pen with a constant 0.5 drew with pressure: {it}")
    y = logical_at(a, 0.5, 0.15)[1]
    t = [thickness(b, logical_at(a, fx, 0)[0], y) for fx in (0.25, 0.5, 0.75)]
    if max(t) - min(t) > 1 or not 15 <= min(t) <= 18:
        raise Failure(f"the flat pen's stroke (width 16) is not uniform on the guesser: {t}")
    log(f"a pen at a constant 0.5: BEGIN/POINTS, uniform {t} px on the guesser: ok")


def tapered_pen(a, b, pen):
    """Pressure from 0.05 to 1 along a horizontal stroke: tapered on the guesser."""
    a.click('#widths [aria-label="Width 32"]')
    pick_colour(a, BLUE)
    pen.stroke(pen_line(a, (0.15, 0.35), (0.85, 0.35), lambda t: 0.05 + 0.95 * t))
    wait_items(a, b, 2, "the pressure stroke")
    for p in (a, b):
        it = last_item(p)
        ps = it["pressures"]
        # (the browser may merge the last moves before the release: the end is not exactly 1)
        if not ps or len(ps) != it["n"] or not (ps[0] < 60 and max(ps) > 220 and ps == sorted(ps)):
            raise Failure(f"[{p.label}] the pen stroke has no growing pressure: {it}")
    y = logical_at(a, 0.5, 0.35)[1]
    thin_x, thick_x = logical_at(a, 0.22, 0)[0], logical_at(a, 0.78, 0)[0]
    b.wait(lambda: thickness(b, thick_x, y) > 0, "the tapered stroke's thick end on the guesser")
    thin, mid, thick = thickness(b, thin_x, y), thickness(b, logical_at(a, 0.5, 0)[0], y), thickness(b, thick_x, y)
    # p = 255 * (0.15 + 0.85 * pressure) of width 32: about 8 px at 10 % of the way, 29 px at 90 %
    if not (thin <= 13 and thick >= 24 and thick >= 2 * thin and thin < mid < thick):
        raise Failure(f"the pressure stroke is not tapered on the guesser: thin {thin}, middle {mid}, thick {thick}")
    log(f"a pen with pressure 0.05 -> 1: PRESSURE_BEGIN/POINTS, {thin} -> {mid} -> {thick} px on the guesser: ok")
    return thin, thick


def mouse_stroke(a, b):
    """A mouse stroke stays uniform and without pressure."""
    pick_colour(a, RED)
    a.click('#widths [aria-label="Width 16"]')
    mouse_drag(a, [(0.15, 0.55), (0.5, 0.55), (0.85, 0.55)])
    wait_items(a, b, 3, "the mouse stroke")
    for p in (a, b):
        if last_item(p)["pressures"] is not None:
            raise Failure(f"[{p.label}] a mouse stroke has pressure")
    y = logical_at(a, 0.5, 0.55)[1]
    t = [thickness(b, logical_at(a, fx, 0)[0], y) for fx in (0.25, 0.5, 0.75)]
    if max(t) - min(t) > 1 or not 15 <= min(t) <= 18:
        raise Failure(f"the mouse stroke (width 16) is not uniform on the guesser: {t}")
    log(f"a mouse stroke: BEGIN/POINTS, uniform {t} px on the guesser: ok")


def decorate(a, b, pen):
    """A few pressure strokes for the screenshot: a wave and a pressure eraser."""
    a.click('#widths [aria-label="Width 48"]')
    pick_colour(a, PURPLE)
    wave = []
    for i in range(61):
        t = i / 60
        fx, fy = 0.1 + 0.8 * t, 0.78 + 0.08 * math.sin(t * 4 * math.pi)
        wave.append((*client_at(a, fx, fy), 0.1 + 0.9 * abs(math.sin(t * 3 * math.pi))))
    pen.stroke(wave)
    wait_items(a, b, 4, "the wave")
    # a pressure eraser across the tapered stroke's thick half
    a.click('#toolbar button[data-tool="eraser"]')
    a.click('#widths [aria-label="Width 32"]')
    pen.stroke(pen_line(a, (0.7, 0.25), (0.7, 0.45), lambda t: 0.1 + 0.9 * math.sin(t * math.pi), steps=20))
    wait_items(a, b, 5, "the pressure eraser")
    x, y = logical_at(a, 0.7, 0.35)
    b.wait(lambda: b.pixel(x, y) == [255, 255, 255], "the eraser's white across the blue stroke on the guesser", timeout=8)
    if last_item(b)["pressures"] is None:
        raise Failure("the eraser stroke has no pressure on the guesser")
    log("a pen eraser with pressure erases on the guesser: ok")


def pressure_switch(a):
    return a.js("const b = document.getElementById('tool-pressure'); return [!b.closest('[hidden]') && b.getClientRects().length > 0, b.getAttribute('aria-pressed'), localStorage.getItem('drawserver.pressure')]")


def switch_off(a, b, pen):
    """The switch turns pressure off: a pen with a varying pressure draws a uniform stroke."""
    a.click("#tool-pressure")
    if pressure_switch(a) != [True, "false", "off"]:
        raise Failure(f"the pressure switch after a click: {pressure_switch(a)}")
    a.click('#toolbar button[data-tool="pen"]')
    pick_colour(a, RED)
    a.click('#widths [aria-label="Width 16"]')
    n = items(a)
    pen.stroke(pen_line(a, (0.15, 0.65), (0.85, 0.65), lambda t: 0.05 + 0.95 * t))
    wait_items(a, b, n + 1, "the pen stroke with the switch off")
    if last_item(b)["pressures"] is not None:
        raise Failure("with the switch off a pen stroke has pressure")
    y = logical_at(a, 0.5, 0.65)[1]
    t = [thickness(b, logical_at(a, fx, 0)[0], y) for fx in (0.25, 0.75)]
    if t[0] != t[1]:
        raise Failure(f"with the switch off the pen stroke is not uniform: {t}")
    a.click("#tool-pressure")
    if pressure_switch(a) != [True, "true", "on"]:
        raise Failure(f"the pressure switch after a second click: {pressure_switch(a)}")
    log(f"the switch off: a pressure pen draws a uniform {t[0]} px stroke; on again, remembered: ok")


def pressure(base, pages):
    a, b = start_turn(base, pages)
    pen = Pen(a)
    a.js("localStorage.removeItem('drawserver.pressure')")
    a.click('#widths [aria-label="Width 16"]')
    flat_pen(a, b, pen)
    if pressure_switch(a)[0]:
        raise Failure("the pressure switch shows before any pointer had pressure")
    thin, thick = tapered_pen(a, b, pen)
    if pressure_switch(a) != [True, "true", "on"]:
        raise Failure(f"the pressure switch after a pressure stroke (shown, pressed, stored): {pressure_switch(a)}")
    row = a.js(TOOLBAR_ROW_JS)
    if not row["oneRow"] or row["overflow"]:
        raise Failure(f"the toolbar with the pressure switch is not one row at 1280 px: {row}")
    log("the pressure switch appears (on) with the first pressure stroke, toolbar one row: ok")
    mouse_stroke(a, b)
    decorate(a, b, pen)
    a.wait(lambda: a.js(RASTER_HASH_JS) == b.js(RASTER_HASH_JS), "the guesser's canvas pixel for pixel the drawer's", timeout=8)
    log("the guesser's canvas equals the drawer's: ok")
    b.screenshot("pressure")
    a.screenshot("pressure-drawer")

    # undo the eraser: the tapered stroke is whole again, the same on both pages
    a.click("#tool-undo")
    wait_items(a, b, 4, "the undo")
    y = logical_at(a, 0.5, 0.35)[1]
    thin_x, thick_x = logical_at(a, 0.22, 0)[0], logical_at(a, 0.78, 0)[0]
    again = (thickness(b, thin_x, y), thickness(b, thick_x, y))
    if again != (thin, thick):
        raise Failure(f"after an undo the tapered stroke is {again}, was {(thin, thick)}")
    a.wait(lambda: a.js(RASTER_HASH_JS) == b.js(RASTER_HASH_JS), "the guesser's canvas equal to the drawer's after the undo", timeout=8)
    log("undo redraws the tapered strokes unchanged: ok")

    # the guesser reloads: the server's canvas replay carries the pressure operations
    want = a.js(RASTER_HASH_JS)
    b.d.refresh()
    b.wait(lambda: b.js("return !!window.drawserverClient && window.drawserverClient.state.phase") == "drawing", "the guesser back in the turn", timeout=20)
    b.wait(lambda: b.js(RASTER_HASH_JS) == want, "the replayed canvas pixel for pixel the drawer's", timeout=15)
    if not any(b.js("return window.drawserverClient.board.model.items.map((s) => !!s.pressures)")):
        raise Failure("the replayed canvas has no pressure stroke")
    log("the canvas replay after a reload has the same tapered strokes: ok")
    switch_off(a, b, pen)


class PressureTouch(Touch):
    """One finger through CDP whose force (PointerEvent.pressure) follows the stroke."""

    force = 1.0

    def _send(self, typ):
        pts = [{"x": x, "y": y, "id": i, "radiusX": 4, "radiusY": 4, "force": self.force} for i, (x, y) in sorted(self.down.items())]
        self.p.d.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": typ, "touchPoints": pts if typ != "touchEnd" else []})

    def pressure_stroke(self, pts):
        """pts: [(client x, client y, force), ...]"""
        for i, (x, y, f) in enumerate(pts):
            self.force = f
            if i == 0:
                self.start(f0=(x, y))
            else:
                self.move(f0=(x, y))
        self.lift()


def phone(base, pages):
    a, b = start_turn(base, pages, (390, 844), mobile=True, label="-390")
    t = PressureTouch(a)
    a.click('#widths [aria-label="Width 32"]')
    pick_colour(a, BLUE)
    # first a finger with a constant force 1 (no sensor: no pressure), then one whose force grows
    t.pressure_stroke(pen_line(a, (0.1, 0.6), (0.9, 0.6), lambda u: 1.0, steps=30))
    wait_items(a, b, 1, "the finger's flat stroke")
    if last_item(b)["pressures"] is not None:
        raise Failure("a finger with a constant force 1 drew with pressure")
    y = logical_at(a, 0.5, 0.6)[1]
    flat = [thickness(b, logical_at(a, fx, 0)[0], y) for fx in (0.2, 0.5, 0.8)]
    if max(flat) - min(flat) > 1 or not 31 <= min(flat) <= 34:
        raise Failure(f"the finger's flat stroke (width 32) is not uniform on the guesser: {flat}")
    # the force stays at 1 for the first points (sent as BEGIN/POINTS), then varies: the
    # rest of the stroke is PRESSURE_POINTS (one stroke mixes both)
    t.pressure_stroke(pen_line(a, (0.1, 0.3), (0.9, 0.3), lambda u: 1.0 if u < 0.1 else 0.05 + 0.95 * (u - 0.1) / 0.9, steps=30))
    wait_items(a, b, 2, "the finger's pressure stroke")
    it = last_item(b)
    ps = it["pressures"] or []
    if not (ps[:3] == [255, 255, 255] and min(ps) < 60 and max(ps[3:]) > 200 and ps[3:] == sorted(ps[3:])):
        raise Failure(f"the finger's stroke is not full width, then growing pressure on the guesser: {it}")
    y = logical_at(a, 0.5, 0.3)[1]
    thin, thick = thickness(b, logical_at(a, 0.25, 0)[0], y), thickness(b, logical_at(a, 0.82, 0)[0], y)
    if not (thin <= 13 and thick >= 24):
        raise Failure(f"the finger's pressure stroke is not tapered on the guesser: {thin} -> {thick}")
    a.wait(lambda: a.js(RASTER_HASH_JS) == b.js(RASTER_HASH_JS), "the guesser's canvas pixel for pixel the drawer's", timeout=8)
    log(f"phone: a finger's pressure tapers {thin} -> {thick} px, a constant force 1 stays {flat}: ok")


def main():
    return e2e.run_suite("e2e_pressure", [pressure, phone])


if __name__ == "__main__":
    sys.exit(main())
