#include "harness/control/lane_program.h"

#include <algorithm>
#include <cstdio>

#include "harness/routes/raw.h"
#include "reference/assembler.h"
#include "reference/encoding.h"
#include "reference/error.h"
#include "reference/opcodes.h"
#include "reference/scalar_table.h"
#include "reference/text.h"
#include "reference/vgpr_table.h"

namespace gcnprobe::control {
namespace {

constexpr unsigned kExecCode = 126;  // exec_lo; exec is the pair 126/127
constexpr unsigned kInlineZero = 128;

std::string sgprName(unsigned code, unsigned count = 1) {
  if (code == kExecCode && count == 2) return "exec";
  if (count == 1) return "s" + std::to_string(code);
  return "s[" + std::to_string(code) + ":" + std::to_string(code + count - 1) + "]";
}

unsigned scalarOpcode(gcn::Gen gen, gcn::ScalarClass cls, std::string_view name) {
  const gcn::ScalarOpInfo* op = gcn::findScalarOpByName(gen, cls, name);
  if (op == nullptr)
    throw gcn::Error("the scalar table has no " + std::string(name) + " on " +
                     std::string(gcn::genName(gen)));
  return op->opcode;
}

// The VOP3 opcode of a VALU mnemonic on the generation (reference/vgpr_table.h).
unsigned valuOpcode(gcn::Gen gen, std::string_view name) {
  for (const gcn::VgprOpInfo& r : gcn::vgprOpTable())
    if (r.gen == gen && r.cls == gcn::VgprClass::Valu && r.mnemonic == name) return r.opcode;
  throw gcn::Error("the VALU table has no " + std::string(name) + " on " +
                   std::string(gcn::genName(gen)));
}

// An SSRC0 operand for a 32-bit value: an integer inline constant (0..64, -1..-16) or the
// literal code 255 with the value in the next dword.
std::pair<unsigned, std::optional<uint32_t>> scalarSource(uint32_t v) {
  if (const auto code = gcn::integerInlineCode(static_cast<int32_t>(v)))
    return {*code, std::nullopt};
  return {255u, v};
}

class Writer {
 public:
  explicit Writer(gcn::Gen gen) : gen_(gen) {}

  void sMov(unsigned sdst, uint32_t value) {
    const auto [src, literal] = scalarSource(value);
    ProgramLine l;
    l.text = "s_mov_b32 " + (sdst == gcn::m0SgprCode(gen_) ? std::string("m0") : sgprName(sdst)) +
             ", " + (literal ? gcn::hexNumber(value) : std::to_string(static_cast<int32_t>(value)));
    l.words.push_back(0xbe800000u | (sdst << 16) |
                      (scalarOpcode(gen_, gcn::ScalarClass::Sop1, "s_mov_b32") << 8) | src);
    if (literal) l.words.push_back(*literal);
    add(std::move(l));
  }

  // s_load_dwordx4 s[sdst:sdst+3], s[sbase:sbase+1], byteOffset (a multiple of 4 below 1024).
  void sLoadX4(unsigned sdst, unsigned sbase, uint32_t byteOffset) {
    ProgramLine l;
    l.text = "s_load_dwordx4 " + sgprName(sdst, 4) + ", " + sgprName(sbase, 2) + ", " +
             gcn::hexNumber(gen_ <= gcn::Gen::Gfx7 ? byteOffset / 4 : byteOffset);
    if (gen_ <= gcn::Gen::Gfx7) {
      // SMRD: [31:27] 11000, OP [26:22] (2: s_load_dwordx4), SDST [21:15], SBASE [14:9] (the
      // pair's first SGPR / 2), IMM [8], OFFSET [7:0] in dwords.
      l.words.push_back(0xc0000000u | (2u << 22) | (sdst << 15) | ((sbase / 2) << 9) | (1u << 8) |
                        (byteOffset / 4));
    } else {
      // SMEM: [31:26] 110000, OP [25:18] (2), IMM [17], SDATA [12:6], SBASE [5:0]; OFFSET
      // [19:0] of the second dword, in bytes.
      l.words.push_back(0xc0000000u | (2u << 18) | (1u << 17) | (sdst << 6) | (sbase / 2));
      l.words.push_back(byteOffset);
    }
    add(std::move(l));
  }

  // v_lshlrev_b32 vdst, shift, vsrc (VOP2, the shift an inline constant).
  void vLshlrev(unsigned vdst, unsigned shift, unsigned vsrc) {
    const unsigned op = valuOpcode(gen_, "v_lshlrev_b32") - gcn::vop3OpcodeOfVop2(0);
    ProgramLine l;
    l.text = "v_lshlrev_b32 v" + std::to_string(vdst) + ", " + std::to_string(shift) + ", v" +
             std::to_string(vsrc);
    l.words.push_back((op << 25) | (vdst << 17) | (vsrc << 9) | (kInlineZero + shift));
    add(std::move(l));
  }

