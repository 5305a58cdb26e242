# oscillator_energy.gp: each method's energy H = u'^2/2 + omega0^2 u^2/2 relative to the exact
# one, H/H_exact - 1 (bin/oscillator): on the damped oscillator against the exact balance
# H0 - int 2 sigma0 u'^2 dt, and on the undamped one against H0. On a log axis of |H/H_exact - 1|,
# solid where the method gains energy, dashed where it loses, so methods that agree with the
# exact energy to the eye (trapezoid, Heun, RK4, leapfrog) are told apart. The series come from
# the header of energy.tsv: damped columns first, then the "undamped" ones.
width = 1200; height = 560
call "plots/common.gp" "oscillator_energy"
f = datadir("oscillator")."energy.tsv"
HF = f; eval HEADER
undamped(k) = strstrt(HEAD[k], "undamped") > 0
mname(k) = undamped(k) ? HEAD[k][1:strstrt(HEAD[k], ",") - 1] : HEAD[k]
floor_ = 1e-17
set multiplot layout 1,2 title "energy error per method at h = 0.05 s ({/Symbol w}_0 = 2{/Symbol p} rad/s): solid gains, dashed loses"
set logscale y
set format y "10^{%L}"
set xlabel "time t (s)"
set key bottom right font ",9"
set title "damped ({/Symbol s}_0 = 0.2 1/s): |H / H_{exact} - 1|, H_{exact} from dH/dt = -2{/Symbol s}_0 u'^2"
set ylabel "|H / H_{exact} - 1| (dimensionless)"
set yrange [1e-7:1e10]
rel(k) = column(k) / column(2) - 1
plot for [k=3:NCOL] f using 1:(undamped(k) ? NaN : rel(k) >= 0 ? abs(rel(k)) + floor_ : NaN) with lines lw 1.8 \
         lc rgb mcolor(HEAD[k], k) title (undamped(k) ? "" : HEAD[k]), \
     for [k=3:NCOL] f using 1:(undamped(k) ? NaN : rel(k) < 0 ? abs(rel(k)) + floor_ : NaN) with lines lw 1.8 dt 2 \
         lc rgb mcolor(HEAD[k], k) notitle
set title "undamped ({/Symbol s}_0 = 0): |H / H_0 - 1|, exact energy constant"
set ylabel "|H / H_0 - 1| (dimensionless)"
set yrange [1e-17:1e10]
plot for [k=3:NCOL] f using 1:(undamped(k) ? column(k) : NaN) with lines lw 1.8 \
         lc rgb mcolor(mname(k), k) title (undamped(k) ? mname(k) : "")
unset multiplot
