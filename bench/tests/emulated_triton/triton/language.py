"""The part of triton.language that bench/triton_mla.py uses, executed with
torch on the CPU one program at a time (see __init__.py). Every load and
store is bounds-checked: an unmasked access outside its tensor raises."""

import builtins

import torch

_state = {"pid": (0, 0, 0), "grid": (1, 1, 1)}


class dtype:
    def __init__(self, name, storage):
        self.name, self.storage = name, storage

    def __repr__(self):
        return "tl." + self.name


float32 = dtype("float32", torch.float32)
float64 = dtype("float64", torch.float64)
bfloat16 = dtype("bfloat16", torch.bfloat16)
float16 = dtype("float16", torch.float16)
int1 = dtype("int1", torch.bool)
int8 = dtype("int8", torch.int8)
int16 = dtype("int16", torch.int16)
int32 = dtype("int32", torch.int32)
int64 = dtype("int64", torch.int64)
uint8 = dtype("uint8", torch.uint8)
float8e4nv = dtype("float8e4nv", torch.uint8)  # stored as its bits

_BY_STORAGE = {d.storage: d for d in (float32, float64, bfloat16, float16,
                                      int1, int8, int16, int32, int64, uint8)}


def constexpr(value=None):
    """Constexprs are plain Python values here."""
    return value


def _fp8_table():
    import problem  # bench/ is on sys.path in the tests
    return problem.fp8_e4m3fn_values().to(torch.float32)


class tensor:
    """A value: a torch tensor and its Triton element type."""

    def __init__(self, value, dt=None):
        self.value = value
        self.dtype = dt or _BY_STORAGE[value.dtype]

    # Conversions -----------------------------------------------------------
    def to(self, dt, bitcast=False):
        if bitcast:
            if (torch.empty(0, dtype=dt.storage).element_size() !=
                    self.value.element_size()):
                raise TypeError("bitcast between different widths")
            return tensor(self.value.view(dt.storage), dt)
        if self.dtype is float8e4nv:
            decoded = _fp8_table()[self.value.to(torch.int64)]
            return tensor(decoded.to(dt.storage), dt)
        if dt is float8e4nv:
            raise NotImplementedError("conversion to fp8")
        return tensor(self.value.to(dt.storage), dt)

    def __index__(self):
        return int(self.value)

    __int__ = __index__

    def __bool__(self):
        return bool(self.value)

    def __float__(self):
        return float(self.value)

    @property
    def shape(self):
        return list(self.value.shape)

    def __getitem__(self, index):
        return tensor(self.value[index], self.dtype)

    # Arithmetic --------------------------------------------------------------
    def _binary(self, other, op, reverse=False):
        a, b = self.value, _raw(other)
        if self.dtype is float8e4nv:
            raise TypeError("arithmetic on fp8")
        result = op(b, a) if reverse else op(a, b)
        return tensor(result)

    def __add__(self, o): return self._binary(o, torch.add)
    def __radd__(self, o): return self._binary(o, torch.add, True)
    def __sub__(self, o): return self._binary(o, torch.sub)
    def __rsub__(self, o): return self._binary(o, torch.sub, True)
    def __mul__(self, o): return self._binary(o, torch.mul)
    def __rmul__(self, o): return self._binary(o, torch.mul, True)
    def __truediv__(self, o): return self._binary(o, torch.true_divide)
    def __rtruediv__(self, o): return self._binary(o, torch.true_divide, True)

    def __floordiv__(self, o):
        # Triton divides integers truncating toward zero, like C.
        return self._binary(o, lambda a, b: torch.div(a, b,
                                                      rounding_mode="trunc"))

    def __mod__(self, o): return self._binary(o, torch.fmod)
    def __and__(self, o): return self._binary(o, torch.bitwise_and)
    def __rand__(self, o): return self._binary(o, torch.bitwise_and, True)
    def __or__(self, o): return self._binary(o, torch.bitwise_or)
    def __ror__(self, o): return self._binary(o, torch.bitwise_or, True)
    def __xor__(self, o): return self._binary(o, torch.bitwise_xor)

    def __lshift__(self, o):
        return self._binary(o, torch.bitwise_left_shift)

    def __rshift__(self, o):
        return self._binary(o, torch.bitwise_right_shift)

    def __neg__(self): return tensor(-self.value)
    def __invert__(self): return tensor(~self.value)
    def __lt__(self, o): return self._binary(o, torch.lt)
    def __le__(self, o): return self._binary(o, torch.le)
    def __gt__(self, o): return self._binary(o, torch.gt)
    def __ge__(self, o): return self._binary(o, torch.ge)
    def __eq__(self, o): return self._binary(o, torch.eq)
    def __ne__(self, o): return self._binary(o, torch.ne)
    __hash__ = None