  // v_cmp_ne_u32_e64 s[sdst:sdst+1], 0, vsrc (VOP3, the compare's mask in an SGPR pair).
  void vCmpNeZero(unsigned sdst, unsigned vsrc) {
    const unsigned op = valuOpcode(gen_, "v_cmp_ne_u32");
    ProgramLine l;
    l.text = "v_cmp_ne_u32_e64 " + sgprName(sdst, 2) + ", 0, v" + std::to_string(vsrc);
    // VOP3: [31:26] 110100; OP at [25:17] on gfx6/7, [25:16] on gfx8/9; SDST at [7:0]. Second
    // dword: SRC0 [8:0], SRC1 [17:9] (VGPRs are 256 + n).
    const unsigned opField = gen_ <= gcn::Gen::Gfx7 ? op << 17 : op << 16;
    l.words.push_back(0xd0000000u | opField | sdst);
    l.words.push_back(kInlineZero | ((256u + vsrc) << 9));
    add(std::move(l));
  }

  // s_and_b64 exec, exec, s[src:src+1] (SOP2).
  void andExec(unsigned src) {
    ProgramLine l;
    l.text = "s_and_b64 exec, exec, " + sgprName(src, 2);
    l.words.push_back(0x80000000u |
                      (scalarOpcode(gen_, gcn::ScalarClass::Sop2, "s_and_b64") << 23) |
                      (kExecCode << 16) | (src << 8) | kExecCode);
    add(std::move(l));
  }

  void sopp(std::string_view name, uint16_t simm, std::string text) {
    ProgramLine l;
    l.text = std::move(text);
    l.words.push_back(0xbf800000u | (scalarOpcode(gen_, gcn::ScalarClass::Sopp, name) << 16) |
                      simm);
    add(std::move(l));
  }
  // Every counter at 0: vmcnt (also [15:14] on gfx9), expcnt and lgkmcnt all zero.
  void waitAll() { sopp("s_waitcnt", 0, "s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)"); }

  void buffer(const gcn::Instruction& inst) {
    ProgramLine l;
    l.text = gcn::printInstruction(gen_, inst);
    const auto w = gcn::encode(gen_, inst);
    l.words.assign(w.begin(), w.end());
    add(std::move(l));
  }

  std::size_t size() const { return lines_.size(); }
  std::vector<ProgramLine> take() { return std::move(lines_); }

