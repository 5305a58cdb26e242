# bow.gp: the article's Figure 6 (lesson 10, bin/bow): one stroke at x_b/L = 0.075,
# f_b = 2.15 N, 0.5 m/s^2 for 200 ms then 0.1 m/s. (a) bridge force with the quasi-static
# line (89), (c) mean relative velocity, (d) mean shear deformation, (e) contact temperature.
height = 1000
call "plots/common.gp" "bow"
f = datadir("bow")."stroke.tsv"
stats f using 3 nooutput
set multiplot layout 4,1 title "bowed cello G string, thermal elasto-plastic friction (Figure 6)"
set lmargin 12
set ylabel "bridge force (N)"
set yrange [STATS_min - 0.3 : STATS_max + 0.5]
set key top left
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
