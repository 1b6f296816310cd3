// Format loads at batch speed: many waves of one BUFFER_LOAD_FORMAT_* / TBUFFER_LOAD_FORMAT_*
// instruction on one V#, each lane addressed through the instruction as execute()
// (reference/executor.h) addresses it. The addressing and range check are planAccessInto's
// (reference/address.h), the conversion is FormatLoadTable's (reference/convert_table.h, a
// table of loadComponent for fields up to 16 bits), DST_SEL is applyDstSel's
// (reference/convert.h): no rule is restated here, only the per-lane control flow of a format
// load, run without a register file (the caller gives the VADDR values as plain arrays) and
// without per-lane allocation. execute() stays the oracle: tests/reference/load_batch_test.cpp
// proves the two equal lane by lane over every 8-bit and packed code and every addressing
// mode; bench/executor_bench.cpp measures both.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "reference/executor.h"

namespace gcn {

class FormatLoadTable;

// One lane of a batch: the registers v[vdata .. vdata + registers() - 1] after the load.
struct BatchLane {
  std::array<uint32_t, 4> reg{};  // reg[i] is meaningful when bit i of `claimed` is set
  uint8_t claimed = 0;            // bit i: the reference claims reg[i] (execute(): vdata[i] set)
  bool inRange = false;           // the access passed the range check (and read memory)
};

class FormatLoadBatch {
 public:
  // `scalars` supplies what the whole batch shares: the V# at s[inst.srsrc..+3] and the SGPR
  // or constant SOFFSET names; its VGPRs and EXEC are ignored (every lane of the batch is
  // active). Throws gcn::Error where execute() would (validate(), the V# quad) and for what
  // the batch does not model: an instruction that is not a format load, D16, LDS or TFE.
  FormatLoadBatch(const Chip& chip, const Instruction& inst, const WaveState& scalars,
                  const Policies& policies);
  ~FormatLoadBatch();
  FormatLoadBatch(FormatLoadBatch&&) noexcept;
  FormatLoadBatch& operator=(FormatLoadBatch&&) noexcept;

  // VDATA registers each lane writes (the opcode's component count).
  unsigned registers() const { return registers_; }
  // Why the reference claims no value for any lane ("" when it claims them): the format pair
  // is not defined under the policies, or DATA_FORMAT is the reserved 15.
  const std::string& unclaimedReason() const { return unclaimed_; }

  // Lane i of the batch is lane i % 64 of wave i / 64 (a swizzled V# reads the lane number)
  // with VADDR registers vaddr0[i] and, when the instruction reads two (IDXEN with OFFEN,
  // ADDR64), vaddr1[i]. `out` receives one BatchLane per lane. Throws gcn::Error when the
  // spans' sizes disagree or vaddr1 is missing for a two-register instruction. Thread-safe:
  // a batch may run on several threads at once.
  void run(const MemoryImage& memory, std::span<const uint32_t> vaddr0,
           std::span<const uint32_t> vaddr1, std::span<BatchLane> out) const;

 private:
  Gen gen_;
  Instruction inst_;
  Policies policies_;
  VSharp v_;
  uint32_t soffset_ = 0;
  Dfmt dfmt_ = Dfmt::Invalid;
  Nfmt nfmt_ = Nfmt::Unorm;
  std::array<DstSel, 4> sel_{};
  unsigned registers_ = 0;
  unsigned elemBytes_ = 0;
  unsigned components_ = 0;
  bool zeroResult_ = false;  // an all-zero V# or DATA_FORMAT INVALID: every lane reads 0
  std::string unclaimed_;
  std::array<std::optional<uint32_t>, 4> outOfRange_{};  // what an out-of-range lane returns
  std::unique_ptr<FormatLoadTable> table_;
};

}  // namespace gcn
