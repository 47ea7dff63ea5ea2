// Loops whose incoming DMAs -affine-pipeline-data-transfer double-buffers, in the shapes of
// mlir-opt's pipeline-data-transfer tests (made runnable: computations are arith ops and
// every transfer stays in bounds), and the cases it must refuse.
func.func @loop_nest_dma(%A: memref<256xf32>, %out: memref<8x32xf32>) {
  %Ah = memref.alloc() : memref<32xf32, 1>
  %tag = memref.alloc() : memref<1xf32>
  %zero = arith.constant 0 : index
  %num = arith.constant 32 : index
  %two = arith.constant 2.0 : f32
  affine.for %i = 0 to 8 {
    affine.dma_start %A[%i * 32], %Ah[0], %tag[%zero], %num : memref<256xf32>, memref<32xf32, 1>, memref<1xf32>
    affine.dma_wait %tag[%zero], %num : memref<1xf32>
    affine.for %j = 0 to 32 {
      %v = affine.load %Ah[%j] : memref<32xf32, 1>
      %r = arith.mulf %v, %two : f32
      affine.store %r, %out[%i, %j] : memref<8x32xf32>
    }
  }
  memref.dealloc %tag : memref<1xf32>
  memref.dealloc %Ah : memref<32xf32, 1>
  return
}

func.func @loop_step(%arg0: memref<512xf32>, %arg1: memref<512xf32>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  affine.for %i0 = 0 to 512 step 4 {
    %1 = memref.alloc() : memref<4xf32, 1>
    %2 = memref.alloc() : memref<1xi32>
    affine.dma_start %arg0[%i0], %1[%c0], %2[%c0], %c4 : memref<512xf32>, memref<4xf32, 1>, memref<1xi32>
    affine.dma_wait %2[%c0], %c4 : memref<1xi32>
    affine.for %k = 0 to 4 {
      %v = affine.load %1[%k] : memref<4xf32, 1>
      affine.store %v, %arg1[%i0 + 3 - %k] : memref<512xf32>
    }
    memref.dealloc %2 : memref<1xi32>
    memref.dealloc %1 : memref<4xf32, 1>
  }
  return
}

func.func @one_trip(%A: memref<64xf32>, %B: memref<64xf32>) {
  %buf = memref.alloc() : memref<64xf32, 1>
  %tag = memref.alloc() : memref<1xi32>
  %n = arith.constant 64 : index
  affine.for %i = 5 to 6 {
    affine.dma_start %A[0], %buf[0], %tag[0], %n : memref<64xf32>, memref<64xf32, 1>, memref<1xi32>
    affine.dma_wait %tag[0], %n : memref<1xi32>
    affine.for %j = 0 to 64 {
      %v = affine.load %buf[%j] : memref<64xf32, 1>
      %w = arith.index_cast %i : index to i32
      %x = arith.sitofp %w : i32 to f32
      %y = arith.addf %v, %x : f32
      affine.store %y, %B[%j] : memref<64xf32>
    }
  }
  memref.dealloc %tag : memref<1xi32>
  memref.dealloc %buf : memref<64xf32, 1>
  return
}

func.func @memref_dma(%A: memref<16x8xf32>, %B: memref<16x8xf32>) {
  %buf = memref.alloc() : memref<8xf32, 1>
  %tag = memref.alloc() : memref<1xi32>
  %c0 = arith.constant 0 : index
  %n = arith.constant 8 : index
  affine.for %i = 0 to 16 {
    memref.dma_start %A[%i, %c0], %buf[%c0], %n, %tag[%c0] : memref<16x8xf32>, memref<8xf32, 1>, memref<1xi32>
    memref.dma_wait %tag[%c0], %n : memref<1xi32>
    affine.for %j = 0 to 8 {
      %v = memref.load %buf[%j] : memref<8xf32, 1>
      affine.store %v, %B[15 - %i, %j] : memref<16x8xf32>
    }
  }
  memref.dealloc %tag : memref<1xi32>
  memref.dealloc %buf : memref<8xf32, 1>
  return
}

