#!/usr/bin/env python3
"""End-to-end test of the browser client against a real drawserver.

Starts `$DRAWSERVER_BIN serve --port <free> --db <tmp> --seed 7 --web-root web-static
--max-connections-per-ip 0 --ip-room-rate 1000/60s` in place (the binary needs its
resources folder next to it), waits for GET /readyz, then drives two headless Chromium
sessions (protocol bots only fill the public room list):

  the lobby lists the public rooms; create + join a room (the second player through the
  invite link), both ready, the drawer picks a word and draws strokes with real pointer
  input, the guesser sees the ink at the same logical place (getImageData), an HTML chat
  payload is shown as text and creates no element and runs nothing, a reload of the only
  guesser mid-turn restores the room, the mask and the canvas (and the turn goes on), the
  guesser types the word and gets the correct-guess mark, the turn ends with the reveal.

Environment:
  DRAWSERVER_BIN    server binary (default .build/debug/drawserver)
  SAVE_SCREENSHOTS  1: save key screens to docs/screenshots/*.png
  E2E_HEADFUL       1: show the browsers
  CHROMIUM_BIN / CHROMEDRIVER_BIN  override /usr/bin/chromium and /usr/bin/chromedriver
Options:
  --mock            use tests/browser/mock_server.py instead of the real server
                    (client development only; not a substitute for the real test)

Needs: apt-get install -y chromium chromium-driver; pip install selenium
Exit status 0 on success, 1 on a failed check (with a clear message), 2 on setup errors.
"""
import argparse
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import urllib.error
import urllib.request

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
WEB_ROOT = os.path.join(REPO, "web-static")
SHOTS_DIR = os.environ.get("SCREENSHOTS_DIR") or os.path.join(REPO, "docs", "screenshots")
XSS = "<img src=x onerror=alert(1)>"

try:
    from selenium import webdriver
    from selenium.common.exceptions import StaleElementReferenceException, TimeoutException, WebDriverException
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import WebDriverWait
except ImportError:  # pragma: no cover
    print("e2e: selenium is not installed (pip install selenium)", file=sys.stderr)
    sys.exit(2)
try:
    from websockets.sync.client import connect as ws_connect
except ImportError:  # pragma: no cover
    print("e2e: websockets is not installed (pip install websockets)", file=sys.stderr)
    sys.exit(2)


class Failure(Exception):
    pass


def log(*args):
    print("e2e:", *args, flush=True)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# --------------------------------------------------------------------- server

