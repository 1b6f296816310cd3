// Integer expressions of probe files: `lane*4+16`, `0x3f800000`, `f32(-0.5)`, `rand(7)`.
// One index variable is in scope: `lane` for per-lane values (VGPRs, expectations) and `i`
// for element values (memory, LDS). Arithmetic is unsigned 64-bit and wraps, so `-1` is all
// ones; the caller truncates to the width it stores.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "reference/error.h"

namespace gcn::probe {

enum class IndexVar : uint8_t { None, Lane, Element };

// Limits that keep parsing and evaluation bounded (the parser and the evaluator recurse, so
// without them a deeply nested or very long expression overflows the stack). A probe's
// expressions are a few dozen characters; these are far above any hand-written one.
inline constexpr std::size_t kMaxExprChars = 4096;  // characters of one expression
inline constexpr std::size_t kMaxExprNodes = 2048;  // numbers, names and operators
inline constexpr int kMaxExprDepth = 64;            // nested parentheses, unary ops, calls

class Expr {
 public:
  // `place` is where `text` starts (file, line, column); errors point inside it.
  static Expr parse(std::string_view text, IndexVar var, const Place& place);

  uint64_t eval(uint64_t index) const;
  // True when the value depends on the index variable.
  bool usesIndex() const { return usesIndex_; }
  const std::string& text() const { return text_; }
  // Numbers, names and operators in the expression: the work of one eval().
  std::size_t nodeCount() const { return nodes_; }

  struct Node;

 private:
  std::shared_ptr<const Node> root_;
  std::string text_;
  Place place_;
  bool usesIndex_ = false;
  std::size_t nodes_ = 0;
};

// The generator behind rand(seed): a splitmix64 hash of (seed, index), so a probe's random
// data is the same on every run and every machine.
uint32_t probeRandom(uint64_t seed, uint64_t index);

}  // namespace gcn::probe
