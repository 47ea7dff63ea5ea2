// math: unary and binary float ops (with fastmath flags) and integer ops.
func.func @math(%x: f32, %y: f64, %a: i32, %v: vector<4xf32>) -> f32 {
  %0 = math.sqrt %x : f32
  %1 = math.rsqrt %x fastmath<fast> : f32
  %2 = math.exp %y : f64
  %3 = math.exp2 %x : f32
  %4 = math.log %x : f32
  %5 = math.log2 %x : f32
  %6 = math.log10 %x : f32
  %7 = math.sin %x : f32
  %8 = math.cos %v : vector<4xf32>
  %9 = math.tanh %x : f32
  %10 = math.absf %x : f32
  %11 = math.floor %x : f32
  %12 = math.ceil %x : f32
  %13 = math.powf %x, %x : f32
  %14 = math.atan2 %x, %x : f32
  %15 = math.fma %x, %x, %x : f32
  %16 = math.absi %a : i32
  %17 = math.ipowi %a, %a : i32
  %18 = math.fpowi %x, %a : f32, i32
  %19 = math.ctpop %a : i32
  %20 = math.isnan %x : f32
  %21 = math.copysign %x, %x : f32
  %22 = math.round %x : f32
  %23 = math.erf %x : f32
  return %15 : f32
}
