// The ISA digest: it follows the instruction words of the pipeline and nothing the driver
// prints around them.
#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "harness/cases/suite.h"
#include "harness/run/isa_digest.h"
#include "harness/run/runner.h"
#include "reference/error.h"
#include "results/json_report.h"
#include "results/results_file.h"

namespace isa_digest_test {

using gcnprobe::routes::PipelineIsa;
using gcnprobe::run::isaDigest;

// A compute pipeline whose Assembly text is `assembly`, in the shape RADV's ACO prints
// (instruction text padded, ';', the encoded words).
PipelineIsa compute(const std::string& assembly) {
  PipelineIsa p;
  gcnprobe::vk::ExecutableIsa e;
  e.name = "Compute Shader";
  e.description = "Vulkan Compute Shader";
  e.stages = VK_SHADER_STAGE_COMPUTE_BIT;
  e.source = "RADV Mesa 22.3.6 (compute) assembly";
  e.acoIr = "s2: %0:s[0-1] = p_startpgm\n";
  e.assembly = assembly;
  p.executables.push_back(e);
  return p;
}

const std::string kListing =
    "BB0:\n"
    "    s_load_dwordx4 s[4:7], s[0:1], 0x0                          ; c00a0100 00000000\n"
    "    buffer_load_dword v1, v0, s[4:7], 0 offen                   ; e0501000 80010100\n"
    "    s_waitcnt vmcnt(0)                                          ; bf8c0f70\n"
    "    s_waitcnt vmcnt(0)                                          ; bf8c0f70\n"
    "    s_endpgm                                                    ; bf810000\n";

TEST(IsaDigest, FnvMatchesThePublishedTestVectors) {
  // The FNV reference test vectors (Fowler, Noll, Vo: "FNV-1a 64 bit").
  EXPECT_EQ(gcnprobe::run::fnv1a64(""), 0xcbf29ce484222325ull);
  EXPECT_EQ(gcnprobe::run::fnv1a64("a"), 0xaf63dc4c8601ec8cull);
  EXPECT_EQ(gcnprobe::run::fnv1a64("foobar"), 0x85944171f73967e8ull);
}

TEST(IsaDigest, NoExecutablesOrNoAssemblyIsNoDigest) {
  EXPECT_FALSE(isaDigest(PipelineIsa{}).has_value());  // lavapipe: nothing captured
  EXPECT_FALSE(isaDigest(compute("")).has_value());    // executables, but no Assembly text
}

TEST(IsaDigest, SixteenHexDigits) {
  const auto d = isaDigest(compute(kListing));
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->size(), 16u);
  EXPECT_EQ(d->find_first_not_of("0123456789abcdef"), std::string::npos) << *d;
}

TEST(IsaDigest, OnlyTheWordsCount) {
  const std::string base = *isaDigest(compute(kListing));
  // The same words with other text, padding, labels, a repeat marker for the second wait,
  // constant data after the code, and another driver's names, IR and buffer bookkeeping.
  PipelineIsa other = compute(
      "BB7:\n"
      "\ts_load_dwordx4 s[4:7], s[0:1], 0 ; c00a0100 00000000\n"
      "BB8:\n"
      "  buffer_load_dword v1, v0, s[4:7], 0 offen offset:0x0 ; e0501000 80010100\n"
      "  s_waitcnt vmcnt(0) ; bf8c0f70\n"
      "(then repeated 1 times)\n"
      "  s_endpgm ; bf810000\n"
      "/* constant data */\n"
      "[000000] 12345678 9abcdef0\n");
  other.executables[0].name = "compute";
  other.executables[0].description = "compute shader, another driver";
  other.executables[0].source = "RADV Mesa 25.0.7 (compute) assembly";
  other.executables[0].acoIr = "completely different IR text";
  other.offsetFixed = false;
  other.caseBuffer.index = 3;
  EXPECT_EQ(*isaDigest(other), base);
}

TEST(IsaDigest, AnotherInstructionIsAnotherDigest) {
  const std::string base = *isaDigest(compute(kListing));
  // OFFSET 4 instead of 0 in the load (the low 12 bits of its first word).
  std::string offset = kListing;
  offset.replace(offset.find("e0501000"), 8, "e0501004");
  EXPECT_NE(*isaDigest(compute(offset)), base);
  // One wait fewer.
  std::string shorter = kListing;
  shorter.erase(shorter.find("    s_waitcnt"), shorter.find('\n', shorter.find("    s_waitcnt")) -
                                                   shorter.find("    s_waitcnt") + 1);
  EXPECT_NE(*isaDigest(compute(shorter)), base);
  // The same words split into instructions differently.
  std::string split = kListing;
  split.replace(split.find("c00a0100 00000000"), 17, "c00a0100\n  x ; 00000000");
  EXPECT_NE(*isaDigest(compute(split)), base);
  // The same code in another stage.
  PipelineIsa vertex = compute(kListing);
  vertex.executables[0].stages = VK_SHADER_STAGE_VERTEX_BIT;
  EXPECT_NE(*isaDigest(vertex), base);
}

