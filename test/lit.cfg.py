# -*- Python -*-
import atexit
import os
import shutil
import sys
import tempfile

import lit.formats
from lit.llvm import llvm_config

config.name = "MLA"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test", ".ll"]
config.test_source_root = config.mla_test_source_root
config.test_exec_root = os.path.join(
    config.mla_obj_root, os.path.relpath(config.test_source_root, config.mla_src_root))
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py", "Inputs",
                   "Tool"]

config.environment["FILECHECK_OPTS"] = "--enable-var-scope --dump-input=fail"

config.substitutions.append(("%examples", os.path.join(config.mla_src_root, "examples")))
config.substitutions.append(("%src_root", config.mla_src_root))
config.substitutions.append(("%PATH%", config.environment["PATH"]))
# Reference values of the emulated AMD instructions, from shared/AMD.md's
# formulas.
config.substitutions.append(("%amdref", '"%s" %s' % (
    sys.executable, os.path.join(config.mla_src_root, "utils", "amdref.py"))))
# Random inputs and float64 checks for the examples.
config.substitutions.append(("%npytool", '"%s" %s' % (
    sys.executable, os.path.join(config.mla_src_root, "utils", "npytool.py"))))
# Generated tile programs (fuzz/gen): the generator, and the differential
# test across targets with this build's tools.
config.substitutions.append(("%fuzzgen", '"%s" %s' % (
    sys.executable, os.path.join(config.mla_src_root, "fuzz", "gen", "generate.py"))))
config.substitutions.append(("%difftest", '"%s" %s --bin "%s"' % (
    sys.executable, os.path.join(config.mla_src_root, "fuzz", "gen", "difftest.py"),
    config.mla_tools_dir)))
# The resource table of AMDGPU code objects.
config.substitutions.append(("%resources", '"%s" %s' % (
    sys.executable, os.path.join(config.mla_src_root, "utils", "resources.py"))))
# Their barriers reached with LDS accesses in flight.
config.substitutions.append(("%lds_barriers", '"%s" %s --objdump "%s"' % (
    sys.executable, os.path.join(config.mla_src_root, "utils", "lds_barriers.py"),
    os.path.join(config.llvm_tools_dir, "llvm-objdump"))))
# The instruction mix of their inner loops.
config.substitutions.append(("%loop_mix", '"%s" %s --objdump "%s"' % (
    sys.executable, os.path.join(config.mla_src_root, "utils", "loop_mix.py"),
    os.path.join(config.llvm_tools_dir, "llvm-objdump"))))

# The Python package, imported from the build tree as a user would.
config.substitutions.append(("%python", '"%s"' % sys.executable))
config.environment["PYTHONPATH"] = os.path.join(config.mla_obj_root, "python")

llvm_config.with_system_environment(["HOME", "TMPDIR"])

# mla-compile's cache, one per run and removed when lit exits: tests see
# their own compiles, never a user's ~/.cache/mla nor another run's.
mla_cache_dir = tempfile.mkdtemp(prefix="mla-cache-", dir=config.test_exec_root)
atexit.register(shutil.rmtree, mla_cache_dir, ignore_errors=True)
config.environment["MLA_CACHE_DIR"] = mla_cache_dir
llvm_config.use_default_substitutions()

# Tools are found by full path: LLVM 14 in /usr/bin has tools of the same
# names.
tool_dirs = [config.mla_tools_dir, config.llvm_tools_dir]
llvm_config.add_tool_substitutions(
    ["mla-opt", "mla-compile", "mla-run", "mla-emu-compile"], tool_dirs)
llvm_config.add_tool_substitutions(
    ["FileCheck", "count", "not", "ld.lld", "llvm-nm", "llvm-objcopy",
     "llvm-mc", "llvm-objdump", "llvm-readelf", "llvm-strings",
     "llc", "mlir-opt", "mlir-translate", "clang-format"],
    [config.llvm_tools_dir])
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.mla_tools_dir, append_path=True)

# Tools built with sanitizers (scripts/test-sanitized) run the long
# campaign-like tests on part of their range only: those marked
# UNSUPPORTED: sanitized, and %random_runs (how many fresh random cases a
# randomized test draws) is smaller.
if config.mla_sanitize:
    config.available_features.add("sanitized")
config.substitutions.append(
    ("%random_runs", "4" if config.mla_sanitize else "12"))

# Tests of cubins need NVIDIA's ptxas, where mla-compile looks for it.
if shutil.which("ptxas") or os.path.exists("/usr/local/cuda/bin/ptxas"):
    config.available_features.add("ptxas")

# GPU execution tests run only where a device answers.
if os.path.exists("/dev/kfd"):
    config.available_features.add("hip-device")
if os.path.exists("/dev/nvidiactl"):
    config.available_features.add("cuda-device")
# PyTorch and numpy, for the Python package's tests with tensors, arrays
# and their scalars.
try:
    import importlib.util
    for package in ("torch", "numpy"):
        if importlib.util.find_spec(package) is not None:
            config.available_features.add(package)
except (ImportError, ValueError):
    pass
# A CUDA driver library to load (mla-run and the Python package open it).
try:
    import ctypes
    ctypes.CDLL("libcuda.so.1")
    config.available_features.add("cuda-driver")
except OSError:
    pass
