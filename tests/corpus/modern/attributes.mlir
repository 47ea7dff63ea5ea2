// Every attribute kind: integers (typed, negative, large, unsigned), floats (special
// values, hex), strings with escapes, booleans, unit, arrays, nested dictionaries,
// dense elements (splat, nested, bool, float, complex), dense arrays, affine maps and
// sets, types, symbol references, dialect attributes, quoted names, aliases.
#alias_map = affine_map<(d0, d1)[s0] -> (d0 + s0, d1 * 2)>
#alias_set = affine_set<(d0)[s0] : (d0 >= 0, s0 - d0 - 1 >= 0)>
#alias_str = "aliased string"
func.func @attrs() {
  "test.op"() {
    i = 42, i8 = -3 : i8, i1v = true, i1f = false, idx = 7 : index, big = 123456789012345678901234567890 : i128,
    ui = 200 : ui8, si = -5 : si32,
    f = 2.5, f32v = 1.0e-3 : f32, f16v = 0.5 : f16, bf = 1.5 : bf16, nan = 0x7FC00000 : f32, inf = 0x7FF0000000000000 : f64,
    neg0 = -0.0 : f32, tiny = 1.0e-300 : f64, precise = 0.1234567891234 : f64,
    s = "text", esc = "tab\tquote\"nl\nhex\00", typed_s = "x" : i32,
    u, u2 = unit,
    arr = [1, 2.0, "three", [4, [5]], unit, i32],
    dict = {a = 1, b = {c = [true, false]}, "quoted key" = "v"},
    d1 = dense<1> : tensor<4xi32>, d2 = dense<[[1, 2], [3, 4]]> : tensor<2x2xi16>,
    d3 = dense<[true, false, true]> : vector<3xi1>, d4 = dense<[1.5, -2.0, 0x7FC00000]> : tensor<3xf32>,
    d5 = dense<(1.0, 2.0)> : tensor<2xcomplex<f32>>, d6 = dense<> : tensor<0xi32>, d7 = dense<3.0> : tensor<f64>,
    da = array<i32: 1, 2, 3>, db = array<i64>, dc = array<f32: 1.0, 2.5>, dd = array<i1: true, false>,
    m = affine_map<(d0) -> (d0 floordiv 4)>, am = #alias_map, set = #alias_set,
    es = affine_set<(d0) : (1 == 0)>, t = memref<4xf32>, ft = (i32) -> i32,
    sym = @foo, nsym = @foo::@bar::@baz, qsym = @"quoted sym",
    fm = #arith.fastmath<fast>, dialect = #mydialect.attr<"a", [1, 2], {k = 3}>, plain = #mydialect.plain,
    al = #alias_str
  } : () -> ()
  return
}
