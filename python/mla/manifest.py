"""A module's manifest, and its check against the binary's own ABI record.

The manifest (docs/ABI.md, "Manifest") is what the caller relies on: the
kernels, their arguments in call order, workgroup sizes and launch keys.
It is a separate file, so it is checked against `__mla_abi`, the record
the binary carries, before anything runs ("ABI record").
"""

import json
import os
import stat
from dataclasses import dataclass, field

from . import launch_expr
from .errors import MlaError

ABI_RECORD_SYMBOL = "__mla_abi"
ABI_RECORD_VERSION = 1
SCALAR_TYPES = ("i32", "i64", "f32")


@dataclass(frozen=True)
class Arg:
    name: str
    kind: str  # "ptr" or "scalar"
    type: str  # MLIR's element type name, e.g. "bf16", "f8E4M3FN"
    # Elements the kernel may reach (docs/ABI.md, "Extents"); None: unknown.
    extent: object = field(default=None, hash=False, compare=False)


@dataclass(frozen=True)
class KernelInfo:
    symbol: str
    args: tuple
    workgroup_size: tuple
    dynamic_lds_bytes: int = 0
    launch: dict = field(default=None, hash=False, compare=False)
    # The parameterized kernel this is an instance of; None for others.
    instance_of: str = None


@dataclass(frozen=True)
class Manifest:
    path: str
    target: str
    binary: str  # absolute path of the binary
    kernels: tuple
    # The chip's facts from the compiler's chip table (name, wave_size,
    # lds_bytes, compute_units, fp8: "ocp" or "fnuz"); empty for the host.
    chip: dict


def manifest_path_for(path):
    """The manifest of the module at `path` (the binary or its manifest)."""
    return path if path.endswith(".json") else path + ".json"


def read_regular_file(path, what):
    try:
        mode = os.stat(path).st_mode
    except OSError as e:
        raise MlaError(f"{path}: cannot open {what}: {e.strerror}") from None
    if not stat.S_ISREG(mode):
        raise MlaError(f"{path}: {what} is not a regular file")
    with open(path, "rb") as f:
        return f.read()


def _require(condition, path, where, expected):
    if not condition:
        raise MlaError(f"{path}: {where}: expected {expected}")


def _parse_arg(path, where, value):
    _require(isinstance(value, dict), path, where, "an object")
    name, kind, type_ = value.get("name"), value.get("kind"), value.get("type")
    _require(isinstance(name, str) and name, path, where + ".name", "a name")
    _require(kind in ("ptr", "scalar"), path, where + ".kind", '"ptr" or "scalar"')
    _require(isinstance(type_, str), path, where + ".type", "a type name")
    if kind == "scalar":
        _require(type_ in SCALAR_TYPES, path, where + ".type",
                 " or ".join(SCALAR_TYPES))
        for key in ("extent", "extent_unknown"):
            _require(key not in value, path, f"{where}.{key}",
                     "none on a scalar argument")
    extent, unknown = value.get("extent"), value.get("extent_unknown")
    if extent is not None:
        try:
            launch_expr.check(extent)
        except MlaError as e:
            raise MlaError(f"{path}: {where}.extent: {e}") from None
    _require(unknown is None or isinstance(unknown, str), path,
             where + ".extent_unknown", "a string")
    return Arg(name, kind, type_, extent)


