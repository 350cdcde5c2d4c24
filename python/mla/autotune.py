"""Choosing among a kernel's instances by timing them, as Triton's autotune.

    gemm = mla.Autotune(module, "gemm_bf16", key=("m", "n", "k"))
    gemm(a, b, c, m, n, k)

An Autotune is called like the kernel. For each new key (the values of
the `key` arguments: a scalar's value, a tensor's shape and element type;
and a tensor's alignment where it is less than an instance requires)
it binds the call to every instance of the kernel (the manifest's
`instance_of`), leaves out those that refuse it (a requirement that does
not hold, an argument of another type), times the others on the given
arguments and keeps the fastest; later calls with that key launch it
without timing. `cache=PATH` keeps the choices in a JSON file across
processes. A kernel that reads what it writes names those arguments in
`restore`: their contents are put back after each instance's timing
runs.
"""

import json
import os
import statistics
import sys
import tempfile
import time

from .args import integer_of
from .errors import MlaError
from .manifest import is_alignment

WARMUP = 2
REPETITIONS = 10
# Device cycles of the spin ahead of the timed launches: 50 µs of host
# time per launch at 2 GHz (a faster host only waits longer).
SPIN_CYCLES = REPETITIONS * 50 * 2000


def _key_part(value):
    """A key argument's part of the key, as JSON: a number's value (numpy
    and torch scalars too), a tensor's shape and element type."""
    integer = integer_of(value)
    if integer is not None:
        return integer
    if isinstance(value, (float, bool, str)) or value is None:
        return value
    shape = getattr(value, "shape", None)
    if shape is not None and getattr(value, "dtype", None) is not None:
        if len(shape) == 0:
            return float(value)
        return [list(int(n) for n in shape), str(value.dtype)]
    raise MlaError(f"a key argument takes a number or a tensor, got "
                   f"{type(value).__name__}")


def _address_of(value):
    """A torch tensor's or numpy array's data address; None for others."""
    if callable(getattr(value, "data_ptr", None)):
        return value.data_ptr()
    data = getattr(getattr(value, "ctypes", None), "data", None)
    return data if isinstance(data, int) else None


def _required_alignments(instances):
    """Per pointer argument, the largest alignment an instance requires of
    it (`P % C == 0`)."""
    required = {}
    for kernel in instances:
        for condition in (kernel.info.launch or {}).get("requires", []):
            if is_alignment(condition):
                name, c = condition[1][1]["arg"], condition[1][2]
                required[name] = max(required.get(name, 1), c)
    return required


def _alignment_part(named, required):
    """The arguments of `named` whose data is less aligned than an instance
    requires, with the alignment they have: instances refuse those, so
    such calls get choices of their own."""
    parts = []
    for name, needed in sorted(required.items()):
        address = _address_of(named.get(name))
        if address is not None and address % needed:
            parts.append([name, address & -address])
    return tuple(parts)


def _copy(value, name):
    if callable(getattr(value, "clone", None)):
        return value.clone()
    if callable(getattr(value, "copy", None)):
        return value.copy()
    raise MlaError(f"restore: argument '{name}' is not a torch tensor or "
                   "numpy array")


def _put_back(value, saved):
    if callable(getattr(value, "copy_", None)):
        value.copy_(saved)
    else:
        value[...] = saved


def _taken(kernel, named):
    """The arguments of `named` that `kernel` takes (an instance lacks those
    whose type has no case for it)."""
    return {n: v for n, v in named.items() if n in kernel.arg_names}


def _host_timer(launch):
    """Median µs of `launch` run on the calling thread."""
    times = []
    for i in range(WARMUP + REPETITIONS):
        start = time.perf_counter()
        launch()
        if i >= WARMUP:
            times.append((time.perf_counter() - start) * 1e6)
    return statistics.median(times)


def _device_timer(launch):
    """Median µs of `launch` between CUDA events on torch's stream, the
    launches queued behind a device-side spin so that the events time the
    device rather than the host's launches."""
    torch = sys.modules.get("torch")
    if torch is None or not torch.cuda.is_available():
        raise MlaError("timing GPU instances needs torch with a GPU")
    for _ in range(WARMUP):
        launch()
    events = [(torch.cuda.Event(enable_timing=True),
               torch.cuda.Event(enable_timing=True))
              for _ in range(REPETITIONS)]
    sleep = getattr(torch.cuda, "_sleep", None)
    if sleep is not None:
        sleep(SPIN_CYCLES)
    for start, end in events:
        start.record()
        launch()
        end.record()
    torch.cuda.synchronize()
    return statistics.median(s.elapsed_time(e) * 1e3 for s, e in events)


