// ERROR: 3:60: undefined symbol alias id 'layout_map0'
// Original problem: seeds/002 'Functions': #layout_map0 is used but never defined.
func @scribble(i32, i64, memref<? x 128 x f32, #layout_map0>) -> f64
