# bow.gp: one stroke (lesson 10, bin/bow); at the defaults the article's Figure 6, x_b/L = 0.075,
# f_b = 2.15 N, 0.5 m/s^2 for 200 ms then 0.1 m/s (the title from the run's summary.tsv). (a) bridge force with the quasi-static
# line (89), (c) mean relative velocity, (d) mean shear deformation, (e) contact temperature.
height = 1000
call "plots/common.gp" "bow"
f = datadir("bow")."stroke.tsv"
stats f using 3 nooutput
sm = datadir("bow")."summary.tsv"
val(k) = system(sprintf("awk -F'\t' '$1 == \"%s\" { print $2 }' %s 2>/dev/null", k, shq(sm)))
set multiplot layout 4,1 title sprintf("bowed cello G string, thermal elasto-plastic friction: x_b/L = %s, f_b = %s N%s", \
    val("x_b_over_L"), val("f_b_N"), val("article_figure6") eq "1" ? " (Figure 6)" : "") noenhanced
set lmargin 12
set ylabel "bridge force (N)"
set yrange [STATS_min - 0.3 : STATS_max + 0.5]
set key bmargin right horizontal
plot f using 1:3 with lines lw 1 lc rgb c_cvode title "transverse bridge force f_u", \
     f using 1:4 with lines dt 2 lw 2 lc rgb c_backward title "quasi-static T v_b t / (2 x_b) (89)"
set autoscale y
set ylabel "relative velocity (m/s)"
plot f using 1:5 with lines lw 1 lc rgb c_euler title "mean relative velocity v", \
     f using 1:2 with lines lw 1.5 lc rgb c_exact title "bow velocity v_b"
set ylabel "shear deformation (um)"
plot f using 1:6 with lines lw 1 lc rgb c_trapezoid title "mean z"
set ylabel "temperature (deg C)"
set xlabel "time t (s)"
plot f using 1:7 with lines lw 1 lc rgb c_rk4 title "mean contact temperature", \
     f using 1:8 with lines lw 0.8 lc rgb c_heun title "hottest contact point"
unset multiplot
