#!/usr/bin/env python3
"""Finds every s_barrier a wave can reach with its own LDS accesses still in
flight, in an AMDGPU object (a code object, or a relocatable object).

    utils/lds_barriers.py OUT.hsaco [--mcpu gfx950] [--objdump PATH]

On gfx942 and gfx950 the LDS serves the SIMDs through several request
queues, so another wave can see a wave's LDS write late, or see its own
write overtake a wave's LDS read, unless that wave waited for its LDS
operations (s_waitcnt lgkmcnt) before the barrier: AMDGPUUsage's memory
model for GFX942 makes a workgroup-scope release wait lgkmcnt(0), and
s_barrier itself waits for nothing (docs/amdgpu.md, "Barriers").

The check follows each kernel's control flow, loop back edges included, to
a fixed point. An LDS access (ds_* other than the lane exchanges
ds_swizzle/ds_permute/ds_bpermute, and flat_*, which may address LDS) is
in flight until an s_waitcnt whose lgkmcnt(N) leaves at most N operations
outstanding: LDS operations complete in issue order, so N may be as large
as the number of LDS operations issued after it. Scalar-memory loads also
count in lgkmcnt but complete out of order, so they never help. Copies
into LDS by buffer/global loads with `lds` are counted by vmcnt and waited
for by their own waits, not here.

Prints one line per barrier reached with an access in flight, naming the
access, then a summary per object; exits 1 when there is any.
"""

import collections
import re
import sys

from amdgpu_disasm import control_flow, disassemble_command_line, kernels

TOOL = "lds_barriers.py"
# lgkmcnt's largest count on gfx9: a wait for N >= this waits for nothing
# more, so counts above it need not be told apart.
MAX_LGKMCNT = 15

LANE_EXCHANGES = re.compile(r"ds_(swizzle|permute|bpermute)_|ds_nop|ds_gws_|ds_ordered_count")
READS = re.compile(r"(ds|flat)_(read|load)")
LGKMCNT = re.compile(r"lgkmcnt\((\d+)\)")

# An access in flight: how many LDS operations the wave issued after it
# (capped at MAX_LGKMCNT), its offset and its mnemonic.
InFlight = collections.namedtuple("InFlight", "after offset op")
# The latest write and the latest read in flight, either None.
State = collections.namedtuple("State", "write read")
NOTHING = State(None, None)


def lds_access(op):
    """"write", "read" or None for an instruction's LDS memory access."""
    if op.endswith(".lds") or not op.startswith(("ds_", "flat_")):
        return None
    if LANE_EXCHANGES.match(op):
        return None
    return "read" if READS.match(op) else "write"


def older(a, b):
    """The access of `a` and `b` that more waits leave in flight: the one
    with fewer LDS operations after it (ties: the earlier offset)."""
    if a is None or b is None:
        return a or b
    return min(a, b, key=lambda f: (f.after, f.offset))


def join(a, b):
    return State(older(a.write, b.write), older(a.read, b.read))


def step(state, ins):
    """The state after `ins`."""
    def issued(f):
        return f and f._replace(after=min(f.after + 1, MAX_LGKMCNT))

    def waited(f, n):
        return None if f is None or n <= f.after else f

    if ins.op.startswith("ds_"):
        state = State(issued(state.write), issued(state.read))
    kind = lds_access(ins.op)
    if kind:
        state = state._replace(**{kind: InFlight(0, ins.offset, ins.op)})
    if ins.op == "s_waitcnt" and (m := LGKMCNT.search(ins.operands)):
        n = int(m.group(1))
        state = State(waited(state.write, n), waited(state.read, n))
    return state


def unwaited_barriers(code):
    """[(barrier offset, write or None, read or None)] of every s_barrier
    of `code` some path reaches with an LDS access in flight."""
    if not code:
        return []
    blocks, succs = control_flow(code)
    entry = {0: NOTHING}
    work = [0]
    while work:
        b = work.pop()
        state = entry[b]
        for i in range(*blocks[b]):
            state = step(state, code[i])
        for s in succs[b]:
            new = join(entry[s], state) if s in entry else state
            if entry.get(s) != new:
                entry[s] = new
                work.append(s)
    found = []
    for b in sorted(entry):
        state = entry[b]
        for i in range(*blocks[b]):
            ins = code[i]
            if ins.op == "s_barrier" and state != NOTHING:
                found.append((ins.offset, state.write, state.read))
            state = step(state, ins)
    return found


def main():
    path, mcpu, text = disassemble_command_line(TOOL, __doc__)
    code_of = kernels(text)
    if not code_of:
        sys.exit(f"{TOOL}: error: {path}: no kernel code in the object")
    barriers = after_write = after_read = 0
    for name, code in code_of.items():
        barriers += sum(ins.op == "s_barrier" for ins in code)
        for at, write, read in unwaited_barriers(code):
            access = write or read
            if write:
                after_write += 1
            else:
                after_read += 1
            print(f"{name}+{at:#x}: s_barrier reached with {access.op} at "
                  f"+{access.offset:#x} in flight (no s_waitcnt lgkmcnt "
                  f"covering it in between)")
    print(f"{path} ({mcpu}): {barriers} barriers in {len(code_of)} "
          f"kernels; {after_write} reached with an LDS write in flight, "
          f"{after_read} more with an LDS read in flight")
    sys.exit(1 if after_write or after_read else 0)


if __name__ == "__main__":
    main()
