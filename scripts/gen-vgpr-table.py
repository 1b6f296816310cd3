#!/usr/bin/env python3
"""Writes reference/vgpr_table.inc: for every VALU (VOP3 opcode space), DS and, on RDNA, VOP3P
opcode that LLVM's AMDGPU assembler knows on tahiti (gfx6), bonaire (gfx7), tonga (gfx8),
gfx900 (gfx9), gfx1010 (gfx10), gfx1030 (gfx10.3) and gfx1100 (gfx11), its mnemonic and how
many VGPRs its VDST writes (0: none, or an SGPR destination), and what the ISA checks model of
it (BEHAVIOUR below).

The data-path proof (harness/isa/data_path.h) must know which registers an instruction
writes; GFX6/7 listings are raw words, so the widths come from the encoding, not the text.
Method: every v_* and ds_* mnemonic in libLLVM's assembler tables is assembled by llvm-mc
with a list of operand shapes; the encodings llvm-mc gives name the opcode, and the
destination's register count is that of the printed first operand (on RDNA only where the
encoding's VDST field holds the v10 written there: see below). Every accepted shape must agree.
tests/reference/vgpr_table_test.cpp checks every row against llvm-mc again (and, on gfx8 and
later, every opcode its disassembler knows).

Each generation uses the LLVM that the tests use for it, for both the mnemonic list (that
LLVM's libLLVM) and the assembler: Debian's llvm 14 (llvm-mc-14) for GCN, which reproduces the
GCN rows exactly, and llvm-15 (llvm-mc-15) for RDNA, which LLVM 14 only partly knows.

RDNA (gfx10, gfx10.3, gfx11) differs from GCN in the encodings the rows come from:
  - VOP3 is [31:26] = 0x35 with a 10-bit opcode at [25:16]; VOPC n = n, VOP2 n = 256 + n,
    VOP1 n = 384 + n in that space (as on gfx6/7 for VOP1).
  - VOP3P is [31:23] = 0x198 (first byte 0xcc) with its own 7-bit opcode at [22:16]; its rows
    are class Vop3p (on gfx9 VOP3P is 0x1a7 at [31:23], inside VOP3's 10-bit field: Valu).
  - DS is [31:26] = 0x36 with the opcode at [25:18] (as on gfx6/7), VDST at [63:56].
  - llvm-mc-15 assembles wave32 (VCC is vcc_lo, carries are one SGPR): shapes with s12 / s14.
    The one width that depends on the wave size is gfx11 WMMA's (v_wmma_*, VOP3P 64..69):
    8 VGPRs in wave32, 4 in wave64; the table has wave32's 8, which covers both.
  - gfx10/gfx10.3 v_cmpx_*_e64 have no destination operand (VDST field 0; 0x7e = exec_lo on
    gfx11), so a first operand v10 there is a source: the VDST field decides.
  - Not in the table: gfx11 VOPD (v_dual_*, [31:26] = 0x32), VINTERP (first byte 0xcd), LDSDIR
    (first byte 0xce) and gfx10 VINTRP ([31:26] = 0x32, as gfx8/9 VINTRP 0x35 is not either).

Usage: scripts/gen-vgpr-table.py > reference/vgpr_table.inc  (needs llvm-mc-14, llvm-mc-15 and
their libLLVM)
"""
import itertools
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from table_behaviour import Behaviours  # noqa: E402

# (generation, llvm-mc -mcpu, LLVM major version)
GENS = [("Gfx6", "tahiti", 14), ("Gfx7", "bonaire", 14), ("Gfx8", "tonga", 14),
        ("Gfx9", "gfx900", 14), ("Gfx10", "gfx1010", 15), ("Gfx10_3", "gfx1030", 15),
        ("Gfx11", "gfx1100", 15)]
RDNA = ("Gfx10", "Gfx10_3", "Gfx11")

DSTS = ["v10", "v[10:11]", "v[10:12]", "v[10:13]", "s10", "s[10:11]",
        "v10, s[12:13]", "v[10:11], s[12:13]"]
# wave32 carry-outs (v_add_co_u32 v10, s12, ...; v_mad_u64_u32 v[10:11], s12, ...)
DSTS_RDNA = DSTS + ["v10, s12", "v[10:11], s12"]


