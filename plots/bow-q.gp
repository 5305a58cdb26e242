# bow-q.gp: the Q-factors of the string's modes (lesson 10, bin/bow): transverse by (44)
# with eta_F = 5.5e-3 (chosen: Q_1 = 180, see cello-g.ini), torsional Q_T = 30 (45), and for
# comparison Q = omega / (2 sigma) of the loss model sigma = 1.537 + 0.0087 beta^2 1/s of the
# group's 2024/2025 codes (which agrees at mode 1 and falls where (44) rises to 1/eta_B).
call "plots/common.gp" "bow-q"
f = datadir("bow")."modes.tsv"
set title "mode Q-factors of the cello G string (44), (45)"
set xlabel "mode number i"
set ylabel "Q-factor"
set logscale y
set key top right
plot f using 1:3 with linespoints pt 7 ps 0.5 lw 1.5 lc rgb c_euler title "transverse Q_i^{(u)} (44)", \
     f using 1:5 with linespoints pt 5 ps 0.5 lw 1.5 lc rgb c_backward title "torsional Q_T (45)", \
     f using 1:6 with lines dt 2 lw 1.5 lc rgb c_cvode title "2024/2025 loss model, omega/(2 sigma)"
