#!/usr/bin/env python3
"""Writes the edited saved listings of this folder from the unedited base-*.lst files.

The base files are RADV's listings as `gcnprobe isa --dump-asm` prints them (Mesa 25.0.7,
null device: tonga's texel.uniform.r32g32_uint.load_format_xy, navi31's
storage.load_dword.offset0). Each edit below inserts or replaces lines; the words of every new
instruction come from llvm-mc (-mcpu=tonga for gfx8, llvm-mc-15 -mcpu=gfx1100 for gfx11), never
from gcnprobe, and every branch to a BB label is re-encoded for its new distance. Each output
file says in its header what the edit does and what `gcnprobe isa --prove` must answer:
`# expect: proven` or `# expect: refused: <text the reason contains>`.
tests/harness/isa/data_path_test.cpp (SavedListing.EditedListingsOfThisFolder) checks them all.

Run from anywhere: python3 make-edits.py [OUT_DIR] (needs llvm-mc and llvm-mc-15); OUT_DIR
defaults to this folder (the ctest isa.ListingEditsAreReproducible writes elsewhere and diffs).
"""
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = sys.argv[1] if len(sys.argv) > 1 else HERE
MC = {"gfx8": ["llvm-mc", "-arch=amdgcn", "-mcpu=tonga"],
      "gfx11": ["llvm-mc-15", "-arch=amdgcn", "-mcpu=gfx1100"]}


def encode(gen, text):
    """The dwords of one instruction, little-endian bytes from llvm-mc -show-encoding."""
    out = subprocess.run(MC[gen] + ["-show-encoding"], input=text + "\n", capture_output=True,
                         text=True, check=True).stdout
    m = re.search(r"encoding: \[([^\]]*)\]", out)
    if not m:
        raise SystemExit(f"llvm-mc has no encoding for '{text}': {out}")
    b = [int(x, 16) for x in m.group(1).split(",")]
    return [b[i] | b[i + 1] << 8 | b[i + 2] << 16 | b[i + 3] << 24 for i in range(0, len(b), 4)]


def line(gen, text):
    # A branch to a label is encoded with offset 0 here; fix_branches sets it.
    mc_text = re.sub(r"\bBB\d+\b", "0", text)
    words = encode(gen, mc_text)
    return "\t" + text.ljust(60) + "; " + " ".join(f"{w:08x}" for w in words)


def words_of(l):
    return [int(w, 16) for w in l.split(";")[1].split()] if ";" in l and not l.startswith("#") \
        else []


def fix_branches(lines, body_start):
    """Re-encodes SIMM16 of every SOPP branch that names a BB label."""
    pos, labels, at = 0, {}, []
    for i, l in enumerate(lines[body_start:], body_start):
        m = re.match(r"(BB\d+):$", l.strip())
        if m:
            labels[m.group(1)] = pos
        at.append((i, pos))
        pos += len(words_of(l))
    out = list(lines)
    for i, p in at:
        l = lines[i]
        m = re.match(r"\t(s_cbranch_\w+|s_branch) (BB\d+)\s", l)
        if not m:
            continue
        w = words_of(l)
        simm = (labels[m.group(2)] - (p + 1)) & 0xffff
        w[0] = (w[0] & 0xffff0000) | simm
        out[i] = l.split(";")[0] + "; " + " ".join(f"{x:08x}" for x in w)
    return out


def make(name, base, gen, what, expect, edits):
    lines = [l for l in open(os.path.join(HERE, base)).read().splitlines() if not l.startswith("#")]
    body = next(i for i, l in enumerate(lines) if l.startswith("BB0:"))
    for kind, anchor, texts in edits:
        # An anchor is a line's text, or (text, k) for its k-th occurrence.
        text, k = anchor if isinstance(anchor, tuple) else (anchor, None)
        idx = [i for i, l in enumerate(lines) if i >= body and text in l]
        if k is not None:
            idx = idx[k:k + 1]
        if len(idx) != 1:
            raise SystemExit(f"{name}: anchor '{anchor}' matches {len(idx)} lines")
        # A label; an instruction with its words given ("text ; words": one llvm-mc lacks); or
        # an instruction llvm-mc encodes.
        new = [t if t.endswith(":") else
               "\t" + t.split(" ; ")[0].ljust(60) + "; " + t.split(" ; ")[1] if " ; " in t else
               line(gen, t) for t in texts]
        i = idx[0]
        if kind == "before":
            lines[i:i] = new
        elif kind == "after":
            lines[i + 1:i + 1] = new
        else:
            lines[i:i + 1] = new
    lines = fix_branches(lines, body)
    head = [f"# {what}", f"# expect: {expect}",
            f"# Made by make-edits.py from {base}; new words from llvm-mc."]
    with open(os.path.join(OUT, name), "w") as f:
        f.write("\n".join(head + lines) + "\n")


