// Instruction sequences for utils/lds_barriers.py (lds-barriers-check.test),
// one kernel each.
  .text

// The sequence every cross-wave LDS exchange had: the barrier comes before
// the write completes.
  .globl write_then_barrier
write_then_barrier:
  ds_write_b32 v130, v4
  s_barrier
  s_waitcnt lgkmcnt(0)
  ds_read_b32 v2, v131
  s_endpgm

// Fixed: the wave waits for its LDS operations first.
  .globl waited
waited:
  ds_write_b32 v130, v4
  s_waitcnt lgkmcnt(0)
  s_barrier
  ds_read_b32 v2, v131
  s_waitcnt lgkmcnt(0)
  s_endpgm

// The write at the end of the loop body reaches the barrier at its top
// through the back edge; the first iteration's path does not.
  .globl loop_back_edge
loop_back_edge:
  s_mov_b32 s0, 0
.Lloop:
  s_barrier
  ds_read_b32 v2, v131
  s_waitcnt lgkmcnt(0)
  ds_write_b32 v130, v2
  s_add_u32 s0, s0, 1
  s_cmp_lt_u32 s0, 8
  s_cbranch_scc1 .Lloop
  s_endpgm

// LDS operations complete in order: lgkmcnt(2) leaves at most the two
// reads after the write in flight, so the barrier is reached with the
// reads in flight, not the write.
  .globl later_reads_cover
later_reads_cover:
  ds_write_b32 v130, v4
  ds_read_b32 v2, v131
  ds_read_b32 v3, v132
  s_waitcnt lgkmcnt(2)
  s_barrier
  s_waitcnt lgkmcnt(0)
  s_endpgm

// lgkmcnt(3) may leave the write itself in flight.
  .globl count_too_high
count_too_high:
  ds_write_b32 v130, v4
  ds_read_b32 v2, v131
  ds_read_b32 v3, v132
  s_waitcnt lgkmcnt(3)
  s_barrier
  s_waitcnt lgkmcnt(0)
  s_endpgm

// Scalar loads count in lgkmcnt but complete out of order: lgkmcnt(1)
// after one may still leave the write in flight.
  .globl scalar_load_after
scalar_load_after:
  ds_write_b32 v130, v4
  s_load_dword s2, s[0:1], 0x0
  s_waitcnt lgkmcnt(1)
  s_barrier
  s_waitcnt lgkmcnt(0)
  s_endpgm

// A read the wave has not waited for is in flight too: another wave's
// write after the barrier may overtake it.
  .globl read_then_barrier
read_then_barrier:
  ds_read_b32 v2, v131
  s_barrier
  s_waitcnt lgkmcnt(0)
  ds_write_b32 v131, v4
  s_endpgm

// Lane exchanges go through the LDS hardware but not its memory, and a
// copy into LDS is counted by vmcnt, which its own wait covers.
  .globl not_lds_accesses
not_lds_accesses:
  ds_bpermute_b32 v2, v131, v4
  ds_swizzle_b32 v3, v4 offset:swizzle(SWAP,16)
  buffer_load_dword v1, s[4:7], 0 offen lds
  s_barrier
  s_waitcnt vmcnt(0) lgkmcnt(0)
  s_endpgm

// A write on one side of a branch reaches the barrier where the paths join.
  .globl one_branch_writes
one_branch_writes:
  s_cmp_eq_u32 s0, 0
  s_cbranch_scc1 .Ljoin
  ds_write_b32 v130, v4
.Ljoin:
  s_barrier
  s_endpgm
