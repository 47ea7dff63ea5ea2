// covariance (PolyBench): the M x M covariance matrix of N samples (rows of data); the
// means are subtracted from data in place and only the upper triangle is summed.
// scale: 24=N 20=M
func.func @covariance(%data: memref<24x20xf32>, %cov: memref<20x20xf32>, %mean: memref<20xf32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %n = arith.constant 24 : index
  %ni = arith.index_cast %n : index to i64
  %float_n = arith.sitofp %ni : i64 to f32
  %float_n1 = arith.subf %float_n, %one : f32
  affine.for %j = 0 to 20 {
    affine.store %zero, %mean[%j] : memref<20xf32>
    affine.for %i = 0 to 24 {
      %d = affine.load %data[%i, %j] : memref<24x20xf32>
      %m = affine.load %mean[%j] : memref<20xf32>
      %s = arith.addf %m, %d : f32
      affine.store %s, %mean[%j] : memref<20xf32>
    }
    %m = affine.load %mean[%j] : memref<20xf32>
    %q = arith.divf %m, %float_n : f32
    affine.store %q, %mean[%j] : memref<20xf32>
  }
  affine.for %i = 0 to 24 {
    affine.for %j = 0 to 20 {
      %d = affine.load %data[%i, %j] : memref<24x20xf32>
      %m = affine.load %mean[%j] : memref<20xf32>
      %c = arith.subf %d, %m : f32
      affine.store %c, %data[%i, %j] : memref<24x20xf32>
    }
  }
  affine.for %i = 0 to 20 {
    affine.for %j = affine_map<(d0) -> (d0)>(%i) to 20 {
      affine.store %zero, %cov[%i, %j] : memref<20x20xf32>
      affine.for %k = 0 to 24 {
        %a = affine.load %data[%k, %i] : memref<24x20xf32>
        %b = affine.load %data[%k, %j] : memref<24x20xf32>
        %p = arith.mulf %a, %b : f32
        %c = affine.load %cov[%i, %j] : memref<20x20xf32>
        %s = arith.addf %c, %p : f32
        affine.store %s, %cov[%i, %j] : memref<20x20xf32>
      }
      %c = affine.load %cov[%i, %j] : memref<20x20xf32>
      %q = arith.divf %c, %float_n1 : f32
      affine.store %q, %cov[%i, %j] : memref<20x20xf32>
      affine.store %q, %cov[%j, %i] : memref<20x20xf32>
    }
  }
  return
}
