"""Host modules: a shared object whose kernels run on the calling thread.

Each kernel is `void SYMBOL(void **args, const int64_t program_id[3],
const int64_t num_programs[3])`, called once per program instance
(docs/ABI.md, "Calling convention"). The object is opened RTLD_LOCAL and
each symbol must be defined by the object itself, as mla-run requires.
"""

import ctypes
import os

from .errors import MlaError
from .manifest import ABI_RECORD_SYMBOL, check_abi_record

_KERNEL = ctypes.CFUNCTYPE(None, ctypes.POINTER(ctypes.c_void_p),
                           ctypes.POINTER(ctypes.c_int64),
                           ctypes.POINTER(ctypes.c_int64))


class _DlInfo(ctypes.Structure):
    _fields_ = [("dli_fname", ctypes.c_char_p), ("dli_fbase", ctypes.c_void_p),
                ("dli_sname", ctypes.c_char_p), ("dli_saddr", ctypes.c_void_p)]


def _defining_object(address):
    """The file of the loaded object that holds `address`, or None."""
    libc = ctypes.CDLL(None)
    info = _DlInfo()
    if not libc.dladdr(ctypes.c_void_p(address), ctypes.byref(info)):
        return None
    return os.path.realpath(info.dli_fname.decode()) if info.dli_fname else None


class HostBackend:
    device = "cpu"

    def __init__(self, manifest):
        path = manifest.binary
        try:
            self.library = ctypes.CDLL(path, mode=os.RTLD_NOW | os.RTLD_LOCAL)
        except OSError as e:
            raise MlaError(f"{path}: cannot load the module: {e}") from None
        real = os.path.realpath(path)
        self.kernels = {}
        for kernel in manifest.kernels:
            try:
                function = getattr(self.library, kernel.symbol)
            except AttributeError:
                raise MlaError(f"{path}: no kernel '{kernel.symbol}'") from None
            address = ctypes.cast(function, ctypes.c_void_p).value
            if _defining_object(address) != real:
                raise MlaError(f"{path}: '{kernel.symbol}' is not defined by "
                               "the module")
            self.kernels[kernel.symbol] = _KERNEL(address)
        try:
            record = ctypes.c_char.in_dll(self.library, ABI_RECORD_SYMBOL)
        except ValueError:
            raise MlaError(f"{path}: the binary has no ABI record "
                           f"({ABI_RECORD_SYMBOL})") from None
        check_abi_record(manifest, ctypes.string_at(ctypes.addressof(record)))

    def accepts(self, tensor):
        return tensor.device == "cpu"

    def parallelism(self, kernel):
        # Programs run one after another on the calling thread.
        return 1

    def launcher(self, kernel, grid):
        return lambda slots: self.launch(kernel, grid, slots)

    def launch(self, kernel, grid, slots):
        function = self.kernels[kernel.symbol]
        count = (ctypes.c_int64 * 3)(*grid)
        for z in range(grid[2]):
            for y in range(grid[1]):
                for x in range(grid[0]):
                    function(slots, (ctypes.c_int64 * 3)(x, y, z), count)
