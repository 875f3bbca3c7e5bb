// A guard for the test mains: a run whose --test-case filter matches no test case fails instead of passing
// vacuously. CTest runs each test case through such a filter (doctest_discover_tests), so a name that CTest or doctest
// splits — a ';' or an unescaped ',' — would otherwise turn into tests that run nothing and always pass.
#pragma once

#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <system_error>

namespace lagrange::test {

struct RunCounter : doctest::IReporter {
  static inline bool finished = false;
  static inline unsigned selected = 0;
  explicit RunCounter(const doctest::ContextOptions&) {}
  void report_query(const doctest::QueryData&) override {}
  void test_run_start() override {}
  void test_run_end(const doctest::TestRunStats& stats) override {
    finished = true;
    selected = stats.numTestCasesPassingFilters;
  }
  void test_case_start(const doctest::TestCaseData&) override {}
  void test_case_reenter(const doctest::TestCaseData&) override {}
  void test_case_end(const doctest::CurrentTestCaseStats&) override {}
  void test_case_exception(const doctest::TestCaseException&) override {}
  void subcase_start(const doctest::SubcaseSignature&) override {}
  void subcase_end() override {}
  void log_assert(const doctest::AssertData&) override {}
  void log_message(const doctest::MessageData&) override {}
  void test_case_skipped(const doctest::TestCaseData&) override {}
};

// context.run(), failing when a run happened but no test case passed the filters.
inline int run_checked(doctest::Context& context) {
  const int result = context.run();
  if (result == 0 && RunCounter::finished && RunCounter::selected == 0) {
    std::fprintf(stderr, "no test case matches the filters: nothing was tested\n");
    return 1;
  }
  return result;
}

// A scratch folder for one test process: made under the temporary folder, handed to the tests and to every program
// they start as TMPDIR (std::filesystem::temp_directory_path, mkstemp and the command line's own temporary files all
// read it), removed with everything in it when the run passes. A failed run keeps it, and says where, for the files
// that show why. Without it, every run of the suite left its ~80 folders in /tmp.
class ScratchTmp {
 public:
  ScratchTmp() {
    std::error_code error;
    std::string pattern = (std::filesystem::temp_directory_path(error) / "lagrange-tests-XXXXXX").string();
    if (!error && mkdtemp(pattern.data())) {
      path_ = pattern;
      setenv("TMPDIR", path_.c_str(), 1);
    }
  }
  ScratchTmp(const ScratchTmp&) = delete;
  ScratchTmp& operator=(const ScratchTmp&) = delete;
  const std::string& path() const { return path_; }
  // Called with the run's result: removes the folder after a pass, names it after a failure.
  void finish(int result) const {
    if (path_.empty()) return;
    if (result != 0) {
      std::fprintf(stderr, "the test's files are kept in %s\n", path_.c_str());
      return;
    }
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }

 private:
  std::string path_;
};

}  // namespace lagrange::test

REGISTER_LISTENER("run-counter", 1, lagrange::test::RunCounter);
