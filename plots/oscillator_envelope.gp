# oscillator_envelope.gp: the ringing u(t) inside its envelope C e^{-sigma0 t} (bin/oscillator).
call "plots/common.gp" "oscillator_envelope"
f = datadir("oscillator")."envelope.tsv"
set title "decay: u = C_1 e^{-{/Symbol s}_0 t} cos({/Symbol w}_1 t + {/Symbol f}_1), T_{60} = 6 ln 10 / {/Symbol s}_0"
set xlabel "time t (s)"
set ylabel "displacement u (m)"
set key top right
plot f using 1:2 with lines lw 1.2 lc rgb c_rk4 title "u (RK4, fine step)", \
     f using 1:3 with lines dt 2 lw 1.5 lc rgb "black" title "envelope C_1 e^{-{/Symbol s}_0 t}", \
     f using 1:(-$3) with lines dt 2 lw 1.5 lc rgb "black" notitle
