"""AMDGPU code objects as llvm-objdump disassembles them: the instructions
of each kernel and their control flow. Shared by loop_mix.py and
lds_barriers.py.
"""

import argparse
import collections
import re
import shutil
import subprocess
import sys

Instruction = collections.namedtuple("Instruction", "offset op operands target")
Instruction.__doc__ = """One instruction: its byte offset in the kernel, its
mnemonic (with ".lds" for a load into LDS), its operand text and the offset
its branch goes to in the same kernel (None when it is not such a branch)."""

LINE = re.compile(r"^\s+(\S+)([^/]*)//\s*([0-9A-Fa-f]+):")
TARGET = re.compile(r"<([\w.]+)\+0x([0-9a-f]+)>\s*$")
KERNEL = re.compile(r"^([0-9a-f]+) <([\w.]+)>:$")
UNCONDITIONAL = re.compile(r"s_branch$|s_endpgm|s_setpc_b64$")


def fail(tool, message):
    sys.exit(f"{tool}: error: {message}")


def objdump_tool(tool, explicit):
    for name in [explicit, "llvm-objdump-22", "/usr/lib/llvm-22/bin/llvm-objdump"]:
        if name and shutil.which(name):
            return name
    fail(tool, "llvm-objdump (llvm-22) not found")


def chip_of(tool, path):
    """The gfx chip an AMDGPU object (code object or relocatable) is for."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        fail(tool, f"{path}: {e.strerror}")
    match = re.search(rb"amdgcn-amd-amdhsa--(gfx[0-9a-f]+)", data)
    if not match:
        fail(tool, f"{path}: no AMDGPU target in the object")
    return match.group(1).decode()


def disassemble(tool, path, mcpu=None, objdump=None):
    """(chip, llvm-objdump -d text) of the object at `path`."""
    mcpu = mcpu or chip_of(tool, path)
    run = subprocess.run([objdump_tool(tool, objdump), "-d", f"--mcpu={mcpu}", path],
                         capture_output=True, text=True)
    if run.returncode != 0:
        fail(tool, f"{path}: {run.stderr.strip()}")
    return mcpu, run.stdout


def disassemble_command_line(tool, doc, add_options=None):
    """(object path, chip, disassembly) from the command line the utilities
    share: OBJECT [--mcpu CHIP] [--objdump PATH], described by `doc`. With
    `add_options` (called with the parser to add a tool's own), the parsed
    arguments come fourth."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("object")
    parser.add_argument("--mcpu")
    parser.add_argument("--objdump")
    if add_options:
        add_options(parser)
    args = parser.parse_args()
    mcpu, text = disassemble(tool, args.object, args.mcpu, args.objdump)
    if add_options:
        return args.object, mcpu, text, args
    return args.object, mcpu, text


def kernels(text):
    """{kernel: [Instruction]} of a disassembly."""
    result, current, start = {}, None, 0
    for line in text.splitlines():
        if m := KERNEL.match(line):
            current, start = m.group(2), int(m.group(1), 16)
            result[current] = []
            continue
        m = LINE.match(line)
        if not m or current is None:
            continue
        target = None
        if (t := TARGET.search(line)) and t.group(1) == current:
            target = int(t.group(2), 16)
        op, operands = m.group(1), m.group(2).strip()
        if operands.split()[-1:] == ["lds"]:
            op += ".lds"
        result[current].append(
            Instruction(int(m.group(3), 16) - start, op, operands, target))
    return result


def control_flow(code):
    """The basic blocks of `code` as (first, end) index ranges, and each
    block's successors."""
    index = {ins.offset: i for i, ins in enumerate(code)}
    starts = {0} | {index[ins.target] for ins in code if ins.target in index}
    starts |= {i + 1 for i, ins in enumerate(code) if ins.target is not None}
    starts = sorted(s for s in starts if s < len(code))
    blocks = list(zip(starts, starts[1:] + [len(code)]))
    block_of = {first: b for b, (first, _) in enumerate(blocks)}
    succs = []
    for b, (_, end) in enumerate(blocks):
        last = code[end - 1]
        out = set()
        if last.target in index:
            out.add(block_of[index[last.target]])
        if not UNCONDITIONAL.match(last.op) and b + 1 < len(blocks):
            out.add(b + 1)
        succs.append(out)
    return blocks, succs
