// Output safety (issue 7): no output ever replaces an input, a device, a FIFO or a link; a failed write exits 1
// with the system's reason and leaves the previous file as it was; standard output errors are failures; an
// interrupted run leaves nothing behind. Every expectation is independent of the program: exit codes, file types,
// and files byte-equal to what they were before.
#include <doctest/doctest.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <thread>

#include "cli_util.h"

using namespace lagrange::test;

namespace {

// A CSV long enough to fill a small disk: the double pendulum for 20 000 steps is about 5.7 MB.
const std::string kLongCsvRun = "run " + asset("double_pendulum.json") + " --steps 20000 --quiet --csv ";

bool is_char_device(const fs::path& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISCHR(st.st_mode);
}

// Starts lagrange-lab with `args` (no shell) and returns its pid.
pid_t spawn(const std::vector<std::string>& args) {
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    std::vector<char*> argv;
    std::string exe = LAGRANGE_EXE;
    argv.push_back(exe.data());
    std::vector<std::string> copy = args;
    for (std::string& a : copy) argv.push_back(a.data());
    argv.push_back(nullptr);
    const int null = ::open("/dev/null", O_WRONLY);
    ::dup2(null, STDOUT_FILENO);
    ::dup2(null, STDERR_FILENO);
    ::execv(exe.c_str(), argv.data());
    ::_exit(127);
  }
  return pid;
}

int wait_exit(pid_t pid) {
  int status = 0;
  REQUIRE(::waitpid(pid, &status, 0) == pid);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// A small tmpfs when this process may mount one (root with CAP_SYS_ADMIN); unmounted when done.
struct SmallDisk {
  fs::path dir;
  bool mounted = false;
  SmallDisk(const fs::path& where, const char* size) : dir(where) {
    fs::create_directories(dir);
    mounted = ::geteuid() == 0 && ::mount("tmpfs", dir.c_str(), "tmpfs", 0, (std::string("size=") + size).c_str()) == 0;
  }
  ~SmallDisk() {
    if (mounted) ::umount(dir.c_str());
  }
};

}  // namespace

TEST_CASE("an output that is the input file is refused with exit code 2 and the input is unchanged") {
  const fs::path dir = fresh_dir("same-file");
  const fs::path scene = dir / "s.json";
  fs::copy_file(asset("simple_pendulum.json"), scene);
  const std::string before = read_all(scene);
  fs::create_symlink(scene, dir / "link.json");
  fs::create_hard_link(scene, dir / "hard.json");
  std::vector<std::string> commands{
      "run " + quote(scene) + " --steps 5 --csv " + quote(scene),
      "run " + quote(scene) + " --steps 5 --csv " + quote(dir / "link.json"),
      "run " + quote(scene) + " --steps 5 --csv " + quote(dir / "hard.json"),
      "run " + quote(dir / "link.json") + " --steps 5 --csv " + quote(scene),
  };
#ifdef LAGRANGE_HAVE_SANDBOX
  commands.push_back("shot " + quote(scene) + " --out " + quote(scene));
  commands.push_back("shot " + quote(scene) + " --out " + quote(dir / "hard.json"));
#endif
  for (const std::string& command : commands) {
    CAPTURE(command);
    const CliResult r = cli(command);
    CHECK(r.code == 2);
    CHECK(r.out.find("is the input file") != std::string::npos);
    CHECK(read_all(scene) == before);
  }
  CHECK(listing(dir) == std::vector<std::string>{"hard.json", "link.json", "s.json"});
}

TEST_CASE("a planted link at any temporary name is never followed and a link target keeps its link") {
  const fs::path dir = fresh_dir("links");
  write_all(dir / "victim.txt", "victim\n");
  // The names a predictable writer would use.
  fs::create_symlink(dir / "victim.txt", dir / "out.csv.partial");
  fs::create_symlink(dir / "victim.txt", dir / "out.csv.part");
  fs::create_symlink(dir / "victim.txt", dir / "out.csv.tmp");
  REQUIRE(cli("run " + asset("simple_pendulum.json") + " --steps 10 --quiet --csv " + quote(dir / "out.csv")).code == 0);
  CHECK(read_all(dir / "victim.txt") == "victim\n");
  CHECK(read_all(dir / "out.csv").rfind("step,t,", 0) == 0);
  CHECK(listing(dir) == std::vector<std::string>{"out.csv", "out.csv.part", "out.csv.partial", "out.csv.tmp",
                                                  "victim.txt"});

  // --csv LINK, the link leading to a regular file: a link's target is not ours; refused, both left as they were.
  write_all(dir / "real.csv", "old\n");
  fs::create_symlink("real.csv", dir / "alias.csv");
  const CliResult alias =
      cli("run " + asset("simple_pendulum.json") + " --steps 10 --quiet --csv " + quote(dir / "alias.csv"));
  CHECK(alias.code == 1);
  CHECK(alias.out.find("symbolic link") != std::string::npos);
  CHECK(fs::is_symlink(dir / "alias.csv"));
  CHECK(read_all(dir / "real.csv") == "old\n");

  // A link to nothing is refused, and nothing is created where it points.
  fs::create_symlink(dir / "nowhere.csv", dir / "dangling.csv");
  const CliResult r = cli("run " + asset("simple_pendulum.json") + " --steps 10 --quiet --csv " + quote(dir / "dangling.csv"));
  CHECK(r.code == 1);
  CHECK_FALSE(fs::exists(dir / "nowhere.csv"));
}

