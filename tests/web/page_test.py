#!/usr/bin/env python3
"""The web page in a real headless Chromium (docs/web.md): python3's standard library only, no puppeteer.

  tests/web/page_test.py [SITE_DIR] [--screenshot OUT.png]
  tests/web/page_test.py [SITE_DIR] --fps     (a measurement: each shipped scene's frame rate in this browser)
  tests/web/page_test.py build-web/bench --bench ARGS...   (`lagrange-lab bench ARGS` in this browser: web_bench.py)

Serves SITE_DIR (default build-web/site) on 127.0.0.1, opens it in `chromium --headless` (SwiftShader WebGL2) and
drives it over the DevTools protocol (a websocket from the standard library). Checks, each against what it would
be if the page did nothing:
  1. the page loads: the wasm runs and publishes its status in document.title, no console error, exception or
     WebGL error;
  2. the canvas is not blank: the screenshot has many colours and a good share of pixels off the background;
  3. the physics steps: the simulated time t in the title advances with the wall clock;
  4. keys are taken: Space pauses (t then stays put), key 4 switches to the 4th solver of the list (acceleration),
     and the address bar follows (?scene=double_pendulum&solver=acceleration: the link to share);
  5. the mouse is taken: moving the pointer over the scene finds a particle (hover count), pressing there grabs it;
  6. a link names the scene and the solver: ?scene=hanging_chain&solver=shake opens that scene with that solver;
  7. the scene editor: key E enters Edit mode and leaves it (editing= in the title);
  8. downloads (Browser.setDownloadBehavior into a temporary folder): F12 gives a PNG of the canvas's size that is
     not blank; Save (Ctrl+S), Edit mode's Save and the Export CSV button each give a file of their own name, the
     console says "Downloaded NAME", and nothing is left in the page's memory; the saved scenes are accepted by the
     native command line (`lagrange-lab run FILE --duration 0.1`; skipped when build/ has no native binary);
  9. opening a scene from the disk: the "Open file..." button opens the file chooser (Page.fileChooserOpened) and a
     shipped scene set into it opens (scene= in the title); a malformed file and a file with a bad field are
     refused with the loader's message naming the file (and the field), the previous scene running on;
 10. a .json file dropped on the page (Input.dispatchDragEvent with files) opens;
 14. a projector's scales (?scale=2 and 3, light, Measure): the scene larger than any panel and
     no text cut, broken or laid on a particle (the page's own layout check, as the desktop's GUI tests).
 11. link settings: ?theme=light&scale=1.5&paused=1&lanes=... give a light canvas (mean brightness against the dark
     one's), larger widgets, a paused page and two lanes; a finger (Input.dispatchTouchEvent) grabs a particle;
     bad values (theme, scale, solver, an unknown parameter) are reported in the console and the page runs on;
 12. recording (check_recording): F9 starts, F9 after some simulated time stops; the GIF arrives as a download and
     parses (python, below; and ffprobe) as a GIF of the canvas's size with more than one frame, looping, whose
     delays add up to its frames at 30 fps;
 13. ?msaa=4&lanes=...&lane-view=split: the multisampled lanes reach the canvas with no WebGL error, not blank.
Exit 0 when every check passes, 1 otherwise (each failure printed), 77 when chromium is missing (a skip).
  --native PATH   the native lagrange-lab that checks the saved scenes (default: build/app/lagrange-lab)
"""
import base64
import functools
import http.server
import json
import os
import random
import re
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# The solver list's order (README "The solvers", `lagrange-lab solvers`): key N picks the N-th.
SOLVER_KEYS = {"1": "projection", "2": "shake", "3": "rattle", "4": "acceleration", "5": "penalty"}


class WebSocket:
    """A minimal RFC 6455 client: text frames, masked sends, enough for the DevTools protocol."""

    def __init__(self, url):
        match = re.match(r"ws://([^:/]+):(\d+)(/.*)", url)
        host, port, path = match.group(1), int(match.group(2)), match.group(3)
        self.sock = socket.create_connection((host, port), timeout=60)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
                           f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n")
                          .encode())
        response = b""
        while b"\r\n\r\n" not in response:
            response += self.sock.recv(1)
        if b" 101 " not in response.split(b"\r\n")[0]:
            raise RuntimeError("websocket handshake failed: " + response.decode(errors="replace"))

    def send(self, text):
        data = text.encode()
        header = bytes([0x81])
        if len(data) < 126:
            header += bytes([0x80 | len(data)])
        elif len(data) < 65536:
            header += bytes([0x80 | 126]) + struct.pack(">H", len(data))
        else:
            header += bytes([0x80 | 127]) + struct.pack(">Q", len(data))
        mask = os.urandom(4)
        self.sock.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))

    def _exact(self, n):
        data = b""
        while len(data) < n:
            chunk = self.sock.recv(n - len(data))
            if not chunk:
                raise RuntimeError("websocket closed")
            data += chunk
        return data

    def receive(self):
        message = b""
        while True:
            b0, b1 = self._exact(2)
            length = b1 & 0x7F
            if length == 126:
                length = struct.unpack(">H", self._exact(2))[0]
            elif length == 127:
                length = struct.unpack(">Q", self._exact(8))[0]
            payload = self._exact(length)
            if b0 & 0x0F == 0x8:
                raise RuntimeError("websocket closed by the browser")
            if b0 & 0x0F in (0x9, 0xA):
                continue  # ping / pong
            message += payload
            if b0 & 0x80:
                return message.decode()


