// adi (PolyBench): T steps of alternating-direction implicit integration of 2-D heat
// diffusion: per step a column sweep then a row sweep, each a tridiagonal (Thomas) solve
// with a forward pass on p, q and a backward pass (j running down, j = N-2-jj).
// scale: 20=N 19=N-1 18=N-2 10=T
func.func @adi(%u: memref<20x20xf64>, %v: memref<20x20xf64>, %p: memref<20x20xf64>, %q: memref<20x20xf64>) {
  %zero = arith.constant 0.0 : f64
  %one = arith.constant 1.0 : f64
  %two = arith.constant 2.0 : f64
  %n = arith.constant 20 : index
  %steps = arith.constant 10 : index
  %ni = arith.index_cast %n : index to i64
  %float_n = arith.sitofp %ni : i64 to f64
  %si = arith.index_cast %steps : index to i64
  %float_t = arith.sitofp %si : i64 to f64
  %dx = arith.divf %one, %float_n : f64
  %dt = arith.divf %one, %float_t : f64
  %dx2 = arith.mulf %dx, %dx : f64
  %b1dt = arith.mulf %two, %dt : f64
  %mul1 = arith.divf %b1dt, %dx2 : f64
  %mul2 = arith.divf %dt, %dx2 : f64
  %half1 = arith.divf %mul1, %two : f64
  %a = arith.negf %half1 : f64
  %b = arith.addf %one, %mul1 : f64
  %half2 = arith.divf %mul2, %two : f64
  %d = arith.negf %half2 : f64
  %e = arith.addf %one, %mul2 : f64
  %neg_a = arith.negf %a : f64
  %neg_d = arith.negf %d : f64
  %two_a = arith.mulf %two, %a : f64
  %one_2a = arith.addf %one, %two_a : f64
  %two_d = arith.mulf %two, %d : f64
  %one_2d = arith.addf %one, %two_d : f64
  affine.for %t = 0 to 10 {
    affine.for %i = 1 to 19 {
      affine.store %one, %v[0, %i] : memref<20x20xf64>
      affine.store %zero, %p[%i, 0] : memref<20x20xf64>
      %v0 = affine.load %v[0, %i] : memref<20x20xf64>
      affine.store %v0, %q[%i, 0] : memref<20x20xf64>
      affine.for %j = 1 to 19 {
        %pm = affine.load %p[%i, %j - 1] : memref<20x20xf64>
        %ap = arith.mulf %a, %pm : f64
        %den = arith.addf %ap, %b : f64
        %pv = arith.divf %neg_a, %den : f64
        affine.store %pv, %p[%i, %j] : memref<20x20xf64>
        %ul = affine.load %u[%j, %i - 1] : memref<20x20xf64>
        %uc = affine.load %u[%j, %i] : memref<20x20xf64>
        %ur = affine.load %u[%j, %i + 1] : memref<20x20xf64>
        %qm = affine.load %q[%i, %j - 1] : memref<20x20xf64>
        %t1 = arith.mulf %neg_d, %ul : f64
        %t2 = arith.mulf %one_2d, %uc : f64
        %t3 = arith.addf %t1, %t2 : f64
        %t4 = arith.mulf %d, %ur : f64
        %t5 = arith.subf %t3, %t4 : f64
        %t6 = arith.mulf %a, %qm : f64
        %t7 = arith.subf %t5, %t6 : f64
        %qv = arith.divf %t7, %den : f64
        affine.store %qv, %q[%i, %j] : memref<20x20xf64>
      }
      affine.store %one, %v[19, %i] : memref<20x20xf64>
      affine.for %jj = 0 to 18 {
        %pj = affine.load %p[%i, -%jj + 18] : memref<20x20xf64>
        %vn = affine.load %v[-%jj + 19, %i] : memref<20x20xf64>
        %qj = affine.load %q[%i, -%jj + 18] : memref<20x20xf64>
        %m = arith.mulf %pj, %vn : f64
        %s = arith.addf %m, %qj : f64
        affine.store %s, %v[-%jj + 18, %i] : memref<20x20xf64>
      }
    }
    affine.for %i = 1 to 19 {
      affine.store %one, %u[%i, 0] : memref<20x20xf64>
      affine.store %zero, %p[%i, 0] : memref<20x20xf64>
      %u0 = affine.load %u[%i, 0] : memref<20x20xf64>
      affine.store %u0, %q[%i, 0] : memref<20x20xf64>
      affine.for %j = 1 to 19 {
        %pm = affine.load %p[%i, %j - 1] : memref<20x20xf64>
        %dp = arith.mulf %d, %pm : f64
        %den = arith.addf %dp, %e : f64
        %pv = arith.divf %neg_d, %den : f64
        affine.store %pv, %p[%i, %j] : memref<20x20xf64>
        %vu = affine.load %v[%i - 1, %j] : memref<20x20xf64>
        %vc = affine.load %v[%i, %j] : memref<20x20xf64>
        %vd = affine.load %v[%i + 1, %j] : memref<20x20xf64>
        %qm = affine.load %q[%i, %j - 1] : memref<20x20xf64>
        %t1 = arith.mulf %neg_a, %vu : f64
        %t2 = arith.mulf %one_2a, %vc : f64
        %t3 = arith.addf %t1, %t2 : f64
        %t4 = arith.mulf %a, %vd : f64
        %t5 = arith.subf %t3, %t4 : f64
        %t6 = arith.mulf %d, %qm : f64
        %t7 = arith.subf %t5, %t6 : f64
        %qv = arith.divf %t7, %den : f64
        affine.store %qv, %q[%i, %j] : memref<20x20xf64>
      }
      affine.store %one, %u[%i, 19] : memref<20x20xf64>
      affine.for %jj = 0 to 18 {
        %pj = affine.load %p[%i, -%jj + 18] : memref<20x20xf64>
        %un = affine.load %u[%i, -%jj + 19] : memref<20x20xf64>
        %qj = affine.load %q[%i, -%jj + 18] : memref<20x20xf64>
        %m = arith.mulf %pj, %un : f64
        %s = arith.addf %m, %qj : f64
        affine.store %s, %u[%i, -%jj + 18] : memref<20x20xf64>
      }
    }
  }
  return
}
