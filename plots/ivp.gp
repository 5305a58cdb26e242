# ivp.gp: the numerical solution over the exact curve (lesson 1, bin/ivp).
load "plots/common.gp"
f = data."/ivp/trajectory.tsv"
set title "damped oscillator y' = Ay: numerical solution over the exact curve"
set xlabel "time t (s)"
set ylabel "displacement u (m)"
set yrange [-2.2:2.2]
set key bottom left
plot data."/ivp/exact.tsv" using 1:2 with lines lw 6 lc rgb c_exact title "exact", \
     f using 1:2 with linespoints pt 7 ps 0.6 lw 1.5 lc rgb c_euler title columnhead(2)
