// The one error type of the project: a message plus, where known, the place it is about
// (a file, a line, a column in an instruction text or probe file).
#pragma once

#include <stdexcept>
#include <string>

namespace gcn {

struct Place {
  std::string file;  // probe file, suite name, or "" for command-line text
  int line = 0;      // 1-based; 0 = unknown
  int column = 0;    // 1-based; 0 = unknown
};

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& reason) : std::runtime_error(reason), reason_(reason) {}
  Error(Place place, const std::string& reason)
      : std::runtime_error(format(place, reason)), place_(std::move(place)), reason_(reason) {}

  const Place& place() const { return place_; }
  // The reason without the place prefix.
  const std::string& reason() const { return reason_; }

  // "file:line:column: reason", leaving out the parts that are unknown.
  static std::string format(const Place& place, const std::string& reason) {
    std::string out;
    if (!place.file.empty()) out += place.file + ":";
    if (place.line > 0) out += std::to_string(place.line) + ":";
    if (place.column > 0) {
      // A bare column (command-line text) reads better spelled out.
      if (out.empty()) return "column " + std::to_string(place.column) + ": " + reason;
      out += std::to_string(place.column) + ":";
    }
    if (!out.empty()) out += " ";
    return out + reason;
  }

 private:
  Place place_;
  std::string reason_;
};

// A failure of the machine rather than of the input: output that cannot be written (a full
// disk, a closed stream; the message names the path, "stdout" for standard output), or no
// Vulkan loader or device at all. The program exits 3 for it (infrastructure), never 2
// (bad input) and never 0, so lost output is never reported as success and a CI runner
// without a driver is not mistaken for a typo.
class InfraError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// "PATH: cannot open the WHAT for writing: <strerror(errno)>" as the InfraError an output
// file that cannot be opened is. Call right after the failed open, while errno is its.
InfraError cannotWrite(const std::string& path, const std::string& what);

// Throws cannotWrite's error when `path` cannot be written as an output file: its folder does
// not exist or is not writable, or the path is a folder or a file without write permission.
// "" and "-" (standard output) always pass. Commands call it for every output before they
// open a device or read inputs, so a typo in an output path costs no run.
void requireWritable(const std::string& path, const std::string& what);

}  // namespace gcn