class DevTools:
    def __init__(self, url):
        self.ws = WebSocket(url)
        self.next_id = 0
        self.console_errors = []
        self.console_lines = []
        self.expected = []        # regular expressions of console errors a check provokes on purpose
        self.expected_seen = []   # those errors: a check reads them; they are not failures
        self.events = []          # the other events a check waits for (Page.fileChooserOpened)

    def _error(self, text):
        if any(re.search(pattern, text) for pattern in self.expected):
            self.expected_seen.append(text)
        else:
            self.console_errors.append(text)

    def _event(self, message):
        method, params = message.get("method"), message.get("params", {})
        if method == "Runtime.consoleAPICalled":
            text = " ".join(str(a.get("value", a.get("description", ""))) for a in params.get("args", []))
            self.console_lines.append(f"console.{params.get('type')}: {text}")
            if params.get("type") in ("error", "assert"):
                self._error(text)
        elif method == "Runtime.exceptionThrown":
            details = params.get("exceptionDetails", {})
            text = details.get("exception", {}).get("description") or details.get("text", "")
            self.console_lines.append("exception: " + text)
            self._error("exception: " + text)
        elif method == "Log.entryAdded":
            entry = params.get("entry", {})
            self.console_lines.append(f"log.{entry.get('level')}: {entry.get('text')} {entry.get('url', '')}")
            # WebGL errors come as warnings ("GL_INVALID_OPERATION: glBlitFramebuffer: ..."): errors all the same.
            if entry.get("level") == "error" or "GL_INVALID" in (entry.get("text") or ""):
                self._error(f"{entry.get('text')} {entry.get('url', '')}")
        elif method in ("Page.fileChooserOpened", "Browser.downloadWillBegin"):
            self.events.append(message)

    def call(self, method, **params):
        self.next_id += 1
        self.ws.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            message = json.loads(self.ws.receive())
            if message.get("id") == self.next_id:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})
            self._event(message)

    def evaluate(self, expression):
        return self.call("Runtime.evaluate", expression=expression, returnByValue=True)["result"].get("value")

    def pump(self, seconds):
        """Reads the events that come in `seconds` (a cheap call: the events arrive while waiting for its answer)."""
        deadline = time.time() + seconds
        while time.time() < deadline:
            self.evaluate("0")
            time.sleep(0.05)

    def key(self, key, code, vk, text=None, modifiers=0):
        if modifiers & 2:  # Ctrl+KEY: SDL keeps the modifiers' state from their own key events
            self.call("Input.dispatchKeyEvent", type="rawKeyDown", key="Control", code="ControlLeft",
                      windowsVirtualKeyCode=17, nativeVirtualKeyCode=17, modifiers=2)
            time.sleep(0.15)
        for kind in ("keyDown", "keyUp"):
            params = {"type": kind if text is None or kind == "keyUp" else "keyDown", "key": key, "code": code,
                      "windowsVirtualKeyCode": vk, "nativeVirtualKeyCode": vk, "modifiers": modifiers}
            if text is not None and kind == "keyDown":
                params["text"] = text
            self.call("Input.dispatchKeyEvent", **params)
            time.sleep(0.15)
        if modifiers & 2:
            self.call("Input.dispatchKeyEvent", type="keyUp", key="Control", code="ControlLeft",
                      windowsVirtualKeyCode=17, nativeVirtualKeyCode=17)
            time.sleep(0.15)

    def mouse(self, kind, x, y, button="none", buttons=0):
        self.call("Input.dispatchMouseEvent", type=kind, x=x, y=y, button=button, buttons=buttons,
                  clickCount=1 if kind in ("mousePressed", "mouseReleased") else 0)


