// The wave executor: runs one MUBUF/MTBUF instruction for 64 lanes under an EXEC mask on a
// byte-addressed memory image and an LDS image, and reports per lane what it read, wrote
// and returned. It is the single source of expected values for the harness and for probes.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "reference/address.h"
#include "reference/gen.h"
#include "reference/opcodes.h"
#include "reference/policy.h"
#include "reference/resource.h"

namespace gcn {

inline constexpr unsigned kWaveSize = 64;

inline constexpr unsigned kVgprCount = 256;
inline constexpr unsigned kSgprCount = 104;

using LaneWords = std::array<uint32_t, kWaveSize>;  // one VGPR, lane 0..63

// The registers one wave runs with. Of the 256 VGPRs (64 KiB) only those that were set are
// kept, in register order: a buffer case sets a handful.
class WaveState {
 public:
  // v[r] of every lane; all zeros when v[r] was never set. Throws gcn::Error for r >= 256.
  const LaneWords& vgpr(unsigned r) const;
  // v[r] to write, created (all zeros) when it is unset. The reference stays valid until
  // another unset register is created.
  LaneWords& vgprMut(unsigned r);
  // Whether v[r] was set (vgprMut) at some point.
  bool hasVgpr(unsigned r) const;

  std::array<uint32_t, kSgprCount> sgpr{};  // the V# sits at sgpr[inst.srsrc .. +3]
  uint32_t m0 = 0;
  uint64_t exec = ~0ull;

 private:
  struct Vgpr {
    unsigned index;
    LaneWords lanes;
  };
  std::vector<Vgpr> vgprs_;  // ascending index
};

// The V# an instruction with SRSRC = srsrc reads, s[srsrc .. srsrc+3], and the write of one
// there. Both throw gcn::Error unless srsrc is a multiple of 4 with s[srsrc+3] inside s0..s103.
std::array<uint32_t, 4> vsharpWords(const WaveState& state, unsigned srsrc);
void setVsharpWords(WaveState& state, unsigned srsrc, const std::array<uint32_t, 4>& words);
// What a lane's address is made of, read from the wave once: the instruction's address flags
// and OFFSET, the SOFFSET value (its 8-bit operand code read from the wave state) and the VADDR
// registers. execute() and computeReach (reference/reach.h) both address through it. Throws
// gcn::Error for a SOFFSET code WaveState does not hold (vcc) and for VADDR registers past
// v255.
struct AddressInputs {
  bool offen = false, idxen = false, addr64 = false;
  uint16_t offset = 0;
  uint32_t soffset = 0;
  std::array<const LaneWords*, 2> vaddr{};  // the VADDR registers the instruction reads
  AddressOperands forLane(unsigned lane) const;
};
AddressInputs addressInputs(const Instruction& inst, const WaveState& state);

// The format a format op converts with (CLRX GcnMemHandling "rules for data conversion", read
// from the opcode table's FieldSource fields): DATA_FORMAT and NUM_FORMAT from the instruction
// or from the V#, DST_SEL from the V# or the identity. execute(), the reach and the format load
// batch all choose it here; on RDNA an MTBUF instruction's unified FORMAT names the pair
// (reference/format.h) and the V#'s comes from accessVSharp. Throws Error for a table row that
// names neither source.
struct ConversionFormat {
  Dfmt dfmt = Dfmt::Invalid;
  Nfmt nfmt = Nfmt::Unorm;
  std::array<DstSel, 4> dstSel{DstSel::X, DstSel::Y, DstSel::Z, DstSel::W};
};
ConversionFormat conversionFormat(Gen gen, const OpcodeInfo& op, const Instruction& inst,
                                  const VSharp& v);

// A further region of memory far from the image (a 64-bit reading of AINDEX * STRIDE lands 4 GiB
// past the V# base): bytes at [base, base + bytes.size()).
struct MemoryRegion {
  uint64_t base = 0;
  std::vector<uint8_t> bytes;
  bool operator==(const MemoryRegion&) const = default;
};

// Memory as the buffer instruction sees it: bytes at [base, base + bytes.size()), and the far
// regions, each disjoint from the image and the others (a probe's `far` lines). An access is
// mapped when one of them holds all of its bytes.
struct MemoryImage {
  uint64_t base = 0;
  std::vector<uint8_t> bytes;
  std::vector<MemoryRegion> far;

