// gcnprobe's own lane program: the whole machine code of a compute shader that runs one case's
// instruction with every operand chosen by gcnprobe, for the own-program route
// (control_route.h, docs/program.md). RADV compiles a template shader of the lane-shader layout
// (set 0: binding 0 the case's buffer, 1 In, 2 Out) only for its argument layout, its register
// allocation and its room; its code is replaced as a whole by this program:
//
//   s_mov_b32        s[P+1], HI               the set pointer's high half, as the driver's code
//   s_load_dwordx4   s[4:7],   s[P:P+1], 0x0  the case's V# (binding 0)
//   s_load_dwordx4   s[8:11],  s[P:P+1], 0x10 In (binding 1)
//   s_load_dwordx4   s[12:15], s[P:P+1], 0x20 Out (binding 2)
//   v_lshlrev_b32    v1, 2, v0                4 * lane (v0 = the lane's local id)
//   v_lshlrev_b32    v2, 4, v0                16 * lane
//   s_waitcnt        0
//   buffer_load_dword v3, v1, s[8:11], 0 offen offset:256      In.enabled[lane]
//   s_waitcnt        0
//   v_cmp_ne_u32_e64 s[0:1], 0, v3            the enabled lanes (no VCC: its place in the
//   s_and_b64        exec, exec, s[0:1]       allocation is the driver's business)
//   buffer_load_dword v3, v1, s[8:11], 0 offen                 VADDR = In.addr[lane]
//   buffer_load_dwordx4 v[4:7], v2, s[8:11], 0 offen offset:512 VDATA = In.data[4 lane..]
//   s_mov_b32        s2, SOFFSET              an SGPR SOFFSET's value (or m0)
//   s_waitcnt        0
//   s_nop            4                        wait states after SALU writes read by VMEM
//   <the case's instruction on v[4:7], v3, s[4:7], s2>
//   s_waitcnt        0                        (when it returns registers: routes/raw.h
//                                             returnedRegs)
//   buffer_store_dword.. v[4:..], v2, s[12:15], 0 offen         Out[4 lane..] = the registers
//   s_endpgm                                                   the instruction returns
//
// It is straight-line code: no branch, every lane runs under EXEC = the enabled lanes. Every
// opcode number comes from the project's tables (reference/scalar_table.h, vgpr_table.h,
// encoding.h), and every line's text is LLVM syntax: tests assemble each text with llvm-mc
// and compare the words. The program is proven like any driver's listing (the ISA check and
// the data-path proof read its words, not its text).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "reference/gen.h"
#include "reference/opcodes.h"

namespace gcnprobe::control {

struct ProgramLine {
  std::string text;             // LLVM syntax, as llvm-mc 14 reads it
  std::vector<uint32_t> words;  // its encoding
};

struct ProgramSpec {
  gcn::Chip chip;             // D16 packing is the chip's
  unsigned setPointer = 2;    // the user SGPR holding set 0's 32-bit pointer (RADV: s2)
  uint32_t pointerHigh = 0;   // what the driver's own code puts in setPointer + 1
  gcn::Instruction inst;      // the case's instruction; its registers are reassigned
  uint32_t soffsetValue = 0;  // the value of an SGPR or M0 SOFFSET (ignored for a constant)
};

// Where the program keeps things (the registers named in the file comment).
inline constexpr unsigned kCaseVsharp = 4, kInVsharp = 8, kOutVsharp = 12;
inline constexpr unsigned kSoffsetSgpr = 2, kMaskSgpr = 0;
inline constexpr unsigned kVaddrVgpr = 3, kVdataVgpr = 4, kVdataRegs = 4;

struct LaneProgram {
  std::vector<ProgramLine> lines;
  std::size_t caseIndex = 0;  // the case instruction's line
  gcn::Instruction caseInst;  // the case's instruction on the program's registers
  unsigned sgprs = 0;         // SGPRs it names: the highest index + 1 (EXEC and M0 aside)
  unsigned vgprs = 0;         // VGPRs it names: the highest index + 1
  std::vector<uint32_t> words() const;
  // The program in the shape of ACO's listings (harness/isa/aco_asm.h): one line per
  // instruction, its text padded, then ';' and its words in hex.
  std::string assembly() const;
};

// Why the program cannot run the instruction on the chip ("" when it can): a VADDR of
// two registers (ADDR64, or IDXEN with OFFEN), more than four VDATA registers (TFE included),
// a load with the LDS bit or an LDS store (no LDS image), an SOFFSET that is neither an
// integer inline constant, an SGPR nor M0.
std::string programProblem(const gcn::Chip& chip, const gcn::Instruction& inst);

// The program for `spec` (throws gcn::Error with programProblem's reason, or for a pointer
// SGPR that collides with the program's registers).
LaneProgram writeLaneProgram(const ProgramSpec& spec);

}  // namespace gcnprobe::control
