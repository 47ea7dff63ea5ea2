// ERROR: 5:39: expected '>' in tensor type
// Original problem: seeds/002 module example: `(tensor<100x50xf32)` misses a `>`.
func @mul(%C: tensor<100x50xf32>) {
  "tf.Print"(%C){message: "mul result"}
                  : (tensor<100x50xf32) -> (tensor<100x50xf32>)
  return
}
