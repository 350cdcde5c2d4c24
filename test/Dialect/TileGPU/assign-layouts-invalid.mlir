// RUN: mla-opt %s --tilegpu-assign-layouts -split-input-file -verify-diagnostics
// RUN: not mla-opt %s --tilegpu-assign-layouts=chip=gfx1100 -split-input-file 2>&1 | FileCheck %s --check-prefix=CHIP
// CHIP: error: unknown chip 'gfx1100'

// expected-error @below {{launch key 'waves' must be a power of two from 1 to 16}}
tile.kernel @bad_waves(%x: !tile.ptr<f32>) attributes {tile.launch = {grid = [1, 1, 1], waves = 3 : i64}} {
  tile.return
}

