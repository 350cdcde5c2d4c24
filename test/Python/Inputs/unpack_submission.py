"""Writes the binary and manifest a submission.py embeds into DIR, under
the binary's own name, and prints that name: for static checks of GPU
submissions on a machine without the GPU.

    unpack_submission.py SUBMISSION DIR
"""

import ast
import base64
import os
import sys
import zlib


def blob(tree, name):
    for node in tree.body:
        if (isinstance(node, ast.Assign) and len(node.targets) == 1 and
                getattr(node.targets[0], "id", None) == name):
            return ast.literal_eval(node.value)
    raise SystemExit(f"{sys.argv[1]}: no {name}")


def main():
    path, directory = sys.argv[1:3]
    with open(path) as f:
        tree = ast.parse(f.read())
    name = blob(tree, "_BINARY_NAME")
    for suffix, variable in (("", "_BINARY"), (".json", "_MANIFEST")):
        with open(os.path.join(directory, name + suffix), "wb") as f:
            f.write(zlib.decompress(base64.b64decode(blob(tree, variable))))
    print(name)


main()