class ServerProcess:
    """The real server (or the mock), started in place from the build folder (the binary
    needs its `drawserver_Rooms.resources` next to it) in its own process group.

    `start()` waits for GET /readyz (database loaded); `signal()` / `wait_exit()` and
    `start()` again (same port, same database) let a test crash or drain and restart it."""

    def __init__(self, mock=False, extra=None):
        self.mock = mock
        self.extra = list(extra or [])
        self.proc = None
        self.tmp = tempfile.mkdtemp(prefix="drawserver-e2e-")
        self.db = os.path.join(self.tmp, "e2e.sqlite")
        self.port = None
        self.starts = 0
        self.stdout_path = os.path.join(self.tmp, "server.out")
        self.stderr_path = os.path.join(self.tmp, "server.err")

    @property
    def base(self):
        return f"http://127.0.0.1:{self.port}"

    def _spawn(self, argv):
        log("starting:", " ".join(argv))
        out = open(self.stdout_path, "ab")
        err = open(self.stderr_path, "ab")
        self.proc = subprocess.Popen(argv, cwd=REPO, stdout=out, stderr=err, stdin=subprocess.DEVNULL,
                                     start_new_session=True)
        out.close()
        err.close()
        # scripts/test.d/20-browser-e2e kills what is listed here if this process dies hard
        pidfile = os.environ.get("E2E_PIDFILE")
        if pidfile:
            with open(pidfile, "a") as f:
                f.write(f"{self.proc.pid}\n")

    def stderr_text(self):
        try:
            with open(self.stderr_path, "rb") as f:
                err = f.read().decode("utf-8", "replace")
            with open(self.stdout_path, "rb") as f:
                out = f.read().decode("utf-8", "replace")
            return (err + "\n" + out).strip()
        except OSError:
            return ""

    def start(self, timeout=60):
        self.starts += 1
        if self.mock:
            self.port = self.port or free_port()
            self._spawn([sys.executable, os.path.join(REPO, "tests", "browser", "mock_server.py"),
                         "--port", str(self.port), "--web-root", WEB_ROOT])
            self.wait_ready("/healthz", timeout)
            return
        binary = os.environ.get("DRAWSERVER_BIN", os.path.join(REPO, ".build", "debug", "drawserver"))
        if not os.path.isabs(binary):
            binary = os.path.join(REPO, binary)
        if not os.access(binary, os.X_OK):
            raise SystemExit(f"e2e: server binary not found or not executable: {binary} (set DRAWSERVER_BIN)")
        # the first start lets the server pick a free port (no race with other processes);
        # a restart reuses it. Every browser runs on 127.0.0.1: lift the per-IP caps.
        self._spawn([binary, "serve", "--port", str(self.port or 0), "--db", self.db, "--seed", "7",
                     "--web-root", WEB_ROOT, "--max-connections-per-ip", "0", "--ip-room-rate", "1000/60s",
                     *self.extra])
        if self.port is None:
            self.port = self.wait_port(timeout)
        self.wait_ready("/readyz", timeout)

    def wait_port(self, timeout):
        deadline = time.time() + timeout
        while time.time() < deadline:
            m = re.search(r"listening on 127\.0\.0\.1:(\d+)", self.stderr_text())
            if m:
                return int(m.group(1))
            if self.proc.poll() is not None:
                raise SystemExit(f"e2e: the server exited early (status {self.proc.returncode}):\n{self.stderr_text()[-3000:]}")
            time.sleep(0.05)
        raise SystemExit(f"e2e: the server did not log its port within {timeout}s")

    def answers(self, path):
        try:
            with urllib.request.urlopen(self.base + path, timeout=1) as r:
                return r.status == 200
        except (urllib.error.URLError, OSError):
            return False

    def wait_ready(self, path, timeout):
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise SystemExit(f"e2e: the server exited early (status {self.proc.returncode}):\n{self.stderr_text()[-3000:]}")
            if self.answers(path):
                log(f"server ready at {self.base} (GET {path} = 200)")
                return
            time.sleep(0.1)
        raise SystemExit(f"e2e: GET {path} did not answer 200 within {timeout}s")

    def signal(self, sig):
        log(f"sending {signal.Signals(sig).name} to the server (pid {self.proc.pid})")
        os.killpg(self.proc.pid, sig)

    def wait_exit(self, timeout=20):
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            raise Failure(f"the server did not exit within {timeout}s") from None

    def stop(self):
        if self.proc and self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGTERM)
                self.proc.wait(timeout=15)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                try:
                    os.killpg(self.proc.pid, signal.SIGKILL)
                    self.proc.wait(timeout=5)
                except (ProcessLookupError, subprocess.TimeoutExpired):
                    pass
        shutil.rmtree(self.tmp, ignore_errors=True)


# --------------------------------------------------------------------- protocol bot

class Bot:
    """A third player on a plain WebSocket. It keeps a guesser connected while the
    browser guesser reloads (otherwise "every connected guesser has guessed" is
    vacuously true and the server may end the turn), and checks the binary relay."""

    def __init__(self, base, name="Bot", avatar=None):
        self.url = base.replace("http://", "ws://") + "/ws"
        self._ctx = ws_connect(self.url, open_timeout=10, max_size=2 ** 20)
        self.ws = self._ctx.__enter__()
        self.messages = []
        self.frames = []
        self.lock = threading.Lock()
        hello = {"t": "hello", "name": name}
        if avatar is not None:
            hello["avatar"] = avatar
        self.ws.send(json.dumps(hello))
        self.thread = threading.Thread(target=self._reader, daemon=True)
        self.thread.start()
        self.welcome = self.wait_for("welcome")

    def _reader(self):
        try:
            for data in self.ws:
                with self.lock:
                    if isinstance(data, bytes):
                        self.frames.append(data)
                    else:
                        try:
                            self.messages.append(json.loads(data))
                        except ValueError:
                            pass
        except Exception:  # noqa: BLE001 - closed
            pass

    def send(self, obj):
        self.ws.send(json.dumps(obj))

    def send_frame(self, data):
        self.ws.send(bytes(data))

    def find(self, t, pred=lambda m: True):
        with self.lock:
            return [m for m in self.messages if m.get("t") == t and pred(m)]

    def wait_for(self, t, pred=lambda m: True, timeout=15, what=None):
        deadline = time.time() + timeout
        while time.time() < deadline:
            found = self.find(t, pred)
            if found:
                return found[-1]
            time.sleep(0.05)
        raise Failure(f"[bot] timed out after {timeout}s waiting for {what or repr(t)}")

    def close(self):
        try:
            self._ctx.__exit__(None, None, None)
        except Exception:  # noqa: BLE001
            pass


