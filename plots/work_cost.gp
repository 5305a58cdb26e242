# work_cost.gp: the explicit-against-implicit trade-off (lesson 5, bin/work): the error at T of every
# run against its cost, every F, Jacobian, LU factorization and solve counted by the cost model
# stated in the title (target.tsv), and against its wall time. One series a method: each data block
# of work.tsv, labelled from its own label column.
width = 1400; height = 620
call "plots/common.gp" "work_cost"
f = datadir("work")."work.tsv"
t = datadir("work")."target.tsv"
set datafile columnheaders
stats t using 1 nooutput; target = STATS_max
model = ""
stats t using (model = strcol("cost_model"), 0) nooutput
stats f using 5 nooutput
nb = STATS_blocks
array L[nb]
array K[nb]
do for [i=1:nb] {
    stats f index (i - 1) using (L[i] = strcol(2), K[i] = strcol(3), 0) nooutput
}
set multiplot title "work against accuracy, damped oscillator; cost = ".model noenhanced
set origin 0, 0; set size 0.43, 0.95
set logscale xy
set format x "10^{%L}"; set format y "10^{%L}"
set ylabel "error ||y - y(T)||"
set yrange [1e-13:1e2]
set arrow 1 from graph 0, first target to graph 1, first target nohead dt 3 lw 1.5 lc rgb "gray"
set xlabel "cost (F-equivalents: F, Jacobians, LU factorizations, solves)"
# one legend for both panels, right of the second: outside every curve however the runs fall
unset key
plot for [i=1:nb] f index (i - 1) using 13:10 with linespoints pt (K[i] eq "adaptive" ? 5 : 7) ps 0.6 \
         lw 1.5 dt 1 + (K[i] eq "adaptive") lc rgb mcolor(L[i], i) notitle
set xlabel "wall time of one run (s)"
set origin 0.43, 0; set size 0.57, 0.95
set xtics 100
set key outside right top font ",9"
plot for [i=1:nb] f index (i - 1) using 14:10 with linespoints pt (K[i] eq "adaptive" ? 5 : 7) ps 0.6 \
         lw 1.5 dt 1 + (K[i] eq "adaptive") lc rgb mcolor(L[i], i) title (L[i]) noenhanced
unset multiplot
