# schelleng_measures.gp: the article's Figure 12 (simulated row): four measures of the steady
# bridge force over the Schelleng plane: mean, RMS about the mean, fundamental frequency
# (grey above 101 Hz, as in the article) and power-weighted spectral centroid; from the full
# 40 x 40 sweep when build/data/schelleng/results-full.tsv exists (bin/schelleng --full).
width = 1200
height = 900
call "plots/common.gp" "schelleng_measures"
sch = datadir("schelleng")
f = system("test -f ".shq(sch."results-full.tsv")." && echo y") eq "y" ? sch."results-full.tsv" : sch."results.tsv"
stats f using 3 nooutput    # every cell, counted before any range is set (a range filters stats)
cells = STATS_records
stats f using 16 nooutput
set xrange [STATS_min:*]
stats f using 17 nooutput
set xrange [:STATS_max]
stats f using 18 nooutput
set yrange [STATS_min:*]
stats f using 19 nooutput
set yrange [:STATS_max]
set logscale xy
set format x "%g"
set xtics (0.02, 0.03, 0.05, 0.1, 0.15, 0.2, 0.3)
set format y "%g"
set xlabel "x_b/L"
set ylabel "f_b (N)"
set style fill solid 1.0 noborder
set palette rgbformulae 33,13,10
unset key
set multiplot layout 2,2 title sprintf("Schelleng plane: measures of the steady bridge force (simulated, %d cells)", cells)
set title "mean (N)"
plot f using 3:4:16:17:18:19:8 with boxxyerror fc palette
set title "RMS about the mean (N)"
plot f using 3:4:16:17:18:19:9 with boxxyerror fc palette
set title "fundamental frequency (Hz); grey: above 101 Hz"
set cbrange [90:101]
plot f using ($7 <= 101 ? $3 : NaN):4:16:17:18:19:7 with boxxyerror fc palette, \
     f using ($7 > 101 ? $3 : NaN):4:16:17:18:19 with boxxyerror fc rgb "#b0b0b0"
set autoscale cb
set title "power-weighted spectral centroid (Hz)"
plot f using 3:4:16:17:18:19:10 with boxxyerror fc palette
unset multiplot
