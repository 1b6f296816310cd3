#include "probe/probe_file.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>

#include "probe/probes_dir.h"
#include "reference/text.h"

namespace gcn::probe {
namespace {

std::vector<std::string_view> splitWs(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i])))
      ++i;
    const std::size_t start = i;
    while (i < s.size() && !std::isspace(static_cast<unsigned char>(s[i])))
      ++i;
    if (i > start) out.push_back(s.substr(start, i - start));
  }
  return out;
}

class LineParser {
 public:
  LineParser(Probe& probe, int line) : probe_(probe), line_(line) {}

  void parse(std::string_view raw) {
    // A comment is a whole line whose first non-blank character is '#'. A '#' anywhere else
    // belongs to the value ("A V# of four zero dwords"): cutting values at '#' lost text
    // silently.
    const std::string_view text = raw;
    const std::string_view trimmed = gcn::trimSpace(text);
    if (trimmed.empty() || trimmed.front() == '#') return;
    const auto eq = text.find('=');
    if (eq == std::string_view::npos)
      fail(firstColumn(raw), "expected 'key = value', found no '='");
    const std::string_view key = gcn::trimSpace(text.substr(0, eq));
    std::string_view value = text.substr(eq + 1);
    std::size_t valueStart = eq + 1;
    while (!value.empty() && std::isspace(static_cast<unsigned char>(value.front()))) {
      value.remove_prefix(1);
      ++valueStart;
    }
    value = gcn::trimSpace(value);
    valueColumn_ = static_cast<int>(valueStart) + 1;
    keyColumn_ = firstColumn(raw);
    if (key.empty()) fail(keyColumn_, "missing key before '='");
    handle(splitWs(key), value);
  }

 private:
  [[noreturn]] void fail(int column, const std::string& reason) const {
    throw Error(Place{probe_.file, line_, column}, reason);
  }
  static int firstColumn(std::string_view raw) {
    std::size_t i = 0;
    while (i < raw.size() && std::isspace(static_cast<unsigned char>(raw[i])))
      ++i;
    return static_cast<int>(i) + 1;
  }
  Place valuePlace(int offset = 0) const {
    return Place{probe_.file, line_, valueColumn_ + offset};
  }
  Place keyPlace() const { return Place{probe_.file, line_, keyColumn_}; }

  void requireValue(std::string_view key, std::string_view value) const {
    if (value.empty()) fail(valueColumn_, "'" + std::string(key) + "' needs a value after '='");
  }
  template <class T>
  void setOnce(std::optional<Placed<T>>& slot, T value, std::string_view key) {
    if (slot)
      fail(keyColumn_,
           "'" + std::string(key) + "' is already set on line " + std::to_string(slot->place.line));
    slot = Placed<T>{std::move(value), keyPlace()};
  }
  uint64_t number(std::string_view value, std::string_view key) const {
    requireValue(key, value);
    return Expr::parse(value, IndexVar::None, valuePlace()).eval(0);
  }
  // The register number of "v12" / "s4", or nullopt when `tok` is not of that form.
  static std::optional<unsigned> regNumber(std::string_view tok, char prefix) {
    if (tok.size() < 2 || std::tolower(static_cast<unsigned char>(tok[0])) != prefix)
      return std::nullopt;
    unsigned n = 0;
    for (char c : tok.substr(1)) {
      if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
      n = n * 10 + static_cast<unsigned>(c - '0');
      if (n > 100000) return std::nullopt;
    }
    return n;
  }

