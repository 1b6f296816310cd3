#!/usr/bin/env python3
"""Writes reference/scalar_table.inc: for every scalar ALU opcode (SOP1, SOP2, SOPK, SOPC,
SOPP) that LLVM's AMDGPU assembler knows on tahiti (gfx6), bonaire (gfx7), tonga (gfx8) and
gfx900 (gfx9) with llvm-mc 14, and on gfx1010 (gfx10), gfx1030 (gfx10.3) and gfx1100 (gfx11)
with llvm-mc-15: its mnemonic as llvm-mc prints it, how many SGPRs its SDST field writes, how
many its SSRC0 and SSRC1 fields read, whether the encoding always carries a 32-bit literal dword
(s_setreg_imm32_b32), and what the proofs model of it (BEHAVIOUR below).

Callers name scalar instructions (s_setpc_b64, s_endpgm, s_mov_b32) by mnemonic and get the
opcode from here instead of hard-coding numbers that differ between generations.
Method: every s_* token in the generation's libLLVM (14 or 15) is assembled with a list of
operand shapes; the first shape llvm-mc accepts gives the encoding, hence the class and opcode
(the encoding formats below). The SDST width is that of the operand the shape put in SDST
(register 10) when LLVM counts it as a definition: llvm-mca's register-file statistics of
the instruction alone say whether it writes a register (s_cmpk_*, s_setreg_*,
s_cbranch_i_fork, s_waitcnt_*cnt and s_subvector_loop_* read their SDST field; s_movreld_*
is the one exception, see RELATIVE_WRITE). A source width is that of the shape's register the
SSRC0 [7:0] or SSRC1 [15:8] field holds (s20 or s[20:21] in "s10, s20, s30" shapes), 0 where
the field holds none of the shape's registers (no such operand, or an immediate such as
gpr_idx(SRC0)). Of two mnemonics that reach one
opcode, the name llvm-mc's disassembler prints is kept (gfx8+; llvm-mc cannot disassemble
gfx6/7). tests/reference/scalar_table_test.cpp checks every row against llvm-mc again.

Encodings (AMD's ISA manuals; checked here on every word llvm-mc produces):
  SOP1  [31:23]=0x17d, SDST [22:16], OP [15:8], SSRC0 [7:0]
  SOPC  [31:23]=0x17e, OP [22:16], SSRC1 [15:8], SSRC0 [7:0]
  SOPP  [31:23]=0x17f, OP [22:16], SIMM16 [15:0]
  SOPK  [31:28]=0xb (and none of the above), OP [27:23], SDST [22:16], SIMM16 [15:0]
  SOP2  [31:30]=0b10 (and none of the above), OP [29:23], SDST [22:16], SSRC1 [15:8],
        SSRC0 [7:0]

Usage: scripts/gen-scalar-table.py > reference/scalar_table.inc
(needs llvm-mc, llvm-mca, llvm-mc-15, llvm-mca-15 and their libLLVM)
"""
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from table_behaviour import Behaviours  # noqa: E402

GENS = [("Gfx6", "tahiti", 14), ("Gfx7", "bonaire", 14), ("Gfx8", "tonga", 14),
        ("Gfx9", "gfx900", 14), ("Gfx10", "gfx1010", 15), ("Gfx10_3", "gfx1030", 15),
        ("Gfx11", "gfx1100", 15)]
TOOLS = {14: ("llvm-mc", "llvm-mca", "/usr/lib/llvm-14/lib/libLLVM-14.so.1"),
         15: ("llvm-mc-15", "llvm-mca-15", "/usr/lib/llvm-15/lib/libLLVM-15.so.1")}
CLASSES = ["Sop1", "Sop2", "Sopk", "Sopc", "Sopp"]

# Operand shapes, tried in this order. The destination (when there is one) is s10 / s[10:11],
# sources are s20.., so that the register in SDST tells what the shape put there. No shape
# carries a 32-bit literal except where the instruction itself demands one (SOPK's imm32).
SHAPES = [
    # SOP2
    "s10, s20, s30", "s[10:11], s[20:21], s[30:31]", "s[10:11], s[20:21], s30",
    "s[10:11], s20, s30", "s10, s[20:21], s30", "s10, s[20:21], s[30:31]",
    "s10, s20, s[30:31]", "s[10:11], s20, s[30:31]",
    # SOP1, SOPC, dst-less SOP2 (s_cbranch_g_fork, s_rfe_restore_b64)
    "s10, s20", "s[10:11], s[20:21]", "s10, s[20:21]", "s[10:11], s20",
    # SOPC with an immediate, SOPK
    "s10, 4", "s[10:11], 4", "s10, 0x1234", "hwreg(HW_REG_MODE), s10",
    "s10, hwreg(HW_REG_MODE)", "hwreg(HW_REG_MODE), 0x1234", "s10, gpr_idx(SRC0)",
    "s10, sendmsg(MSG_RTN_GET_DOORBELL)", "s[10:11], sendmsg(MSG_RTN_GET_REALTIME)",
    # SOP1 with one operand, SOPP
    "s[10:11]", "s10", "", "0", "4", "0x1234", "vmcnt(0)", "sendmsg(MSG_INTERRUPT)",
    "sendmsg(MSG_GS_DONE, GS_OP_NOP)", "gpr_idx(SRC0)", "instid0(VALU_DEP_1)",
]


