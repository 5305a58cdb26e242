# pluck_cvode_steps.gp: CVODE on the 5-point string against its tolerance (lesson 9, bin/pluck,
# cvode-rtol.tsv): internal steps per second of sound, and the error against the exact
# semi-discrete solution, over rtol 1e-3 ... 1e-8 for three setups. The steps barely move while
# the error falls: the step is held by stability on the highest grid mode. The dashed guide is what
# a step held by accuracy at the largest order q would do (steps ~ rtol^{-1/(q+1)}), from the first
# setup's loosest point. The dotted line is the stability limit: Adams-Moulton at the order CVODE
# took most steps at, on the grid's fastest mode (column stab_steps_per_s, Adams + band Newton,
# whose Newton iteration makes the corrector exactly Adams-Moulton): the fewest steps per second
# that stability allows.
width = 900; height = 800
call "plots/common.gp" "pluck_cvode_steps"
f = datadir("pluck")."cvode-rtol.tsv"
# a run that wrote no cvode-rtol.tsv: gnuplot names the missing file (bin/pluck --plot skips the figure)
stats f using 2 nooutput
info = system("awk -F'\t' 'NR == 2 { print $3, $4, $6, $7 }' ".shq(f))
grid = word(info, 1); q = real(word(info, 2)); tm = real(word(info, 3)); t1 = real(word(info, 4))
anchor = system("awk -F'\t' 'NR == 2 { print $2, $8 }' ".shq(f))
r0 = real(word(anchor, 1)); s0 = real(word(anchor, 2))
qs = system("awk -F'\t' '$1 == \"Adams + band Newton\" { print $14; exit }' ".shq(f))
set multiplot layout 2, 1 title sprintf("CVODE on the 5-point string, N = %s: per second of sound over %.3g .. %.3g s\n(each run from the exact semi-discrete state; atol fixed)", grid, tm, t1)
set logscale xy
set format x "10^{%L}"
set format y "10^{%L}"
set xrange [2e-9:2e-3]
set xlabel "relative tolerance rtol"
acc(x) = s0 * (x / r0)**(-1.0 / (q + 1))
set ylabel "internal steps per second of sound"
set key top right
# room above the curves and the guide for the key
set yrange [*:30 * s0 * (1e-8 / r0)**(-1.0 / (q + 1))]
plot f index 0 using 2:8 with linespoints pt 7 ps 1.3 lw 2 lc rgb c_bdf title "BDF + band Newton", \
     f index 1 using 2:8 with linespoints pt 5 ps 1.3 lw 2 lc rgb c_cvode title "Adams + band Newton", \
     f index 2 using 2:8 with linespoints pt 9 ps 1.5 lw 2 lc rgb c_rk4 title "Adams + fixed point", \
     f index 1 using 2:15 with lines dt 3 lw 3 lc rgb c_cvode title sprintf("stability limit of Adams-Moulton (order %s) on the fastest mode", qs), \
     acc(x) with lines dt 2 lw 2 lc rgb c_exact title sprintf("if accuracy held the step (order %g): rtol^{-1/%g}", q, q + 1)
set ylabel "pickup error: RMS against the exact\nsemi-discrete solution, relative"
set key top left
set yrange [*:*]
plot f index 0 using 2:11 with linespoints pt 7 ps 1.3 lw 2 lc rgb c_bdf title "BDF + band Newton", \
     f index 1 using 2:11 with linespoints pt 5 ps 1.3 lw 2 lc rgb c_cvode title "Adams + band Newton", \
     f index 2 using 2:11 with linespoints pt 9 ps 1.5 lw 2 lc rgb c_rk4 title "Adams + fixed point"
unset multiplot
