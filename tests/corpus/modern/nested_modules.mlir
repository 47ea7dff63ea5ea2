// Named and nested modules with symbol tables; unregistered ops at module level.
module @outer {
  module @inner attributes {test.tag = 1 : i32} {
    func.func private @decl()
  }
  "mydialect.global"() {sym_name = "g", value = 4 : i32} : () -> ()
  func.func @user() {
    return
  }
}
