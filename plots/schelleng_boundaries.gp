# schelleng_boundaries.gp: Figure 10 side by side: left the simulated Schelleng diagram with
# the article's three boundary lines (the Helmholtz region's maximum and minimum bowing force,
# the double/multiple-slip boundary) fitted to its cells; right the edges those lines are
# fitted to, column by column, with the fits and Schelleng's slopes -1 (maximum force) and -2
# (minimum force) drawn through the same middle point, the fitted slopes in the key.
width = 1500
height = 620
call "plots/common.gp" "schelleng_boundaries"
sch = datadir("schelleng")
results = system("test -f ".shq(sch."results-full.tsv")." && echo y") eq "y" ? sch."results-full.tsv" : sch."results.tsv"
boundaries = results[1:strlen(results) - 4]."-boundaries.tsv"
fit_of(name, col) = system(sprintf("awk -F'\\t' '$1 == \"%s\" { v = $%d } END { print (v == \"\" || v ~ /nan/) ? \"NaN\" : v }' %s 2>/dev/null", name, col, shq(boundaries)))
s_max = real(fit_of("helmholtz_max", 3)); f1_max = real(fit_of("helmholtz_max", 5)); e_max = real(fit_of("helmholtz_max", 4))
s_min = real(fit_of("helmholtz_min", 3)); f1_min = real(fit_of("helmholtz_min", 5)); e_min = real(fit_of("helmholtz_min", 4))
s_dm = real(fit_of("double_multiple", 3)); f1_dm = real(fit_of("double_multiple", 5)); e_dm = real(fit_of("double_multiple", 4))
stats results using 16 nooutput
xlo = STATS_min
stats results using 17 nooutput
xhi = STATS_max
stats results using 18 nooutput
flo = STATS_min
stats results using 19 nooutput
fhi = STATS_max
xm = sqrt(xlo * xhi)   # Schelleng's slopes drawn through the fitted lines at the middle x_b/L
set multiplot layout 1,2 title "Figure 10, simulated: the boundary lines fitted to the diagram, against Schelleng's slopes"
set xrange [xlo:xhi]
set yrange [flo:fhi]
set logscale xy
set xlabel "bow-bridge distance x_b/L\n"   # the blank line keeps the key below clear of it
set ylabel "bowing force f_b (N)"
set format x "%g"
set xtics (0.02, 0.03, 0.05, 0.07, 0.1, 0.15, 0.2, 0.3)
set format y "%g"
set grid xtics ytics mxtics mytics
set key below center horizontal font ",9"   # the keys below the axes: the grid fills the diagram
set title "regimes and the fitted boundary lines"
r(n) = strcol(5) eq n ? column(4) : NaN
plot results using 3:(r("helmholtz")) with points pt 5 ps 0.9 lc rgb "#1f77b4" title "Helmholtz motion", \
     results using 3:(r("double_slip")) with points pt 3 ps 1.0 lc rgb "#d62728" title "double slips", \
     results using 3:(r("raucous")) with points pt 1 ps 1.1 lw 2 lc rgb "#000000" title "raucous motion", \
     results using 3:(r("multiple_slip")) with points pt 2 ps 1.0 lw 2 lc rgb "#2ca02c" title "multiple slips", \
     results using 3:(r("s_motion")) with points pt 7 ps 0.9 lc rgb "#9467bd" title "S-motion", \
     results using 3:(r("multiple_flyback")) with points pt 9 ps 1.0 lc rgb "#ff7f0e" title "multiple flyback", \
     results using 3:(r("unclassified")) with points pt 7 ps 0.4 lc rgb "#a0a0a0" title "unclassified", \
     f1_max * x**s_max with lines lw 2 dt 1 lc rgb "#000000" notitle, \
     f1_min * x**s_min with lines lw 2 dt 2 lc rgb "#000000" notitle, \
     f1_dm * x**s_dm with lines lw 2 dt 3 lc rgb "#000000" notitle
set title "the edges, column by column, and the fits"
set key below center vertical font ",9"
plot boundaries index 0 using 1:2 with points pt 9 ps 1.2 lc rgb "#1f77b4" title "edge above the highest Helmholtz cell", \
     f1_max * x**s_max with lines lw 2 lc rgb "#1f77b4" title (s_max == s_max ? sprintf("f_{max} fit: slope %.2f {/Symbol \261} %.2f", s_max, e_max) : "f_{max}: not fitted (fewer than 4 columns with an edge)"), \
     f1_max * xm**(s_max + 1) * x**(-1) with lines lw 1.5 dt 2 lc rgb "#1f77b4" title "Schelleng: slope -1", \
     boundaries index 0 using 1:3 with points pt 11 ps 1.2 lc rgb "#d62728" title "edge below the lowest Helmholtz cell", \
     f1_min * x**s_min with lines lw 2 lc rgb "#d62728" title (s_min == s_min ? sprintf("f_{min} fit: slope %.2f {/Symbol \261} %.2f", s_min, e_min) : "f_{min}: not fitted (fewer than 4 columns with an edge)"), \
     f1_min * xm**(s_min + 2) * x**(-2) with lines lw 1.5 dt 2 lc rgb "#d62728" title "Schelleng: slope -2", \
     boundaries index 0 using 1:4 with points pt 6 ps 1.2 lc rgb "#2ca02c" title "edge between multiple and double slips", \
     f1_dm * x**s_dm with lines lw 2 lc rgb "#2ca02c" title (s_dm == s_dm ? sprintf("double/multiple fit: slope %.2f {/Symbol \261} %.2f", s_dm, e_dm) : "double/multiple: not fitted (fewer than 4 columns with an edge)")
unset multiplot