  // Comma-separated at parenthesis depth 0; each piece with its column offset.
  std::vector<std::pair<std::string_view, int>> splitList(std::string_view value) const {
    std::vector<std::pair<std::string_view, int>> out;
    int depth = 0;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= value.size(); ++i) {
      if (i < value.size()) {
        if (value[i] == '(') ++depth;
        if (value[i] == ')') --depth;
        if (value[i] != ',' || depth != 0) continue;
      }
      std::string_view piece = value.substr(start, i - start);
      std::size_t lead = 0;
      while (lead < piece.size() && std::isspace(static_cast<unsigned char>(piece[lead])))
        ++lead;
      piece = gcn::trimSpace(piece);
      if (piece.empty())
        fail(valueColumn_ + static_cast<int>(start), "empty entry in a comma-separated list");
      out.emplace_back(piece, static_cast<int>(start + lead));
      start = i + 1;
    }
    return out;
  }
  Values values(std::string_view value, IndexVar var, std::string_view key) const {
    requireValue(key, value);
    Values v;
    v.place = valuePlace();
    const auto pieces = splitList(value);
    v.isList = pieces.size() > 1;
    for (const auto& [piece, off] : pieces)
      v.list.push_back(Expr::parse(piece, v.isList ? IndexVar::None : var, valuePlace(off)));
    return v;
  }
  // A trailing `within N` or `within N ulp` (Tolerance), cut from `value`. `width` is the
  // expected value's width in bytes.
  std::optional<Tolerance> tolerance(std::string_view& value, unsigned width) const {
    std::size_t at = std::string_view::npos;
    for (std::size_t p = value.find("within"); p != std::string_view::npos;
         p = value.find("within", p + 1))
      if (p > 0 && std::isspace(static_cast<unsigned char>(value[p - 1]))) at = p;
    if (at == std::string_view::npos) return std::nullopt;
    const int column = valueColumn_ + static_cast<int>(at);
    const std::vector<std::string_view> words = splitWs(value.substr(at + 6));
    const bool ulp = words.size() == 2 && words[1] == "ulp";
    if (words.empty() || words.size() > 2 || (words.size() == 2 && !ulp))
      fail(column, "a tolerance is 'within N' (codes) or 'within N ulp' (float32 units)");
    Tolerance t;
    t.ulp = ulp;
    t.amount = Expr::parse(words[0], IndexVar::None,
                           valuePlace(static_cast<int>(words[0].data() - value.data())))
                   .eval(0);
    if (t.amount > 0xffffffffull)
      fail(column, "a tolerance of " + std::to_string(t.amount) +
                       " is no distance (0 to 4294967295; a negative value wraps)");
    if (ulp && width != 4)
      fail(column, "'within N ulp' needs 32-bit values (a VGPR or u32 elements), these are " +
                       std::to_string(8 * width) + "-bit");
    value = gcn::trimSpace(value.substr(0, at));
    return t;
  }
  ExpectValues expectValues(std::string_view value, IndexVar var, std::string_view key,
                            unsigned width = 4) const {
    requireValue(key, value);
    ExpectValues v;
    v.place = valuePlace();
    v.tolerance = tolerance(value, width);
    requireValue(key, value);
    const auto pieces = splitList(value);
    v.isList = pieces.size() > 1;
    for (const auto& [piece, off] : pieces) {
      ExpectItem item;
      if (piece == "*") {
        item.kind = ExpectItem::Kind::Any;
      } else if (piece == "undef") {
        item.kind = ExpectItem::Kind::Undefined;
      } else {
        item.value = Expr::parse(piece, v.isList ? IndexVar::None : var, valuePlace(off));
      }
      v.list.push_back(std::move(item));
    }
    return v;
  }

  // "@OFFSET TYPE [xN]" after "mem"/"lds"; fills offset, element size and count.
  template <class W>
  void dataTarget(const std::vector<std::string_view>& k, std::size_t from, W& w) {
    const std::string what = std::string(k[from - 1]);
    if (k.size() <= from || k[from].empty() || k[from][0] != '@')
      fail(keyColumn_,
           "'" + what + "' needs '@OFFSET TYPE' (e.g. '" + what + " @0x10 u32 = 1, 2'), or 'fill'");
    if (k.size() < from + 2)
      fail(keyColumn_, "'" + what + " " + std::string(k[from]) + "' needs a type: u8, u16 or u32");
    if (k.size() > from + 3)
      fail(keyColumn_, "unexpected '" + std::string(k[from + 3]) + "' in '" + what + "' key");
    const std::string_view off = k[from].substr(1);
    if (off.empty()) fail(keyColumn_, "'@' needs an offset (e.g. @0x10)");
    w.offset = Expr::parse(off, IndexVar::None, keyPlace()).eval(0);
    const std::string_view type = k[from + 1];
    if (type == "u8") {
      w.elementBytes = 1;
    } else if (type == "u16") {
      w.elementBytes = 2;
    } else if (type == "u32") {
      w.elementBytes = 4;
    } else {
      fail(keyColumn_, "unknown element type '" + std::string(type) + "': expected u8, u16 or u32");
    }
    if (k.size() == from + 3) {
      const std::string_view xn = k[from + 2];
      if (xn.size() < 2 || xn[0] != 'x')
        fail(keyColumn_,
             "expected a count like 'x16' after the type, found '" + std::string(xn) + "'");
      const uint64_t n = Expr::parse(xn.substr(1), IndexVar::None, keyPlace()).eval(0);
      if (n == 0 || n > kMaxMemoryBytes)
        fail(keyColumn_, "count '" + std::string(xn) + "' out of range");
      w.count = n;
    }
  }
  template <class W>
  void checkCount(W& w, std::size_t listSize) const {
    if (listSize > 1) {
      if (w.count && *w.count != listSize)
        fail(keyColumn_, "count x" + std::to_string(*w.count) + " but the list has " +
                             std::to_string(listSize) + " entries");
      w.count = listSize;
    }
    if (!w.count) w.count = 1;
  }

  void handle(const std::vector<std::string_view>& k, std::string_view value) {
    const std::string key = [&] {
      std::string s;
      for (auto t : k)
        s += (s.empty() ? "" : " ") + std::string(t);
      return s;
    }();
    // Each group takes its own keys; the first that takes the line wins.
    if (handleText(k, key, value) || handleVsharp(k, key, value) ||
        handleRegisters(k, key, value) || handleImages(k, key, value) ||
        handleWrites(k, key, value))
      return;
    if (k.size() == 1 && k[0] == "policy") {
      requireValue(key, value);
      for (std::string_view a : splitWs(value)) {
        const int col = valueColumn_ + static_cast<int>(a.data() - value.data());
        if (a.find('=') == std::string_view::npos)
          fail(col, "policy '" + std::string(a) + "' is not of the form name=option");
        probe_.policies.push_back({std::string(a), Place{probe_.file, line_, col}});
      }
    } else if (k[0] == "expect") {
      handleExpect(k, key, value);
    } else {
      fail(keyColumn_, "unknown key '" + key +
                           "' (known: question, source, gen, inst, vsharp, vsharp words, lanes, "
                           "exec, m0, vN, sN, memory base, memory size, far, mem, lds, lds size, "
                           "policy, expect, route, format)");
    }
  }

  // question, source(s), gen, route, format, inst.
  bool handleText(const std::vector<std::string_view>& k, const std::string& key,
                  std::string_view value) {
    if (k.size() != 1) return false;
    const std::string_view k0 = k[0];
    if (k0 == "question") {
      requireValue(key, value);
      if (!probe_.question.empty()) probe_.question += ' ';
      probe_.question += std::string(value);
    } else if (k0 == "source" || k0 == "sources") {
      requireValue(key, value);
      probe_.sources.emplace_back(value);
    } else if (k0 == "gen" || k0 == "inst" || k0 == "route" || k0 == "format") {
      // Routes and formats are checked where they are known (harness/cases/suite.h,
      // probeCase).
      requireValue(key, value);
      auto& slot = k0 == "gen"     ? probe_.gen
                   : k0 == "inst"  ? probe_.inst
                   : k0 == "route" ? probe_.route
                                   : probe_.format;
      setOnce(slot, std::string(value), key);
      slot->place = valuePlace();
    } else {
      return false;
    }
    return true;
  }

  // vsharp (text, repeated lines continue it) and vsharp words.
  bool handleVsharp(const std::vector<std::string_view>& k, const std::string& key,
                    std::string_view value) {
    if (k.size() == 1 && k[0] == "vsharp") {
      // Errors point at the first line of a long V#.
      if (probe_.vsharpWords) fail(keyColumn_, "both 'vsharp' and 'vsharp words' are given");
      if (probe_.vsharp) {
        probe_.vsharp->value += " " + std::string(value);
      } else {
        probe_.vsharp = Placed<std::string>{std::string(value), valuePlace()};
      }
      return true;
    }
    if (k.size() != 2 || k[0] != "vsharp" || k[1] != "words") return false;
    if (probe_.vsharp) fail(keyColumn_, "both 'vsharp' and 'vsharp words' are given");
    requireValue(key, value);
    std::vector<uint64_t> words;
    for (const auto& [piece, off] : splitList(value)) {
      const uint64_t w = Expr::parse(piece, IndexVar::None, valuePlace(off)).eval(0);
      if (w > 0xffffffffull) fail(valueColumn_ + off, "V# word does not fit in 32 bits");
      words.push_back(w);
    }
    if (words.size() != 4)
      fail(valueColumn_,
           "'vsharp words' needs exactly 4 dwords, found " + std::to_string(words.size()));
    setOnce(probe_.vsharpWords, std::move(words), key);
    return true;
  }

  // lanes, exec, m0, vN, sN.
  bool handleRegisters(const std::vector<std::string_view>& k, const std::string& key,
                       std::string_view value) {
    if (k.size() != 1) return false;
    const std::string_view k0 = k[0];
    if (k0 == "lanes") {
      const uint64_t n = number(value, key);
      if (n < 1 || n > 64) fail(valueColumn_, "lanes must be 1..64, found " + std::to_string(n));
      setOnce(probe_.lanes, n, key);
    } else if (k0 == "exec") {
      setOnce(probe_.exec, number(value, key), key);
    } else if (k0 == "m0") {
      const uint64_t v = number(value, key);
      if (v > 0xffffffffull) fail(valueColumn_, "m0 does not fit in 32 bits");
      setOnce(probe_.m0, v, key);
    } else if (regNumber(k0, 'v')) {
      const unsigned reg = *regNumber(k0, 'v');
      if (reg > 255) fail(keyColumn_, "no VGPR " + std::string(k0) + ": v0..v255");
      for (const RegInit& r : probe_.vgprs)
        if (r.reg == reg)
          fail(keyColumn_,
               std::string(k0) + " is already set on line " + std::to_string(r.values.place.line));
      probe_.vgprs.push_back(RegInit{reg, values(value, IndexVar::Lane, key)});
    } else if (regNumber(k0, 's')) {
      const unsigned reg = *regNumber(k0, 's');
      if (reg > 103) fail(keyColumn_, "no SGPR " + std::string(k0) + ": s0..s103");
      for (const auto& s : probe_.sgprs)
        if (s.value.first == reg)
          fail(keyColumn_,
               std::string(k0) + " is already set on line " + std::to_string(s.place.line));
      const uint64_t v = number(value, key);
      if (v > 0xffffffffull) fail(valueColumn_, std::string(k0) + " value does not fit in 32 bits");
      probe_.sgprs.push_back({{reg, v}, keyPlace()});
    } else {
      return false;
    }
    return true;
  }

  // memory base, memory size, far @OFF, lds size.
  bool handleImages(const std::vector<std::string_view>& k, const std::string& key,
                    std::string_view value) {
    if (k.size() != 2) return false;
    const std::string_view k0 = k[0];
    if (k0 == "memory" && k[1] == "base") {
      setOnce(probe_.memoryBase, number(value, key), key);
    } else if (k0 == "memory" && k[1] == "size") {
      const uint64_t n = number(value, key);
      if (n > kMaxMemoryBytes)
        fail(valueColumn_, "memory size " + std::to_string(n) + " is over the limit of " +
                               std::to_string(kMaxMemoryBytes) + " bytes");
      setOnce(probe_.memorySize, n, key);
    } else if (k0 == "far") {
      if (k[1].size() < 2 || k[1][0] != '@')
        fail(keyColumn_, "'far' needs an offset from the image's base (far @0x100000000 = 256)");
      if (probe_.farRegions.size() == kMaxFarRegions)
        fail(keyColumn_, "more than " + std::to_string(kMaxFarRegions) + " far regions");
      Probe::FarRegion r;
      r.offset = Expr::parse(k[1].substr(1), IndexVar::None, keyPlace()).eval(0);
      r.size = number(value, key);
      if (r.size == 0 || r.size > kMaxMemoryBytes)
        fail(valueColumn_, "far region size " + std::to_string(r.size) + " is not 1.." +
                               std::to_string(kMaxMemoryBytes) + " bytes");
      probe_.farRegions.push_back({r, keyPlace()});
    } else if (k0 == "lds" && k[1] == "size") {
      const uint64_t n = number(value, key);
      if (n > kMaxLdsBytes)
        fail(valueColumn_, "lds size " + std::to_string(n) + " is over GCN's 64 KiB");
      setOnce(probe_.ldsSize, n, key);
    } else {
      return false;
    }
    return true;
  }

  // mem/lds fill, mem/lds @OFF TYPE [xN].
  bool handleWrites(const std::vector<std::string_view>& k, const std::string& key,
                    std::string_view value) {
    if (k[0] != "mem" && k[0] != "lds") return false;
    DataWrite w;
    w.lds = k[0] == "lds";
    if (k.size() == 2 && k[1] == "fill") {
      w.fill = true;
      w.values = values(value, IndexVar::Element, key);
      if (w.values.isList) fail(valueColumn_, "'fill' takes one expression of i, not a list");
    } else {
      dataTarget(k, 1, w);
      w.values = values(value, IndexVar::Element, key);
      checkCount(w, w.values.list.size());
    }
    probe_.writes.push_back(std::move(w));
    return true;
  }

  void handleExpect(std::vector<std::string_view> k, const std::string& key,
                    std::string_view value) {
    // `expect device ...`: the same targets, checked against what the device returned.
    const bool device = k.size() >= 2 && k[1] == "device";
    if (device) k.erase(k.begin() + 1);
    const std::string prefix = device ? "expect device " : "expect ";
    if (k.size() < 2)
      fail(keyColumn_, "'" + std::string(gcn::trimSpace(prefix)) +
                           "' needs a target: vN, inrange, mem @OFF TYPE, lds @OFF TYPE");
    if (k.size() == 2 && regNumber(k[1], 'v')) {
      const unsigned reg = *regNumber(k[1], 'v');
      if (reg > 255) fail(keyColumn_, "no VGPR " + std::string(k[1]) + ": v0..v255");
      for (const ExpectReg& r : probe_.expectRegs)
        if (r.reg == reg && r.device == device)
          fail(keyColumn_,
               "'" + key + "' is already given on line " + std::to_string(r.values.place.line));
      probe_.expectRegs.push_back(ExpectReg{device, reg, expectValues(value, IndexVar::Lane, key)});
    } else if (k.size() == 2 && k[1] == "inrange") {
      if (device)
        fail(keyColumn_,
             "'expect device inrange': a device does not report its range checks; expect the "
             "values an out-of-range access gives instead");
      if (probe_.expectInRange)
        fail(keyColumn_, "'expect inrange' is already given on line " +
                             std::to_string(probe_.expectInRange->place.line));
      probe_.expectInRange = expectValues(value, IndexVar::Lane, key);
      if (probe_.expectInRange->tolerance)
        fail(valueColumn_, "'expect inrange' takes no tolerance");
    } else if (k[1] == "mem" || k[1] == "lds") {
      if (device && k[1] == "lds")
        fail(keyColumn_, "'expect device lds': the device's LDS is not read back");
      ExpectData e;
      e.device = device;
      e.lds = k[1] == "lds";
      dataTarget(k, 2, e);
      e.values = expectValues(value, IndexVar::Element, key, e.elementBytes);
      checkCount(e, e.values.list.size());
      probe_.expectData.push_back(std::move(e));
    } else {
      fail(keyColumn_, "unknown expectation '" + key + "': expected '" + prefix + "vN', " +
                           (device ? std::string() : "'expect inrange', ") + "'" + prefix +
                           "mem @OFF TYPE'" +
                           (device ? std::string() : " or 'expect lds @OFF TYPE'") +
                           (device ? std::string() : "; 'expect device ...' checks the device"));
    }
  }

  Probe& probe_;
  int line_;
  int valueColumn_ = 0;
  int keyColumn_ = 0;
};

}  // namespace

