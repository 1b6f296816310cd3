// Every test process gets a temporary directory of its own: ctest runs each test in its own
// process, several at once (-j), and the system-driver and Mesa 25 copies of a test use the
// same file names. googletest's TempDir() reads TEST_TMPDIR at each call, so pointing it at a
// fresh directory before main() keeps two processes from ever sharing a file. The directory
// is removed when the process exits normally.
#include <cstdlib>
#include <filesystem>
#include <string>
#include <system_error>

namespace {

class ProcessTempDir {
 public:
  ProcessTempDir() {
    const char* parent = std::getenv("TEST_TMPDIR");
    std::string pattern = std::string(parent != nullptr && *parent != '\0' ? parent : "/tmp") +
                          "/gcnprobe-test-XXXXXX";
    if (mkdtemp(pattern.data()) == nullptr) return;  // keep the inherited directory
    dir_ = pattern;
    setenv("TEST_TMPDIR", dir_.c_str(), 1);
  }
  ~ProcessTempDir() {
    if (dir_.empty()) return;
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
  }
  ProcessTempDir(const ProcessTempDir&) = delete;
  ProcessTempDir& operator=(const ProcessTempDir&) = delete;

 private:
  std::string dir_;
};

const ProcessTempDir kProcessTempDir;

}  // namespace
