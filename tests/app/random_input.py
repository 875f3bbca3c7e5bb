#!/usr/bin/env python3
"""Random real input into the sandbox window under a real X server.

Starts Xvfb, opens `lagrange-lab SCENE --report` on it for each scene, and drives it with xdotool for a fixed time:
pointer moves and rests (hovers) everywhere, sweeps, left drags and flings, right and middle drags, wheel turns,
clicks and double clicks on the scene and on the panels, Shift+clicks, and every documented key (from
`lagrange-lab --list-keys`) except the quit key, which closes the window at the end, and spells in Edit mode (E, a
tool, clicks and drags, E again; at least one per scene). The input sequence comes from a fixed seed; the scenes take
turns at UI scale 1, 2 (light, Measure strip) and 3 (light). Where the scene is and what it draws is read from Xvfb's
screen (-fbdir) before every action: half of the pointer's targets are pixels drawn on the scene at that moment, so
it lands on particles and rods. A scene fails when the window crashes, does not close within a
bounded time after Ctrl+Q (a hang), exits non-zero (3: a non-finite state), reports a non-finite state, or froze for
longer than --max-frame seconds. The run fails too when, over all scenes, the pointer never rested on a particle or a
rod, never grabbed a particle or never made an edit (the input would not have reached the scene).

Exit codes: 0 every scene passed, 1 a failure, 77 skipped (no Xvfb or no xdotool: CTest's SKIP_RETURN_CODE).

  random_input.py BUILD/app/lagrange-lab assets/double_pendulum.json [more scenes] [--seconds 40] [--seed 6]
"""
import argparse
import os
import random
import shutil
import struct
import subprocess
import sys
import tempfile
import time

SCREEN_W, SCREEN_H = 1280, 800
WINDOW_W, WINDOW_H = 1280, 720
# The window's look per scene, in turn: a laptop's 1x, then a projector's 2x and 3x in the light theme with the Measure
# strip (panels folded to bars, the scene framed beside the texts over it): random input at every layout.
LOOKS = [[], ["--ui-scale", "2", "--theme", "light", "--measure"], ["--ui-scale", "3", "--theme", "light"]]

# SDL key names (lagrange-lab --list-keys) to X keysym names (xdotool key ...).
KEYSYMS = {"Space": "space", "Right": "Right", "Left": "Left", "[": "bracketleft", "]": "bracketright",
           "Tab": "Tab", "Escape": "Escape", "Return": "Return", "Home": "Home", "End": "End"}


def keysym(sdl_name):
    if sdl_name in KEYSYMS:
        return KEYSYMS[sdl_name]
    if len(sdl_name) == 1 and sdl_name.isalnum():
        return sdl_name.lower()
    if sdl_name.startswith("F") and sdl_name[1:].isdigit():
        return sdl_name
    raise SystemExit(f"random_input: no X keysym known for the documented key '{sdl_name}': add it to KEYSYMS")


def documented_keys(exe):
    out = subprocess.run([exe, "--list-keys"], check=True, capture_output=True, text=True, timeout=30).stdout
    keys, quit_keys = [], []
    for line in out.split():
        if line == "Ctrl+Q":  # quits: pressed once, at the end
            quit_keys.append("ctrl+q")
        elif line.startswith("Ctrl+"):  # any other Ctrl key (Ctrl+S saves) is part of the random input
            keys.append("ctrl+" + keysym(line[5:]))
        else:
            keys.append(keysym(line))
    if not keys or not quit_keys:
        raise SystemExit("random_input: lagrange-lab --list-keys listed no keys or no quit key")
    return keys, quit_keys