TEST_CASE("devices and FIFOs are written straight and never replaced") {
  const fs::path dir = fresh_dir("fifo");
  const fs::path dev_null = private_device(dir, "null", 3);
  const CliResult null = cli("run " + asset("simple_pendulum.json") + " --steps 10 --quiet --csv " + quote(dev_null));
  CHECK(null.code == 0);
  CHECK(is_char_device(dev_null));

  const fs::path fifo = dir / "pipe";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  // With a reader (opened first, non-blocking; the CSV fits in the pipe's buffer): the CSV arrives through it.
  const int reader = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
  REQUIRE(reader >= 0);
  const CliResult r = cli("run " + asset("simple_pendulum.json") + " --steps 10 --quiet --csv " + quote(fifo));
  std::string received;
  char buffer[4096];
  for (ssize_t n; (n = ::read(reader, buffer, sizeof buffer)) > 0;) received.append(buffer, static_cast<std::size_t>(n));
  ::close(reader);
  CHECK(r.code == 0);
  CHECK(received.rfind("step,t,", 0) == 0);
  CHECK(std::count(received.begin(), received.end(), '\n') == 12);
  CHECK(fs::is_fifo(fifo));
  // Without a reader: exit 1 at once instead of waiting forever.
  const CliResult lonely = cli("run " + asset("simple_pendulum.json") + " --steps 10 --quiet --csv " + quote(fifo));
  CHECK(lonely.code == 1);
  CHECK(lonely.out.find("no process is reading") != std::string::npos);
  CHECK(lonely.seconds < 10);
  CHECK(fs::is_fifo(fifo));
}

TEST_CASE("a write that fails exits 1 with the reason and never Success") {
  const fs::path devices = fresh_dir("devices");
  const fs::path dev_full = private_device(devices, "full", 7);
  const CliResult full = cli("run " + asset("simple_pendulum.json") + " --steps 10 --quiet --csv " + quote(dev_full));
  CHECK(full.code == 1);
  CHECK(full.out.find("No space left on device") != std::string::npos);
  CHECK(full.out.find("Success") == std::string::npos);
  CHECK(is_char_device(dev_full));

  const fs::path dir = fresh_dir("unwritable");
  const CliResult missing = cli("run " + asset("simple_pendulum.json") + " --steps 5 --csv " + quote(dir / "no" / "x.csv"));
  CHECK(missing.code == 1);
  CHECK(missing.out.find("No such file or directory") != std::string::npos);
  // A path through a regular file (ENOTDIR): unwritable even for root.
  write_all(dir / "file", "x");
  const CliResult notdir = cli("run " + asset("simple_pendulum.json") + " --steps 5 --csv " + quote(dir / "file" / "x.csv"));
  CHECK(notdir.code == 1);
  CHECK(notdir.out.find("Not a directory") != std::string::npos);
  CHECK(read_all(dir / "file") == "x");
  CHECK(listing(dir) == std::vector<std::string>{"file"});
#ifdef LAGRANGE_HAVE_SANDBOX
  const CliResult png = cli("shot " + asset("simple_pendulum.json") + " --size 64x64 --out " + quote(dev_full));
  CHECK(png.code == 1);
  CHECK(png.out.find("No space left on device") != std::string::npos);
  CHECK(png.out.find("Success") == std::string::npos);
  CHECK(is_char_device(dev_full));
  fs::create_directories(dir / "folder.png");  // a PNG's name (shot --out takes no other), a folder there
  const CliResult folder = cli("shot " + asset("simple_pendulum.json") + " --size 64x64 --out " + quote(dir / "folder.png"));
  CHECK(folder.code == 1);
  CHECK(folder.out.find("is a folder") != std::string::npos);
  CHECK(folder.out.find("Success") == std::string::npos);
  CHECK(fs::is_empty(dir / "folder.png"));
#endif
}