def run(cmd, text, suffix=".s"):
    with tempfile.NamedTemporaryFile("w", suffix=suffix, delete=False) as f:
        f.write(text)
        path = f.name
    return subprocess.run(cmd + [path], capture_output=True, text=True)


# s_movreld_b32/_b64 write SGPR[SDST + M0] (the SDST field names the base of a relative
# write); LLVM models that operand as a use, since the register written is not SDST itself.
# The table counts the SGPRs written through SDST: 1 and 2.
RELATIVE_WRITE = {"s_movreld_b32", "s_movreld_b64"}

# LLVM's branch pseudos s_branch_pad_s_nop, s_cbranch_*_pad_s_nop: llvm-mc assembles each to
# two instructions (the branch, then s_nop 0).
PSEUDO = re.compile(r"_pad_s_nop$")


# What the proofs (harness/isa, harness/control) model of an instruction, by LLVM's mnemonic:
# the table's behaviour column (gcn::ScalarBehaviour, reference/scalar_table.h, says what each
# value means; the ISA manuals' instruction descriptions are the source). Exact names first,
# then the rules in order. Every exact name must be a mnemonic llvm-mc knows on some
# generation: a misspelt name stops the generator instead of silently never matching.
BEHAVIOUR = {
    "s_mov_b32": "Mov", "s_mov_b64": "Mov", "s_movk_i32": "Movk",
    "s_movreld_b32": "MovRelDst", "s_movreld_b64": "MovRelDst",
    "s_movrels_b32": "MovRelSrc", "s_movrels_b64": "MovRelSrc", "s_movrelsd_2_b32": "MovRelBoth",
    "s_and_b32": "And", "s_and_b64": "And", "s_or_b32": "Or", "s_or_b64": "Or",
    "s_and_saveexec_b32": "AndSaveexec", "s_and_saveexec_b64": "AndSaveexec",
    "s_endpgm": "EndProgram", "s_branch": "Branch",
    "s_cbranch_execz": "BranchExecz", "s_cbranch_execnz": "BranchExecnz",
    "s_setpc_b64": "IndirectFlow", "s_swappc_b64": "IndirectFlow", "s_rfe_b64": "IndirectFlow",
    "s_cbranch_join": "IndirectFlow", "s_cbranch_g_fork": "IndirectFlow",
    "s_rfe_restore_b64": "IndirectFlow",
    "s_cbranch_i_fork": "IndirectFlowExec", "s_call_b64": "IndirectFlowExec",
    "s_subvector_loop_begin": "IndirectFlowExec", "s_subvector_loop_end": "IndirectFlowExec",
    "s_sethalt": "Halt", "s_trap": "Halt", "s_endpgm_saved": "Halt",
    "s_endpgm_ordered_ps_done": "Halt",
    "s_set_gpr_idx_idx": "VectorMode", "s_set_gpr_idx_on": "VectorMode",
    "s_set_gpr_idx_mode": "VectorMode", "s_setvskip": "VectorMode",
    "s_setreg_b32": "SetReg", "s_setreg_imm32_b32": "SetReg",
    "s_waitcnt": "Waitcnt", "s_waitcnt_vmcnt": "WaitcntVm", "s_waitcnt_lgkmcnt": "WaitcntLgkm",
    "s_waitcnt_expcnt": "WaitcntExp",
    "s_sendmsg": "SendMsg",
}
# (class or None, pattern, behaviour) for the names BEHAVIOUR does not list.
BEHAVIOUR_RULES = [
    ("Sopp", re.compile(r"^s_cbranch_"), "BranchOther"),  # SCC, VCC and debug conditions
    (None, re.compile(r"_(saveexec|wrexec)_"), "ExecWrite"),  # may give EXEC lanes back
]


BEHAVIOURS = Behaviours(BEHAVIOUR, BEHAVIOUR_RULES)


def mnemonics(lib):
    out = subprocess.run(["strings", lib], capture_output=True, text=True, check=True).stdout
    names = set(re.findall(r"(?<![A-Za-z0-9_])(s_[a-z0-9_]+)", out))
    return sorted(n for n in names if not PSEUDO.search(n))