Probe parseProbe(std::string_view text, const std::string& file) {
  Probe probe;
  probe.file = file;
  if (text.size() > kMaxProbeBytes)
    throw Error(Place{file, 0, 0}, "probe file of " + std::to_string(text.size()) +
                                       " bytes is over the limit of " +
                                       std::to_string(kMaxProbeBytes) + " bytes");
  // Editors may start UTF-8 text with a byte order mark; it is not part of the first key.
  if (text.substr(0, 3) == "\xef\xbb\xbf") text.remove_prefix(3);
  int line = 0;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    // "\n", "\r\n" and a lone "\r" (old Mac files) each end a line.
    std::size_t end = text.find_first_of("\r\n", pos);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view raw = text.substr(pos, end - pos);
    const std::size_t next = text.substr(end, 2) == "\r\n" ? end + 2 : end + 1;
    ++line;
    // The column is the first byte past the limit, so an editor jumps to where it bites.
    if (raw.size() > kMaxLineBytes)
      throw Error(Place{file, line, static_cast<int>(kMaxLineBytes) + 1},
                  "line of " + std::to_string(raw.size()) + " bytes is over the limit of " +
                      std::to_string(kMaxLineBytes) + " bytes");
    // Every text of a probe ends up in reports and JSON, which must be UTF-8.
    if (const std::size_t bad = firstInvalidUtf8(raw); bad != std::string_view::npos) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "0x%02x", static_cast<unsigned char>(raw[bad]));
      throw Error(Place{file, line, static_cast<int>(bad) + 1},
                  std::string("byte ") + hex + " is not UTF-8 (a probe file is UTF-8 text)");
    }
    LineParser(probe, line).parse(raw);
    pos = next;
  }
  if (!probe.inst)
    throw Error(Place{file, 0, 0}, "no 'inst = ...' line: a probe runs one instruction");
  if (!probe.vsharp && !probe.vsharpWords)
    throw Error(Place{file, 0, 0},
                "no 'vsharp = ...' (or 'vsharp words = ...') line: the instruction needs a V#");
  return probe;
}

