# stability_imag.gp: |R(iy)| on the imaginary axis (an undamped oscillator, z = i omega h) for
# every method of bounds.tsv, read from its region grid at Re z = 0 (bin/stability): forward
# Euler always grows, backward Euler always decays, the trapezoid keeps 1, RK4 stays below 1
# up to its bound 2.83, leapfrog keeps 1 up to 2. Later methods are drawn thinner, so curves that
# coincide (the trapezoid and leapfrog at 1) both show.
call "plots/common.gp" "stability_imag"
d = datadir("stability")
RF = d."bounds.tsv"; eval ROWS
set datafile separator whitespace
set title "amplification on the imaginary axis: |R(i{/Symbol w}h)| from each method's R"
set xlabel "{/Symbol w}h (rad per step)"
set ylabel "|R(i{/Symbol w}h)|"
set xrange [0:3.4]; set yrange [0:2]
set key top left
onaxis(x, y) = abs(x) < 1e-9 && y >= 0 ? y : NaN
plot for [i=1:NROW] d."region_".ROW[i].".tsv" using (onaxis($1, $2)):3 with lines lw (3.8 - 0.4 * i > 1 ? 3.8 - 0.4 * i : 1) \
         lc rgb mcolor(ROW[i], i) title mlabel(ROW[i]) noenhanced, \
     1 with lines dt 3 lw 1 lc rgb "black" notitle
