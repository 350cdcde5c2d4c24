"""Kernels compiled by mla-compile, called from Python.

    import mla
    module = mla.Module("build/softmax.so")          # or .ptx/.cubin/.hsaco
    module.row_softmax(x, y, rows, cols, grid=(3, 1, 1))

A module is its binary and the manifest beside it (docs/ABI.md). Arguments
bind by the manifest's names, positionally in its order or by keyword; a
tensor whose element type, device or kind does not fit its argument is
refused with an error naming the argument. The backend follows the
manifest's target: the host `.so` through ctypes, sm_* through the CUDA
driver and gfx9* through HIP, both on PyTorch's current stream when torch
is loaded. Pure Python; torch and numpy are optional.

`mla.Autotune(module, kernel, key=(...))` calls the fastest of a
parameterized kernel's instances, timed once per key.

`mla.Decode(module, kv_dtype, heads)` runs a module's MLA decode kernels
on a batch, planned on the device (docs/ABI.md, "The plan on the
device").
"""

from .autotune import Autotune
from .decode import Decode
from .errors import MlaError
from .module import Kernel, Module

__all__ = ["Autotune", "Decode", "Kernel", "MlaError", "Module"]
