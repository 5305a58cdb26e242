# oscillator_energy.gp: the energy H = u'^2/2 + omega0^2 u^2/2 of every method against the exact
# balance H0 - int 2 sigma0 u'^2 dt (damped), and |H - H0|/H0 on the undamped oscillator
# (bin/oscillator).
width = 1200; height = 540
call "plots/common.gp" "oscillator_energy"
f = datadir("oscillator")."energy.tsv"
cols = c_euler." ".c_backward." ".c_trapezoid." ".c_heun." ".c_rk4." ".c_leapfrog
set multiplot layout 1,2 title "energy per method at h = 0.05 s ({/Symbol w}_0 = 2{/Symbol p} rad/s)"
set logscale y
set format y "10^{%L}"
set xlabel "time t (s)"
set ylabel "energy H (J/kg)"
set title "damped ({/Symbol s}_0 = 0.2 1/s): H against dH/dt = -2{/Symbol s}_0 u'^2"
set key top left font ",9"
set yrange [1e-8:1e12]
plot f using 1:2 with lines lw 6 lc rgb c_exact title columnhead(2), \
     for [k=3:8] f using 1:k with lines lw 1.5 lc rgb word(cols, k-2) title columnhead(k)
set title "undamped ({/Symbol s}_0 = 0): relative energy error |H - H_0| / H_0"
set ylabel "|H - H_0| / H_0 (dimensionless)"
set yrange [1e-17:1e10]
plot for [k=9:14] f using 1:k with lines lw 1.5 lc rgb word(cols, k-8) title columnhead(k)
unset multiplot