def words_of(enc):
    b = [int(x, 16) for x in enc.split(",")]
    return [b[i] | b[i + 1] << 8 | b[i + 2] << 16 | b[i + 3] << 24 for i in range(0, len(b), 4)]


def decode(w0):
    """(class, opcode, SDST field or None) of a scalar ALU word; None for any other word."""
    top9 = w0 >> 23
    if top9 == 0x17D:
        return "Sop1", (w0 >> 8) & 0xFF, (w0 >> 16) & 0x7F
    if top9 == 0x17E:
        return "Sopc", (w0 >> 16) & 0x7F, None
    if top9 == 0x17F:
        return "Sopp", (w0 >> 16) & 0x7F, None
    if (w0 >> 28) == 0xB:
        return "Sopk", (w0 >> 23) & 0x1F, (w0 >> 16) & 0x7F
    if (w0 >> 30) == 0x2:
        return "Sop2", (w0 >> 23) & 0x7F, (w0 >> 16) & 0x7F
    return None


def check_fields(gen, cls, w0, shape, mnem):
    """The operand fields of the brief's formats hold what the shape put there."""
    expect = {}
    if cls == "Sop2" and shape.count(",") == 2:
        expect = {16: 10, 0: 20, 8: 30}
    elif cls == "Sop1" and re.fullmatch(r"s\S+, s\S+", shape):
        expect = {16: 10, 0: 20}
    elif cls == "Sopc" and shape in ("s10, s20", "s[10:11], s[20:21]"):
        expect = {0: 10, 8: 20}
    elif cls == "Sopk" and shape == "s10, 0x1234":
        expect = {16: 10}
        if (w0 & 0xFFFF) != 0x1234:
            print(f"{gen} {mnem} {shape}: SIMM16 {w0 & 0xffff:#x}", file=sys.stderr)
    elif cls == "Sopp" and shape == "0x1234" and (w0 & 0xFFFF) != 0x1234:
        print(f"{gen} {mnem} {shape}: SIMM16 {w0 & 0xffff:#x}", file=sys.stderr)
    for lo, v in expect.items():
        if (w0 >> lo) & 0x7F != v:
            print(f"{gen} {mnem} '{shape}': field [{lo + 6}:{lo}] is "
                  f"{(w0 >> lo) & 0x7f}, not {v}", file=sys.stderr)


ENC = re.compile(r"^\s*(\S+)\s*(.*?)\s*; encoding: \[(.*)\]")
ERR = re.compile(r":(\d+):\d+: error:")


def assemble_first(mc, cpu, names):
    """mnemonic -> (printed mnemonic, printed operands, words, shape) of its first shape."""
    lines = [(n, s) for n in names for s in SHAPES]
    r = run([mc, "-arch=amdgcn", "-mcpu=" + cpu, "-show-encoding"],
            "\n".join((n + " " + s).strip() for n, s in lines) + "\n")
    bad = {int(m.group(1)) for m in ERR.finditer(r.stderr)}
    out = [m for m in (ENC.match(x) for x in r.stdout.split("\n")) if m]
    good = [i for i in range(len(lines)) if i + 1 not in bad]
    if len(good) != len(out):
        sys.exit(f"{cpu}: {len(good)} accepted lines, {len(out)} encodings")
    first = {}
    for i, m in zip(good, out):
        n, s = lines[i]
        if n not in first:
            first[n] = (m.group(1), m.group(2), words_of(m.group(3)), s)
    return first


def mca_defs(mca, cpu, texts):
    """How many registers llvm-mca maps as written by each instruction text alone."""
    if not texts:
        return []
    src = "".join(f"# LLVM-MCA-BEGIN r{i}\n{t}\n# LLVM-MCA-END\n" for i, t in enumerate(texts))
    r = run([mca, "-mtriple=amdgcn", "-mcpu=" + cpu, "-iterations=1", "-register-file-stats",
             "-instruction-info=0", "-resource-pressure=0", "-summary-view=0"], src)
    counts = [int(x) for x in re.findall(r"Total number of mappings created:\s+(\d+)", r.stdout)]
    if len(counts) != len(texts):
        sys.exit(f"{cpu}: llvm-mca gave {len(counts)} regions for {len(texts)}\n{r.stderr}")
    return counts


def disassembled_names(mc, cpu, encodings):
    """key -> the mnemonic llvm-mc's disassembler prints for the key's words."""
    keys = sorted(encodings)
    lines = [",".join(f"0x{w >> s & 0xff:02x}" for w in encodings[k] + [0xBF800007]
                      for s in (0, 8, 16, 24)) for k in keys]
    out = run([mc, "-arch=amdgcn", "-mcpu=" + cpu, "-disassemble"], "\n".join(lines) + "\n",
              ".txt").stdout
    segs = [[]]
    for line in out.split("\n"):
        t = line.strip()
        if not t or t.startswith("."):
            continue
        if t.startswith("s_nop 7"):
            segs.append([])
        else:
            segs[-1].append(t)
    return {k: seg[0].split()[0] for k, seg in zip(keys, segs) if len(seg) == 1}


