# convergence.gp: error at T against h, log-log, every method on both problems, with dashed
# slope guides (bin/convergence; legends carry the least-squares slopes it measured, or "not
# asymptotic" / "reference floor" where it measured none). The series come from the header of
# each data file: every column after h is a method in its own colour, except the columns whose
# name says "guide", drawn dashed in grey, and "reference floor" (ten times the reference's own
# error), drawn dotted in black. T and theta0 come from the run's summary.tsv.
width = 1200; height = 600
call "plots/common.gp" "convergence"
d = datadir("convergence")
TT = NaN; TH0 = NaN
stats d."summary.tsv" every ::1 using (strcol(1) eq "T_s" ? TT = column(2) : strcol(1) eq "theta0_rad" ? TH0 = column(2) : 0) nooutput
is_floor(s) = s eq "reference floor"
set multiplot layout 1,2 title sprintf("order of accuracy: error ||y_n - y(T)|| at T = %g s against the step h", TT)
set logscale xy
set format x "2^{%L}"; set format y "10^{%L}"
set xlabel "time step h (s)\n"   # the blank line keeps the key below clear of the descenders
set ylabel sprintf("error ||y_n - y(%g)|| (m and m/s; rad and rad/s)", TT)
set key below center horizontal maxcols 1 font ",9"   # below the axes: it grows with --add-method
do for [q in "oscillator pendulum"] {
    f = d."errors_".q.".tsv"
    HF = f; eval HEADER
    set title (q eq "oscillator" ? "damped oscillator (exact reference)" : \
        sprintf("pendulum {/Symbol q}'' = -{/Symbol w}_0^2 sin {/Symbol q}, {/Symbol q}_0 = %g rad (closed-form reference)", TH0))
    # log2 ticks on h: the steps are powers of two
    set logscale x 2
    set format x "2^{%L}"
    plot for [k=2:NCOL] f using 1:(is_guide(HEAD[k]) || is_floor(HEAD[k]) ? NaN : column(k)) with linespoints pt 7 ps 0.7 lw 1.5 \
             dt mdash(HEAD[k]) lc rgb mcolor(HEAD[k], k - 1) title (is_guide(HEAD[k]) || is_floor(HEAD[k]) ? "" : HEAD[k]), \
         for [k=2:NCOL] f using 1:(is_guide(HEAD[k]) ? column(k) : NaN) with lines dt 2 lw 1.4 \
             lc rgb "#555555" title (is_guide(HEAD[k]) ? HEAD[k] : ""), \
         for [k=2:NCOL] f using 1:(is_floor(HEAD[k]) ? column(k) : NaN) with lines dt 3 lw 2 \
             lc rgb "black" title (is_floor(HEAD[k]) ? "floor: 10x the reference's error" : "")
}
unset multiplot
