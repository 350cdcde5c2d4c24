#!/usr/bin/env python3
"""The instruction mix of each kernel's inner loop in an AMDGPU code object.

    utils/loop_mix.py OUT.hsaco [--mcpu gfx950] [--objdump PATH]

Disassembles the code object with llvm-objdump and, per kernel, counts the
instructions of its inner loop (the largest natural loop that holds no
other loop, its out-of-line blocks included: the KV loop of the partial
kernels) by family: matrix-core, narrow-format
conversions, exp, LDS reads by width, LDS writes, other LDS, global memory,
barriers, waits, other vector and scalar instructions; then the widths of
its LDS reads and of its global loads (`.lds`: a load straight into LDS).
The chip is read from the code object unless --mcpu names it.
"""

import argparse
import collections
import re
import shutil
import subprocess
import sys

FAMILIES = [
    ("mfma", r"v_mfma_"),
    ("cvt", r"v_cvt_\w*(fp8|bf8|fp4|scale)"),
    ("exp", r"v_exp_"),
    ("ds_read", r"ds_read|ds_load"),
    ("ds_write", r"ds_write|ds_store"),
    ("ds_other", r"ds_"),
    ("global", r"(buffer|global)_(load|store)"),
    ("barrier", r"s_barrier"),
    ("wait", r"s_waitcnt"),
    ("valu", r"v_"),
    ("salu", r"s_"),
]

LINE = re.compile(r"^\s+(\S+)([^/]*)//\s*([0-9A-Fa-f]+):")
TARGET = re.compile(r"<([\w.]+)\+0x([0-9a-f]+)>\s*$")
KERNEL = re.compile(r"^([0-9a-f]+) <([\w.]+)>:$")


def objdump_tool(explicit):
    for name in [explicit, "llvm-objdump-22", "/usr/lib/llvm-22/bin/llvm-objdump"]:
        if name and shutil.which(name):
            return name
    sys.exit("loop_mix.py: error: llvm-objdump (llvm-22) not found")


def chip_of(path):
    with open(path, "rb") as f:
        match = re.search(rb"amdgcn-amd-amdhsa--(gfx[0-9a-f]+)", f.read())
    if not match:
        sys.exit(f"loop_mix.py: error: {path}: no AMDGPU target in the code object")
    return match.group(1).decode()


def kernels(text):
    """{kernel: [(offset, instruction, branch target offset or None)]}, the
    instruction being its mnemonic with ".lds" for a load into LDS."""
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
        op = m.group(1)
        if m.group(2).split()[-1:] == ["lds"]:
            op += ".lds"
        result[current].append((int(m.group(3), 16) - start, op, target))
    return result


UNCONDITIONAL = re.compile(r"s_branch$|s_endpgm|s_setpc_b64$")


def control_flow(code):
    """The basic blocks of `code` as (first, end) index ranges, and each
    block's successors."""
    index = {at: i for i, (at, _, _) in enumerate(code)}
    starts = {0} | {index[t] for _, _, t in code if t in index}
    starts |= {i + 1 for i, (_, _, t) in enumerate(code) if t is not None}
    starts = sorted(s for s in starts if s < len(code))
    blocks = list(zip(starts, starts[1:] + [len(code)]))
    block_of = {first: b for b, (first, _) in enumerate(blocks)}
    succs = []
    for b, (_, end) in enumerate(blocks):
        _, op, target = code[end - 1]
        out = set()
        if target in index:
            out.add(block_of[index[target]])
        if not UNCONDITIONAL.match(op) and b + 1 < len(blocks):
            out.add(b + 1)
        succs.append(out)
    return blocks, succs


def dominators(succs):
    """({block: the blocks that dominate it}, {block: its predecessors}) for
    the blocks reachable from block 0."""
    order, seen, stack = [], {0}, [(0, iter(sorted(succs[0])))]
    while stack:  # depth-first, for a reverse postorder
        block, pending = stack[-1]
        nxt = next((s for s in pending if s not in seen), None)
        if nxt is None:
            order.append(block)
            stack.pop()
        else:
            seen.add(nxt)
            stack.append((nxt, iter(sorted(succs[nxt]))))
    order.reverse()
    preds = collections.defaultdict(set)
    for b in order:
        for s in succs[b]:
            preds[s].add(b)
    dom = {b: set(order) for b in order}
    dom[0] = {0}
    changed = True
    while changed:
        changed = False
        for b in order[1:]:
            new = set.intersection(*(dom[p] for p in preds[b] if p in dom)) | {b}
            if new != dom[b]:
                dom[b], changed = new, True
    return dom, preds


def inner_loops(code):
    """[(header offset, mnemonics)] of each natural loop that holds no other
    loop: every instruction that can reach a branch back to the loop's
    header without passing through it, blocks placed out of line (a branch
    away and back) included, each counted once per iteration whichever
    path runs it."""
    if not code:
        return []
    blocks, succs = control_flow(code)
    dom, preds = dominators(succs)
    loops = {}
    for latch in dom:
        for header in succs[latch]:
            if header not in dom[latch]:
                continue
            body = loops.setdefault(header, {header})
            work = [latch]
            while work:
                block = work.pop()
                if block not in body:
                    body.add(block)
                    work.extend(preds[block])
    inner = [h for h, body in loops.items()
             if not any(other != h and other in body for other in loops)]
    return [(code[blocks[h][0]][0],
             [code[i][1] for b in sorted(loops[h]) for i in range(*blocks[b])])
            for h in inner]


def family(op):
    for name, pattern in FAMILIES:
        if re.match(pattern, op):
            return name
    return "other"


def widths(loop, kind):
    """"width:count,..." of the loop's LDS reads ("ds_read") or global loads
    ("load"), the width being what follows the family in the mnemonic."""
    if kind == "ds_read":
        ops = [op.split("_", 2)[-1] for op in loop if family(op) == "ds_read"]
    else:
        ops = [op.split("_load_", 1)[-1] for op in loop
               if family(op) == "global" and "_load_" in op]
    counts = collections.Counter(ops)
    return ",".join(f"{w}:{n}" for w, n in sorted(counts.items())) or "-"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("hsaco")
    parser.add_argument("--mcpu")
    parser.add_argument("--objdump")
    args = parser.parse_args()
    mcpu = args.mcpu or chip_of(args.hsaco)
    run = subprocess.run([objdump_tool(args.objdump), "-d", f"--mcpu={mcpu}", args.hsaco],
                         capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"loop_mix.py: error: {args.hsaco}: {run.stderr.strip()}")
    columns = [name for name, _ in FAMILIES]
    print(f"{args.hsaco} ({mcpu}): instructions of each kernel's inner loop")
    print("kernel " + " ".join(["at", "total"] + columns)
          + " ds_read_widths global_load_widths")
    for name, code in kernels(run.stdout).items():
        loops = inner_loops(code)
        if not loops:
            print(f"{name} - (no loop)")
            continue
        start, loop = max(loops, key=lambda entry: len(entry[1]))
        counts = collections.Counter(family(op) for op in loop)
        print(" ".join([name, f"{start:#x}", str(len(loop))]
                       + [str(counts[c]) for c in columns]
                       + [widths(loop, "ds_read"), widths(loop, "load")]))

if __name__ == "__main__":
    main()
