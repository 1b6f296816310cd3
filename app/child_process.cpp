#include "app/child_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <thread>

#include "reference/error.h"

extern char** environ;

namespace gcnprobe::app {

std::string readWholeFile(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string selfPath() {
  std::error_code ec;
  const std::filesystem::path p = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) throw gcn::InfraError("cannot find this program (/proc/self/exe): " + ec.message());
  return p.string();
}

std::string ChildResult::describe() const {
  if (!started) return "not started: " + error;
  std::string s;
  if (timedOut || stopped)
    s = timedOut ? "timed out after " + std::to_string(static_cast<long>(stopAfter)) + " s"
                 : "stopped";
  const std::string end =
      signal != 0 ? "signal " + std::to_string(signal) : "exit " + std::to_string(exitCode);
  return s.empty() ? end : s + " (then " + end + ")";
}

namespace {

// This process's environment with the spec's changes (a value sets, nullopt removes), as
// KEY=VALUE strings.
std::vector<std::string> childEnvironment(const ChildSpec& spec) {
  std::map<std::string, std::string> env;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string kv(*e);
    const auto eq = kv.find('=');
    if (eq != std::string::npos) env[kv.substr(0, eq)] = kv.substr(eq + 1);
  }
  for (const auto& [k, v] : spec.env) {
    if (v)
      env[k] = *v;
    else
      env.erase(k);
  }
  std::vector<std::string> out;
  for (const auto& [k, v] : env)
    out.push_back(k + "=" + v);
  return out;
}

// Starts the child with its redirections; posix_spawn's error number, 0 when it started.
// `lineFd` (or -1) becomes the child's fd 3.
int spawnChild(const ChildSpec& spec, const std::string& program, std::vector<std::string> args,
               std::vector<std::string> envStrings, int lineFd, pid_t& pid) {
  std::vector<char*> argv, envp;
  for (std::string& a : args)
    argv.push_back(a.data());
  argv.push_back(nullptr);
  for (std::string& e : envStrings)
    envp.push_back(e.data());
  envp.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  if (spec.ownProcessGroup) {
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attr, 0);
  }
  if (!spec.workingDirectory.empty())
    posix_spawn_file_actions_addchdir_np(&fa, spec.workingDirectory.c_str());
  if (lineFd >= 0) posix_spawn_file_actions_adddup2(&fa, lineFd, 3);  // dup2 clears CLOEXEC
  if (spec.stdoutToStderr) posix_spawn_file_actions_adddup2(&fa, STDERR_FILENO, STDOUT_FILENO);
  if (!spec.stdoutPath.empty())
    posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, spec.stdoutPath.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (!spec.stderrPath.empty())
    posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, spec.stderrPath.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0644);
  const int rc = spec.program.empty() || spec.program.find('/') != std::string::npos
                     ? posix_spawn(&pid, program.c_str(), &fa, &attr, argv.data(), envp.data())
                     : posix_spawnp(&pid, program.c_str(), &fa, &attr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&attr);
  return rc;
}

// The child's lines on the onLine pipe (or none: then wait() only sleeps).
class LineReader {
 public:
  LineReader(int fd, const std::function<void(const std::string&)>& onLine)
      : fd_(fd), onLine_(onLine), ended_(fd < 0) {}
  bool ended() const { return ended_; }
  // Waits up to `seconds` for the child's lines and hands on each complete one; ended() at the
  // end of the pipe (every writer gone).
  void wait(double seconds) {
    if (ended_) {
      std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
      return;
    }
    pollfd p{fd_, POLLIN, 0};
    if (::poll(&p, 1, static_cast<int>(seconds * 1000)) <= 0) return;
    char buf[65536];
    const ssize_t n = read(fd_, buf, sizeof buf);
    if (n < 0 && errno == EINTR) return;
    if (n <= 0) {
      ended_ = true;
      return;
    }
    pending_.append(buf, static_cast<std::size_t>(n));
    std::size_t from = 0;
    for (std::size_t nl; (nl = pending_.find('\n', from)) != std::string::npos; from = nl + 1)
      onLine_(pending_.substr(from, nl - from));
    pending_.erase(0, from);
  }

 private:
  int fd_;
  const std::function<void(const std::string&)>& onLine_;
  bool ended_;
  std::string pending_;
};

// Waits for the child, stopping it (SIGTERM, then SIGKILL after the grace time) when it runs
// late or is asked to stop, killing it when asked to; its wait status.
int watchChild(const ChildSpec& spec, pid_t pid, std::chrono::steady_clock::time_point start,
               LineReader& lines, ChildResult& r) {
  const auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  const pid_t target = spec.ownProcessGroup ? -pid : pid;
  double termAt = -1;  // when SIGTERM was sent
  int status = 0;
  while (true) {
    const pid_t w = waitpid(pid, &status, WNOHANG);
    if (w == pid) break;
    if (w < 0 && errno != EINTR) {
      // Cannot watch it: stop it rather than report an exit it did not make.
      r.error = std::string("waitpid: ") + std::strerror(errno);
      kill(target, SIGKILL);
      while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
      }
      break;
    }
    const double t = elapsed();
    if (termAt < 0 && !r.killed) {  // a kill supersedes a stop or a timeout
      const bool late = spec.timeoutSeconds > 0 && t > spec.timeoutSeconds;
      const bool asked = !late && spec.stop && spec.stop();
      if (late || asked) {
        r.timedOut = late;
        r.stopped = asked;
        kill(target, SIGTERM);
        termAt = t;
        r.stopAfter = t;
      }
    } else if (t - termAt > spec.graceSeconds) {
      kill(target, SIGKILL);
      termAt = t + 1e9;  // once
    }
    if (!r.killed && spec.killNow && spec.killNow()) {
      r.killed = true;
      kill(target, SIGKILL);
    }
    lines.wait(spec.pollSeconds);
  }
  return status;
}

}  // namespace

ChildResult runChildProcess(const ChildSpec& spec) {
  ChildResult r;
  std::string program;
  try {
    program = spec.program.empty() ? selfPath() : spec.program;
  } catch (const std::exception& e) {
    r.error = e.what();
    return r;
  }
  std::vector<std::string> args = {program};
  args.insert(args.end(), spec.args.begin(), spec.args.end());
  std::vector<std::string> env = childEnvironment(spec);
  int lines[2] = {-1, -1};  // onLine's pipe: read end here, write end the child's fd 3
  if (spec.onLine && pipe2(lines, O_CLOEXEC) != 0) {
    r.error = std::string("pipe: ") + std::strerror(errno);
    return r;
  }
  pid_t pid = 0;
  const auto start = std::chrono::steady_clock::now();
  const int rc = spawnChild(spec, program, std::move(args), std::move(env), lines[1], pid);
  if (spec.onLine) close(lines[1]);
  if (rc != 0) {
    if (spec.onLine) close(lines[0]);
    r.error = program + ": " + std::strerror(rc);
    return r;
  }
  r.started = true;
  LineReader reader(spec.onLine ? lines[0] : -1, spec.onLine);
  const int status = watchChild(spec, pid, start, reader, r);
  // What the child wrote before it ended (a grandchild holding the pipe ends it later).
  while (!reader.ended())
    reader.wait(1);
  if (spec.onLine) close(lines[0]);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (WIFEXITED(status)) r.exitCode = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
  return r;
}

}  // namespace gcnprobe::app
