# drop_impulse.gp: between impacts (lesson 7, bin/drop): after the first impact m1 rings as the
# free oscillator struck by the impulse J = integral f_c dt, u1 = -J/(m1 omega1) e^{-sigma0 t} sin(omega1 t).
# first_impact.tsv holds every 5th of the 1 MHz samples.
call "plots/common.gp" "drop_impulse"
f = datadir("drop")."first_impact.tsv"
set title "first impact: the ODE solution against the oscillator formula with impulse J"
set xlabel "time after the first impact's centre (ms)"
set ylabel "u_1 ({/Symbol m}m)"
set y2label "contact force f_c (N)"
set xrange [-1:15]
stats f using 5 nooutput
set y2range [0:4 * STATS_max]
set ytics nomirror
set y2tics
set yrange [-150:220]
set key top right
plot f using 1:5 axes x1y2 with filledcurves y1=0 fs solid 0.4 noborder lc rgb c_trapezoid title "f_c", \
     f using 1:2 with lines lw 3 lc rgb "black" title "ODE solution (CVODE)", \
     f using 1:3 with lines lw 2 dt 2 lc rgb c_backward title "-J/(m_1 {/Symbol w}_1) e^{-{/Symbol s}_0 t} sin({/Symbol w}_1 t)", \
     f using 1:4 with lines lw 1 dt 3 lc rgb c_exact title "envelope", \
     f using 1:(-$4) with lines lw 1 dt 3 lc rgb c_exact notitle
