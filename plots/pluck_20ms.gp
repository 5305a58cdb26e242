# pluck_20ms.gp: the first 20 ms of the pickup signal: the reference (modal series) against a
# coarse and a fine solution (lesson 9, bin/pluck).
call "plots/common.gp" "pluck_20ms"
f = datadir("pluck")."first20ms.tsv"
set title "string-pluck-v1: pickup velocity, first 20 ms"
set xlabel "time t (ms)"
set ylabel "sample s(t)/s_{ref} (s_{ref} = 2.5 m/s)"
set key bottom right
plot f using 1:2 with lines lw 5 lc rgb c_exact title columnhead(2), \
     f using 1:3 with lines lw 1.5 lc rgb c_euler title columnhead(3), \
     f using 1:4 with lines lw 1.5 dt 2 lc rgb c_rk4 title columnhead(4)
