#include "harness/judge/format_view.h"

#include <bit>
#include <cmath>

#include "reference/executor.h"

namespace gcnprobe::judge {

FormatView formatViewOf(const gcn::Chip& chip, const routes::DeviceCase& c) {
  FormatView fv;
  fv.gen = chip.gen;
  fv.policies = gcn::Policies::defaults(chip);
  const bool fromInst =
      c.inst.op != nullptr && c.inst.op->dfmtSource == gcn::FieldSource::Instruction;
  // The stride an access uses (ADD_TID on GFX8/9 MUBUF widens it: reference/resource.h).
  const gcn::VSharp v = gcn::accessVSharp(
      chip.gen, gcn::decodeVSharp(chip.gen, gcn::vsharpWords(c.state, c.inst.srsrc)),
      c.inst.op != nullptr && c.inst.op->encoding == gcn::Encoding::Mtbuf);
  fv.dfmt = fromInst ? c.inst.dfmt : v.dataFormat;
  fv.nfmt = fromInst ? c.inst.nfmt : v.numFormat;
  fv.reg = gcn::nfmtInfo(fv.nfmt, chip.gen).reg;
  fv.dstSel = v.dstSel;
  fv.stride = v.stride != 0 ? v.stride : gcn::dfmtInfo(fv.dfmt).bytes;
  if (fv.stride == 0) fv.stride = 4;
  return fv;
}

uint32_t srgbToLinearBits(uint32_t unormBits) {
  // IEC 61966-2-1 / Khronos Data Format Specification "sRGB EOTF", in double, rounded once.
  const double x = std::bit_cast<float>(unormBits);
  if (!(x > 0.0)) return std::bit_cast<uint32_t>(static_cast<float>(x / 12.92));
  const double y = x <= 0.04045 ? x / 12.92 : std::pow((x + 0.055) / 1.055, 2.4);
  return std::bit_cast<uint32_t>(static_cast<float>(y));
}

}  // namespace gcnprobe::judge