LOAD = "base-tonga-texel-load.lst"
STORE_OUT = "buffer_store_dwordx2 v[2:3], v0, s[0:3], 0 offen"
CASE = "buffer_load_format_xy v[2:3], v1, s[8:11], 0 idxen"
G8 = "gfx8"

make("family-01-exec.lst", LOAD, G8,
     "EXEC: only lane 0 before the narrowing, so enabled lanes other than 0 never run the case",
     "refused: runs with EXEC = a lane mask the proof cannot name",
     [("before", "v_cmpx_ne_i32_e32 vcc, 0, v2", ["s_mov_b64 exec, 1"])])
make("family-02-other-out-writer.lst", LOAD, G8,
     "Other writers of Out: after the result store, a store through an address computed another "
     "way (v0 + 0) puts the In address word in component 0's slot",
     "refused: writes the lane's Out dword 0 with",
     [("after", STORE_OUT, ["v_add_u32_e32 v5, vcc, 0, v0",
                            "buffer_store_dword v1, v5, s[0:3], 0 offen"])])
make("family-03-out-width.lst", LOAD, G8,
     "Width: the result stored to Out as a byte in place of the dword store",
     "refused: writes Out, and not as whole dwords",
     [("replace", STORE_OUT, ["buffer_store_byte v2, v0, s[0:3], 0 offen"])])
make("family-04-out-address.lst", LOAD, G8,
     "Out address: offset:16 moves every lane's results into the next lane's slot",
     "refused: writes Out byte 16*lane + 16, which is no result slot of the storing lane",
     [("replace", STORE_OUT, ["buffer_store_dwordx2 v[2:3], v0, s[0:3], 0 offen offset:16"])])
make("family-05-in-word.lst", LOAD, G8,
     "In word: the texel index read from the lane's enable word (offset:256) instead of its "
     "index word",
     "refused: holds In's word at byte 4*lane + 256, not the lane's address word",
     [("replace", "buffer_load_dword v1, v1, s[4:7], 0 offen ",
       ["buffer_load_dword v1, v1, s[4:7], 0 offen offset:256"])])
make("family-06-unknown-addresses.lst", LOAD, G8,
     "Two addresses the proof cannot follow: a uniform branch picks which of two computed "
     "addresses the components go to",
     "refused: stores to Out at an address the proof cannot compare with the other Out stores'",
     [("replace", STORE_OUT, ["s_cbranch_scc0 BB3",
                              "v_add_u32_e32 v5, vcc, 4, v0",
                              "v_add_u32_e32 v6, vcc, 8, v0",
                              "BB3:",
                              "buffer_store_dword v2, v5, s[0:3], 0 offen",
                              "buffer_store_dword v3, v6, s[0:3], 0 offen offset:4"])])
make("family-07-sgpr-soffset.lst", LOAD, G8,
     "SGPR SOFFSET: the SGPR changes between the two component stores",
     "refused: stores to Out at an address the proof cannot compare with the other Out stores'",
     [("replace", STORE_OUT, ["buffer_store_dword v2, v0, s[0:3], s9 offen",
                              "s_add_u32 s9, s9, 4",
                              "buffer_store_dword v3, v0, s[0:3], s9 offen offset:4"])])
make("family-08-every-path.lst", LOAD, G8,
     "Every path: a uniform branch skips the only Out store",
     "refused: without storing result component 0 to Out while lanes may be enabled",
     [("before", STORE_OUT, ["s_cbranch_scc0 BB6"])])
make("family-09-mode.lst", LOAD, G8,
     "Modes: s_set_gpr_idx_on redirects the source of a v_mov_b32 that looks like a copy",
     "refused: sets a mode that changes what later vector instructions do",
     [("before", STORE_OUT, ["s_set_gpr_idx_on s2, gpr_idx(SRC0)", "v_mov_b32_e32 v2, v2",
                             "s_set_gpr_idx_off"])])
