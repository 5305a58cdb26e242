# pluck_cvode_order.gp: CVODE's BDF on string-pluck-v1 against its order cap q (lesson 9, bin/pluck,
# cvode-order.tsv): internal steps and wall time per second of sound, on the 5-point grid and on the
# Galerkin system, with and without stability-limit detection (q >= 3). Dahlquist's second barrier:
# only q <= 2 is A-stable, yet here the higher orders take the fewest steps.
width = 900; height = 800
call "plots/common.gp" "pluck_cvode_order"
f = datadir("pluck")."cvode-order.tsv"
tmax = system("awk -F'\t' 'NR > 1 && $5 > m { m = $5 } END { printf \"%.3g\", 1e3 * m }' ".shq(f))
set multiplot layout 2, 1 title "CVODE BDF on the plucked string: cost per second of sound against the order cap q\n(the first ".tmax." ms at most, or a step budget, from the pluck: while the fast modes ring)"
set logscale y
set format y "10^{%L}"
set xrange [0.7:5.3]
set xtics 1
set xlabel "largest BDF order q (BDF1-2 A-stable; BDF3-5 stable only in sectors of 86, 73, 52 degrees)"
set key top right
grid = system("awk -F'\t' 'NR > 1 && $1 == \"fd5\" { print $2; exit }' ".shq(f))
modes = system("awk -F'\t' 'NR > 1 && $1 == \"modal\" { print $2; exit }' ".shq(f))
set ylabel "internal steps per second of sound"
plot f index 0 using 3:10 with linespoints pt 7 ps 1.3 lw 2 lc rgb c_cvode title "5-point FD, N = ".grid, \
     f index 1 using 3:10 with linespoints dt 2 pt 6 ps 2 lw 2 lc rgb c_cvode title "5-point FD, stability-limit detection", \
     f index 2 using 3:10 with linespoints pt 5 ps 1.3 lw 2 lc rgb c_rk4 title "Galerkin, M = ".modes, \
     f index 3 using 3:10 with linespoints dt 2 pt 4 ps 2 lw 2 lc rgb c_rk4 title "Galerkin, stability-limit detection"
set ylabel "wall seconds per second of sound"
plot f index 0 using 3:11 with linespoints pt 7 ps 1.3 lw 2 lc rgb c_cvode title "5-point FD, N = ".grid, \
     f index 1 using 3:11 with linespoints dt 2 pt 6 ps 2 lw 2 lc rgb c_cvode title "5-point FD, stability-limit detection", \
     f index 2 using 3:11 with linespoints pt 5 ps 1.3 lw 2 lc rgb c_rk4 title "Galerkin, M = ".modes, \
     f index 3 using 3:11 with linespoints dt 2 pt 4 ps 2 lw 2 lc rgb c_rk4 title "Galerkin, stability-limit detection"
unset multiplot
