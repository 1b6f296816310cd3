#include "reference/scalar_table.h"

#include <algorithm>
#include <array>

namespace gcn {
namespace {

constexpr ScalarOpInfo kTable[] = {
#include "reference/scalar_table.inc"
};

using Key = std::array<unsigned, 3>;

Key keyOf(const ScalarOpInfo& r) {
  return {static_cast<unsigned>(r.gen), static_cast<unsigned>(r.cls), r.opcode};
}

}  // namespace

std::span<const ScalarOpInfo> scalarOpTable() {
  return kTable;
}

const ScalarOpInfo* findScalarOp(Gen gen, ScalarClass cls, unsigned opcode) {
  // The table is sorted by generation, then class, then opcode (the generator writes it so).
  const Key want{static_cast<unsigned>(gen), static_cast<unsigned>(cls), opcode};
  const auto* it =
      std::lower_bound(std::begin(kTable), std::end(kTable), want,
                       [](const ScalarOpInfo& r, const Key& w) { return keyOf(r) < w; });
  if (it == std::end(kTable) || keyOf(*it) != want) return nullptr;
  return it;
}

std::optional<ScalarBehaviour> scalarBehaviour(Gen gen, ScalarClass cls, unsigned opcode) {
  const ScalarOpInfo* info = findScalarOp(gen, cls, opcode);
  return info != nullptr ? std::optional(info->behaviour) : std::nullopt;
}

const ScalarOpInfo* findScalarOpByName(Gen gen, ScalarClass cls, std::string_view mnemonic) {
  // The rows of (gen, cls) are contiguous, a few dozen of them, searched in turn.
  const Key first{static_cast<unsigned>(gen), static_cast<unsigned>(cls), 0};
  const auto* it =
      std::lower_bound(std::begin(kTable), std::end(kTable), first,
                       [](const ScalarOpInfo& r, const Key& w) { return keyOf(r) < w; });
  for (; it != std::end(kTable) && it->gen == gen && it->cls == cls; ++it)
    if (it->mnemonic == mnemonic) return it;
  return nullptr;
}

}  // namespace gcn
