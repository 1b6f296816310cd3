#include "reference/vgpr_table.h"

#include <algorithm>
#include <array>

namespace gcn {
namespace {

constexpr VgprOpInfo kVgprTable[] = {
#include "reference/vgpr_table.inc"
};

}  // namespace

std::span<const VgprOpInfo> vgprOpTable() {
  return kVgprTable;
}

const VgprOpInfo* findVgprOp(Gen gen, VgprClass cls, unsigned opcode) {
  // The table is sorted by generation, then class, then opcode (the generator writes it so).
  const auto key = [](const VgprOpInfo& r) {
    return std::array<unsigned, 3>{static_cast<unsigned>(r.gen), static_cast<unsigned>(r.cls),
                                   r.opcode};
  };
  const std::array<unsigned, 3> want{static_cast<unsigned>(gen), static_cast<unsigned>(cls),
                                     opcode};
  const auto* it = std::lower_bound(
      std::begin(kVgprTable), std::end(kVgprTable), want,
      [&](const VgprOpInfo& r, const std::array<unsigned, 3>& w) { return key(r) < w; });
  if (it == std::end(kVgprTable) || key(*it) != want) return nullptr;
  return it;
}

unsigned vop3OpcodeOfVop1(Gen gen, unsigned vop1Opcode) {
  // GCN3 and Vega moved VOP1 to 320; gfx6/7 and RDNA (gfx10, gfx10.3, gfx11) have it at 384.
  return (gen == Gen::Gfx8 || gen == Gen::Gfx9 ? 320u : 384u) + vop1Opcode;
}

unsigned vop3OpcodeOfVop2(unsigned vop2Opcode) {
  return 256u + vop2Opcode;
}

}  // namespace gcn
