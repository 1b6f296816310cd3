// Format loads at sweep speed: one (generation, data format, number format, policies)
// combination converted for many elements at once. Every field of 16 bits or less is looked
// up in a table built by calling loadComponent (reference/convert.h) once per code, so the
// single-element rules stay the only source of truth and the table is a cache of them;
// 32-bit fields call loadComponent directly (the identity for UINT/SINT/FLOAT). The batch
// path never allocates per call. tests/reference/convert_table_test.cpp proves it equal to
// loadElement exhaustively over every 8/16-bit and packed field value, every generation,
// format pair and conversion policy option; bench/convert_table_bench.cpp measures it.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "reference/convert.h"
#include "reference/format.h"
#include "reference/gen.h"
#include "reference/policy.h"
#include "reference/resource.h"

namespace gcn {

// DST_SEL as a map from an element's converted components to the four registers: register k
// is component src[k], or constant[k] where src[k] < 0.
struct RegisterMap {
  std::array<int8_t, 4> src{0, 1, 2, 3};
  std::array<uint32_t, 4> constant{};
  // The map applyDstSel (reference/convert.h) applies for a format of `components`
  // components, derived by calling it, so that the selector rules stay there; nullopt when a
  // selector claims no value (a reserved one, or a component the format lacks).
  static std::optional<RegisterMap> fromDstSel(Gen gen, Nfmt n, unsigned components,
                                               const std::array<DstSel, 4>& sel);
  bool identity() const { return src == std::array<int8_t, 4>{0, 1, 2, 3}; }
  void apply(const uint32_t* comp, uint32_t* reg) const {
    for (unsigned k = 0; k < 4; ++k)
      reg[k] = src[k] >= 0 ? comp[src[k]] : constant[k];
  }
};

class FormatLoadTable {
 public:
  // Throws gcn::Error for INVALID or the reserved data format (no element to convert).
  FormatLoadTable(Gen gen, Dfmt d, Nfmt n, const Policies& p);

  // Whether the pair is Defined under the policies (pairVerdict); when not, convert() writes
  // nothing and reason() says why (loadElement's undefinedReason).
  bool defined() const { return defined_; }
  std::string_view reason() const { return reason_; }
  unsigned components() const { return components_; }
  unsigned elementBytes() const { return bytes_; }

  // Whether the two convert every element alike: the same format, both defined, and every
  // component the same table, or both the identity. (A component converted by calls is
  // compared by the policies it is called with.)
  bool sameConversion(const FormatLoadTable& o) const;

  // `count` elements, element i at bytes[i * stride] (stride >= elementBytes(); bytes must
  // hold them all), converted to register bits: out[i * 4 + c] for c < components(). The
  // other out words are left alone. Throws gcn::Error for a short span or an undefined
  // pair.
  void convert(std::span<const uint8_t> bytes, std::size_t stride, std::size_t count,
               std::span<uint32_t> out) const;

  // convert(), `map` and a comparison fused, with no register array written: the elements e
  // (those `which` lists, ascending, or all `count` when it is empty) whose registers
  // regs[e * 4 .. e * 4 + 3] are not element e converted and mapped are written, ascending, to
  // `differ` (cleared first; it must not alias `which`). Throws as convert() does.
  void differing(std::span<const uint8_t> bytes, std::size_t stride, std::size_t count,
                 const uint32_t* regs, const RegisterMap& map, std::span<const std::size_t> which,
                 std::vector<std::size_t>& differ) const;

 private:
  Gen gen_;
  Dfmt dfmt_;
  Nfmt nfmt_;
  Policies policies_;
  bool defined_ = false;
  std::string_view reason_;
  unsigned components_ = 0;
  unsigned bytes_ = 0;
  // How component c becomes register bits: a table of every code, the code itself (32-bit
  // UINT/SINT/FLOAT), or loadComponent (32-bit normalized/scaled under norm32=raw or formula).
  enum class Kind : uint8_t { Table, Identity, Call };
  template <unsigned Bytes>
  void convertSmall(const uint8_t* e, std::size_t stride, std::size_t count, uint32_t* o) const;
  template <unsigned Bytes>
  void differingSmall(const uint8_t* bytes, std::size_t stride, std::size_t count,
                      const uint32_t* regs, const RegisterMap& map,
                      std::span<const std::size_t> which, std::vector<std::size_t>& differ) const;
  void checkSpans(std::span<const uint8_t> bytes, std::size_t stride, std::size_t count,
                  std::size_t outWords) const;
  std::array<Kind, 4> kind_{};
  std::array<uint8_t, 4> bits_{};
  std::array<uint8_t, 4> offset_{};
  std::array<uint32_t, 4> mask_{};
  // 2^bits entries for fields up to 16 bits, shared by the fields of one width.
  std::array<std::shared_ptr<const std::vector<uint32_t>>, 4> table_;
  std::array<const uint32_t*, 4> lut_{};  // table_[c]->data(), for the inner loop
};

}  // namespace gcn
