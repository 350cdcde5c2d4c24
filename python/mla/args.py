"""Python values as kernel arguments: the argument array of docs/ABI.md.

Every argument slot points at the argument's value: a `void *` for a
`ptr` argument, an int32/int64/float for a scalar. A `ptr` argument takes
a torch tensor, a numpy array or (host only) any C-contiguous buffer
(`array.array`, `bytearray`, `memoryview`) whose elements are the
argument's type, or a raw byte view of it for the 8-bit formats, which
torch and numpy spell several ways (`uint8`, `float8_e4m3fn`, ...).
"""

import ctypes
import math
import operator
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

# Bits per element of each pointer type: E2M1 values are packed two a byte.
ELEMENT_BITS = {"f32": 32, "i32": 32, "i64": 64, "f16": 16, "bf16": 16,
                **{t: 8 for t in BYTE_TYPES}, "f4E2M1FN": 4}


def _wrong_type(arg, container, got):
    # The article as the type name is read aloud: "an f32", "a bf16".
    article = "an" if arg.type[0] in "aefhilmnorsx" else "a"
    return MlaError(f"argument '{arg.name}': {article} {arg.type} {container} "
                    f"is expected, got {got}")


class Tensor:
    """A pointer argument's address, size and where it lives."""

    def __init__(self, address, device, nbytes, container, keepalive=None):
        self.address = address
        self.device = device  # "cpu" or ("cuda", index)
        self.nbytes = nbytes
        self.container = container  # "tensor", "array" or "buffer"
        self.keepalive = keepalive

    def elements(self, type_):
        """How many elements of manifest type `type_` it holds."""
        return self.nbytes * 8 // ELEMENT_BITS[type_]


def _torch_tensor(value, arg):
    dtype = str(value.dtype).replace("torch.", "")
    if arg.type not in TORCH_TYPES.get(dtype, ()):
        raise _wrong_type(arg, "tensor", f"torch.{dtype}")
    if not value.is_contiguous():
        raise MlaError(f"argument '{arg.name}': the tensor is not contiguous")
    device = "cpu" if value.device.type == "cpu" else (
        "cuda", value.device.index)
    return Tensor(value.data_ptr(), device,
                  value.numel() * value.element_size(), "tensor", value)


def _numpy_array(value, arg):
    if arg.type not in NUMPY_TYPES.get(value.dtype.name, ()):
        raise _wrong_type(arg, "array", f"numpy {value.dtype.name}")
    if not value.flags["C_CONTIGUOUS"]:
        raise MlaError(f"argument '{arg.name}': the array is not contiguous")
    if not value.flags["WRITEABLE"]:
        raise MlaError(f"argument '{arg.name}': the array is read-only")
    return Tensor(value.ctypes.data, "cpu", value.nbytes, "array", value)


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
    return Tensor(ctypes.addressof(holder), "cpu", view.nbytes, "buffer",
                  (view, holder))


def tensor_of(value, arg):
    """The Tensor a `ptr` argument's value is, or an error naming it."""
    kind = type(value).__module__.split(".")[0]
    if kind == "torch":
        return _torch_tensor(value, arg)
    if kind == "numpy":
        return _numpy_array(value, arg)
    return _buffer(value, arg)


def integer_of(value):
    """`value` as an int where it is an integer (Python's, a numpy scalar, a
    0-d numpy array or torch tensor), else None. Bools are not integers."""
    if (isinstance(value, bool) or "bool" in str(getattr(value, "dtype", ""))
            or getattr(value, "ndim", 0) != 0):
        return None
    try:
        return operator.index(value)
    except TypeError:
        return None


def _float_of(value):
    """`value` as a float where it is a real number, else None."""
    integer = integer_of(value)
    if integer is not None:
        return integer
    if isinstance(value, float):
        return value
    # numpy floating scalars and 0-d arrays (dtype.kind), 0-d torch tensors.
    dtype = getattr(value, "dtype", None)
    if getattr(value, "ndim", None) == 0 and (
            getattr(dtype, "kind", None) == "f" or
            getattr(dtype, "is_floating_point", False)):
        return float(value)
    return None


def scalar_slot(value, arg):
    """The ctypes value a scalar argument's slot points at."""
    if arg.type == "f32":
        number = _float_of(value)
        if number is None:
            raise MlaError(f"argument '{arg.name}': a number is expected, "
                           f"got {type(value).__name__}")
        try:
            single = ctypes.c_float(number)
        except OverflowError:  # an int past even float64's range
            single = None
        if single is None or math.isinf(single.value) and not math.isinf(number):
            raise MlaError(f"argument '{arg.name}': {value} does not fit f32")
        return single
    integer = integer_of(value)
    if integer is None:
        raise MlaError(f"argument '{arg.name}': an integer is expected, "
                       f"got {type(value).__name__}")
    bits = 32 if arg.type == "i32" else 64
    if not -(1 << (bits - 1)) <= integer < (1 << (bits - 1)):
        raise MlaError(f"argument '{arg.name}': {integer} does not fit "
                       f"{arg.type}")
    return ctypes.c_int32(integer) if bits == 32 else ctypes.c_int64(integer)
