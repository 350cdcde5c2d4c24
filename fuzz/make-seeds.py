"""Writes the seed corpora of the fuzzers into fuzz/corpus/ (run from the
repository root). The seeds are committed; this records where they come
from. Each is small: libFuzzer limits inputs to the largest seed's size.
"""
import os
import re
import struct
import sys

sys.path.insert(0, "test/Runtime/Inputs")
from make_npy import encode  # noqa: E402


def write(corpus, name, data):
    os.makedirs(os.path.join("fuzz/corpus", corpus), exist_ok=True)
    if isinstance(data, str):
        data = data.encode()
    with open(os.path.join("fuzz/corpus", corpus, name), "wb") as f:
        f.write(data)


def npy_v2(descr, shape, data):
    """A version 2.0 file: four header length bytes."""
    shape_text = "(" + ", ".join(map(str, shape)) + \
        ("," if len(shape) == 1 else "") + ")"
    header = "{'descr': '%s', 'fortran_order': False, 'shape': %s}" % (
        descr, shape_text)
    header += " " * ((64 - (12 + len(header) + 1) % 64) % 64) + "\n"
    return b"\x93NUMPY\x02\x00" + struct.pack("<I", len(header)) + \
        header.encode() + data


# The .npy reader: each dtype, a scalar, an empty array, version 2.0, and a
# few near misses.
write("npy", "u2-2x3", encode("<u2", [2, 3], [1, 2, 3, 4, 5, 6]))
write("npy", "u1-4", encode("|u1", [4], [0, 127, 128, 255]))
write("npy", "i1-scalar", encode("|i1", [], [-1]))
write("npy", "i4-indptr", encode("<i4", [3], [0, 1, 5]))
write("npy", "i8-2x2", encode("<i8", [2, 2], [1, -1, 2, -2]))
write("npy", "f4-1", encode("<f4", [1], [0.5]))
write("npy", "u2-0x16x576", encode("<u2", [0, 16, 576]))
write("npy", "f2-v2", npy_v2("<f2", [2], b"\x00\x3c\x00\xc0"))
write("npy", "fortran", encode("<i4", [2, 2], fortran=True))
write("npy", "big-endian", encode(">u2", [2]))

# mla-run --inputs: byte 0 picks the base problem and the file to replace
# (ProblemFuzzer.cpp); seeds are valid files.
for f, kv in enumerate(["bf16", "fp8", "fp8_fnuz", "mxfp4"]):
    def seed(name, index, data, base=f):
        write("problem", "%s-%s" % (kv, name), bytes([5 * base + index]) + data)
    seed("qo_indptr", 0, encode("<i4", [4], [0, 1, 5, 5]))
    seed("kv_indptr", 1, encode("<i4", [4], [0, 3, 3, 4]))
    seed("q-empty", 2, encode("<u2", [0, 16, 576]))
    if kv == "bf16":
        seed("kv", 3, encode("<u2", [4, 1, 576]))
    elif kv.startswith("fp8"):
        seed("kv", 3, encode("|u1", [4, 576]))
        seed("kv_scale", 4, encode("<f4", [1], [2.0]))
    else:
        seed("kv", 3, encode("|u1", [4, 1, 288]))
        seed("kv_scale", 4, encode("|u1", [4, 24], [127] * 96))
    # The base without KV rows.
    seed("nokv-kv_indptr", 1, encode("<i4", [4], [0, 0, 0, 0]), base=f + 4)
    if kv == "mxfp4":
        seed("nokv-kv_scale", 4, encode("|u1", [0, 18]), base=f + 4)
        # A finding: a stride beyond i32 was accepted.
        seed("nokv-kv_scale-wide", 4, encode("|u1", [0, 2**31]), base=f + 4)

# Manifests: the runtime tests' module, and one using every optional field.
with open("test/Runtime/Inputs/mla_host.so.json") as f:
    write("manifest", "mla_host", f.read())
write("manifest", "optional-fields", """{
  "target": "sm_90", "binary": "k\\u00e9rnels.cubin",
  "kernels": [
    {"symbol": "scale", "args": [{"name": "x", "kind": "ptr", "type": "f32"},
                                 {"name": "n", "kind": "scalar", "type": "i64"}],
     "workgroup_size": [128, 1, 1], "lds_bytes": 1024,
     "dynamic_lds_bytes": 512, "registers": 64, "spills": 0,
     "launch": {"grid": [["ceildiv", {"arg": "n"}, 64], 2, 1],
                "requires": [["le", {"arg": "n"}, 4096]], "free_grid": true,
                "kv_tile": 64, "ratio": 1.5e-3,
                "flags": [true, false, null], "nested": {"a": [[]]}}}
  ]
}
""")

# .mlir: the small examples and one kernel per high-level op, without
# their RUN and CHECK lines.
def strip(text):
    return "".join(line for line in text.splitlines(True)
                   if not line.lstrip().startswith("//"))


for name in ["softmax", "gemm"]:
    with open("examples/%s.mlir" % name) as f:
        write("mlir", name, strip(f.read()))
for name in ["decompose-qk-softmax-acc", "decompose-split-reduce",
             "decompose-dot-scaled", "canonicalize-memory", "invalid-loop"]:
    with open("test/Dialect/Tile/%s.mlir" % name) as f:
        for i, case in enumerate(f.read().split("// -----")):
            case = strip(case).strip() + "\n"
            if len(case) > 40:
                write("mlir", "%s-%d" % (name, i), case)
