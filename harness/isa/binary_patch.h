// The binary route's core: put ANY MUBUF/MTBUF instruction of the chip's generation into a
// compiled compute pipeline by patching the driver's VkPipelineCache data.
//
// A template lane shader (the storage route's widest load or store, the widest SSBO atomic,
// the LDS template, or the texel route's four-component IDXEN load and store) is compiled once
// with its ISA captured: the reference decoder finds its buffer instruction on set 0 binding
// 0 (the case's buffer; harness/isa/check.h). The same pipeline compiled into an empty
// VkPipelineCache gives the cache data; the template instruction's 8 bytes must occur there
// exactly once. They are replaced by the case's encoding (the template's VDATA, VADDR, SRSRC,
// SOFFSET and address form; its own OFFSET), the LDS template's marked slot by the M0 setup,
// the patched data seeds a new cache, and the pipeline is created again from it. It counts as
// built only when
//   - the driver reports an application pipeline-cache hit for it (creation feedback), so it
//     did not recompile, and
//   - the data read back from the new cache holds the case's words exactly once, decoding to
//     the intended instruction, and no copy of the template's words.
// RADV checks neither code nor checksums in cache entries (Mesa's radv_pipeline_cache.c, and
// src/vulkan/runtime/vk_pipeline_cache.c with radv_shader_deserialize in Mesa 25); only the
// header's vendor, device and UUID. docs/binary.md has the details and limits.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "harness/routes/route.h"
#include "harness/vulkan/context.h"
#include "harness/vulkan/pipeline.h"
#include "reference/gen.h"
#include "reference/opcodes.h"

namespace gcnprobe::isa {

// VkPipelineCacheHeaderVersionOne (Vulkan spec, "Pipeline Cache"): 16 + 16 bytes.
struct CacheHeader {
  uint32_t headerSize = 0;
  uint32_t version = 0;
  uint32_t vendorId = 0;
  uint32_t deviceId = 0;
  std::array<uint8_t, 16> uuid{};
};
// Reads and checks the header of cache data from `driver` (for messages): at least 32 bytes,
// headerSize >= 32 and inside the data, version 1. Throws gcn::Error naming the driver, the
// field and its value otherwise.
CacheHeader parseCacheHeader(std::span<const uint8_t> data, const std::string& driver);

// Byte offsets of every occurrence of `words` (little-endian dwords) in `data`, after the
// header, at any byte alignment.
std::vector<std::size_t> findWords(std::span<const uint8_t> data, std::span<const uint32_t> words);

class CachedPipeline;
class SeededPipelineCache;

// A pipeline created from patched cache data, checked: creation feedback says it came from the
// cache, and the cache read back holds `patched` once and `original` nowhere (unless they are the
// same words). `what` and `originalWhat` name the two in messages ("the patched words", "the
// template's"). The read-back data and the offset of `patched` in it, or `why` not.
struct PatchedReadBack {
  std::vector<uint8_t> data;
  std::size_t offset = 0;
  std::string why;
};
PatchedReadBack readPatchedCache(const CachedPipeline& pipeline, const SeededPipelineCache& cache,
                                 std::span<const uint32_t> patched,
                                 std::span<const uint32_t> original, const std::string& driver,
                                 std::string_view what, std::string_view originalWhat);

// Why `patched` (the words that will replace the template's) cannot stand in for `templ` on
// `chip`, or "" when it can: the words must be two dwords (MUBUF/MTBUF are 8 bytes) that decode
// on the chip's generation to exactly `intended`; the intended instruction must use the
// template's SRSRC, SOFFSET, VADDR register and address form (or no VADDR: neither OFFEN nor
// IDXEN), any OFFSET, need no more VDATA registers
// than the template has (TFE adds one), and no ADDR64 or LDS-bit load (it writes LDS, which no
// template reads back). BUFFER_STORE_LDS_DWORD (no VDATA, no VADDR) needs the template's
// SRSRC, SOFFSET and OFFSET only; its template (kLdsTemplateMark) provides LDS and M0.
std::string patchProblem(const gcn::Chip& chip, const gcn::Instruction& templ,
                         const gcn::Instruction& intended, std::span<const uint32_t> patched);

// The LDS template (shaders/binary_template_lds.comp) for BUFFER_STORE_LDS_DWORD: 1 KiB of LDS
// filled from In.data before the instruction, and the XOR with this literal, an 8-byte VOP2
// just before its buffer instruction, that the patch turns into "s_mov_b32 m0, <M0>".
inline constexpr std::string_view kLdsTemplateVariant = "binary_template_lds";
inline constexpr uint32_t kLdsTemplateMark = 0x4d30c0deu;
inline constexpr std::size_t kLdsTemplateBytes = 1024;

// A D16 load that writes half of a register and keeps the other half: packed D16 (gfx810,
// gfx9) with an odd number of halves or a D16_HI form, and every unpacked D16 load (gfx8.0,
// whose upper halves the hardware may keep or clear).
bool writesHalfRegisters(const gcn::Chip& chip, const gcn::OpcodeInfo& op);

// The atomic template (buffer_atomic_cmpswap_x2 with GLC, 8-byte accesses): four VDATA
// registers preset from In.data (the source and compare), of which the first two (the pre-op
// value) go to Out.
inline constexpr std::string_view kAtomicTemplateVariant = "atomic_ssbo_cmpswap_x2";
inline constexpr unsigned kAtomicTemplateReturned = 2;

// The IDXEN templates: the texel route's imageLoad / imageStore of four components on a
// storage texel buffer (buffer_load_format_xyzw / buffer_store_format_xyzw with IDXEN, VADDR
// = In.addr[l], the index, unchanged). Binding 0 is a storage texel buffer; the V# arrives
// through a descriptor buffer (a raw V# case).
inline constexpr std::string_view kTexelLoadTemplateVariant = "texel_load_storage_u4";
inline constexpr std::string_view kTexelStoreTemplateVariant = "texel_store_u";
bool isTexelTemplate(std::string_view variant);

// The template that can host an instruction of this kind on the chip: a lane-shader variant
// name (shaders/variants.cmake) whose set 0 binding 0 instruction is the widest of its class.
// A load that writes half registers of at most kAtomicTemplateReturned registers goes to the
// atomic template, whose registers hold In.data before the instruction, so the kept halves are
// the case's own VDATA. With idxen, loads and stores go to the IDXEN (texel) templates.
std::string templateVariant(const gcn::Chip& chip, const gcn::OpcodeInfo& op, bool idxen = false);

// The data path of a template (docs/isa.md "The data path"): its instruction's results reach Out
// (set 0 binding 2), its VDATA and VADDR come from In (binding 1), through copies only; the SSBO
// templates index whole elements of their access size, `addr / size * size` (binary_route.h asks
// for VADDRs that are multiples of it, so the AND changes none); the LDS template's data comes
// from LDS. `templ`: the template's own instruction.
routes::DataPath templateDataPath(std::string_view variant, const gcn::Instruction& templ);

// The intended instruction with the template's operands: `op` (plus GLC for an atomic, so it
// returns, and the format for an MTBUF opcode: DFMT/NFMT on GCN, their unified FORMAT on RDNA)
// on the template's VDATA, VADDR, SRSRC, SOFFSET, address form and OFFSET. Throws gcn::Error
// for a pair with no RDNA format.
gcn::Instruction onTemplateOperands(gcn::Gen gen, const gcn::Instruction& templ,
                                    const gcn::OpcodeInfo& op, gcn::Dfmt dfmt, gcn::Nfmt nfmt);

struct BinaryBuild {
  bool built = false;
  std::string reason;               // why not, when !built
  gcn::Instruction templ;           // the template's instruction (decoded)
  std::array<uint32_t, 2> words{};  // the patched words
  std::size_t cacheOffset = 0;      // where they sit in the cache data
  std::size_t cacheBytes = 0;       // size of the cache data
  // The M0 setup the LDS template's second patch writes ("s_mov_b32 m0, <M0>"), when it has one.
  std::optional<std::array<uint32_t, 2>> m0Setup;
  std::string proof;  // what was checked, for reports
  // The proven pipeline, when built: the template's lane-shader layout (binding 0 the case's
  // buffer, 1 In, 2 Out; routes::lane::runLaneShader runs it) with the patched code.
  std::shared_ptr<const vk::PipelineObjects> pipeline;
  // The listing of the patched pipeline, when built: the template's captured listing with the
  // patched lines rewritten (their words as read back, their text printed by gcnprobe).
  std::vector<vk::ExecutableIsa> executables;
};

// Builds patched pipelines on one device. Template ISA and cache data are kept per template.
class BinaryBuilder {
 public:
  explicit BinaryBuilder(vk::Context& ctx);
  ~BinaryBuilder();
  BinaryBuilder(const BinaryBuilder&) = delete;
  BinaryBuilder& operator=(const BinaryBuilder&) = delete;

