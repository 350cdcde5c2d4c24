"""The manifest's integer expressions (docs/ABI.md, "Extents").

The manifest states what a launch depends on in one JSON language over the
integer scalar arguments and the grid: the `extent` of each `ptr`
argument (how many elements the kernel may reach past it), the grid rule
and the requirements of `launch`.
Values are 64-bit signed integers: a literal, an argument or any
intermediate that does not fit is an error, not a wrap. Unsigned
operations read their operands' two's-complement bits; a quotient or
remainder is an unsigned number, which must fit as well, and umin/umax
give the operand they pick.
"""

import json
import operator

from .errors import MlaError

INT64_MIN, INT64_MAX = -(1 << 63), (1 << 63) - 1
_BITS64 = (1 << 64) - 1


def _div(a, b):
    quotient = abs(a) // abs(b)
    return quotient if (a < 0) == (b < 0) else -quotient


def _u(value):
    """The unsigned number that `value`'s 64 bits spell."""
    return value & _BITS64


# The binary operations, by name, on Python ints (results checked after).
_BINARY = {
    "add": operator.add, "sub": operator.sub, "mul": operator.mul,
    "div": _div, "floordiv": operator.floordiv,
    "ceildiv": lambda a, b: -(-a // b),
    "rem": lambda a, b: a - b * _div(a, b),
    "udiv": lambda a, b: _u(a) // _u(b),
    "uceildiv": lambda a, b: -(-_u(a) // _u(b)),
    "urem": lambda a, b: _u(a) % _u(b),
    "min": min, "max": max,
    "umin": lambda a, b: min(a, b, key=_u),
    "umax": lambda a, b: max(a, b, key=_u),
    "eq": operator.eq, "ne": operator.ne, "lt": operator.lt,
    "le": operator.le, "gt": operator.gt, "ge": operator.ge,
    "ult": lambda a, b: _u(a) < _u(b), "ule": lambda a, b: _u(a) <= _u(b),
    "ugt": lambda a, b: _u(a) > _u(b), "uge": lambda a, b: _u(a) >= _u(b),
}
_DIVISIONS = {"div", "floordiv", "ceildiv", "rem", "udiv", "uceildiv", "urem"}

# Operand counts, (fewest, most); None: any number.
_ARITY = {op: (2, 2) for op in _BINARY}
_ARITY.update({"max": (2, None), "select": (3, 3), "zext": (2, 2),
               "view": (3, 3)})


def _fit(value, what):
    if not INT64_MIN <= value <= INT64_MAX:
        raise MlaError(f"{what}: {value} does not fit int64")
    return value


def _text(node):
    return json.dumps(node, default=repr)


def _operands(node):
    """The operand expressions of operation `node`, checked for shape."""
    op, operands = node[0], node[1:]
    if op not in _ARITY:
        raise MlaError(f"unknown operation '{op}'")
    fewest, most = _ARITY[op]
    if len(operands) < fewest or most is not None and len(operands) > most:
        count = f"at least {fewest}" if most is None else str(fewest)
        raise MlaError(f"'{op}' takes {count} operands, got {len(operands)}")
    if op == "zext":
        bits = operands[0]
        if type(bits) is not int or not 1 <= bits <= 63:
            raise MlaError(f"'zext' takes a bit count 1..63 first, got "
                           f"{_text(bits)}")
        return operands[1:]
    if op == "view":
        _, sizes, strides = operands
        if not (isinstance(sizes, list) and isinstance(strides, list)
                and len(sizes) == len(strides)):
            raise MlaError("'view' takes an offset, then sizes and strides "
                           "as two lists of one length")
        return [operands[0], *sizes, *strides]
    return operands


def _check(node):
    if type(node) is int:
        _fit(node, "a literal")
    elif isinstance(node, dict):
        is_arg = list(node) == ["arg"] and isinstance(node["arg"], str)
        is_axis = (list(node) == ["programs"] and
                   type(node["programs"]) is int and node["programs"] in (0, 1, 2))
        if not (is_arg or is_axis):
            raise MlaError(f"not an expression: {_text(node)}")
    elif isinstance(node, list) and node and isinstance(node[0], str):
        for operand in _operands(node):
            _check(operand)
    else:
        raise MlaError(f"not an expression: {_text(node)}")


def check(expr):
    """Raises MlaError unless `expr` is an expression. The names it
    reads are looked up when it is evaluated."""
    try:
        _check(expr)
    except RecursionError:
        raise MlaError("the expression is nested too deeply") from None


def _view(node, scalars, grid):
    """Elements of a view: one past its furthest element, 0 when empty."""
    _, offset, sizes, strides = node
    # With negative strides the furthest element is not the last one: each
    # dimension steps forward or back from the offset.
    low = high = _value(offset, scalars, grid)
    for size, stride in zip(sizes, strides):
        size, stride = _value(size, scalars, grid), _value(stride, scalars, grid)
        # The targets' bounds checks read a negative size as a huge one.
        if size < 0:
            raise MlaError(f"'view' has size {size}")
        if size == 0:  # reaches nothing, whatever the other dimensions say
            return 0
        step = _fit((size - 1) * stride, "'view' step")
        if step < 0:
            low = _fit(low + step, "'view' lowest index")
        else:
            high = _fit(high + step, "'view' highest index")
    if low < 0:
        raise MlaError(f"'view' reaches element {low}, before the pointer")
    return _fit(high + 1, "'view'")


def _value(node, scalars, grid):
    if type(node) is int:
        return node
    if isinstance(node, dict):
        if "arg" in node:
            name = node["arg"]
            if name not in scalars:
                raise MlaError(f"'{name}' is not an integer scalar argument")
            return _fit(scalars[name], f"argument '{name}'")
        return _fit(grid[node["programs"]], f"programs {node['programs']}")
    op = node[0]
    if op == "view":
        return _view(node, scalars, grid)
    if op == "select":  # only the chosen side, as a guard would
        _, condition, when_true, when_false = node
        chosen = when_true if _value(condition, scalars, grid) else when_false
        return _value(chosen, scalars, grid)
    values = [_value(operand, scalars, grid) for operand in _operands(node)]
    if op == "zext":
        return values[0] & ((1 << node[1]) - 1)
    if op == "max":
        return max(values)
    a, b = values
    if op in _DIVISIONS and b == 0:
        raise MlaError(f"'{op}' divides by zero")
    return _fit(int(_BINARY[op](a, b)), f"'{op}'")


def evaluate(expr, scalars, grid=(1, 1, 1)):
    """The value of expression `expr`, where `scalars` maps integer
    scalar argument names to ints and `grid` is the launch's three sizes."""
    check(expr)
    try:
        return _value(expr, scalars, tuple(grid))
    except RecursionError:
        raise MlaError("the expression is nested too deeply") from None


def _leaves(node):
    if isinstance(node, dict):
        yield node
    elif isinstance(node, list):
        for operand in _operands(node):
            yield from _leaves(operand)


def reads_grid(expr):
    """Whether checked `expr` reads the grid, which a grid rule or a
    requirement must not."""
    return any("programs" in leaf for leaf in _leaves(expr))


def arguments_of(expr):
    """The scalar arguments checked `expr` reads, in order of first use."""
    names = []
    for leaf in _leaves(expr):
        if "arg" in leaf and leaf["arg"] not in names:
            names.append(leaf["arg"])
    return names


# Infix operators and how tightly they bind; the rest print as calls.
_INFIX = {"eq": ("==", 0), "ne": ("!=", 0), "lt": ("<", 0), "le": ("<=", 0),
          "gt": (">", 0), "ge": (">=", 0), "add": ("+", 1), "sub": ("-", 1),
          "mul": ("*", 2), "floordiv": ("//", 2), "rem": ("%", 2)}


def _print(node, context):
    if type(node) is int:
        return str(node)
    if isinstance(node, dict):
        if "arg" in node:
            return node["arg"]
        return f"programs({'xyz'[node['programs']]})"
    op, operands = node[0], node[1:]
    if op in _INFIX:
        symbol, binds = _INFIX[op]
        # a - (b - c): the right operand binds tighter than its operator.
        text = (f"{_print(operands[0], binds)} {symbol} "
                f"{_print(operands[1], binds + 1)}")
        return f"({text})" if binds < context else text
    parts = [("[" + ", ".join(_print(d, 0) for d in operand) + "]")
             if isinstance(operand, list) and op == "view" and i > 0
             else _print(operand, 0) for i, operand in enumerate(operands)]
    return f"{'cdiv' if op == 'ceildiv' else op}({', '.join(parts)})"


def describe(expr):
    """Checked `expr` as a program writes it: `cdiv(rows, 16)`."""
    return _print(expr, 0)