// Refused: the loop writes the rows the next iteration's DMA reads.
func.func @source_written(%A: memref<17x8xf32>) {
  %buf = memref.alloc() : memref<8xf32, 1>
  %tag = memref.alloc() : memref<1xi32>
  %n = arith.constant 8 : index
  %one = arith.constant 1.0 : f32
  affine.for %i = 0 to 16 {
    affine.dma_start %A[%i, 0], %buf[0], %tag[0], %n : memref<17x8xf32>, memref<8xf32, 1>, memref<1xi32>
    affine.dma_wait %tag[0], %n : memref<1xi32>
    affine.for %j = 0 to 8 {
      %v = affine.load %buf[%j] : memref<8xf32, 1>
      %w = arith.addf %v, %one : f32
      affine.store %w, %A[%i + 1, %j] : memref<17x8xf32>
    }
  }
  memref.dealloc %tag : memref<1xi32>
  memref.dealloc %buf : memref<8xf32, 1>
  return
}

// Refused: the loop writes, before its DMA in the same iteration, the element that DMA
// reads; issued one iteration early, the DMA would read it before the store.
func.func @source_written_first(%A: memref<16x8xf32>, %R: memref<16xf32>) {
  %buf = memref.alloc() : memref<1xf32, 1>
  %tag = memref.alloc() : memref<1xi32>
  %n = arith.constant 1 : index
  %seven = arith.constant 7.0 : f32
  affine.for %i = 0 to 16 {
    affine.store %seven, %R[%i] : memref<16xf32>
    affine.dma_start %R[%i], %buf[0], %tag[0], %n : memref<16xf32>, memref<1xf32, 1>, memref<1xi32>
    affine.dma_wait %tag[0], %n : memref<1xi32>
    affine.for %j = 0 to 8 {
      %a = affine.load %A[%i, %j] : memref<16x8xf32>
      %r = affine.load %buf[0] : memref<1xf32, 1>
      %p = arith.mulf %a, %r : f32
      affine.store %p, %A[%i, %j] : memref<16x8xf32>
    }
  }
  memref.dealloc %tag : memref<1xi32>
  memref.dealloc %buf : memref<1xf32, 1>
  return
}

// Refused: the buffer is read after the loop.
func.func @live_out(%A: memref<16x8xf32>, %B: memref<1xf32>) {
  %buf = memref.alloc() : memref<8xf32, 1>
  %tag = memref.alloc() : memref<1xi32>
  %n = arith.constant 8 : index
  affine.for %i = 0 to 16 {
    affine.dma_start %A[%i, 0], %buf[0], %tag[0], %n : memref<16x8xf32>, memref<8xf32, 1>, memref<1xi32>
    affine.dma_wait %tag[0], %n : memref<1xi32>
  }
  %v = affine.load %buf[3] : memref<8xf32, 1>
  affine.store %v, %B[0] : memref<1xf32>
  memref.dealloc %tag : memref<1xi32>
  memref.dealloc %buf : memref<8xf32, 1>
  return
}

// Refused: half of the buffer keeps a value from the previous iteration.
func.func @carried_in_buffer(%A: memref<64xf32>, %B: memref<16xf32>) {
  %buf = memref.alloc() : memref<8xf32, 1>
  %tag = memref.alloc() : memref<1xi32>
  %n = arith.constant 4 : index
  affine.for %i = 0 to 16 {
    affine.dma_start %A[%i * 4], %buf[0], %tag[0], %n : memref<64xf32>, memref<8xf32, 1>, memref<1xi32>
    affine.dma_wait %tag[0], %n : memref<1xi32>
    %v = affine.load %buf[0] : memref<8xf32, 1>
    %w = affine.load %buf[4] : memref<8xf32, 1>
    %s = arith.addf %v, %w : f32
    affine.store %s, %B[%i] : memref<16xf32>
    affine.store %v, %buf[4] : memref<8xf32, 1>
  }
  memref.dealloc %tag : memref<1xi32>
  memref.dealloc %buf : memref<8xf32, 1>
  return
}
