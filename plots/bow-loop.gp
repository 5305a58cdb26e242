# bow-loop.gp: Figure 6f and 6g (lesson 10, bin/bow): over the last three periods, the
# effective friction coefficient f/f_b against the mean relative velocity (a loop; arrows
# show the direction of travel) and the contact temperature against v with the steady-state
# mapping (28).
call "plots/common.gp" "bow-loop"
f = datadir("bow")."zoom.tsv"
sm = datadir("bow")."summary.tsv"
fig6 = system(sprintf("awk -F'\t' '$1 == \"article_figure6\" { print $2 }' %s 2>/dev/null", shq(sm))) eq "1"
set multiplot layout 1,2 title "friction and temperature against relative velocity, three periods".(fig6 ? " (Figure 6f, 6g)" : "")
set xlabel "mean relative velocity v (m/s)"
set ylabel "f / f_b"
set key top right
# an arrow every 40 samples shows the direction (x, y) -> (x + dx, y + dy)
plot f using 3:4 with lines lw 1.5 lc rgb c_euler title "f/f_b", \
     f every 40 using 3:4:($3 - column(3) + 0):(0) with points pt 7 ps 0.4 lc rgb c_euler notitle, \
     "< awk -F'\\t' 'NR > 1 { if (n++ % 40 == 0 && p != \"\") print p \"\\t\" $3 \"\\t\" $4; p = $3 \"\\t\" $4 }' ".f \
        using 1:2:($3 - $1):($4 - $2) with vectors head filled size screen 0.012,20 lc rgb c_backward title "direction"
set ylabel "contact temperature (deg C)"
set xrange [*:*]
set key bottom right      # the loop's top (the slip's heating) stays visible
plot f using 3:5 with lines lw 1.5 lc rgb c_rk4 title "mean temperature", \
     "< awk -F'\\t' 'NR > 1 { if (n++ % 40 == 0 && p != \"\") print p \"\\t\" $3 \"\\t\" $5; p = $3 \"\\t\" $5 }' ".f \
        using 1:2:($3 - $1):($4 - $2) with vectors head filled size screen 0.012,20 lc rgb c_backward title "direction", \
     datadir("bow")."steady.tsv" using 1:2 with lines lw 2 lc rgb c_cvode title "steady state (28)", \
     20 with lines dt 2 lc rgb c_exact title "ambient"
unset multiplot
