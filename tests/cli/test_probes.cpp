// The probes of issue 22: signals, a file-size limit, a link planted mid-recording, one file by two spellings, a
// truncated video module, long input in messages, files we may not write, and the smaller ones. Each expectation is
// independent of the program: exit codes as docs/cli.md gives them, the system's reasons (strerror), files byte for
// byte as they were.
#include <doctest/doctest.h>

#include <pwd.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstring>

#include "probe_util.h"
#include "lagrange/text.h"

using namespace lagrange::test;

namespace {

// A run long enough to be signalled mid-way: the hanging chain for 10^7 steps writing a CSV.
std::vector<std::string> long_run(const fs::path& out) {
  return {"run", asset("hanging_chain.json"), "--steps", "10000000", "--quiet", "--csv", out.string()};
}

std::string repeat(const std::string& text, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += text;
  return out;
}

}  // namespace

TEST_CASE("every catchable terminating signal leaves no temporary file and exits 128 + signal") {
  const fs::path dir = fresh_dir("all-signals");
  const fs::path csv = dir / "out.csv";
  for (const int signal : {SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU, SIGIO, SIGPWR,
                           SIGRTMIN, SIGRTMAX}) {
    CAPTURE(signal);
    write_all(csv, "previous\n");
    const Child child = start(long_run(csv), dir / "err");
    CHECK(wait_for([&] { return !temporaries(dir).empty(); }));
    ::kill(child.pid, signal);
    const Finished f = finish(child);
    CHECK(f.code == 128 + signal);
    CHECK(f.err.find("no unfinished output was left") != std::string::npos);
    CHECK(read_all(csv) == "previous\n");
    CHECK(temporaries(dir).empty());
  }
  // save-state and record, and a fault: the temporary file goes, the process dies of the fault.
  write_all(dir / "state.json", "previous\n");
  const Child state = start({"run", asset("hanging_chain.json"), "--steps", "10000000", "--quiet", "--save-state",
                             (dir / "state.json").string()},
                            dir / "err");
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  ::kill(state.pid, SIGHUP);
  CHECK(finish(state).code == 128 + SIGHUP);
  CHECK(read_all(dir / "state.json") == "previous\n");
  const Child faulted = start(long_run(csv), dir / "err");
  CHECK(wait_for([&] { return !temporaries(dir).empty(); }));
  ::kill(faulted.pid, SIGBUS);
  const Finished f = finish(faulted);
  CHECK(f.signal == SIGBUS);
  CHECK(temporaries(dir).empty());
#ifdef LAGRANGE_HAVE_SANDBOX
  write_all(dir / "clip.mp4", "previous\n");
  const Child rec = start({"record", asset("double_pendulum.json"), "--duration", "60", "--size", "320x240", "--out",
                           (dir / "clip.mp4").string()},
                          dir / "err");
  CHECK(wait_for([&] { return !temporaries(dir).empty(); }));
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  ::kill(rec.pid, SIGHUP);
  CHECK(finish(rec).code == 128 + SIGHUP);
  CHECK(read_all(dir / "clip.mp4") == "previous\n");
  CHECK(temporaries(dir).empty());
#endif
}

TEST_CASE("a file-size limit is a write error: exit 1 with the system's reason and nothing left") {
  const fs::path dir = fresh_dir("fsize");
  write_all(dir / "big.csv", "previous\n");
  const Child child = start({"run", asset("hanging_cloth.json"), "--steps", "50", "--quiet", "--csv",
                             (dir / "big.csv").string()},
                            dir / "err", [] {
                              struct rlimit limit {100 * 1024, 100 * 1024};
                              ::setrlimit(RLIMIT_FSIZE, &limit);
                            });
  const Finished f = finish(child);
  CHECK(f.code == 1);
  CHECK(f.signal == 0);
  CHECK(f.err.find(std::strerror(EFBIG)) != std::string::npos);
  CHECK(read_all(dir / "big.csv") == "previous\n");
  CHECK(listing(dir) == std::vector<std::string>{"big.csv", "err"});
}

