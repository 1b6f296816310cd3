// Every test process gets a temporary directory of its own: ctest runs each test in its own
// process, several at once (-j), and the system-driver and Mesa 25 copies of a test use the
// same file names. googletest's TempDir() reads TEST_TMPDIR at each call, so pointing it at a
// fresh directory before main() keeps two processes from ever sharing a file; TMPDIR points
// there too, for std::filesystem::temp_directory_path() and the programs tests start. The
// directory is removed when the process that made it exits normally (not by a forked child
// that exits).
#include <cstdlib>
#include <filesystem>
#include <string>
#include <system_error>

#include <unistd.h>

namespace {

class ProcessTempDir {
 public:
  ProcessTempDir() {
    const char* parent = std::getenv("TEST_TMPDIR");
    std::string pattern = std::string(parent != nullptr && *parent != '\0' ? parent : "/tmp") +
                          "/gcnprobe-test-XXXXXX";
    if (mkdtemp(pattern.data()) == nullptr) return;  // keep the inherited directory
    dir_ = pattern;
    owner_ = getpid();
    setenv("TEST_TMPDIR", dir_.c_str(), 1);
    setenv("TMPDIR", dir_.c_str(), 1);
  }
  ~ProcessTempDir() {
    if (dir_.empty() || getpid() != owner_) return;
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
  }
  ProcessTempDir(const ProcessTempDir&) = delete;
  ProcessTempDir& operator=(const ProcessTempDir&) = delete;

 private:
  std::string dir_;
  pid_t owner_ = 0;
};

const ProcessTempDir kProcessTempDir;

}  // namespace
