#!/usr/bin/env python3
"""The web page in a real headless Chromium (docs/web.md): python3's standard library only, no puppeteer.

  tests/web/page_test.py [SITE_DIR] [--screenshot OUT.png]

Serves SITE_DIR (default build-web/site) on 127.0.0.1, opens it in `chromium --headless` (SwiftShader WebGL2) and
drives it over the DevTools protocol (a websocket from the standard library). Checks, each against what it would
be if the page did nothing:
  1. the page loads: the wasm runs and publishes its status in document.title, no console error, exception or
     WebGL error;
  2. the canvas is not blank: the screenshot has many colours and a good share of pixels off the background;
  3. the physics steps: the simulated time t in the title advances with the wall clock;
  4. keys are taken: Space pauses (t then stays put), key 4 switches to the 4th solver of the list (acceleration);
  5. the mouse is taken: moving the pointer over the scene finds a particle (hover count), pressing there grabs it;
  6. a link names the scene and the solver: ?scene=hanging_chain&solver=shake opens that scene with that solver;
  7. the scene editor: key E enters Edit mode and leaves it (editing= in the title);
  8. recording (check_recording): F9 starts, F9 after some simulated time stops; the GIF is then in the page's file
     system, and parses (python, below) as a GIF of the canvas's size with more than one frame, looping, whose
     delays add up to its frames at 30 fps.
Exit 0 when every check passes, 1 otherwise (each failure printed), 77 when chromium is missing (a skip).
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

    def _event(self, message):
        method, params = message.get("method"), message.get("params", {})
        if method == "Runtime.consoleAPICalled":
            text = " ".join(str(a.get("value", a.get("description", ""))) for a in params.get("args", []))
            self.console_lines.append(f"console.{params.get('type')}: {text}")
            if params.get("type") in ("error", "assert"):
                self.console_errors.append(text)
        elif method == "Runtime.exceptionThrown":
            details = params.get("exceptionDetails", {})
            text = details.get("exception", {}).get("description") or details.get("text", "")
            self.console_lines.append("exception: " + text)
            self.console_errors.append("exception: " + text)
        elif method == "Log.entryAdded":
            entry = params.get("entry", {})
            self.console_lines.append(f"log.{entry.get('level')}: {entry.get('text')} {entry.get('url', '')}")
            # WebGL errors come as warnings ("GL_INVALID_OPERATION: glBlitFramebuffer: ..."): errors all the same.
            if entry.get("level") == "error" or "GL_INVALID" in (entry.get("text") or ""):
                self.console_errors.append(f"{entry.get('text')} {entry.get('url', '')}")

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

    def key(self, key, code, vk, text=None):
        for kind in ("keyDown", "keyUp"):
            params = {"type": kind if text is None or kind == "keyUp" else "keyDown", "key": key, "code": code,
                      "windowsVirtualKeyCode": vk, "nativeVirtualKeyCode": vk}
            if text is not None and kind == "keyDown":
                params["text"] = text
            self.call("Input.dispatchKeyEvent", **params)
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


# The recorded file: where the page wrote it (its in-memory file system). When recordings become downloads, this
# is the one function to change: get the bytes from the download instead of FS.readFile.
FIND_GIFS = """(() => {
  const fs = (typeof Module !== 'undefined' && Module.FS) || (typeof FS !== 'undefined' && FS);
  if (!fs) return {error: 'FS is not exported'};
  const found = [];
  const walk = (dir) => {
    for (const name of fs.readdir(dir)) {
      if (name === '.' || name === '..') continue;
      const path = (dir === '/' ? '' : dir) + '/' + name;
      if (['/dev', '/proc', '/sys', '/assets'].includes(path)) continue;
      const mode = fs.stat(path).mode;
      if (fs.isDir(mode)) walk(path);
      else if (name.endsWith('.gif')) found.push(path);
    }
  };
  walk('/');
  return {found};
})()"""


def read_page_file(devtools, path):
    """A file's bytes from the page's file system (base64 over the DevTools protocol)."""
    result = devtools.call("Runtime.evaluate", returnByValue=True, expression=(
        # Files the page writes have mode 0: io::OutputFile gives them 0666 & ~umask, and Emscripten's umask starts
        # at 0777. FS.readFile refuses those (EACCES), so a file without read permission is made readable first
        # (and reported: the downloads will need the same, or a umask of 022 at start).
        "(() => { const fs = (typeof Module !== 'undefined' && Module.FS) || FS; const path = " + json.dumps(path) +
        "; const mode = fs.stat(path).mode; if (!(mode & 0o444)) fs.chmod(path, mode | 0o644);"
        " const b = fs.readFile(path, {encoding: 'binary'});"
        " let s = ''; for (let i = 0; i < b.length; i += 8192)"
        " s += String.fromCharCode.apply(null, b.subarray(i, i + 8192));"
        " return {mode: (mode & 0o777).toString(8), data: btoa(s)}; })()"))
    if "exceptionDetails" in result:
        details = result["exceptionDetails"]
        raise RuntimeError(f"reading {path}: " + str(details.get("exception", {}).get("description") or details))
    value = result["result"]["value"]
    if value["mode"] == "0":
        print(f"page_test: note: {path} was written with mode 0 (Emscripten's umask is 0777), made readable to read it")
    return base64.b64decode(value["data"])


def check_recording(devtools, failures):
    """F9, some simulated time, F9: a GIF of the canvas in the page's file system, more than one frame."""
    before = devtools.evaluate(FIND_GIFS)
    if "error" in before:
        failures.append("recording: " + before["error"])
        return
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
    wait_frames(devtools, 3)
    new = sorted(set(devtools.evaluate(FIND_GIFS)["found"]) - set(before["found"]))
    saved = [line for line in devtools.console_lines if "lagrange-lab: recorded" in line]
    print(f"page_test: F9 .. F9 over t {t0:.3f} -> {t1:.3f} s: new GIFs {new}; {saved[-1] if saved else 'no console line'}")
    if len(new) != 1:
        failures.append(f"recording: expected one new .gif in the page's file system, found {new}")
        return
    try:
        data = read_page_file(devtools, new[0])
    except RuntimeError as error:
        failures.append(f"recording: {error}")
        return
    try:
        width, height, images, delays, loops = parse_gif(data)
    except (ValueError, IndexError, struct.error) as error:
        failures.append(f"recording: {new[0]} ({len(data)} bytes) does not parse as a GIF: {error}")
        return
    total_cs = sum(d or 0 for d in delays)
    print(f"page_test: recording {new[0]}: {len(data)} bytes, {width}x{height}, {len(images)} frames, "
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


def main():
    args = sys.argv[1:]
    out_png = None
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

    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=site)
    handler.func.extensions_map[".wasm"] = "application/wasm"
    handler.func.log_message = lambda *a: None
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/index.html?scene=double_pendulum"

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

        # 8. Recording: F9 .. F9 leaves a GIF in the page's file system.
        check_recording(devtools, failures)

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
    print("page_test:", "FAILED" if failures else "all checks passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
