func.func @linearize(%i: index, %n: index) -> (index, index) {
  %0:2 = affine.delinearize_index %i into (%n, 16) : index, index
  %1:3 = affine.delinearize_index %i into (4, 8) : index, index, index
  %2 = affine.linearize_index [%0#0, %0#1] by (%n, 16) : index
  %3 = affine.linearize_index disjoint [%1#0, %1#1, %1#2] by (2, 4, 8) : index
  %4:2 = affine.delinearize_index %2 into (%n, %n) {tag = 1 : i32} : index, index
  return %3, %4#1 : index, index
}
