# bow-zoom.gp: the last three periods of the stroke (lesson 10, bin/bow): the sawtooth of
# Helmholtz motion with its Schelleng ripples (about L/x_b a period) at the article's Figure 6
# stroke. The title is the run's own (summary.tsv): its regime, bow place, force and ripple count,
# and "Figure 6b" only when the stroke is the article's.
call "plots/common.gp" "bow-zoom"
f = datadir("bow")."zoom.tsv"
sm = datadir("bow")."summary.tsv"
val(k) = system(sprintf("awk -F'\\t' '$1 == \"%s\" { print $2 }' %s", k, shq(sm)))
heading = sprintf("three periods of %s, x_b/L = %s, f_b = %s N: %s ripples a period%s", \
                  val("regime_label"), val("x_b_over_L"), val("f_b_N"), val("ripples_per_period"), \
                  val("article_figure6") eq "1" ? " (Figure 6b)" : "")
set multiplot layout 2,1 title heading noenhanced
set lmargin 12
set ylabel "bridge force (N)"
set key bmargin right horizontal
plot f using 1:2 with lines lw 1.5 lc rgb c_cvode title "transverse bridge force f_u"
set xlabel "time t (ms)"
set ylabel "velocity (m/s), temperature / 100 (deg C)"
plot f using 1:3 with lines lw 1.5 lc rgb c_euler title "mean relative velocity v (m/s)", \
     f using 1:($5/100) with lines lw 1.5 lc rgb c_rk4 title "mean contact temperature / 100 (deg C)"
unset multiplot