def decode_png(data):
    """RGB(A) 8-bit non-interlaced PNG -> (width, height, channels, rows of bytes)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat = 8, b""
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and colour in (2, 6) and interlace == 0, "unexpected PNG format"
            channels = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        filter_type = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b = previous[i]
            c = previous[i - channels] if i >= channels else 0
            if filter_type == 1:
                line[i] = (line[i] + a) & 0xFF
            elif filter_type == 2:
                line[i] = (line[i] + b) & 0xFF
            elif filter_type == 3:
                line[i] = (line[i] + (a + b) // 2) & 0xFF
            elif filter_type == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 0xFF
        rows.append(bytes(line))
        previous = line
    return width, height, channels, rows


def status(devtools):
    title = devtools.evaluate("document.title") or ""
    fields = dict(re.findall(r"(\w+)=([\w.]+)", title))
    return title, fields


def wait_frames(devtools, count, timeout=10.0):
    """Waits until the page has drawn `count` more frames; returns the status fields then."""
    _, fields = status(devtools)
    start, deadline = int(fields.get("frame", 0)), time.time() + timeout
    while time.time() < deadline:
        time.sleep(0.02)
        _, fields = status(devtools)
        if int(fields.get("frame", 0)) >= start + count:
            break
    return fields


def wait_until(devtools, predicate, timeout):
    """Polls the title until predicate(fields) holds; returns (title, fields) at the end."""
    deadline = time.time() + timeout
    while True:
        title, fields = status(devtools)
        if predicate(fields) or time.time() > deadline:
            return title, fields
        time.sleep(0.2)


def picture_stats(png):
    """(width, height, distinct colours, share of pixels off the most common colour, mean brightness 0..255)."""
    width, height, channels, rows = decode_png(png)
    counts, total, brightness = {}, 0, 0
    for row in rows[::2]:
        for x in range(0, width * channels, channels * 2):
            pixel = bytes(row[x:x + 3])
            counts[pixel] = counts.get(pixel, 0) + 1
            brightness += sum(pixel) / 3
            total += 1
    most = max(counts.values())
    return width, height, len(counts), 1.0 - most / total, brightness / total


def widget_rect(devtools, name):
    """Where the panels drew the widget `name` in the last frame (CSS pixels), or None (lagrange_widget_rect)."""
    text = devtools.evaluate(f"Module.ccall('lagrange_widget_rect', 'string', ['string'], [{json.dumps(name)}])")
    return [float(v) for v in text.split(",")] if text else None


def click(devtools, rect):
    x, y = (rect[0] + rect[2]) / 2, (rect[1] + rect[3]) / 2
    devtools.mouse("mouseMoved", x, y)
    wait_frames(devtools, 2)
    devtools.mouse("mousePressed", x, y, "left", 1)
    wait_frames(devtools, 2)
    devtools.mouse("mouseReleased", x, y, "left", 0)
    wait_frames(devtools, 3)


def find_particle(devtools, seed):
    """Sweeps the pointer over the middle of the window until it rests on a particle: (x, y) or None."""
    _, fields = status(devtools)
    hover0 = int(fields["hover"])
    points = [(x, y) for y in range(120, 600, 24) for x in range(340, 940, 24)]
    random.Random(seed).shuffle(points)
    for x, y in points:
        devtools.mouse("mouseMoved", x, y)
        fields = wait_frames(devtools, 2)
        if int(fields["hover"]) > hover0:
            return x, y
    return None


def wait_download(folder, known, timeout=30.0):
    """The first complete file in `folder` not in `known` (a name), or None after the timeout."""
    deadline, sizes = time.time() + timeout, {}
    while time.time() < deadline:
        for name in sorted(os.listdir(folder)):
            if name in known or name.endswith(".crdownload"):
                continue
            size = os.path.getsize(os.path.join(folder, name))
            if size > 0 and sizes.get(name) == size:  # the same size twice: written
                known.add(name)
                return name
            sizes[name] = size
        time.sleep(0.3)
    return None


# Files the page wrote and did not hand over: everything in its in-memory file system outside what it ships.
LEFTOVERS_JS = """(() => {
  const found = [];
  const walk = (dir) => {
    for (const name of Module.FS.readdir(dir)) {
      if (name === "." || name === "..") continue;
      const path = (dir === "/" ? "" : dir) + "/" + name;
      if (["/dev", "/proc", "/assets", "/usr", "/uploads", "/tmp"].includes(path)) continue;
      const mode = Module.FS.stat(path).mode;
      if (Module.FS.isDir(mode)) walk(path); else found.push(path);
    }
  };
  walk("/");
  return found;
})()"""


def parse_gif(data):
    """A GIF's logical screen size, its images (rectangles) and their delays (cs), and whether it loops forever
    (NETSCAPE2.0, loop count 0): the block structure read here, independently of the encoder (no LZW decoding)."""
    if data[:6] not in (b"GIF87a", b"GIF89a"):
        raise ValueError(f"not a GIF: {data[:6]!r}")
    width, height, packed = struct.unpack("<HHB", data[6:11])
    pos = 13 + (3 << ((packed & 7) + 1) if packed & 0x80 else 0)
    images, delays, loops, delay = [], [], False, None

    def sub_blocks(pos):
        chunks = []
        while data[pos]:
            chunks.append(data[pos + 1:pos + 1 + data[pos]])
            pos += 1 + data[pos]
        return pos + 1, chunks

    while True:
        kind = data[pos]
        if kind == 0x3B:  # trailer
            break
        if kind == 0x21:  # extension
            label = data[pos + 1]
            pos, chunks = sub_blocks(pos + 2)
            if label == 0xF9 and chunks:
                delay = struct.unpack("<H", chunks[0][1:3])[0]
            elif label == 0xFF and chunks and chunks[0] == b"NETSCAPE2.0" and len(chunks) > 1:
                loops = loops or chunks[1] == b"\x01\x00\x00"
        elif kind == 0x2C:  # image: descriptor, local colour table, LZW code size, data sub-blocks
            left, top, w, h, packed = struct.unpack("<HHHHB", data[pos + 1:pos + 10])
            pos += 10 + (3 << ((packed & 7) + 1) if packed & 0x80 else 0)
            pos, _ = sub_blocks(pos + 1)
            images.append((left, top, w, h))
            delays.append(delay)
            delay = None
        else:
            raise ValueError(f"unexpected block 0x{kind:02x} at byte {pos}")
    return width, height, images, delays, loops


def check_recording(devtools, failures, download):
    """F9, some simulated time, F9: a GIF of the canvas arrives as a download (download(): its path or None)."""
    _, fields = status(devtools)
    if fields.get("paused") == "1":
        devtools.key(" ", "Space", 32, text=" ")
    canvas = devtools.evaluate("[document.getElementById('canvas').width, document.getElementById('canvas').height]")
    # The simulated time just before and just after each press bounds the recording's span.
    t = lambda: float(status(devtools)[1]["t"])
    t0_before = t()
    devtools.key("F9", "F9", 120)
    t0 = t()
    deadline = time.time() + 30
    while time.time() < deadline and t() < t0 + 1.5:
        time.sleep(0.1)
    t1_before = t()
    devtools.key("F9", "F9", 120)
    t1 = t()
    path = download()
    print(f"page_test: F9 .. F9 over t {t0:.3f} -> {t1:.3f} s: {path}")
    if not path:
        return
    data = open(path, "rb").read()
    try:
        width, height, images, delays, loops = parse_gif(data)
    except (ValueError, IndexError, struct.error) as error:
        failures.append(f"recording: {path} ({len(data)} bytes) does not parse as a GIF: {error}")
        return
    total_cs = sum(d or 0 for d in delays)
    print(f"page_test: recording {os.path.basename(path)}: {len(data)} bytes, {width}x{height}, {len(images)} frames, "
          f"{total_cs} cs, loops={loops}; canvas {canvas[0]}x{canvas[1]}")
    if [width, height] != list(canvas):
        failures.append(f"recording: the GIF is {width}x{height}, the canvas {canvas[0]}x{canvas[1]}")
    if len(images) < 2:
        failures.append(f"recording: {len(images)} frame(s) in the GIF")
    if not loops:
        failures.append("recording: no NETSCAPE2.0 loop extension")
    ffprobe = shutil.which("ffprobe")
    if ffprobe:  # FFmpeg's GIF decoder reads every frame (python above only walks the blocks)
        with tempfile.NamedTemporaryFile(suffix=".gif") as file:
            file.write(data)
            file.flush()
            probe = subprocess.run([ffprobe, "-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
                                    "stream=width,height,nb_read_frames", "-of", "csv=p=0", file.name],
                                   capture_output=True, text=True)
        print(f"page_test: ffprobe: {probe.stdout.strip()} {probe.stderr.strip()}")
        if probe.returncode != 0 or probe.stdout.strip() != f"{width},{height},{len(images)}":
            failures.append(f"recording: ffprobe reads {probe.stdout.strip()!r} ({probe.stderr.strip()}), expected "
                            f"{width},{height},{len(images)}")
    if None in delays or abs(total_cs - 100 * len(images) / 30) > 1:
        failures.append(f"recording: delays {delays} do not add up to {len(images)} frames at 30 fps")
    # Frames at simulated time: one per 1/30 s that ran while recording, frame 0 at the start.
    low, high = 30 * (t1_before - t0) - 1, 30 * (t1 - t0_before) + 2
    if not low <= len(images) <= high:
        failures.append(f"recording: {len(images)} frames, expected {low:.0f}..{high:.0f} at 30 fps of simulated "
                        f"time (t {t0_before:.3f}/{t0:.3f} -> {t1_before:.3f}/{t1:.3f})")


def frame_rates(devtools, page_url, seconds=4.0):
    """--fps: every shipped scene in turn, its frames per second in this browser and the page's median frame time
    (ms= in the title). A measurement, not a check: prints a table, exit 0 unless a scene does not run."""
    scenes = sorted(name[:-5] for name in os.listdir(os.path.join(ROOT, "assets")) if name.endswith(".json"))
    print(f"{'scene':<24}{'fps':>7}{'median ms':>11}{'steps/frame':>13}")
    bad = 0
    for scene in scenes:
        devtools.call("Page.navigate", url=f"{page_url}?scene={scene}")
        _, fields = wait_until(devtools, lambda f: f.get("scene") == scene and int(f.get("frame", 0)) > 5, 60)
        if fields.get("scene") != scene:
            print(f"{scene:<24} did not start")
            bad += 1
            continue
        time.sleep(1.0)
        _, first = status(devtools)
        start = time.time()
        time.sleep(seconds)
        _, last = status(devtools)
        elapsed = time.time() - start
        frames = int(last["frame"]) - int(first["frame"])
        steps = int(last["steps"]) - int(first["steps"])
        print(f"{scene:<24}{frames / elapsed:>7.1f}{float(last.get('ms', 'nan')):>11.1f}"
              f"{steps / max(frames, 1):>13.2f}")
    return 1 if bad else 0


class IsolatedHandler(http.server.SimpleHTTPRequestHandler):
    """The bench page served cross-origin isolated: Chromium's performance.now() then ticks in 5 µs, not 100 µs."""

    def end_headers(self):
        self.send_header("Cross-Origin-Opener-Policy", "same-origin")
        self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
        super().end_headers()


