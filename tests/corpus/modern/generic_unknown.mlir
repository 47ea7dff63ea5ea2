// Operations of unknown dialects in generic form, in the style of IREE's flow dialect:
// regions with block arguments, successors, properties, result groups, dialect attributes
// and types, nested dictionaries, symbol references.
#map = affine_map<(d0) -> (d0 * 2)>
module {
  "flow.executable"() <{sym_name = "ex0", sym_visibility = "private"}> ({
    "flow.executable.export"() <{function_ref = @ex0::@dispatch, sym_name = "dispatch"}> ({
    ^bb0(%arg0: index, %arg1: index):
      %x:3 = "flow.dispatch.workgroup_count_from_slice"(%arg0, %arg1) : (index, index) -> (index, index, index)
      "flow.return"(%x#0, %x#1, %x#2) : (index, index, index) -> ()
    }) : () -> ()
    "flow.executable_end"() : () -> ()
  }) : () -> ()
  func.func @f(%t: tensor<4x?xf32>, %n: index) -> tensor<4x?xf32> {
    %0 = "flow.dispatch.workgroups"(%n, %t, %n) ({
    ^bb0(%in: !flow.dispatch.tensor<readonly:tensor<4x?xf32>>, %out: !flow.dispatch.tensor<writeonly:tensor<4x?xf32>>):
      %c = "flow.dispatch.workgroup.id"() <{dimension = 0 : index}> : () -> index
      "flow.return"() : () -> ()
    }, {
    ^bb0(%w: index):
      "flow.return"(%w, %w, %w) : (index, index, index) -> ()
    }) {kind = #flow.kind<fast>, map = #map, nested = {a = [1, 2.5, "s", unit], b = {c = true}}, sym = @ex0::@dispatch, ty = !flow.channel, hex = 0x7F800000 : f32, big = 123456789012345678901234567890 : i128, names = ["a", "b"], empty = [], e = {}} : (index, tensor<4x?xf32>, index) -> tensor<4x?xf32>
    %r:2 = "mydialect.multi"(%0) : (tensor<4x?xf32>) -> (tensor<4x?xf32>, !mydialect.handle<"abc", 3>)
    "mydialect.branchy"(%n)[^bb1, ^bb2] : (index) -> ()
  ^bb1:
    "mydialect.noop"() : () -> ()
    return %r#0 : tensor<4x?xf32>
  ^bb2:
    return %t : tensor<4x?xf32>
  }
}
