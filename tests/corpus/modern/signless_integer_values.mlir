// Signless integers are their bits read as signed: 255 : i8 prints as -1, as mlir-opt does.
func.func @values() {
  %0 = arith.constant 4294967295 : i32
  %1 = arith.constant 200 : i8
  %2 = arith.constant dense<[255, 3]> : tensor<2xi8>
  "test.use"(%0, %1, %2) {a = array<i8: 200, 1>, b = 65535 : ui16, c = -1 : i1} : (i32, i8, tensor<2xi8>) -> ()
  return
}