# --------------------------------------------------------------------- drawing frames (protocol 5.1)

def _uvarint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def _svarint(n):
    return _uvarint(((n << 1) ^ (n >> 31)) & 0xFFFFFFFF)


def stroke_frame(points, rgb=(0, 0, 0), width=8, eraser=False):
    """One binary frame with a whole stroke: BEGIN at the first point, POINTS, END."""
    (x0, y0), rest = points[0], points[1:]
    out = bytearray([0x01, 1 if eraser else 0, *rgb, width]) + _svarint(x0) + _svarint(y0)
    if rest:
        out += bytes([0x02]) + _uvarint(len(rest))
        px, py = x0, y0
        for x, y in rest:
            out += _svarint(x - px) + _svarint(y - py)
            px, py = x, y
    out.append(0x03)
    return bytes(out)


def polyline(*pts):
    """Points along straight segments, at most 12 px apart."""
    out = [pts[0]]
    for (x0, y0), (x1, y1) in zip(pts, pts[1:]):
        n = max(1, int(max(abs(x1 - x0), abs(y1 - y0)) / 12))
        out += [(round(x0 + (x1 - x0) * i / n), round(y0 + (y1 - y0) * i / n)) for i in range(1, n + 1)]
    return out


# --------------------------------------------------------------------- browsers

def make_driver(lang=None):
    """A headless Chromium; `lang` ("de", ...) sets the browser's languages (navigator.languages)."""
    opts = Options()
    opts.binary_location = os.environ.get("CHROMIUM_BIN", "/usr/bin/chromium")
    if lang:
        opts.add_argument(f"--lang={lang}")
        opts.add_experimental_option("prefs", {"intl.accept_languages": lang})
    if os.environ.get("E2E_HEADFUL") != "1":
        opts.add_argument("--headless=new")
    for a in ("--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--window-size=1280,1000",
              "--no-first-run", "--no-default-browser-check", "--disable-extensions",
              "--disable-background-timer-throttling", "--disable-renderer-backgrounding",
              "--disable-backgrounding-occluded-windows"):
        opts.add_argument(a)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = Service(executable_path=os.environ.get("CHROMEDRIVER_BIN", "/usr/bin/chromedriver"))
    d = webdriver.Chrome(service=service, options=opts)
    d.set_page_load_timeout(30)
    return d