def width_of(op):
    m = re.match(r"s\[(\d+):(\d+)\]", op)
    if m:
        return int(m.group(2)) - int(m.group(1)) + 1
    return 1 if re.match(r"s\d+\b", op) else 0


def source_widths(cls, w0, ops):
    """SGPRs the SSRC0 and SSRC1 fields read: the width of the printed operand whose register
    the field holds (the shapes' registers are s10, s20 and s30, or pairs from there)."""
    if cls not in ("Sop1", "Sop2", "Sopc"):
        return (0, 0)
    widths = {}
    for op in ops.split(","):
        m = re.match(r"s\[?(\d+)", op.strip())
        if m:
            widths[int(m.group(1))] = width_of(op.strip())
    fields = [w0 & 0xFF] + ([(w0 >> 8) & 0xFF] if cls != "Sop1" else [])
    out = [widths.get(f, 0) if f in (10, 20, 30) else 0 for f in fields]
    return tuple(out + [0] * (2 - len(out)))


def collect(gen, cpu, ver):
    mc, mca, lib = TOOLS[ver]
    first = assemble_first(mc, cpu, mnemonics(lib))
    rows = {}  # (class, opcode) -> {printed name: (dst candidate, literal, text, words)}
    for name, (mnem, ops, words, shape) in first.items():
        d = decode(words[0])
        if d is None:
            continue  # SMEM and the like
        cls, op, sdst = d
        check_fields(gen, cls, words[0], shape, name)
        first_op = ops.split(",")[0].strip()
        cand = width_of(first_op) if sdst == 10 and re.match(r"s\[?10\b", first_op) else 0
        lit = len(words) > 1  # no shape carries a literal of its own
        src = source_widths(cls, words[0], ops)
        rows.setdefault((cls, op), {})[mnem] = (cand, lit, (mnem + " " + ops).strip(), words, src)
    # Which candidates LLVM counts as written registers.
    todo = [(k, n) for k, names in rows.items() for n, v in names.items() if v[0]]
    counts = mca_defs(mca, cpu, [rows[k][n][2] for k, n in todo])
    for (k, n), c in zip(todo, counts):
        if c > 1:
            sys.exit(f"{gen} {n}: llvm-mca counts {c} written registers")
        cand, lit, text, words, src = rows[k][n]
        rows[k][n] = (cand if c == 1 or n in RELATIVE_WRITE else 0, lit, text, words, src)
    dis = {}
    if gen not in ("Gfx6", "Gfx7"):
        dis = disassembled_names(mc, cpu, {k: next(iter(v.values()))[3] for k, v in rows.items()})
    result = {}
    for k, names in rows.items():
        if dis and dis.get(k) not in names:
            print(f"{gen} {k}: {sorted(names)} disassembled as {dis.get(k)}", file=sys.stderr)
        if len(names) > 1:
            print(f"{gen} {k}: aliases {sorted(names)} disassembled as {dis.get(k)}",
                  file=sys.stderr)
        pick = dis.get(k) if dis.get(k) in names else min(names)
        if len({(v[0], v[1], v[4]) for v in names.values()}) != 1:
            sys.exit(f"{gen} {k}: aliases differ: {names}")
        result[k] = (pick,) + names[pick][:2] + (names[pick][4],)
    return result


def main():
    vers = {v: subprocess.run([TOOLS[v][0], "--version"], capture_output=True, text=True)
            .stdout.split("LLVM version ")[1].split()[0] for v in TOOLS}
    print(f"// Generated by scripts/gen-scalar-table.py from llvm-mc {vers[14]} (gfx6..gfx9) and "
          f"llvm-mc-15 {vers[15]} (gfx10..gfx11); do not edit.")
    print("// {generation, class, opcode, mnemonic, SGPRs written by SDST, extra literal dword,")
    print("//  behaviour, SGPRs read by SSRC0 and SSRC1}")
    for gen, cpu, ver in GENS:
        rows = collect(gen, cpu, ver)
        for cls, op in sorted(rows, key=lambda k: (CLASSES.index(k[0]), k[1])):
            name, dst, lit, src = rows[(cls, op)]
            print(f'{{Gen::{gen}, ScalarClass::{cls}, {op}, "{name}", {dst}, '
                  f'{"true" if lit else "false"}, ScalarBehaviour::{BEHAVIOURS.of(cls, name)}, '
                  f'{{{src[0]}, {src[1]}}}}},')
    BEHAVIOURS.check_every_name_seen()


if __name__ == "__main__":
    main()
