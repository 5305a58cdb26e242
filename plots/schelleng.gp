# schelleng.gp: the Schelleng diagram (the article's Figure 10, simulated half): the regime of
# each stroke's steady part over bow-bridge distance and bowing force (bin/schelleng), from the
# full 40 x 40 sweep when results-full.tsv exists in the data folder (bin/schelleng --full),
# else the default grid; with the three boundary lines of Figure 10 (the Helmholtz region's
# maximum and minimum force, the double/multiple-slip boundary) fitted to this diagram's cells
# (RESULTS-boundaries.tsv) and their slopes against Schelleng's -1 and -2 in the key.
if (!exists("name")) name = "schelleng"
call "plots/common.gp" name
sch = datadir("schelleng")
if (!exists("results")) results = system("test -f ".shq(sch."results-full.tsv")." && echo y") eq "y" ? sch."results-full.tsv" : sch."results.tsv"
if (!exists("boundaries")) boundaries = results[1:strlen(results) - 4]."-boundaries.tsv"
if (!exists("heading")) heading = "Schelleng diagram: cello G string, v_b = 0.1 m/s (simulated)"
set title heading
# The axes span the cells (columns x_lo, x_hi, f_lo, f_hi).
stats results using 16 nooutput
xlo = STATS_min
k = STATS_records > 100 ? 0.6 : 1.0   # symbol scale: smaller on the full grid
stats results using 17 nooutput
xhi = STATS_max
stats results using 18 nooutput
flo = STATS_min
stats results using 19 nooutput
fhi = STATS_max
set xrange [xlo:xhi]
set yrange [flo:fhi]
set logscale xy
set xlabel "bow-bridge distance x_b/L"
set ylabel "bowing force f_b (N)"
set format x "%g"
set xtics (0.02, 0.03, 0.05, 0.07, 0.1, 0.15, 0.2, 0.3)
set format y "%g"
if (!exists("keypos")) keypos = "outside right top"
eval "set key ".keypos
set grid xtics ytics mxtics mytics
# The fitted lines f = f1 x^slope of the boundaries file's second block (NaN when not fitted: a
# boundary is fitted from 4 or more columns with an edge); fit_from names the sweep they come
# from when it is not the one drawn (Figure 13 marks the main sweep's lines).
if (!exists("fit_from")) fit_from = ""
fit_raw(name, col) = system(sprintf("awk -F'\\t' '$1 == \"%s\" { v = $%d } END { print (v == \"\" || v ~ /nan/) ? \"NaN\" : v }' %s 2>/dev/null", name, col, shq(boundaries)))
fit_of(name, col) = (fit_tmp = fit_raw(name, col), fit_tmp eq "" ? "NaN" : fit_tmp)   # NaN: no boundaries file
s_max = real(fit_of("helmholtz_max", 3)); f1_max = real(fit_of("helmholtz_max", 5))
s_min = real(fit_of("helmholtz_min", 3)); f1_min = real(fit_of("helmholtz_min", 5))
s_dm = real(fit_of("double_multiple", 3)); f1_dm = real(fit_of("double_multiple", 5))
fit_title(lbl, name, s, sch) = s == s ? \
    sprintf("%s%s fit (%s columns), slope %.2f +- %.2f%s", fit_from, lbl, fit_of(name, 2), s, real(fit_of(name, 4)), sch) : \
    sprintf("%s%s: not fitted (%s columns)", fit_from, lbl, fit_of(name, 2))
r(n) = strcol(5) eq n ? column(4) : NaN
plot results using 3:(r("helmholtz")) with points pt 5 ps 1.4*k lc rgb "#1f77b4" title "Helmholtz motion", \
     results using 3:(r("double_slip")) with points pt 3 ps 1.6*k lc rgb "#d62728" title "double slips", \
     results using 3:(r("raucous")) with points pt 1 ps 1.8*k lw 2 lc rgb "#000000" title "raucous motion", \
     results using 3:(r("multiple_slip")) with points pt 2 ps 1.6*k lw 2 lc rgb "#2ca02c" title "multiple slips", \
     results using 3:(r("s_motion")) with points pt 7 ps 1.3*k lc rgb "#9467bd" title "S-motion", \
     results using 3:(r("multiple_flyback")) with points pt 9 ps 1.5*k lc rgb "#ff7f0e" title "multiple flyback", \
     results using 3:(r("unclassified")) with points pt 7 ps 0.5*k lc rgb "#a0a0a0" title "unclassified", \
     results using 3:(r("failed")) with points pt 6 ps 1.5*k lc rgb "#ff0000" title "solver failed", \
     f1_max * x**s_max with lines lw 2 dt 1 lc rgb "#000000" title fit_title("f_{max}", "helmholtz_max", s_max, " (Schelleng -1)"), \
     f1_min * x**s_min with lines lw 2 dt 2 lc rgb "#000000" title fit_title("f_{min}", "helmholtz_min", s_min, " (Schelleng -2)"), \
     f1_dm * x**s_dm with lines lw 2 dt 3 lc rgb "#000000" title fit_title("double/multiple", "double_multiple", s_dm, "")