def _parse_kernel(path, where, value):
    _require(isinstance(value, dict), path, where, "an object")
    symbol = value.get("symbol")
    _require(isinstance(symbol, str) and symbol, path, where + ".symbol",
             "a symbol")
    args = value.get("args")
    _require(isinstance(args, list), path, where + ".args", "a list")
    size = value.get("workgroup_size")
    _require(isinstance(size, list) and len(size) == 3 and
             all(isinstance(n, int) and n >= 1 for n in size),
             path, where + ".workgroup_size", "three positive integers")
    lds = value.get("dynamic_lds_bytes", 0)
    _require(isinstance(lds, int) and lds >= 0, path,
             where + ".dynamic_lds_bytes", "a byte count")
    launch = value.get("launch")
    _require(launch is None or isinstance(launch, dict), path,
             where + ".launch", "an object")
    parsed = tuple(_parse_arg(path, f"{where}.args[{i}]", a)
                   for i, a in enumerate(args))
    names = [a.name for a in parsed]
    for name in names:
        if names.count(name) > 1:
            raise MlaError(f"{path}: {where}.args: '{name}' appears twice")
    if launch is not None:
        _parse_launch(path, where + ".launch", launch, parsed)
    instance_of = value.get("instance_of")
    _require(instance_of is None or (isinstance(instance_of, str) and
                                     instance_of), path,
             where + ".instance_of", "a kernel name")
    return KernelInfo(symbol, parsed, tuple(size), lds, launch, instance_of)


# The largest alignment a requirement may ask of a pointer (`P % C == 0`);
# mla-run allocates its buffers at a multiple of it (docs/ABI.md).
MAX_POINTER_ALIGNMENT = 64


def is_alignment(expr):
    """Whether `expr` is ["eq", ["rem", {"arg": P}, C], 0], C a power of two
    up to MAX_POINTER_ALIGNMENT: the one way a requirement reads a pointer."""
    if not (isinstance(expr, list) and len(expr) == 3 and expr[0] == "eq"
            and expr[2] == 0 and isinstance(expr[1], list)):
        return False
    rem = expr[1]
    if not (len(rem) == 3 and rem[0] == "rem" and isinstance(rem[1], dict)):
        return False
    c = rem[2]
    return (type(c) is int and 0 < c <= MAX_POINTER_ALIGNMENT
            and c & (c - 1) == 0)


def _parse_rule(path, where, expr, args, requirement=False):
    """A grid rule or requirement: an expression of integer scalars, and
    for a requirement, a pointer's alignment."""
    try:
        launch_expr.check(expr)
    except MlaError as e:
        raise MlaError(f"{path}: {where}: {e}") from None
    _require(not launch_expr.reads_grid(expr), path, where,
             "no use of the grid, which it decides")
    integers = {a.name for a in args if a.kind == "scalar" and a.type != "f32"}
    pointers = {a.name for a in args if a.kind != "scalar"}
    for name in launch_expr.arguments_of(expr):
        if requirement and name in pointers:
            _require(is_alignment(expr), path, where,
                     f"pointer '{name}' only as 'P % C == 0', C a power of "
                     f"two up to {MAX_POINTER_ALIGNMENT}")
            continue
        _require(name in integers, path, where,
                 f"integer scalar arguments only, not '{name}'")


def _parse_launch(path, where, launch, args):
    """The grid (sizes, rules or problem quantities), free_grid, requires."""
    grid = launch.get("grid")
    if grid is not None:
        _require(isinstance(grid, list) and len(grid) == 3, path,
                 where + ".grid", "three entries")
        for d, entry in enumerate(grid):
            if isinstance(entry, str):  # a problem quantity
                _require(entry, path, f"{where}.grid[{d}]", "a quantity name")
            else:
                _require(type(entry) is not int or entry >= 1, path,
                         f"{where}.grid[{d}]", "a fixed size >= 1")
                _parse_rule(path, f"{where}.grid[{d}]", entry, args)
    free = launch.get("free_grid", False)
    _require(isinstance(free, bool) and (grid is not None or not free), path,
             where + ".free_grid", "true or false, next to a grid")
    conditions = launch.get("requires", [])
    _require(isinstance(conditions, list), path, where + ".requires",
             "a list of conditions")
    for i, condition in enumerate(conditions):
        _parse_rule(path, f"{where}.requires[{i}]", condition, args,
                    requirement=True)


