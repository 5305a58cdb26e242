# pluck_20ms.gp: the first 20 ms of the pickup signal: the reference (modal series) against a
# coarse and a fine solution (lesson 9, bin/pluck).
call "plots/common.gp" "pluck_20ms"
f = datadir("pluck")."first20ms.tsv"
set title "string-pluck-v1: pickup velocity, first 20 ms"
set xlabel "time t (ms)"
set ylabel "sample s(t)/s_{ref} (s_{ref} = 2.5 m/s)"
# the key where the signal is quiet (before the first pulse), clear of the pulse near 12 ms
set key top left
set yrange [-0.65:0.9]
HF = f; eval HEADER
plot f using 1:2 with lines lw 5 lc rgb c_exact title HEAD[2], \
     for [k=3:NCOL] f using 1:k with lines lw 1.5 dt 1 + (k > 3) lc rgb word(c_euler." ".c_rk4." ".c_more, k - 2) title HEAD[k] noenhanced