  // Why no binary case can be built on this device ("" when they can).
  std::string deviceProblem() const;
  // The chip it builds for: the device's GCN chip, or the RDNA chip of RADV's null device
  // (`isa`); empty on other devices (deviceProblem says why).
  const std::optional<gcn::Chip>& chip() const { return chip_; }
  // The template instruction for `op` (building the template on first use); throws
  // gcn::Error naming the driver when its listing or cache data cannot be read.
  // With descriptorBuffer, the template as a descriptor-buffer pipeline (set 0 read from a
  // VK_EXT_descriptor_buffer buffer, where a raw V# goes; routes/raw.h).
  gcn::Instruction templateInstruction(const gcn::OpcodeInfo& op, bool idxen = false,
                                       bool descriptorBuffer = false);
  // Patches `intended` into its template and proves the result (see the file comment);
  // `words`, when given, are used instead of gcn::encode(intended) (for tests: a wrong
  // length or another generation's encoding must be refused). A template that sets M0 (the
  // LDS template) gets `m0` in its setup slot, a second patch proven like the first. With
  // descriptorBuffer the template is the descriptor-buffer pipeline (templateInstruction).
  // Never throws for a refusal: the reason is in the result.
  BinaryBuild build(const gcn::Instruction& intended,
                    std::optional<std::vector<uint32_t>> words = std::nullopt, uint32_t m0 = 0,
                    bool descriptorBuffer = false);
  // For tests: the cache data of a template, corrupted by `corrupt` before it seeds the
  // patched cache.
  void setCorruption(std::function<void(std::vector<uint8_t>&)> corrupt);

 private:
  struct Template;
  Template& templateFor(const std::string& variant, bool descriptorBuffer);
  vk::Context& ctx_;
  std::optional<gcn::Chip> chip_;  // the device's GCN chip, or its RDNA chip (null device)
  std::vector<std::unique_ptr<Template>> templates_;
  std::function<void(std::vector<uint8_t>&)> corrupt_;
};

}  // namespace gcnprobe::isa
