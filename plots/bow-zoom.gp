# bow-zoom.gp: the last three periods of the Figure 6 stroke (lesson 10, bin/bow): the
# sawtooth of Helmholtz motion with its Schelleng ripples (about L/x_b a period).
call "plots/common.gp" "bow-zoom"
f = datadir("bow")."zoom.tsv"
set multiplot layout 2,1 title "three periods of Helmholtz motion (Figure 6b)"
set lmargin 12
set ylabel "bridge force (N)"
set key top left
plot f using 1:2 with lines lw 1.5 lc rgb c_cvode title "transverse bridge force f_u"
set xlabel "time t (ms)"
set ylabel "velocity (m/s), temperature / 100 (deg C)"
plot f using 1:3 with lines lw 1.5 lc rgb c_euler title "mean relative velocity v (m/s)", \
     f using 1:($5/100) with lines lw 1.5 lc rgb c_rk4 title "mean contact temperature / 100 (deg C)"
unset multiplot
