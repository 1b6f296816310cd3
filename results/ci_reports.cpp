#include "results/ci_reports.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>

#include "reference/error.h"

namespace gcnprobe::results {
namespace {

std::ofstream openReport(const std::string& path, const char* what) {
  std::ofstream out(path == "-" ? "/dev/stdout" : path);
  if (!out) throw gcn::cannotWrite(path, what);
  return out;
}

void finish(std::ofstream& out, const std::string& path, const char* what) {
  out.flush();
  const bool ok = static_cast<bool>(out);
  out.close();
  if (!ok || out.fail())
    throw gcn::InfraError(path + ": cannot write the " + what + ": " +
                          (errno != 0 ? std::string(std::strerror(errno)) : "write failed"));
}

std::string seconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6f", s);
  return buf;
}

// One UTF-8 sequence at s[i]: its length, or 0 when it is not valid UTF-8.
std::size_t utf8Length(std::string_view s, std::size_t i) {
  const auto c = static_cast<unsigned char>(s[i]);
  std::size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
  if (n == 0 || i + n > s.size()) return 0;
  for (std::size_t k = 1; k < n; ++k)
    if ((static_cast<unsigned char>(s[i + k]) >> 6) != 2) return 0;
  return n;
}

// A CSV field: quoted when it holds a comma, quote or line break (RFC 4180).
std::string csvField(std::string_view s) {
  if (s.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(s);
  std::string out = "\"";
  for (char c : s)
    out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

}  // namespace

CaseOutcome outcomeOf(const CaseResult& r) {
  return {r.name, r.suite, r.instruction, r.reason, r.verdict, r.seconds};
}

std::string_view csvStatus(Verdict v) {
  switch (v) {
    case Verdict::Pass:
      return "Pass";
    case Verdict::Unsupported:
      return "Skip";
    case Verdict::Crash:
      return "Crash";
    case Verdict::Timeout:
      return "Timeout";
    case Verdict::Flake:
      return "Flake";
    case Verdict::ExpectedFail:
      return "ExpectedFail";
    case Verdict::UnexpectedPass:
      return "UnexpectedPass";
    case Verdict::Fail:
    case Verdict::RouteMiss:
    case Verdict::Error:
      return "Fail";
  }
  return "Fail";
}

std::string xmlEscape(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t n = utf8Length(s, i);
    const auto c = static_cast<unsigned char>(s[i]);
    if (n == 0 || (n == 1 && c < 0x20 && c != '\t' && c != '\n' && c != '\r')) {
      out += "\xef\xbf\xbd";  // U+FFFD
      i += n == 0 ? 1 : n;
      continue;
    }
    if (n > 1) {
      out.append(s.substr(i, n));
    } else {
      switch (s[i]) {
        case '&':
          out += "&amp;";
          break;
        case '<':
          out += "&lt;";
          break;
        case '>':
          out += "&gt;";
          break;
        case '"':
          out += "&quot;";
          break;
        case '\'':
          out += "&apos;";
          break;
        default:
          out += s[i];
      }
    }
    i += n;
  }
  return out;
}

namespace {
// How JUnit readers should count a verdict: fail and route-miss are failures; error, crash and
// timeout errors; unsupported and expected-fail skipped; pass, flake and unexpected-pass
// passed.
enum class JunitKind { Passed, Failure, Error, Skipped };
JunitKind junitKind(Verdict v) {
  switch (v) {
    case Verdict::Fail:
    case Verdict::RouteMiss:
      return JunitKind::Failure;
    case Verdict::Error:
    case Verdict::Crash:
    case Verdict::Timeout:
      return JunitKind::Error;
    case Verdict::Unsupported:
    case Verdict::ExpectedFail:
      return JunitKind::Skipped;
    case Verdict::Pass:
    case Verdict::Flake:
    case Verdict::UnexpectedPass:
      return JunitKind::Passed;
  }
  return JunitKind::Error;
}
}  // namespace

void writeJunit(const std::string& path, const std::vector<CaseOutcome>& cases,
                const std::vector<std::pair<std::string, std::string>>& properties) {
  std::map<std::string, std::vector<const CaseOutcome*>> bySuite;
  for (const CaseOutcome& c : cases)
    bySuite[c.suite.empty() ? "unknown" : c.suite].push_back(&c);
  unsigned failures = 0, errors = 0, skipped = 0;
  double total = 0;
  for (const CaseOutcome& c : cases) {
    failures += junitKind(c.verdict) == JunitKind::Failure;
    errors += junitKind(c.verdict) == JunitKind::Error;
    skipped += junitKind(c.verdict) == JunitKind::Skipped;
    total += c.seconds;
  }
  std::ofstream out = openReport(path, "JUnit report");
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<testsuites name=\"gcnprobe\" tests=\"" << cases.size() << "\" failures=\"" << failures
      << "\" errors=\"" << errors << "\" skipped=\"" << skipped << "\" time=\"" << seconds(total)
      << "\">\n";
  // The command that runs one case again, for the failure bodies (single quotes: a case name
  // holds no quote).
  std::string profile;
  for (const auto& [k, v] : properties)
    if (k == "profile") profile = v;
  const auto repro = [&](const CaseOutcome& c) {
    return "\nrepro: gcnprobe run --filter '" + c.name + "'" +
           (profile.empty() ? std::string() : " --profile " + profile);
  };
  for (const auto& [suite, list] : bySuite) {
    unsigned f = 0, e = 0, s = 0;
    double t = 0;
    for (const CaseOutcome* c : list) {
      f += junitKind(c->verdict) == JunitKind::Failure;
      e += junitKind(c->verdict) == JunitKind::Error;
      s += junitKind(c->verdict) == JunitKind::Skipped;
      t += c->seconds;
    }
    out << "  <testsuite name=\"gcnprobe." << xmlEscape(suite) << "\" tests=\"" << list.size()
        << "\" failures=\"" << f << "\" errors=\"" << e << "\" skipped=\"" << s << "\" time=\""
        << seconds(t) << "\">\n    <properties>\n";
    for (const auto& [k, v] : properties)
      out << "      <property name=\"" << xmlEscape(k) << "\" value=\"" << xmlEscape(v) << "\"/>\n";
    out << "    </properties>\n";
    for (const CaseOutcome* c : list) {
      out << "    <testcase classname=\"gcnprobe." << xmlEscape(suite) << "\" name=\""
          << xmlEscape(c->name) << "\" time=\"" << seconds(c->seconds) << "\"";
      const std::string reason = xmlEscape(c->reason);
      const std::string verdict(verdictName(c->verdict));
      switch (junitKind(c->verdict)) {
        case JunitKind::Passed:
          if (c->verdict == Verdict::Pass) {
            out << "/>\n";
            continue;
          }
          // Flake, unexpected-pass: passed, with the news in the output CI UIs show.
          out << ">\n      <system-out>" << verdict << ": " << reason << "</system-out>\n";
          break;
        case JunitKind::Skipped:
          out << ">\n      <skipped message=\""
              << (c->verdict == Verdict::Unsupported ? "" : verdict + ": ") << reason << "\"/>\n";
          break;
        case JunitKind::Error:
          out << ">\n      <error type=\"" << verdict << "\" message=\"" << reason << "\">"
              << xmlEscape(c->instruction + repro(*c)) << "</error>\n";
          break;
        case JunitKind::Failure:
          out << ">\n      <failure type=\"" << verdict << "\" message=\"" << reason << "\">"
              << xmlEscape(c->instruction + repro(*c)) << "</failure>\n";
      }
      out << "    </testcase>\n";
    }
    out << "  </testsuite>\n";
  }
  out << "</testsuites>\n";
  finish(out, path, "JUnit report");
}

void writeCsv(const std::string& path, const std::vector<CaseOutcome>& cases, bool failuresOnly) {
  std::ofstream out = openReport(path, "CSV results");
  for (const CaseOutcome& c : cases) {
    const std::string_view status = csvStatus(c.verdict);
    if (failuresOnly && (status == "Pass" || status == "Skip")) continue;
    out << csvField(c.name) << ',' << status << ',' << seconds(c.seconds) << '\n';
  }
  finish(out, path, "CSV results");
}

}  // namespace gcnprobe::results
