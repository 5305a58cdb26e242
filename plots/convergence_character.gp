# convergence_character.gp: the lecture's "same order, different character" trajectories at
# h = 0.1 s over 6 s on the damped oscillator (bin/convergence).
call "plots/common.gp" "convergence_character"
d = datadir("convergence")
set title "same order, different character (h = 0.1 s): forward Euler grows, backward Euler decays"
set xlabel "time t (s)"
set ylabel "displacement u (m)"
set yrange [-2.2:2.2]
set key bottom left font ",9" maxrows 3
plot d."exact.tsv" using 1:2 with lines lw 6 lc rgb c_exact title "exact", \
     d."trajectories.tsv" using 1:3 with linespoints pt 7 ps 0.5 lw 1.2 lc rgb c_euler title columnhead(3), \
     "" using 1:4 with linespoints pt 7 ps 0.5 lw 1.2 lc rgb c_backward title columnhead(4), \
     "" using 1:5 with linespoints pt 7 ps 0.5 lw 1.2 lc rgb c_trapezoid title columnhead(5), \
     "" using 1:8 with linespoints pt 7 ps 0.5 lw 1.2 lc rgb c_leapfrog title columnhead(8)