  MemoryImage() = default;
  MemoryImage(uint64_t b, std::vector<uint8_t> image, std::vector<MemoryRegion> farRegions = {})
      : base(b), bytes(std::move(image)), far(std::move(farRegions)) {}

  // The first of the bytes [address, address + size) when the image or one far region holds
  // them all; nullptr otherwise.
  const uint8_t* find(uint64_t address, uint64_t size) const;
  uint8_t* find(uint64_t address, uint64_t size);
  // "" when the far regions are disjoint from the image and from each other and none is empty
  // or wraps past 2^64; else why not.
  std::string layoutProblem() const;
};

struct LaneAccess {
  uint64_t address = 0;  // byte address (after alignment rules)
  uint8_t size = 0;      // bytes
  bool inRange = false;  // passed the range check
  bool mapped = false;   // inside the memory image (an in-range access outside it is
                         // reported, never performed)
  bool write = false;
};

// A lane's accesses, in order: up to four pieces (a DWORDX4 checked per dword) held in place,
// more (a composed view's several loads) on the heap.
class LaneAccesses {
 public:
  using value_type = LaneAccess;
  using const_iterator = const LaneAccess*;

  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }
  const LaneAccess* begin() const { return data(); }
  const LaneAccess* end() const { return data() + size_; }
  const LaneAccess& operator[](std::size_t i) const { return data()[i]; }
  void push_back(const LaneAccess& a) {
    if (size_ < kInPlace && spill_.empty()) {
      inPlace_[size_++] = a;
      return;
    }
    if (spill_.empty()) spill_.assign(inPlace_.begin(), inPlace_.begin() + size_);
    spill_.push_back(a);
    ++size_;
  }
  void append(const LaneAccesses& more) {
    for (const LaneAccess& a : more)
      push_back(a);
  }

 private:
  static constexpr std::size_t kInPlace = 4;
  const LaneAccess* data() const { return spill_.empty() ? inPlace_.data() : spill_.data(); }
  std::array<LaneAccess, kInPlace> inPlace_{};
  std::vector<LaneAccess> spill_;  // all of them, once there are more than kInPlace
  std::size_t size_ = 0;
};

struct LaneResult {
  bool active = false;  // EXEC bit
  LaneAccesses accesses;
  uint8_t vdataCount = 0;                          // registers written back (0 for stores)
  std::array<std::optional<uint32_t>, 5> vdata{};  // values written to v[vdata + i];
                                                   // nullopt = the reference claims no value
  std::string note;                                // why a value is undefined, if one is
  // The bytes this lane's write accesses touch are not claimed: an atomic whose memory value
  // the model does not give, or a store the model does not perform because no source defines
  // what it writes. `note` says why.
  bool memoryUnclaimed = false;
};

struct ExecResult {
  std::array<LaneResult, kWaveSize> lanes;
  std::vector<uint8_t> lds;            // after the instruction
  std::optional<WaveState> state;      // registers after it, with ExecOptions::registers
  std::vector<std::string> notes;      // wave-wide remarks (policy choices taken, undefined cases)
  std::optional<MemoryImage> written;  // memory after a store or atomic (a copy it changed)
  const MemoryImage* unchanged = nullptr;  // any other instruction: the image it was given

  // Memory after the instruction: `written`, or the caller's image for an instruction that
  // writes no memory (not copied: it must outlive the result); empty for a default result.
  const MemoryImage& memory() const;
};

struct ExecOptions {
  bool registers = false;  // fill ExecResult::state (a copy of the register file)
};

// Throws gcn::Error for an instruction that is invalid on the chip (see validate()).
ExecResult execute(const Chip& chip, const Instruction& inst, const WaveState& state,
                   const MemoryImage& memory, const std::vector<uint8_t>& lds,
                   const Policies& policies, const ExecOptions& options = {});

}  // namespace gcn
