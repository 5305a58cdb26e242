# stability_regions.gp: each method's region |R(z)| <= 1, shaded, with its boundary
# (bin/stability; drawn from the method table's own R). Leapfrog's region is a segment.
call "plots/common.gp" "stability_regions"
set datafile separator whitespace   # the contour table below is space-separated; the TSVs read the same
d = datadir("stability")
set multiplot layout 2,3 title "stability regions |R(z)| <= 1 on y' = {/Symbol l}y, z = h{/Symbol l} (shaded = stable)"
set size ratio -1
set xrange [-3.4:3.4]; set yrange [-3.4:3.4]
set xtics 2; set ytics 2
set xlabel "Re z = h Re {/Symbol l} (dimensionless)"
set ylabel "Im z"
unset key
set contour base; set cntrparam levels discrete 1; unset surface
set view map
names = "euler backward-euler trapezoid heun rk4 leapfrog"
labels = "'forward Euler' 'backward Euler' 'trapezoid' 'Heun' 'RK4' 'leapfrog'"
cols = c_euler." ".c_backward." ".c_trapezoid." ".c_heun." ".c_rk4." ".c_leapfrog
do for [i=1:6] {
    n = word(names, i); col = word(cols, i)
    f = d."region_".n.".tsv"
    set table $B
    splot f using 1:2:3 with lines
    unset table
    set title word(labels, i)
    r = int("0x".col[2:3]); g = int("0x".col[4:5]); b = int("0x".col[6:7])
    if (n eq "leapfrog") {
        stats d."bounds.tsv" using (strcol(1) eq "leapfrog" ? $3 : NaN) nooutput
        ib = STATS_max
        plot f using 1:2:(r):(g):(b):($4 > 0 ? 70 : 0) with rgbalpha, \
             '+' using (0):(-ib):(0):(2*ib) every ::0::0 with vectors nohead lw 5 lc rgb col, \
             0 lc rgb "gray" lw 0.5
    } else {
        plot f using 1:2:(r):(g):(b):($4 > 0 ? 70 : 0) with rgbalpha, \
             $B using 1:2 with lines lw 2 lc rgb col, 0 lc rgb "gray" lw 0.5
    }
}
unset multiplot
