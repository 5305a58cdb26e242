# convergence_local.gp: local against global error (lesson 2, bin/convergence) on the damped
# oscillator: for each method (a pair of columns of the data's header: global, local) the error at
# T after T/h steps (solid, slope p) and the error of one step from the exact state (dashed, slope
# p + 1), on the same axes. The legend carries each fitted slope.
width = 1000; height = 640
call "plots/common.gp" "convergence_local"
f = datadir("convergence")."local_oscillator.tsv"
HF = f; eval HEADER        # the method columns by name, for their colours
set datafile columnheaders
stats f using 1 nooutput
ncol = STATS_columns
nm = (ncol - 1) / 2
set logscale xy
set format x "2^{%L}"
set format y "10^{%L}"
set logscale x 2
set xlabel "step h (s)"
set ylabel "error (m and m/s)"
set title "local (one step, dashed: order p + 1) against global (at T, solid: order p) error"
set key outside right font ",9"
plot for [k=1:nm] f using 1:(column(2 * k)) with linespoints pt 7 ps 0.6 lw 1.5 \
         lc rgb mcolor(HEAD[2 * k], k) title columnhead(2 * k) noenhanced, \
     for [k=1:nm] f using 1:(column(2 * k + 1)) with linespoints pt 6 ps 0.6 lw 1.5 dt 2 \
         lc rgb mcolor(HEAD[2 * k], k) title columnhead(2 * k + 1) noenhanced
