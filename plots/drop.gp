# drop.gp: the adaptive run of the ball drop (lesson 7, bin/drop): the ball's height, the
# oscillator's displacement, and CVODE's step size, which shrinks in every contact. steps.tsv
# holds the steps of smallest and largest h and u1 in each 1/2000 of the run (the envelope of
# u1's ringing, every contact's dip in h); the count of all steps is summary.tsv's.
call "plots/common.gp" "drop"
f = datadir("drop")."steps.tsv"
stats datadir("drop")."summary.tsv" using (strcol(1) eq "steps" ? $2 : 1/0) nooutput
nsteps = STATS_max
stats datadir("drop")."impacts.tsv" using 1 nooutput
nimpacts = STATS_records
set multiplot layout 3, 1 title sprintf("ball on a damped oscillator, CVODE BDF: %d adaptive steps, %d impacts", nsteps, nimpacts)
set lmargin 12
set xrange [0:*]
unset key
set format x ""
set ylabel "ball u_2 (mm)"
plot f using 1:3 with lines lw 1.5 lc rgb c_rk4
set ylabel "u_1 ({/Symbol m}m)"
plot f using 1:4 with lines lw 0.5 lc rgb c_euler
set format x "%g"
set xlabel "time t (s)"
set ylabel "step h (s)"
set logscale y
set format y "10^{%T}"
set yrange [1e-7:2e-3]
plot f using 1:2 with lines lw 0.5 lc rgb c_cvode
unset multiplot
