// Writing output files so that no file is ever destroyed and no failure is reported as success (docs/cli.md,
// "Output safety"). Used by every writer: `run --csv`, `shot --out` and the sandbox's screenshots.
//
// - "-" is standard output, written straight.
// - A regular file (or a name that does not exist yet) is written to a temporary file with a unique name in the
//   same folder (mkstemp: O_CREAT | O_EXCL, so no planted link is ever followed), every write checked, fsync'ed,
//   then renamed over the target: the target is either the complete new file or the untouched old one, and two
//   writers of one path each leave a complete file. A symbolic link at the target is refused (a link to a device
//   or a FIFO is written straight).
// - Anything else that exists (a device such as /dev/null, a FIFO) is opened and written straight, never replaced.
// - SIGINT and SIGTERM remove the temporary file and exit with 130 / 143 (install_interrupt_cleanup).
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>

namespace lagrange::io {

// An output that could not be written: what() names the file and the system's reason. Exit code 1.
class OutputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// An output path that is one of the command's inputs (same device and inode): exit code 2.
class SameFileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Throws SameFileError when `output` names the same file as `input` (followed through links; "-" never does).
void refuse_same_file(const std::string& input, const std::string& output);
// Whether two output paths name one file: the same device and inode when both exist (a hard link, a symbolic link
// to it), else the same path once made absolute and normalised ("o.json", "./o.json", "d/../o.json"). "-" never.
bool same_output(const std::string& a, const std::string& b);

class OutputFile {
 public:
  // Opens `target` for writing (see above). Throws OutputError with the reason when it cannot. `standard_output`:
  // whether the option also takes "-" (a refusal then says so; converge's --plot does not: its summary is there).
  explicit OutputFile(std::string target, bool standard_output = true);
  ~OutputFile();  // not committed: the temporary file is removed, the target left as it was
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  // Buffered; throws OutputError when a write fails.
  void write(std::string_view data);
  void print(const char* format, ...) __attribute__((format(printf, 2, 3)));
  // Flushes, fsyncs and closes: everything that can fail for lack of space is done, only commit's rename is left,
  // so a command can still report something else (its summary on standard output) and discard() if that fails.
  // Throws OutputError.
  void finish();
  // finish(), then renames the temporary file over the target. Throws OutputError.
  void commit();
  // Drops everything written: removes the temporary file (a straight target keeps what was already written).
  void discard();

  const std::string& target() const { return target_; }

 private:
  void flush();
  std::string shown() const;  // the target for a message: escaped, cut short
  std::string not_ours(const std::string& path) const;  // "" or why what is at `path` may not be replaced
  [[noreturn]] void fail(const std::string& what, int error);

  std::string target_;   // as given
  std::string final_;    // the file the temporary file is renamed to ("" when written straight)
  std::string temp_;     // the temporary file ("" when written straight)
  int fd_ = -1;
  bool owns_fd_ = false;  // false for standard output
  bool finished_ = false;  // finish() done: closed, the temporary file waits for its rename
  bool existed_ = false;   // the target was a regular file when opened (else its name was free)
  std::string buffer_;
};

// True for "-" and for a path that is standard output itself (/dev/stdout, /proc/self/fd/1): a command writing its
// data there prints its summary on stderr instead, so the two never mix in one stream.
bool is_standard_output(const std::string& path);

// What is wrong with `path` as the file a command's `option` writes a PNG to, or "" when nothing is: its name must end
// in .png (any case), unless it is a device (/dev/null) or, where the command allows it (`standard_output`), standard
// output. One rule for `shot --out` and `converge --plot`.
std::string png_name_problem(const std::string& option, const std::string& path, bool standard_output);

// Flushes standard output; throws OutputError("standard output: cannot write: REASON") when that fails (a full
// disk, a closed stream, a reader gone), so a command can fail before it commits its file.
void check_standard_output();

// Writes `data` whole to `target` with an OutputFile. Returns "" on success, else "TARGET: REASON".
std::string write_file(const std::string& target, std::string_view data);

// SIGINT / SIGTERM: remove the temporary file of any open OutputFile, print one line, exit 128 + signal.
// The handler acts at once (unlink and _exit are async-signal-safe), so a long step is stoppable too.
void install_interrupt_cleanup();

}  // namespace lagrange::io
