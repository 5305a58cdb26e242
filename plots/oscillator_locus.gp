# oscillator_locus.gp: the roots s+- / omega0 as sigma0/omega0 goes from 0 to 2 (bin/oscillator):
# down the unit circle, meeting at sigma0 = omega0, then splitting on the real axis.
width = 1000; height = 560   # the locus is wide: 4.7 by 2.6 at equal scales
call "plots/common.gp" "oscillator_locus"
f = datadir("oscillator")."locus.tsv"
set size ratio -1
set title "root locus: s_{/Symbol \261} / {/Symbol w}_0 for {/Symbol s}_0/{/Symbol w}_0 = 0 ... 2 (color)"
set xlabel "Re s / {/Symbol w}_0 (decay, dimensionless)"
set ylabel "Im s / {/Symbol w}_0 (frequency, dimensionless)"
set xrange [-4.2:0.5]; set yrange [-1.3:1.3]
set cblabel "{/Symbol s}_0 / {/Symbol w}_0"
set palette defined (0 "#1f77b4", 1 "#2ca02c", 2 "#d62728")
set object 1 circle at 0,0 size 1 fc rgb "#dddddd" lw 1 dt 2 behind clip
set label 1 "meet at {/Symbol s}_0 = {/Symbol w}_0" at -1.05, -0.2 right
set key bottom left font ",12" spacing 1.3
plot f using 2:3:1 every ::1 with points pt 7 ps 0.6 lc palette title "s_+", \
     f using 4:5:1 every ::1 with points pt 6 ps 0.6 lc palette title "s_-", \
     0 lc rgb "gray" lw 0.5 notitle
