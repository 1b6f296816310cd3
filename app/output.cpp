// Standard output at the end of a command: buffered text is only known to have arrived once
// it is flushed and closed, so a full disk or a closed descriptor is an error (exit 3), never
// a silent success.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

#include "app/commands.h"

namespace gcnprobe::app {

int finishStdout(int code) {
  errno = 0;
  const bool failed = std::fflush(stdout) != 0 || std::ferror(stdout) != 0;
  const int flushErrno = errno;
  const bool closeFailed = std::fclose(stdout) != 0;
  if (!failed && !closeFailed) return code;
  const int err = flushErrno != 0 ? flushErrno : errno;
  std::fprintf(stderr, "gcnprobe: error: stdout: cannot write the output: %s\n",
               err != 0 ? std::strerror(err) : "write failed");
  return 3;
}

}  // namespace gcnprobe::app
