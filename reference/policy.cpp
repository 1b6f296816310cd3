#include "reference/policy.h"

#include "reference/error.h"

namespace gcn {
namespace {

// Defaults: the CLRX rule unless a source specific to that generation says
// otherwise (docs/gcn-facts.md names the GFX9 emulator for gfx9-only points). The RDNA
// columns (gfx10, gfx10.3, gfx11) keep gfx9's choice except where an RDNA source decides
// (docs/rdna.md "Range checking"): straddle follows Mesa's OOB_SELECT record (GFX10
// "offset >= NUM_RECORDS", GFX11 "offset+payload > NUM_RECORDS"; ac_set_buf_desc_word3 in
// src/amd/common/ac_descriptors.c) and oob-one the AMD RDNA3 ISA ("except components with
// DST_SEL = SEL_1, which return 1"). On RDNA the range check follows the V#'s OOB_SELECT, so
// soffset, stride-noidx, offset-vs-stride and tid-noidx are not consulted there.
constexpr PolicyPoint kPoints[] = {
    {PolicyId::RawStraddle,
     "straddle",
     "raw buffer access straddling NUM_RECORDS: is only its start checked?",
     {{{"start", "CLRX GcnMemHandling: BUFOFFSET >= NUMRECORDS - SGPR_OFFSET, start offset only"},
       {"whole",
        "AMD's rocjitsu CDNA emulator (ROCm/rocm-systems emulation/rocjitsu addr_calc_buffer.h, "
        "said to follow gfx950 hardware) and AMD RDNA3 ISA: the whole access must end inside; "
        "DWORDX2..4 per dword, format ops and atomics all-or-nothing"}}},
     {0, 0, 0, 1, 0, 0, 1},
     true},
    {PolicyId::SoffsetOverflow,
     "soffset",
     "raw range check and SOFFSET: does NUM_RECORDS - SOFFSET wrap when SOFFSET > NUM_RECORDS, "
     "or does SOFFSET take no part in the check?",
     {{{"wraps",
        "LLVM AMDGPU docs: GFX6/7 clamping bug when SOFFSET exceeds the buffer size "
        "(unsigned subtraction wraps, everything passes)"},
       {"oob", "CLRX GcnMemHandling read as signed: every access is out of range"},
       {"excluded",
        "LLVM IntrinsicsAMDGPU.td (raw and struct buffer intrinsics): soffset is \"excluded from "
        "bounds checking and swizzling\"; Triton PR #10690 (MI300X): the check applies to voffset "
        "before soffset is added. The check compares the offset without SOFFSET with "
        "NUM_RECORDS"}}},
     {0, 0, 1, 1, 1, 1, 1},
     true},
    {PolicyId::StrideWithoutIdxen,
     "stride-noidx",
     "STRIDE != 0 without IDXEN: index check or byte check?",
     {{{"index", "CLRX GcnMemHandling: STRIDE != 0 selects the index rule"},
       {"byte",
        "AMD's rocjitsu CDNA emulator (ROCm/rocm-systems PR #10928): IDXEN selects the rule, not "
        "STRIDE; Mesa ac_shader_abi.h: GFX9 ignores the stride without IDXEN"}}},
     {0, 0, 0, 1, 1, 1, 1},
     true},
    {PolicyId::IdxenOffsetVsStride,
     "offset-vs-stride",
     "IDXEN with OFFSET >= STRIDE: out of range?",
     {{{"oob", "CLRX GcnMemHandling: OFFSET >= STRIDE is out of range"},
       {"unchecked", "AMD's rocjitsu CDNA emulator (addr_calc_buffer.h): no offset test"}}},
     {0, 0, 0, 1, 1, 1, 1},
     true},
    {PolicyId::TidWithoutIdxen,
     "tid-noidx",
     "ADD_TID_ENABLE without IDXEN: is the index checked?",
     {{{"index", "CLRX GcnMemHandling: TID_ENABLE applies the index check"},
       {"unchecked", "GFX9 (scratch): not checked at all"}}},
     {0, 0, 0, 1, 1, 1, 1},
     true},
    {PolicyId::IndexProduct,
     "index-product",
     "AINDEX * STRIDE: truncated to 32 bits or a 64-bit product?",
     {{{"trunc32", "CLRX GcnMemHandling: (UINT32)(AINDEX*STRIDE)"},
       {"wide64",
        "AMD's rocjitsu CDNA emulator (buffer_total_offset) and gem5's Vega model (calcAddr): "
        "64-bit product"}}},
     {0, 0, 0, 1, 1, 1, 1},
     true},
    {PolicyId::SwizzleSoffset,
     "swizzle-soffset",
     "SOFFSET under swizzle: added to the base or swizzled with the offset?",
     {{{"base", "CLRX GcnMemHandling and AMD RDNA3 ISA: sgpr_offset is part of the base"},
       {"swizzled", "one emulator folds SOFFSET into the swizzled offset"}}},
     {0, 0, 0, 0, 0, 0, 0},
     true},
    {PolicyId::SwizzleMultiDword,
     "swizzle-multidword",
     "multi-dword access under swizzle: contiguous from the start address, or per dword?",
     {{{"contiguous", "CLRX GcnMemHandling: the formula gives the start address; dwords follow"},
       {"perdword",
        "each dword swizzled on its own: dwords of a lane may sit INDEX_STRIDE "
        "elements apart"}}},
     {0, 0, 0, 0, 0, 0, 0},
     true},
    {PolicyId::TidWithIdxen,
     "tid-idx",
     "ADD_TID_ENABLE with IDXEN (no swizzle): is the lane id added to the index?",
     {{{"added", "CLRX GcnMemHandling: AINDEX = VGPR_INDEX + LANEID"},
       {"notadded",
        "AMD's rocjitsu CDNA emulator (addr_calc_buffer.h: \"gfx950 drops it for a linear buffer "
        "with IDXEN\"): lane not added"}}},
     {0, 0, 0, 0, 0, 0, 0},
     true},
    {PolicyId::OobDstSelOne,
     "oob-one",
     "out-of-range load of a component whose DST_SEL is 1: 0 or 1?",
     {{{"zero", "CLRX GcnMemHandling: out-of-range reads are zero"},
       {"one", "AMD RDNA3 ISA: components with DST_SEL = SEL_1 return 1"}}},
     {0, 0, 0, 0, 1, 1, 1},
     false},
    {PolicyId::UnalignedDword,
     "unaligned",
     "dword-or-wider access at an unaligned address",
     {{{"ignore-low",
        "CLRX GcnMemHandling / AMD RDNA3 ISA DWORD alignment mode: low 2 bits ignored"},
       {"unaligned",
        "SH_MEM_CONFIG.alignment_mode = UNALIGNED, which kernel drivers set on GFX7+: Mesa "
        "src/amd/common/ac_gpu_info.c (has_unaligned_shader_loads = chip_class != GFX6), "
        "radeonsi si_get_param (\"SI doesn't support unaligned loads\"), LLVM AMDGPU "
        "FeatureUnalignedBufferAccess (from Sea Islands)"}}},
     {0, 1, 1, 1, 1, 1, 1},
     true},
    {PolicyId::NormToFloat,
     "norm",
     "UNORM/SNORM -> float: correctly rounded c/(2^n-1), or c * float(1/(2^n-1))?",
     {{{"exact", "correctly rounded quotient (the Vulkan spec's formula evaluated exactly)"},
       {"mulrcp", "multiply by the float reciprocal, as lavapipe does (docs/platform.md)"}}},
     {0, 0, 0, 0, 0, 0, 0},
     false},
    {PolicyId::IntStoreOverflow,
     "int-store",
     "UINT/SINT store of a register value that does not fit the component",
     {{{"clamp", "saturate to the component's range (CLRX GcnMemHandling: writes clamp)"},
       {"truncate", "keep the low bits"}}},
     {0, 0, 0, 0, 0, 0, 0},
     false},
    {PolicyId::StoreDstSel,
     "store-dst-sel",
     "BUFFER_STORE_FORMAT with a non-identity DST_SEL (BGRA formats): does the store apply it, "
     "and in which direction?",
     {{{"ignore", "components are stored in register order, DST_SEL unused"},
       {"inverse",
        "memory component DST_SEL[i] receives register component i (the inverse of the load "
        "swizzle): CLRX GcnInstrsMubuf (BUFFER_STORE_FORMAT_*: DST_SEL from the resource), "
        "shadPS4 StoreBufferFormat (ApplySwizzle with swizzle.Inverse()); what Vulkan "
        "requires of RADV's ZYXW V# for B8G8R8A8 storage texel buffers"},
       {"forward",
        "memory component i receives register component DST_SEL[i] (the load swizzle "
        "applied to the registers): CLRX's table names DST_SEL without a direction"}}},
     {1, 1, 1, 1, 1, 1, 1},
     false},
    {PolicyId::Norm32,
     "norm32",
     "UNORM/SNORM/USCALED/SSCALED load of a 32-bit component: the raw bits, the formula at 32 "
     "bits, or undefined?",
     {{{"raw",
        "AMD Southern Islands ISA on MTBUF, quoted by Mesa radeonsi si_translate_buffer_dataformat "
        "and RADV radv_translate_buffer_dataformat: \"Memory reads of data in memory that is 32 "
        "or 64 bits do not undergo any format conversion\""},
       {"formula",
        "shadPS4 reinterpret.h (Uint32ToUnorm); CLRX GcnMemHandling's number format table marks "
        "UNORM, SNORM, USCALED and SSCALED readable for every data format: c/(2^32-1), "
        "max(c/(2^31-1), -1), float(c), rounded to nearest even"},
       {"undefined",
        "AMD RDNA ISA unified buffer format table: 32-bit channels exist only as UINT, SINT "
        "and FLOAT (stores stay undefined under every option)"}}},
     {0, 0, 0, 0, 0, 0, 0},
     false},
    {PolicyId::NanWiden,
     "nan-widen",
     "a 16-, 11- or 10-bit float NaN widened to 32 bits on load: quiet bit set, or bits kept?",
     {{{"quiet",
        "IEEE 754-2008 5.4.2 and 6.2: a format conversion of a signalling NaN delivers a "
        "quiet NaN (payload kept in the top mantissa bits)"},
       {"exact",
        "a pure unpack: the mantissa is shifted up unchanged, so a signalling NaN stays "
        "signalling (the Vulkan spec's conversions only require a NaN to stay a NaN)"}}},
     {0, 0, 0, 0, 0, 0, 0},
     false},
    {PolicyId::UfOverflow,
     "uf-overflow",
     "an 11- or 10-bit unsigned float store of a finite value above the largest finite one: "
     "the maximum, or +Inf?",
     {{{"max",
        "EXT_packed_float (OpenGL): finite positive values above the maximum (65024 for "
        "11-bit, 64512 for 10-bit) convert to the maximum"},
       {"inf",
        "round to nearest with IEEE overflow to +Inf, as half stores do; the Vulkan spec "
        "(\"Floating-Point Format Conversions\") allows the closest finite value or infinity"}}},
     {0, 0, 0, 0, 0, 0, 0},
     false},
    {PolicyId::NormStore,
     "norm-store",
     "float -> UNORM/SNORM store: f * (2^n-1) (2^(n-1)-1 for SNORM) rounded once to the nearest "
     "integer, or first rounded to float32 and then to the nearest integer?",
     {{{"exact",
        "the Vulkan spec's formula (\"Conversion from Floating-Point to Normalized "
        "Fixed-Point\") evaluated exactly, then rounded to nearest even (CLRX GcnMemHandling: "
        "stores round to nearest)"},
       {"f32mul",
        "the product computed in float32 (rounded to nearest even), then rounded to the "
        "nearest even integer, as lavapipe does (docs/platform.md); the Vulkan spec allows "
        "either of the two integers closest to the product"}}},
     {0, 0, 0, 0, 0, 0, 0},
     false},
    {PolicyId::FloatStoreRound,
     "float-store-round",
     "float32 -> 16-, 11- or 10-bit float store of a value between two representable ones: "
     "nearest even, or toward zero?",
     {{{"nearest-even",
        "IEEE 754 default rounding (CLRX GcnMemHandling: stores round to nearest); finite "
        "overflow then follows uf-overflow (11/10-bit) or gives +-Inf (16-bit)"},
       {"toward-zero",
        "round toward zero, as lavapipe does (docs/platform.md); the Vulkan spec "
        "(\"Floating-Point Format Conversions\") leaves the rounding mode undefined. "
        "Finite overflow then gives the largest finite value"}}},
     {0, 0, 0, 0, 0, 0, 0},
     false},
    {PolicyId::OffsetCarry,
     "offset-carry",
     "OFFEN: VGPR offset + OFFSET at or above 2^32 (a negative VGPR offset): out of range, or "
     "checked as the 32-bit wrapped sum?",
     {{{"oob",
        "LLVM AMDGPU AMDGPUISelDAGToDAG.cpp SelectMUBUFScratchOffen: \"If a negative vaddr "
        "base index was used, this would fail the range check\" (before GFX9; on GFX9 the "
        "compiler's scratch accesses are not range-checked at all, tid-noidx, so it records "
        "nothing else for GFX9)"},
       {"wraps", "CLRX GcnMemHandling: UINT32 AOFFSET = OFFSET + VGPR_OFFSET, checked wrapped"}}},
     {0, 0, 0, 0, 0, 0, 0},
     true},
    {PolicyId::ZeroVsharp,
     "zero-vsharp",
     "a V# with STRIDE = 0 and NUM_RECORDS = 0: every access out of range, or no check?",
     {{{"checked", "CLRX GcnMemHandling: the byte check with NUM_RECORDS = 0 rejects everything"},
       {"unchecked",
        "Mesa RADV radv_cmd_buffer.c: \"On GFX9, it seems bounds checking is disabled if both "
        "num_records and stride are zero\""}}},
     {0, 0, 0, 1, 1, 1, 1},
     true},
    {PolicyId::Alpha2,
     "alpha2",
     "a format load of 2_10_10_10 with NUM_FORMAT SNORM, SSCALED or SINT: is the 2-bit W "
     "signed like X, Y and Z, or returned as if unsigned?",
     {{{"signed",
        "CLRX GcnMemHandling and the AMD ISA guides: one NUM_FORMAT for every component; Mesa "
        "ac_shader_util.c: no alpha adjust on GFX9 and Stoney (gfx810); RADV applies none to "
        "texel-buffer loads on any chip"},
       {"unsigned",
        "Mesa radeonsi si_state.c si_create_vertex_elements: \"The hardware always treats the "
        "2-bit alpha channel as unsigned\" (GFX8 and older except Stoney), undone in the shader "
        "by RADV, radeonsi and ACO's vertex fetch (ac_shader_util.c alpha_adjust): SNORM reads "
        "c/3, SSCALED float(c), SINT c"}}},
     {1, 1, 1, 0, 0, 0, 0},
     false},
    {PolicyId::PackedOrder,
     "packed-order",
     "data formats 11_11_10 and 10_10_10_2: X in the lowest bits, or the fields in the reverse "
     "order (X in the highest bits)?",
     {{{"clrx",
        "CLRX GcnMemHandling: \"11_11_10: one 10-bit and two 11-bit components from lowest "
        "bit\" (X = bits 0-9); 10_10_10_2: X = bits 0-1"},
       {"reversed",
        "shadPS4 RemapSwizzle: 11_11_10 read as 10_11_11 with X and Z swapped (X = bits "
        "22-31), 10_10_10_2 as 2_10_10_10 reversed (X = bits 30-31)"}}},
     {0, 0, 0, 0, 0, 0, 0},
     false},
    {PolicyId::D16Keep,
     "d16-keep",
     "a packed D16 load (gfx810, GFX9) that writes one half of a VGPR: is the other half kept?",
     {{{"kept",
        "AMD RDNA3 ISA D16 instructions; LLVM AMDGPU ties the old VDATA as an input of *_D16 "
        "and *_D16_HI loads; Mesa ACO aco_ir.cpp keeps it on every GFX9 chip (sram_ecc_enabled "
        "only for MI100)"},
       {"unclaimed",
        "LLVM AMDGPU GCNSubtarget.h d16PreservesUnusedBits: false when SRAM-ECC is on or "
        "unknown (Vega20, gfx906:sramecc+), so the register is not claimed"}}},
     {0, 0, 0, 0, 0, 0, 0},
     false},
    {PolicyId::SwizzleTid,
     "swizzle-tid",
     "SWIZZLE_ENABLE without ADD_TID_ENABLE: swizzled or linear?",
     {{{"any",
        "CLRX GcnMemHandling and gem5's Vega model (calcAddr): SWIZZLE_ENABLE alone swizzles"},
       {"tid-only",
        "AMD's rocjitsu CDNA emulator (addr_calc_buffer.h gfx9_buffer_lane_offset: "
        "\"SWIZZLE_ENABLE "
        "selects the swizzled scratch layout only together with ADD_TID_ENABLE\")"}}},
     {0, 0, 0, 0, 0, 0, 0},
     true},
};
static_assert(std::size(kPoints) == kPolicyCount, "one row per PolicyId");

}  // namespace

std::span<const PolicyPoint> allPolicyPoints() {
  return kPoints;
}
const PolicyPoint& policyPoint(PolicyId id) {
  return kPoints[static_cast<std::size_t>(id)];
}

std::vector<uint8_t> otherOptions(PolicyId id, uint8_t current) {
  std::vector<uint8_t> out;
  const std::size_t n = policyPoint(id).options().size();
  for (std::size_t o = 0; o < n; ++o)
    if (o != current) out.push_back(static_cast<uint8_t>(o));
  return out;
}

std::size_t combinationCount(std::span<const PolicyId> points) {
  std::size_t n = 1;
  for (PolicyId id : points)
    n *= policyPoint(id).options().size();
  return n;
}

std::vector<Policies> everyCombination(const Policies& base, std::span<const PolicyId> points) {
  std::vector<Policies> out{base};
  for (PolicyId id : points) {
    const std::size_t n = out.size();
    for (uint8_t o : otherOptions(id, base.get(id))) {
      for (std::size_t k = 0; k < n; ++k) {
        Policies p = out[k];
        p.set(id, o);
        out.push_back(p);
      }
    }
  }
  return out;
}

Policies Policies::defaults(Gen gen) {
  Policies p;
  for (const PolicyPoint& point : kPoints)
    p.set(point.id, point.defaults[genIndex(gen)]);
  return p;
}

Policies Policies::defaults(const Chip& chip) {
  Policies p = defaults(chip.gen);
  p.set(PolicyId::Alpha2, static_cast<uint8_t>(chip.signedAlpha2 ? policy::Alpha2::Signed
                                                                 : policy::Alpha2::Unsigned));
  return p;
}

void Policies::set(std::string_view assignment) {
  const auto eq = assignment.find('=');
  if (eq == std::string_view::npos)
    throw Error("policy '" + std::string(assignment) + "' is not of the form name=option");
  const std::string_view name = assignment.substr(0, eq);
  const std::string_view option = assignment.substr(eq + 1);
  for (const PolicyPoint& point : kPoints) {
    if (point.name != name) continue;
    for (uint8_t i = 0; i < point.options().size(); ++i) {
      if (point.options()[i].name == option) {
        set(point.id, i);
        return;
      }
    }
    std::string expected;
    const auto opts = point.options();
    for (std::size_t i = 0; i < opts.size(); ++i) {
      if (i > 0) expected.append(i + 1 == opts.size() ? " or " : ", ");
      expected.append(opts[i].name);
    }
    throw Error("policy '" + std::string(name) + "' has no option '" + std::string(option) +
                "': expected " + expected);
  }
  std::string known;
  for (const PolicyPoint& point : kPoints)
    known += std::string(point.name) + " ";
  throw Error("unknown policy '" + std::string(name) + "': expected one of " + known);
}

std::string Policies::describe(std::span<const PolicyId> ids) const {
  std::string out;
  for (PolicyId id : ids) {
    const PolicyPoint& point = policyPoint(id);
    if (!out.empty()) out += ' ';
    out += std::string(point.name) + "=" + std::string(point.options()[get(id)].name);
  }
  return out;
}

std::string Policies::describe() const {
  std::vector<PolicyId> all;
  for (const PolicyPoint& point : kPoints)
    all.push_back(point.id);
  return describe(all);
}

}  // namespace gcn