make("family-10-width-row.lst", "base-navi31-storage-load.lst", "gfx11",
     "A missing width row: GFX11 v_swap_b16 (LLVM 15 does not know it; words written by hand: "
     "VOP1 opcode 0x66) after the case load",
     "refused: 'v_swap_b16 v5, v1'",
     [("after", "buffer_load_b32 v1, v1, s[8:11], 0 offen", ["v_swap_b16 v5, v1 ; 7e0acd01"])])
make("family-11-case-buffer-write.lst", LOAD, G8,
     "Other writes to the case's buffers: a store to the texel buffer (set 0 binding 0) after "
     "the load",
     "refused: writes set 0 binding 0, which is not Out",
     [("before", STORE_OUT, ["buffer_store_dword v2, v1, s[8:11], 0 idxen"])])
make("family-12-pointer-high-half.lst", LOAD, G8,
     "The pointer's high half: s3 = 0x1234 before the case's V# load",
     "refused: its high half the driver's constant 0x00000000",
     [("before", "s_load_dwordx4 s[8:11], s[2:3], 0x0", ["s_mov_b32 s3, 0x1234"])])

# Holes an adversarial review found in the first version of the lane terms and the EXEC flow.
make("family-13-exec-narrower.lst", LOAD, G8,
     "EXEC set to lane 0 around the address-word load, then restored to the enabled lanes: the "
     "other lanes keep 4*lane in v1",
     "refused: VADDR register v1 holds a value the proof cannot follow",
     [("before", "buffer_load_dword v1, v1, s[4:7], 0 offen ",
       ["v_cmp_ne_u32_e64 s[12:13], 0, v2", "s_mov_b64 exec, 1"]),
      ("after", "buffer_load_dword v1, v1, s[4:7], 0 offen ", ["s_mov_b64 exec, s[12:13]"])])
make("family-14-waitcnt.lst", LOAD, G8,
     "No s_waitcnt vmcnt before the Out store: it reads v[2:3] before the case load returns",
     "refused: reads v2, written by 'buffer_load_format_xy v[2:3], v1, s[8:11], 0 idxen'",
     [("replace", ("s_waitcnt vmcnt(0) lgkmcnt(0)", 1), ["s_waitcnt lgkmcnt(0)"])])
make("family-15-lds-bit.lst", LOAD, G8,
     "The address-word load with LDS set: its data goes to LDS, v1 keeps 4*lane",
     "refused: VADDR register v1 holds the value written by 'v_lshlrev_b32_e32 v1, 2, v0'",
     [("replace", "buffer_load_dword v1, v1, s[4:7], 0 offen ",
       ["buffer_load_dword v1, v1, s[4:7], 0 offen lds"])])
make("family-16-wave-end.lst", LOAD, G8,
     "s_endpgm_saved before the Out store: the wave ends there",
     "refused: stops the wave or enters the trap handler",
     [("before", STORE_OUT, ["s_endpgm_saved"])])
make("family-17-endless-loop.lst", LOAD, G8,
     "A loop that never ends before the Out store",
     "refused: branches back: the proof does not show that a loop ends",
     [("before", STORE_OUT, ["s_cmp_eq_u32 0, 0", "BB9:", "s_cbranch_scc1 BB9"])])
make("family-18-dealloc-vgprs.lst", "base-navi31-storage-load.lst", "gfx11",
     "GFX11: the VGPRs released before the Out store reads them",
     "refused: releases the VGPRs before the end of the program",
     [("before", "buffer_store_b32 v1, v0, s[0:3], 0 offen",
       ["s_sendmsg sendmsg(MSG_DEALLOC_VGPRS)"])])

# A second review.
make("family-19-exec-half-copy.lst", LOAD, G8,
     "EXEC from a mask whose low half was copied into its high half: lanes 32-63 run when lanes "
     "0-31 are enabled",
     "refused: runs with EXEC = a lane mask the proof cannot name",
     [("replace", "v_cmpx_ne_i32_e32 vcc, 0, v2",
       ["v_cmp_ne_u32_e64 s[12:13], 0, v2", "s_mov_b32 s13, s12",
        "s_and_saveexec_b64 s[0:1], s[12:13]"])])
