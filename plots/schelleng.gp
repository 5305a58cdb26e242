# schelleng.gp: the Schelleng diagram (the article's Figure 10, simulated half): the regime of
# each stroke's steady part over bow-bridge distance and bowing force (bin/schelleng).
call "plots/common.gp" "schelleng"
if (!exists("results")) results = datadir("schelleng")."results.tsv"
if (!exists("heading")) heading = "Schelleng diagram: cello G string, v_b = 0.1 m/s (simulated)"
set title heading
# The axes span the cells (columns x_lo, x_hi, f_lo, f_hi).
stats results using 16 nooutput
xlo = STATS_min
stats results using 17 nooutput
xhi = STATS_max
stats results using 18 nooutput
flo = STATS_min
stats results using 19 nooutput
fhi = STATS_max
set xrange [xlo:xhi]
set yrange [flo:fhi]
set logscale xy
set xlabel "bow-bridge distance x_b/L"
set ylabel "bowing force f_b (N)"
set format x "%g"
set xtics (0.02, 0.03, 0.05, 0.07, 0.1, 0.15, 0.2, 0.3)
set format y "%g"
set key outside right top
set grid xtics ytics mxtics mytics
r(n) = strcol(5) eq n ? column(4) : NaN
plot results using 3:(r("helmholtz")) with points pt 5 ps 1.4 lc rgb "#1f77b4" title "Helmholtz motion", \
     results using 3:(r("double_slip")) with points pt 3 ps 1.6 lc rgb "#d62728" title "double slips", \
     results using 3:(r("raucous")) with points pt 1 ps 1.8 lw 2 lc rgb "#000000" title "raucous motion", \
     results using 3:(r("multiple_slip")) with points pt 2 ps 1.6 lw 2 lc rgb "#2ca02c" title "multiple slips", \
     results using 3:(r("s_motion")) with points pt 7 ps 1.3 lc rgb "#9467bd" title "S-motion", \
     results using 3:(r("multiple_flyback")) with points pt 9 ps 1.5 lc rgb "#ff7f0e" title "multiple flyback", \
     results using 3:(r("unclassified")) with points pt 7 ps 0.5 lc rgb "#a0a0a0" title "unclassified", \
     results using 3:(r("failed")) with points pt 6 ps 1.5 lc rgb "#ff0000" title "solver failed"
