#include "reference/error.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace gcn {

InfraError cannotWrite(const std::string& path, const std::string& what) {
  const int e = errno;
  return InfraError(path + ": cannot open the " + what + " for writing" +
                    (e != 0 ? ": " + std::string(std::strerror(e)) : std::string()));
}

void requireWritable(const std::string& path, const std::string& what) {
  if (path.empty() || path == "-") return;
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) {
      errno = EISDIR;
      throw cannotWrite(path, what);
    }
    if (::access(path.c_str(), W_OK) != 0) throw cannotWrite(path, what);
    return;
  }
  std::filesystem::path dir = std::filesystem::path(path).parent_path();
  if (dir.empty()) dir = ".";
  struct stat ds {};
  if (::stat(dir.c_str(), &ds) != 0) throw cannotWrite(path, what);
  if (!S_ISDIR(ds.st_mode)) {
    errno = ENOTDIR;
    throw cannotWrite(path, what);
  }
  if (::access(dir.c_str(), W_OK | X_OK) != 0) throw cannotWrite(path, what);
}

}  // namespace gcn
