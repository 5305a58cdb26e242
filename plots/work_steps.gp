# work_steps.gp: the step size each adaptive driver chose over time at the tolerance nearest the
# target (bin/work): the lecture's Heun-Euler controller and the CVODE methods that refine it.
call "plots/common.gp" "work_steps"
f = datadir("work")."steps.tsv"
stats datadir("work")."target.tsv" using 2 nooutput; tol = STATS_max
set logscale y
set format y "10^{%L}"
set xlabel "time t (s)"
set ylabel "step h (s)"
set title sprintf("adaptive steps on the damped oscillator at rtol = atol = %g", tol)
set key bottom right
set yrange [1e-6:1]
plot f using (strcol(1) eq "heun-euler" ? $2 : NaN):3 with steps lw 1.5 lc rgb c_heun title "Heun-Euler pair (exponent 1/2)", \
     f using (strcol(1) eq "cvode-adams" ? $2 : NaN):3 with steps lw 1.5 lc rgb c_cvode title "CVODE Adams", \
     f using (strcol(1) eq "cvode-bdf" ? $2 : NaN):3 with steps lw 1.5 lc rgb "#bcbd22" title "CVODE BDF"
