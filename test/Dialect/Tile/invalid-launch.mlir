// RUN: mla-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{'tile.launch' grid must list exactly 3 dimensions (x, y, z)}}
tile.kernel @two_dims() attributes {tile.launch = {grid = ["n", 1]}} {
  tile.return
}

// -----

// expected-error @+1 {{'tile.launch' grid sizes must be at least 1, got 0}}
tile.kernel @zero() attributes {tile.launch = {grid = [0, 1, 1]}} {
  tile.return
}

// -----

// expected-error @+1 {{'tile.launch' grid entries must be integers or problem-quantity names}}
tile.kernel @float_dim() attributes {tile.launch = {grid = [1.0, 1, 1]}} {
  tile.return
}

// -----

// expected-error @+1 {{'tile.launch' must be a dictionary}}
tile.kernel @not_dict() attributes {tile.launch = 4} {
  tile.return
}

// -----

// expected-error @+1 {{'tile.launch' belongs on a tile.kernel}}
func.func @on_func() attributes {tile.launch = {grid = [1, 1, 1]}} {
  return
}

// -----

// expected-error @+1 {{unknown tile dialect attribute 'tile.lunch'}}
tile.kernel @typo() attributes {tile.lunch = {grid = [1, 1, 1]}} {
  tile.return
}
