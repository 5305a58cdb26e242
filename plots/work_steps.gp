# work_steps.gp: the step size each adaptive driver chose over time at the tolerance nearest the
# target (bin/work; steps.tsv holds one block a driver, so every driver in it is drawn).
call "plots/common.gp" "work_steps"
f = datadir("work")."steps.tsv"
stats datadir("work")."target.tsv" using 2 nooutput; tol = STATS_max
BF = f; eval BLOCKS
dlabel(n) = n eq "heun-euler" ? "Heun-Euler pair (exponent 1/2)" : n eq "cvode-adams" ? "CVODE Adams" : \
            n eq "cvode-bdf" ? "CVODE BDF" : n eq "gsl-rkf45" ? "GSL rkf45" : n
set logscale y
set format y "10^{%L}"
set xlabel "time t (s)"
set ylabel "step h (s)"
set title sprintf("adaptive steps on the damped oscillator at rtol = atol = %g", tol)
set key bottom right
set yrange [1e-6:1]
set datafile columnheaders
plot for [i=1:NBLK] f index (i - 1) using 2:3 with steps lw 1.5 lc rgb mcolor(BNAME[i], i) title dlabel(BNAME[i]) noenhanced
