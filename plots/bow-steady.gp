# bow-steady.gp: the article's Figure 4 (lesson 10, bin/bow): the steady-state friction
# coefficient mu_ss(v), the temperature tau(v) by Appendix B's Newton solve, and the
# temperature factor y(tau), for glass transition temperatures 15, 25 and 35 K above ambient
# (F_b = 100 N/m, mu_s = 1.2, mu_d = 0.3, b_tau = 0.05, c_tau = 1e-4, y_a = 0.4, xi = 3).
width = 1200
call "plots/common.gp" "bow-steady"
f = datadir("bow")."fig4_v.tsv"
set multiplot layout 1,3 title "steady sliding: the co-parameterised curves (30)-(32) (Figure 4)"
set logscale x
set xlabel "sliding velocity v (m/s)"
set ylabel "friction coefficient"
set key bottom left      # the curves fall from the top left
plot f using 1:2 with lines lw 2 lc rgb c_euler title "mu_{ss}, tau_g = 15 K", \
     f using 1:3 with lines lw 2 lc rgb c_trapezoid title "tau_g = 25 K", \
     f using 1:4 with lines lw 2 lc rgb c_backward title "tau_g = 35 K", \
     f using 1:9 with lines dt 2 lw 1.5 lc rgb c_trapezoid title "mu_{str}, tau_g = 25 K"
set ylabel "contact temperature (deg C)"
set key top left
plot f using 1:5 with lines lw 2 lc rgb c_euler title "tau_g = 15 K", \
     f using 1:6 with lines lw 2 lc rgb c_trapezoid title "tau_g = 25 K", \
     f using 1:7 with lines lw 2 lc rgb c_backward title "tau_g = 35 K"
unset logscale x
set xlabel "contact temperature (deg C)"
set ylabel "temperature factor y"
set key bottom right     # under y_a, where no curve goes
set yrange [0:1.05]
plot datadir("bow")."fig4_y.tsv" using 1:2 with lines lw 2 lc rgb c_euler title "tau_g = 15 K", \
     "" using 1:3 with lines lw 2 lc rgb c_trapezoid title "tau_g = 25 K", \
     "" using 1:4 with lines lw 2 lc rgb c_backward title "tau_g = 35 K", \
     0.4 with lines dt 3 lc rgb c_cvode title "y_a"
unset multiplot
