# oscillator_energy.gp: each method's energy H = u'^2/2 + omega0^2 u^2/2 relative to the exact
# one (bin/oscillator): on the damped oscillator against H of the closed-form exact solution, on
# the undamped one against H0. On a log axis of |H/H_exact - 1|, solid where the method gains
# energy (H > H_exact), dashed where it loses, in both panels. The series come from the header of
# energy.tsv (damped columns first, then the "undamped" ones, signed (H - H0)/H0); omega0, sigma0
# and h from the run's summary.tsv, so the titles are this run's.
width = 1200; height = 620
call "plots/common.gp" "oscillator_energy"
f = datadir("oscillator")."energy.tsv"
sf = datadir("oscillator")."summary.tsv"
HF = f; eval HEADER
undamped(k) = strstrt(HEAD[k], "undamped") > 0
mname(k) = undamped(k) ? HEAD[k][1:strstrt(HEAD[k], ",") - 1] : HEAD[k]
W0 = NaN; S0 = NaN; H = NaN
stats sf every ::1 using (strcol(1) eq "omega0" ? W0 = column(2) : strcol(1) eq "sigma0" ? S0 = column(2) : \
      strcol(1) eq "h" ? H = column(2) : 0) nooutput
floor_ = 1e-17
set multiplot layout 1,2 title sprintf("energy error per method at h = %g s ({/Symbol w}_0 = %.4g rad/s): " . \
    "solid gains, dashed loses", H, W0)
set logscale y
set format y "10^{%L}"
set xlabel "time t (s)"
# the legend under the panels, never over a line
set key below horizontal font ",9" maxrows 2
set bmargin 7
set title sprintf("damped ({/Symbol s}_0 = %.4g 1/s): |H / H_{exact} - 1|, H_{exact} = H of the exact u", S0)
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
plot for [k=3:NCOL] f using 1:(undamped(k) && column(k) >= 0 ? column(k) + floor_ : NaN) with lines lw 1.8 \
         lc rgb mcolor(mname(k), k) title (undamped(k) ? mname(k) : ""), \
     for [k=3:NCOL] f using 1:(undamped(k) && column(k) < 0 ? -column(k) + floor_ : NaN) with lines lw 1.8 dt 2 \
         lc rgb mcolor(mname(k), k) notitle
unset multiplot