#ifdef LAGRANGE_HAVE_SANDBOX
TEST_CASE("a link planted at the output during a recording is left as it is, and so is its target") {
  const fs::path dir = fresh_dir("race");
  write_all(dir / "victim.txt", "victim\n");
  const Child child = start({"record", asset("double_pendulum.json"), "--duration", "3", "--size", "320x240", "--out",
                             (dir / "race.mp4").string()},
                            dir / "err");
  REQUIRE(wait_for([&] { return !temporaries(dir).empty(); }));
  fs::create_symlink("victim.txt", dir / "race.mp4");  // the name was free when the recording started
  const Finished f = finish(child);
  CHECK(f.code == 1);
  CHECK(f.err.find("appeared") != std::string::npos);
  CHECK(fs::is_symlink(dir / "race.mp4"));
  CHECK(fs::read_symlink(dir / "race.mp4") == "victim.txt");
  CHECK(read_all(dir / "victim.txt") == "victim\n");
  CHECK(temporaries(dir).empty());
  // The same when the name held a file of ours at the start and a link replaced it meanwhile.
  fs::remove(dir / "race.mp4");
  write_all(dir / "race.mp4", "previous\n");
  const Child second = start({"record", asset("double_pendulum.json"), "--duration", "3", "--size", "320x240",
                              "--out", (dir / "race.mp4").string()},
                             dir / "err");
  REQUIRE(wait_for([&] { return !temporaries(dir).empty(); }));
  fs::remove(dir / "race.mp4");
  fs::create_symlink("victim.txt", dir / "race.mp4");
  CHECK(finish(second).code == 1);
  CHECK(fs::is_symlink(dir / "race.mp4"));
  CHECK(read_all(dir / "victim.txt") == "victim\n");
  CHECK(temporaries(dir).empty());
}

