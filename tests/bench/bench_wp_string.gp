# bench_wp_string.gp: work-precision of string-pluck-v1 by 5-point finite differences (make bench):
# E_wave of each solution's WAV against the challenge reference, against the wall time of its solve
# (in-process), log-log; each curve one time stepper over the grids N of --wp-N (and the
# table's row-3 run at N = 390), ivplab solid, SciPy dashed, from one run of tests/bench/bench.py
# (build/bench/wp_string.tsv, one block per method, named in build/bench/wp_string.labels).
width = 1100; height = 700
load "plots/common.gp"
f = data."/wp_string.tsv"
labels = data."/wp_string.labels"
n = int(system("wc -l < ".labels))
label(i) = system(sprintf("sed -n %dp %s", i + 1, labels))
scipy(i) = strstrt(label(i), "solve_ivp") > 0
set title "plucked string, 5-point finite differences: E_{wave} against the solve's wall time (one point a grid N, N growing to the lower right)"
set logscale xy
set format x "10^{%L}"; set format y "10^{%L}"
set xlabel "wall time of the solve, in-process (s)"
set ylabel "E_{wave} against the exact reference"
set key outside right top font ",9"
set style line 100 lc rgb "#888888" dt 3
set arrow from graph 0, first 1e-3 to graph 1, first 1e-3 nohead ls 100
set label "E_{wave} = 10^{-3} (the table's target)" at graph 0.02, first 1.3e-3 font ",9" tc rgb "#666666"
ptype(i) = scipy(i) ? 6 : 7
dtype(i) = scipy(i) ? 2 : 1
has(i, w) = strstrt(label(i), w) > 0
color(i) = has(i, "CVODE") ? c_cvode : has(i, "RK4") ? c_rk4 : has(i, "BDF") ? "#e377c2" : \
           has(i, "Radau") ? "#17becf" : has(i, "LSODA") ? "#bcbd22" : "#7f7f7f"
plot for [i=0:n-1] f index i using 4:3 with linespoints pt ptype(i) ps 0.9 lw 1.5 \
     dt dtype(i) lc rgb color(i) title label(i) noenhanced
