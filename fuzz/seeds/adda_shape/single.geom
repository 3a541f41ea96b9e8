#shape: 'box'
#box size: 2x1x1
0 0 0
1 0 0
