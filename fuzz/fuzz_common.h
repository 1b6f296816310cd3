// Shared by the libFuzzer targets: what counts as a finding. A gcn::Error is the program's
// answer to bad input and is fine; any other exception, a crash, a sanitizer report or a
// broken round trip (check() below) is a finding and stops the fuzzer.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "reference/gen.h"

namespace gcnprobe::fuzz {

// A property the code documents has failed: print it and abort, so libFuzzer keeps the input.
inline void check(bool holds, const char* what, const std::string& detail = "") {
  if (holds) return;
  std::fprintf(stderr, "property failed: %s %s\n", what, detail.c_str());
  std::abort();
}

// The first input byte picks the generation, GCN or RDNA; the rest is the text or words.
inline gcn::Gen takeGen(const uint8_t*& data, size_t& size) {
  if (size == 0) return gcn::Gen::Gfx8;
  const gcn::Gen gen = gcn::kAllGens[data[0] % gcn::kGenCount];
  ++data;
  --size;
  return gen;
}

inline std::string_view asText(const uint8_t* data, size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

}  // namespace gcnprobe::fuzz
