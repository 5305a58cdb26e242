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
stats r using 1 nooutput
nrows = STATS_max
color(m) = m eq "reference" ? 0xa0a0a0 : m eq "euler" ? 0x1f77b4 : m eq "backward-euler" ? 0xd62728 : \
           m eq "trapezoid" ? 0x2ca02c : m eq "heun" ? 0x9467bd : m eq "rk4" ? 0xff7f0e : \
           m eq "leapfrog" ? 0x8c564b : 0x333333
set title "rhythm: start time of each impact (gray: adaptive CVODE reference)"
set xlabel "time t (s)"
set xrange [0:T]
set yrange [nrows + 0.7:-0.7]
set lmargin 22
unset key
set ytics ("reference (CVODE)" 0)
# Past this impact the reference's own impact times depend on its tolerance (chaos).
set arrow from H, graph 0 to H, graph 1 nohead dt 2 lc rgb "#606060"
set label "reference sure of the impacts up to here " at H, graph 0.04 right font ",9" tc rgb "#606060"
plot f using 4:($1 - 0.35):(0):(0.7):(color(strcol(3))) with vectors nohead lw 1.5 lc rgb variable, \
     r using (0):1:ytic(2) with points pt -1 notitle, \
     r using (T):1:(strcol("status") eq "blowup" ? sprintf("blows up at %.3f s  ", column("blowup_s")) : "") with labels right tc rgb c_euler font ",10"