class Page:
    """One player's browser."""

    def __init__(self, label, driver, base):
        self.label = label
        self.d = driver
        self.base = base

    def wait(self, cond, what, timeout=15):
        try:
            return WebDriverWait(self.d, timeout, poll_frequency=0.1).until(lambda d: cond())
        except TimeoutException:
            raise Failure(f"[{self.label}] timed out after {timeout}s waiting for: {what}") from None

    def js(self, script, *args):
        return self.d.execute_script(script, *args)

    def visible(self, css):
        return self.js("const e=document.querySelector(arguments[0]); return !!e && !e.closest('[hidden]') && e.getClientRects().length>0;", css)

    def text(self, css):
        return self.js("const e=document.querySelector(arguments[0]); return e ? e.textContent : null;", css)

    def click(self, css):
        # Found again when the page re-rendered it between the lookup and the click (a list
        # that reloads keeps the same items under new elements).
        for attempt in range(5):
            try:
                el = self.d.find_element(By.CSS_SELECTOR, css)
                self.d.execute_script("arguments[0].scrollIntoView({block:'center'})", el)
                el.click()
                return
            except StaleElementReferenceException:
                if attempt == 4:
                    raise
                time.sleep(0.1)

    def type_into(self, css, text, enter=False):
        el = self.d.find_element(By.CSS_SELECTOR, css)
        el.clear()
        el.send_keys(text)
        if enter:
            el.send_keys(Keys.ENTER)

    def pixel(self, x, y):
        return self.js("""
            const c = document.getElementById('board');
            const d = c.getContext('2d').getImageData(arguments[0], arguments[1], 1, 1).data;
            return [d[0], d[1], d[2]];""", x, y)

    def ink_near(self, x, y, radius=3, canvas="board"):
        """True if any pixel within radius of (x, y) (logical) of the canvas is not white."""
        return self.js("""
            const [x, y, r, id] = arguments;
            const c = document.getElementById(id);
            const d = c.getContext('2d').getImageData(x - r, y - r, 2 * r + 1, 2 * r + 1).data;
            for (let i = 0; i < d.length; i += 4) if (d[i] < 200 || d[i+1] < 200 || d[i+2] < 200) return true;
            return false;""", x, y, radius, canvas)

    def canvas_size(self):
        return self.js("const c=document.getElementById('board'); return [c.width, c.height];")

    def screenshot(self, name):
        if os.environ.get("SAVE_SCREENSHOTS") == "1":
            os.makedirs(SHOTS_DIR, exist_ok=True)
            path = os.path.join(SHOTS_DIR, f"{name}.png")
            self.js("window.scrollTo(0, 0)")
            # let finite CSS transitions/animations (overlay fade-in, toasts) settle first
            self.d.execute_async_script("""
                const done = arguments[arguments.length - 1];
                const running = document.getAnimations().filter((a) => a.effect && a.effect.getComputedTiming().endTime !== Infinity);
                Promise.all(running.map((a) => a.finished.catch(() => null))).then(() => requestAnimationFrame(() => done(true)));""")
            self.d.save_screenshot(path)
            log("saved", os.path.relpath(path, REPO))

    def console_errors(self):
        try:
            return [e for e in self.d.get_log("browser") if e.get("level") in ("SEVERE",)]
        except WebDriverException:
            return []

    def arm_alert_trap(self):
        self.js("window.__alerts = []; window.alert = (m) => window.__alerts.push(String(m));")

    def arm_dom_trap(self):
        """Records (in window.__added) every img/script/iframe/object/svg element added
        to the page from now on, and traps alert()."""
        self.arm_alert_trap()
        self.js("""
            window.__added = [];
            const bad = new Set(['IMG', 'SCRIPT', 'IFRAME', 'OBJECT', 'EMBED', 'svg']);
            new MutationObserver((records) => {
              for (const r of records) for (const n of r.addedNodes) {
                if (n.nodeType !== 1) continue;
                if (bad.has(n.tagName) && !n.closest('.toolbar, .icon')) window.__added.push(n.outerHTML.slice(0, 120));
                for (const m of n.querySelectorAll('img, script, iframe, object, embed')) window.__added.push(m.outerHTML.slice(0, 120));
              }
            }).observe(document.documentElement, { childList: true, subtree: true });""")

    def alerts(self):
        return self.js("return window.__alerts || [];")

    def confirm(self, accept=True, what="the in-page question"):
        """Answer the page's own question dialog (#confirm-dialog, not the native confirm());
        returns its text."""
        self.wait(lambda: self.js("return document.getElementById('confirm-dialog').open"), what, timeout=5)
        text = self.text("#confirm-text")
        self.click("#confirm-ok" if accept else "#confirm-cancel")
        self.wait(lambda: not self.js("return document.getElementById('confirm-dialog').open"), "the question closed", timeout=5)
        return text

    def my_id(self):
        return (self.text("#me-id") or "").strip()


def enter_name(p, name):
    p.wait(lambda: p.visible("#name-input"), "nickname screen")
    p.type_into("#name-input", name, enter=True)
    p.wait(lambda: p.my_id() != "", "welcome (own player id shown)")


