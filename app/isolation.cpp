#include "app/isolation.h"

#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "app/child_process.h"
#include "harness/cases/suite.h"
#include "reference/error.h"
#include "results/results_file.h"

namespace gcnprobe::app {
namespace {

// Seconds a child asked to stop (SIGTERM) may take to close its report before it is killed.
constexpr double kStopGraceSeconds = 5;

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// More failed children than this in one run: the device or the machine is the problem, not
// a case (an infrastructure failure).
constexpr std::size_t kMaxChildFailures = 200;

// A private folder for the children's files, removed at the end.
class TempDir {
 public:
  TempDir() {
    const char* base = std::getenv("TMPDIR");
    std::string tmpl =
        std::string(base != nullptr && *base != '\0' ? base : "/tmp") + "/gcnprobe-isolate-XXXXXX";
    if (mkdtemp(tmpl.data()) == nullptr)
      throw gcn::InfraError("cannot create a folder for the child processes in " +
                            fs::path(tmpl).parent_path().string() + ": " + std::strerror(errno));
    path_ = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

// The last "gcnprobe: ..." line a child wrote to its standard error: its error message.
std::string lastError(const fs::path& stderrFile) {
  std::istringstream in(readWholeFile(stderrFile));
  std::string line, last;
  while (std::getline(in, line))
    if (line.rfind("gcnprobe: ", 0) == 0) last = line.substr(10);
  return last;
}

// Reads a child's JSON report as it grows: every record complete so far, once each. The
// report writes a record per line, the separating comma at the start of the next write, so the
// last line is complete when it parses.
class ReportTail {
 public:
  explicit ReportTail(fs::path path) : path_(std::move(path)) {}
  // New records since the last call.
  std::vector<results::CaseResult> poll() {
    std::vector<results::CaseResult> out;
    std::ifstream in(path_, std::ios::binary);
    if (!in) return out;
    in.seekg(static_cast<std::streamoff>(offset_));
    std::ostringstream s;
    s << in.rdbuf();
    const std::string text = s.str();
    std::size_t pos = 0;
    while (pos < text.size()) {
      const std::size_t nl = text.find('\n', pos);
      const bool terminated = nl != std::string::npos;
      std::string_view line(text.data() + pos, (terminated ? nl : text.size()) - pos);
      while (!line.empty() && (line.back() == ',' || line.back() == '\r'))
        line.remove_suffix(1);
      if (!inCases_) {
        if (line == "\"cases\": [") inCases_ = true;
      } else if (!line.empty() && line.front() == '{') {
        const nlohmann::json record = nlohmann::json::parse(line, nullptr, false);
        if (!record.is_discarded()) {
          results::CaseResult r = results::caseFromRecord(record, path_.string());
          if (seen_.insert(r.name).second) out.push_back(std::move(r));
        }
      }
      if (!terminated) break;
      pos = nl + 1;
    }
    // Only whole lines are consumed: the unterminated last one is read again next time (its
    // record, when it parsed, is in seen_).
    offset_ += pos;
    return out;
  }

 private:
  fs::path path_;
  std::size_t offset_ = 0;
  bool inCases_ = false;
  std::set<std::string> seen_;
};

// The names of the batch a child started last (one line per batch, tab-separated).
std::vector<std::string> lastBatch(const fs::path& log) {
  std::istringstream in(readWholeFile(log));
  std::string line, last;
  while (std::getline(in, line))
    if (!line.empty()) last = line;
  std::vector<std::string> names;
  std::size_t pos = 0;
  while (pos <= last.size() && !last.empty()) {
    const std::size_t tab = last.find('\t', pos);
    names.push_back(last.substr(pos, tab == std::string::npos ? std::string::npos : tab - pos));
    if (tab == std::string::npos) break;
    pos = tab + 1;
  }
  return names;
}

enum class End { Finished, Crashed, TimedOut, Stopped };

struct ChildRun {
  End end = End::Finished;
  std::string why;                      // crash / timeout description
  std::vector<std::string> unfinished;  // names without a record, in the order given
  std::vector<std::string> batch;       // of those, the ones in the batch being dispatched
  bool progressed = false;              // a record arrived or a batch started
};

class Isolator {
 public:
  Isolator(std::span<const judge::Case> cases, const IsolationOptions& options,
           const results::ResultSink& sink)
      : options_(options), sink_(sink), exe_(selfPath()) {
    for (const judge::Case& c : cases)
      byName_[c.name] = &c;
  }

  results::Summary run(std::span<const judge::Case> cases) {
    std::deque<std::vector<std::string>> work;
    work.emplace_back();
    for (const judge::Case& c : cases)
      work.back().push_back(c.name);
    std::size_t failures = 0;
    while (!work.empty()) {
      std::vector<std::string> names = std::move(work.front());
      work.pop_front();
      if (names.empty()) continue;
      if (stopped_ || (options_.stop && options_.stop())) {
        stopped_ = true;
        summary_.notRun += names.size();
        continue;
      }
      const ChildRun r = runChild(names);
      if (r.end == End::Stopped) {
        stopped_ = true;
        summary_.notRun += r.unfinished.size();
        continue;
      }
      if (r.unfinished.empty()) continue;
      if (r.end == End::Finished) {
        // The child ended normally without these: it did not know them (never expected).
        for (const std::string& n : r.unfinished)
          emitLost(n, results::Verdict::Error, "the child process did not report this case");
        continue;
      }
      if (++failures > kMaxChildFailures)
        throw gcn::InfraError(std::to_string(kMaxChildFailures) +
                              " child processes failed; giving up (last: " + r.why + ")");
      if (!r.progressed)
        throw gcn::InfraError("a child process failed before running any case: " + r.why);
      const std::set<std::string> inBatch(r.batch.begin(), r.batch.end());
      std::vector<std::string> rest;
      for (const std::string& n : r.unfinished)
        if (!inBatch.count(n)) rest.push_back(n);
      if (r.batch.size() == 1) {
        emitLost(r.batch.front(),
                 r.end == End::TimedOut ? results::Verdict::Timeout : results::Verdict::Crash,
                 r.why);
      } else if (!r.batch.empty()) {
        // Halves of the guilty batch first, each in its own child; then the cases it did not
        // reach.
        const auto mid = r.batch.begin() + static_cast<std::ptrdiff_t>(r.batch.size() / 2);
        work.push_front(rest);
        work.push_front(std::vector<std::string>(mid, r.batch.end()));
        work.push_front(std::vector<std::string>(r.batch.begin(), mid));
        continue;
      }
      work.push_front(rest);
    }
    return summary_;
  }

 private:
  void emit(const results::CaseResult& r) {
    summary_.add(r.verdict);
    if (sink_) sink_(r);
  }

  void emitLost(const std::string& name, results::Verdict v, const std::string& why) {
    results::CaseResult r;
    r.name = name;
    if (const auto it = byName_.find(name); it != byName_.end()) {
      r.suite = it->second->suite;
      r.instruction = cases::caseInstructionText(options_.gen, *it->second);
    }
    r.verdict = v;
    r.reason = why;
    r.notes.push_back("isolated: its batch was rerun in halves until this case alone " +
                      std::string(v == results::Verdict::Timeout ? "hung" : "crashed"));
    emit(r);
  }

  // The child `run` over the case list `list`, its report, batch log and standard error in
  // the files named.
  ChildSpec childSpec(const fs::path& list, const fs::path& resultsJson, const fs::path& batches,
                      const fs::path& err) const {
    ChildSpec spec;
    spec.program = exe_;
    spec.args = {"run",         "--isolate",     "off",         "--quiet", "--shard",
                 "0/1",         "--case-list",   list.string(), "--json",  resultsJson.string(),
                 "--batch-log", batches.string()};
    spec.args.insert(spec.args.end(), options_.childArgs.begin(), options_.childArgs.end());
    // In this process's group: a terminal's Ctrl-C reaches the child too, which closes its
    // report with what it finished.
    spec.ownProcessGroup = false;
    spec.stdoutPath = "/dev/null";
    spec.stderrPath = err.string();
    spec.pollSeconds = 0.02;
    // A child stuck in a batch that never finishes cannot close its report: a run asked to
    // stop does not wait for the batch timeout (the cases it holds are reported as not run).
    spec.stop = options_.stop;
    spec.graceSeconds = kStopGraceSeconds;
    return spec;
  }

  // How a child that was not stopped or killed for want of progress ended: its exit, a
  // signal, or an error it printed last (`err`).
  static void classifyExit(const ChildResult& child, const fs::path& err, ChildRun& r) {
    if (child.signal != 0) {
      r.end = End::Crashed;
      const int sig = child.signal;
      r.why = "the process crashed with signal " + std::to_string(sig) + " (" + strsignal(sig) +
              ") while this case's batch was on the device";
    } else if (child.exitCode == 0 || child.exitCode == 1) {
      r.end = End::Finished;
    } else {
      r.end = End::Crashed;
      std::string message = lastError(err);
      if (message.rfind("error: ", 0) == 0) message.erase(0, 7);
      r.why = message.find("VK_ERROR_DEVICE_LOST") != std::string::npos
                  ? "the device was lost while this case's batch was on it: " + message
                  : "the process exited with code " + std::to_string(child.exitCode) +
                        (message.empty() ? std::string() : ": " + message);
    }
  }

  ChildRun runChild(const std::vector<std::string>& names) {
    const TempDir dir;
    const fs::path list = dir.path() / "cases.txt", resultsJson = dir.path() / "results.json",
                   batches = dir.path() / "batches.txt", err = dir.path() / "stderr.txt";
    {
      std::ofstream out(list);
      for (const std::string& n : names)
        out << n << '\n';
      if (!out) throw gcn::InfraError(list.string() + ": cannot write the child's case list");
    }
    ChildSpec spec = childSpec(list, resultsJson, batches, err);
    ChildRun r;
    ReportTail tail(resultsJson);
    std::set<std::string> reported;
    const auto collect = [&] {
      for (results::CaseResult& c : tail.poll()) {
        if (byName_.find(c.name) == byName_.end() || !reported.insert(c.name).second) continue;
        r.progressed = true;
        emit(c);
      }
    };
    auto lastProgress = Clock::now();
    std::uintmax_t batchLogSize = 0;
    // Progress is a new result or a longer batch log; none within the batch timeout kills it.
    spec.killNow = [&] {
      const std::size_t before = reported.size();
      collect();
      std::error_code ec;
      const std::uintmax_t logSize = fs::file_size(batches, ec);
      if (!ec && logSize != batchLogSize) {
        batchLogSize = logSize;
        r.progressed = true;
        lastProgress = Clock::now();
      }
      if (reported.size() != before) lastProgress = Clock::now();
      return std::chrono::duration<double>(Clock::now() - lastProgress).count() >
             options_.batchTimeout;
    };
    const ChildResult child = runChildProcess(spec);
    if (!child.started) {
      // As a child that could not exec: a failed batch that ran nothing, which ends the run
      // as an infrastructure failure (run(): "failed before running any case").
      r.end = End::Crashed;
      r.why = "the child process could not start: " + child.error;
      r.unfinished = names;
      return r;
    }
    if (child.killed && !child.stopped) {
      r.end = End::TimedOut;
      char buf[64];
      std::snprintf(buf, sizeof buf, "%g", options_.batchTimeout);
      r.why = std::string("no result within the batch timeout of ") + buf +
              " s; the child process was killed";
    }
    collect();
    for (const std::string& n : names)
      if (!reported.count(n)) r.unfinished.push_back(n);
    if (child.stopped) {
      r.end = End::Stopped;
      return r;
    }
    if (r.end != End::TimedOut) classifyExit(child, err, r);
    const std::set<std::string> unfinished(r.unfinished.begin(), r.unfinished.end());
    for (const std::string& n : lastBatch(batches))
      if (unfinished.count(n)) r.batch.push_back(n);
    return r;
  }

  const IsolationOptions& options_;
  const results::ResultSink& sink_;
  std::string exe_;
  std::map<std::string, const judge::Case*> byName_;
  results::Summary summary_;
  bool stopped_ = false;
};

}  // namespace

results::Summary runIsolated(std::span<const judge::Case> cases, const IsolationOptions& options,
                             const results::ResultSink& sink) {
  Isolator isolator(cases, options, sink);
  return isolator.run(cases);
}

}  // namespace gcnprobe::app
