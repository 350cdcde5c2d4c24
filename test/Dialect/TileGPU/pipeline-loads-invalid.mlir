// RUN: mla-opt %s --tilegpu-pipeline-loads -split-input-file -verify-diagnostics
// RUN: not mla-opt %s --tilegpu-pipeline-loads=stages=9 2>&1 | FileCheck %s --check-prefix=OPTION
// OPTION: error: stages must be 1 to 8, not 9

// expected-error @below {{launch key 'stages' must be 1 to 8}}
tile.kernel @nine(%x: !tile.ptr<f32>) attributes {tile.launch = {grid = [1, 1, 1], stages = 9 : i64}} {
  tile.return
}
