# ivp_step.gp: the lecture's "inside one Runge-Kutta step" as a picture (bin/ivp, stages.tsv):
# one step of the method opened on the solution. Every stage samples F at t_k + c_i h, at a state
# built from y_k and the slopes found before it (dashed: each sample starts from y_k); the black
# tick is the slope u' it finds there, its number the stage and its weight b_i. The step is the
# weighted sum of those slopes: the thick chord to y_{k+1}. An implicit stage (backward Euler's
# c = 1) samples at the state it solves for; leapfrog, without a tableau, shows both ends.
call "plots/common.gp" "ivp_step"
f = datadir("ivp")."stages.tsv"
set datafile columnheaders
stats f using (1) nooutput          # a missing file stops here, named
rows = int(system("wc -l < ".shq(f))) - 1
set xlabel "time t (s)"
set ylabel "displacement u (m)"
set key top right font ",10"
if (rows < 2) {
    set title "inside one step: CVODE is adaptive and multistep, so there is no single step to open"
    unset xtics; unset ytics; unset xlabel; unset ylabel; unset border; unset grid
    set xrange [0:1]; set yrange [0:1]
    set label 1 "open a fixed-step method instead: bin/ivp --method rk4 --plot" at graph 0.5, 0.5 center
    plot 2 notitle
} else {
    stats f using 2 nooutput; t0 = STATS_min; t1 = STATS_max; h = t1 - t0
    stats f using "y1" nooutput; umin = STATS_min; umax = STATS_max
    stats f every ::0::0 using (lab = strcol("method"), 0) nooutput
    du = umax - umin > 0 ? umax - umin : 1
    xa = t0 - 0.35 * h; xb = t1 + 0.35 * h; ya = umin - 0.45 * du; yb = umax + 0.45 * du
    set xrange [xa:xb]; set yrange [ya:yb]
    sx = xb - xa; sy = yb - ya; L = 0.06
    tdx(v) = L * sx * cos(atan2(v / sy, 1 / sx))
    tdy(v) = L * sy * sin(atan2(v / sy, 1 / sx))
    stage(s) = s ne "from" && s ne "step"
    set title "inside one step of ".lab.": where the stages sample the slope, and the step they make" noenhanced
    stats f every ::0::0 using (u0 = column("y1"), 0) nooutput
    plot datadir("ivp")."exact.tsv" using 1:2 with lines lw 5 lc rgb c_exact title "exact", \
         f using (stage(strcol(1)) ? t0 : NaN):(u0):($2 - t0):(column("y1") - u0) with vectors nohead dt 2 lw 1 \
             lc rgb "#808080" title "each sample starts from y_k", \
         f using (stage(strcol(1)) ? $2 - tdx(column("F1")) : NaN):(column("y1") - tdy(column("F1"))):(2 * tdx(column("F1"))):(2 * tdy(column("F1"))) \
             with vectors nohead lw 3 lc rgb "black" title "slope F found by the stage", \
         f using (stage(strcol(1)) ? $2 : NaN):"y1" with points pt 6 ps 1.8 lw 2 lc rgb mcolor(lab, 1) title "stage samples", \
         f using (stage(strcol(1)) ? $2 : NaN):"y1":(strcol(1) eq "start" || strcol(1) eq "end" ? strcol(1) : \
             sprintf("k_%s (b = %.3g)", strcol(1), column("b"))) with labels offset -4, 1.2 font ",11" notitle, \
         f using (strcol(1) eq "from" ? $2 : NaN):"y1" with points pt 7 ps 1.8 lc rgb "black" title "y_k", \
         f using (strcol(1) eq "step" ? t0 : NaN):(u0):(h):(column("y1") - u0) with vectors head filled lw 3.5 \
             lc rgb mcolor(lab, 1) title "the step: y_{k+1} = y_k + h {/Symbol S} b_i k_i"
}
