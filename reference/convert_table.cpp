#include "reference/convert_table.h"

#include <cstring>
#include <string>

#include "reference/convert.h"
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
  for (unsigned c = 0; c < info.components; ++c)
    offset_[c] = static_cast<uint8_t>(componentOffset(d, c, p));
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
    // Fields of one width convert alike (one number format, one width; the one per-channel
    // rule, alpha2, concerns the only 2-bit field), so they share a table; the exhaustive test
    // holds every channel's entries against loadComponent.
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
  if (gen_ != o.gen_ || dfmt_ != o.dfmt_ || nfmt_ != o.nfmt_ || !defined_ || !o.defined_ ||
      offset_ != o.offset_)  // packed-order moves fields without changing their tables
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

void FormatLoadTable::checkSpans(std::span<const uint8_t> bytes, std::size_t stride,
                                 std::size_t count, std::size_t outWords) const {
  if (!defined_) throw Error("format load table: " + std::string(reason_));
  if (count == 0) return;
  if (stride < bytes_ || bytes.size() < (count - 1) * stride + bytes_ || outWords < count * 4)
    throw Error("format load table: " + std::to_string(count) + " elements of " +
                std::to_string(bytes_) + " bytes at stride " + std::to_string(stride) +
                " need more input or output than given");
}

void FormatLoadTable::convert(std::span<const uint8_t> bytes, std::size_t stride, std::size_t count,
                              std::span<uint32_t> out) const {
  checkSpans(bytes, stride, count, out.size());
  if (count == 0) return;
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

template <unsigned Bytes>
void FormatLoadTable::differingSmall(const uint8_t* bytes, std::size_t stride, std::size_t count,
                                     const uint32_t* regs, const RegisterMap& map,
                                     std::span<const std::size_t> which,
                                     std::vector<std::size_t>& differ) const {
  // Each register as one lookup: its component's table, or, for a constant register, a
  // one-entry table read at code 0. Identity fields (32-bit, read as they are) take the
  // general path.
  std::array<unsigned, 4> shift{};
  std::array<uint32_t, 4> mask{};
  std::array<const uint32_t*, 4> lut{};
  bool lookups = true;
  for (unsigned k = 0; k < 4; ++k) {
    if (map.src[k] < 0) {
      lut[k] = &map.constant[k];
      continue;
    }
    const unsigned c = static_cast<unsigned>(map.src[k]);
    lookups = lookups && kind_[c] == Kind::Table;
    shift[k] = offset_[c];
    mask[k] = mask_[c];
    lut[k] = lut_[c];
  }
  const auto read = [&](std::size_t i) {
    uint64_t element = 0;
    std::memcpy(&element, bytes + i * stride, Bytes);  // little-endian host, as convertSmall
    return element;
  };
  const auto sameByLookups = [&](std::size_t i) {
    const uint64_t e = read(i);
    const uint32_t* r = regs + i * 4;
    uint32_t diff = 0;
    for (unsigned k = 0; k < 4; ++k)
      diff |= lut[k][static_cast<uint32_t>(e >> shift[k]) & mask[k]] ^ r[k];
    return diff == 0;
  };
  const unsigned n = components_;
  const auto sameGeneral = [&](std::size_t i) {
    const uint64_t e = read(i);
    uint32_t comp[4] = {};
    for (unsigned c = 0; c < n; ++c) {
      const uint32_t code = static_cast<uint32_t>(e >> offset_[c]) & mask_[c];
      comp[c] = kind_[c] == Kind::Table ? lut_[c][code] : code;
    }
    const uint32_t* r = regs + i * 4;
    uint32_t diff = 0;
    for (unsigned k = 0; k < 4; ++k)
      diff |= (map.src[k] >= 0 ? comp[map.src[k]] : map.constant[k]) ^ r[k];
    return diff == 0;
  };
  const auto scan = [&](const auto& same) {
    if (which.empty()) {
      for (std::size_t i = 0; i < count; ++i)
        if (!same(i)) differ.push_back(i);
    } else {
      for (std::size_t i : which)
        if (!same(i)) differ.push_back(i);
    }
  };
  if (lookups)
    scan(sameByLookups);
  else
    scan(sameGeneral);
}

void FormatLoadTable::differing(std::span<const uint8_t> bytes, std::size_t stride,
                                std::size_t count, const uint32_t* regs, const RegisterMap& map,
                                std::span<const std::size_t> which,
                                std::vector<std::size_t>& differ) const {
  checkSpans(bytes, stride, count, count * 4);
  differ.clear();
  for (std::size_t i : which)
    if (i >= count)
      throw Error("format load table: element " + std::to_string(i) + " of " +
                  std::to_string(count));
  for (unsigned k = 0; k < 4; ++k)
    if (map.src[k] >= static_cast<int>(components_))
      throw Error("format load table: the register map reads component " +
                  std::to_string(map.src[k]) + " of " + std::to_string(components_));
  if (count == 0) return;
  bool fast = bytes_ <= 8;
  for (unsigned c = 0; c < components_; ++c)
    fast = fast && kind_[c] != Kind::Call;
  const uint8_t* e = bytes.data();
  if (fast) {
    switch (bytes_) {
      case 1:
        return differingSmall<1>(e, stride, count, regs, map, which, differ);
      case 2:
        return differingSmall<2>(e, stride, count, regs, map, which, differ);
      case 4:
        return differingSmall<4>(e, stride, count, regs, map, which, differ);
      case 8:
        return differingSmall<8>(e, stride, count, regs, map, which, differ);
      default:
        break;
    }
  }
  // Wider elements and called conversions: one element through convert() at a time.
  const auto check = [&](std::size_t i) {
    uint32_t comp[4] = {}, reg[4];
    convert(bytes.subspan(i * stride, bytes_), bytes_, 1, comp);
    map.apply(comp, reg);
    if (std::memcmp(reg, regs + i * 4, sizeof reg) != 0) differ.push_back(i);
  };
  if (which.empty()) {
    for (std::size_t i = 0; i < count; ++i)
      check(i);
  } else {
    for (std::size_t i : which)
      check(i);
  }
}

std::optional<RegisterMap> RegisterMap::fromDstSel(Gen gen, Nfmt n, unsigned components,
                                                   const std::array<DstSel, 4>& sel) {
  // Components with values applyDstSel's constants (0 and oneValue) can never take, so that
  // each register's source shows in its result.
  constexpr uint32_t kMarker = 0x7fc0dea0u;
  LoadedElement probe;
  probe.count = static_cast<uint8_t>(components);
  for (unsigned c = 0; c < components && c < 4; ++c)
    probe.reg[c] = kMarker + c;
  const std::array<std::optional<uint32_t>, 4> regs = applyDstSel(gen, n, probe, sel);
  RegisterMap map;
  for (unsigned k = 0; k < 4; ++k) {
    if (!regs[k]) return std::nullopt;
    map.src[k] = -1;
    map.constant[k] = *regs[k];
    for (unsigned c = 0; c < components && c < 4; ++c)
      if (*regs[k] == kMarker + c) {
        map.src[k] = static_cast<int8_t>(c);
        map.constant[k] = 0;
      }
  }
  return map;
}

}  // namespace gcn
