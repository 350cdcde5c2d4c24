#!/usr/bin/env python3
"""Prints the resources of each kernel of an AMDGPU code object, as its
manifest records them (from the code object's metadata), with the
occupancy they allow.

    utils/resources.py build/main-job/mla_decode.gfx950.hsaco.json

Occupancy on CDNA3/4: a SIMD has 512 unified registers (VGPRs and AGPRs)
per lane, allocated in granules of 8, and runs at most 8 waves; a compute
unit has 4 SIMDs and the chip's LDS (64 KiB on gfx942, 160 KiB on gfx950).
"""

import argparse
import json
import sys

LDS_PER_CU = {"gfx942": 64 * 1024, "gfx950": 160 * 1024}
SIMDS_PER_CU = 4
REGISTERS_PER_SIMD_LANE = 512
REGISTER_GRANULE = 8
MAX_WAVES_PER_SIMD = 8


def fail(message):
    sys.exit("resources.py: error: " + message)


def waves_per_simd(kernel, lds_per_cu):
    """Waves of this kernel one SIMD can hold, and what limits them."""
    res = kernel["resources"]
    registers = -(-max(res["vgprs"], 1) // REGISTER_GRANULE) * REGISTER_GRANULE
    by_registers = min(MAX_WAVES_PER_SIMD, REGISTERS_PER_SIMD_LANE // registers)
    threads = 1
    for extent in kernel["workgroup_size"]:
        threads *= extent
    waves_per_group = -(-threads // res["wave_size"])
    limit, reason = by_registers, "registers"
    if kernel["lds_bytes"] > 0:
        groups = lds_per_cu // kernel["lds_bytes"]
        by_lds = groups * waves_per_group // SIMDS_PER_CU
        if by_lds < limit:
            limit, reason = by_lds, "LDS"
    return limit, reason


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("manifest")
    args = parser.parse_args()
    try:
        with open(args.manifest) as f:
            manifest = json.load(f)
    except (OSError, ValueError) as e:
        fail("%s: %s" % (args.manifest, e))
    chip = manifest.get("target")
    if chip not in LDS_PER_CU:
        fail("%s: target %r is not an AMDGPU code object (gfx942, gfx950)"
             % (args.manifest, chip))
    rows = [("kernel", "regs", "agprs", "sgprs", "lds", "scratch", "spills",
             "waves/SIMD")]
    for kernel in manifest["kernels"]:
        res = kernel.get("resources")
        if not res:
            fail("%s: kernel %s has no resources" % (args.manifest,
                                                    kernel.get("symbol")))
        waves, reason = waves_per_simd(kernel, LDS_PER_CU[chip])
        rows.append((kernel["symbol"], res["vgprs"], res["agprs"],
                     res["sgprs"], kernel["lds_bytes"], res["scratch_bytes"],
                     kernel["spills"], "%d (%s)" % (waves, reason)))
    widths = [max(len(str(row[i])) for row in rows) for i in range(len(rows[0]))]
    print("%s (%s)" % (manifest["binary"], chip))
    for row in rows:
        print("  ".join(str(v).ljust(w) if i == 0 else str(v).rjust(w)
                        for i, (v, w) in enumerate(zip(row, widths))))


if __name__ == "__main__":
    main()