// A fresh folder holding a copy of the program and the first 1000 bytes of its module `module` (a copy cut short).
fs::path program_with_truncated_module(const std::string& name, const std::string& module) {
  const fs::path dir = fresh_dir(name);
  fs::copy_file(LAGRANGE_EXE, dir / "lagrange-lab");
  const std::string whole = read_all(fs::path(LAGRANGE_EXE).parent_path() / module);
  REQUIRE(whole.size() > 10'000);
  write_all(dir / module, whole.substr(0, 1000));
  return dir;
}

TEST_CASE("a truncated video module beside the program is a clean exit 1, not SIGBUS") {
  const fs::path dir = program_with_truncated_module("module", "lagrange-video.so");
  write_all(dir / "clip.mp4", "previous\n");
  const std::string command = "cd " + quote(dir) + " && ./lagrange-lab record " + asset("simple_pendulum.json") +
                              " --duration 0.2 --size 64x64 --out clip.mp4 2>&1; echo \"exit=$?\"";
  const std::string out = capture_output(command);
  CHECK(out.find("exit=1") != std::string::npos);
  CHECK(out.find("truncated or damaged") != std::string::npos);
  CHECK(read_all(dir / "clip.mp4") == "previous\n");
  CHECK(temporaries(dir).empty());
}

TEST_CASE("the headless commands start without the window's libraries, and the commands that draw load them") {
  // The dynamic loader names every library it opens (LD_DEBUG=files); SDL2 is the window module's, not the program's.
  const std::string loader = "LD_DEBUG=files " + std::string(LAGRANGE_EXE) + " ";
  const std::string scene = asset("simple_pendulum.json");
  const fs::path dir = fresh_dir("window-libraries");
  for (const std::string& command :
       {"run " + scene + " --steps 5 --quiet", std::string("bench --workload pendulum --solver projection --steps 2 --repeats 1"),
        "converge " + scene + " --until 0.1 --levels 3", "matrix " + scene, std::string("solvers")}) {
    CAPTURE(command);
    int code = -1;
    const std::string out = capture_output(loader + command + " 2>&1 >/dev/null", &code);
    CHECK(code == 0);
    CHECK(out.find("calling init:") != std::string::npos);  // the loader did report
    CHECK(out.find("libSDL2") == std::string::npos);
    CHECK(out.find("lagrange-window.so") == std::string::npos);
  }
  int code = -1;
  const std::string out = capture_output(loader + "shot " + scene + " --size 64x64 --out " +
                                             quote(dir / "s.png") + " 2>&1 >/dev/null", &code);
  CHECK(code == 0);
  CHECK(out.find("lagrange-window.so") != std::string::npos);
  CHECK(out.find("libSDL2") != std::string::npos);
}

TEST_CASE("the program's heap asks for transparent huge pages (MADV_HUGEPAGE), as glibc.malloc.hugetlb would") {
  // The kernel marks a range advised MADV_HUGEPAGE with "hg" in its VmFlags (/proc/PID/smaps), whatever THP mode
  // the machine runs: the program's own heap must carry it while a scene runs.
#if defined(__SANITIZE_ADDRESS__)
  MESSAGE("skipped under AddressSanitizer, whose allocator is not glibc's heap");
#else
  const std::string script = std::string(LAGRANGE_EXE) + " run " + asset("simple_pendulum.json") +
                             " --duration 100000 --quiet >/dev/null & pid=$!; flags=; "
                             "for i in $(seq 100); do flags=$(awk '/\\[heap\\]/{h=1; next} /^[0-9a-f]+-/{h=0} "
                             "h && /^VmFlags/{print}' /proc/$pid/smaps 2>/dev/null); "
                             "case \"$flags\" in *hg*) break;; esac; sleep 0.05; done; kill $pid; echo \"$flags\"";
  const std::string flags = capture_output(script);
  CAPTURE(flags);
  CHECK(flags.find(" hg") != std::string::npos);
#endif
}

TEST_CASE("a truncated window module beside the program: the drawing commands exit 1 cleanly and run is untouched") {
  const fs::path dir = program_with_truncated_module("window-module", "lagrange-window.so");
  write_all(dir / "s.png", "previous\n");
  const std::string in_dir = "cd " + quote(dir) + " && ./lagrange-lab ";
  const std::string out =
      capture_output(in_dir + "shot " + asset("simple_pendulum.json") + " --out s.png 2>&1; echo \"exit=$?\"");
  CHECK(out.find("exit=1") != std::string::npos);
  CHECK(out.find("cannot load the window") != std::string::npos);
  CHECK(out.find("truncated or damaged") != std::string::npos);
  CHECK(read_all(dir / "s.png") == "previous\n");
  CHECK(temporaries(dir).empty());
  int code = -1;
  capture_output(in_dir + "run " + asset("simple_pendulum.json") + " --steps 5 --quiet 2>&1", &code);
  CHECK(code == 0);
}
#endif

TEST_CASE("one file by two spellings is refused with exit code 2 and nothing is written") {
  const fs::path dir = fresh_dir("spellings");
  fs::create_directories(dir / "sub");
  const std::string run = "cd " + quote(dir) + " && " + std::string(LAGRANGE_EXE) + " run " +
                          asset("simple_pendulum.json") + " --steps 5 --quiet ";
  write_all(dir / "kept.json", "kept\n");
  fs::create_hard_link(dir / "kept.json", dir / "hard.json");
  fs::create_symlink("kept.json", dir / "soft.json");
  for (const std::string& pair : {std::string("--save-state o.json --csv ./o.json"),
                                  std::string("--save-state o.json --csv sub/../o.json"),
                                  "--save-state o.json --csv " + quote(dir / "o.json"),
                                  std::string("--save-state kept.json --csv hard.json"),
                                  std::string("--save-state kept.json --csv soft.json")}) {
    CAPTURE(pair);
    int code = 0;
    const std::string out = capture_output(run + pair + " 2>&1", &code);
    CHECK(code == 2);
    CHECK(out.find("name the same file") != std::string::npos);
    CHECK_FALSE(fs::exists(dir / "o.json"));
    CHECK(read_all(dir / "kept.json") == "kept\n");
  }
}

TEST_CASE("a file we may not write is not replaced, as cp would refuse it") {
  const fs::path dir = fresh_dir("not-ours");
  // A world-writable folder (not sticky) holding root's files: one read-only, one only root may write.
  ::chmod(dir.c_str(), 0777);
  write_all(dir / "readonly.csv", "readonly\n");
  ::chmod((dir / "readonly.csv").c_str(), 0444);
  write_all(dir / "roots.csv", "root's\n");
  ::chmod((dir / "roots.csv").c_str(), 0644);
  const struct passwd* nobody = ::getpwnam("nobody");
  const bool root = ::geteuid() == 0;
  if (!root || !nobody || std::system("command -v setpriv > /dev/null") != 0) {
    MESSAGE("needs root, a user 'nobody' and setpriv to act as another user; not tested here");
    return;
  }
  for (const char* name : {"readonly.csv", "roots.csv"}) {
    CAPTURE(name);
    const std::string before = read_all(dir / name);
    int code = 0;
    const std::string out = capture_output(
        "setpriv --reuid=" + std::to_string(nobody->pw_uid) + " --regid=" + std::to_string(nobody->pw_gid) +
            " --clear-groups " + std::string(LAGRANGE_EXE) + " run " + asset("simple_pendulum.json") +
            " --steps 5 --quiet --csv " + quote(dir / name) + " 2>&1",
        &code);
    CHECK(code == 1);
    CHECK(out.find(std::strerror(EACCES)) != std::string::npos);
    CHECK(read_all(dir / name) == before);
    struct stat st {};
    REQUIRE(::stat((dir / name).c_str(), &st) == 0);
    CHECK(st.st_uid == 0);  // the owner did not change
  }
  CHECK(temporaries(dir).empty());
}

TEST_CASE("no message echoes unbounded input: 20 000 characters to every option give lines under 300 bytes") {
  const fs::path dir = fresh_dir("long-values");
  const std::string nines(20'000, '9'), letters(20'000, 'A');
  const std::string folder = "/" + std::string(750, 'd') + "/x.csv";
  const std::string scene = asset("simple_pendulum.json");
  std::vector<std::string> commands;
  for (const char* option : {"--solver", "--lanes", "--dt", "--steps", "--duration", "--every", "--set", "--drag",
                             "--drag-model", "--max-violation", "--measure", "--particle", "--csv", "--save-state"})
    for (const std::string& value : {nines, letters})
      commands.push_back("run " + scene + " " + option + " " + value);
  commands.push_back("run " + scene + " --drag 1," + nines + ",0,0,0,1");
  commands.push_back("run " + scene + " --drag 1,0,0,0," + nines + ",1");
  commands.push_back("run " + scene + " --csv " + folder);
  commands.push_back("run " + scene + " --csv " + dir.string() + "/" + std::string(200, 'e') + "/" +
                     std::string(200, 'f') + "/x.csv");
  commands.push_back("run " + scene + " --" + letters);
  commands.push_back("run " + letters);
  commands.push_back(letters);
  commands.push_back("bench --workload " + letters);
  commands.push_back("bench --solver " + letters);
#ifdef LAGRANGE_HAVE_SANDBOX
  for (const char* option : {"--solver", "--size", "--ui-scale", "--theme", "--lanes", "--lane-view", "--exaggerate",
                             "--drag", "--drag-model", "--out", "--steps", "--time", "--frames"})
    commands.push_back("shot " + scene + " " + option + " " + letters);
  for (const char* option : {"--duration", "--fps", "--format", "--out"})
    commands.push_back("record " + scene + " " + option + " " + letters);
#endif
  for (const std::string& command : commands) {
    CAPTURE(command.substr(0, 60));
    const CliResult r = cli(command, "2>&1 > /dev/null");
    CHECK(r.code != 0);
    // Every line of stderr (a message, or the usage text after one) is short, and none quotes 300 bytes of input.
    std::size_t longest = 0, start = 0;
    for (std::size_t end; (end = r.out.find('\n', start)) != std::string::npos; start = end + 1)
      longest = std::max(longest, end - start);
    longest = std::max(longest, r.out.size() - start);
    CHECK(longest < lagrange::kMaxMessage + 30);  // "lagrange-lab COMMAND: " and the message
    CHECK(r.out.find(std::string(300, '9')) == std::string::npos);
    CHECK(r.out.find(std::string(300, 'A')) == std::string::npos);
  }
}

TEST_CASE("the smaller probes: tiny masses, huge saved times and steps, a substep lost to rounding, --help") {
  const fs::path dir = fresh_dir("small-probes");
  write_all(dir / "mass.json", R"({"particles": [{"position": [0, 0], "fixed": true}, {"position": [1, 0], "mass": 5e-324}],
    "constraints": [{"type": "distance", "particles": [0, 1]}]})");
  write_all(dir / "time.json", R"({"particles": [{"position": [0, 0], "mass": 1}], "state": {"time": 1e308}})");
  write_all(dir / "step.json", R"({"particles": [{"position": [0, 0], "mass": 1}], "state": {"step": 4503599627370497}})");
  const std::string pendulum = asset("simple_pendulum.json");
  const std::vector<std::pair<std::string, std::string>> refused{
      {"run " + quote(dir / "mass.json"), "particles[1].mass: must be at least 1e-9 (kg)"},
      {"run " + quote(dir / "time.json"), "state.time: must be a time of at most 1e9 s"},
      {"run " + quote(dir / "step.json"), "state.step: must be at most 4503599627370496 (2^52"},
      {"run " + pendulum + " --dt 1e-9 --steps 10", "--dt: must be in 1e-07 .. 1"},
      {"run " + pendulum + " --dt 1e-6 --set substeps=1000 --steps 10", "below the limit of 1e-07 s"},
  };
  for (const auto& [command, message] : refused) {
    CAPTURE(command);
    const CliResult r = cli(command);
    CHECK(r.code == 2);
    CHECK(r.out.find(message) != std::string::npos);
  }
  // The smallest substep allowed still moves: the pendulum's bob leaves its start within a second.
  const CliResult moved = cli("run " + pendulum + " --dt 1e-6 --set substeps=10 --steps 100000 --every 100000 --csv -",
                              "2>/dev/null");
  REQUIRE(moved.code == 0);
  const std::size_t last = moved.out.find("\n100000,");
  REQUIRE(last != std::string::npos);
  CHECK(moved.out.find(",0.6,-0.8,0,", last) == std::string::npos);  // the bob left (0.6, -0.8)
  // --help into a full disk: exit 1 with the system's reason.
  const CliResult help = cli("run --help", "2>&1 > /dev/full");
  CHECK(help.code == 1);
  CHECK(help.out.find(std::strerror(ENOSPC)) != std::string::npos);
}

