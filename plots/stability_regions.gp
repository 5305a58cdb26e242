# stability_regions.gp: each method's region |R(z)| <= 1, shaded, with its boundary
# (bin/stability; drawn from the method table's own R). Leapfrog's region is a segment. The
# methods are the rows of bounds.tsv, one panel each, as many as there are.
call "plots/common.gp" "stability_regions"
d = datadir("stability")
RF = d."bounds.tsv"; eval ROWS
ncols = NROW <= 3 ? NROW : NROW <= 8 ? (NROW + 1) / 2 : 4
nrows = (NROW + ncols - 1) / ncols
width = 300 * ncols; height = 290 * nrows + 40
call "plots/common.gp" "stability_regions"    # again, at the size the panels need
set datafile separator whitespace   # the contour table below is space-separated; the TSVs read the same
set multiplot layout nrows,ncols title "stability regions |R(z)| <= 1 on y' = {/Symbol l}y, z = h{/Symbol l} (shaded = stable)"
set size ratio -1
set xrange [-3.4:3.4]; set yrange [-3.4:3.4]
set xtics 2; set ytics 2
set xlabel "Re z = h Re {/Symbol l} (dimensionless)"
set ylabel "Im z"
unset key
set contour base; set cntrparam levels discrete 1; unset surface
set view map
do for [i=1:NROW] {
    n = ROW[i]; col = mcolor(n, i)
    f = d."region_".n.".tsv"
    set table $B
    splot f every 2:2 using 1:2:3 with lines   # every second grid point: enough for a small panel
    unset table
    set title mlabel(n) noenhanced
    r = int("0x".col[2:3]); g = int("0x".col[4:5]); b = int("0x".col[6:7])
    if (n eq "leapfrog") {
        stats d."bounds.tsv" using (strcol(1) eq "leapfrog" ? $3 : NaN) nooutput
        ib = STATS_max
        plot f using 1:2:(r):(g):(b):($4 > 0 ? 70 : 0) every 2:2 with rgbalpha, \
             '+' using (0):(-ib):(0):(2*ib) every ::0::0 with vectors nohead lw 5 lc rgb col, \
             0 lc rgb "gray" lw 0.5
    } else {
        plot f using 1:2:(r):(g):(b):($4 > 0 ? 70 : 0) every 2:2 with rgbalpha, \
             $B using 1:2 with lines lw 2 lc rgb col, 0 lc rgb "gray" lw 0.5
    }
}
unset multiplot
