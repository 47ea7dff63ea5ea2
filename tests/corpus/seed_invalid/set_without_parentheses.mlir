// ERROR: 4:5: expected '(' in integer set constraint list
// Original problem: seeds/002 'Integer Sets': the constraints of #set42 are not in parentheses.
#set42 = (d0, d1)[s0, s1]
   : d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + s1 - 1 >= 0
