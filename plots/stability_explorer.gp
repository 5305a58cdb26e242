# stability_explorer.gp: every method's boundary |R(z)| = 1 with the scaled eigenvalues h lambda
# of the problem bin/stability was given (--problem, --h): inside a region means stable.
width = 700; height = 600
call "plots/common.gp" "stability_explorer"
set datafile separator whitespace   # the contour tables are space-separated; the TSVs read the same
d = datadir("stability")
set size ratio -1
set xrange [-3.4:3.4]; set yrange [-3.4:3.4]
set xlabel "Re z = h Re {/Symbol l} (dimensionless)"; set ylabel "Im z = h Im {/Symbol l}"
set title "stability explorer: boundaries |R(z)| = 1 and the problem's h{/Symbol l} (black)"
set contour base; set cntrparam levels discrete 1; unset surface; set view map
RF = d."bounds.tsv"
set datafile separator "\t"; eval ROWS; set datafile separator whitespace
# every method of bounds.tsv but leapfrog (whose region is the segment drawn as an arrow)
do for [i=1:NROW] {
    if (ROW[i] ne "leapfrog") {
        eval sprintf('set table $C%d; splot d."region_%s.tsv" using 1:2:3 with lines; unset table', i, ROW[i])
    } else {
        eval sprintf('set table $C%d; plot "+" using (NaN):(NaN) every ::0::0 with lines; unset table', i)
    }
}
stats d."bounds.tsv" using (strcol(1) eq "leapfrog" ? $3 : NaN) nooutput
lb = STATS_max
set arrow 1 from 0, -lb to 0, lb nohead lw 4 lc rgb c_leapfrog
set key outside right
plot for [i=1:NROW] sprintf("$C%d", i) using 1:2 with lines lw (ROW[i] eq "leapfrog" ? 4 : 2) \
         lc rgb mcolor(ROW[i], i) title (ROW[i] eq "leapfrog" ? "" : mlabel(ROW[i])) noenhanced, \
     NaN with lines lw 4 lc rgb c_leapfrog title "leapfrog (segment)", \
     d."eigen.tsv" using 1:2 every ::1 with points pt 7 ps 1.5 lc rgb "black" title "h{/Symbol l}"