TEST_CASE("a full disk keeps the previous CSV and PNG and leaves no partial file") {
  const fs::path dir = fresh_dir("full-disk");
  SmallDisk disk(dir / "disk", "256k");
  if (!disk.mounted) {
    MESSAGE("cannot mount a tmpfs here (not root, or no CAP_SYS_ADMIN): /dev/full and the unwritable paths above "
            "cover the failing write");
    return;
  }
  const fs::path csv = disk.dir / "out.csv";
  write_all(csv, "previous csv\n");
  const CliResult r = cli(kLongCsvRun + quote(csv));
  CHECK(r.code == 1);
  CHECK(r.out.find("No space left on device") != std::string::npos);
  CHECK(read_all(csv) == "previous csv\n");
  CHECK(listing(disk.dir) == std::vector<std::string>{"out.csv"});
#ifdef LAGRANGE_HAVE_SANDBOX
  // Fill the disk to a few KB, then a PNG does not fit.
  const fs::path png = disk.dir / "shot.png";
  write_all(png, "previous png\n");
  {
    std::ofstream filler(disk.dir / "filler", std::ios::binary);
    const std::string block(1024, 'x');
    while (filler.write(block.data(), static_cast<std::streamsize>(block.size())) && filler.flush()) {
    }
  }
  fs::resize_file(disk.dir / "filler", fs::file_size(disk.dir / "filler") - 8192);
  const CliResult shot = cli("shot " + asset("double_pendulum.json") + " --size 640x360 --out " + quote(png));
  CHECK(shot.code == 1);
  CHECK(shot.out.find("No space left on device") != std::string::npos);
  CHECK(read_all(png) == "previous png\n");
  CHECK(listing(disk.dir) == std::vector<std::string>{"filler", "out.csv", "shot.png"});
#endif
}

TEST_CASE("write errors on standard output exit 1") {
  const std::string pendulum = asset("simple_pendulum.json");
  const CliResult csv = cli("run " + pendulum + " --steps 10 --quiet --csv -", "> /dev/full 2> /dev/null");
  CHECK(csv.code == 1);
  const CliResult summary = cli("run " + pendulum + " --steps 10", "> /dev/full 2> /dev/null");
  CHECK(summary.code == 1);
  const CliResult help = cli("run --help", "> /dev/full 2> /dev/null");
  CHECK(help.code == 1);
  const CliResult solvers = cli("solvers", "> /dev/full 2> /dev/null");
  CHECK(solvers.code == 1);
  // The reason is given on stderr.
  const CliResult reason = cli("run " + pendulum + " --steps 10", "2>&1 > /dev/full");
  CHECK(reason.out.find("standard output") != std::string::npos);
  CHECK(reason.out.find("No space left on device") != std::string::npos);
  // Standard output closed (>&-): exit 1, and the summary never lands in the CSV opened after it.
  const fs::path dir = fresh_dir("closed-stdout");
  const CliResult closed = cli("run " + pendulum + " --steps 10 --csv " + quote(dir / "out.csv"), ">&- 2>/dev/null");
  CHECK(closed.code == 1);
  CHECK(read_all(dir / "out.csv").find("scene ") == std::string::npos);
  // A reader that goes away (| head): exit 1 with the reason, not a silent death by SIGPIPE.
  const fs::path code_file = dir / "code";
  const std::string piped = "{ timeout 60 " + std::string(LAGRANGE_EXE) + " run " + pendulum +
                            " --steps 100000 --csv - 2>/dev/null; echo $? > " + quote(code_file) +
                            "; } | head -c 10 > /dev/null";
  REQUIRE(std::system(piped.c_str()) == 0);
  CHECK(read_all(code_file) == "1\n");
  // And the same commands succeed when standard output works.
  CHECK(cli("run " + pendulum + " --steps 10", "> /dev/null 2>&1").code == 0);
}

TEST_CASE("a run that exits 1 because standard output failed leaves the previous output file as it was") {
  const fs::path dir = fresh_dir("stdout-keeps-file");
  const fs::path full = private_device(dir, "full", 7);
  const std::string pendulum = asset("simple_pendulum.json");
  std::vector<std::string> commands{"run " + pendulum + " --steps 10 --csv " + quote(dir / "out.csv")};
#ifdef LAGRANGE_HAVE_SANDBOX
  commands.push_back("shot " + pendulum + " --size 64x64 --out " + quote(dir / "out.png"));
#endif
  for (const std::string& command : commands) {
    for (const std::string& redirect : {std::string("2>&1 >&-"), "2>&1 > " + quote(full)}) {
      CAPTURE(command);
      CAPTURE(redirect);
      write_all(dir / "out.csv", "previous\n");
      write_all(dir / "out.png", "previous\n");
      const CliResult r = cli(command, redirect);
      CHECK(r.code == 1);
      CHECK(r.out.find("standard output: cannot write") != std::string::npos);
      CHECK(r.out.find("standard output: cannot write") == r.out.rfind("standard output: cannot write"));  // once
      CHECK(read_all(dir / "out.csv") == "previous\n");
      CHECK(read_all(dir / "out.png") == "previous\n");
      CHECK(listing(dir) == std::vector<std::string>{"full", "out.csv", "out.png"});
    }
  }
  // With standard output working, the same commands replace the file.
  CHECK(cli(commands[0], "> /dev/null 2>&1").code == 0);
  CHECK(read_all(dir / "out.csv").rfind("step,t,", 0) == 0);
}

