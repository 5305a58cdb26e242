# pluck_h.gp: E_wave against the step h for every method on the Galerkin system (M modes), and
# against the F evaluations it cost (lesson 9, bin/pluck). Dashed guides: slopes 1, 2 and 4.
width = 1200; height = 560
call "plots/common.gp" "pluck_h"
d = datadir("pluck")
methods = system("cat ".shq(d."modal-methods.txt"))
note = system("cat ".shq(d."modal-note.txt"))
col(m) = mcolor(m, words(methods[1:strstrt(methods, m)]))   # a method it does not know: by its place
set multiplot layout 1, 2 title "string-pluck-v1, modal (Galerkin) system: only the time stepping errs (floor: the truncation to M modes)\n".note
set logscale xy
set format x "10^{%L}"
set format y "10^{%L}"
set xlabel "time step h (s)"
set ylabel "E_{wave} (relative, against the modal series)"
set key bottom right
g1(x) = 3e-1 * (x / 1e-5)
g2(x) = 2e-2 * (x / 1e-5)**2
g4(x) = 3e-4 * (x / 1e-5)**4
set xrange [1e-6:3e-5]
set yrange [1e-7:2]
plot for [m in methods] d."modal-".m.".tsv" using 1:2 with linespoints pt 7 lw 2 lc rgb col(m) title columnhead(2), \
     g1(x) with lines dt 2 lc rgb "#909090" title "slope 1", \
     g2(x) with lines dt 3 lc rgb "#909090" title "slope 2", \
     g4(x) with lines dt 4 lc rgb "#909090" title "slope 4"
set xlabel "F evaluations (all 2x2 mode problems)"
set xrange [*:*]
set key bottom left
plot for [m in methods] d."modal-".m.".tsv" using 4:2 with linespoints pt 7 lw 2 lc rgb col(m) title columnhead(2)
unset multiplot
