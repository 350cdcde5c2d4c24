"""MLA decode with a module's kernels, planned on the device.

    decode = mla.Decode(mla.Module("build/mla.hsaco"), kv_dtype="fp8", heads=16)
    out = decode(q, kv, qo_indptr, kv_indptr, kv_scale=scale)

A call launches the module's three MLA kernels (docs/ABI.md, "MLA decode
kernels") on the inputs' device and returns without waiting for it: the
plan kernel builds the work and combine tables from the indptrs where they
are, then the partial and combine kernels run them. Nothing is read back,
so the tables and partial buffers are sized from the shapes alone
("The plan on the device") and kept for the next call of the same shapes.
"""

import functools
import math

from .args import integer_of
from .errors import MlaError

# Columns of a latent key row and of an output row; packed MXFP4 bytes and
# E8M0 scales per key row.
QK_DIM = 576
V_DIM = 512
MX_BYTES = 288
MX_SCALES = 18
# KV rows per split that the reproducible plan aims at (LaunchPlan.h).
SPLIT_ROWS = 1024
# The split cap of a partial kernel whose launch has no max_splits.
DEFAULT_MAX_SPLITS = 16
# The head counts of the problem (Problem.h): multiples of 16 up to 128.
HEAD_GRANULE = 16
MAX_HEADS = 128
KV_DTYPES = ("bf16", "fp8", "fp8_fnuz", "mxfp4")
PLANS = ("reproducible", "balanced")


