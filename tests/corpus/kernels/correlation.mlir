// correlation (PolyBench): the M x M correlation matrix of N samples: column means and
// standard deviations (math.sqrt, a deviation below eps taken as 1), data centred and
// scaled in place, then the upper triangle of data^T * data mirrored.
// scale: 24=N 20=M 19=M-1
func.func @correlation(%data: memref<24x20xf32>, %corr: memref<20x20xf32>, %mean: memref<20xf32>, %stddev: memref<20xf32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %eps = arith.constant 0.1 : f32
  %n = arith.constant 24 : index
  %ni = arith.index_cast %n : index to i64
  %float_n = arith.sitofp %ni : i64 to f32
  %sqrt_n = math.sqrt %float_n : f32
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
  affine.for %j = 0 to 20 {
    affine.store %zero, %stddev[%j] : memref<20xf32>
    affine.for %i = 0 to 24 {
      %d = affine.load %data[%i, %j] : memref<24x20xf32>
      %m = affine.load %mean[%j] : memref<20xf32>
      %c = arith.subf %d, %m : f32
      %c2 = arith.mulf %c, %c : f32
      %s = affine.load %stddev[%j] : memref<20xf32>
      %t = arith.addf %s, %c2 : f32
      affine.store %t, %stddev[%j] : memref<20xf32>
    }
    %s = affine.load %stddev[%j] : memref<20xf32>
    %v = arith.divf %s, %float_n : f32
    %r = math.sqrt %v : f32
    %small = arith.cmpf ole, %r, %eps : f32
    %g = arith.select %small, %one, %r : f32
    affine.store %g, %stddev[%j] : memref<20xf32>
  }
  affine.for %i = 0 to 24 {
    affine.for %j = 0 to 20 {
      %d = affine.load %data[%i, %j] : memref<24x20xf32>
      %m = affine.load %mean[%j] : memref<20xf32>
      %c = arith.subf %d, %m : f32
      %s = affine.load %stddev[%j] : memref<20xf32>
      %w = arith.mulf %sqrt_n, %s : f32
      %q = arith.divf %c, %w : f32
      affine.store %q, %data[%i, %j] : memref<24x20xf32>
    }
  }
  affine.for %i = 0 to 19 {
    affine.store %one, %corr[%i, %i] : memref<20x20xf32>
    affine.for %j = affine_map<(d0) -> (d0 + 1)>(%i) to 20 {
      affine.store %zero, %corr[%i, %j] : memref<20x20xf32>
      affine.for %k = 0 to 24 {
        %a = affine.load %data[%k, %i] : memref<24x20xf32>
        %b = affine.load %data[%k, %j] : memref<24x20xf32>
        %p = arith.mulf %a, %b : f32
        %c = affine.load %corr[%i, %j] : memref<20x20xf32>
        %s = arith.addf %c, %p : f32
        affine.store %s, %corr[%i, %j] : memref<20x20xf32>
      }
      %c = affine.load %corr[%i, %j] : memref<20x20xf32>
      affine.store %c, %corr[%j, %i] : memref<20x20xf32>
    }
  }
  affine.store %one, %corr[19, 19] : memref<20x20xf32>
  return
}
