// Text llvm-mc 14 rejects is rejected here too, and what it accepts encodes the same. Each
// case was run through `llvm-mc -arch=amdgcn -mcpu=tonga -show-encoding`; the encodings are
// its bytes read as two little-endian dwords.
#include <gtest/gtest.h>

#include <array>
#include <string>

#include "reference/assembler.h"
#include "reference/encoding.h"
#include "reference/error.h"

namespace gcn {
namespace assembler_grammar_test {

struct Rejected {
  std::string text;
  int column;  // llvm-mc's column of the error
};

TEST(AssemblerGrammar, RejectsWhatLlvmMcRejects) {
  const Rejected cases[] = {
      // "invalid operand for instruction" at 1:19 and 1:35.
      {"buffer_load_dword v0x10, v0, s[4:7], 0 offen", 19},
      {"buffer_load_dword v1, v0, s[4:7], s0x10 offen", 35},
      {"buffer_load_dword v1, v0x1, s[4:7], 0 offen", 23},
      // "unknown token in expression" at the second comma.
      {"buffer_load_dword v1, off, s[4:7], 0,,,, glc", 38},
      {"buffer_load_dword v1, v0, s[4:7], 0 offen,, glc", 43},
      {"buffer_load_dword v1, off, s[4:7], 0 ,, glc", 39},
  };
  for (const Rejected& c : cases) {
    try {
      (void)parseInstruction(Gen::Gfx8, c.text);
      ADD_FAILURE() << "accepted: " << c.text;
    } catch (const Error& e) {
      EXPECT_EQ(e.place().column, c.column) << c.text << ": " << e.what();
    }
  }
  // "not a valid operand." for a trailing comma; the column is where the comma stands.
  EXPECT_THROW((void)parseInstruction(Gen::Gfx8, "buffer_load_dword v1, off, s[4:7], 0 glc,"),
               Error);
  EXPECT_THROW((void)parseInstruction(Gen::Gfx8, "buffer_load_dword v1, v0, s[4:7], 0 offen glc ,"),
               Error);
}

struct Accepted {
  std::string text;
  std::array<uint32_t, 2> words;
};

TEST(AssemblerGrammar, AcceptsWhatLlvmMcAccepts) {
  const Accepted cases[] = {
      // [0x00,0x40,0x50,0xe0,0x00,0x01,0x01,0x80]
      {"buffer_load_dword v1, off, s[4:7], 0, glc", {0xe0504000u, 0x80010100u}},
      {"buffer_load_dword v1, off, s[4:7], 0 ,glc", {0xe0504000u, 0x80010100u}},
      // [0x00,0x50,0x50,0xe0,0x00,0x01,0x01,0x80]
      {"buffer_load_dword v1, v0, s[4:7], 0 offen,glc", {0xe0505000u, 0x80010100u}},
      // [0x00,0x40,0x52,0xe0,0x00,0x01,0x01,0x80]
      {"buffer_load_dword v1, off, s[4:7], 0 glc,slc", {0xe0524000u, 0x80010100u}},
      // [0x00,0x10,0x50,0xe0,0x00,0x01,0x01,0x80]: leading zeros are decimal digits.
      {"buffer_load_dword v01, v0, s[4:7], 0 offen", {0xe0501000u, 0x80010100u}},
      // [0x00,0x10,0x50,0xe0,0x00,0x01,0x01,0x08]
      {"buffer_load_dword v1, v0, s[4:7], s08 offen", {0xe0501000u, 0x08010100u}},
      // [0x00,0x10,0x50,0xe0,0x00,0x01,0x01,0x80]: hex is fine inside brackets.
      {"buffer_load_dword v1, v0, s[0x4:7], 0 offen", {0xe0501000u, 0x80010100u}},
  };
  for (const Accepted& c : cases) {
    try {
      EXPECT_EQ(encode(Gen::Gfx8, parseInstruction(Gen::Gfx8, c.text)), c.words) << c.text;
    } catch (const Error& e) {
      ADD_FAILURE() << c.text << ": " << e.what();
    }
  }
}

// Found by fuzz_disasm: VADDR 0xc4 with neither idxen nor offen. llvm-mc -disassemble prints
// `off` and re-encodes [0x03,0xc0,0x53,0xe8,0x00,0xc4,0x00,0x80] (VADDR 0); so does decode.
TEST(AssemblerGrammar, DontCareVaddrDecodesAsOffLikeLlvmMc) {
  const std::array<uint32_t, 2> llvmMc{0xe853c003u, 0x8000c400u};
  const Instruction inst = decode(Gen::Gfx8, 0xe853c003u, 0x8000c4c0u);
  const std::string text = printInstruction(Gen::Gfx8, inst);
  EXPECT_NE(text.find("v[196:199], off, s[0:3], 0"), std::string::npos) << text;
  EXPECT_EQ(encode(Gen::Gfx8, inst), llvmMc);
  EXPECT_EQ(encode(Gen::Gfx8, parseInstruction(Gen::Gfx8, text)), llvmMc) << text;
}

}  // namespace assembler_grammar_test
}  // namespace gcn
