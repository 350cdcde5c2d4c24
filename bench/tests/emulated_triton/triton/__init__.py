"""A CPU stand-in for the few pieces of Triton that bench/triton_mla.py
uses, so that the peer's indexing, masks, dequantization and split merging
can be checked on a machine without a GPU or a Triton install (Triton's own
interpreter, TRITON_INTERPRET=1, needs the compiled package). It runs each
program instance of a launch in turn, with torch tensors as tiles; it checks
semantics, not compilation or speed.

Put this folder first on sys.path only where the real Triton is missing.
"""

from . import language

EMULATED = True
__version__ = "emulated"


def cdiv(a, b):
    return -(-int(a) // int(b))


def next_power_of_2(n):
    n = int(n)
    return 1 if n <= 1 else 1 << (n - 1).bit_length()


class JITFunction:
    def __init__(self, fn):
        self.fn = fn
        self.__name__ = fn.__name__
        self.__doc__ = fn.__doc__

    def __call__(self, *args, **kwargs):
        # A jit function called from a kernel runs inline.
        return self.fn(*args, **kwargs)

    def __getitem__(self, grid):
        def launch(*args, num_warps=4, num_stages=2, **constexprs):
            del num_warps, num_stages
            dims = tuple(int(g) for g in grid) + (1,) * (3 - len(grid))
            wrapped = [language.make_pointer(a) if hasattr(a, "data_ptr") else
                       a for a in args]
            language._state["grid"] = dims
            for z in range(dims[2]):
                for y in range(dims[1]):
                    for x in range(dims[0]):
                        language._state["pid"] = (x, y, z)
                        self.fn(*wrapped, **constexprs)

        return launch


def jit(fn=None, **options):
    del options
    if fn is None:
        return JITFunction
    return JITFunction(fn)
