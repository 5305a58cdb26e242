# pluck_partials.gp: what each method does to each partial of the plucked string (lesson 9,
# bin/pluck --partials). Top: the Galerkin system, where only time stepping errs: pitch error in
# cents and T60 ratio against the partial's exact frequency, one line a method (predicted from
# R(h lambda_k)), points measured from the pickup signal (matrix pencil); the just-noticeable
# pitch difference dotted. Bottom: the finite-difference grids, whose own dispersion adds to the
# method's (grid alone grey; FD3 dashed, FD5 solid).
width = 1300; height = 900
call "plots/common.gp" "pluck_partials"
d = datadir("pluck")
stats d."partials-note.txt" using 1 nooutput    # no --partials data: gnuplot names the missing file,
if (!exists("STATS_records")) exit error "no data of bin/pluck --partials"   # and the figure is skipped
methods = system("cat ".shq(d."partials-methods.txt"))
meas = system("cat ".shq(d."partials-measured.txt"))   # the methods with measured partials
note = system("head -n 1 ".shq(d."partials-note.txt"))
jnd = real(system("sed -n 2p ".shq(d."partials-note.txt")))
col(m) = mcolor(m, words(methods[1:strstrt(methods, m)]))
m1 = word(methods, 1)
set datafile missing "-"
set multiplot layout 2, 2 title "string-pluck-v1: what each method does to each partial\n".note
set logscale x
set xlabel "exact frequency of the partial (Hz)"
set key outside right top font ",10"   # beside each panel: the curves fill them
set title font ",10"                   # the panel titles fit over the narrower panels
set ylabel "pitch error (cents)"
set title "Galerkin system: lines R(h {/Symbol l}_k), points measured"
plot for [m in methods] d."partials-".m.".tsv" using 3:7 with lines lw 2 lc rgb col(m) title m, \
     for [m in meas] d."partials-".m.".tsv" using 3:8 with points pt 7 ps 0.8 lc rgb col(m) notitle, \
     jnd with lines dt 3 lc rgb "#606060" title sprintf("just noticeable, %g cents", jnd), \
     -jnd with lines dt 3 lc rgb "#606060" notitle
set logscale y
set ylabel "T60 ratio (method / exact)"
set title "Galerkin system: T60 ratio (log scale; a partial that grows is off the axis)"
plot for [m in methods] d."partials-".m.".tsv" using 3:9 with lines lw 2 lc rgb col(m) title m, \
     for [m in meas] d."partials-".m.".tsv" using 3:10 with points pt 7 ps 0.8 lc rgb col(m) notitle, \
     1 with lines dt 3 lc rgb "#606060" notitle
unset logscale y
set ylabel "pitch error (cents)"
set title "finite differences: the grid's dispersion and the method's (grey: the grid alone)"
plot d."partials-fd3-".m1.".tsv" using 2:4 with lines dt 2 lw 2 lc rgb "#909090" title "FD3 alone", \
     d."partials-fd5-".m1.".tsv" using 2:4 with lines lw 2 lc rgb "#909090" title "FD5 alone", \
     for [m in methods] d."partials-fd3-".m.".tsv" using 2:5 with lines dt 2 lw 2 lc rgb col(m) notitle, \
     for [m in methods] d."partials-fd5-".m.".tsv" using 2:5 with lines lw 2 lc rgb col(m) title m, \
     jnd with lines dt 3 lc rgb "#606060" notitle, -jnd with lines dt 3 lc rgb "#606060" notitle
set logscale y
set ylabel "T60 ratio (method on the grid / exact)"
set title "finite differences: T60 ratio (FD3 dashed, FD5 solid)"
plot d."partials-fd3-".m1.".tsv" using 2:6 with lines dt 2 lw 2 lc rgb "#909090" title "FD3 alone", \
     d."partials-fd5-".m1.".tsv" using 2:6 with lines lw 2 lc rgb "#909090" title "FD5 alone", \
     for [m in methods] d."partials-fd3-".m.".tsv" using 2:7 with lines dt 2 lw 2 lc rgb col(m) notitle, \
     for [m in methods] d."partials-fd5-".m.".tsv" using 2:7 with lines lw 2 lc rgb col(m) title m
unset multiplot
