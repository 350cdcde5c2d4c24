// RUN: mla-opt %s --tilegpu-pipeline-loads -split-input-file -verify-diagnostics
// RUN: not mla-opt %s --tilegpu-pipeline-loads=stages=3 2>&1 | FileCheck %s --check-prefix=OPTION
// OPTION: error: stages must be 1 or 2, not 3

// expected-error @below {{launch key 'stages' must be 1 or 2}}
tile.kernel @three(%x: !tile.ptr<f32>) attributes {tile.launch = {grid = [1, 1, 1], stages = 3 : i64}} {
  tile.return
}
