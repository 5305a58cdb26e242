# schelleng_reasons.gp: why cells are unclassified: every unclassified cell of the Schelleng
# diagram coloured by the rule that left it so (the results TSV's reason column), the
# classified cells faint; from the full sweep when results-full.tsv exists.
call "plots/common.gp" "schelleng_reasons"
sch = datadir("schelleng")
if (!exists("results")) results = system("test -f ".shq(sch."results-full.tsv")." && echo y") eq "y" ? sch."results-full.tsv" : sch."results.tsv"
set title "Schelleng diagram: why the unclassified cells are unclassified (simulated)"
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
u(n) = strcol(5) eq "unclassified" && strcol(24) eq n ? column(4) : NaN
plot results using 3:(strcol(5) eq "unclassified" ? NaN : column(4)) with points pt 7 ps 0.4 lc rgb "#d8d8d8" title "classified", \
     results using 3:(u("sticking")) with points pt 5 ps 1.2 lc rgb "#1f77b4" title "no slip (sticking throughout)", \
     results using 3:(u("slipping")) with points pt 4 ps 1.2 lc rgb "#17becf" title "no slip onset (slipping throughout)", \
     results using 3:(u("tiny")) with points pt 7 ps 0.8 lc rgb "#7f7f7f" title "tiny signal", \
     results using 3:(u("irregular")) with points pt 3 ps 1.4 lc rgb "#d62728" title "not periodic, small", \
     results using 3:(u("other_period")) with points pt 9 ps 1.3 lc rgb "#ff7f0e" title "regular at another period", \
     results using 3:(u("slips_vary")) with points pt 2 ps 1.4 lw 2 lc rgb "#2ca02c" title "slip count varies", \
     results using 3:(u("rounded")) with points pt 13 ps 1.3 lc rgb "#9467bd" title "rounded corners (no flyback)"