# What the ISA checks (harness/isa) model of an instruction, by LLVM's mnemonic: the table's
# behaviour column (gcn::VgprBehaviour, reference/vgpr_table.h, says what each value means; the
# ISA manuals' VOP1/VOP2/VOPC/VOP3/DS descriptions are the source). Exact names first, then the
# rules in order. Every exact name must be a mnemonic llvm-mc knows on some generation: a
# misspelt name stops the generator instead of silently never matching.
BEHAVIOUR = {
    "v_mov_b32": "Mov", "v_swap_b32": "Swap",
    "v_movreld_b32": "MovRel", "v_movrelsd_b32": "MovRel", "v_movrelsd_2_b32": "MovRel",
    "v_swaprel_b32": "MovRel",
    "v_readlane_b32": "Readlane",
    "v_lshr_b64": "Shift64", "v_ashr_i64": "Shift64",
    "v_lshrrev_b64": "Shift64Rev", "v_ashrrev_i64": "Shift64Rev",
    "v_cmp_ne_i32": "CompareNe", "v_cmp_ne_u32": "CompareNe", "v_cmp_lt_u32": "CompareLtU32",
    "v_cmp_gt_u32": "CompareGtU32",
    "v_cmpx_ne_i32": "CompareXNe", "v_cmpx_ne_u32": "CompareXNe",
    "v_cmpx_lt_u32": "CompareXLtU32", "v_cmpx_gt_u32": "CompareXGtU32",
    # VOP3b: SDST [14:8] is a carry-out (or v_div_scale's VCC) SGPR.
    "v_add_co_u32": "CarryOut", "v_sub_co_u32": "CarryOut", "v_subrev_co_u32": "CarryOut",
    "v_add_co_ci_u32": "CarryOut", "v_sub_co_ci_u32": "CarryOut",
    "v_subrev_co_ci_u32": "CarryOut", "v_div_scale_f32": "CarryOut",
    "v_div_scale_f64": "CarryOut", "v_mad_u64_u32": "CarryOut", "v_mad_i64_i32": "CarryOut",
}
# (class or None, pattern, behaviour) for the names BEHAVIOUR does not list.
BEHAVIOUR_RULES = [
    ("Valu", re.compile(r"^v_cmps?x_"), "CompareXOther"),  # writes EXEC (v_cmpsx_*: gfx6/7)
    ("Valu", re.compile(r"^v_cmps?_"), "CompareOther"),  # writes VCC or an SGPR pair
    ("Ds", re.compile(r"^ds_(read|load)"), "DsRead"),  # reads LDS, writes none of it
    # DATA0 and DATA1 both hold data: two addresses' stores and exchanges, compare-swaps, the
    # masked or.
    ("Ds", re.compile(r"write2|store2|cmpst|cmpswap|mskor|wrxchg2|storexchg2"), "DsTwoData"),
]


BEHAVIOURS = Behaviours(BEHAVIOUR, BEHAVIOUR_RULES)


def tool(ver):
    return f"llvm-mc-{ver}"


def src(kind, k):
    """Operand kind at source position k, with register numbers that alias nothing."""
    a, b = 20 + 10 * k, 60 + 4 * k
    return {"v": f"v{a}", "v2": f"v[{a}:{a + 1}]", "v3": f"v[{a}:{a + 2}]",
            "v4": f"v[{a}:{a + 3}]", "v8": f"v[{a}:{a + 7}]", "s": f"s{b}",
            "s2": f"s[{b}:{b + 1}]", "i": "0"}[kind]


_STRINGS = {}


def mnemonics(prefix, ver):
    """Every token of libLLVM <ver> that starts with prefix, less _e32/_e64/_dpp/_sdwa."""
    if ver not in _STRINGS:
        lib = f"/usr/lib/llvm-{ver}/lib/libLLVM-{ver}.so.1"
        _STRINGS[ver] = subprocess.run(["strings", lib], capture_output=True, text=True,
                                       check=True).stdout
    # Names also sit inside longer strings (tab-separated tables, tail-merged literals), so
    # every token is taken; tokens that are no mnemonic simply fail to assemble.
    names = set()
    for tok in re.findall(r"(?<![A-Za-z0-9_])(" + prefix + r"[a-z0-9_]+)", _STRINGS[ver]):
        names.add(re.sub(r"_(e32|e64|dpp|sdwa|dpp8)$", "", tok))
    return sorted(names)


