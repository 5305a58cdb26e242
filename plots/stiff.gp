# stiff.gp: the lecture's stiff network at 1 ms and 0.2 ms (bin/stiff): the heavy mass over the
# whole run (RK4 at 1 ms leaves the plot), the light mass over the first milliseconds. Every run
# file bin/stiff wrote (run_METHOD_big.tsv, run_METHOD_small.tsv) is drawn, in its method's
# colour from its header; the small-step runs dashed and on top.
width = 1200; height = 520
call "plots/common.gp" "stiff"
d = datadir("stiff")
stats d."window.tsv" using 1 nooutput; zoom = STATS_max
stats d."window.tsv" using 2 nooutput; pull = abs(STATS_max)
stats d."window.tsv" using 3 nooutput; f_slow = STATS_max
stats d."window.tsv" using 4 nooutput; f_fast = STATS_max
runs = system("cd ".shq(d)." && ls run_*_big.tsv 2>/dev/null; ls run_*_small.tsv 2>/dev/null")
nr = words(runs)
array RL[nr]
do for [i=1:nr] { HF = d.word(runs, i); eval HEADER; RL[i] = HEAD[2] }
small(i) = strstrt(word(runs, i), "_small") > 0
blewup(i) = strstrt(word(runs, i), "rk4_big") > 0
set multiplot layout 1,2 title sprintf("stiff spring network (modes %.4g Hz and %.4g Hz): explicit or implicit steps", f_slow, f_fast)
set xlabel "time t (s)"
set ylabel "heavy mass displacement u_1 (m)"
set yrange [-1.5*pull:1.5*pull]
# the legend below in 2 columns, a row for each 2 curves (and the exact one): the bottom margin
# grows with it, so the x label stays above it however many runs there are
krows = ceil((nr + 1) / 2.0)
set key below font ",9" maxcols 2 height 1
set bmargin 5 + krows
set title "heavy mass u_1 (a run that blows up leaves the plot)"
plot d."exact.tsv" using 1:2 with lines lw 5 lc rgb c_exact title "exact (modal)", \
     for [i=1:nr] d.word(runs, i) using 1:2 with lines lw (small(i) ? 3.5 : 1.5) dt 1 + small(i) \
         lc rgb mcolor(RL[i], i) title RL[i]
set title sprintf("light mass u_2, first %g ms", zoom * 1e3)
set xrange [0:zoom]
set yrange [-1.2*pull:2.2*pull]
set ylabel "light mass displacement u_2 (m)"
plot d."exact.tsv" using 1:3 with lines lw 1 lc rgb "#c8c8c8" title "exact (modal)", \
     for [i=1:nr] d.word(runs, i) using 1:(blewup(i) ? NaN : $3) with linespoints pt (small(i) ? -1 : 7) ps 0.6 \
         lw (small(i) ? 3.5 : 1.2) dt 1 + small(i) lc rgb mcolor(RL[i], i) title (blewup(i) ? "" : RL[i])
unset multiplot