def create_room(p, name="", public=True):
    """Create a room from the lobby form; returns its code."""
    p.wait(lambda: p.visible("#create-form"), "the create-room form")
    p.type_into("#create-name", name)
    p.click(f'#create-form input[name=visibility][value={"public" if public else "private"}]')
    p.click("#create-form button[type=submit]")
    p.wait(lambda: p.visible("#screen-room") and (p.text("#room-code") or "").strip() != "", "room view after create")
    return p.text("#room-code").strip()


def draw_stroke(p, fx0, fy0, fx1, fy1, steps=12):
    """A stroke with real mouse input from (fx0, fy0) to (fx1, fy1), in fractions of the
    canvas; waits until the drawer's own canvas shows it (local ink never waits)."""
    canvas = p.d.find_element(By.ID, "board")
    p.d.execute_script("arguments[0].scrollIntoView({block:'center'})", canvas)
    rw, rh = p.js("const r=document.getElementById('board').getBoundingClientRect(); return [r.width, r.height];")
    # offsets are from the element's centre
    x0, y0 = (fx0 - 0.5) * rw, (fy0 - 0.5) * rh
    x1, y1 = (fx1 - 0.5) * rw, (fy1 - 0.5) * rh
    chain = ActionChains(p.d, duration=20)
    chain.move_to_element_with_offset(canvas, int(x0), int(y0)).click_and_hold()
    px, py = int(x0), int(y0)
    for i in range(1, steps + 1):
        nx, ny = int(x0 + (x1 - x0) * i / steps), int(y0 + (y1 - y0) * i / steps)
        chain.move_by_offset(nx - px, ny - py)
        px, py = nx, ny
    chain.release().perform()
    w, h = p.canvas_size()
    mx, my = int((fx0 + fx1) / 2 * w), int((fy0 + fy1) / 2 * h)
    p.wait(lambda: p.ink_near(mx, my, 4), f"the stroke on {p.label}'s own canvas at ({mx},{my})", timeout=3)


# --------------------------------------------------------------------- harness plumbing

def install_signal_handlers():
    """SIGTERM/SIGHUP (from CI or a timeout) unwind like Ctrl-C, so every `finally`
    stops the browsers and the server."""
    def handler(signum, _frame):
        raise KeyboardInterrupt(f"signal {signum}")
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, handler)


def dump_failure(pages, prefix):
    for p in pages:
        try:
            path = os.path.join(tempfile.gettempdir(), f"{prefix}-failure-{p.label}.png")
            p.d.save_screenshot(path)
            log(f"[{p.label}] failure screenshot: {path}")
            for e in p.console_errors():
                log(f"[{p.label}] console:", e.get("message", "")[:500])
        except Exception:  # noqa: BLE001
            pass


def report_failure(suite, error, pages, server, tail_chars=2000):
    """A suite's failure: screenshots and console of every page, the error, and the end of
    the server's output. Returns the suite's exit status."""
    dump_failure(pages, suite.replace("_", "-"))
    print(f"{suite}: FAIL: {error}", file=sys.stderr)
    tail = server.stderr_text()[-tail_chars:]
    if tail:
        print(f"{suite}: server output (tail):\n" + tail, file=sys.stderr)
    return 1


def quit_all(pages):
    for p in pages:
        try:
            p.d.quit()
        except Exception:  # noqa: BLE001
            pass


class Checks:
    """Counts the assertions, so a suite ends with 'N passed, 0 failed' like the unit tests."""

    def __init__(self):
        self.passed = 0

    def ok(self, cond, what):
        if not cond:
            raise Failure(what)
        self.passed += 1


def run_suite(suite, scenarios, extra=None, checks=None, cleanup=None):
    """Runs a suite's scenarios in turn against one server, each with fresh browsers, and
    reports a failure the same way for every suite (with `checks`, how many passed).
    `cleanup` runs last, whatever happened. Returns the exit status."""
    install_signal_handlers()
    server = ServerProcess(extra=extra or [])
    pages = []
    try:
        server.start()
        for scenario in scenarios:
            quit_all(pages)
            pages.clear()
            scenario(server.base, pages)
        log("PASS")
        if checks:
            print(f"{suite}: {checks.passed} passed, 0 failed")
        return 0
    except Failure as e:
        code = report_failure(suite, e, pages, server)
        if checks:
            print(f"{suite}: {checks.passed} passed, 1 failed")
        return code
    finally:
        quit_all(pages)
        server.stop()
        if cleanup:
            cleanup()


