"""Loads MODULE with the `mla` package and prints its kernels, or the
error that refuses it: `loaded: K1 K2` or `MlaError: message`."""

import sys

import mla

try:
    module = mla.Module(sys.argv[1])
    print("loaded:", " ".join(module.kernels))
except mla.MlaError as e:
    print(f"MlaError: {e}")
