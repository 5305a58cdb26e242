# audiorate.gp: the rhythm of the ball drop at fixed audio-rate steps (lesson 8, bin/audiorate):
# the start time of every impact, per run, against the adaptive reference (gray).
call "plots/common.gp" "audiorate"
f = datadir("audiorate")."rhythm.tsv"
r = datadir("audiorate")."runs.tsv"
set datafile columnheaders
stats datadir("audiorate")."summary.tsv" using (strcol(1) eq "T_s" ? $2 : 1/0) nooutput
T = STATS_max
stats datadir("audiorate")."summary.tsv" using (strcol(1) eq "horizon_t_s" ? $2 : 1/0) nooutput
H = STATS_max
stats datadir("audiorate")."summary.tsv" using (strcol(1) eq "f0_hz" ? $2 : 1/0) nooutput
F0 = STATS_max
stats datadir("audiorate")."summary.tsv" using (strcol(1) eq "rhythm_impacts" ? $2 : 1/0) nooutput
NJ = STATS_max
stats datadir("audiorate")."summary.tsv" using (strcol(1) eq "lecture_impacts" ? $2 : 1/0) nooutput
NL = STATS_max
stats r using 1 nooutput
nrows = STATS_max
color(m) = m eq "reference" ? rgbint(c_exact) : rgbint(mcolor(m, 1))
width = 1200
call "plots/common.gp" "audiorate"      # again, wide enough for the table at the right
set datafile columnheaders
set title sprintf("rhythm: start time of each impact (gray: adaptive CVODE reference); pitch and T60 of the %g Hz oscillator from each run's R(z)", F0)
set xlabel "time t (s)" offset -12, 0
# the run's table (what the terminal prints) right of the impacts, in x beyond T
xp = T * 1.10; xt = T * 1.28; xr = T * 1.45
set xrange [0:T * 1.56]
set xtics 0, 0.5, T
set arrow from T, graph 0 to T, graph 1 nohead lc rgb "black" lw 1.2
set label "pitch (cents)" at xp, 0 center font ",11"
set label "T60 (s)" at xt, 0 center font ",11"
set label sprintf("rhythm on %d | %d", NL, NJ) at xr, 0 center font ",11"
set yrange [nrows + 0.7:-0.7]
set lmargin 22
unset key
set ytics ("reference (CVODE)" 0)
# Past this impact the reference's own impact times depend on its tolerance (chaos).
set arrow from H, graph 0 to H, graph 1 nohead dt 2 lc rgb "#606060"
set label "reference sure of the impacts up to here " at H, graph 0.04 right font ",9" tc rgb "#606060"
plot f using 4:($1 - 0.35):(0):(0.7):(color(strcol(3))) with vectors nohead lw 1.5 lc rgb variable, \
     r using (0):1:ytic(2) with points pt -1 notitle, \
     r using (T):1:(strcol("status") eq "blowup" ? sprintf("blows up at %.3f s  ", column("blowup_s")) : "") with labels right tc rgb c_euler font ",10", \
     r using (xp):1:(strcol("pitch_cents")):(color(strcol("method"))) with labels tc rgb variable font ",11", \
     r using (xt):1:(strcol("t60_s")):(color(strcol("method"))) with labels tc rgb variable font ",11", \
     r using (xr):1:(strcol("rhythm_2")." | ".strcol("rhythm")):(color(strcol("method"))) with labels tc rgb variable font ",11"
