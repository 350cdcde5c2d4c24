// Not a test: input of errors.test.
tile.kernel @k() {
  %c0 = arith.constant 0 : index
  tile.bogus %c0
  tile.return
}
