#!/usr/bin/env python3
"""Writes reference/vgpr_table.inc: for every VALU (VOP3 opcode space) and DS opcode that
LLVM's AMDGPU assembler knows on tahiti (gfx6), bonaire (gfx7), tonga (gfx8) and gfx900
(gfx9), its mnemonic and how many VGPRs its VDST writes (0: none, or an SGPR destination).

The data-path proof (harness/isa/data_path.h) must know which registers an instruction
writes; GFX6/7 listings are raw words, so the widths come from the encoding, not the text.
Method: every v_* and ds_* mnemonic in libLLVM's assembler tables is assembled by llvm-mc
with a list of operand shapes; the first shape llvm-mc accepts gives the encoding (hence the
opcode) and the destination's register count. tests/reference/vgpr_table_test.cpp checks
every row against llvm-mc again (and, on gfx8/9, every opcode its disassembler knows).

Usage: scripts/gen-vgpr-table.py > reference/vgpr_table.inc  (needs llvm-mc and libLLVM)
"""
import glob
import itertools
import re
import subprocess
import sys
import tempfile

CPUS = [("Gfx6", "tahiti"), ("Gfx7", "bonaire"), ("Gfx8", "tonga"), ("Gfx9", "gfx900")]

DSTS = ["v10", "v[10:11]", "v[10:12]", "v[10:13]", "s10", "s[10:11]",
        "v10, s[12:13]", "v[10:11], s[12:13]"]


def src(kind, k):
    """Operand kind at source position k, with register numbers that alias nothing."""
    a, b = 20 + 10 * k, 60 + 4 * k
    return {"v": f"v{a}", "v2": f"v[{a}:{a + 1}]", "v3": f"v[{a}:{a + 2}]",
            "v4": f"v[{a}:{a + 3}]", "s": f"s{b}", "s2": f"s[{b}:{b + 1}]", "i": "0"}[kind]


def mnemonics(prefix):
    lib = sorted(glob.glob("/usr/lib/llvm-*/lib/libLLVM-*.so.1"))[-1]
    out = subprocess.run(["strings", lib], capture_output=True, text=True, check=True).stdout
    # Names also sit inside longer strings (tab-separated tables, tail-merged literals), so
    # every token is taken; tokens that are no mnemonic simply fail to assemble.
    names = set()
    for tok in re.findall(r"(?<![A-Za-z0-9_])(" + prefix + r"[a-z0-9_]+)", out):
        names.add(re.sub(r"_(e32|e64|dpp|sdwa|dpp8)$", "", tok))
    return sorted(names)


def shapes_valu(full):
    kinds = ["v", "v2", "v4", "s", "s2", "i"] if full else ["v", "v2"]
    if full:
        yield ""  # v_nop, v_clrexcp
        for d in ("v10", "v[10:11]"):  # v_interp_*: an attribute operand
            yield d + ", v20, attr0.x"
            yield d + ", s0, attr0.x"
            yield d + ", v20, attr0.x, v40"
            yield d + ", v20, attr0.x, v40 high"
            yield d + ", v20, attr0.x, v40, v[50:51]"
            yield d + ", p10, attr0.x"
    for d in DSTS if full else DSTS[:2] + DSTS[5:7]:
        yield d
        for n in (1, 2, 3):
            for ks in itertools.product(kinds, repeat=n):
                yield d + ", " + ", ".join(src(kd, k) for k, kd in enumerate(ks))
        if full and d in ("v10, s[12:13]", "v[10:11], s[12:13]"):
            # v_addc/v_subb: a carry-in SGPR pair after the two sources
            for ka, kb in itertools.product(["v", "s"], ["v", "s"]):
                yield d + ", " + src(ka, 0) + ", " + src(kb, 1) + ", s[14:15]"


def shapes_ds(full):
    firsts = ["v10", "v[10:11]", "v[10:12]", "v[10:13]"] if full else ["v10", "v[10:11]"]
    kinds = ["v", "v2", "v3", "v4"] if full else ["v", "v2"]
    for f in firsts:
        yield f
        for n in (1, 2, 3):
            for ks in itertools.product(kinds, repeat=n):
                yield ", ".join([f] + [src(kd, k) for k, kd in enumerate(ks)])
        if full:
            yield f + ", " + src("v", 0) + ", " + src("v", 1) + ", " + src("v", 2) + " gds"


def assemble(cpu, lines):
    with tempfile.NamedTemporaryFile("w", suffix=".s", delete=False) as f:
        f.write("\n".join(lines) + "\n")
        path = f.name
    r = subprocess.run(["llvm-mc", "-arch=amdgcn", "-mcpu=" + cpu, "-show-encoding", path],
                       capture_output=True, text=True)
    return r.stdout


