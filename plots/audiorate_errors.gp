# audiorate_errors.gp: the ball drop is chaotic (lesson 8, bin/audiorate): each run's impact-time
# error against the impact's index, one line a run (every column after the third of the data's
# header), beside what a listener hears as a shifted impact (dashed) and the reference's horizon.
call "plots/common.gp" "audiorate_errors"
f = datadir("audiorate")."impact_errors.tsv"
s = datadir("audiorate")."summary.tsv"
stats s using (strcol(1) eq "horizon_impacts" ? $2 : 1/0) nooutput
H = STATS_max
stats f using 1 nooutput
nimp = STATS_max
set datafile columnheaders
stats f using 1 nooutput
ncol = STATS_columns
set title "the drop is chaotic: impact-time error grows at every bounce"
set xlabel "impact (index)"
set ylabel "|start time - reference's| (ms)"
set logscale y
set format y "10^{%L}"
set yrange [1e-7:1e3]
set xrange [1:(nimp < 16 ? nimp : 16)]
set xtics 1
set key bottom right
set arrow from H, graph 0 to H, graph 1 nohead dt 2 lc rgb "#606060"
set label " reference sure of impacts 1 to ".sprintf("%d", H) at H, graph 0.45 left font ",9" tc rgb "#606060"
palette = "#ff7f0e #ffbb78 #c49c94 #2ca02c #d62728 #1f77b4 #9467bd #8c564b #e377c2 #7f7f7f #bcbd22 #17becf"
plot f using 1:3 with lines dt 2 lw 2 lc rgb "#333333" title "a listener hears this (Friberg and Sundberg 1995)", \
     for [c=4:ncol] f using 1:(column(c) > 0 ? column(c) : 1/0) with linespoints pt 7 ps 0.5 lw 1.5 \
         lc rgb word(palette, (c - 4) % 12 + 1) title columnhead(c)
