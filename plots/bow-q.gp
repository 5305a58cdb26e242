# bow-q.gp: the Q-factors of the string's modes (lesson 10, bin/bow): transverse by (44)
# with eta_F = 5.5e-3 (chosen: Q_1 = 180, see cello-g.ini), torsional Q_T = 30 (45).
load "plots/common.gp"
f = data."/bow/modes.tsv"
set title "mode Q-factors of the cello G string (44), (45)"
set xlabel "mode number i"
set ylabel "Q-factor"
set logscale y
set key top right
plot f using 1:3 with linespoints pt 7 ps 0.5 lw 1.5 lc rgb c_euler title "transverse Q_i^{(u)} (44)", \
     f using 1:5 with linespoints pt 5 ps 0.5 lw 1.5 lc rgb c_backward title "torsional Q_T (45)"