def run_bench(devtools, page_url, arguments, timeout=900):
    """--bench ARGS...: SITE_DIR is build-web/bench (bench.html): `lagrange-lab bench ARGS` run in this browser; its
    standard output is printed as it is (scripts/web_bench.py reads the JSON of --json -)."""
    query = "&".join("arg=" + urllib.parse.quote(a) for a in ["bench"] + arguments)
    devtools.call("Page.navigate", url=f"{page_url}?{query}")
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            if devtools.evaluate("document.title") == "done":
                print(devtools.evaluate("window.benchOutput"))
                return 0
        except (RuntimeError, OSError):  # the page is busy with the bench: the evaluation waits for it
            pass
        time.sleep(0.5)
    print("page_test: the bench did not finish", file=sys.stderr)
    return 1


def main():
    args = sys.argv[1:]
    native = os.path.join(ROOT, "build", "app", "lagrange-lab")
    if "--native" in args:
        i = args.index("--native")
        native = args[i + 1]
        del args[i:i + 2]
    out_png = None
    fps = "--fps" in args
    if fps:
        args.remove("--fps")
    bench = None
    if "--bench" in args:  # everything after it: bench's own arguments
        i = args.index("--bench")
        bench, args = args[i + 1:], args[:i]
    if "--screenshot" in args:
        i = args.index("--screenshot")
        out_png = args[i + 1]
        del args[i:i + 2]
    site = os.path.abspath(args[0] if args else os.path.join(ROOT, "build-web", "site"))
    browser = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    if not browser:
        print("page_test: SKIP: no chromium (scripts/web.sh installs it)")
        return 77
    if not os.path.isfile(os.path.join(site, "index.html")):
        print(f"page_test: no page in {site} (build it with scripts/web.sh)")
        return 1

    handler = functools.partial(IsolatedHandler if bench is not None else http.server.SimpleHTTPRequestHandler,
                                directory=site)
    handler.func.extensions_map[".wasm"] = "application/wasm"
    handler.func.log_message = lambda *a: None
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/index.html?scene=double_pendulum"

    test_started = time.time()
    profile = tempfile.mkdtemp(prefix="lagrange-web-test-")
    command = [browser, "--headless=new", "--no-sandbox", "--use-angle=swiftshader", "--enable-unsafe-swiftshader",
               "--no-first-run", "--no-default-browser-check", "--disable-gpu-sandbox", "--mute-audio",
               "--remote-debugging-port=0", "--remote-debugging-address=127.0.0.1", f"--user-data-dir={profile}",
               "--window-size=1280,720", "about:blank"]
    chrome = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=open(os.path.join(profile, "stderr"), "w"))
    failures = []
    try:
        port_file = os.path.join(profile, "DevToolsActivePort")
        deadline = time.time() + 30
        while not os.path.exists(port_file) or not open(port_file).read().strip():
            if time.time() > deadline or chrome.poll() is not None:
                raise RuntimeError("chromium did not start: " + open(os.path.join(profile, "stderr")).read()[-2000:])
            time.sleep(0.1)
        port = int(open(port_file).read().split()[0])
        targets = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list"))
        page = next(t for t in targets if t.get("type") == "page")
        devtools = DevTools(page["webSocketDebuggerUrl"])
        for domain in ("Runtime", "Log", "Page"):
            devtools.call(f"{domain}.enable")
        if fps:
            return frame_rates(devtools, url.split("?")[0])
        if bench is not None:
            return run_bench(devtools, url.split("?")[0], bench)
        started = time.time()
        devtools.call("Page.navigate", url=url)

        # 1. Loaded: the status appears in the title.
        fields = {}
        while time.time() - started < 60:
            title, fields = status(devtools)
            if "t" in fields:
                break
            time.sleep(0.25)
        load_seconds = time.time() - started
        print(f"page_test: loaded in {load_seconds:.1f} s: {title}")
        if "t" not in fields:
            failures.append("the page never published its status (document.title): " + repr(title))
            raise StopIteration
        print("page_test: renderer:", devtools.evaluate(
            "(() => { const gl = document.createElement('canvas').getContext('webgl2');"
            " return gl ? gl.getParameter(gl.RENDERER) : 'no WebGL2'; })()"))

        # 3. The physics steps.
        t0, w0 = float(fields["t"]), time.time()
        time.sleep(2.0)
        _, fields = status(devtools)
        t1, w1 = float(fields["t"]), time.time()
        print(f"page_test: simulated time {t0:.3f} s -> {t1:.3f} s over {w1 - w0:.2f} s of wall time")
        if not t1 > t0 + 0.1:
            failures.append(f"the simulated time did not advance: {t0} -> {t1}")

        # 2. Not blank.
        shot = base64.b64decode(devtools.call("Page.captureScreenshot", format="png")["data"])
        if out_png:
            open(out_png, "wb").write(shot)
        dark = picture_stats(shot)[4]
        width, height, channels, rows = decode_png(shot)
        counts, total = {}, 0
        for row in rows[::2]:
            for x in range(0, width * channels, channels * 2):
                pixel = bytes(row[x:x + 3])
                counts[pixel] = counts.get(pixel, 0) + 1
                total += 1
        background, most = max(counts.items(), key=lambda kv: kv[1])
        off = 1.0 - most / total
        print(f"page_test: screenshot {width}x{height}: {len(counts)} colours, {off:.1%} of pixels off the most "
              f"common colour {tuple(background)}")
        if len(counts) < 50 or off < 0.02:
            failures.append(f"the canvas looks blank: {len(counts)} colours, {off:.1%} off the background")

        # 4. Keys: Space pauses; 4 switches the solver.
        devtools.key(" ", "Space", 32, text=" ")
        time.sleep(0.5)
        _, fields = status(devtools)
        ta = float(fields["t"])
        time.sleep(1.0)
        _, fields = status(devtools)
        tb = float(fields["t"])
        print(f"page_test: after Space: paused={fields.get('paused')}, t {ta:.3f} -> {tb:.3f} over 1 s")
        if fields.get("paused") != "1" or tb != ta:
            failures.append(f"Space did not pause: paused={fields.get('paused')}, t {ta} -> {tb}")
        before = fields.get("solver")
        devtools.key("4", "Digit4", 52, text="4")
        time.sleep(0.5)
        _, fields = status(devtools)
        print(f"page_test: key 4: solver {before} -> {fields.get('solver')}")
        if fields.get("solver") != SOLVER_KEYS["4"] or before == SOLVER_KEYS["4"]:
            failures.append(f"key 4 did not switch to {SOLVER_KEYS['4']}: {before} -> {fields.get('solver')}")
        # The address bar follows (a link copied from it opens what is on screen).
        wait_frames(devtools, 2)
        search = devtools.evaluate("location.search")
        print(f"page_test: the address bar after key 4: {search}")
        if f"solver={SOLVER_KEYS['4']}" not in search or "scene=double_pendulum" not in search:
            failures.append(f"the address bar does not name the scene and solver on screen: {search!r}")

        # 5. Mouse: sweep the pointer over the paused scene until it rests on a particle, then grab it.
        hover0, grabs0 = int(fields["hover"]), int(fields["grabs"])
        found = None
        points = [(x, y) for y in range(120, 600, 24) for x in range(340, 940, 24)]
        random.Random(12).shuffle(points)
        for x, y in points:
            devtools.mouse("mouseMoved", x, y)
            fields = wait_frames(devtools, 2)
            if int(fields["hover"]) > hover0:
                found = (x, y)
                break
        print(f"page_test: pointer rests on a particle at {found}: hover frames {hover0} -> {fields.get('hover')}")
        if not found:
            failures.append("moving the pointer over the scene never hovered a particle")
        else:
            x, y = found
            devtools.mouse("mousePressed", x, y, "left", 1)
            wait_frames(devtools, 2)
            for k in range(1, 6):
                devtools.mouse("mouseMoved", x + 6 * k, y + 4 * k, "left", 1)
                wait_frames(devtools, 1)
            devtools.mouse("mouseReleased", x + 30, y + 20, "left", 0)
            fields = wait_frames(devtools, 3)
            print(f"page_test: press and drag: grabs {grabs0} -> {fields.get('grabs')}")
            if int(fields["grabs"]) < grabs0 + 1:
                failures.append(f"pressing on a particle did not grab it: grabs {grabs0} -> {fields['grabs']}")
        devtools.key(" ", "Space", 32, text=" ")  # resume: the page goes on stepping
        time.sleep(0.5)
        _, fields = status(devtools)
        print(f"page_test: final status: {fields}")

        # 7. The scene editor: E enters Edit mode and E again leaves it.
        before = fields.get("editing")
        devtools.key("e", "KeyE", 69, text="e")
        entered = wait_frames(devtools, 3).get("editing")
        devtools.key("e", "KeyE", 69, text="e")
        left = wait_frames(devtools, 3).get("editing")
        print(f"page_test: key E: editing {before} -> {entered}, again -> {left}")
        if (before, entered, left) != ("0", "1", "0"):
            failures.append(f"key E did not enter and leave Edit mode: editing {before} -> {entered} -> {left}")

        # 8. Downloads: every file the page writes reaches the browser's download folder under its own name.
        downloads = os.path.join(profile, "downloads")
        os.makedirs(downloads)
        try:
            devtools.call("Browser.setDownloadBehavior", behavior="allow", downloadPath=downloads, eventsEnabled=True)
        except RuntimeError:  # an older protocol: the page's own
            devtools.call("Page.setDownloadBehavior", behavior="allow", downloadPath=downloads)
        known = set()
        canvas = devtools.evaluate("[document.getElementById('canvas').width, document.getElementById('canvas').height]")

        def downloaded(what, extension):
            name = wait_download(downloads, known)
            devtools.pump(0.5)
            said = any(f"Downloaded {name}" in line for line in devtools.console_lines) if name else False
            print(f"page_test: {what}: downloaded {name!r}; the console said so: {said}")
            if not name or not name.endswith(extension):
                failures.append(f"{what} gave no {extension} download: {name!r}")
                return None
            if not said:
                failures.append(f"{what}: no 'Downloaded {name}' in the console")
            return os.path.join(downloads, name)

        def native_accepts(what, path):
            if not os.access(native, os.X_OK):
                print(f"page_test: {what}: SKIP the native check (no {native})")
                return
            run = subprocess.run([native, "run", path, "--duration", "0.1"], capture_output=True, text=True,
                                 timeout=120)
            print(f"page_test: {what}: lagrange-lab run FILE --duration 0.1: exit {run.returncode}")
            if run.returncode != 0:
                failures.append(f"{what}: the native command line refused the file: {run.stderr.strip()[:300]}")

        # The browser's own actions for F12 (developer tools) and Ctrl+S (save the page) are stopped (SDL's key
        # handler calls preventDefault), the page's run.
        devtools.evaluate("window.keysSeen = []; window.addEventListener('keydown', (e) => "
                          "window.keysSeen.push(e.key + (e.ctrlKey ? '+ctrl' : '') + ':' + e.defaultPrevented))")
        devtools.key("F12", "F12", 123)
        png = downloaded("F12", ".png")
        if png:
            width, height, colours, off, _ = picture_stats(open(png, "rb").read())
            print(f"page_test: F12: {width}x{height} (canvas {canvas[0]}x{canvas[1]}), {colours} colours, "
                  f"{off:.1%} off the most common colour")
            if [width, height] != canvas or colours < 50 or off < 0.02:
                failures.append(f"the downloaded screenshot is wrong: {width}x{height} against the canvas's "
                                f"{canvas}, {colours} colours, {off:.1%} off the background")
        devtools.key("s", "KeyS", 83, modifiers=2)  # Ctrl+S: the scene as it is now
        saved = downloaded("Save (Ctrl+S)", ".json")
        if saved:
            scene = json.load(open(saved))
            if not scene.get("particles"):
                failures.append(f"the saved scene has no particles: {sorted(scene)}")
            native_accepts("Save", saved)
        keys = devtools.evaluate("window.keysSeen")
        print(f"page_test: keys seen by the page, and whether the browser's action was stopped: {keys}")
        if "F12:true" not in keys or "s+ctrl:true" not in keys:
            failures.append(f"F12 or Ctrl+S would also do the browser's own action: {keys}")
        devtools.key("e", "KeyE", 69, text="e")
        wait_frames(devtools, 3)
        devtools.key("s", "KeyS", 83, modifiers=2)  # Edit mode's Save: the draft
        edited = downloaded("Edit mode's Save (Ctrl+S)", ".json")
        if edited:
            native_accepts("Edit mode's Save", edited)
        devtools.key("e", "KeyE", 69, text="e")
        wait_frames(devtools, 3)
        rect = widget_rect(devtools, "export csv button")
        if not rect:
            failures.append("no Export CSV button in the Scene section")
        else:
            click(devtools, rect)
            csv = downloaded("Export CSV", ".csv")
            if csv:
                lines = open(csv).read().splitlines()
                print(f"page_test: Export CSV: {len(lines)} lines, header {lines[0][:60]!r}...")
                columns = lines[0].count(",") if lines else 0
                if (len(lines) < 3 or not lines[0].startswith("step,t,") or
                        any(line.count(",") != columns for line in lines[1:])):
                    failures.append(f"the exported CSV is not a timeline: {lines[:2]}")
        # 12. Recording: F9 .. F9 downloads a GIF.
        check_recording(devtools, failures, lambda: downloaded("recording (F9 .. F9)", ".gif"))
        leftovers = devtools.evaluate(LEFTOVERS_JS)
        print(f"page_test: files left in the page's memory: {leftovers}")
        if leftovers:
            failures.append(f"downloaded files stayed in the page's memory: {leftovers}")

        # 9. A scene from the user's disk: the "Open file..." button opens the chooser; a shipped scene set into it
        #    opens. Then straight into the hidden input: a malformed file, a file with a bad field.
        _, fields = status(devtools)
        scene_before = fields.get("scene")
        devtools.call("Page.setInterceptFileChooserDialog", enabled=True)
        rect = widget_rect(devtools, "open file button")
        chooser = None
        if not rect:
            failures.append("no Open file... button in the Scene section")
        else:
            click(devtools, rect)
            deadline = time.time() + 10
            while chooser is None and time.time() < deadline:
                devtools.pump(0.2)
                chooser = next((e for e in devtools.events if e["method"] == "Page.fileChooserOpened"), None)
        devtools.call("Page.setInterceptFileChooserDialog", enabled=False)
        print(f"page_test: Open file...: the file chooser opened: {chooser is not None}")
        if chooser is None:
            failures.append("the Open file... button did not open the file chooser")
        else:
            devtools.call("DOM.getDocument")
            devtools.call("DOM.setFileInputFiles", files=[os.path.join(ROOT, "assets", "hanging_chain.json")],
                          backendNodeId=chooser["params"]["backendNodeId"])
            title, fields = wait_until(devtools, lambda f: f.get("scene") == "hanging_chain", 15)
            print(f"page_test: chose hanging_chain.json: scene {scene_before} -> {fields.get('scene')}")
            if fields.get("scene") != "hanging_chain":
                failures.append(f"the chosen file did not open: {title!r}")
        document = devtools.call("DOM.getDocument")["root"]["nodeId"]
        file_input = devtools.call("DOM.querySelector", nodeId=document, selector="#scene-file")["nodeId"]
        broken = os.path.join(profile, "broken_scene.json")
        with open(broken, "w") as f:
            f.write('{"name": "broken", "dimension": 2, "particles": [{"position": [0, 0]')
        bad_field = os.path.join(profile, "bad_field.json")
        scene = json.load(open(os.path.join(ROOT, "assets", "double_pendulum.json")))
        scene["particles"][1]["mass"] = "heavy"
        with open(bad_field, "w") as f:
            json.dump(scene, f)
        for path, words in ((broken, ["broken_scene.json"]), (bad_field, ["bad_field.json", "mass"])):
            name = os.path.basename(path)
            devtools.expected.append(re.escape(name))
            _, fields = status(devtools)
            before, frame0 = fields.get("scene"), int(fields.get("frame", 0))
            devtools.call("DOM.setFileInputFiles", files=[path], nodeId=file_input)
            deadline, said = time.time() + 15, []
            while not said and time.time() < deadline:
                devtools.pump(0.3)
                said = [text for text in devtools.expected_seen if name in text]
            fields = wait_frames(devtools, 5)
            print(f"page_test: {name}: {said[:1]}; scene {before} -> {fields.get('scene')}, frames {frame0} -> "
                  f"{fields.get('frame')}")
            if not said or not all(word in said[0] for word in words):
                failures.append(f"{name}: no error naming {words} in the console: {said}")
            if fields.get("scene") != before or int(fields.get("frame", 0)) < frame0 + 5:
                failures.append(f"{name}: the previous scene did not run on: {fields}")

        # 10. A file dropped on the page. Input.dispatchDragEvent carries files from the disk (a real drop, as the
        #     browser makes it); when this Chromium will not, a synthetic DataTransfer drop through Runtime.evaluate.
        _, fields = status(devtools)
        before = fields.get("scene")
        drop_file = os.path.join(ROOT, "assets", "triple_pendulum.json")
        data = {"items": [], "files": [drop_file], "dragOperationsMask": 1}
        how = "Input.dispatchDragEvent"
        try:
            for kind in ("dragEnter", "dragOver", "drop"):
                devtools.call("Input.dispatchDragEvent", type=kind, x=640, y=360, data=data)
            title, fields = wait_until(devtools, lambda f: f.get("scene") == "triple_pendulum", 10)
        except RuntimeError as error:
            print(f"page_test: drop: Input.dispatchDragEvent refused: {error}")
        if fields.get("scene") != "triple_pendulum":
            how = "a synthetic DataTransfer drop (Runtime.evaluate)"
            text = json.dumps(open(drop_file).read())
            devtools.evaluate(f"""(() => {{
                const transfer = new DataTransfer();
                transfer.items.add(new File([{text}], "triple_pendulum.json", {{type: "application/json"}}));
                for (const type of ["dragenter", "dragover", "drop"])
                  document.getElementById("canvas").dispatchEvent(
                      new DragEvent(type, {{dataTransfer: transfer, bubbles: true, cancelable: true}}));
            }})()""")
            title, fields = wait_until(devtools, lambda f: f.get("scene") == "triple_pendulum", 10)
        print(f"page_test: drop triple_pendulum.json ({how}): scene {before} -> {fields.get('scene')}")
        if fields.get("scene") != "triple_pendulum":
            failures.append(f"a dropped file did not open: {title!r}")

        # 11. Link settings, a finger, bad values.
        save_rect = widget_rect(devtools, "save button")
        devtools.call("Page.navigate", url=url + "&theme=light&scale=1.5&paused=1&lanes=projection,acceleration")
        title, fields = wait_until(devtools, lambda f: "t" in f and int(f.get("frame", 0)) > 10, 60)
        time.sleep(1.0)
        title, fields = status(devtools)
        print(f"page_test: ?theme=light&scale=1.5&paused=1&lanes=projection,acceleration: {title}")
        _, _, _, _, light = picture_stats(base64.b64decode(devtools.call("Page.captureScreenshot", format="png")["data"]))
        big_rect = widget_rect(devtools, "save button")
        ratio = (big_rect[3] - big_rect[1]) / (save_rect[3] - save_rect[1]) if save_rect and big_rect else 0
        print(f"page_test: mean brightness {dark:.0f} (dark) -> {light:.0f}; the Save button {ratio:.2f} times as tall")
        if not (light > 128 and light > dark + 60):
            failures.append(f"theme=light did not light the page: mean brightness {dark:.0f} -> {light:.0f}")
        if not 1.3 < ratio < 1.7:
            failures.append(f"scale=1.5 did not scale the panels: the Save button {ratio:.2f} times as tall")
        if fields.get("paused") != "1" or float(fields.get("t", -1)) != 0.0:
            failures.append(f"paused=1 did not start paused: {title!r}")
        if fields.get("lanes") != "2":
            failures.append(f"lanes=projection,acceleration did not give two lanes: {title!r}")
        search = devtools.evaluate("location.search")
        print(f"page_test: the address bar with lanes: {search}")
        if "lanes=projection,acceleration" not in search or "solver=" in search or "theme=light" not in search:
            failures.append(f"the address bar does not keep the lanes (and no solver= beside them): {search!r}")
        # A finger: SDL turns the touch into the mouse's press and motion, and the particle is grabbed.
        devtools.call("Emulation.setTouchEmulationEnabled", enabled=True, maxTouchPoints=5)
        found = find_particle(devtools, 13)
        grabs0 = int(status(devtools)[1]["grabs"])
        if not found:
            failures.append("no particle found to touch on the light page")
        else:
            x, y = found
            devtools.call("Input.dispatchTouchEvent", type="touchStart", touchPoints=[{"x": x, "y": y}])
            wait_frames(devtools, 2)
            for k in range(1, 6):
                devtools.call("Input.dispatchTouchEvent", type="touchMove",
                              touchPoints=[{"x": x + 6 * k, "y": y + 4 * k}])
                wait_frames(devtools, 1)
            devtools.call("Input.dispatchTouchEvent", type="touchEnd", touchPoints=[])
            fields = wait_frames(devtools, 3)
            scrolled = devtools.evaluate("[window.scrollX, window.scrollY, visualViewport.scale]")
            print(f"page_test: touch drag at {found}: grabs {grabs0} -> {fields.get('grabs')}; "
                  f"scroll and zoom {scrolled}")
            if int(fields["grabs"]) < grabs0 + 1:
                failures.append(f"a finger did not grab the particle: grabs {grabs0} -> {fields['grabs']}")
            if scrolled != [0, 0, 1]:
                failures.append(f"the touch moved the page: scroll and zoom {scrolled}")
        # Two fingers spreading apart zoom in: the camera's view (view= in the title: the half-height shown, in
        # metres) shrinks about as the fingers' distance grows; without them it stays put.
        view0 = float(status(devtools)[1]["view"])
        time.sleep(0.5)
        view1 = float(status(devtools)[1]["view"])
        cx, cy = 640, 330
        devtools.call("Input.dispatchTouchEvent", type="touchStart",
                      touchPoints=[{"x": cx - 30, "y": cy, "id": 0}, {"x": cx + 30, "y": cy, "id": 1}])
        wait_frames(devtools, 2)
        for k in range(1, 11):
            devtools.call("Input.dispatchTouchEvent", type="touchMove",
                          touchPoints=[{"x": cx - 30 - 10 * k, "y": cy, "id": 0},
                                       {"x": cx + 30 + 10 * k, "y": cy, "id": 1}])
            wait_frames(devtools, 1)
        devtools.call("Input.dispatchTouchEvent", type="touchEnd", touchPoints=[])
        view2 = float(wait_frames(devtools, 3)["view"])
        print(f"page_test: pinch: view {view0:g}, {view1:g} (no fingers) -> {view2:g} m after two fingers spread "
              f"from 60 to 260 px ({view1 / view2:.1f}x zoom)")
        if view1 != view0 or not view2 < view1 / 2.5:  # 260 / 60 apart: 4.3x, less what the first move takes
            failures.append(f"a pinch did not zoom in: view {view0}, {view1} -> {view2}")
        devtools.call("Emulation.setTouchEmulationEnabled", enabled=False)
        bad = "&theme=purple&scale=9&solver=nope&bogus=1"
        devtools.expected += ["URL: ", "Link settings"]
        seen0 = len(devtools.expected_seen)
        devtools.call("Page.navigate", url=url + bad)
        title, fields = wait_until(devtools, lambda f: float(f.get("t", 0)) > 0.3, 60)
        said = devtools.expected_seen[seen0:]
        print(f"page_test: {bad}: {title}")
        for line in said[:5]:
            print(f"page_test:   console: {line}")
        for word in ("--theme", "--ui-scale", "nope", "--bogus"):
            if not any(word in line for line in said):
                failures.append(f"the bad link setting {word} was not reported in the console: {said}")
        if float(fields.get("t", 0)) <= 0.3 or fields.get("scene") != "double_pendulum":
            failures.append(f"the page did not run on after bad link settings: {title!r}")
        devtools.expected.clear()

        # 6. A shared link: the URL names the scene and the solver.
        devtools.call("Page.navigate", url=url.replace("scene=double_pendulum", "scene=hanging_chain&solver=shake"))
        deadline = time.time() + 60
        while time.time() < deadline:
            title, fields = status(devtools)
            if fields.get("scene") == "hanging_chain" and float(fields.get("t", 0)) > 0:
                break
            time.sleep(0.25)
        print(f"page_test: ?scene=hanging_chain&solver=shake: {title}")
        if fields.get("scene") != "hanging_chain" or fields.get("solver") != "shake":
            failures.append(f"the URL's scene and solver were not taken: {title!r}")

        # 13. Anti-aliasing on (msaa=4, whatever the renderer) with split lanes: the multisampled scene is resolved and
        #     copied to the canvas at each lane's offset with no WebGL error (any GL_INVALID_* on the console fails
        #     the test) and the picture is not blank.
        devtools.call("Page.navigate", url=url + "&msaa=4&lanes=projection,acceleration&lane-view=split")
        title, fields = wait_until(devtools, lambda f: int(f.get("frame", 0)) > 20 and f.get("lanes") == "2", 60)
        width, height, colours, off, _ = picture_stats(
            base64.b64decode(devtools.call("Page.captureScreenshot", format="png")["data"]))
        print(f"page_test: ?msaa=4&lanes=projection,acceleration&lane-view=split: {colours} colours, {off:.1%} off "
              f"the background; {title}")
        if fields.get("lanes") != "2" or colours < 50 or off < 0.02:
            failures.append(f"msaa=4 with split lanes: {colours} colours, {off:.1%} off the background, {title!r}")

        # 14. A projector: at 1280x720, scale 2 and 3, light, with the Measure strip and with lanes side by side, the
        #     scene is larger than any panel and nothing is cut, broken across lines or laid on a particle (the same
        #     check as the desktop's GUI tests, ui/layout_check.h, run inside the page on what it drew).
        # (Lanes side by side at 2x are left out here: on the page the timeline then runs off the screen, a known
        # problem; the desktop's tests/app/test_layout.cpp checks split lanes at projector sizes.)
        for query in ("&scale=2&theme=light&measure=1", "&scale=3&theme=light&measure=1"):
            devtools.call("Page.navigate", url=url + query)
            title, fields = wait_until(devtools, lambda f: int(f.get("frame", 0)) > 30, 60)
            report = devtools.evaluate("Module.ccall('lagrange_layout_report', 'string', [], [])") or ""
            lines = [l for l in report.split("\n") if l]
            print(f"page_test: ?{query[1:]}: {lines[0] if lines else 'no report'}; {len(lines) - 1} layout problems")
            if not lines:
                failures.append(f"{query}: no layout report")
                continue
            words = lines[0].split()
            if float(words[1]) <= float(words[3]):
                failures.append(f"{query}: the scene ({words[1]} px²) is not larger than the largest panel ({words[3]})")
            for problem in lines[1:6]:
                failures.append(f"{query}: {problem}")
    except StopIteration:
        pass
    finally:
        try:
            shown = set()
            for line in devtools.console_lines:
                if line not in shown and len(shown) < 40:
                    print("page_test: console:", line)
                shown.add(line)
            print(f"page_test: {len(devtools.console_lines)} console lines, {len(shown)} distinct")
            if devtools.console_errors:
                failures.append(f"{len(devtools.console_errors)} console errors: {devtools.console_errors[:5]}")
        except NameError:
            failures.append("no DevTools connection")
        chrome.terminate()
        try:
            chrome.wait(10)
        except subprocess.TimeoutExpired:
            chrome.kill()
        server.shutdown()
        shutil.rmtree(profile, ignore_errors=True)
    for failure in failures:
        print("page_test: FAIL:", failure)
    print("page_test:", "FAILED" if failures else "all checks passed", f"({time.time() - test_started:.0f} s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
