# convergence_character.gp: the lecture's "same order, different character" trajectories at
# h = 0.1 s over 6 s on the damped oscillator (bin/convergence), every method of the data.
call "plots/common.gp" "convergence_character"
d = datadir("convergence")
set title "same order, different character (h = 0.1 s): forward Euler grows, backward Euler decays"
set xlabel "time t (s)"
set ylabel "displacement u (m)"
set yrange [-2.2:2.2]
set key bmargin center horizontal font ",9"   # below the axes, however many methods
f = d."trajectories.tsv"
HF = f; eval HEADER
# every method column of the header (column 2 is the exact solution, drawn from exact.tsv)
plot d."exact.tsv" using 1:2 with lines lw 6 lc rgb c_exact title "exact", \
     for [k=3:NCOL] f using 1:k with linespoints pt 7 ps 0.5 lw 1.2 dt mdash(HEAD[k]) lc rgb mcolor(HEAD[k], k) title HEAD[k]
