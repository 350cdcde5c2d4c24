# -*- Python -*-
# The unit tests: the GoogleTest binaries named *Tests in the build tree's
# unittests/ (one per folder), each TEST one lit test.
import os

import lit.formats

config.name = "MLA-Unit"
# No source files: lit asks each binary for its tests.
config.suffixes = []
config.test_source_root = os.path.join(config.mla_obj_root, "unittests")
config.test_exec_root = config.test_source_root
config.test_format = lit.formats.GoogleTest(".", "Tests")
