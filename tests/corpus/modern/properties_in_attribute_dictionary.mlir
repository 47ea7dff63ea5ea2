// An attribute dictionary entry that names a property of the op sets it (over the custom
// syntax's value), and dialect enum attributes read to their canonical spelling, as in
// mlir-opt; a generic op written without a defaulted property gets its default.
func.func @properties(%x: f32, %a: i32, %v: vector<8xf32>) -> (f32, f32, i1, i32, f32, vector<2xf32>, i32, f32, f32) {
  %0 = arith.addf %x, %x fastmath<nnan> {fastmath = #arith.fastmath<fast>} : f32
  %1 = arith.mulf %x, %x {fastmath = #arith.fastmath<ninf, nnan>} : f32
  %2 = arith.cmpf oeq, %x, %x {predicate = 3 : i64} : f32
  %3 = arith.constant {value = 2 : i32} 1 : i32
  %4 = vector.reduction <add>, %v {kind = #vector.kind<mul>} : vector<8xf32> into f32
  %5 = vector.shuffle %v, %v [0, 1] {mask = array<i64: 2, 3>} : vector<8xf32>, vector<8xf32>
  %6 = arith.addi %a, %a {overflowFlags = #arith.overflow<nuw,nsw>} : i32
  %7 = "arith.subf"(%x, %x) : (f32, f32) -> f32
  %8 = arith.divf %x, %x {tag = #arith.fastmath<reassoc,nnan,ninf,nsz,arcp,contract,afn>} : f32
  %9 = arith.addi %6, %3 : i32
  return %0, %1, %2, %9, %4, %5, %6, %7, %8 : f32, f32, i1, i32, f32, vector<2xf32>, i32, f32, f32
}
