#!/usr/bin/env python3
"""The Python module over the reference model (python/gcnprobe_reference.cpp, docs/python.md).

Its answers must agree with the C++ program (`gcnprobe convert`, `gcnprobe vsharp`) and the
streaming oracle (`gcnprobe oracle`) on the same questions, and with independent values: an
8-bit UNORM component c loads as the float nearest c/255 (struct packs Python's correctly
rounded double to float32: nearest-even, as the one division is), llvm-mc 14's encoding of
"buffer_load_format_xyzw v[1:4], v0, s[4:7], 0 idxen" for tonga is e00c2000 80010100.
Usage: test_reference.py MODULE_DIR GCNPROBE_PROGRAM
"""
import json
import struct
import subprocess
import sys
import unittest

sys.path.insert(0, sys.argv[1])
GCNPROBE = sys.argv[2]
import gcnprobe_reference as ref  # noqa: E402


def f32_bits(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


class Reference(unittest.TestCase):
    def test_convert_agrees_with_gcnprobe_convert_and_the_division(self):
        got = ref.convert_load("gfx8", "8_8_8_8", "unorm", [0x80402010])
        self.assertEqual(got, [f32_bits(c / 255.0) for c in (0x10, 0x20, 0x40, 0x80)])
        for gen, dfmt, nfmt, words in [("gfx8", "8_8_8_8", "unorm", [0x80402010]),
                                       ("gfx6", "16_16", "snorm", [0x80017fff]),
                                       ("gfx9", "10_11_11", "float", [0x7bc003e0])]:
            out = subprocess.run([GCNPROBE, "convert", "--gen", gen, "--dfmt", dfmt, "--nfmt",
                                  nfmt, "--load", ",".join(hex(w) for w in words)],
                                 capture_output=True, text=True, check=True).stdout
            want = [int(line.split()[1], 16) for line in out.splitlines()]
            self.assertEqual(ref.convert_load(gen, dfmt, nfmt, words), want, (gen, dfmt, nfmt))

    def test_query_agrees_with_the_streaming_oracle(self):
        q = {"id": 7, "chip": "tonga",
             "inst": "buffer_load_format_xyzw v[1:4], v0, s[4:7], 0 idxen",
             "vsharp": "base=0x1000 stride=4 num_records=4 dfmt=8_8_8_8 nfmt=unorm",
             "lanes": 2, "vgpr": {"0": [0, 7]}, "memory": {"base": 4096, "words": ["0x80402010"]}}
        py_answer = ref.query(q)
        line = subprocess.run([GCNPROBE, "oracle"], input=json.dumps(q) + "\n",
                              capture_output=True, text=True, check=True).stdout
        self.assertEqual(py_answer, json.loads(line))
        lane0 = py_answer["lanes"][0]["vdata"]
        self.assertEqual([int(v, 16) for v in lane0],
                         [f32_bits(c / 255.0) for c in (0x10, 0x20, 0x40, 0x80)])
        self.assertEqual(py_answer["lanes"][1]["vdata"], ["0x0"] * 4)  # out of range: zero
        self.assertEqual(json.loads(ref.oracle_line(json.dumps(q))), py_answer)

    def test_vsharp_and_instruction_round_trips(self):
        words = ref.vsharp_encode("gfx8", "base=0x1000 stride=16 num_records=64 dfmt=8_8_8_8 nfmt=unorm")
        out = subprocess.run([GCNPROBE, "vsharp", "--gen", "gfx8", "--encode",
                              "base=0x1000 stride=16 num_records=64 dfmt=8_8_8_8 nfmt=unorm"],
                             capture_output=True, text=True, check=True).stdout
        self.assertEqual(["0x%08x" % w for w in words], out.split("\n")[0].split())
        self.assertEqual(ref.vsharp_encode("gfx8", ref.vsharp_decode("gfx8", words)), words)
        w = ref.assemble("tonga", "buffer_load_format_xyzw v[1:4], v0, s[4:7], 0 idxen")
        self.assertEqual(list(w), [0xe00c2000, 0x80010100])
        self.assertEqual(ref.disassemble("tonga", *w),
                         "buffer_load_format_xyzw v[1:4], v0, s[4:7], 0 idxen")

    def test_policies_and_errors(self):
        points = {p["name"]: p for p in ref.policies("tonga")}
        self.assertEqual(points["alpha2"]["defaults"]["tonga"], "unsigned")  # Mesa's alpha adjust
        self.assertGreaterEqual(len(ref.policies()), 20)
        with self.assertRaises(ValueError):
            ref.convert_load("gfx8", "8_8_8_8", "nosuch", [0])
        with self.assertRaises(ValueError) as e:
            ref.query({"chip": "tonga", "inst": "buffer_load_dword v1"})
        self.assertIn("inst", str(e.exception))


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0]], verbosity=1)