def _cdiv(a, b):
    return -(-a // b)


def _whole_number(value, name):
    """`value` as a Python int (numpy and torch integers too), else an
    error naming `name`."""
    integer = integer_of(value)
    if integer is None:
        raise MlaError(f"{name}: {value!r} is not a whole number")
    return integer


def plan_capacity(batch, total_q, total_kv, heads, kv_tile, block_rows,
                  combine_block_rows, max_splits, balanced):
    """(work items, combine items, part rows) that the reproducible (or
    balanced) plan of any batch of these shapes can need (docs/ABI.md)."""
    seqs = min(batch, total_q)
    token_blocks = _cdiv(heads, block_rows)
    chunk = _cdiv(SPLIT_ROWS, kv_tile) * kv_tile
    token_ranges = max_splits * total_q
    if not balanced:
        token_ranges = min(token_ranges, total_q * (total_kv // chunk + 1))
    blocks = min(total_q * token_blocks,
                 (total_q * heads + seqs * (block_rows - 1)) // block_rows)
    work = min(max_splits * blocks, token_blocks * token_ranges)
    combine = min(total_q * _cdiv(heads, combine_block_rows),
                  (total_q * heads + seqs * (combine_block_rows - 1))
                  // combine_block_rows)
    return work, combine, heads * token_ranges


# The arguments a call passes (the rest are its workspace and sizes).
_CALL_POINTERS = ("q", "kv", "kv_scale", "qo_indptr", "kv_indptr", "out")


def _signature(tensor):
    """What a call's checks depend on: type, shape, strides, device (the
    objects themselves, hashable, which cost less than their names)."""
    if tensor is None:
        return None
    stride = getattr(tensor, "stride", None)
    if callable(stride):
        return (type(tensor), tensor.shape, tensor.dtype, tensor.device,
                stride())
    return (type(tensor), tensor.shape, tensor.dtype, tensor.strides,
            tensor.flags.writeable)


def _address(tensor):
    if callable(getattr(tensor, "data_ptr", None)):
        return tensor.data_ptr()
    return tensor.ctypes.data


def _shape(value):
    return tuple(int(n) for n in value.shape)


def _library(value):
    """torch or numpy, whichever `value` belongs to."""
    kind = type(value).__module__.split(".")[0]
    if kind not in ("torch", "numpy"):
        raise MlaError(f"q: a torch tensor or numpy array is expected, got "
                       f"{type(value).__name__}")
    return __import__(kind)


def _empty(like, count, dtype):
    """An uninitialized 1-D buffer of `count` elements where `like` lives."""
    library = _library(like)
    if library.__name__ == "torch":
        return library.empty(count, dtype=getattr(library, dtype),
                             device=like.device)
    return library.empty(count, dtype=dtype)


class Decode:
    """The MLA decode kernels of `module` for one KV format and head count.

    `plan` is "reproducible" (a sequence's splits depend on its length
    only, so are its output bits) or "balanced" (ranges of the batch's work
    over `parallelism` programs, by default as many as the device runs of
    the partial kernel at once: small batches fill the device). With
    `graphs`, where the driver has a graph API (CUDA), a call's three
    launches are replayed as one graph (mla.graph): one driver call
    instead of three."""

    def __init__(self, module, kv_dtype, heads, plan="reproducible",
                 parallelism=None, graphs=True):
        if kv_dtype not in KV_DTYPES:
            raise MlaError(f"kv_dtype: '{kv_dtype}' is not one of "
                           f"{', '.join(KV_DTYPES)}")
        heads = _whole_number(heads, "heads")
        if not (0 < heads <= MAX_HEADS and heads % HEAD_GRANULE == 0):
            raise MlaError(f"heads: {heads} heads: the head count must be a "
                           f"multiple of {HEAD_GRANULE} from {HEAD_GRANULE} "
                           f"to {MAX_HEADS}")
        if plan not in PLANS:
            raise MlaError(f"plan: '{plan}' is not one of {', '.join(PLANS)}")
        if parallelism is not None:
            parallelism = _whole_number(parallelism, "parallelism")
        if parallelism is not None and not 1 <= parallelism < 1 << 31:
            raise MlaError(f"parallelism: {parallelism} is not in [1, 2^31)")
        self.module, self.kv_dtype, self.heads = module, kv_dtype, heads
        self.balanced = plan == "balanced"
        self.graphs = graphs
        self.parallelism = parallelism
        # A partial kernel takes the head count as its `heads` argument, or
        # serves only its launch.heads.
        self.partials = [k for k in module.find(role="mla.partial",
                                                kv_dtype=kv_dtype)
                         if k.launch.get("heads", heads) == heads]
        for kernel in self.partials:
            if "heads" not in kernel.launch and \
                    "heads" not in kernel.arg_names:
                raise MlaError(f"kernel '{kernel.name}': mla.partial needs a "
                               "'heads' argument or launch.heads")
        if not self.partials:
            offered = sorted({(k.launch.get("kv_dtype"),
                               k.launch.get("heads", "any"))
                              for k in module.find(role="mla.partial")},
                             key=str)
            raise MlaError(
                f"{module.manifest.binary}: no mla.partial kernel for "
                f"kv_dtype {kv_dtype} and {heads} heads (the module has "
                f"{', '.join(f'{d}/{h}' for d, h in offered) or 'none'})")
        self.combine = self._one(
            [k for k in module.find(role="mla.combine")
             if k.launch.get("heads", heads) == heads and
             k.launch.get("kv_dtype", kv_dtype) == kv_dtype], "mla.combine")
        self.plan = self._one(module.find(role="mla.plan"), "mla.plan")
        self._workspaces = {}
        # signature -> (launches, CallGraph or None, output allocator)
        self._calls = {}

    def _one(self, kernels, role):
        if len(kernels) != 1:
            found = ", ".join(k.name for k in kernels) or "none"
            raise MlaError(f"{self.module.manifest.binary}: one {role} kernel "
                           f"is needed, the module has {found}")
        return kernels[0]

    def _partial_for(self, rows):
        """The partial kernel whose row blocks hold `rows` query rows with
        the least padding, else the one with the most rows (as mla-run
        picks)."""
        def fit(kernel):
            block = kernel.launch["block_rows"]
            return (0, block) if block >= rows else (1, -block)
        return min(self.partials, key=fit)

    def _check(self, q, kv, qo_indptr, kv_indptr, kv_scale):
        """Shapes the kernels cannot check; returns (T, K, scale_stride)."""
        q_shape = _shape(q)
        if len(q_shape) != 3 or q_shape[1:] != (self.heads, QK_DIM):
            raise MlaError(f"q: shape [total_q, {self.heads}, {QK_DIM}] is "
                           f"expected, got {list(q_shape)}")
        width = MX_BYTES if self.kv_dtype == "mxfp4" else QK_DIM
        kv_shape = _shape(kv)
        if kv_shape[1:] not in ((width,), (1, width)):
            raise MlaError(f"kv: shape [total_kv, {width}] or [total_kv, 1, "
                           f"{width}] is expected for {self.kv_dtype}, got "
                           f"{list(kv_shape)}")
        for name, indptr in (("qo_indptr", qo_indptr), ("kv_indptr", kv_indptr)):
            if len(_shape(indptr)) != 1 or _shape(indptr)[0] < 1:
                raise MlaError(f"{name}: a 1-D tensor of batch + 1 entries is "
                               f"expected, got shape {list(_shape(indptr))}")
        if _shape(qo_indptr) != _shape(kv_indptr):
            raise MlaError(f"qo_indptr has {_shape(qo_indptr)[0]} entries, "
                           f"kv_indptr {_shape(kv_indptr)[0]}")
        stride = 0
        if self.kv_dtype == "bf16":
            if kv_scale is not None:
                raise MlaError("kv_scale: bf16 caches have no scale")
        elif kv_scale is None:
            raise MlaError(f"kv_scale: {self.kv_dtype} caches need their scale")
        elif self.kv_dtype == "mxfp4":
            scale_shape = _shape(kv_scale)
            if (len(scale_shape) != 2 or scale_shape[0] < kv_shape[0] or
                    scale_shape[1] < MX_SCALES):
                raise MlaError(f"kv_scale: E8M0 scales of shape [>= "
                               f"{kv_shape[0]}, >= {MX_SCALES}] are expected, "
                               f"got {list(scale_shape)}")
            stride = scale_shape[1]
        elif math.prod(_shape(kv_scale)) != 1:
            raise MlaError(f"kv_scale: one f32 scale is expected, got shape "
                           f"{list(_shape(kv_scale))}")
        return q_shape[0], kv_shape[0], stride

    def _workspace(self, q, batch, total_q, total_kv, partial):
        key = (batch, total_q, total_kv, partial.name, str(getattr(q, "device", "")))
        space = self._workspaces.get(key)
        if space is None:
            launch = partial.launch
            sizes = plan_capacity(
                batch, total_q, total_kv, self.heads, launch["kv_tile"],
                launch["block_rows"], self.combine.launch["block_rows"],
                launch.get("max_splits", DEFAULT_MAX_SPLITS), self.balanced)
            work, combine, part_rows = sizes
            if max(work + 1, combine, part_rows) > 0x7FFFFFFF:
                raise MlaError(f"a batch of {total_q} tokens and {total_kv} "
                               "keys could need more work items, combine "
                               "items or part rows than the kernels' int32 "
                               "fields hold")
            space = {
                "capacity": sizes,
                "work": _empty(q, work * 8, "int32"),
                "work_indptr": _empty(q, work + 1, "int32"),
                "combine": _empty(q, combine * 8, "int32"),
                # At least one row, so that the pointers are valid.
                "part_out": _empty(q, max(part_rows, 1) * V_DIM, "float32"),
                "part_lse": _empty(q, max(part_rows, 1), "float32"),
            }
            self._workspaces[key] = space
        return space

    def _bind(self, q, kv, qo_indptr, kv_indptr, kv_scale, sm_scale, out):
        """The three launches of a call, checked, and the pointer arguments
        that a later call of the same signature re-points."""
        total_q, total_kv, stride = self._check(q, kv, qo_indptr, kv_indptr,
                                                kv_scale)
        batch = _shape(qo_indptr)[0] - 1
        rows = _cdiv(total_q, max(batch, 1)) * self.heads
        partial = self._partial_for(rows)
        space = self._workspace(q, batch, total_q, total_kv, partial)
        work, combine, _ = space["capacity"]
        launch = partial.launch
        parallelism = 0  # the reproducible plan
        if self.balanced:
            parallelism = self.parallelism or min(
                self.module.backend.parallelism(partial.info), 0x7FFFFFFF)
        values = {
            "q": q, "kv": kv, "kv_scale": kv_scale, "scale_stride": stride,
            "qo_indptr": qo_indptr, "kv_indptr": kv_indptr, "out": out,
            "sm_scale": sm_scale, "batch": batch, "heads": self.heads,
            "kv_tile": launch["kv_tile"], "block_rows": launch["block_rows"],
            "combine_block_rows": self.combine.launch["block_rows"],
            "max_splits": launch.get("max_splits", DEFAULT_MAX_SPLITS),
            "parallelism": parallelism, "work_capacity": work, "combine_capacity": combine, **space,
        }
        launches = []
        for kernel, grid in ((self.plan, None), (partial, work),
                             (self.combine, combine)):
            bound = kernel.bind(**{n: values[n] for n in kernel.arg_names},
                                grid=grid)
            inputs = [n for n in _CALL_POINTERS if n in kernel.arg_names]
            launches.append((bound, inputs))
        return launches

    def _output_maker(self, q):
        """A function allocating the output for inputs like `q`: [total_q,
        heads, 512] bf16 (numpy: uint16 bits) where q lives."""
        shape = (_shape(q)[0], self.heads, V_DIM)
        library = _library(q)
        if library.__name__ == "torch":
            return functools.partial(library.empty, shape,
                                     dtype=library.bfloat16, device=q.device)
        return functools.partial(library.empty, shape, dtype="uint16")

    def __call__(self, q, kv, qo_indptr, kv_indptr, kv_scale=None,
                 sm_scale=None, out=None):
        """Launches the decode of the batch; returns `out` ([total_q,
        heads, 512] bf16, allocated when not given).

        The first call of a signature (the tensors' types, shapes, strides
        and devices, and sm_scale) checks everything; later ones only point
        the launches at the new tensors."""
        if sm_scale is None:
            sm_scale = 1.0 / math.sqrt(QK_DIM)
        key = (_signature(q), _signature(kv), _signature(qo_indptr),
               _signature(kv_indptr), _signature(kv_scale), _signature(out),
               sm_scale)
        call = self._calls.get(key)
        if call is None:
            new_output = self._output_maker(q)
            if out is None:
                out = new_output()
            launches = self._bind(q, kv, qo_indptr, kv_indptr, kv_scale,
                                  sm_scale, out)
            graph = None
            if self.graphs and hasattr(self.module.backend, "graph"):
                graph = self.module.backend.graph([l for l, _ in launches])
            call = self._calls[key] = (launches, graph, new_output)
        elif out is None:
            out = call[2]()
        launches, graph, _ = call
        q_at, kv_at = _address(q), _address(kv)
        qo_at, kv_indptr_at = _address(qo_indptr), _address(kv_indptr)
        out_at = _address(out)
        scale_at = None if kv_scale is None else _address(kv_scale)

        def point():
            addresses = {"q": q_at, "kv": kv_at, "qo_indptr": qo_at,
                         "kv_indptr": kv_indptr_at, "out": out_at,
                         "kv_scale": scale_at}
            for launch, inputs in launches:
                for name in inputs:
                    launch.point(name, addresses[name])

        if graph is not None:
            graph((q_at, kv_at, qo_at, kv_indptr_at, out_at, scale_at), point)
            return out
        point()
        for launch, _ in launches:
            launch()
        return out
