# bow-pluck.gp: the article's Figure 8d (lesson 10, bin/bow): the string alone, released
# from a triangular shape at x/L = 0.104; the transverse bridge force (61), each mode decaying
# exactly. The release and the first sets of reflected waves.
call "plots/common.gp" "bow-pluck"
f = datadir("bow")."pluck.tsv"
set title "wire-break pluck at x/L = 0.104: transverse bridge force (Figure 8d)"
set xlabel "time t (ms)"
set ylabel "bridge force (N)"
set key top right
plot f using ($1*1e3):2 with lines lw 1.2 lc rgb c_cvode title "f_u, 1 mm pluck"
