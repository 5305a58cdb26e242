# pluck_N.gp: E_wave of finite differences against N, exact in time (the semi-discrete solution as
# modes) and with CVODE, with the part of the error from modes whose phase error has passed a
# radian (dashed): while that part dominates, the slope stays below 2 and 4 (lower panel). The
# implicit fixed-step methods (backward Euler, trapezoid, on a band LU) run to large N too.
# The x axis spans the grids of this run's data (a factor 1.25 of margin), and the key stands
# right of the panels, off the curves.
width = 1250; height = 800
call "plots/common.gp" "pluck_N"
f = datadir("pluck")."fd-N.tsv"
fc = datadir("pluck")."fd-N-cvode.tsv"
ff = datadir("pluck")."fd-N-fixed.tsv"
rng = system("awk -F'\t' '$2 + 0 > 0 { if (lo == \"\" || $2 + 0 < lo) lo = $2 + 0; if ($2 + 0 > hi) hi = $2 + 0 } END { print lo, hi }' ".shq(f)." ".shq(ff)." 2>/dev/null")
if (words(rng) == 2) { set xrange [real(word(rng, 1)) / 1.25 : real(word(rng, 2)) * 1.25] }
set format x "%g"
set lmargin 12
set rmargin at screen 0.62
set multiplot layout 2, 1 title "string-pluck-v1, finite differences in space (method of lines)"
set logscale xy
set format y "10^{%L}"
set xlabel "intervals N (dx = L/N)"
set ylabel "E_{wave} (relative)"
set key outside right top
s2(x) = 0.024 * (x / 520.0)**-2
s4(x) = 2.7e-4 * (x / 520.0)**-4
plot f index 0 using 2:3 with linespoints pt 7 lw 2 lc rgb c_euler title "3-point, exact in time", \
     f index 1 using 2:3 with linespoints pt 7 lw 2 lc rgb c_rk4 title "5-point, exact in time", \
     f index 0 using 2:6 with lines dt 2 lw 2 lc rgb c_euler title "3-point: part from modes past 1 rad", \
     f index 1 using 2:6 with lines dt 2 lw 2 lc rgb c_rk4 title "5-point: part from modes past 1 rad", \
     fc index 0 using 2:3 with points pt 6 ps 2 lw 2 lc rgb c_cvode title "3-point, CVODE", \
     fc index 1 using 2:3 with points pt 4 ps 2 lw 2 lc rgb c_cvode title "5-point, CVODE", \
     ff index 0 using 2:(strcol(5) eq "trapezoid" ? $3 : 1/0) with points pt 8 ps 1.6 lw 2 lc rgb c_trapezoid title "3-point, trapezoid (fixed step)", \
     ff index 1 using 2:(strcol(5) eq "trapezoid" ? $3 : 1/0) with points pt 9 ps 1.6 lw 2 lc rgb c_trapezoid title "5-point, trapezoid (fixed step)", \
     ff index 0 using 2:(strcol(5) eq "backward-euler" ? $3 : 1/0) with points pt 10 ps 1.6 lw 2 lc rgb c_backward title "3-point, backward Euler (fixed step)", \
     ff index 1 using 2:(strcol(5) eq "backward-euler" ? $3 : 1/0) with points pt 11 ps 1.6 lw 2 lc rgb c_backward title "5-point, backward Euler (fixed step)", \
     s2(x) with lines dt 3 lc rgb "#909090" title "N^{-2}", s4(x) with lines dt 4 lc rgb "#909090" title "N^{-4}"
set ylabel "measured order -dlog E / dlog N"
unset logscale y
set format y "%g"
set yrange [0:5]
set key outside right top
plot f index 0 using 2:7 with linespoints pt 7 lw 2 lc rgb c_euler title "3-point", \
     f index 1 using 2:7 with linespoints pt 7 lw 2 lc rgb c_rk4 title "5-point", \
     2 with lines dt 3 lc rgb "#909090" notitle, 4 with lines dt 4 lc rgb "#909090" notitle
unset multiplot