def seat_and_start_turn(a, b, base, host, guest):
    """`a` creates a room as `host`, `b` joins it by link as `guest`, and `a` starts the game
    and chooses a word: `a` draws. Returns the room code."""
    a.d.get(base + "/")
    enter_name(a, host)
    a.click("#create-form button[type=submit]")
    a.wait(lambda: a.visible("#screen-room"), "room")
    code = a.text("#room-code")
    b.d.get(f"{base}/?room={code}")
    enter_name(b, guest)
    b.wait(lambda: b.visible("#screen-room"), f"{guest} in the room")
    a.click("#start-game")
    a.wait(lambda: a.visible("#overlay-choose"), "word choice")
    a.click(".word-choice")
    a.wait(lambda: a.visible("#toolbar"), "toolbar")
    return code


def scenery(base, bots):
    """Public rooms of protocol bots, so the lobby has a live room list to show."""
    rooms = []
    for host, guests, name in (("Erin", ["Frank", "Grace"], "Sketch club"), ("Heidi", [], "Doodle dojo")):
        h = Bot(base, host)
        bots.append(h)
        h.send({"t": "create", "name": name, "public": True})
        code = h.wait_for("room", what=f"{host}'s room")["code"]
        for g in guests:
            bot = Bot(base, g)
            bots.append(bot)
            bot.send({"t": "join", "code": code})
            bot.wait_for("room", lambda m, code=code: m.get("code") == code, what=f"{g} in {code}")
        rooms.append((code, 1 + len(guests)))
    return rooms