TEST(IsaDigest, ExecutablesAreTakenInStageOrder) {
  PipelineIsa a = compute(kListing);
  a.executables[0].stages = VK_SHADER_STAGE_VERTEX_BIT;
  gcnprobe::vk::ExecutableIsa frag = a.executables[0];
  frag.stages = VK_SHADER_STAGE_FRAGMENT_BIT;
  frag.assembly = "    s_endpgm ; bf810000\n";
  a.executables.push_back(frag);
  PipelineIsa b = a;
  std::swap(b.executables[0], b.executables[1]);
  EXPECT_EQ(*isaDigest(a), *isaDigest(b));
  // Without the fragment shader it is another pipeline.
  PipelineIsa one = a;
  one.executables.pop_back();
  EXPECT_NE(*isaDigest(one), *isaDigest(a));
}

TEST(IsaDigest, AListingOfAnotherShapeIsDigestedAsNormalisedText) {
  const std::string llvm = "  v_mov_b32 v0, 0\n\n  s_endpgm\n";
  const auto d = isaDigest(compute(llvm));
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(*isaDigest(compute("v_mov_b32   v0,\t0\n  s_endpgm  \n\n")), *d);
  EXPECT_NE(*isaDigest(compute("  v_mov_b32 v0, 1\n  s_endpgm\n")), *d);
}

// A route that runs nothing real and shows `isa` as its pipeline.
class ShowsIsa : public gcnprobe::routes::Route {
 public:
  explicit ShowsIsa(PipelineIsa isa) : isa_(std::move(isa)) {}
  std::string_view name() const override { return "shows-isa"; }
  bool handles(const gcnprobe::routes::DeviceCase&) const override { return true; }
  std::string unsupportedReason(const gcnprobe::routes::DeviceCase&) const override { return ""; }
  std::string batchKey(const gcnprobe::routes::DeviceCase&) const override { return "k"; }
  std::vector<gcnprobe::routes::DeviceResult> run(
      std::span<const gcnprobe::routes::DeviceCase* const> cases) override {
    std::vector<gcnprobe::routes::DeviceResult> out(cases.size());
    for (std::size_t i = 0; i < cases.size(); ++i) {
      out[i].vdataCount = 1;
      out[i].memory = cases[i]->memory.bytes;
    }
    return out;
  }
  PipelineIsa pipelineIsa(const gcnprobe::routes::DeviceCase&) override { return isa_; }

 private:
  PipelineIsa isa_;
};

gcnprobe::results::CaseResult resultOfRun(const PipelineIsa& isa) {
  const auto cases = gcnprobe::cases::buildCases("texel", "texel.uniform.r8_unorm.load_format_x",
                                                 gcn::representativeChip(gcn::Gen::Gfx8));
  EXPECT_EQ(cases.size(), 1u);
  std::vector<std::unique_ptr<gcnprobe::routes::Route>> routes;
  routes.push_back(std::make_unique<ShowsIsa>(isa));
  gcnprobe::run::RunOptions ro;
  ro.profile = gcnprobe::judge::resolveProfile("gfx8", std::nullopt);
  ro.jobs = 1;
  gcnprobe::results::CaseResult result;
  result.isaDigest = "not reported";
  gcnprobe::run::runCases(cases, routes, ro,
                          [&](const gcnprobe::results::CaseResult& r) { result = r; });
  return result;
}

std::optional<std::string> digestOfRun(const PipelineIsa& isa) {
  return resultOfRun(isa).isaDigest;
}

TEST(IsaDigest, TheRunnerRecordsThePipelinesDigest) {
  const PipelineIsa pipeline = compute(kListing);
  EXPECT_EQ(digestOfRun(pipeline), isaDigest(pipeline));
  EXPECT_EQ(digestOfRun(PipelineIsa{}), std::nullopt);
}

