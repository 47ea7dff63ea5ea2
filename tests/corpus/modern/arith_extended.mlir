// Extended arithmetic: two results, each with its own name.
func.func @f(%a: i32, %b: i32, %v: vector<4xi32>) {
  %s, %o = arith.addui_extended %a, %b : i32, i1
  %l, %h = arith.mulsi_extended %a, %b : i32
  %l2, %h2 = arith.mului_extended %v, %v : vector<4xi32>
  %s2:2 = arith.addui_extended %v, %v : vector<4xi32>, vector<4xi1>
  "use"(%s, %o, %l, %h, %l2, %h2, %s2#0) : (i32, i1, i32, i32, vector<4xi32>, vector<4xi32>, vector<4xi32>) -> ()
  return
}
