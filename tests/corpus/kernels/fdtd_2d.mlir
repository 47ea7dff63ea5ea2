// fdtd-2d (PolyBench): TMAX steps of the 2-D finite-difference time-domain kernel.
// scale: 10=TMAX 20=NX 19=NX-1 24=NY 23=NY-1
func.func @fdtd_2d(%ex: memref<20x24xf32>, %ey: memref<20x24xf32>, %hz: memref<20x24xf32>, %fict: memref<10xf32>) {
  %half = arith.constant 0.5 : f32
  %c07 = arith.constant 0.7 : f32
  affine.for %t = 0 to 10 {
    affine.for %j = 0 to 24 {
      %f = affine.load %fict[%t] : memref<10xf32>
      affine.store %f, %ey[0, %j] : memref<20x24xf32>
    }
    affine.for %i = 1 to 20 {
      affine.for %j = 0 to 24 {
        %e = affine.load %ey[%i, %j] : memref<20x24xf32>
        %h = affine.load %hz[%i, %j] : memref<20x24xf32>
        %hm = affine.load %hz[%i - 1, %j] : memref<20x24xf32>
        %d = arith.subf %h, %hm : f32
        %m = arith.mulf %half, %d : f32
        %v = arith.subf %e, %m : f32
        affine.store %v, %ey[%i, %j] : memref<20x24xf32>
      }
    }
    affine.for %i = 0 to 20 {
      affine.for %j = 1 to 24 {
        %e = affine.load %ex[%i, %j] : memref<20x24xf32>
        %h = affine.load %hz[%i, %j] : memref<20x24xf32>
        %hm = affine.load %hz[%i, %j - 1] : memref<20x24xf32>
        %d = arith.subf %h, %hm : f32
        %m = arith.mulf %half, %d : f32
        %v = arith.subf %e, %m : f32
        affine.store %v, %ex[%i, %j] : memref<20x24xf32>
      }
    }
    affine.for %i = 0 to 19 {
      affine.for %j = 0 to 23 {
        %h = affine.load %hz[%i, %j] : memref<20x24xf32>
        %xp = affine.load %ex[%i, %j + 1] : memref<20x24xf32>
        %x = affine.load %ex[%i, %j] : memref<20x24xf32>
        %yp = affine.load %ey[%i + 1, %j] : memref<20x24xf32>
        %y = affine.load %ey[%i, %j] : memref<20x24xf32>
        %d1 = arith.subf %xp, %x : f32
        %d2 = arith.addf %d1, %yp : f32
        %d3 = arith.subf %d2, %y : f32
        %m = arith.mulf %c07, %d3 : f32
        %v = arith.subf %h, %m : f32
        affine.store %v, %hz[%i, %j] : memref<20x24xf32>
      }
    }
  }
  return
}
