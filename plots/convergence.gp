# convergence.gp: error at T against h, log-log, every method on both problems, with dashed
# slope guides (bin/convergence; legends carry the least-squares slopes it measured). The series
# come from the header of each data file: every column after h is a method in its own colour,
# except the columns whose name says "guide", drawn dashed in grey.
width = 1200; height = 600
call "plots/common.gp" "convergence"
d = datadir("convergence")
set multiplot layout 1,2 title "order of accuracy: error ||y_n - y(T)|| at T = 2 s against the step h"
set logscale xy
set format x "2^{%L}"; set format y "10^{%L}"
set xlabel "time step h (s)"
set ylabel "error ||y_n - y(2)|| (m and m/s; rad and rad/s)"
set key bottom right font ",9"
do for [q in "oscillator pendulum"] {
    f = d."errors_".q.".tsv"
    HF = f; eval HEADER
    set title (q eq "oscillator" ? "damped oscillator (exact reference)" : "pendulum {/Symbol q}'' = -{/Symbol w}_0^2 sin {/Symbol q} (CVODE reference)")
    # log2 ticks on h: the steps are powers of two
    set logscale x 2
    set format x "2^{%L}"
    plot for [k=2:NCOL] f using 1:(is_guide(HEAD[k]) ? NaN : column(k)) with linespoints pt 7 ps 0.7 lw 1.5 dt mdash(HEAD[k]) \
             lc rgb mcolor(HEAD[k], k - 1) title (is_guide(HEAD[k]) ? "" : HEAD[k]), \
         for [k=2:NCOL] f using 1:(is_guide(HEAD[k]) ? column(k) : NaN) with lines dt 2 lw 1.4 \
             lc rgb "#555555" title (is_guide(HEAD[k]) ? HEAD[k] : "")
}
unset multiplot