def shapes_valu(full, rdna):
    kinds = ["v", "v2", "v4", "s", "s2", "i"] if full else ["v", "v2"]
    dsts = DSTS_RDNA if rdna else DSTS
    if full:
        yield ""  # v_nop, v_clrexcp
        for d in ("v10", "v[10:11]"):  # v_interp_*: an attribute operand
            yield d + ", v20, attr0.x"
            yield d + ", s0, attr0.x"
            yield d + ", v20, attr0.x, v40"
            yield d + ", v20, attr0.x, v40 high"
            yield d + ", v20, attr0.x, v40, v[50:51]"
            yield d + ", p10, attr0.x"
    for d in dsts if full else dsts[:2] + dsts[5:7] + dsts[8:]:
        yield d
        for n in (1, 2, 3):
            for ks in itertools.product(kinds, repeat=n):
                yield d + ", " + ", ".join(src(kd, k) for k, kd in enumerate(ks))
        if full and "s[12:13]" in d or full and rdna and ", s12" in d:
            # v_addc/v_subb: a carry-in SGPR (pair) after the two sources
            for ka, kb in itertools.product(["v", "s"], ["v", "s"]):
                yield d + ", " + src(ka, 0) + ", " + src(kb, 1) + ", s[14:15]"
                if rdna:
                    yield d + ", " + src(ka, 0) + ", " + src(kb, 1) + ", s14"
    if full and rdna:
        # gfx11 v_wmma_*: 8 VGPRs of D and C in wave32 (llvm-mc-15's default; 4 in wave64)
        for ks in itertools.product(["v2", "v4", "v8"], repeat=3):
            yield "v[10:17], " + ", ".join(src(kd, k) for k, kd in enumerate(ks))


def shapes_ds(full, rdna):
    firsts = ["v10", "v[10:11]", "v[10:12]", "v[10:13]"] if full else ["v10", "v[10:11]"]
    kinds = ["v", "v2", "v3", "v4"] if full else ["v", "v2"]
    for f in firsts:
        yield f
        for n in (1, 2, 3):
            for ks in itertools.product(kinds, repeat=n):
                yield ", ".join([f] + [src(kd, k) for k, kd in enumerate(ks)])
        if full:
            yield f + ", " + src("v", 0) + ", " + src("v", 1) + ", " + src("v", 2) + " gds"
            if rdna:  # gfx11 ds_add_gs_reg_rtn / ds_sub_gs_reg_rtn: GDS only
                yield f + ", " + src("v", 0) + " gds"


def run_mc(ver, cpu, flag, text):
    with tempfile.NamedTemporaryFile("w", suffix=".s", delete=False) as f:
        f.write(text)
        path = f.name
    try:
        return subprocess.run([tool(ver), "-arch=amdgcn", "-mcpu=" + cpu, flag, path],
                              capture_output=True, text=True).stdout
    finally:
        os.unlink(path)


ENC = re.compile(r"^\s*(\S+)\s*(.*?)\s*; encoding: \[(.*)\]")


def width_of(op):
    op = op.strip()
    m = re.fullmatch(r"v\[(\d+):(\d+)\]", op)
    if m:
        return int(m.group(2)) - int(m.group(1)) + 1
    if re.fullmatch(r"v\d+", op):
        return 1
    return 0


def first_operand(ops):
    first = ops.split(",")[0] if ops else ""
    return ops[: ops.index("]") + 1] if ops.startswith("v[") else first


def vop3_opcode(gen, words):
    """GCN: the VOP3 opcode of a VALU encoding (gfx9 VOP3P included)."""
    w0 = words[0]
    gfx8 = gen in ("Gfx8", "Gfx9")
    if (w0 >> 26) == 0x34:  # VOP3 (gfx9 VOP3P too: its opcodes are in the same 10-bit field)
        return (w0 >> 16) & 0x3FF if gfx8 else (w0 >> 17) & 0x1FF
    if (w0 >> 25) == 0x3F:  # VOP1
        return (320 if gfx8 else 384) + ((w0 >> 9) & 0xFF)
    if (w0 >> 25) == 0x3E:  # VOPC
        return (w0 >> 17) & 0xFF
    if (w0 >> 31) == 0:  # VOP2
        return 256 + ((w0 >> 25) & 0x3F)
    return None


def decode_valu(gen, words, ops):
    op = vop3_opcode(gen, words)
    if op is None:
        return None
    return ("Valu", op), width_of(first_operand(ops))


def decode_valu_rdna(gen, words, ops):
    """RDNA: (class, opcode) and width; VDST is the encoding's field, None where there is none."""
    w0 = words[0]
    if (w0 >> 26) == 0x35:  # VOP3 (VOP3A and VOP3B)
        key, vdst = ("Valu", (w0 >> 16) & 0x3FF), w0 & 0xFF
    elif (w0 >> 23) == 0x198:  # VOP3P: its own 7-bit opcode
        key, vdst = ("Vop3p", (w0 >> 16) & 0x7F), w0 & 0xFF
    elif (w0 >> 25) == 0x3F:  # VOP1
        key, vdst = ("Valu", 384 + ((w0 >> 9) & 0xFF)), (w0 >> 17) & 0xFF
    elif (w0 >> 25) == 0x3E:  # VOPC: writes VCC
        key, vdst = ("Valu", (w0 >> 17) & 0xFF), None
    elif (w0 >> 31) == 0:  # VOP2
        key, vdst = ("Valu", 256 + ((w0 >> 25) & 0x3F)), (w0 >> 17) & 0xFF
    else:
        return None
    return key, width_of(first_operand(ops)) if vdst == 10 else 0


