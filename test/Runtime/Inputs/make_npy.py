"""Writes .npy inputs for the mla-run tests (NumPy is not required).

  make_npy.py problem DIR --kv-dtype D [--heads H] [--q-lens 1,2]
                         [--kv-lens 3,5] [--scale-shape ROWS,COLS]
      A consistent problem of zeros: q.npy, kv.npy, kv_scale.npy (fp8 and
      mxfp4), qo_indptr.npy and kv_indptr.npy. Tests then replace one file
      with a broken one.

  make_npy.py array FILE DESCR SHAPE [--values V,...] [--fortran]
                    [--truncate BYTES] [--magic TEXT]
      One array: DESCR is NumPy's ('<u2', '|u1', '<i4', '<f8', ...), SHAPE
      is comma-separated ('' for a scalar). Elements are zero unless
      --values gives them in order.
"""
import argparse
import os
import struct

FORMATS = {"<u2": "H", "|u1": "B", "|i1": "b", "<i4": "i", "<f4": "f",
           ">u2": ">H", "<f8": "d", "<i8": "q"}


def encode(descr, shape, values=(), fortran=False, magic=b"\x93NUMPY"):
    count = 1
    for dim in shape:
        count *= dim
    items = list(values) + [0] * (count - len(values))
    fmt = FORMATS[descr]
    order = ">" if fmt.startswith(">") else "<"
    data = struct.pack(order + str(count) + fmt.lstrip(">"), *items)
    shape_text = "(" + ", ".join(str(d) for d in shape) + \
        ("," if len(shape) == 1 else "") + ")"
    header = "{'descr': '%s', 'fortran_order': %s, 'shape': %s, }" % (
        descr, "True" if fortran else "False", shape_text)
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    return magic + b"\x01\x00" + struct.pack("<H", len(header)) + \
        header.encode() + data


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)


def ints(text):
    return [int(x) for x in text.split(",")] if text else []


def offsets(lengths):
    result = [0]
    for length in lengths:
        result.append(result[-1] + length)
    return result


def main():
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command", required=True)
    problem = sub.add_parser("problem")
    problem.add_argument("dir")
    problem.add_argument("--kv-dtype", required=True,
                         choices=["bf16", "fp8", "mxfp4"])
    problem.add_argument("--heads", type=int, default=16)
    problem.add_argument("--q-lens", default="1,1")
    problem.add_argument("--kv-lens", default="3,5")
    problem.add_argument("--scale-shape")
    array = sub.add_parser("array")
    array.add_argument("file")
    array.add_argument("descr")
    array.add_argument("shape")
    array.add_argument("--values", default="")
    array.add_argument("--fortran", action="store_true")
    array.add_argument("--truncate", type=int, default=0)
    array.add_argument("--magic", default=None)
    args = parser.parse_args()

    if args.command == "array":
        magic = args.magic.encode() if args.magic else b"\x93NUMPY"
        data = encode(args.descr, ints(args.shape), ints(args.values),
                      args.fortran, magic)
        write(args.file, data[:len(data) - args.truncate])
        return

    os.makedirs(args.dir, exist_ok=True)
    q_lens, kv_lens = ints(args.q_lens), ints(args.kv_lens)
    total_q, total_kv = sum(q_lens), sum(kv_lens)
    path = lambda name: os.path.join(args.dir, name)
    write(path("q.npy"), encode("<u2", [total_q, args.heads, 576]))
    if args.kv_dtype == "bf16":
        write(path("kv.npy"), encode("<u2", [total_kv, 1, 576]))
    elif args.kv_dtype == "fp8":
        write(path("kv.npy"), encode("|u1", [total_kv, 1, 576]))
        write(path("kv_scale.npy"), encode("<f4", [1], [1.0]))
    else:
        write(path("kv.npy"), encode("|u1", [total_kv, 1, 288]))
        shape = ints(args.scale_shape) if args.scale_shape else \
            [max(total_kv, 1), 24]
        write(path("kv_scale.npy"), encode("|u1", shape,
                                           [127] * (shape[0] * shape[1])))
    write(path("qo_indptr.npy"), encode("<i4", [len(q_lens) + 1],
                                        offsets(q_lens)))
    write(path("kv_indptr.npy"), encode("<i4", [len(kv_lens) + 1],
                                        offsets(kv_lens)))


if __name__ == "__main__":
    main()
