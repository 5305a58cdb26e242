# work.gp: error at t = 5 s against evaluations (F + Jacobian) for every fixed-step method and
# every adaptive driver, drawn from the one record bin/work keeps (work.tsv); the target line.
width = 1000; height = 640
call "plots/common.gp" "work"
f = datadir("work")."work.tsv"
stats datadir("work")."target.tsv" using 1 nooutput; target = STATS_max
set logscale xy
set format x "10^{%L}"; set format y "10^{%L}"
set xlabel "evaluations (F + Jacobian)"
set ylabel "error ||y - y(5)|| (m and m/s)"
set title "damped oscillator: work against accuracy (fixed steps: solid; adaptive drivers: dashed)"
set yrange [1e-13:1e2]
set key outside right font ",9"
names  = "euler backward-euler trapezoid heun rk4 leapfrog heun-euler gsl-rkf45 cvode-adams cvode-bdf"
labels = "'forward Euler (1 F/step)' 'backward Euler (F+J)' 'trapezoid (F+J)' 'Heun (2 F/step)' 'RK4 (4 F/step)' 'leapfrog (3 F/step, damped)' 'Heun-Euler adaptive' 'GSL rkf45' 'CVODE Adams' 'CVODE BDF (F+J)'"
cols = c_euler." ".c_backward." ".c_trapezoid." ".c_heun." ".c_rk4." ".c_leapfrog." ".c_heun." #17becf ".c_cvode." #bcbd22"
set arrow 1 from graph 0, first target to graph 1, first target nohead dt 3 lw 1.5 lc rgb "gray"
set label 1 sprintf("%g", target) at graph 0.01, first target * 2 tc rgb "gray"
plot for [i=1:6] f using (strcol(1) eq word(names, i) ? $9 : NaN):10 \
         with linespoints pt 7 ps 0.7 lw 1.5 lc rgb word(cols, i) title word(labels, i) noenhanced, \
     for [i=7:10] f using (strcol(1) eq word(names, i) ? $9 : NaN):10 \
         with linespoints pt 5 ps 0.7 lw 1.5 dt 2 lc rgb word(cols, i) title word(labels, i) noenhanced
