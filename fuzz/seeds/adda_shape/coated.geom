#shape: 'coated'
#box size: 2x2x2
Nmat=2
0 0 0 1
1 0 0 1
0 1 0 2
1 1 1 2
