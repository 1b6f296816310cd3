// The route interface: one way of making a Vulkan driver execute a GCN buffer instruction
// class (texel buffers -> BUFFER_*_FORMAT now; vertex fetch -> TBUFFER_LOAD_FORMAT, storage
// buffers -> BUFFER_LOAD/STORE_<type>, atomics -> BUFFER_ATOMIC_* next). Routes take plain
// case data and return what the device did; they know nothing of expectations or reports
// (so a route never depends on how results are reported; the shape of Amber's Engine
// interface).
#pragma once

#include <volk.h>

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "harness/vulkan/pipeline.h"
#include "reference/executor.h"
#include "reference/opcodes.h"

namespace gcnprobe::routes {

// How the case's buffer reaches the shader.
enum class Binding : uint8_t {
  UniformTexel,     // texelFetch(textureBuffer): BUFFER_LOAD_FORMAT_*
  StorageTexel,     // imageLoad / imageStore(imageBuffer): BUFFER_{LOAD,STORE}_FORMAT_*
  VertexAttribute,  // vertex fetch: TBUFFER_LOAD_FORMAT_*
  StorageBuffer,    // SSBO loads, stores and atomics: BUFFER_<type>, BUFFER_ATOMIC_*
};
// "uniform-texel", "storage-texel", "vertex", "storage-buffer".
std::string_view bindingName(Binding b);

struct DeviceCase;
// How many components the case's read returns: the composed view's (viewComponents), else
// the instruction's; 0 without an instruction.
unsigned componentsRead(const DeviceCase& c);

// The SPIR-V of a shader variant (shaders/variants.cmake); a variant the build did not
// embed is a gcn::Error naming it, which the runner reports as the case's error.
std::span<const uint32_t> shaderVariant(std::string_view variant);
// Whether the build embedded that variant.
bool hasShaderVariant(std::string_view variant);

// What a route needs to realise one wave of one instruction. The lane inputs live where
// the instruction reads them: VADDR in state.vgpr(inst.vaddr...), store data in
// state.vgpr(inst.vdata...), the V# in state.sgpr[inst.srsrc...], EXEC in state.exec.
// `memory` is the whole buffer the descriptor covers (memory.base = the V# base): a
// texel view spans exactly memory.bytes.
struct DeviceCase {
  gcn::Instruction inst;
  gcn::WaveState state;
  gcn::MemoryImage memory;
  Binding binding = Binding::UniformTexel;
  VkFormat format = VK_FORMAT_UNDEFINED;  // view / attribute format; UNDEFINED when untyped
  // Loads through a view whose read is composed of several GCN loads (harness/judge/case.h
  // ViewCompose): how many view components the shader reads; 0 = the instruction's count.
  uint8_t viewComponents = 0;
  // The V# in state.sgpr[inst.srsrc..] reaches the device word for word (BASE moved to a
  // harness buffer) through a descriptor buffer (raw.h), not a descriptor the driver builds;
  // the raw route claims such a case, or the binary route with binaryPatch. `binding` then
  // names the shader construct (texel view or SSBO) whose instruction form the case has.
  bool rawVsharp = false;
  // The instruction reaches the device by patching its encoding into a compiled template
  // pipeline (the binary route, harness/isa/binary_route.h), not through a Vulkan construct;
  // only the binary route claims such a case. `binding` is the template's buffer: StorageBuffer
  // for the OFFEN (SSBO) templates, StorageTexel for the IDXEN (texel) ones.
  bool binaryPatch = false;
  // The instruction runs in gcnprobe's own program (harness/control/): every instruction of
  // the shader is gcnprobe's, SOFFSET and EXEC set as the case says; only the own-program route
  // claims such a case. `binding` is StorageBuffer (the program's template is an SSBO shader).
  bool ownProgram = false;
  // The LDS image before the instruction (byte 0 = LDS address 0), for the forms that read or
  // write LDS (BUFFER_STORE_LDS_DWORD, the LDS bit); M0 is state.m0. Empty otherwise. Only the
  // binary route's LDS template realises it (at most isa::kLdsTemplateBytes).
  std::vector<uint8_t> lds;
};

// "" when the case's memory is one image; else why a route that binds one buffer (the texel,
// storage, atomic and vertex routes) cannot put its far regions on the device.
std::string farMemoryProblem(const DeviceCase& c, std::string_view route);

// What the device did for one case.
struct DeviceResult {
  std::string unsupported;  // non-empty: the route could not realise the case (the reason)
  // Registers the instruction returned, per lane (loads/atomics with return); only lanes
  // active in state.exec are meaningful.
  std::array<std::array<uint32_t, 5>, gcn::kWaveSize> vdata{};
  uint8_t vdataCount = 0;
  std::vector<uint8_t> memory;             // the buffer's bytes after the dispatch
  std::vector<int64_t> changedGuardBytes;  // guard bytes around the buffer that changed
  // The far regions (gcn::MemoryImage::far) the route put on the device, after the dispatch
  // (base = the region's case address); the raw V# placement only.
  std::vector<gcn::MemoryRegion> far;
};

// A buffer's descriptor as a shader sees it: binding `index` of descriptor set `set`, or
// vertex buffer binding `index` (harness/isa/descriptor_trace.h traces instructions to it).
struct BufferSlot {
  enum class Kind : uint8_t { DescriptorSet, VertexBuffer };
  Kind kind = Kind::DescriptorSet;
  uint32_t set = 0;
  uint32_t index = 0;
  bool operator==(const BufferSlot&) const = default;
};

// How the route's shader moves a case's values (the data-path proof, harness/isa/data_path.h):
// the buffer its results go out through, the buffer its lane inputs come from, and how the
// case instruction's VADDR is formed from them.
struct DataPath {
  enum class Address : uint8_t {
    InputWords,  // every VADDR register is an In word, unchanged (texel index, raw offsets)
    // an In word, or an In word ANDed with ~(alignBytes - 1) (`addr / ESIZE * ESIZE` in the
    // storage and atomic shaders; the route's offsets are multiples of ESIZE, so equal)
    AlignedInputWords,
    VertexIndex,  // the vertex index: the stage's vertex id VGPR plus the base vertex SGPR (0)
  };
  std::optional<BufferSlot> out;  // empty: the route names none, and nothing can be proven
  std::optional<BufferSlot> in;
  Address address = Address::InputWords;
  unsigned alignBytes = 1;
  unsigned vertexIdVgpr = 0;  // VertexIndex: the VGPR holding the vertex id at entry
  // RADV compiled the vertex shader as a legacy VS, not as NGG (on RDNA only navi14: RADV's
  // use_ngg excludes CHIP_NAVI14): GCN's argument layout (isa/descriptor_trace.h).
  bool legacyVertexShader = false;
  // The case's instruction takes its data from LDS, not from VDATA (the binary route's LDS
  // template hosting buffer_store_lds_dword): the template instruction's VDATA is not the
  // case's, and the LDS fill is recorded as assumed.
  bool dataFromLds = false;
  // The shader also stores to the case's buffer behind a branch on a push constant the route
  // keeps 0 (the raw route's SOFFSET form, harness/routes/raw.h): the proof cannot see that
  // value, so such stores are recorded as assumed not to run instead of breaking it.
  bool guardedCaseStores = false;
  // The route reads back only the registers the instruction returns, per lane (the binary
  // route's templates, which store all their VDATA registers after a narrower patched load):
  // a store of a dword of the lane's own slot past those is never compared, so the proof lets
  // it be anything.
  bool unreadSlotsPastResults = false;
  // Where each lane's words are, for routes whose shader is the lane shaders' (the std430
  // structs of shaders/*.comp: In { uint idx_or_addr[64]; uint enabled[64]; uint data[256]; },
  // Out { uint v[256]; }): lane l reads its address word at In byte inAddressWord + 4l, its data
  // word k at inData + laneBytes*l + 4k, and writes result k to Out byte laneBytes*l + 4k. The
  // lane is gl_LocalInvocationID.x of a 64x1x1 workgroup, which RADV passes in v0 at entry
  // (radv_shader_args.c: the local invocation ids are a compute shader's only VGPR arguments,
  // v0..v2 before GFX11 and packed 10 bits each in v0 from GFX11 on, where y = z = 0 leaves
  // v0 = x). Empty: the route's addresses are not per lane (the vertex shader loops over In).
  struct Lanes {
    unsigned laneIdVgpr = 0;
    unsigned count = 64;
    uint32_t inAddressWord = 0;
    uint32_t inEnableWord = 256;  // enabled[l]: + 4l; the lane runs the case when it is not 0
    uint32_t inData = 512;
    uint32_t laneBytes = 16;
  };
  std::optional<Lanes> lanes;
};

// The data path of the lane shaders (texel_*.comp, storage_access.comp, atomic_*.comp): set 0
// binding 1 is In (idx/addr, enabled, data), binding 2 is Out; a texel access indexes with an
// In word, an SSBO access with `addr / ESIZE * ESIZE` (ESIZE: the element's bytes, 4 at most
// for loads and stores, the atomic's width for atomics).
DataPath laneShaderDataPath(const DeviceCase& c);
// The V# source of the driver-built lane-shader routes (texel, storage, atomic).
inline constexpr const char* kDriverVSharpSource =
    "assumed: the driver's descriptor, built from the format table's fields (`gcnprobe formats "
    "--self-check` compares the two on RADV)";

// What the ISA check (harness/isa/check.h) needs of the pipeline that realises a case.
struct PipelineIsa {
  std::vector<vk::ExecutableIsa> executables;  // empty: the device cannot capture ISA
  // The route puts inst.offset into the instruction's OFFSET field (so the check compares
  // it); false when the shader's addressing may fold offsets elsewhere.
  bool offsetFixed = true;
  // Where the case's buffer is: the check requires the intended instruction on it, not on
  // the route's own input/output buffers.
  BufferSlot caseBuffer;
  DataPath dataPath;
  // Where the case's V# comes from and what checks it, for the record of what a verified case
  // proves ("written by gcnprobe", "the driver's, checked by formats --self-check", "assumed").
  std::string vsharpSource;
  // The value the route puts in an SGPR or M0 SOFFSET (the own-program route): the check
  // requires the instruction's SOFFSET register to hold it on every path. Empty: the route
  // leaves SOFFSET to the driver (an inline constant, compared as a field).
  std::optional<uint32_t> soffsetValue;
};

// The PipelineIsa of a case on the route named `route` ("texel", "storage", "atomic", "raw",
// "vertex"), without its executables: the case's buffer, the data path and the V# source, from
// the case alone. `chip`: the chip the pipeline is built for (RADV compiles navi14's vertex
// shaders as legacy VS; "" for any other). The routes' pipelineIsa return this with the captured
// executables; `gcnprobe isa --prove` rebuilds a saved listing's check from it. Throws gcn::Error
// for another route name.
PipelineIsa routePipelineShape(std::string_view route, const DeviceCase& c,
                               std::string_view chip = "");

class Route {
 public:
  virtual ~Route() = default;
  virtual std::string_view name() const = 0;
  // Whether this route is the one for the case's binding.
  virtual bool handles(const DeviceCase& c) const = 0;
  // "" when the device can run the case; else why not (format features, device features,
  // an instruction the route cannot express). Queried before every case.
  virtual std::string unsupportedReason(const DeviceCase& c) const = 0;
  // Cases with the same key share one pipeline and run in one submission.
  virtual std::string batchKey(const DeviceCase& c) const = 0;
  // Runs cases that share a batch key; one result per case, in order. Throws gcn::Error
  // when the batch as a whole cannot run (the runner records the error for these cases
  // only and goes on with other batches).
  virtual std::vector<DeviceResult> run(std::span<const DeviceCase* const> cases) = 0;
  // Builds (never dispatches) the pipeline that runs the case and returns its ISA where the
  // device has VK_KHR_pipeline_executable_properties. Throws gcn::Error when the pipeline
  // cannot be built. The default (no executables) skips the ISA check for the route.
  virtual PipelineIsa pipelineIsa(const DeviceCase& /*c*/) { return {}; }
  // "" when the case's pipeline may be built on this device (even if the case cannot run);
  // else why building it would be invalid usage (a vertex input format without
  // VK_FORMAT_FEATURE_VERTEX_BUFFER_BIT: RADV 22.3 dies of SIGFPE on R10X6 vertex input).
  // `gcnprobe isa` reports such a case as unsupported instead of building it.
  virtual std::string unbuildableReason(const DeviceCase& /*c*/) const { return ""; }
  // Frees the pipelines built so far (a driver keeps the compiled code of each: on lavapipe
  // most of a run's memory). The runner calls it after each batch is checked; a later batch
  // or pipelineIsa() builds again what it needs.
  virtual void releasePipelines() {}
};

}  // namespace gcnprobe::routes