TEST_CASE("data written to standard output never gets the summary mixed in") {
  const fs::path dir = fresh_dir("stdout-data");
  const std::string pendulum = asset("simple_pendulum.json");
  // run --csv /dev/stdout into a pipe is run --csv -: the summary goes to stderr.
  const CliResult csv = cli("run " + pendulum + " --steps 3 --csv /dev/stdout", "2> " + quote(dir / "err") + " | cat");
  CHECK(csv.code == 0);
  CHECK(csv.out.rfind("step,t,", 0) == 0);
  CHECK(csv.out.find("scene ") == std::string::npos);
  CHECK(read_all(dir / "err").find("scene ") != std::string::npos);
#ifdef LAGRANGE_HAVE_SANDBOX
  // shot --out -: standard output is the PNG alone, ending with its IEND chunk.
  const CliResult png = cli("shot " + pendulum + " --size 64x64 --out -", "2> " + quote(dir / "err") + " > " +
                                                                               quote(dir / "out.png"));
  CHECK(png.code == 0);
  const std::string bytes = read_all(dir / "out.png");
  CHECK(bytes.rfind("\x89PNG", 0) == 0);
  REQUIRE(bytes.size() > 12);
  CHECK(bytes.substr(bytes.size() - 8, 4) == "IEND");
  CHECK(read_all(dir / "err").find("Simple pendulum after 0 steps") != std::string::npos);
  // --frames prints its measure there too.
  CHECK(cli("shot " + pendulum + " --size 64x64 --frames 2 --out -", "2> /dev/null > " + quote(dir / "out.png")).code ==
        0);
  const std::string framed = read_all(dir / "out.png");
  CHECK(framed.rfind("\x89PNG", 0) == 0);
  CHECK(framed.find("median frame time") == std::string::npos);
#endif
}

TEST_CASE("SIGINT and SIGTERM remove the unfinished output and exit 130 and 143") {
  const fs::path dir = fresh_dir("signals");
  const fs::path csv = dir / "out.csv";
  write_all(csv, "previous\n");
  for (const int signal : {SIGINT, SIGTERM}) {
    CAPTURE(signal);
    // 10^7 steps of the hanging chain: minutes of work, so the signal arrives mid-run.
    const pid_t pid = spawn({"run", asset("hanging_chain.json"), "--steps", "10000000", "--quiet", "--csv", csv});
    bool started = false;  // the temporary file exists: the run is writing
    for (int i = 0; i < 500 && !started; ++i) {
      started = listing(dir).size() > 1;
      if (!started) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    CHECK(started);
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    const auto sent = std::chrono::steady_clock::now();
    ::kill(pid, signal);
    CHECK(wait_exit(pid) == 128 + signal);
    CHECK(std::chrono::duration<double>(std::chrono::steady_clock::now() - sent).count() < 2.0);
    CHECK(read_all(csv) == "previous\n");
    CHECK(listing(dir) == std::vector<std::string>{"out.csv"});
  }
}

TEST_CASE("two runs writing the same path each leave a complete file and never a mix") {
  const fs::path dir = fresh_dir("concurrent");
  // References, written one at a time.
  const std::string scene = asset("double_pendulum.json");
  REQUIRE(cli("run " + scene + " --steps 3000 --quiet --csv " + quote(dir / "a.csv")).code == 0);
  REQUIRE(cli("run " + scene + " --steps 4000 --quiet --csv " + quote(dir / "b.csv")).code == 0);
  const std::string a = read_all(dir / "a.csv"), b = read_all(dir / "b.csv");
  REQUIRE(a != b);
  const std::string target = (dir / "shared.csv").string();
  for (int round = 0; round < 3; ++round) {
    CAPTURE(round);
    const pid_t first = spawn({"run", scene, "--steps", "3000", "--quiet", "--csv", target});
    const pid_t second = spawn({"run", scene, "--steps", "4000", "--quiet", "--csv", target});
    CHECK(wait_exit(first) == 0);
    CHECK(wait_exit(second) == 0);
    const std::string result = read_all(target);
    CHECK((result == a || result == b));
  }
  CHECK(listing(dir) == std::vector<std::string>{"a.csv", "b.csv", "shared.csv"});
}