TEST(IsaDigest, TheRunnerRecordsTheEmittedBufferInstructions) {
  // The listing's one buffer instruction, as the driver printed it, with its words; the
  // s_load and s_waitcnt lines are not buffer instructions.
  const gcnprobe::results::CaseResult r = resultOfRun(compute(kListing));
  ASSERT_EQ(r.isaLines.size(), 1u);
  EXPECT_EQ(r.isaLines[0].rfind("Compute Shader: buffer_load_dword v1, v0, s[4:7], 0 offen ; ", 0),
            0u)
      << r.isaLines[0];
  EXPECT_NE(r.isaLines[0].find("e0501000 80010100"), std::string::npos) << r.isaLines[0];
  EXPECT_EQ(r.isaLines[0].find("decodes as"), std::string::npos) << r.isaLines[0];
  EXPECT_TRUE(resultOfRun(PipelineIsa{}).isaLines.empty());
}

TEST(IsaDigest, RecordsCarryTheIsaLinesAndReadThemBack) {
  gcnprobe::results::CaseResult r;
  r.name = "storage.x";
  r.verdict = gcnprobe::results::Verdict::Pass;
  EXPECT_EQ(gcnprobe::results::caseRecord(r, "gfx8", "dev").at("isa_lines"),
            nlohmann::json::array());
  r.isaLines = {"Compute Shader: buffer_load_dword v1, v0, s[4:7], 0 offen ; e0501000 80010100"};
  const nlohmann::json j = gcnprobe::results::caseRecord(r, "gfx8", "dev");
  EXPECT_EQ(gcnprobe::results::caseFromRecord(j, "t").isaLines, r.isaLines);
  nlohmann::json bad = j;
  bad["isa_lines"] = "one line";
  EXPECT_THROW(gcnprobe::results::caseFromRecord(bad, "t"), gcn::Error);
  bad["isa_lines"] = nlohmann::json::array({1});
  EXPECT_THROW(gcnprobe::results::caseFromRecord(bad, "t"), gcn::Error);
  bad.erase("isa_lines");  // a report of an older version
  EXPECT_TRUE(gcnprobe::results::caseFromRecord(bad, "t").isaLines.empty());
}

// What a verified case proves (docs/isa.md "The data path") is part of its record.
TEST(IsaDigest, RecordsCarryTheProofAndReadItBack) {
  gcnprobe::results::CaseResult r;
  r.name = "texel.x";
  r.verdict = gcnprobe::results::Verdict::Pass;
  EXPECT_EQ(gcnprobe::results::caseRecord(r, "gfx8", "dev").at("proof"), nlohmann::json::array());
  r.proof = {
      "instruction: proven: buffer_load_format_x v1, v1, s[8:11], 0 idxen ; e0002000 "
      "80020101 on set 0 binding 0",
      "V#: assumed: the driver's descriptor",
      "data path: results v1 reach Out dwords 0-0 through copies"};
  const nlohmann::json j = gcnprobe::results::caseRecord(r, "gfx8", "dev");
  EXPECT_EQ(gcnprobe::results::caseFromRecord(j, "t").proof, r.proof);
  nlohmann::json bad = j;
  bad["proof"] = "one line";
  EXPECT_THROW(gcnprobe::results::caseFromRecord(bad, "t"), gcn::Error);
  bad["proof"] = nlohmann::json::array({1});
  EXPECT_THROW(gcnprobe::results::caseFromRecord(bad, "t"), gcn::Error);
  bad.erase("proof");  // a record of an older version
  EXPECT_TRUE(gcnprobe::results::caseFromRecord(bad, "t").proof.empty());
}

TEST(IsaDigest, RecordsCarryItAndReadItBack) {
  gcnprobe::results::CaseResult r;
  r.name = "storage.x";
  r.verdict = gcnprobe::results::Verdict::Pass;
  EXPECT_TRUE(gcnprobe::results::caseRecord(r, "gfx8", "dev").at("isa_digest").is_null());
  r.isaDigest = "0123456789abcdef";
  const nlohmann::json j = gcnprobe::results::caseRecord(r, "gfx8", "dev");
  EXPECT_EQ(j.at("isa_digest"), "0123456789abcdef");
  EXPECT_EQ(gcnprobe::results::caseFromRecord(j, "t").isaDigest, r.isaDigest);
  nlohmann::json bad = j;
  bad["isa_digest"] = 7;
  EXPECT_THROW(gcnprobe::results::caseFromRecord(bad, "t"), gcn::Error);
  bad.erase("isa_digest");  // a report of an older version
  EXPECT_EQ(gcnprobe::results::caseFromRecord(bad, "t").isaDigest, std::nullopt);
}

}  // namespace isa_digest_test