 private:
  void add(ProgramLine l) { lines_.push_back(std::move(l)); }
  gcn::Gen gen_;
  std::vector<ProgramLine> lines_;
};

// A dword load (or four) of the lane-shader layout's In buffer: `offen` addressing with the
// given VADDR and OFFSET.
gcn::Instruction inLoad(gcn::Gen gen, unsigned dwords, unsigned vdst, unsigned vaddr,
                        unsigned srsrc, uint16_t offset) {
  gcn::Instruction i =
      gcn::parseInstruction(gen, dwords == 4 ? "buffer_load_dwordx4 v[0:3], v0, s[0:3], 0 offen"
                                             : "buffer_load_dword v0, v0, s[0:3], 0 offen");
  i.vdata = static_cast<uint8_t>(vdst);
  i.vaddr = static_cast<uint8_t>(vaddr);
  i.srsrc = static_cast<uint8_t>(srsrc);
  i.offset = offset;
  return i;
}

}  // namespace

std::vector<uint32_t> LaneProgram::words() const {
  std::vector<uint32_t> out;
  for (const ProgramLine& l : lines)
    out.insert(out.end(), l.words.begin(), l.words.end());
  return out;
}

std::string LaneProgram::assembly() const {
  std::string out = "BB0:\n";
  for (const ProgramLine& l : lines) {
    std::string line = "\t" + l.text;
    if (line.size() < 61) line.resize(61, ' ');
    out += line + " ;" + (l.words.empty() ? "" : " " + gcn::hexWordList(l.words)) + "\n";
  }
  return out;
}

std::string programProblem(const gcn::Chip& chip, const gcn::Instruction& inst) {
  if (inst.op == nullptr) return "no instruction";
  if (gcn::isRdna(chip.gen)) return "the own program is GCN code (GFX6-GFX9)";
  if (auto e = gcn::validationError(chip.gen, inst)) return *e;
  if (inst.addr64) return "ADDR64 takes two VADDR registers; the program has one In word per lane";
  if (inst.offen && inst.idxen)
    return "IDXEN with OFFEN takes two VADDR registers; the program has one In word per lane";
  if (inst.lds || inst.op->ldsData)
    return "the program has no LDS image (a load with the LDS bit, buffer_store_lds_dword)";
  if (inst.op->kind == gcn::OpKind::Cache)
    return "a cache operation has no data for the program to return (the binary route runs it)";
  if (inst.op->kind != gcn::OpKind::Cache && gcn::vdataRegs(*inst.op, chip, inst.tfe) > kVdataRegs)
    return "VDATA of " + std::to_string(gcn::vdataRegs(*inst.op, chip, inst.tfe)) +
           " registers; the program returns " + std::to_string(kVdataRegs) + " per lane";
  const unsigned s = inst.soffset;
  const bool sgpr = s < gcn::sgprCount(chip.gen);
  if (!sgpr && s != gcn::m0SgprCode(chip.gen) && !gcn::integerInlineValue(s))
    return "SOFFSET code " + std::to_string(s) +
           " is neither an SGPR, M0 nor an integer inline constant";
  return "";
}

LaneProgram writeLaneProgram(const ProgramSpec& spec) {
  const gcn::Gen gen = spec.chip.gen;
  if (std::string p = programProblem(spec.chip, spec.inst); !p.empty())
    throw gcn::Error("own program: " + p);
  if (spec.setPointer != 2)
    throw gcn::Error("own program: the set pointer is in s" + std::to_string(spec.setPointer) +
                     ", not s2 (RADV's compute argument layout, which the program's registers "
                     "are laid out around)");
  Writer w(gen);
  const unsigned p = spec.setPointer;
  w.sMov(p + 1, spec.pointerHigh);
  w.sLoadX4(kCaseVsharp, p, 0);
  w.sLoadX4(kInVsharp, p, 16);
  w.sLoadX4(kOutVsharp, p, 32);
  w.vLshlrev(1, 2, 0);
  w.vLshlrev(2, 4, 0);
  w.waitAll();
  w.buffer(inLoad(gen, 1, kVaddrVgpr, 1, kInVsharp, 256));
  w.waitAll();
  w.vCmpNeZero(kMaskSgpr, kVaddrVgpr);
  w.andExec(kMaskSgpr);
  const gcn::Instruction& in = spec.inst;
  if (in.offen || in.idxen) w.buffer(inLoad(gen, 1, kVaddrVgpr, 1, kInVsharp, 0));
  w.buffer(inLoad(gen, 4, kVdataVgpr, 2, kInVsharp, 512));
  gcn::Instruction c = in;
  if (in.op->kind != gcn::OpKind::Cache) c.vdata = kVdataVgpr;
  c.vaddr = (in.offen || in.idxen) ? kVaddrVgpr : 0;
  c.srsrc = kCaseVsharp;
  bool salu = false;
  if (in.soffset < gcn::sgprCount(gen)) {
    w.sMov(kSoffsetSgpr, spec.soffsetValue);
    c.soffset = kSoffsetSgpr;
    salu = true;
  } else if (in.soffset == gcn::m0SgprCode(gen)) {
    w.sMov(gcn::m0SgprCode(gen), spec.soffsetValue);
    salu = true;
  }
  w.waitAll();
  // An SALU write of an SGPR or M0 that a VMEM instruction reads: the GCN manuals' "manually
  // inserted wait states" name none for SOFFSET, and GFX9 one for M0 read by LDS DMA; five
  // cost nothing here.
  if (salu) w.sopp("s_nop", 4, "s_nop 4");
  LaneProgram out;
  out.caseIndex = w.size();
  out.caseInst = c;
  w.buffer(c);
  // The registers the instruction writes go to Out, and no other: the data-path proof allows
  // no Out slot a result does not fill. GFX6 gets no DWORDX3 (LLVM's hasDwordx3LoadStores).
  const unsigned results = routes::lane::returnedRegs(spec.chip, in);
  if (results > 0) w.waitAll();
  for (unsigned k = 0; k < results;) {
    const unsigned n = results - k == 3 && gen == gcn::Gen::Gfx6 ? 2 : results - k;
    static constexpr const char* kStores[] = {"", "buffer_store_dword v0, v0, s[0:3], 0 offen",
                                              "buffer_store_dwordx2 v[0:1], v0, s[0:3], 0 offen",
                                              "buffer_store_dwordx3 v[0:2], v0, s[0:3], 0 offen",
                                              "buffer_store_dwordx4 v[0:3], v0, s[0:3], 0 offen"};
    gcn::Instruction store = gcn::parseInstruction(gen, kStores[n]);
    store.vdata = static_cast<uint8_t>(kVdataVgpr + k);
    store.vaddr = 2;
    store.srsrc = kOutVsharp;
    store.offset = static_cast<uint16_t>(4 * k);
    w.buffer(store);
    k += n;
  }
  w.sopp("s_endpgm", 0, "s_endpgm");
  out.lines = w.take();
  out.sgprs = kOutVsharp + 4;
  out.vgprs = kVdataVgpr + kVdataRegs;
  return out;
}

}  // namespace gcnprobe::control
