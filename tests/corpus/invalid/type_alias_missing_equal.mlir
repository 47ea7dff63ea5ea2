// ERROR: 3:1: redefinition of type alias id 't'
!t = i32
!t i64
