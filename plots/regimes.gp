# regimes.gp: the article's Figure 11: one example bridge-force waveform per regime, four
# periods each, simulated where the sweep found the regime (the cell nearest the middle of its
# region), synthetic (a kinematic sketch from regime_synthetic) where it did not: each panel says which.
width = 1000
height = 1300
call "plots/common.gp" "regimes"
f = datadir("schelleng")."examples.tsv"
names = "helmholtz double_slip raucous multiple_slip s_motion multiple_flyback unclassified"
labels = "Helmholtz|double slips|raucous motion|multiple slips|S-motion|multiple flyback|unclassified"
label(i) = system(sprintf("echo '%s' | cut -d'|' -f%d", labels, i))
src(n) = system(sprintf("awk -F'\\t' '$1==\"%s\" {printf \"%%s, %%s\", $2, $3; exit}' %s", n, f))
set multiplot layout 7,1 title "example bridge-force waveforms of the seven regimes"
set lmargin 10
unset key
set ylabel "F (N)"
do for [i=1:7] {
    n = word(names, i)
    set title label(i)." (".src(n).")" font ",10"
    if (i == 7) { set xlabel "time (ms)" }
    plot f using 4:(strcol(1) eq n ? $5 : NaN) with lines lw 1.5 lc rgb "#1f77b4"
}
unset multiplot
