// The V# text parser on arbitrary text. An accepted V# that encodes must decode and encode
// to the same words, and its printed text must parse back to them.
#include "fuzz/fuzz_common.h"
#include "reference/error.h"
#include "reference/resource.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace gcnprobe::fuzz;
  const gcn::Gen gen = takeGen(data, size);
  std::array<uint32_t, 4> words{};
  try {
    words = gcn::encodeVSharp(gen, gcn::parseVSharp(gen, asText(data, size)));
  } catch (const gcn::Error&) {
    return 0;
  }
  const gcn::VSharp v = gcn::decodeVSharp(gen, words);
  check(gcn::encodeVSharp(gen, v) == words, "encode(decode(w)) == w");
  const std::string text = gcn::formatVSharp(gen, v);
  check(gcn::encodeVSharp(gen, gcn::parseVSharp(gen, text)) == words, "parse(format(v))", text);
  return 0;
}
