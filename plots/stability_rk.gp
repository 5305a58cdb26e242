# stability_rk.gp: the lecture's overlay of RK4, Heun and forward Euler, with RK4's stable
# imaginary segment +-bound j marked from the bound bin/stability computed.
width = 640; height = 600
call "plots/common.gp" "stability_rk"
set datafile separator whitespace   # the contour tables are space-separated; the TSVs read the same
d = datadir("stability")
set size ratio -1
set xrange [-3.4:1.2]; set yrange [-3.4:3.4]
set xlabel "Re z = h Re {/Symbol l} (dimensionless)"; set ylabel "Im z = h Im {/Symbol l}"
set title "R(z) = Taylor series of e^z, truncated: RK4, Heun, forward Euler"
set contour base; set cntrparam levels discrete 1; unset surface; set view map
set table $RK4;  splot d."region_rk4.tsv" using 1:2:3 with lines; unset table
set table $HEUN; splot d."region_heun.tsv" using 1:2:3 with lines; unset table
set table $EU;   splot d."region_euler.tsv" using 1:2:3 with lines; unset table
stats d."bounds.tsv" using (strcol(1) eq "rk4" ? $3 : NaN) nooutput
ib = STATS_max
set label 1 sprintf("{/Symbol \261}%.2fj", ib) at 0.1, ib + 0.15 tc rgb c_rk4
set arrow 1 from 0, -ib to 0, ib nohead lw 5 lc rgb c_rk4
set key bottom left
rgb(c, k) = int("0x".c[2*k:2*k+1])
plot d."region_rk4.tsv" using 1:2:(rgb(c_rk4,1)):(rgb(c_rk4,2)):(rgb(c_rk4,3)):($4 > 0 ? 45 : 0) every 2:2 with rgbalpha notitle, \
     d."region_heun.tsv" using 1:2:(rgb(c_heun,1)):(rgb(c_heun,2)):(rgb(c_heun,3)):($4 > 0 ? 45 : 0) every 2:2 with rgbalpha notitle, \
     d."region_euler.tsv" using 1:2:(rgb(c_euler,1)):(rgb(c_euler,2)):(rgb(c_euler,3)):($4 > 0 ? 45 : 0) every 2:2 with rgbalpha notitle, \
     $RK4 using 1:2 with lines lw 2 lc rgb c_rk4 title "RK4", \
     $HEUN using 1:2 with lines lw 2 lc rgb c_heun title "Heun", \
     $EU using 1:2 with lines lw 2 lc rgb c_euler title "forward Euler", \
     0 lc rgb "gray" lw 0.5 notitle