def load_manifest(module_path):
    """The manifest of the module at `module_path`, validated."""
    path = manifest_path_for(module_path)
    text = read_regular_file(path, "manifest")
    try:
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError, RecursionError) as e:
        raise MlaError(f"{path}: not a JSON manifest: {e}") from None
    _require(isinstance(data, dict), path, "manifest", "an object")
    target, binary = data.get("target"), data.get("binary")
    _require(isinstance(target, str) and target, path, "target", "a target name")
    _require(isinstance(binary, str) and binary and os.sep not in binary,
             path, "binary", "a file name beside the manifest")
    kernels = data.get("kernels")
    _require(isinstance(kernels, list), path, "kernels", "a list")
    parsed = tuple(_parse_kernel(path, f"kernels[{i}]", k)
                   for i, k in enumerate(kernels))
    chip = data.get("chip", {})
    _require(isinstance(chip, dict), path, "chip", "an object")
    units = chip.get("compute_units", 1)
    _require(isinstance(units, int) and not isinstance(units, bool)
             and units > 0, path, "chip.compute_units", "a positive integer")
    _require(chip.get("fp8", "ocp") in ("ocp", "fnuz"), path, "chip.fp8",
             "\"ocp\" or \"fnuz\"")
    binary_path = os.path.join(os.path.dirname(os.path.abspath(path)), binary)
    return Manifest(path, target, binary_path, parsed, chip)


def _mismatch(manifest, where, ours, theirs):
    return MlaError(f"{manifest.path}: {where}: {json.dumps(ours)} does not "
                    f"match the binary ({json.dumps(theirs)})")


def check_abi_record(manifest, record_text):
    """Refuses a manifest that says what the binary's record does not."""
    binary = manifest.binary
    try:
        record = json.loads(record_text)
    except (ValueError, UnicodeDecodeError):
        raise MlaError(f"{binary}: the ABI record is not JSON") from None
    if not isinstance(record, dict) or record.get("version") != ABI_RECORD_VERSION:
        raise MlaError(f"{binary}: ABI record of another version "
                       f"(expected {ABI_RECORD_VERSION})")
    if record.get("target") != manifest.target:
        raise _mismatch(manifest, "target", manifest.target, record.get("target"))
    by_symbol = {k.get("symbol"): k for k in record.get("kernels", [])
                 if isinstance(k, dict)}
    for i, kernel in enumerate(manifest.kernels):
        where = f"kernels[{i}]"
        theirs = by_symbol.get(kernel.symbol)
        if theirs is None:
            raise MlaError(f"{manifest.path}: {where}: '{kernel.symbol}' is "
                           "not a kernel of the binary")
        recorded = [a if isinstance(a, dict) else {}
                    for a in theirs.get("args", [])]
        ours_args = [{"kind": a.kind, "name": a.name, "type": a.type}
                     for a in kernel.args]
        their_args = [{"kind": a.get("kind"), "name": a.get("name"),
                       "type": a.get("type")} for a in recorded]
        if ours_args != their_args:
            raise _mismatch(manifest, where + ".args", ours_args, their_args)
        # The launch checks tensors against the extents: an edited manifest
        # must not let a small one through. Null and absent agree.
        for j, (arg, their_arg) in enumerate(zip(kernel.args, recorded)):
            if arg.extent != their_arg.get("extent"):
                raise _mismatch(manifest, f"{where}.args[{j}].extent",
                                arg.extent, their_arg.get("extent"))
        ours_launch, their_launch = kernel.launch or {}, theirs.get("launch") or {}
        for key in sorted(set(ours_launch) | set(their_launch)):
            if ours_launch.get(key) != their_launch.get(key):
                raise _mismatch(manifest, f"{where}.launch.{key}",
                                ours_launch.get(key), their_launch.get(key))
        size = theirs.get("workgroup_size")
        if size is not None and tuple(size) != kernel.workgroup_size:
            raise _mismatch(manifest, where + ".workgroup_size",
                            list(kernel.workgroup_size), size)
