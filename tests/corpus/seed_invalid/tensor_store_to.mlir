// ERROR: 4:18: expected ',' between the tensor and the memref (seed grammar: tensor_store %tensor, %memref : memref-type)
// Original problem: seeds/002 module example: `tensor_store %A to %A_m` (the grammar is `tensor_store %tensor, %memref : type`).
func @mul(%A: tensor<100x?xf32>, %A_m: memref<100x?xf32>) {
  tensor_store %A to %A_m : memref<100x?xf32>
  return
}
