# ivp.gp: the numerical solution over the exact curve (lesson 1, bin/ivp), in the method's own
# colour (from the header of trajectory.tsv), with the lecture's black ticks: at each step's start
# the slope u' = v the field gives there, so the step can be seen following it (forward Euler),
# or not (backward Euler reads the slope at the step's end, the trapezoid at both ends).
call "plots/common.gp" "ivp"
f = datadir("ivp")."trajectory.tsv"
HF = f; eval HEADER
label = HEAD[2]
stats f using 1 nooutput
n = STATS_records - 1
h = n > 0 ? (STATS_max - STATS_min) / n : 1
every_tick = n > 60 ? int(n / 30) : 1
t0 = STATS_min; t1 = STATS_max
ymax = 2.2
# a tick of the same length on the page whatever the slope: 4% of the width, half each side
sx = (t1 - t0); sy = 2 * ymax; L = 0.04
tdx(v) = L * sx * cos(atan2(v / sy, 1 / sx))
tdy(v) = L * sy * sin(atan2(v / sy, 1 / sx))
inside(u) = abs(u) < ymax ? u : NaN
set title "damped oscillator y' = Ay: ".label." over the exact curve" noenhanced
set xlabel "time t (s)"
set ylabel "displacement u (m)"
set xrange [t0:t1]
set yrange [-ymax:ymax]
set key top right
plot datadir("ivp")."exact.tsv" using 1:2 with lines lw 6 lc rgb c_exact title "exact", \
     f using 1:2 with linespoints pt 7 ps 0.6 lw 1.5 lc rgb mcolor(label, 1) title label noenhanced, \
     f every every_tick using ($1 - tdx($3)):(inside($2) - tdy($3)):(2 * tdx($3)):(2 * tdy($3)) \
         with vectors nohead lw 2.5 lc rgb "black" title "slope u' = v read at each sample"
