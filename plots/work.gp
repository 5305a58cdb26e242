# work.gp: error at t = 5 s against evaluations (F + Jacobian) for every fixed-step method and
# every adaptive driver, drawn from the one record bin/work keeps (work.tsv: one block a method,
# its name, label and kind in the first columns, so any number of methods is drawn); the target line.
width = 1000; height = 640
call "plots/common.gp" "work"
f = datadir("work")."work.tsv"
stats datadir("work")."target.tsv" using 1 nooutput; target = STATS_max
BF = f; eval BLOCKS
set logscale xy
set format x "10^{%L}"; set format y "10^{%L}"
set xlabel "evaluations (F + Jacobian)"
set ylabel "error ||y - y(5)|| (m and m/s)"
set title "damped oscillator: work against accuracy (fixed steps: solid; adaptive drivers: dashed)"
set yrange [1e-13:1e2]
set key outside right font ",9"
set arrow 1 from graph 0, first target to graph 1, first target nohead dt 3 lw 1.5 lc rgb "gray"
set label 1 sprintf("%g", target) at graph 0.01, first target * 2 tc rgb "gray"
set datafile columnheaders
plot for [i=1:NBLK] f index (i - 1) using 9:10 with linespoints pt (BKIND[i] eq "adaptive" ? 5 : 7) ps 0.7 lw 1.5 \
         dt 1 + (BKIND[i] eq "adaptive") lc rgb mcolor(BNAME[i], i) title (BLAB[i]) noenhanced
