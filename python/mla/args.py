"""Python values as kernel arguments: the argument array of docs/ABI.md.

Every argument slot points at the argument's value: a `void *` for a
`ptr` argument, an int32/int64/float for a scalar. A `ptr` argument takes
a torch tensor, a numpy array or (host only) any C-contiguous buffer
(`array.array`, `bytearray`, `memoryview`) whose elements are the
argument's type, or a raw byte view of it for the 8-bit formats, which
torch and numpy spell several ways (`uint8`, `float8_e4m3fn`, ...).
"""

import ctypes
import struct

from .errors import MlaError

# Element types by byte width, MLIR's names as in manifests.
BYTE_TYPES = {"i8", "f8E4M3FN", "f8E4M3FNUZ", "f8E5M2", "f8E5M2FNUZ",
              "f8E8M0FNU", "f4E2M1FN"}

# torch dtype name -> the manifest types it holds.
TORCH_TYPES = {
    "float32": {"f32"}, "float16": {"f16"}, "bfloat16": {"bf16"},
    "int32": {"i32"}, "int64": {"i64"},
    "uint8": BYTE_TYPES, "int8": BYTE_TYPES,
    "float8_e4m3fn": {"f8E4M3FN"}, "float8_e4m3fnuz": {"f8E4M3FNUZ"},
    "float8_e5m2": {"f8E5M2"}, "float8_e5m2fnuz": {"f8E5M2FNUZ"},
    "float8_e8m0fnu": {"f8E8M0FNU"},
    # Two E2M1 values per byte: the packed bytes MXFP4 kernels take as i8.
    "float4_e2m1fn_x2": {"i8", "f4E2M1FN"},
}

# numpy dtype name -> manifest types (numpy has no bf16: its bits as uint16).
NUMPY_TYPES = {
    "float32": {"f32"}, "float16": {"f16"}, "uint16": {"bf16"},
    "int32": {"i32"}, "int64": {"i64"}, "uint8": BYTE_TYPES, "int8": BYTE_TYPES,
}

# struct format character -> manifest types, for plain buffers.
BUFFER_TYPES = {
    "f": {"f32"}, "e": {"f16"}, "H": {"bf16"}, "B": BYTE_TYPES,
    "b": BYTE_TYPES, "c": BYTE_TYPES,
}
for _code, _types in (("i", {"i32"}), ("l", {"i32", "i64"}), ("q", {"i64"})):
    BUFFER_TYPES[_code] = {t for t in _types
                           if struct.calcsize(_code) * 8 == int(t[1:])}


def _wrong_type(arg, container, got):
    # The article as the type name is read aloud: "an f32", "a bf16".
    article = "an" if arg.type[0] in "aefhilmnorsx" else "a"
    return MlaError(f"argument '{arg.name}': {article} {arg.type} {container} "
                    f"is expected, got {got}")


class Tensor:
    """A pointer argument's address and where it lives."""

    def __init__(self, address, device, keepalive=None):
        self.address = address
        self.device = device  # "cpu" or ("cuda", index)
        self.keepalive = keepalive


def _torch_tensor(value, arg):
    dtype = str(value.dtype).replace("torch.", "")
    if arg.type not in TORCH_TYPES.get(dtype, ()):
        raise _wrong_type(arg, "tensor", f"torch.{dtype}")
    if not value.is_contiguous():
        raise MlaError(f"argument '{arg.name}': the tensor is not contiguous")
    device = "cpu" if value.device.type == "cpu" else (
        "cuda", value.device.index)
    return Tensor(value.data_ptr(), device, value)


def _numpy_array(value, arg):
    if arg.type not in NUMPY_TYPES.get(value.dtype.name, ()):
        raise _wrong_type(arg, "array", f"numpy {value.dtype.name}")
    if not value.flags["C_CONTIGUOUS"]:
        raise MlaError(f"argument '{arg.name}': the array is not contiguous")
    if not value.flags["WRITEABLE"]:
        raise MlaError(f"argument '{arg.name}': the array is read-only")
    return Tensor(value.ctypes.data, "cpu", value)


def _buffer(value, arg):
    try:
        view = memoryview(value)
    except TypeError:
        raise MlaError(f"argument '{arg.name}': a tensor or buffer is "
                       f"expected, got {type(value).__name__}") from None
    code = view.format.lstrip("@=<")
    if arg.type not in BUFFER_TYPES.get(code, ()):
        raise _wrong_type(arg, "buffer", f"format '{view.format}'")
    if not view.c_contiguous:
        raise MlaError(f"argument '{arg.name}': the buffer is not contiguous")
    if view.readonly:
        raise MlaError(f"argument '{arg.name}': the buffer is read-only")
    holder = (ctypes.c_char * view.nbytes).from_buffer(view.cast("B"))
    return Tensor(ctypes.addressof(holder), "cpu", (view, holder))


def tensor_of(value, arg):
    """The Tensor a `ptr` argument's value is, or an error naming it."""
    kind = type(value).__module__.split(".")[0]
    if kind == "torch":
        return _torch_tensor(value, arg)
    if kind == "numpy":
        return _numpy_array(value, arg)
    return _buffer(value, arg)


def scalar_slot(value, arg):
    """The ctypes value a scalar argument's slot points at."""
    if arg.type == "f32":
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise MlaError(f"argument '{arg.name}': a number is expected, "
                           f"got {type(value).__name__}")
        return ctypes.c_float(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise MlaError(f"argument '{arg.name}': an integer is expected, "
                       f"got {type(value).__name__}")
    bits = 32 if arg.type == "i32" else 64
    if not -(1 << (bits - 1)) <= value < (1 << (bits - 1)):
        raise MlaError(f"argument '{arg.name}': {value} does not fit {arg.type}")
    return ctypes.c_int32(value) if bits == 32 else ctypes.c_int64(value)
