// Assembler/printer: parse(print(x)) == x over every opcode and a random sample, accepted
// spellings (CLRX GcnInstrsMtbuf syntax, LLVM names, short and numeric formats), errors whose
// column points at the offending token, and a fuzz loop that only admits gcn::Error.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "reference/assembler.h"
#include "reference/encoding.h"
#include "reference/error.h"
#include "reference/opcodes.h"
#include "tests/support/random_instruction.h"

namespace assembler_test {

using gcn::Gen;

TEST(Assembler, PrintParseRoundTrip) {
  std::mt19937 rng(7);
  for (Gen gen : gcn::kGcnGens) {
    for (const gcn::OpcodeInfo* op : gcntest::opcodesOn(gen)) {
      for (int i = 0; i < 30; ++i) {
        const gcn::Instruction inst = gcntest::randomInstruction(gen, *op, rng);
        const std::string text = gcn::printInstruction(gen, inst);
        ASSERT_EQ(gcn::parseInstruction(gen, text), inst) << text;
      }
    }
  }
}

TEST(Assembler, BriefExampleEncodesAsLlvmMc) {
  // llvm-mc 14 -mcpu=tonga: [0x10,0xa0,0xa1,0xeb,0x04,0x00,0x02,0x80] (see encoding_test).
  const auto inst =
      gcn::parseInstruction(Gen::Gfx8,
                            "tbuffer_load_format_xyzw v[0:3], v4, s[8:11], 0 "
                            "format:[BUF_DATA_FORMAT_32,BUF_NUM_FORMAT_FLOAT] idxen offset:16");
  EXPECT_EQ(gcn::encode(Gen::Gfx8, inst), (std::array<uint32_t, 2>{0xeba1a010, 0x80020004}));
  // The same instruction in any case, modifiers in any order, CLRX short names, numbers
  // (CLRX GcnMemHandling: 32 = data format 4, FLOAT = number format 7), LLVM 14's format:N (4 | 7
  // << 4).
  for (const char* text : {
           "TBUFFER_LOAD_FORMAT_XYZW v[0:3], v4, s[8:11], 0 OFFSET:0x10 IDXEN "
           "format:[buf_data_format_32,float]",
           "tbuffer_load_format_xyzw v[0:3],v4,s[8:11],0 offset:16 format:[4,7] idxen",
           "tbuffer_load_format_xyzw v[0:3], v4, s[8:11], 0 format:116 idxen offset:16",
           "tbuffer_load_format_xyzw v[0:3], v4, s[8:11], 0 idxen offset:16 "
           "format:[BUF_NUM_FORMAT_FLOAT, BUF_DATA_FORMAT_32]",
       }) {
    EXPECT_EQ(gcn::parseInstruction(Gen::Gfx8, text), inst) << text;
  }
}

TEST(Assembler, SeedShortFormatNames) {
  // CLRX GcnMemHandling names: 8_8_8_8 = data format 10, UNORM = number format 0. Bare "32", "16",
  // "8" are read as codes (format.h parseDfmt), so data formats 4/2/1 need the LLVM name or code.
  const auto inst = gcn::parseInstruction(
      Gen::Gfx9, "tbuffer_store_format_xyzw v[0:3], off, s[0:3], 0 format:[8_8_8_8,unorm]");
  EXPECT_EQ(inst.dfmt, gcn::Dfmt::F8_8_8_8);
  EXPECT_EQ(inst.nfmt, gcn::Nfmt::Unorm);
  EXPECT_EQ(static_cast<int>(inst.dfmt), 10);
}

TEST(Assembler, CanonicalTextIsLlvmOrder) {
  auto inst = gcn::parseInstruction(Gen::Gfx6,
                                    "buffer_load_dword v1, v[2:3], s[4:7], -1 slc "
                                    "addr64 glc offset:8");
  EXPECT_EQ(gcn::printInstruction(Gen::Gfx6, inst),
            "buffer_load_dword v1, v[2:3], s[4:7], -1 addr64 offset:8 glc slc");
  inst = gcn::parseInstruction(Gen::Gfx9, "buffer_store_lds_dword s[4:7], m0 slc lds offset:4");
  EXPECT_EQ(gcn::printInstruction(Gen::Gfx9, inst),
            "buffer_store_lds_dword s[4:7], m0 offset:4 lds slc");
  EXPECT_EQ(gcn::printInstruction(Gen::Gfx9, gcn::parseInstruction(Gen::Gfx9, "buffer_wbinvl1")),
            "buffer_wbinvl1");
}

TEST(Assembler, TfeRegisterCountAcceptsBothForms) {
  // Canonical: TFE adds one VDATA register (CLRX GcnInstrsMtbuf: "The TFE flag requires additional
  // the VDATA register"); llvm-mc 14 writes it without.
  const auto a = gcn::parseInstruction(Gen::Gfx8, "buffer_load_dwordx2 v[1:3], off, s[4:7], 0 tfe");
  const auto b = gcn::parseInstruction(Gen::Gfx8, "buffer_load_dwordx2 v[1:2], off, s[4:7], 0 tfe");
  EXPECT_EQ(a, b);
  EXPECT_EQ(gcn::printInstruction(Gen::Gfx8, a), "buffer_load_dwordx2 v[1:3], off, s[4:7], 0 tfe");
}

TEST(Assembler, D16RegisterCountsPerGeneration) {
  // gfx8 representative (tonga, gfx802): unpacked, 4 VGPRs; gfx9: packed, 2 (docs/gcn-facts.md).
  EXPECT_NO_THROW(gcn::parseInstruction(Gen::Gfx8,
                                        "buffer_load_format_d16_xyzw v[0:3], off, "
                                        "s[0:3], 0"));
  EXPECT_NO_THROW(gcn::parseInstruction(Gen::Gfx9,
                                        "buffer_load_format_d16_xyzw v[0:1], off, "
                                        "s[0:3], 0"));
  EXPECT_THROW(gcn::parseInstruction(Gen::Gfx9,
                                     "buffer_load_format_d16_xyzw v[0:3], off, s[0:3], "
                                     "0"),
               gcn::Error);
}

int errorColumn(Gen gen, const std::string& text) {
  try {
    gcn::parseInstruction(gen, text);
  } catch (const gcn::Error& e) {
    return e.place().column;
  }
  return -1;
}

// Column of `token` in `text` (1-based): the golden is derived from the text, not the code.
int col(const std::string& text, const std::string& token) {
  return static_cast<int>(text.find(token)) + 1;
}

TEST(Assembler, ErrorsPointAtTheOffendingToken) {
  struct Case {
    Gen gen;
    std::string text;
    std::string token;  // first occurrence is where the error must point
  };
  const std::vector<Case> cases = {
      {Gen::Gfx8, "buffer_load_dword v1, v[2:3], s[4:7], 0 addr64", "addr64"},
      {Gen::Gfx8, "buffer_frobnicate v1, off, s[4:7], 0", "buffer_frobnicate"},
      {Gen::Gfx8, "buffer_atomic_fcmpswap v[1:2], off, s[4:7], 0", "buffer_atomic_fcmpswap"},
      {Gen::Gfx8, "tbuffer_load_format_x v1, off, s[4:7], 0 lds", "lds"},
      {Gen::Gfx8, "buffer_load_dword v1, off, s[4:7], 0 tfe lds", "lds"},
      {Gen::Gfx8, "buffer_load_dword v1, off, s[4:7], 0 lds tfe", "tfe"},
      {Gen::Gfx6, "buffer_load_dword v1, v[2:3], s[4:7], 0 addr64 idxen", "idxen"},
      {Gen::Gfx6, "buffer_load_dword v1, v[2:3], s[4:7], 0 offen addr64", "addr64"},
      {Gen::Gfx8, "buffer_load_dword v1, off, s[4:7], 0 format:[32,float]", "format"},
      {Gen::Gfx8, "buffer_load_dwordx2 v1, off, s[4:7], 0", "v1"},
      {Gen::Gfx8, "buffer_load_dword v1, v[2:3], s[4:7], 0 offen", "v[2:3]"},
      {Gen::Gfx8, "buffer_load_dword v1, off, s[4:7], 0 idxen", "off"},
      {Gen::Gfx8, "buffer_load_dword v1, off, s[5:8], 0", "s[5:8]"},
      {Gen::Gfx8, "buffer_load_dword v1, off, s[4:6], 0", "s[4:6]"},
      {Gen::Gfx8, "buffer_load_dword v1, off, s[4:7], 0 offset:4096", "4096"},
      {Gen::Gfx8, "buffer_load_dword v1, off, s[4:7], 65", "65"},
      {Gen::Gfx8, "buffer_load_dword v1, off, s[4:7], s102", "s102"},
      {Gen::Gfx8, "buffer_load_dword v1, off, s[4:7], 0 glc glc", "glc glc"},
      {Gen::Gfx8, "buffer_load_dword v1, off, s[4:7], 0 bogus", "bogus"},
      {Gen::Gfx8, "buffer_store_dword v1, off, s[4:7], 0 lds", "lds"},
      {Gen::Gfx8, "tbuffer_load_format_x v1, off, s[4:7], 0 format:[nonsense,float]", "nonsense"},
      {Gen::Gfx8, "buffer_load_dword v256, off, s[4:7], 0", "v256"},
      {Gen::Gfx8, "buffer_wbinvl1 glc", "glc"},
  };
  for (const Case& c : cases) {
    int want = col(c.text, c.token);
    if (c.token == "glc glc") want += 4;  // the second glc
    EXPECT_EQ(errorColumn(c.gen, c.text), want) << c.text;
  }
}

TEST(Assembler, FuzzOnlyGcnErrors) {
  std::mt19937 rng(99);
  const std::string alphabet = "v s[]:,0123456789-xoffenidxglctfldsaorm_";
  size_t parsed = 0, rejected = 0;
  for (Gen gen : gcn::kGcnGens) {
    const auto ops = gcntest::opcodesOn(gen);
    for (int i = 0; i < 3000; ++i) {
      std::string text = gcn::printInstruction(
          gen, gcntest::randomInstruction(gen, *ops[rng() % ops.size()], rng));
      const int edits = 1 + static_cast<int>(rng() % 4);
      for (int e = 0; e < edits && !text.empty(); ++e) {
        const size_t at = rng() % text.size();
        switch (rng() % 4) {
          case 0:
            text.erase(at, 1 + rng() % 3);
            break;
          case 1:
            text.insert(at, 1, alphabet[rng() % alphabet.size()]);
            break;
          case 2:
            text[at] = alphabet[rng() % alphabet.size()];
            break;
          default:
            text = text.substr(0, at);
            break;
        }
      }
      try {
        const gcn::Instruction inst = gcn::parseInstruction(gen, text);
        ++parsed;
        // Whatever parses is valid and encodable.
        EXPECT_NO_THROW(gcn::encode(gen, inst)) << text;
      } catch (const gcn::Error& e) {
        ++rejected;
        EXPECT_GT(e.place().column, 0) << text << ": " << e.what();
      } catch (const std::exception& e) {
        ADD_FAILURE() << "non-gcn::Error exception for '" << text << "': " << e.what();
      }
    }
  }
  EXPECT_GT(parsed, 0u);
  EXPECT_GT(rejected, 0u);
}

TEST(Assembler, SoffsetTexts) {
  // 8-bit operand encoding: 124 m0, 128 + n for 0..64, 192 + n for -1..-16 (AMD ISA docs,
  // SSRC table), 240 = 0.5.
  EXPECT_EQ(gcn::soffsetText(Gen::Gfx8, 124), "m0");
  EXPECT_EQ(gcn::soffsetText(Gen::Gfx8, 128), "0");
  EXPECT_EQ(gcn::soffsetText(Gen::Gfx8, 192), "64");
  EXPECT_EQ(gcn::soffsetText(Gen::Gfx8, 193), "-1");
  EXPECT_EQ(gcn::soffsetText(Gen::Gfx8, 208), "-16");
  EXPECT_EQ(gcn::soffsetText(Gen::Gfx8, 240), "0.5");
  EXPECT_THROW(gcn::soffsetText(Gen::Gfx8, 255), gcn::Error);  // literal: not for buffers
  EXPECT_THROW(gcn::soffsetText(Gen::Gfx6, 248), gcn::Error);  // 1/(2pi) is gfx8+
}

}  // namespace assembler_test
