"""A compiled module and its kernels, callable with tensors by argument name."""

import ctypes

from .args import integer_of, scalar_slot, tensor_of
from .driver import CUDA, HIP, DriverBackend
from .errors import MlaError
from .launch_expr import arguments_of, describe, evaluate
from .host import HostBackend
from .manifest import load_manifest


def _backend_for(manifest):
    target = manifest.target
    if target == "host":
        return HostBackend(manifest)
    if target.endswith("-emu"):
        raise MlaError(f"{manifest.path}: target {target}: emulated AMD "
                       "modules run through mla-run --target emu")
    if target.startswith("sm_"):
        return DriverBackend(manifest, CUDA)
    if target.startswith("gfx"):
        return DriverBackend(manifest, HIP)
    raise MlaError(f"{manifest.path}: unknown target '{target}'")


def _device_name(device):
    return device if device == "cpu" else f"{device[0]}:{device[1]}"


def _sizes_of(symbol, grid):
    """The three sizes of a given `grid`: a size or up to three."""
    try:
        entries = (grid,) if integer_of(grid) is not None else tuple(grid)
    except TypeError:  # neither a size nor sizes: refused below
        entries = (grid,)
    sizes = tuple(integer_of(n) for n in entries)
    if not 1 <= len(sizes) <= 3 or any(n is None or n < 0 for n in sizes):
        raise MlaError(f"kernel '{symbol}': grid must be up to three "
                       f"sizes >= 0, got {grid!r}")
    return sizes + (1,) * (3 - len(sizes))


def _values_read(expr, integers):
    """'rows = 37, cols = 200': the arguments `expr` reads, their values."""
    return ", ".join(f"{n} = {integers[n]}" for n in arguments_of(expr))


def _launch_grid(kernel, grid, integers):
    """The grid of a launch: `grid`, refused where smaller than the rule's
    (unless the kernel's grid is free), or else the rule's."""
    launch = kernel.launch or {}
    rule = launch.get("grid")
    given = None if grid is None else _sizes_of(kernel.symbol, grid)
    if rule is None:
        if given is None:
            raise MlaError(f"kernel '{kernel.symbol}': grid= is needed (it "
                           "states no grid rule)")
        return given
    sizes = []
    for d, entry in enumerate(rule):
        axis = "xyz"[d]
        if isinstance(entry, str):  # a quantity an application computes
            if given is None:
                raise MlaError(f"kernel '{kernel.symbol}': grid= is needed "
                               f"(its grid {axis} is '{entry}', a quantity "
                               "its application's driver computes)")
            sizes.append(given[d])
            continue
        try:
            needed = evaluate(entry, integers)
        except MlaError as e:
            raise MlaError(f"kernel '{kernel.symbol}': cannot compute grid "
                           f"{axis} = {describe(entry)}: {e}") from None
        values = _values_read(entry, integers)
        values = values and " with " + values
        if needed < 0:
            raise MlaError(f"kernel '{kernel.symbol}': its grid {axis} = "
                           f"{describe(entry)} is {needed}{values}")
        if given is None:
            sizes.append(needed)
        elif given[d] < needed and not launch.get("free_grid", False):
            raise MlaError(f"kernel '{kernel.symbol}': grid {axis} is "
                           f"{given[d]}, it needs at least {describe(entry)} "
                           f"= {needed}{values}")
        else:
            sizes.append(given[d])
    return tuple(sizes)


def _check_requirements(kernel, integers):
    """Refuses arguments that break a condition the kernel states."""
    _check_requirements_of(kernel, (kernel.launch or {}).get("requires", []),
                           integers)


def _check_requirements_of(kernel, conditions, integers):
    for condition in conditions:
        try:
            holds = evaluate(condition, integers)
        except MlaError as e:
            raise MlaError(f"kernel '{kernel.symbol}': cannot check its "
                           f"requirement {describe(condition)}: {e}") from None
        if not holds:
            raise MlaError(f"kernel '{kernel.symbol}': requires "
                           f"{describe(condition)}, got "
                           f"{_values_read(condition, integers)}")