make("family-20-wide-store-hazard.lst", "base-tonga-texel-load-xyzw.lst", G8,
     "A VALU write of a dwordx4 store's data right after it (GFX7 on: one wait state needed)",
     "refused: right after the store of more than 64 bits that reads it",
     [("after", "buffer_store_dwordx4 v[4:7], v0, s[0:3], 0 offen", ["v_mov_b32_e32 v7, 0"])])

make("family-21-sopk-reads-pending.lst", LOAD, G8,
     "A SOPK compare reads its SDST field: s12 before the scalar load of it returns",
     "refused: reads s12",
     [("after", "s_load_dwordx4 s[8:11], s[2:3], 0x0",
       ["s_load_dword s12, s[2:3], 0x30", "s_cmpk_eq_u32 s12, 0x1"])])

make("family-22-valu-sgpr-pair.lst", LOAD, G8,
     "A VALU reads the SGPR pair s[12:13] while a scalar load of s13 alone is outstanding",
     "refused: reads s13",
     [("after", "s_load_dwordx4 s[8:11], s[2:3], 0x0",
       ["s_load_dword s13, s[2:3], 0x30", "v_lshlrev_b64 v[6:7], 1, s[12:13]"])])

make("family-23-smem-sgpr-offset.lst", LOAD, G8,
     "A scalar load whose SGPR offset (s12) another scalar load has not returned",
     "refused: reads s12",
     [("after", "s_load_dwordx4 s[8:11], s[2:3], 0x0",
       ["s_load_dword s12, s[2:3], 0x30", "s_load_dword s13, s[2:3], s12"])])
make("family-24-vcc-load.lst", LOAD, G8,
     "A scalar load into VCC read by the next instruction",
     "refused: reads vcc_lo",
     [("after", "s_load_dwordx4 s[8:11], s[2:3], 0x0",
       ["s_load_dwordx2 vcc, s[2:3], 0x30", "s_and_b64 s[12:13], s[4:5], vcc"])])
make("family-25-movrels.lst", LOAD, G8,
     "A relative scalar move reads SGPR[s4 + M0], any SGPR: s8 is still loading",
     "refused: reads s8",
     [("after", "s_load_dwordx4 s[8:11], s[2:3], 0x0", ["s_movrels_b32 s14, s4"])])
make("family-26-packed-math-sgpr.lst", "base-navi31-storage-load.lst", "gfx11",
     "A packed-math VALU reads s12 before the scalar load of it returns",
     "refused: reads s12",
     [("after", "s_load_b128 s[8:11], s[2:3], null",
       ["s_load_b32 s12, s[2:3], 0x30", "v_pk_add_u16 v6, s12, v3"])])
make("family-27-dual-issue-sgpr.lst", "base-navi31-storage-load.lst", "gfx11",
     "A dual-issue VALU reads s12 before the scalar load of it returns",
     "refused: reads s12",
     [("after", "s_load_b128 s[8:11], s[2:3], null",
       ["s_load_b32 s12, s[2:3], 0x30", "v_dual_mov_b32 v6, s12 :: v_dual_mov_b32 v7, v3"])])

make("proven-mul24-address.lst", LOAD, G8,
     "A true edit: the Out address as a 24-bit multiply by 16 instead of a shift by 4",
     "proven",
     [("replace", "v_lshlrev_b32_e32 v0, 4, v0", ["v_mul_u32_u24_e32 v0, 16, v0"])])
make("proven-saveexec.lst", LOAD, G8,
     "A true edit: EXEC narrowed by v_cmp_ne_u32 and s_and_saveexec_b64 instead of v_cmpx",
     "proven",
     [("replace", "v_cmpx_ne_i32_e32 vcc, 0, v2", ["v_cmp_ne_u32_e32 vcc, 0, v2",
                                                  "s_and_saveexec_b64 s[0:1], vcc"])])
make("proven-scalar-shift.lst", LOAD, G8,
     "A true edit: a 64-bit shift whose amount (s7, one SGPR) is loaded and waited for while "
     "s8, the next SGPR, is still loading",
     "proven",
     [("after", "s_load_dwordx4 s[8:11], s[2:3], 0x0", ["s_lshl_b64 s[12:13], s[4:5], s7"])])
make("proven-copies.lst", LOAD, G8,
     "A true edit: the results copied to v[4:5] before the store",
     "proven",
     [("replace", STORE_OUT, ["v_mov_b32_e32 v4, v2", "v_mov_b32_e32 v5, v3",
                              "buffer_store_dwordx2 v[4:5], v0, s[0:3], 0 offen"])])
