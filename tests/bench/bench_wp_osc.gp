# bench_wp_osc.gp: work-precision of the damped oscillator (make bench): error |y(5) - exact|
# against wall time per solve, log-log, every method of ivplab (solid) and of SciPy (dashed) on
# one plot, from one run of tests/bench/wp_osc.c and tests/bench/wp_osc.py (build/bench/wp_osc.tsv,
# one block per method, named in build/bench/wp_osc.labels). Rendered by tests/bench/bench.py.
width = 1100; height = 700
load "plots/common.gp"
f = data."/wp_osc.tsv"
labels = data."/wp_osc.labels"
n = int(system("wc -l < ".labels))
label(i) = system(sprintf("sed -n %dp %s", i + 1, labels))
scipy(i) = strstrt(label(i), "solve_ivp") > 0 || strstrt(label(i), "NumPy") > 0
set title "damped oscillator ({/Symbol w}_0 = 2{/Symbol p} rad/s, {/Symbol s}_0 = 0.2 1/s) to T = 5 s: error against wall time, one solve in-process"
set logscale xy
set format x "10^{%L}"; set format y "10^{%L}"
set xlabel "wall time of one solve (s), fastest of repetitions"
set ylabel "error |y(5) - y_{exact}(5)| (m, m/s)"
set yrange [1e-15:1e2]
set key outside right top font ",9"
set style line 100 lc rgb "#888888" dt 3
set arrow from graph 0, first 1e-6 to graph 1, first 1e-6 nohead ls 100
ptype(i) = scipy(i) ? 6 : 7
# ivplab's methods in the house colours (plots/common.gp), then the peers'
colors = c_euler." ".c_backward." ".c_trapezoid." ".c_heun." ".c_rk4." ".c_leapfrog." ".c_cvode." #777777 " \
         ."#e377c2 #17becf #bcbd22 #7f7f7f #aec7e8 #98df8a #ff9896"
dtype(i) = scipy(i) ? 2 : 1
plot for [i=0:n-1] f index i using 4:3 with linespoints pt ptype(i) ps 0.7 lw 1.5 \
     dt dtype(i) lc rgb word(colors, i + 1) title label(i) noenhanced