def run(base):
    a = b = None
    pages, bots = [], []
    try:
        a = Page("alice", make_driver(), base)
        pages.append(a)
        b = Page("bob", make_driver(), base)
        pages.append(b)
        others = scenery(base, bots)

        # ---- nickname and lobby (with the bots' public rooms listed)
        a.d.get(base + "/")
        a.wait(lambda: a.visible("#name-input"), "nickname screen")
        a.js("localStorage.clear(); sessionStorage.clear();")
        a.screenshot("nickname")
        enter_name(a, "Alice")
        a.wait(lambda: a.visible("#screen-lobby"), "lobby screen")
        for rcode, n in others:
            a.wait(lambda rcode=rcode: a.js(f"return !!document.querySelector('#room-list [data-code=\"{rcode}\"]')"),
                   f"public room {rcode} in the lobby list")
        a.screenshot("lobby")
        log("alice is in the lobby with id", a.my_id())

        # ---- create a room
        code = create_room(a, "Friday doodles")
        if not re.fullmatch(r"[ABCDEFGHJKLMNPQRSTUVWXYZ23456789]{6}", code):
            raise Failure(f"room code {code!r} is not 6 characters of the protocol alphabet")
        log("room created:", code)

        # ---- join through the invite link (lower-case to exercise normalisation)
        b.d.get(f"{base}/?room={code.lower()}")
        b.wait(lambda: b.visible("#name-input"), "nickname screen (invite link)")
        b.js("localStorage.clear(); sessionStorage.clear();")
        enter_name(b, "Bob")
        b.wait(lambda: b.visible("#screen-room") and (b.text("#room-code") or "").strip() == code, f"bob in room {code}")
        a.wait(lambda: a.js("return document.querySelectorAll('#player-list .player').length") == 2, "two players in alice's list")
        a_id, b_id = a.my_id(), b.my_id()
        if a_id == b_id:
            raise Failure("both players got the same id")

        # ---- ready up (bob first, so alice's page shows his ready mark)
        b.click("#ready-toggle")
        a.wait(lambda: a.js("return !!document.querySelector('#player-list .player[data-id=\"' + arguments[0] + '\"] .mark-ready')", b_id),
               "bob's ready mark on alice's page")
        a.screenshot("room-lobby")
        a.click("#ready-toggle")
        log("both ready; waiting for the word choice")
        drawer = guesser = None

        def who_chooses():
            nonlocal drawer, guesser
            if a.visible("#overlay-choose") and a.js("return document.querySelectorAll('.word-choice').length") > 0:
                drawer, guesser = a, b
            elif b.visible("#overlay-choose") and b.js("return document.querySelectorAll('.word-choice').length") > 0:
                drawer, guesser = b, a
            return drawer is not None
        a.wait(who_chooses, "a word-choice overlay on one of the two pages", timeout=20)
        log(f"{drawer.label} draws; {guesser.label} guesses")
        guesser.wait(lambda: guesser.visible("#overlay-choosing"), "'is choosing' notice for the guesser")
        drawer.click(".word-choice")
        drawer.wait(lambda: (drawer.js("return document.querySelector('#turn-word').dataset.word || ''") or "") != "", "the drawer sees its word")
        word = drawer.js("return document.querySelector('#turn-word').dataset.word")
        log("the word is", repr(word))
        guesser.wait(lambda: "_" in (guesser.text("#turn-word") or ""), "the masked word on the guesser's page")
        mask = guesser.text("#turn-word")
        if word.lower() in mask.lower():
            raise Failure(f"the guesser's page shows the word: {mask!r}")
        drawer.wait(lambda: drawer.visible("#toolbar"), "drawing toolbar for the drawer")
        if guesser.visible("#toolbar"):
            raise Failure("the guesser sees the drawing toolbar")

        # ---- draw strokes with real pointer input
        w, h = drawer.canvas_size()
        cx, cy = w // 2, h // 2
        guesser.wait(lambda: not guesser.ink_near(cx, cy, 6), "a white canvas at the turn start")
        drawer.click('#widths [aria-label="Width 16"]')
        draw_stroke(drawer, 0.25, 0.5, 0.75, 0.5)
        log("stroke drawn; waiting for it on the guesser's canvas")
        guesser.wait(lambda: guesser.ink_near(cx, cy, 4), f"ink at logical ({cx},{cy}) on the guesser's canvas", timeout=10)
        left_x = int(0.25 * w)
        guesser.wait(lambda: guesser.ink_near(left_x + 4, cy, 6), f"ink near the stroke start ({left_x},{cy})", timeout=5)
        # the stroke is horizontal: far above it must still be white
        if guesser.ink_near(cx, cy - h // 4, 4):
            raise Failure("ink appeared where nothing was drawn (coordinate mapping is off)")
        # a few more strokes in colour, for the screenshots
        drawer.js("document.querySelectorAll('#palette .swatch')[5].click()")
        drawer.click('#widths [aria-label="Width 8"]')
        draw_stroke(drawer, 0.3, 0.35, 0.5, 0.2)
        draw_stroke(drawer, 0.5, 0.2, 0.7, 0.35)
        drawer.js("document.querySelectorAll('#palette .swatch')[17].click()")  # brown
        draw_stroke(drawer, 0.3, 0.52, 0.3, 0.8, steps=6)
        draw_stroke(drawer, 0.7, 0.52, 0.7, 0.8, steps=6)
        draw_stroke(drawer, 0.3, 0.8, 0.7, 0.8, steps=8)
        draw_stroke(drawer, 0.45, 0.8, 0.45, 0.65, steps=4)
        draw_stroke(drawer, 0.45, 0.65, 0.55, 0.65, steps=3)
        draw_stroke(drawer, 0.55, 0.65, 0.55, 0.8, steps=4)
        guesser.wait(lambda: guesser.ink_near(int(0.4 * w), int(0.275 * h), 5), "the coloured strokes on the guesser's canvas")
        chat_lines = lambda p: p.js("return [...document.querySelectorAll('#chat-log .chat-text')].map(e => e.textContent)")  # noqa: E731
        guesser.type_into("#chat-input", "a tent?", enter=True)
        drawer.wait(lambda: "a tent?" in chat_lines(drawer), "a wrong guess shown in the drawer's chat")
        drawer.screenshot("drawing")
        guesser.screenshot("guessing")

        # ---- HTML in chat is text: no element is created, nothing runs
        for p in (a, b):
            p.arm_dom_trap()
        guesser.type_into("#chat-input", XSS, enter=True)
        for p in (a, b):
            p.wait(lambda p=p: XSS in chat_lines(p), "the HTML chat payload shown as literal text")
            # MutationObserver records run as microtasks right after the insertion, so the
            # chat line being there means any <img> made with it is already recorded
            added = p.js("return window.__added")
            if added:
                raise Failure(f"[{p.label}] chat created elements {added}")
            if p.js("return document.querySelectorAll('img').length"):
                raise Failure(f"[{p.label}] an <img> element exists after the HTML chat")
            if p.alerts():
                raise Failure(f"[{p.label}] chat text executed script: alerts {p.alerts()}")
        log("HTML chat payload rendered as text, nothing executed")

        # ---- reload the only guesser mid-turn: the turn waits for it
        guesser.d.refresh()
        guesser.wait(lambda: guesser.visible("#screen-room") and (guesser.text("#room-code") or "").strip() == code,
                     "the room restored after reload", timeout=20)
        guesser.wait(lambda: guesser.ink_near(cx, cy, 4), "the canvas restored after reload (ink still there)", timeout=15)
        guesser.wait(lambda: guesser.ink_near(int(0.4 * w), int(0.275 * h), 5), "the coloured strokes restored after reload")
        if guesser.my_id() != (a_id if guesser is a else b_id):
            raise Failure("the reloaded guesser has a different player id (token not resumed)")
        guesser.wait(lambda: "_" in (guesser.text("#turn-word") or ""), "the mask restored after reload")
        if drawer.visible("#overlay-turnend") or guesser.visible("#overlay-turnend"):
            raise Failure("the turn ended while its only guesser reloaded")
        log("reload restored room and canvas; the turn went on")
        guesser.arm_alert_trap()

        # ---- guess the word: the correct-guess mark, and the turn ends (everyone guessed)
        gid = guesser.my_id()
        guesser.type_into("#chat-input", word, enter=True)
        sel = f'#player-list .player.guessed[data-id="{gid}"] .mark-guessed'
        guesser.wait(lambda: guesser.js("return !!document.querySelector(arguments[0])", sel), "correct-guess mark on the guesser's page")
        drawer.wait(lambda: drawer.js("return !!document.querySelector(arguments[0])", sel), "correct-guess mark on the drawer's page")
        log("correct guess marked")
        guesser.wait(lambda: guesser.visible("#overlay-turnend"), "turn-end overlay", timeout=15)
        revealed = (guesser.text("#turnend-word") or "").strip()
        if revealed.lower() != word.lower():
            raise Failure(f"turn-end reveals {revealed!r}, expected {word!r}")
        if "guessed" not in (guesser.text("#turnend-reason") or "").lower():
            raise Failure(f"turn-end reason {guesser.text('#turnend-reason')!r}, expected everyone guessed")
        guesser.screenshot("turn-end")
        for p in (a, b):
            errs = [e for e in p.console_errors() if "favicon" not in e.get("message", "")]
            if errs:
                log(f"[{p.label}] console errors:", json.dumps(errs, indent=1)[:2000])
        log("PASS")
    except Failure:
        dump_failure(pages, "e2e")
        raise
    finally:
        for bot in bots:
            bot.close()
        quit_all(pages)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mock", action="store_true", help="run against tests/browser/mock_server.py")
    args = ap.parse_args()
    install_signal_handlers()
    server = ServerProcess(mock=args.mock)
    try:
        server.start()
        run(server.base)
        return 0
    except Failure as e:
        print(f"e2e: FAIL: {e}", file=sys.stderr)
        tail = server.stderr_text()[-2000:]
        if tail:
            print("e2e: server output (tail):\n" + tail, file=sys.stderr)
        return 1
    except WebDriverException as e:
        print(f"e2e: FAIL (browser): {e.msg if hasattr(e, 'msg') else e}", file=sys.stderr)
        traceback.print_exc()
        return 1
    finally:
        server.stop()


if __name__ == "__main__":
    sys.exit(main())