class Autotune:
    """The fastest instance of `kernel` in `module` per key (see above).
    `timer(launch) -> µs` replaces the default timing (host clock for host
    modules, CUDA events otherwise)."""

    def __init__(self, module, kernel, key=(), restore=(), cache=None,
                 timer=None):
        self.module, self.kernel = module, kernel
        self.instances = [module[s] for s in module.kernels
                          if module[s].info.instance_of == kernel]
        if not self.instances:
            families = sorted({module[s].info.instance_of
                               for s in module.kernels} - {None})
            raise MlaError(f"{module.manifest.binary}: no instances of "
                           f"kernel '{kernel}' (parameterized kernels: "
                           f"{', '.join(families) or 'none'})")
        self._alignments = _required_alignments(self.instances)
        names = {tuple(k.arg_names) for k in self.instances}
        self._names = names.pop() if len(names) == 1 else None
        for name in (*key, *restore):
            if not any(name in k.arg_names for k in self.instances):
                raise MlaError(f"kernel '{kernel}' has no argument '{name}'")
        self.key, self.restore, self.cache = tuple(key), tuple(restore), cache
        self.timer = timer or (_host_timer if module.target == "host"
                               else _device_timer)
        self.choices = {}  # key -> symbol
        self.timings = {}  # key -> {symbol: µs or the refusal}
        self._stored = self._load() if cache else {}

    def _named(self, args, kwargs):
        if not args:
            return dict(kwargs)
        if self._names is None:
            raise MlaError(f"kernel '{self.kernel}': its instances take "
                           "different arguments; pass them by name")
        if len(args) > len(self._names):
            raise MlaError(f"kernel '{self.kernel}' takes "
                           f"{len(self._names)} arguments, got {len(args)}")
        named = dict(zip(self._names, args))
        for name, value in kwargs.items():
            if name in named:
                raise MlaError(f"kernel '{self.kernel}': argument '{name}' "
                               "given twice")
            named[name] = value
        return named

    def _cache_key(self, key):
        return json.dumps([self.module.target, self.kernel, key])

    def _load(self):
        try:
            with open(self.cache) as f:
                stored = json.load(f)
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as e:
            raise MlaError(f"{self.cache}: not an autotune cache: {e}") from None
        if not isinstance(stored, dict):
            raise MlaError(f"{self.cache}: not an autotune cache")
        return stored

    def _store(self, key, symbol):
        """Adds the choice to the cache file (a temporary, then a rename, so
        a reader never sees half a file)."""
        stored = self._load()
        stored[self._cache_key(key)] = symbol
        directory = os.path.dirname(os.path.abspath(self.cache))
        fd, temporary = tempfile.mkstemp(dir=directory, suffix=".tmp")
        with os.fdopen(fd, "w") as f:
            json.dump(stored, f, indent=1, sort_keys=True)
        os.replace(temporary, self.cache)
        self._stored = stored

    def _choose(self, key, named, grid):
        timings, launches = {}, {}
        for kernel in self.instances:
            try:
                launches[kernel.name] = kernel.bind(
                    grid=grid, **_taken(kernel, named))
            except MlaError as e:
                timings[kernel.name] = str(e)
        if not launches:
            reasons = list(dict.fromkeys(timings.values()))
            raise MlaError(f"kernel '{self.kernel}': no instance takes this "
                           "call: " + "; ".join(reasons))
        saved = {n: _copy(named[n], n) for n in self.restore if n in named}
        for symbol, launch in launches.items():
            timings[symbol] = self.timer(launch)
            for name, value in saved.items():
                _put_back(named[name], value)
        self.timings[key] = timings
        return min(launches, key=lambda s: timings[s])

    def __call__(self, *args, grid=None, **kwargs):
        named = self._named(args, kwargs)
        for name in named:
            if not any(name in k.arg_names for k in self.instances):
                raise MlaError(f"kernel '{self.kernel}' has no argument "
                               f"'{name}'")
        key = tuple(_key_part(named.get(name)) for name in self.key)
        misaligned = _alignment_part(named, self._alignments)
        if misaligned:
            key += ({"aligned": misaligned},)
        hashable = json.dumps(key)
        symbol = self.choices.get(hashable)
        if symbol is None:
            stored = self._stored.get(self._cache_key(key))
            if any(k.name == stored for k in self.instances):
                symbol = stored
            else:
                symbol = self._choose(hashable, named, grid)
                if self.cache:
                    self._store(key, symbol)
            self.choices[hashable] = symbol
        kernel = self.module[symbol]
        kernel(grid=grid, **_taken(kernel, named))
