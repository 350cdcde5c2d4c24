"""Prints each pointer argument's extent from a manifest, one line each:
KERNEL ARG EXTENT-JSON, or KERNEL ARG unknown: REASON."""

import json
import sys

with open(sys.argv[1]) as f:
    manifest = json.load(f)
for kernel in manifest["kernels"]:
    for arg in kernel["args"]:
        if arg["kind"] != "ptr":
            continue
        if arg["extent"] is None:
            print(kernel["symbol"], arg["name"], "unknown:", arg["extent_unknown"])
        else:
            print(kernel["symbol"], arg["name"],
                  json.dumps(arg["extent"], separators=(",", ":")))