def drawn_targets(fbdir, origin, scale=1.0):
    """Where the scene is and what is drawn on it, read from the screen Xvfb keeps in fbdir as an XWD file (-fbdir):
    the scene's background is the commonest colour in the window (the scene is the largest thing on screen at every
    size, scale and theme), the scene's columns are those where that colour fills most of the rows, and the targets
    are pixels there far from it (particles, rods, pins, trails). Returns (targets, (x0, x1)); empty when the screen
    cannot be read."""
    try:
        with open(os.path.join(fbdir, "Xvfb_screen0"), "rb") as f:
            data = f.read()
    except OSError:
        return [], None
    header = struct.unpack(">25I", data[:100])
    header_size, width, height, byte_order, bits, line = header[0], header[4], header[5], header[7], header[11], header[12]
    ncolours = header[19]
    if bits != 32:
        return [], None
    pixels = header_size + 12 * ncolours

    def colour(x, y):
        i = pixels + (origin[1] + y) * line + 4 * (origin[0] + x)
        if i + 4 > len(data):
            return None
        return (data[i + 2], data[i + 1], data[i]) if byte_order == 0 else (data[i + 1], data[i + 2], data[i + 3])

    counts = {}  # in the middle third, which the scene covers in every layout (panels and bars are at the sides)
    for y in range(0, WINDOW_H, 9):
        for x in range(WINDOW_W // 3, 2 * WINDOW_W // 3, 9):
            c = colour(x, y)
            if c is not None:
                counts[c] = counts.get(c, 0) + 1
    if not counts:
        return [], None
    background = max(counts, key=counts.get)

    def far(c, limit):
        return c is not None and sum(abs(a - b) for a, b in zip(c, background)) > limit

    def scene_column(x):
        return sum(not far(colour(x, y), 0) for y in range(40, WINDOW_H - 40, 12)) > 0.4 * (WINDOW_H - 80) / 12

    def run_end(x, step):  # the last scene column from x on, across grid lines (a gap of up to 3 columns)
        end, gap = x, 0
        while 0 <= x + step < WINDOW_W and gap <= 3:
            x += step
            if scene_column(x):
                end, gap = x, 0
            else:
                gap += 1
        return end

    middle = next((x for x in range(WINDOW_W // 2, 2 * WINDOW_W // 3, 6) if scene_column(x)), None)
    if middle is None:
        return [], None
    x0, x1 = run_end(middle, -6), run_end(middle, 6)  # the run of scene columns through the middle
    if x1 - x0 < 60:
        return [], None
    x_range = (x0 + 6, x1 - 6)
    targets = []
    # Below the top line and above the legend and the timeline (their height grows with the UI scale), so the pointer
    # rests on particles, rods and trails rather than on text.
    top, bottom = int(50 * scale), WINDOW_H - int(110 * scale)
    if bottom - top < 200:
        top, bottom = WINDOW_H // 2 - 100, WINDOW_H // 2 + 100
    for y in range(top, bottom, 3):
        for x in range(x_range[0], x_range[1], 3):
            c = colour(x, y)
            if far(c, 240):  # not grid lines
                targets.append((x, y, max(c) - min(c) > 60))
    # A particle, most likely: a saturated pixel with saturated pixels 6 to the left, right, above and below (a
    # sphere, not a thin rod or trail).
    saturated = {(x, y) for x, y, s in targets if s}
    return [(x, y, all((x + dx, y + dy) in saturated for dx, dy in ((-6, 0), (6, 0), (0, -6), (0, 6))))
            for x, y, _ in targets], x_range


def start_xvfb(fbdir):
    read_fd, write_fd = os.pipe()
    xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(write_fd), "-screen", "0", f"{SCREEN_W}x{SCREEN_H}x24",
                             "-fbdir", fbdir, "-nolisten", "tcp", "-noreset"], pass_fds=[write_fd],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write_fd)
    with os.fdopen(read_fd) as pipe:
        number = pipe.readline().strip()
    if not number:
        xvfb.kill()
        raise SystemExit("random_input: Xvfb did not start")
    return xvfb, ":" + number


class Actions:
    """Builds an xdotool script (one command per line, read by `xdotool -`) from a seeded generator."""

    def __init__(self, rng, keys, origin):
        self.rng, self.keys, self.origin = rng, keys, origin
        self.lines = []
        self.counts = {}
        self.targets = []  # window pixels where the scene drew something, read from the screen
        # Where the scene is, between the panels or their bars: read from the screen before every action.
        self.scene_x = (int(0.27 * WINDOW_W), int(0.70 * WINDOW_W))

    def point(self, where="any"):
        r = self.rng
        if where == "particle":
            coloured = [t for t in self.targets if t[2]]
            if coloured:
                x, y, _ = r.choice(coloured)
                return x, y
            where = "scene"
        if where in ("scene", "any") and self.targets and r.random() < 0.5:  # on something drawn
            x, y, _ = r.choice(self.targets)
            return x + r.randint(-2, 2), y + r.randint(-2, 2)
        if where == "scene" or (where == "any" and r.random() < 0.65):
            x = r.randint(*self.scene_x)
        elif where == "left":
            x = r.randint(2, max(3, self.scene_x[0] - 10))
        elif where == "right":
            x = r.randint(min(self.scene_x[1] + 10, WINDOW_W - 4), WINDOW_W - 3)
        else:
            x = r.randint(2, WINDOW_W - 3)
        return x, r.randint(2, WINDOW_H - 3)

    def move(self, p, rest):
        self.lines.append(f"mousemove {self.origin[0] + p[0]} {self.origin[1] + p[1]}")
        if rest > 0:
            self.lines.append(f"sleep {rest:.3f}")

    def add(self, name):
        self.counts[name] = self.counts.get(name, 0) + 1

    def choose(self):
        return self.rng.choices(["hover", "sweep", "drag", "fling", "pan", "wheel", "panel click", "scene click",
                                 "double click", "shift click", "key", "edit"],
                                weights=[20, 6, 12, 6, 4, 4, 8, 6, 2, 2, 14, 2])[0]

    def action(self, kind):
        r = self.rng
        self.add(kind)
        if kind == "hover":  # long enough for a frame or two to draw the tooltip
            self.move(self.point(), r.uniform(0.1, 0.4))
        elif kind == "sweep":
            a, b = self.point("scene"), self.point("scene")
            for k in range(1, 13):
                self.move((a[0] + (b[0] - a[0]) * k // 12, a[1] + (b[1] - a[1]) * k // 12), 0.02)
        elif kind in ("drag", "fling", "pan"):
            button = 1 if kind != "pan" else r.choice([2, 3])
            start = self.point("particle" if kind != "pan" and r.random() < 0.7 else "scene" if r.random() < 0.8
                               else "any")
            self.move(start, 0.0)
            self.lines.append(f"mousedown {button}")
            self.lines.append("sleep 0.03")
            p = start
            moves = r.randint(3, 12) if kind != "fling" else r.randint(2, 4)
            for _ in range(moves):
                step = 160 if kind == "fling" else 60
                p = (min(max(p[0] + r.randint(-step, step), 2), WINDOW_W - 3),
                     min(max(p[1] + r.randint(-step, step), 2), WINDOW_H - 3))
                self.move(p, 0.01 if kind == "fling" else r.uniform(0.02, 0.08))
            if r.random() < 0.2:  # sometimes far outside the reach of the rods, and held there
                p = self.point("any")
                self.move(p, r.uniform(0.2, 0.6))
            self.lines.append(f"mouseup {button}")
            self.lines.append("sleep 0.03")
        elif kind == "wheel":
            self.move(self.point(), 0.02)
            button = r.choice([4, 5])
            for _ in range(r.randint(1, 4)):
                self.lines.append(f"click {button}")
                self.lines.append("sleep 0.02")
        elif kind == "panel click":
            self.move(self.point(r.choice(["left", "right"])), 0.05)
            self.lines.append("click 1")
            self.lines.append("sleep 0.05")
        elif kind == "scene click":
            self.move(self.point("scene"), 0.03)
            self.lines.append("click 1")
            self.lines.append("sleep 0.03")
        elif kind == "double click":
            self.move(self.point("scene"), 0.03)
            self.lines.append("click --repeat 2 --delay 40 1")
            self.lines.append("sleep 0.03")
        elif kind == "edit":  # Edit mode (E), a tool (1 select, 2 particle, 3 rod), a few gestures, E plays again
            self.lines.append("key Escape")  # a text field a panel click may have focused lets the keys go
            self.lines.append("key e")
            self.lines.append("sleep 0.15")
            self.lines.append(f"key {r.choice(['1', '2', '3', '3'])}")
            self.lines.append("sleep 0.05")
            self.action("scene click")  # the particle and rod tools add a particle here
            for _ in range(r.randint(3, 7)):
                self.action(r.choice(["scene click", "scene click", "double click", "drag", "shift click", "hover"]))
            self.lines.append("key e")
            self.lines.append("sleep 0.1")
        elif kind == "shift click":
            self.move(self.point("scene"), 0.03)
            self.lines.append("keydown shift")
            self.lines.append("click 1")
            self.lines.append("keyup shift")
            self.lines.append("sleep 0.03")
        else:
            key = r.choice(self.keys)
            self.counts["key " + key] = self.counts.get("key " + key, 0) + 1
            self.lines.append(f"key {key}")
            self.lines.append(f"sleep {r.uniform(0.02, 0.1):.3f}")


def xdotool(display, args, script=None, timeout=60):
    env = dict(os.environ, DISPLAY=display)
    return subprocess.run(["xdotool"] + args, input=script, env=env, capture_output=True, text=True, timeout=timeout)


def run_scene(exe, scene, display, fbdir, keys, quit_keys, seconds, seed, max_frame, log_dir, reached, look):
    name = os.path.splitext(os.path.basename(scene))[0]
    rng = random.Random(f"{seed}:{name}")
    scale = float(look[look.index("--ui-scale") + 1]) if "--ui-scale" in look else 1.0
    pictures = tempfile.mkdtemp(prefix="lagrange-random-input-")
    # Screenshots, saved scenes and a theme or scale clicked in the View section go to a scratch folder, never the
    # user's pictures, documents or config.
    env = dict(os.environ, DISPLAY=display, XDG_PICTURES_DIR=pictures, XDG_DOCUMENTS_DIR=pictures,
               XDG_CONFIG_HOME=os.path.join(pictures, "config"))
    env.pop("SDL_VIDEODRIVER", None)  # the real X server, not the offscreen driver the other GUI tests use
    env.pop("WAYLAND_DISPLAY", None)
    # The window opens under the cursor: rest it where the scene will be drawn.
    xdotool(display, ["mousemove", str(SCREEN_W // 2), str(SCREEN_H // 2)])
    out_path = os.path.join(log_dir, f"random_input_{name}.out")
    with open(out_path, "w") as out:
        app = subprocess.Popen([exe, scene, "--size", f"{WINDOW_W}x{WINDOW_H}", "--no-vsync", "--report"] + look, env=env,
                               stdout=out, stderr=subprocess.STDOUT)
    problems = []
    script_path = os.path.join(log_dir, f"random_input_{name}.xdo")
    try:
        found = xdotool(display, ["search", "--sync", "--onlyvisible", "--name", "^Lagrange Lab"], timeout=30)
        ids = found.stdout.split()
        if not ids:
            problems.append("no window appeared")
            return problems
        window = ids[0]
        geometry = dict(line.split("=", 1) for line in xdotool(display, ["getwindowgeometry", "--shell", window])
                        .stdout.split() if "=" in line)
        origin = (int(geometry.get("X", 0)), int(geometry.get("Y", 0)))
        xdotool(display, ["windowfocus", "--sync", window])
        actions = Actions(rng, keys, origin)
        time.sleep(1.0)  # the first frames, with the cursor resting over the scene
        start = time.monotonic()
        with open(script_path, "w") as script_log:
            edited = False
            while time.monotonic() - start < seconds:
                kind = actions.choose()
                if not edited and time.monotonic() - start > seconds / 3:
                    kind = "edit"  # every scene gets Edit mode at least once
                edited |= kind == "edit"
                # Half the drags pause first (Space): grab a particle standing still, pose it, then run again.
                pause = kind in ("drag", "fling") and rng.random() < 0.5
                if pause:
                    xdotool(display, ["-"], script="key space\nsleep 0.15\n")
                    script_log.write("key space\nsleep 0.15\n")
                # Where the particles and rods are now, from the screen's pixels; then the action.
                actions.targets, scene_x = drawn_targets(fbdir, origin, scale)
                if scene_x and scene_x[1] - scene_x[0] > 100:
                    actions.scene_x = scene_x
                actions.lines = []
                actions.action(kind)
                if pause:
                    actions.lines.append("key space")
                script_log.write("\n".join(actions.lines) + "\n")
                xdotool(display, ["-"], script="\n".join(actions.lines) + "\n", timeout=60)
                if app.poll() is not None:
                    problems.append(f"the window closed during the input (exit code {app.returncode}): "
                                    f"{'crash, signal ' + str(-app.returncode) if app.returncode < 0 else 'exit'}")
                    break
        # Every documented key at least once, then quit.
        if app.poll() is None:
            tail = [f"key {k}\nsleep 0.05" for k in keys if k != "r"]  # no reset: the final check sees the motion
            xdotool(display, ["-"], script="mousemove {} {}\n".format(origin[0] + WINDOW_W // 2, origin[1] + 60) +
                    "\n".join(tail) + "\nkey Escape\nsleep 0.2\n", timeout=60)
        if app.poll() is None:
            xdotool(display, ["key", quit_keys[0]])
            try:
                app.wait(timeout=30)
            except subprocess.TimeoutExpired:
                problems.append(f"hang: the window did not close within 30 s of {quit_keys[0]}")
        print(f"  {name}: {sum(actions.counts.values())} actions in {time.monotonic() - start:.0f} s: " +
              ", ".join(f"{k} {v}" for k, v in sorted(actions.counts.items()) if not k.startswith("key ")) +
              f"; {sum(v for k, v in actions.counts.items() if k.startswith('key '))} key presses")
    finally:
        if app.poll() is None:
            app.kill()
            app.wait()
        shutil.rmtree(pictures, ignore_errors=True)
    with open(out_path) as f:
        output = f.read()
    report = [l for l in output.splitlines() if l.startswith("lagrange-lab: final")]
    if app.returncode is not None and app.returncode < 0 and not problems:
        problems.append(f"crash: signal {-app.returncode}")
    elif app.returncode not in (0, None) and not problems:
        problems.append(f"exit code {app.returncode}")
    if not report:
        problems.append("no final report line")
    else:
        print("  " + report[-1])
        if "state=finite" not in report[-1]:
            problems.append("non-finite final state")
        slowest = float(report[-1].split("slowest frame=")[1].split()[0])
        # What the input reached, summed over the scenes (a fast pendulum may dodge every grab in one run).
        for what in reached:
            reached[what] += int(report[-1].split(what + "=")[1].split()[0])
        if slowest > max_frame * 1000.0:
            problems.append(f"froze: one frame took {slowest / 1000.0:.1f} s (limit {max_frame} s)")
    if problems:
        print(f"  output of the window ({out_path}):\n" + "\n".join("    " + l for l in output.splitlines()[-20:]))
        print(f"  the input it was given: {script_path}")
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("exe")
    parser.add_argument("scenes", nargs="+")
    parser.add_argument("--seconds", type=float, default=40.0, help="input time per scene")
    parser.add_argument("--seed", type=int, default=6)
    parser.add_argument("--max-frame", type=float, default=5.0, help="longest acceptable frame, seconds")
    parser.add_argument("--log-dir", default=".")
    args = parser.parse_args()
    missing = [tool for tool in ("Xvfb", "xdotool") if not shutil.which(tool)]
    if missing:
        print(f"random_input: skipped, {' and '.join(missing)} not installed (scripts/install-deps.sh installs them)")
        return 77
    keys, quit_keys = documented_keys(args.exe)
    fbdir = tempfile.mkdtemp(prefix="lagrange-random-input-screen-")
    xvfb, display = start_xvfb(fbdir)
    failed = False
    # hover frames on particles and rods, particles grabbed, edits made in Edit mode (the E key starts it)
    reached = {"particle": 0, "rod": 0, "grabs": 0, "edits": 0}
    try:
        print(f"random_input: Xvfb on {display}, seed {args.seed}, {args.seconds:.0f} s per scene, keys: {' '.join(keys)}")
        for k, scene in enumerate(args.scenes):
            look = LOOKS[k % len(LOOKS)]
            print(f"  {os.path.basename(scene)}: {' '.join(look) or 'scale 1, dark'}")
            problems = run_scene(args.exe, scene, display, fbdir, keys, quit_keys, args.seconds, args.seed,
                                 args.max_frame, args.log_dir, reached, look)
            for p in problems:
                print(f"FAIL {os.path.basename(scene)}: {p}")
            failed |= bool(problems)
        # The input must have reached the scenes, or the test proves nothing.
        print("random_input: over all scenes, hover frames on particles {particle}, on rods {rod}; {grabs} grabs; "
              "{edits} edits".format(**reached))
        for what, count in reached.items():
            if count == 0:
                print(f"FAIL: the input never reached the scenes: {what} 0")
                failed = True
    finally:
        xvfb.terminate()
        xvfb.wait()
        shutil.rmtree(fbdir, ignore_errors=True)
    print("random_input: " + ("FAILED" if failed else "passed"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
