"""Writes a copy of a module's manifest with kernels changed, as a hand edit
or a manifest left over from another compile would have them.

  edit_manifest.py IN OUT KERNEL [--set KEY=JSON ...] [--swap-args A,B]
                   [--symbol NAME] [KERNEL ...]

KERNEL selects one kernel by its launch keys (role=mla.partial,heads=16)
or its symbol (symbol=scale);
the changes after it apply to it: --set sets a member of its entry, KEY a
dotted path into it (launch.heads); --swap-args exchanges the arguments
named A and B; --symbol renames it.
"""
import json
import sys


def select(manifest, spec):
    wanted = dict(item.split("=", 1) for item in spec.split(","))
    def get(kernel, key):
        return kernel["symbol"] if key == "symbol" else \
            str(kernel.get("launch", {}).get(key))
    matches = [k for k in manifest["kernels"]
               if all(get(k, key) == value for key, value in wanted.items())]
    if len(matches) != 1:
        sys.exit("edit_manifest.py: %d kernels match %s" % (len(matches), spec))
    return matches[0]


def main(argv):
    source, destination, *edits = argv
    with open(source) as f:
        manifest = json.load(f)
    kernel = None
    edits = iter(edits)
    for edit in edits:
        if edit == "--set":
            key, value = next(edits).split("=", 1)
            *path, last = key.split(".")
            target = kernel
            for part in path:
                target = target.setdefault(part, {})
            target[last] = json.loads(value)
        elif edit == "--swap-args":
            names = next(edits).split(",")
            args = kernel["args"]
            i, j = (next(n for n, a in enumerate(args) if a["name"] == name)
                    for name in names)
            args[i], args[j] = args[j], args[i]
        elif edit == "--symbol":
            kernel["symbol"] = next(edits)
        else:
            kernel = select(manifest, edit)
    with open(destination, "w") as f:
        json.dump(manifest, f, indent=2)


main(sys.argv[1:])