class Kernel:
    """One kernel of a module: `kernel(*args, grid=..., **named_args)`."""

    def __init__(self, module, info):
        self.module = module
        self.info = info

    @property
    def name(self):
        return self.info.symbol

    @property
    def arg_names(self):
        return [a.name for a in self.info.args]

    @property
    def launch(self):
        return dict(self.info.launch or {})

    def _bind(self, args, kwargs):
        names = self.arg_names
        if len(args) > len(names):
            raise MlaError(f"kernel '{self.name}' takes {len(names)} "
                           f"arguments, got {len(args)}")
        bound = dict(zip(names, args))
        for name, value in kwargs.items():
            if name not in names:
                raise MlaError(f"kernel '{self.name}' has no argument "
                               f"'{name}' (its arguments: {', '.join(names)})")
            if name in bound:
                raise MlaError(f"kernel '{self.name}': argument '{name}' "
                               "given twice")
            bound[name] = value
        missing = [n for n in names if n not in bound]
        if missing:
            raise MlaError(f"kernel '{self.name}': missing argument"
                           f"{'s' if len(missing) > 1 else ''} "
                           f"{', '.join(repr(n) for n in missing)}")
        return [bound[n] for n in names]

    def _tensor(self, arg, value):
        tensor = tensor_of(value, arg)
        backend = self.module.backend
        if not backend.accepts(tensor):
            raise MlaError(
                f"argument '{arg.name}': a tensor on "
                f"{_device_name(backend.device)} is expected (the module's "
                f"target is {self.module.target}), got one on "
                f"{_device_name(tensor.device)}")
        return tensor

    def _check_extents(self, sizes, tensors, integers):
        """Refuses a tensor smaller than the kernel may reach through it."""
        for arg in self.info.args:
            if arg.extent is None:
                continue
            try:
                needed = evaluate(arg.extent, integers, sizes)
            except MlaError as e:
                raise MlaError(f"kernel '{self.name}': argument '{arg.name}': "
                               f"cannot compute its extent: {e}") from None
            tensor = tensors[arg.name]
            given = tensor.elements(arg.type)
            if given < needed:
                raise MlaError(f"kernel '{self.name}': argument '{arg.name}' "
                               f"needs {needed} elements, the "
                               f"{tensor.container} has {given}")

    def bind(self, *args, grid=None, **kwargs):
        """Checks a call as __call__ does and returns it as a Launch, to be
        run (again) later."""
        values = self._bind(args, kwargs)
        slots, tensors, integers, addresses = [], {}, {}, {}
        for arg, value in zip(self.info.args, values):
            if arg.kind == "scalar":
                slot = scalar_slot(value, arg)
                if arg.type != "f32":
                    integers[arg.name] = slot.value
            else:
                tensors[arg.name] = tensor = self._tensor(arg, value)
                slot = ctypes.c_void_p(tensor.address)
                addresses[arg.name] = tensor.address
            slots.append(slot)
        # A requirement reads a pointer as its address (its alignment).
        _check_requirements(self.info, {**integers, **addresses})
        sizes = _launch_grid(self.info, grid, integers)
        if 0 not in sizes:  # else nothing runs, so nothing is reached
            self._check_extents(sizes, tensors, integers)
        return Launch(self, sizes, slots)

    def __call__(self, *args, grid=None, **kwargs):
        self.bind(*args, grid=grid, **kwargs)()


class Launch:
    """A checked call of a kernel, run by calling it. `point(name,
    address)` moves a pointer argument to another tensor's storage without
    checking it again: for a caller that has checked the new tensor has
    the old one's type, device and size (mla.Decode)."""

    def __init__(self, kernel, sizes, slots):
        self.kernel = kernel
        self.sizes = sizes
        self._slots = {arg.name: slot
                       for arg, slot in zip(kernel.info.args, slots)}
        self._array = (ctypes.c_void_p * max(len(slots), 1))(
            *(ctypes.addressof(slot) for slot in slots))
        self._run = None
        if 0 not in sizes:  # else nothing runs
            self._run = kernel.module.backend.launcher(kernel.info, sizes)

    @property
    def argument_array(self):
        """The `void **` of the launch's argument slots (docs/ABI.md)."""
        return self._array

    def point(self, name, address):
        # The requirements that read the pointer (its alignment) still hold.
        for condition in (self.kernel.info.launch or {}).get("requires", []):
            if name in arguments_of(condition):
                _check_requirements_of(self.kernel.info, [condition],
                                       {name: address})
        self._slots[name].value = address

    def __call__(self):
        if self._run is not None:
            self._run(self._array)


class Module:
    """The binary `path` (or its manifest) that mla-compile wrote."""

    def __init__(self, path):
        self.manifest = load_manifest(str(path))
        self.backend = _backend_for(self.manifest)
        self._kernels = {k.symbol: Kernel(self, k) for k in self.manifest.kernels}

    @property
    def target(self):
        return self.manifest.target

    @property
    def kernels(self):
        return list(self._kernels)

    def _no_kernel(self, symbol):
        return (f"{self.manifest.binary}: no kernel '{symbol}' (its kernels: "
                f"{', '.join(self._kernels)})")

    def __getitem__(self, symbol):
        try:
            return self._kernels[symbol]
        except KeyError:
            raise MlaError(self._no_kernel(symbol)) from None

    def __getattr__(self, symbol):
        # Only for names that are not attributes: an AttributeError keeps
        # hasattr() and copy/pickle probing working.
        kernels = self.__dict__.get("_kernels")
        if kernels is None:  # still being made
            raise AttributeError(symbol)
        if symbol not in kernels:
            raise AttributeError(self._no_kernel(symbol))
        return kernels[symbol]

    def find(self, **launch_keys):
        """The kernels whose launch keys include `launch_keys`."""
        return [k for k in self._kernels.values()
                if all(k.launch.get(key) == value
                       for key, value in launch_keys.items())]
