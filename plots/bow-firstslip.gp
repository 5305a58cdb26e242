# bow-firstslip.gp: the article's Figure 7 (lesson 10, bin/bow): first-slip transients at
# a_b = 0.5 m/s^2, x_b/L = 0.05, f_b = 4 N for b_tau halved, as given and doubled (panels) and
# mu_d = 0.3, 0.7, 1.05 (curves, spaced by 4 N; each starts at zero).
width = 1200
call "plots/common.gp" "bow-firstslip"
f = datadir("bow")."fig7.tsv"
set multiplot layout 1,3 title "first slips at f_b = 4 N, x_b/L = 0.05 (Figure 7; curves offset by 4 N)"
set xlabel "time t (s)"
set ylabel "bridge force + offset (N)"
set key top left
do for [b = 0:2] {
    set title sprintf("b_{tau} x %s", b == 0 ? "0.5" : (b == 1 ? "1" : "2"))
    plot f using 1:(column(2 + 3*b + 2) + 8) with lines lw 1.2 lc rgb c_backward title "mu_d = 1.05", \
         f using 1:(column(2 + 3*b + 1) + 4) with lines lw 1.2 lc rgb c_trapezoid title "mu_d = 0.7", \
         f using 1:(column(2 + 3*b)) with lines lw 1.2 lc rgb c_euler title "mu_d = 0.3"
}
unset multiplot