class pointer:
    """Element offsets into one flat tensor."""

    def __init__(self, base, offsets):
        self.base, self.offsets = base, offsets

    def __add__(self, other):
        step = _raw(other)
        if isinstance(step, torch.Tensor):
            step = step.to(torch.int64)
        return pointer(self.base, self.offsets + step)

    __radd__ = __add__

    def __getitem__(self, index):
        return pointer(self.base, self.offsets[index])


def _raw(value):
    if isinstance(value, tensor):
        if value.dtype is float8e4nv:
            raise TypeError("arithmetic on fp8")
        return value.value
    return value


def _wrap(value):
    return value if isinstance(value, tensor) else tensor(
        torch.tensor(value, dtype=torch.int32 if isinstance(value, int) else
                     torch.float32))


def make_pointer(t):
    return pointer(t.reshape(-1), torch.zeros((), dtype=torch.int64))


# Programs ------------------------------------------------------------------
def program_id(axis):
    return tensor(torch.tensor(_state["pid"][axis], dtype=torch.int32))


def num_programs(axis):
    return tensor(torch.tensor(_state["grid"][axis], dtype=torch.int32))


def arange(start, end):
    return tensor(torch.arange(start, end, dtype=torch.int32))


def full(shape, value, dt):
    return tensor(torch.full(list(shape), value, dtype=dt.storage), dt)


def zeros(shape, dt):
    return full(shape, 0, dt)


def cdiv(a, b):
    return (a + b - 1) // b


# Memory --------------------------------------------------------------------
def _access(ptr, mask):
    offsets = ptr.offsets
    if mask is None:
        mask_value = torch.ones_like(offsets, dtype=torch.bool)
    else:
        shape = torch.broadcast_shapes(offsets.shape, _raw(mask).shape)
        offsets = torch.broadcast_to(offsets, shape)
        mask_value = torch.broadcast_to(_raw(mask), shape)
    live = offsets[mask_value]
    if live.numel() and (int(live.min()) < 0 or
                         int(live.max()) >= ptr.base.numel()):
        raise IndexError("out-of-bounds access: offsets %d..%d of %d" %
                         (int(live.min()), int(live.max()), ptr.base.numel()))
    return offsets, mask_value


def load(ptr, mask=None, other=None):
    offsets, mask_value = _access(ptr, mask)
    safe = torch.where(mask_value, offsets, torch.zeros_like(offsets))
    values = ptr.base[safe]
    if mask is not None:
        fill = torch.full_like(values, 0 if other is None else _raw(other))
        values = torch.where(mask_value, values, fill)
    return tensor(values)


def store(ptr, value, mask=None):
    offsets, mask_value = _access(ptr, mask)
    data = torch.broadcast_to(_raw(_wrap(value)), offsets.shape).to(
        ptr.base.dtype)
    ptr.base[offsets[mask_value]] = data[mask_value]


# Math ----------------------------------------------------------------------
def dot(a, b, acc=None):
    for operand in (a, b):
        if operand.dtype not in (bfloat16, float16):
            raise TypeError("dot operands must be 16-bit floats here, got %r"
                            % operand.dtype)
        if builtins.min(operand.value.shape) < 16:
            raise ValueError("dot dimensions must be at least 16")
    product = a.value.to(torch.float32) @ b.value.to(torch.float32)
    if acc is not None:
        product = product + acc.value
    return tensor(product)


def trans(x):
    return tensor(x.value.transpose(0, 1), x.dtype)


def reshape(x, shape, can_reorder=False):
    return tensor(x.value.reshape(list(shape)), x.dtype)


def broadcast_to(x, shape):
    return tensor(torch.broadcast_to(x.value, list(shape)), x.dtype)


def where(condition, a, b):
    a, b = _wrap(a), _wrap(b)
    return tensor(torch.where(_raw(condition), a.value, b.value))


def maximum(a, b):
    return tensor(torch.maximum(_wrap(a).value, _wrap(b).value))


def minimum(a, b):
    return tensor(torch.minimum(_wrap(a).value, _wrap(b).value))


def max(x, axis):
    return tensor(torch.amax(x.value, dim=axis))


def sum(x, axis):
    return tensor(torch.sum(x.value, dim=axis, dtype=x.value.dtype))


def exp2(x):
    return tensor(torch.exp2(x.value))


def log2(x):
    return tensor(torch.log2(x.value))


def static_range(*args):
    return range(*args)
