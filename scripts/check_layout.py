#!/usr/bin/python3
"""The folders' floors, sizes and file maps of engine/ and app/ (docs/architecture.md, "The app"; CTest `layout`).

    scripts/check_layout.py            check; prints the folder table, or what is wrong (exit 1)
    scripts/check_layout.py --table    the folder table only: floor, folder, files, lines, share
    scripts/check_layout.py --map      a skeleton of docs/app.md's and docs/architecture.md's file maps, from the tree

The floors table is read once, from docs/architecture.md between <!-- floors --> and <!-- /floors -->: one row per
folder, `| floor | `folder` | what it holds | most of the lines |`. A file belongs to the longest folder of the table
that holds it (a top-level folder, `app`, holds only its own files). Fails when
  (a) an #include points from a folder to a folder on a higher floor, or to another folder on the same floor (so the
      engine, floors 0-1, never includes app/), or names no file; or the engine includes SDL, ImGui or OpenGL;
  (b) a folder holds more than its share of the lines of engine/ and app/ source (.h, .cpp, .c): 25 % unless its
      row says otherwise;
  (c) a source file under app/ is missing from docs/app.md's file map, or one under engine/ from docs/architecture.md's
      (between <!-- file-map --> and <!-- /file-map -->), or a map names a file that does not exist.
Python 3 standard library only (Debian's /usr/bin/python3).
"""
import argparse
import os
import re
import sys

SOURCE_EXTENSIONS = (".h", ".cpp", ".c")
DEFAULT_SHARE = 25.0
# Where a quoted or angled include is looked for after the including file's own folder: the include paths the builds
# give (app/, the engine's public headers) and the desktop's side of the GL seam (window/desktop/sandbox_gl.h; the
# web build puts app/web/sandbox_gl.h first instead, the same header's other side).
INCLUDE_ROOTS = ("app", "engine/include", "app/window/desktop")
# What the engine never includes: it depends on glm, Eigen and nlohmann-json only (engine/CMakeLists.txt).
ENGINE_FORBIDDEN = re.compile(r"^(SDL|imgui|backends/imgui|glad/|GL/|GLES|sandbox_gl\.h|emscripten)")
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^">]+)[">]')
FLOORS_DOC = "docs/architecture.md"
APP_MAP_DOC = "docs/app.md"
ENGINE_MAP_DOC = "docs/architecture.md"


class Room:
    def __init__(self, floor, folder, share):
        self.floor, self.folder, self.share = floor, folder, share
        self.files, self.lines = [], 0


def between(text, name, doc):
    begin, end = "<!-- %s -->" % name, "<!-- /%s -->" % name
    if begin not in text or end not in text:
        sys.exit("check_layout: %s has no %s ... %s section" % (doc, begin, end))
    return text.split(begin, 1)[1].split(end, 1)[0]


def read_floors(root):
    text = open(os.path.join(root, FLOORS_DOC), encoding="utf-8").read()
    rooms = []
    for line in between(text, "floors", FLOORS_DOC).splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 3 or not cells[0].isdigit():
            continue
        folder = cells[1].strip("`").rstrip("/")
        share = DEFAULT_SHARE
        if len(cells) >= 4 and cells[3]:
            share = float(cells[3].replace("%", "").strip())
        rooms.append(Room(int(cells[0]), folder, share))
    if not rooms:
        sys.exit("check_layout: the floors table in %s is empty" % FLOORS_DOC)
    return rooms


def source_files(root):
    """Every file under engine/ and app/, as paths relative to root, sorted."""
    files = []
    for top in ("engine", "app"):
        for folder, dirs, names in os.walk(os.path.join(root, top)):
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            for name in sorted(names):
                files.append(os.path.relpath(os.path.join(folder, name), root))
    return files


def room_of(path, rooms):
    """The longest folder of the table that holds `path`; a top-level folder (`app`) holds only its own files, so a
    new folder under app/ must be given a row."""
    best = None
    for room in rooms:
        if not path.startswith(room.folder + "/"):
            continue
        if "/" not in room.folder and "/" in path[len(room.folder) + 1:]:
            continue
        if best is None or len(room.folder) > len(best.folder):
            best = room
    return best


def resolve(root, including, kind, name):
    candidates = [os.path.join(os.path.dirname(including), name)] if kind == '"' else []
    candidates += [os.path.join(r, name) for r in INCLUDE_ROOTS]
    for candidate in candidates:
        candidate = os.path.normpath(candidate)
        if os.path.isfile(os.path.join(root, candidate)):
            return candidate
    return None


def check_includes(root, files, rooms, problems):
    for path in files:
        if not path.endswith(SOURCE_EXTENSIONS):
            continue
        here = room_of(path, rooms)
        if here is None:
            continue  # reported once per folder by check_rooms
        for number, line in enumerate(open(os.path.join(root, path), encoding="utf-8", errors="replace"), 1):
            match = INCLUDE.match(line)
            if not match:
                continue
            kind, name = match.groups()
            where = "%s:%d: #include %s%s%s" % (path, number, kind, name, '"' if kind == '"' else ">")
            if path.startswith("engine/") and ENGINE_FORBIDDEN.match(name):
                problems.append("%s: the engine never includes a window, UI or GL library" % where)
                continue
            target = resolve(root, path, kind, name)
            if target is None:
                if kind == '"':
                    problems.append("%s names no file of engine/ or app/ (looked beside it and in %s)" %
                                    (where, ", ".join(INCLUDE_ROOTS)))
                continue
            there = room_of(target, rooms)
            if there is None or there is here:
                continue
            if path.startswith("engine/") and target.startswith("app/"):
                problems.append("%s: the engine never includes app/ (%s)" % (where, target))
            elif there.floor > here.floor:
                problems.append("%s points up: %s is on floor %d, %s on floor %d; move the declaration down to the "
                                "lowest folder that needs it, or the including file up" %
                                (where, there.folder, there.floor, here.folder, here.floor))
            elif there.floor == here.floor:
                problems.append("%s points sideways: %s and %s are both on floor %d; rooms on one floor do not "
                                "include each other" % (where, there.folder, here.folder, here.floor))


