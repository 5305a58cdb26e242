# schelleng_gallery.gp: the article's Figure 9 (simulated half): the bridge force at
# x_b/L = 0.0874 for ten bowing forces 0.23 ... 4.18 N, offset by 3 N from bottom to top;
# left the initial transient, right a few periods of the steady part.
width = 1200
height = 900
call "plots/common.gp" "schelleng_gallery"
f = datadir("schelleng")."gallery.tsv"
offset = 3
set xlabel "time t (s)"
set ylabel "bridge force + offset (N)"
set key outside right
set multiplot layout 1,2 title "bridge force at x_b/L = 0.0874, offset by 3 N (bottom: 0.23 N, top: 4.18 N)"
set title "initial transient"
set xrange [0:0.3]
unset key
plot for [k=2:11] f using 1:(column(k) + offset * (k - 2)) with lines lw 1 lc k-1 notitle
set title "steady part (the last 40 ms)"
set xrange [0.46:0.5]
set xtics 0.01
set format x "%.2f"
set key outside right font ",9" invert
plot for [k=2:11] f using 1:(column(k) + offset * (k - 2)) with lines lw 1 lc k-1 title columnhead(k)
unset multiplot
