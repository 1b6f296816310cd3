// Format conversion between memory and registers for every (data format, number format)
// pair, both directions, plus D16 and DST_SEL. The only place that knows how a format
// converts: the executor, the harness and the tests all call this.
// Sources: CLRX GcnMemHandling (number formats, rounding), AMD RDNA3 ISA (D16), docs/gcn-facts.md
// ("Conversions"). Disputed points are read from gcn::Policies (norm, int-store).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "reference/format.h"
#include "reference/gen.h"
#include "reference/policy.h"
#include "reference/resource.h"

namespace gcn {

// Components of one element in format order (X..W), before DST_SEL.
struct LoadedElement {
  uint8_t count = 0;                             // components of the data format
  std::array<std::optional<uint32_t>, 4> reg{};  // 32-bit register bits; nullopt = undefined
  std::string_view undefinedReason;              // set when any component is undefined
};

// pairStatus (reference/format.h) with the policy points that can define a pair no document
// defines: under norm32=raw or norm32=formula a load of a 32-bit UNORM/SNORM/USCALED/SSCALED
// component is Defined. Every conversion below and the executor decide through this.
PairVerdict pairVerdict(Gen gen, Dfmt d, Nfmt n, Direction dir, const Policies& p);

// One component: `code` is the component's raw field (already extracted, `bits` wide).
// nullopt when pairVerdict(gen, d, n, Load, p) is not Defined.
std::optional<uint32_t> loadComponent(Gen gen, Dfmt d, Nfmt n, unsigned comp, uint32_t code,
                                      const Policies& p);
// A whole element: `bytes` holds dfmtInfo(d).bytes bytes, little-endian.
LoadedElement loadElement(Gen gen, Dfmt d, Nfmt n, std::span<const uint8_t> bytes,
                          const Policies& p);

// Register bits of the constant 1 for a number format: 1.0f, or integer 1 for UINT/SINT.
uint32_t oneValue(Gen gen, Nfmt n);

// DST_SEL applied to a loaded element: result[i] = the element's component named by sel[i],
// 0 for SEL_0, oneValue() for SEL_1. A selector naming a component the format lacks, or a
// reserved selector (2, 3), gives nullopt (no document says what it returns).
std::array<std::optional<uint32_t>, 4> applyDstSel(Gen gen, Nfmt n, const LoadedElement& e,
                                                   const std::array<DstSel, 4>& sel);

// Store: one register value -> the component's field (`bits` wide), rounding to nearest
// even and clamping per CLRX GcnMemHandling; nullopt when pairStatus(gen, d, n, Store) is not
// Defined.
std::optional<uint32_t> storeComponent(Gen gen, Dfmt d, Nfmt n, unsigned comp, uint32_t reg,
                                       const Policies& p);

struct StoredElement {
  bool defined = false;
  std::string_view reason;          // why undefined
  uint8_t size = 0;                 // dfmtInfo(d).bytes
  std::array<uint8_t, 16> bytes{};  // little-endian memory image of the element
};
// `regs` holds exactly dfmtInfo(d).components register values (X..W).
StoredElement storeElement(Gen gen, Dfmt d, Nfmt n, std::span<const uint32_t> regs,
                           const Policies& p);

// D16 (GFX8+, AMD RDNA3 ISA): loads convert memory directly to 16 bits (float32 -> float16
// truncates, every other conversion rounds to nearest even); stores convert 16-bit register
// halves to memory. nullopt where undefined (including gfx6/gfx7, which have no D16).
std::optional<uint16_t> loadComponentD16(Gen gen, Dfmt d, Nfmt n, unsigned comp, uint32_t code,
                                         const Policies& p);
std::optional<uint32_t> storeComponentD16(Gen gen, Dfmt d, Nfmt n, unsigned comp, uint16_t reg,
                                          const Policies& p);
// 16-bit constant 1: half 1.0 (0x3c00), or integer 1 for UINT/SINT.
uint16_t oneValueD16(Nfmt n);

// Helpers shared with the harness (e.g. pattern generation and value printing).
// Component field -> raw code extraction and insertion for an element's bytes.
// The field offsets are DfmtInfo::offset (CLRX's order); with Policies, packed-order=reversed
// mirrors 11_11_10 and 10_10_10_2 within their dword (componentOffset).
uint32_t extractComponent(Dfmt d, unsigned comp, std::span<const uint8_t> bytes);
void insertComponent(Dfmt d, unsigned comp, uint32_t code, std::span<uint8_t> bytes);
unsigned componentOffset(Dfmt d, unsigned comp, const Policies& p);
uint32_t extractComponent(Dfmt d, unsigned comp, std::span<const uint8_t> bytes, const Policies& p);
void insertComponent(Dfmt d, unsigned comp, uint32_t code, std::span<uint8_t> bytes,
                     const Policies& p);
// Human-readable value of register bits: a float for Float register types, else an
// integer ("0.5", "-1", "nan(0x7fc00000)", "4294967295").
std::string registerValueText(RegType t, uint32_t bits);

}  // namespace gcn
