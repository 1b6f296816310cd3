// The binary route (harness/isa/binary_patch.h): the cache-header reader and the patch checks
// without a device, then on RADV's null device (tonga, gfx8: ACO prints its Assembly itself)
// that every opcode but the LDS-data store is built and proven, and that each adversarial
// patch is refused with its reason: a wrong-length or another generation's encoding, a
// template whose registers do not cover the instruction, corrupted cache data. On lavapipe
// the route is unsupported.
#include "harness/isa/binary_patch.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "harness/vulkan/driver.h"
#include "reference/assembler.h"
#include "reference/encoding.h"
#include "reference/error.h"
#include "reference/resource.h"
#include "tests/support/cli.h"
#include "tests/support/radv.h"

namespace gcnprobe {
namespace binary_patch_test {

// The Vulkan spec's VkPipelineCacheHeaderVersionOne: headerSize, version, vendorID, deviceID
// (little-endian u32) and the 16-byte UUID; then entries.
std::vector<uint8_t> header(uint32_t size, uint32_t version, std::size_t total) {
  std::vector<uint8_t> d(std::max<std::size_t>(total, 32), 0xab);
  const uint32_t fields[] = {size, version, 0x1002, 0x6920};
  std::memcpy(d.data(), fields, sizeof fields);
  for (unsigned i = 0; i < 16; ++i)
    d[16 + i] = static_cast<uint8_t>(i);
  d.resize(total);
  return d;
}

TEST(BinaryPatch, CacheHeaderIsReadAndCheckedDefensively) {
  const isa::CacheHeader h = isa::parseCacheHeader(header(32, 1, 64), "drv 1.0");
  EXPECT_EQ(h.headerSize, 32u);
  EXPECT_EQ(h.vendorId, 0x1002u);
  EXPECT_EQ(h.deviceId, 0x6920u);
  EXPECT_EQ(h.uuid[15], 15u);
  const auto expectError = [](const std::vector<uint8_t>& d, const std::string& part) {
    try {
      (void)isa::parseCacheHeader(d, "drv 1.0");
      ADD_FAILURE() << "accepted; wanted: " << part;
    } catch (const gcn::Error& e) {
      const std::string m = e.what();
      EXPECT_NE(m.find("drv 1.0"), std::string::npos) << m;
      EXPECT_NE(m.find(part), std::string::npos) << m;
    }
  };
  expectError(header(32, 1, 20), "shorter than the 32-byte header");
  expectError(header(16, 1, 64), "header size 16");
  expectError(header(100, 1, 64), "header size 100");
  expectError(header(32, 2, 64), "version 2");
}

TEST(BinaryPatch, WordsAreFoundAtAnyByteAfterTheHeader) {
  std::vector<uint8_t> d = header(32, 1, 80);
  const uint32_t w[2] = {0xe05c1000u, 0x80020401u};
  std::memcpy(d.data() + 37, w, 8);  // unaligned
  std::memcpy(d.data() + 60, w, 8);
  EXPECT_EQ(isa::findWords(d, w), (std::vector<std::size_t>{37, 60}));
  std::memcpy(d.data() + 8, w, 8);  // inside the header: not an entry
  EXPECT_EQ(isa::findWords(d, w).size(), 2u);
  const uint32_t other[2] = {0x12345678u, 0x9abcdef0u};
  EXPECT_TRUE(isa::findWords(d, other).empty());
}

gcn::Instruction parse(gcn::Gen gen, const char* text) {
  return gcn::parseInstruction(gen, text);
}

std::vector<uint32_t> wordsOf(gcn::Gen gen, const gcn::Instruction& i) {
  const auto e = gcn::encode(gen, i);
  return {e[0], e[1]};
}

TEST(BinaryPatch, PatchProblemsNameTheReason) {
  const gcn::Chip& gfx8 = gcn::representativeChip(gcn::Gen::Gfx8);
  const gcn::Chip& gfx6 = gcn::representativeChip(gcn::Gen::Gfx6);
  const gcn::Gen g8 = gcn::Gen::Gfx8;
  const gcn::Instruction templ = parse(g8, "buffer_load_dwordx4 v[4:7], v1, s[8:11], 0 offen");
  const gcn::Instruction sbyte = parse(g8, "buffer_load_sbyte v4, v1, s[8:11], 0 offen");
  EXPECT_EQ(isa::patchProblem(gfx8, templ, sbyte, wordsOf(g8, sbyte)), "");
  // Wrong length.
  const std::vector<uint32_t> one = {wordsOf(g8, sbyte)[0]};
  EXPECT_NE(isa::patchProblem(gfx8, templ, sbyte, one).find("is 1 dwords"), std::string::npos);
  std::vector<uint32_t> three = wordsOf(g8, sbyte);
  three.push_back(0);
  EXPECT_NE(isa::patchProblem(gfx8, templ, sbyte, three).find("is 3 dwords"), std::string::npos);
  // Another generation's encoding: gfx8's words for the gfx6 instruction.
  const gcn::Instruction t6 =
      parse(gcn::Gen::Gfx6, "buffer_load_dwordx4 v[4:7], v1, s[8:11], 0 offen");
  const gcn::Instruction s6 = parse(gcn::Gen::Gfx6, "buffer_load_sbyte v4, v1, s[8:11], 0 offen");
  const std::string wrongGen = isa::patchProblem(gfx6, t6, s6, wordsOf(g8, sbyte));
  EXPECT_NE(wrongGen, "");
  EXPECT_EQ(isa::patchProblem(gfx6, t6, s6, wordsOf(gcn::Gen::Gfx6, s6)), "");
  // Registers the template does not have: TFE makes x4 five registers; another VADDR; LDS.
  const gcn::Instruction tfe = parse(g8, "buffer_load_dwordx4 v[4:8], v1, s[8:11], 0 offen tfe");
  EXPECT_NE(isa::patchProblem(gfx8, templ, tfe, wordsOf(g8, tfe)).find("5 register(s)"),
            std::string::npos);
  const gcn::Instruction v2 = parse(g8, "buffer_load_sbyte v4, v2, s[8:11], 0 offen");
  EXPECT_NE(isa::patchProblem(gfx8, templ, v2, wordsOf(g8, v2)).find("must use them"),
            std::string::npos);
  const gcn::Instruction lds = parse(g8, "buffer_load_dword v4, v1, s[8:11], 0 offen lds");
  EXPECT_NE(isa::patchProblem(gfx8, templ, lds, wordsOf(g8, lds)).find("writes LDS"),
            std::string::npos);
  // BUFFER_STORE_LDS_DWORD needs the template's SRSRC, SOFFSET and OFFSET, nothing else.
  const gcn::Instruction storeTempl = parse(g8, "buffer_store_dword v1, v0, s[8:11], 0 offen");
  const gcn::Instruction ldsStore = parse(g8, "buffer_store_lds_dword s[8:11], 0 lds");
  EXPECT_EQ(isa::patchProblem(gfx8, storeTempl, ldsStore, wordsOf(g8, ldsStore)), "");
  const gcn::Instruction ldsOther = parse(g8, "buffer_store_lds_dword s[12:15], 0 offset:4 lds");
  EXPECT_NE(isa::patchProblem(gfx8, storeTempl, ldsOther, wordsOf(g8, ldsOther)).find("must use"),
            std::string::npos);
  const gcn::Instruction a64 =
      parse(gcn::Gen::Gfx6, "buffer_load_sbyte v4, v[1:2], s[8:11], 0 addr64");
  EXPECT_NE(isa::patchProblem(gfx6, t6, a64, wordsOf(gcn::Gen::Gfx6, a64)).find("ADDR64"),
            std::string::npos);
}

// On the null device (no memory: building only).
class BinaryOnNullDevice : public ::testing::Test {
 protected:
  void SetUp() override {
    if (const auto why = test_support::radvMissing()) GTEST_SKIP() << *why;
    radv_.emplace("tonga");
    ctx_ = vk::Context::open("");
  }
  void TearDown() override {
    ctx_.reset();
    radv_.reset();
  }
  std::optional<test_support::ScopedRadvNull> radv_;
  std::unique_ptr<vk::Context> ctx_;
};

TEST_F(BinaryOnNullDevice, AdversarialPatchesAreRefusedWithTheirReason) {
  isa::BinaryBuilder b(*ctx_);
  ASSERT_EQ(b.deviceProblem(), "");
  const gcn::Chip& chip = *ctx_->info().chip;
  const gcn::Instruction templ = b.templateInstruction(gcn::requireOpcode("buffer_load_sbyte"));
  const gcn::Instruction sbyte = isa::onTemplateOperands(
      chip.gen, templ, gcn::requireOpcode("buffer_load_sbyte"), gcn::Dfmt::F32, gcn::Nfmt::Uint);
  const isa::BinaryBuild ok = b.build(sbyte);
  ASSERT_TRUE(ok.built) << ok.reason;
  EXPECT_NE(ok.proof.find("application cache hit"), std::string::npos) << ok.proof;
  // The words found in the read-back decode to the instruction, independently of the builder.
  EXPECT_EQ(gcn::printInstruction(chip.gen, *gcn::tryDecode(chip.gen, ok.words[0], ok.words[1])),
            gcn::printInstruction(chip.gen, sbyte));

  const isa::BinaryBuild shortWords = b.build(sbyte, std::vector<uint32_t>{ok.words[0]});
  EXPECT_FALSE(shortWords.built);
  EXPECT_NE(shortWords.reason.find("is 1 dwords"), std::string::npos) << shortWords.reason;
  // gfx6's encoding of the same instruction on this gfx8 device.
  gcn::Instruction s6 = sbyte;
  const auto w6 = gcn::encode(gcn::Gen::Gfx6, s6);
  const isa::BinaryBuild otherGen = b.build(sbyte, std::vector<uint32_t>{w6[0], w6[1]});
  EXPECT_FALSE(otherGen.built);
  EXPECT_NE(otherGen.reason.find("decode on gfx8"), std::string::npos) << otherGen.reason;
  gcn::Instruction tfe = isa::onTemplateOperands(
      chip.gen, templ, gcn::requireOpcode("buffer_load_dwordx4"), gcn::Dfmt::F32, gcn::Nfmt::Uint);
  tfe.tfe = true;
  const isa::BinaryBuild wide = b.build(tfe);
  EXPECT_FALSE(wide.built);
  EXPECT_NE(wide.reason.find("5 register(s)"), std::string::npos) << wide.reason;

  // Corrupted data: a flipped UUID byte (the driver ignores the data and compiles again), a
  // header of the wrong version, data cut short.
  b.setCorruption([](std::vector<uint8_t>& d) { d[20] ^= 0xff; });
  const isa::BinaryBuild uuid = b.build(sbyte);
  EXPECT_FALSE(uuid.built);
  EXPECT_NE(uuid.reason.find("did not take the pipeline from the patched cache"), std::string::npos)
      << uuid.reason;
  b.setCorruption([](std::vector<uint8_t>& d) { d[4] = 7; });
  const isa::BinaryBuild version = b.build(sbyte);
  EXPECT_FALSE(version.built);
  EXPECT_NE(version.reason.find("version 7"), std::string::npos) << version.reason;
  b.setCorruption([](std::vector<uint8_t>& d) { d.resize(24); });
  const isa::BinaryBuild cut = b.build(sbyte);
  EXPECT_FALSE(cut.built);
  EXPECT_NE(cut.reason.find("shorter than the 32-byte header"), std::string::npos) << cut.reason;
}

// BUFFER_STORE_LDS_DWORD in the LDS template: two patches, both found again in the read-back.
// The M0 setup is what llvm-mc 14 assembles for "s_mov_b32 m0, 0x104" on tonga:
// [0xff,0x00,0xfc,0xbe,0x04,0x01,0x00,0x00].
TEST_F(BinaryOnNullDevice, TheLdsStoreIsBuiltWithItsM0SetupAndEachPatchIsProven) {
  isa::BinaryBuilder b(*ctx_);
  const gcn::Chip& chip = *ctx_->info().chip;
  const gcn::OpcodeInfo& op = gcn::requireOpcode("buffer_store_lds_dword");
  const gcn::Instruction templ = b.templateInstruction(op);
  EXPECT_EQ(std::string(templ.op->mnemonic), "buffer_store_dword");
  const gcn::Instruction store =
      isa::onTemplateOperands(ctx_->info().chip->gen, templ, op, gcn::Dfmt::F32, gcn::Nfmt::Uint);
  const isa::BinaryBuild ok = b.build(store, std::nullopt, 0x104);
  ASSERT_TRUE(ok.built) << ok.reason;
  ASSERT_TRUE(ok.m0Setup.has_value());
  EXPECT_EQ(*ok.m0Setup, (std::array<uint32_t, 2>{0xbefc00ffu, 0x00000104u}));
  EXPECT_NE(ok.proof.find("s_mov_b32 m0, 0x00000104"), std::string::npos) << ok.proof;
  EXPECT_NE(ok.proof.find("0x4d30c0de"), std::string::npos) << ok.proof;
  EXPECT_EQ(gcn::printInstruction(chip.gen, *gcn::tryDecode(chip.gen, ok.words[0], ok.words[1])),
            gcn::printInstruction(chip.gen, store));
  EXPECT_EQ(gcn::printInstruction(chip.gen, store).rfind("buffer_store_lds_dword s[", 0), 0u);
  // Another M0: the same instruction words, another setup.
  const isa::BinaryBuild other = b.build(store, std::nullopt, 0x200);
  ASSERT_TRUE(other.built) << other.reason;
  EXPECT_EQ(other.words, ok.words);
  EXPECT_EQ((*other.m0Setup)[1], 0x200u);
  // The setup altered after patching (the driver takes the data as it is): the read-back
  // does not hold the intended M0 setup, refused.
  b.setCorruption([](std::vector<uint8_t>& d) {
    const uint32_t setup[] = {0xbefc00ffu, 0x104u};
    for (const std::size_t at : isa::findWords(d, setup))
      d[at + 4] = 0x08;
  });
  const isa::BinaryBuild altered = b.build(store, std::nullopt, 0x104);
  EXPECT_FALSE(altered.built);
  EXPECT_NE(altered.reason.find("M0 setup"), std::string::npos) << altered.reason;
  // A byte next to the setup slot, on either side, altered: only the two patches may differ
  // from the template's code around the instruction.
  for (const int side : {-1, 8}) {
    std::size_t k = 0;  // how far before the instruction the altered byte lies
    b.setCorruption([&](std::vector<uint8_t>& d) {
      const uint32_t setup[] = {0xbefc00ffu, 0x104u};
      const std::vector<std::size_t> at = isa::findWords(d, setup);
      const std::vector<std::size_t> ins = isa::findWords(d, ok.words);
      ASSERT_EQ(at.size(), 1u);
      ASSERT_EQ(ins.size(), 1u);
      const std::size_t byte = side < 0 ? at[0] - 1 : at[0] + 8;
      k = ins[0] - byte;
      d[byte] ^= 0x5a;
    });
    const isa::BinaryBuild near = b.build(store, std::nullopt, 0x104);
    EXPECT_FALSE(near.built) << side;
    EXPECT_NE(near.reason.find("differs from the template's " + std::to_string(k) +
                               " bytes before the patched instruction"),
              std::string::npos)
        << near.reason;
  }
}

// Every opcode is built and proven: gfx8 and gfx9 (BUFFER_STORE_LDS_DWORD in the LDS
// template), tahiti (gfx6, through the clrxdisasm stand-in), and the RDNA generations (their
// instruction counts are the opcode table's: docs/rdna.md).
TEST(BinaryRoute, EveryOpcodeIsBuiltOnTheNullDevice) {
  if (const auto why = test_support::radvMissing()) GTEST_SKIP() << *why;
  for (const auto& [chip, total] :
       {std::pair{"tonga", 75u}, std::pair{"vega10", 85u}, std::pair{"tahiti", 66u},
        std::pair{"navi10", 88u}, std::pair{"navi21", 89u}, std::pair{"navi31", 89u}}) {
    SCOPED_TRACE(chip);
    const auto r = test_support::runGcnprobe(std::string("--radv-null ") + chip + " binary --json",
                                             test_support::Stderr::Discard);
    ASSERT_EQ(r.exit, 0) << r.out;
    const auto doc = nlohmann::json::parse(r.out);
    EXPECT_EQ(doc.at("opcodes"), total);
    EXPECT_EQ(doc.at("built"), total) << doc.dump(1);
  }
}

TEST(BinaryRoute, LavapipeIsUnsupportedWithTheReason) {
  const auto r = test_support::runGcnprobe("binary");
  EXPECT_EQ(r.exit, 1) << r.out;
  EXPECT_NE(r.out.find("unsupported: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("is not a GCN device"), std::string::npos) << r.out;
}

}  // namespace binary_patch_test
}  // namespace gcnprobe
