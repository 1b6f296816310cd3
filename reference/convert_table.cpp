#include "reference/convert_table.h"

#include <cstring>
#include <string>

#include "reference/error.h"

namespace gcn {
namespace {

constexpr unsigned kMaxTableBits = 16;

}  // namespace

FormatLoadTable::FormatLoadTable(Gen gen, Dfmt d, Nfmt n, const Policies& p)
    : gen_(gen), dfmt_(d), nfmt_(n), policies_(p) {
  const DfmtInfo& info = dfmtInfo(d);
  if (info.bytes == 0 || info.components == 0)
    throw Error("data format " + std::string(info.name) + " has no element to convert");
  components_ = info.components;
  bytes_ = info.bytes;
  bits_ = info.bits;
  offset_ = info.offset;
  const PairVerdict v = pairVerdict(gen, d, n, Direction::Load, p);
  defined_ = v.status == PairStatus::Defined;
  reason_ = v.reason;
  if (!defined_) return;
  for (unsigned c = 0; c < components_; ++c) {
    mask_[c] = bits_[c] >= 32 ? ~0u : (1u << bits_[c]) - 1;
    if (bits_[c] > kMaxTableBits) {
      // 32-bit fields: UINT, SINT and FLOAT load the code as it is (convert.h); the test
      // holds this against loadComponent like every table entry.
      kind_[c] =
          n == Nfmt::Uint || n == Nfmt::Sint || n == Nfmt::Float ? Kind::Identity : Kind::Call;
      continue;
    }
    kind_[c] = Kind::Table;
    // Fields of one width convert alike (one number format, one width: convert.h has no
    // per-channel rule), so they share a table; the exhaustive test holds every channel's
    // entries against loadComponent.
    unsigned same = 0;
    while (same < c && !(kind_[same] == Kind::Table && bits_[same] == bits_[c]))
      ++same;
    if (same < c) {
      table_[c] = table_[same];
      lut_[c] = table_[c]->data();
      continue;
    }
    auto t = std::make_shared<std::vector<uint32_t>>(std::size_t{1} << bits_[c]);
    for (uint32_t code = 0; code < t->size(); ++code)
      (*t)[code] = *loadComponent(gen, d, n, c, code, p);  // Defined: every code has a value
    table_[c] = std::move(t);
    lut_[c] = table_[c]->data();
  }
}

bool FormatLoadTable::sameConversion(const FormatLoadTable& o) const {
  if (gen_ != o.gen_ || dfmt_ != o.dfmt_ || nfmt_ != o.nfmt_ || !defined_ || !o.defined_)
    return false;
  for (unsigned c = 0; c < components_; ++c) {
    if (kind_[c] != o.kind_[c]) return false;
    if (kind_[c] == Kind::Table && *table_[c] != *o.table_[c]) return false;
    if (kind_[c] == Kind::Call && !(policies_ == o.policies_)) return false;
  }
  return true;
}

// Elements of 1, 2, 4 or 8 bytes: one little-endian read per element, every field a shift
// and a mask of it.
template <unsigned Bytes>
void FormatLoadTable::convertSmall(const uint8_t* e, std::size_t stride, std::size_t count,
                                   uint32_t* o) const {
  const unsigned n = components_;
  for (std::size_t i = 0; i < count; ++i, e += stride, o += 4) {
    uint64_t element = 0;
    std::memcpy(&element, e, Bytes);  // little-endian host (x86-64, AArch64)
    for (unsigned c = 0; c < n; ++c) {
      const uint32_t code = static_cast<uint32_t>(element >> offset_[c]) & mask_[c];
      switch (kind_[c]) {
        case Kind::Table:
          o[c] = lut_[c][code];
          break;
        case Kind::Identity:
          o[c] = code;
          break;
        case Kind::Call:
          o[c] = *loadComponent(gen_, dfmt_, nfmt_, c, code, policies_);
          break;
      }
    }
  }
}

void FormatLoadTable::convert(std::span<const uint8_t> bytes, std::size_t stride, std::size_t count,
                              std::span<uint32_t> out) const {
  if (!defined_) throw Error("format load table: " + std::string(reason_));
  if (count == 0) return;
  if (stride < bytes_ || bytes.size() < (count - 1) * stride + bytes_ || out.size() < count * 4)
    throw Error("format load table: " + std::to_string(count) + " elements of " +
                std::to_string(bytes_) + " bytes at stride " + std::to_string(stride) +
                " need more input or output than given");
  const uint8_t* e = bytes.data();
  uint32_t* o = out.data();
  switch (bytes_) {
    case 1:
      return convertSmall<1>(e, stride, count, o);
    case 2:
      return convertSmall<2>(e, stride, count, o);
    case 4:
      return convertSmall<4>(e, stride, count, o);
    case 8:
      return convertSmall<8>(e, stride, count, o);
    default:
      break;
  }
  // 12 and 16 bytes: 32-bit fields at dword offsets.
  for (std::size_t i = 0; i < count; ++i, e += stride, o += 4) {
    for (unsigned c = 0; c < components_; ++c) {
      uint32_t code = 0;
      std::memcpy(&code, e + offset_[c] / 8, 4);
      o[c] = kind_[c] == Kind::Identity ? code
                                        : *loadComponent(gen_, dfmt_, nfmt_, c, code, policies_);
    }
  }
}

}  // namespace gcn
