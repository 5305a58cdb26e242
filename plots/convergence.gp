# convergence.gp: error at T against h, log-log, every method on both problems, with dashed
# slope guides (bin/convergence; legends carry the least-squares slopes it measured).
width = 1200; height = 560
call "plots/common.gp" "convergence"
d = datadir("convergence")
set multiplot layout 1,2 title "order of accuracy: error ||y_n - y(T)|| at T = 2 s against the step h"
set logscale xy
set format x "2^{%L}"; set format y "10^{%L}"
set xlabel "time step h (s)"
set ylabel "error ||y_n - y(2)|| (m and m/s; rad and rad/s)"
set key bottom right font ",9"
cols = c_euler." ".c_backward." ".c_trapezoid." ".c_heun." ".c_rk4." ".c_leapfrog
do for [q in "oscillator pendulum"] {
    f = d."errors_".q.".tsv"
    set title (q eq "oscillator" ? "damped oscillator (exact reference)" : "pendulum {/Symbol q}'' = -{/Symbol w}_0^2 sin {/Symbol q} (CVODE reference)")
    set format x "%g"
    set xtics ("2^{-3}" 0.125, "2^{-5}" 0.03125, "2^{-7}" 0.0078125, "2^{-9}" 0.001953125, "2^{-11}" 0.00048828125)
    plot for [k=2:7] f using 1:k with linespoints pt 7 ps 0.7 lw 1.5 lc rgb word(cols, k-1) title columnhead(k), \
         for [k=8:10] f using 1:k with lines dt 2 lw 1.2 lc rgb "#555555" title columnhead(k)
}
unset multiplot
