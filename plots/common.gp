# common.gp: terminal, output file and style shared by every figure.
# Called by `make plots` with fmt ('png' or 'svg'), name (the figure), data and outdir.
if (!exists("fmt")) fmt = "png"
if (!exists("data")) data = "build/data"
if (!exists("outdir")) outdir = "plots/out"
if (!exists("width")) width = 900
if (!exists("height")) height = 560
if (fmt eq "svg") {
    set terminal svg size width, height dynamic enhanced font "DejaVu Sans,13" background rgb "white"
} else {
    set terminal pngcairo size width, height enhanced font "DejaVu Sans,11" background rgb "white"
}
set output outdir."/".name.".".fmt
set datafile separator "\t"
set grid lc rgb "#e0e0e0"
set key box opaque samplen 2
set border lw 1.2
# One color per method, as in the lecture.
c_euler = "#1f77b4"; c_backward = "#d62728"; c_trapezoid = "#2ca02c"; c_heun = "#9467bd"
c_rk4 = "#ff7f0e"; c_leapfrog = "#8c564b"; c_cvode = "#333333"; c_exact = "#a0a0a0"
