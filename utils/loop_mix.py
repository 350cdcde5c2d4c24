#!/usr/bin/env python3
"""The instruction mix of each kernel's inner loop in an AMDGPU code object.

    utils/loop_mix.py OUT.hsaco [--mcpu gfx950] [--objdump PATH]
                      [--max-other-per-mfma N [--kernel REGEX]]

Disassembles the code object with llvm-objdump and, per kernel, counts the
instructions of its inner loop (the largest natural loop that holds no
other loop, its out-of-line blocks included: the KV loop of the partial
kernels) by family: matrix-core, narrow-format
conversions, exp, LDS reads by width, LDS writes, other LDS, global memory,
barriers, waits, other vector and scalar instructions; then the widths of
its LDS reads and of its global loads (`.lds`: a load straight into LDS).
The chip is read from the code object unless --mcpu names it.

--max-other-per-mfma checks a static target: each kernel whose name
matches --kernel (all, by default) has a loop of matrix-core instructions
with at most N other instructions per matrix-core one; the tool prints
each such kernel's ratio and fails naming those above N.
"""

import collections
import re
import sys

from amdgpu_disasm import control_flow, disassemble_command_line, kernels

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
    return [(code[blocks[h][0]].offset,
             [code[i].op for b in sorted(loops[h]) for i in range(*blocks[b])])
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


def add_options(parser):
    parser.add_argument("--max-other-per-mfma", type=float)
    parser.add_argument("--kernel", default="")


def check_ratio(name, counts, limit):
    """Whether `name`'s loop (of family `counts`) has at most `limit`
    other instructions per matrix-core one; prints the ratio."""
    mfma = counts["mfma"]
    if not mfma:
        print(f"{name}: no matrix-core instruction in its loop")
        return False
    ratio = (sum(counts.values()) - mfma) / mfma
    verdict = "ok" if ratio <= limit else "ABOVE"
    print(f"{name}: {ratio:.2f} other instructions per MFMA, "
          f"at most {limit:g}: {verdict}")
    return ratio <= limit


def main():
    path, mcpu, text, args = disassemble_command_line(
        "loop_mix.py", __doc__, add_options)
    columns = [name for name, _ in FAMILIES]
    checked, failed = 0, []
    print(f"{path} ({mcpu}): instructions of each kernel's inner loop")
    print("kernel " + " ".join(["at", "total"] + columns)
          + " ds_read_widths global_load_widths")
    for name, code in kernels(text).items():
        loops = inner_loops(code)
        if not loops:
            print(f"{name} - (no loop)")
            continue
        start, loop = max(loops, key=lambda entry: len(entry[1]))
        counts = collections.Counter(family(op) for op in loop)
        print(" ".join([name, f"{start:#x}", str(len(loop))]
                       + [str(counts[c]) for c in columns]
                       + [widths(loop, "ds_read"), widths(loop, "load")]))
        if args.max_other_per_mfma is not None and re.search(args.kernel,
                                                              name):
            checked += 1
            if not check_ratio(name, counts, args.max_other_per_mfma):
                failed.append(name)
    if args.max_other_per_mfma is not None:
        if not checked:
            sys.exit(f"loop_mix.py: no kernel matches '{args.kernel}'")
        if failed:
            sys.exit("loop_mix.py: above the target: " + ", ".join(failed))

if __name__ == "__main__":
    main()