ENC = re.compile(r"^\s*(\S+)\s*(.*?)\s*; encoding: \[(.*)\]")


def width_of(op):
    op = op.strip()
    m = re.fullmatch(r"v\[(\d+):(\d+)\]", op)
    if m:
        return int(m.group(2)) - int(m.group(1)) + 1
    if re.fullmatch(r"v\d+", op):
        return 1
    return 0


def vop3_opcode(gen, words):
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


def disassembled_names(cpu, encodings):
    """opcode -> the mnemonic llvm-mc's disassembler prints for that encoding (gfx8+ only),
    so that of two aliases the table keeps the one the disassembler uses."""
    ops = sorted(encodings)
    lines = [",".join(f"0x{x:02x}" for x in encodings[op]) + ",0x07,0x00,0x80,0xbf" for op in ops]
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write("\n".join(lines) + "\n")
        path = f.name
    out = subprocess.run(["llvm-mc", "-arch=amdgcn", "-mcpu=" + cpu, "-disassemble", path],
                         capture_output=True, text=True).stdout
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
    for op, seg in zip(ops, segs):
        if len(seg) == 1:
            names[op] = re.sub(r"_(e32|e64)$", "", seg[0].split()[0])
    return names


def collect(gen, cpu, names, shapes, suffixes, decode):
    """Two passes: common shapes for every name, then every shape for the names left."""
    rows, seen, encodings = {}, set(), {}
    for full in (False, True):
        lines = [(n + suf + " " + s).strip() for n in names if n not in seen
                 for suf in suffixes for s in shapes(full)]
        for line in assemble(cpu, lines).split("\n"):
            m = ENC.match(line)
            if not m:
                continue
            mnem, ops, enc = m.group(1), m.group(2), m.group(3)
            b = [int(x, 16) for x in enc.split(",")]
            words = [b[i] | b[i + 1] << 8 | b[i + 2] << 16 | b[i + 3] << 24
                     for i in range(0, len(b) - 3, 4)]
            key = decode(gen, words, ops)
            if key is None:
                continue
            opcode, width = key
            base = re.sub(r"_(e32|e64)$", "", mnem)
            seen.add(base)
            prev = rows.get(opcode)
            if prev is not None and prev[1] != width:
                sys.exit(f"{gen} opcode {opcode}: {prev} vs {(base, width)}")
            if prev is None or base < prev[0]:
                rows[opcode] = (base, width)
            encodings.setdefault(opcode, b)
    if gen in ("Gfx8", "Gfx9"):
        for op, name in disassembled_names(cpu, encodings).items():
            if op in rows and name in seen:
                rows[op] = (name, rows[op][1])
    return rows


def decode_valu(gen, words, ops):
    op = vop3_opcode(gen, words)
    if op is None:
        return None
    first = ops.split(",")[0] if ops else ""
    first = ops[: ops.index("]") + 1] if ops.startswith("v[") else first
    return op, width_of(first)


def decode_ds(gen, words, ops):
    w0 = words[0]
    if (w0 >> 26) != 0x36 or len(words) < 2:
        return None
    gfx8 = gen in ("Gfx8", "Gfx9")
    op = (w0 >> 17) & 0xFF if gfx8 else (w0 >> 18) & 0xFF
    vdst = words[1] >> 24
    if vdst != 10:
        return op, 0
    first = ops[: ops.index("]") + 1] if ops.startswith("v[") else ops.split(",")[0]
    return op, width_of(first)


def main():
    valu = mnemonics("v_")
    ds = mnemonics("ds_")
    print("// Generated by scripts/gen-vgpr-table.py from llvm-mc " +
          subprocess.run(["llvm-mc", "--version"], capture_output=True, text=True)
          .stdout.split("LLVM version ")[1].split()[0] + "; do not edit.")
    print("// {generation, class, opcode, mnemonic, VGPRs written by VDST}")
    for gen, cpu in CPUS:
        rows = collect(gen, cpu, valu, shapes_valu, ["_e64", ""], decode_valu)
        for op in sorted(rows):
            print(f'{{Gen::{gen}, VgprClass::Valu, {op}, "{rows[op][0]}", {rows[op][1]}}},')
        rows = collect(gen, cpu, ds, shapes_ds, [""], decode_ds)
        for op in sorted(rows):
            print(f'{{Gen::{gen}, VgprClass::Ds, {op}, "{rows[op][0]}", {rows[op][1]}}},')


if __name__ == "__main__":
    main()
