# stiff.gp: the lecture's stiff network at 1 ms and 0.2 ms (bin/stiff): the heavy mass over the
# whole run (RK4 at 1 ms leaves the plot), the light mass over the first milliseconds.
width = 1200; height = 520
call "plots/common.gp" "stiff"
d = datadir("stiff")
stats d."window.tsv" using 1 nooutput; zoom = STATS_max
stats d."window.tsv" using 2 nooutput; pull = abs(STATS_max)
set multiplot layout 1,2 title "stiff spring network (modes 10.5 Hz and 1950 Hz): explicit or implicit steps"
set xlabel "time t (s)"
set ylabel "heavy mass displacement u_1 (m)"
set yrange [-1.5*pull:1.5*pull]
set key bottom left font ",9" maxrows 3
set title "heavy mass u_1 (RK4 at 1 ms leaves the plot)"
plot d."exact.tsv" using 1:2 with lines lw 5 lc rgb c_exact title "exact (modal)", \
     d."run_rk4_big.tsv" using 1:2 with lines lw 1.5 lc rgb c_rk4 title columnhead(2), \
     d."run_rk4_small.tsv" using 1:2 with lines dt 3 lw 2 lc rgb "dark-green" title columnhead(2), \
     d."run_backward-euler_big.tsv" using 1:2 with lines lw 1.3 lc rgb c_backward title columnhead(2), \
     d."run_trapezoid_big.tsv" using 1:2 with lines lw 1.3 lc rgb c_trapezoid title columnhead(2)
set title sprintf("light mass u_2, first %g ms", zoom * 1e3)
set xrange [0:zoom]
set yrange [-1.2*pull:2.2*pull]
set ylabel "light mass displacement u_2 (m)"
plot d."exact.tsv" using 1:3 with lines lw 1 lc rgb "#c8c8c8" title "exact (modal)", \
     d."run_rk4_small.tsv" using 1:3 with lines dt 3 lw 2 lc rgb "dark-green" title columnhead(2), \
     d."run_backward-euler_big.tsv" using 1:3 with linespoints pt 7 ps 0.6 lw 1.2 lc rgb c_backward title columnhead(2), \
     d."run_trapezoid_big.tsv" using 1:3 with linespoints pt 7 ps 0.6 lw 1.2 lc rgb c_trapezoid title columnhead(2)
unset multiplot
