// Flags are printed in mlir-opt's canonical spelling (bit order; every fastmath flag is
// `fast`; `none` is omitted), and i1 results of tensor comparisons keep the encoding.
func.func @flags(%x: f64, %n: i16) -> (f64, i16) {
  %s = arith.mulf %x, %x fastmath<contract,nnan> : f64
  %t = arith.addf %s, %x fastmath<afn,arcp,contract,nsz,ninf,nnan,reassoc> : f64
  %u = arith.subf %t, %x fastmath<none> : f64
  %m = arith.muli %n, %n overflow<nuw,nsw> : i16
  %k = arith.subi %m, %n overflow<none> : i16
  return %u, %k : f64, i16
}

func.func @encoded(%a: tensor<4xf32, "layout">, %b: tensor<4xf32, "layout">) -> tensor<4xf32, "layout"> {
  %lt = arith.cmpf olt, %a, %b : tensor<4xf32, "layout">
  %min = arith.select %lt, %a, %b : tensor<4xi1, "layout">, tensor<4xf32, "layout">
  return %min : tensor<4xf32, "layout">
}