def decode_ds(gen, words, ops):
    w0 = words[0]
    if (w0 >> 26) != 0x36 or len(words) < 2:
        return None
    gfx8 = gen in ("Gfx8", "Gfx9")
    op = (w0 >> 17) & 0xFF if gfx8 else (w0 >> 18) & 0xFF
    vdst = words[1] >> 24
    if vdst != 10:
        return ("Ds", op), 0
    return ("Ds", op), width_of(first_operand(ops))


def disassembled_names(ver, cpu, encodings):
    """key -> the mnemonic llvm-mc's disassembler prints for that encoding (gfx8+ only),
    so that of two aliases the table keeps the one the disassembler uses."""
    keys = sorted(encodings)
    lines = [",".join(f"0x{x:02x}" for x in encodings[k]) + ",0x07,0x00,0x80,0xbf" for k in keys]
    out = run_mc(ver, cpu, "-disassemble", "\n".join(lines) + "\n")
    segs = [[]]
    for line in out.split("\n"):
        t = line.strip()
        if not t or t.startswith("."):
            continue
        if t.startswith("s_nop 7"):
            segs.append([])
        else:
            segs[-1].append(t)
    names = {}
    for k, seg in zip(keys, segs):
        if len(seg) == 1:
            names[k] = re.sub(r"_(e32|e64)$", "", seg[0].split()[0])
    return names


def collect(gen, cpu, ver, names, shapes, suffixes, decode):
    """Two passes: common shapes for every name, then every shape for the names left.
    Returns {(class, opcode): (mnemonic, width)}."""
    rdna = gen in RDNA
    rows, seen, encodings = {}, set(), {}
    for full in (False, True):
        lines = [(n + suf + " " + s).strip() for n in names if n not in seen
                 for suf in suffixes for s in shapes(full, rdna)]
        for line in run_mc(ver, cpu, "-show-encoding", "\n".join(lines) + "\n").split("\n"):
            m = ENC.match(line)
            if not m:
                continue
            mnem, ops, enc = m.group(1), m.group(2), m.group(3)
            b = [int(x, 16) for x in enc.split(",")]
            words = [b[i] | b[i + 1] << 8 | b[i + 2] << 16 | b[i + 3] << 24
                     for i in range(0, len(b) - 3, 4)]
            got = decode(gen, words, ops)
            if got is None:
                continue
            key, width = got
            base = re.sub(r"_(e32|e64)$", "", mnem)
            seen.add(base)
            prev = rows.get(key)
            if prev is not None and prev[1] != width:
                sys.exit(f"{gen} {key}: {prev} vs {(base, width)} ('{line.strip()}')")
            if prev is None or base < prev[0]:
                rows[key] = (base, width)
            encodings.setdefault(key, b)
    if gen not in ("Gfx6", "Gfx7"):
        for key, name in disassembled_names(ver, cpu, encodings).items():
            if key in rows and name in seen:
                rows[key] = (name, rows[key][1])
    return rows


def main():
    versions = {}
    for ver in sorted({v for _, _, v in GENS}):
        out = subprocess.run([tool(ver), "--version"], capture_output=True, text=True).stdout
        versions[ver] = out.split("LLVM version ")[1].split()[0]
    print("// Generated by scripts/gen-vgpr-table.py from llvm-mc " + versions[14] +
          " (GCN) and " + versions[15] + " (RDNA); do not edit.")
    print("// {generation, class, opcode, mnemonic, VGPRs written by VDST, behaviour}")
    for gen, cpu, ver in GENS:
        valu, ds = mnemonics("v_", ver), mnemonics("ds_", ver)
        decode = decode_valu_rdna if gen in RDNA else decode_valu
        rows = collect(gen, cpu, ver, valu, shapes_valu, ["_e64", ""], decode)
        rows.update(collect(gen, cpu, ver, ds, shapes_ds, [""], decode_ds))
        order = {"Valu": 0, "Ds": 1, "Vop3p": 2}  # VgprClass's values
        for cls, op in sorted(rows, key=lambda k: (order[k[0]], k[1])):
            name, width = rows[(cls, op)]
            print(f'{{Gen::{gen}, VgprClass::{cls}, {op}, "{name}", {width}, '
                  f'VgprBehaviour::{BEHAVIOURS.of(cls, name)}}},')
    BEHAVIOURS.check_every_name_seen()


if __name__ == "__main__":
    main()
