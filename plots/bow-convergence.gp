# bow-convergence.gp: the structure-using fixed-step scheme against CVODE BDF (rtol 1e-9) on
# the Figure 6 stroke through its first slip, modes to 1.5 kHz (lesson 10, bin/bow).
width = 1200
call "plots/common.gp" "bow-convergence"
f = datadir("bow")."convergence.tsv"
set multiplot layout 1,2 title "fixed-step (trapezoidal, contact Newton) against CVODE BDF"
set logscale xy
set format xy "10^{%L}"
set xlabel "time step dt (s)"
set ylabel "max |f_u - f_u^{CVODE}| / max |f_u^{CVODE}|"
set key bottom right     # the errors rise to the top right
stats f using 1:2 nooutput
e0 = STATS_max_y; d0 = STATS_max_x
plot f using 1:2 with linespoints pt 7 ps 1 lw 2 lc rgb c_trapezoid title "fixed step", \
     e0 * (x / d0)**2 with lines dt 2 lw 1.5 lc rgb c_exact title "slope 2"
unset logscale xy
set format xy "%g"
set xlabel "time t (ms)"
set ylabel "bridge force (N)"
set xrange [52:60]
set key bottom right     # below the force's recovery after the slip
plot datadir("bow")."conv_traj.tsv" using ($1*1e3):2 with lines lw 4 lc rgb c_exact title "CVODE BDF", \
     "" using ($1*1e3):3 with lines lw 1.2 lc rgb c_euler title columnhead(3) noenhanced, \
     "" using ($1*1e3):5 with lines lw 1.2 lc rgb c_trapezoid title columnhead(5) noenhanced
unset multiplot
