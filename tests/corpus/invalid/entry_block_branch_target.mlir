// ERROR: 2:1: entry block of region may not have predecessors
func.func @loop_to_entry() {
^entry:
  cf.br ^next
^next:
  cf.br ^entry
}
