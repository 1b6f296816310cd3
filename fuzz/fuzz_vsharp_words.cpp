// V# words: every 128-bit pattern decodes, encodes back bit for bit (reserved bits
// included), and its text form parses back to the same words.
#include <cstring>

#include "fuzz/fuzz_common.h"
#include "reference/error.h"
#include "reference/resource.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace gcnprobe::fuzz;
  const gcn::Gen gen = takeGen(data, size);
  if (size < 16) return 0;
  std::array<uint32_t, 4> words{};
  std::memcpy(words.data(), data, 16);
  const gcn::VSharp v = gcn::decodeVSharp(gen, words);
  check(gcn::encodeVSharp(gen, v) == words, "encode(decode(w)) == w");
  const std::string text = gcn::formatVSharp(gen, v);
  try {
    check(gcn::encodeVSharp(gen, gcn::parseVSharp(gen, text)) == words, "parse(format(v))", text);
  } catch (const gcn::Error& e) {
    check(false, "format(v) parses", text + ": " + e.what());
  }
  return 0;
}