def count_lines(root, files, rooms, problems):
    seen = set()
    for path in files:
        room = room_of(path, rooms)
        if room is None and not path.endswith(SOURCE_EXTENSIONS):
            continue  # a build file (engine/CMakeLists.txt) belongs to no room
        if room is None:
            folder = os.path.dirname(path)
            if folder not in seen:
                seen.add(folder)
                problems.append("%s/ is not in the floors table (%s, <!-- floors -->): give it a floor" %
                                (folder, FLOORS_DOC))
            continue
        room.files.append(path)
        if path.endswith(SOURCE_EXTENSIONS):
            with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
                room.lines += sum(1 for _ in f)
    return sum(room.lines for room in rooms)


def check_sizes(rooms, total, problems):
    for room in rooms:
        share = 100.0 * room.lines / total if total else 0.0
        if share > room.share:
            problems.append("%s/ holds %.1f %% of the lines of engine/ and app/ (%d of %d), over its %g %%: cut it "
                            "into rooms" % (room.folder, share, room.lines, total, room.share))


def map_entries(root, doc, prefix):
    """The files a map names: {path: line number}. Headings `### `FOLDER/`` set the folder; a list item names its
    files in backticks before its ' — ' (relative to that folder)."""
    text = open(os.path.join(root, doc), encoding="utf-8").read()
    section = between(text, "file-map", doc)
    offset = text[:text.index("<!-- file-map -->")].count("\n") + 1
    named, folder, problems = {}, None, []
    for number, line in enumerate(section.splitlines(), offset):
        heading = re.match(r"^#+\s+`([^`]+)/`", line)
        if heading:
            folder = heading.group(1)
            continue
        if not line.startswith("- `") or folder is None:
            continue
        head = line.split(" — ", 1)[0]
        for name in re.findall(r"`([^`]+)`", head):
            path = os.path.normpath(os.path.join(folder, name))
            if not path.startswith(prefix + "/"):
                problems.append("%s:%d: `%s` is outside %s/" % (doc, number, name, prefix))
            elif path in named:
                problems.append("%s:%d: %s is listed twice (line %d)" % (doc, number, path, named[path]))
            else:
                named[path] = number
    return named, problems


def check_maps(root, files, problems):
    for doc, prefix in ((APP_MAP_DOC, "app"), (ENGINE_MAP_DOC, "engine")):
        named, found = map_entries(root, doc, prefix)
        problems += found
        present = set(f for f in files if f.startswith(prefix + "/"))
        for path, number in sorted(named.items(), key=lambda item: item[1]):
            if path not in present:
                problems.append("%s:%d: the file map names %s, which does not exist" % (doc, number, path))
        for path in sorted(present):
            if path.endswith(SOURCE_EXTENSIONS) and path not in named:
                problems.append("%s is missing from %s's file map (<!-- file-map -->): one line of what it holds" %
                                (path, doc))


def print_table(rooms, total):
    print("floor  folder                 files   lines  share")
    for room in sorted(rooms, key=lambda r: (r.floor, r.folder)):
        sources = sum(1 for f in room.files if f.endswith(SOURCE_EXTENSIONS))
        print("%5d  %-21s  %5d  %6d  %4.1f %%" % (room.floor, room.folder + "/", sources, room.lines,
                                                  100.0 * room.lines / total if total else 0.0))
    print("       %-21s         %6d" % ("engine/ + app/", total))


def print_map(rooms, files):
    """A skeleton of the two file maps: one line per file stem, grouped by folder, floor by floor."""
    for room in sorted(rooms, key=lambda r: (r.folder.startswith("app"), r.floor, r.folder)):
        print("### `%s/` (floor %d)\n" % (room.folder, room.floor))
        stems = {}
        for path in room.files:
            if room_of(path, rooms) is not room:
                continue
            name = os.path.relpath(path, room.folder)
            stem = os.path.splitext(name)[0] if name.endswith(SOURCE_EXTENSIONS) else name
            stems.setdefault(stem, []).append(name)
        for stem in sorted(stems):
            names = sorted(stems[stem], key=lambda n: (not n.endswith(".h"), n))
            print("- %s — " % ", ".join("`%s`" % n for n in names))
        print()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    parser.add_argument("--table", action="store_true", help="print the folder table only")
    parser.add_argument("--map", action="store_true", help="print a skeleton of the file maps")
    args = parser.parse_args()
    root = args.root
    rooms = read_floors(root)
    files = source_files(root)
    problems = []
    total = count_lines(root, files, rooms, problems)
    if args.map:
        print_map(rooms, files)
        return 0
    if args.table:
        print_table(rooms, total)
        return 0
    check_includes(root, files, rooms, problems)
    check_sizes(rooms, total, problems)
    check_maps(root, files, problems)
    if problems:
        for problem in problems:
            print("layout: " + problem)
        print("layout: %d problem%s (the floors: %s, \"The app\")" % (len(problems), "" if len(problems) == 1 else "s",
                                                                    FLOORS_DOC))
        return 1
    print_table(rooms, total)
    print("layout: every include points down a floor, no folder over its share, every file in its map")
    return 0


if __name__ == "__main__":
    sys.exit(main())