#ifdef LAGRANGE_HAVE_SANDBOX
TEST_CASE("the window given a scene it cannot load shows the message and exits 2") {
  const fs::path dir = fresh_dir("window-bad-scene");
  write_all(dir / "bad.json", R"({"particles": [{"position": [0, 0], "mass": -1}]})");
  ::setenv("SDL_VIDEODRIVER", "offscreen", 0);
  const CliResult r = cli("gui " + quote(dir / "bad.json") + " --quit-after 2 --no-vsync");
  CHECK(r.code == 2);
  CHECK(r.out.find("particles[0].mass") != std::string::npos);
}
#endif

TEST_CASE("new probes: output into /proc, a folder named like the temporary file, a very long path, a link loop") {
  const fs::path dir = fresh_dir("new-probes");
  const std::string run = "run " + asset("simple_pendulum.json") + " --steps 5 --quiet ";
  // /proc: not a place for files; refused with the system's reason, nothing made.
  const CliResult proc = cli(run + "--csv /proc/self/lagrange.csv");
  CHECK(proc.code == 1);
  // A scene that is a loop of symbolic links: exit 2 with the system's reason, at once.
  fs::create_symlink("b.json", dir / "a.json");
  fs::create_symlink("a.json", dir / "b.json");
  const CliResult loop = cli("run " + quote(dir / "a.json"));
  CHECK(loop.code == 2);
  CHECK(loop.out.find(std::strerror(ELOOP)) != std::string::npos);
  // A path longer than PATH_MAX: exit 1 with the reason, the message short.
  std::string deep = dir.string();
  while (deep.size() < 5000) deep += "/" + std::string(200, 'x');
  const CliResult long_path = cli(run + "--csv " + deep + "/x.csv");
  CHECK(long_path.code == 1);
  CHECK(long_path.out.size() < lagrange::kMaxMessage + 30);
  // Folders at every name a writer might try next to the output: the CSV is written all the same.
  fs::create_directories(dir / ".out.csv.tmp-XXXXXX");
  fs::create_directories(dir / "out.csv.tmp");
  CHECK(cli(run + "--csv " + quote(dir / "out.csv")).code == 0);
  CHECK(read_all(dir / "out.csv").rfind("step,t,", 0) == 0);
  // A thousand overlapping drags: refused, with one short line.
  const CliResult drags = cli(run + repeat("--drag 1,0,0,0,0,1 ", 1000));
  CHECK(drags.code == 2);
  CHECK(drags.out.size() < lagrange::kMaxMessage + 30);
}