Probe loadProbe(const std::string& path) {
  std::string text;
  if (path == "-") {
    text.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
    return parseProbe(text, "<stdin>");
  }
  std::error_code ec;
  // Opening a directory succeeds on Linux and reads as empty, which would look like a probe
  // without lines.
  if (std::filesystem::is_directory(path, ec))
    throw Error(Place{path, 0, 0}, "is a directory, not a probe file");
  if (std::filesystem::is_regular_file(path, ec)) {
    const auto size = std::filesystem::file_size(path, ec);
    if (!ec && size > kMaxProbeBytes)
      throw Error(Place{path, 0, 0}, "probe file of " + std::to_string(size) +
                                         " bytes is over the limit of " +
                                         std::to_string(kMaxProbeBytes) + " bytes");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(Place{path, 0, 0}, "cannot open the probe file");
  text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  if (in.bad()) throw Error(Place{path, 0, 0}, "cannot read the probe file");
  return parseProbe(text, path);
}

std::vector<std::string> shippedProbeFiles() {
  const std::string dir = shippedProbesDir().string();
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec))
    if (e.path().extension() == ".probe") out.push_back(e.path().string());
  if (ec)
    throw Error(Place{dir, 0, 0}, "cannot read the probe directory: " + ec.message() +
                                      " (set GCNPROBE_PROBES_DIR to the probes/ folder)");
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace gcn::probe
