# common.gp: terminal, output file, style and the series helpers shared by every figure.
# A script starts with   call "plots/common.gp" "NAME"   and reads its data from datadir("PROGRAM").
# Variables (all optional, so `gnuplot plots/NAME.gp` alone works from the checkout):
#   fmt     'png' (default), 'svg' or 'window' (an interactive window: qt, wxt or x11)
#   wterm   the window's terminal (bin/PROGRAM --show passes the one it found; default: qt, wxt, x11)
#   name    the figure's file name (default: the script's NAME)
#   data    the folder holding every program's data folder (default build/data)
#   dir     one program's data folder itself (bin/PROGRAM --plot passes its --out here)
#   outdir  where NAME.fmt goes (default plots/out); outfile overrides the whole path
if (!exists("fmt")) fmt = "png"
if (!exists("name")) { if (exists("ARG1") && ARG1 ne "") { name = ARG1 } else { name = "figure" } }
if (!exists("data")) data = "build/data"
if (!exists("outdir")) outdir = "plots/out"
if (!exists("width")) width = 900
if (!exists("height")) height = 560
# tests/claims/layout.sh draws every figure at one size and, once more, with a see-through legend:
# what the legend box hides of the data is the difference of the two
if (exists("force_width")) { width = force_width; height = force_height }
# s quoted for the shell of system(): 'it'\''s'
shq_(s) = strstrt(s, "'") ? s[1:strstrt(s, "'") - 1] . "'\\''" . shq_(s[strstrt(s, "'") + 1:]) : s
shq(s) = "'" . shq_(s) . "'"
datadir(p) = (exists("dir") && dir ne "" ? dir : data."/".p)."/"
if (fmt eq "svg") {
    set terminal svg size width, height dynamic enhanced font "DejaVu Sans,13" background rgb "white"
} else { if (fmt eq "window") {
    if (!exists("wterm") || wterm eq "") { wterm = strstrt(GPVAL_TERMINALS, " qt ") ? "qt" : strstrt(GPVAL_TERMINALS, " wxt ") ? "wxt" : "x11" }
    eval sprintf('set terminal %s size %d, %d enhanced font "DejaVu Sans,11" title "%s"', wterm, width, height, name)
} else {
    eval sprintf('set terminal pngcairo size %d, %d enhanced font "DejaVu Sans,%d" background rgb "white"', width, height, exists("force_fontsize") ? force_fontsize : 11)
}}
if (fmt ne "window") {
    if (exists("outfile") && outfile ne "") { set output outfile } else { system("mkdir -p ".shq(outdir)); set output outdir."/".name.".".fmt }
}
set datafile separator "\t"
set grid lc rgb "#e0e0e0"
set key box opaque samplen 2
if (exists("key_see_through") && key_see_through) { set key noopaque }
set border lw 1.2

# One colour per method, as in the lecture; a method these do not name (a tableau file, a new
# entry in the method list) takes the next colour of c_more by its place in the data.
c_euler = "#1f77b4"; c_backward = "#d62728"; c_trapezoid = "#2ca02c"; c_heun = "#9467bd"
c_rk4 = "#ff7f0e"; c_leapfrog = "#8c564b"; c_cvode = "#333333"; c_exact = "#a0a0a0"
c_heuneuler = "#6a3d9a"; c_rkf45 = "#17becf"; c_bdf = "#bcbd22"
c_more = "#e377c2 #008080 #d4a017 #000080 #66aa00 #aa00aa #4b0082 #5f9ea0"
starts(s, p) = strstrt(s, p) == 1
# the colour of a method given its legend label ("RK4, h = 1 ms") or its name ("rk4"), "" if unknown
known_color(s) = starts(s, "forward Euler") || s eq "euler" ? c_euler : \
    starts(s, "backward Euler") || s eq "backward-euler" ? c_backward : \
    starts(s, "trapezoid") ? c_trapezoid : \
    starts(s, "Heun-Euler") || s eq "heun-euler" ? c_heuneuler : \
    starts(s, "Heun") || s eq "heun" ? c_heun : \
    starts(s, "RK4") || s eq "rk4" ? c_rk4 : \
    starts(s, "leapfrog") ? c_leapfrog : \
    starts(s, "GSL rkf45") || s eq "gsl-rkf45" ? c_rkf45 : \
    starts(s, "CVODE BDF") || s eq "cvode-bdf" ? c_bdf : \
    starts(s, "CVODE") || starts(s, "cvode") ? c_cvode : \
    starts(s, "exact") ? c_exact : ""
# a method common.gp does not know: a colour of c_more picked by its name (up to the first ':' or
# ','), so the same tableau file has the same colour in every figure; k is unused but kept for
# the callers that pass the series' place
mkey(s) = strstrt(s, ":") ? s[1:strstrt(s, ":") - 1] : strstrt(s, ",") ? s[1:strstrt(s, ",") - 1] : s
chash(s, i) = i > strlen(s) ? 0 : (strstrt("abcdefghijklmnopqrstuvwxyz0123456789-_. ABCDEFGHIJKLMNOPQRSTUVWXYZ", s[i:i]) * (i + 7) + chash(s, i + 1))
mcolor(s, k) = known_color(s) ne "" ? known_color(s) : word(c_more, 1 + chash(mkey(s), 1) % words(c_more))
# and dashed, so that a method drawn over a built-in one of the same accuracy leaves it visible
mdash(s) = known_color(s) ne "" ? 1 : 2
# a slope guide or another reference line, recognised by its name in the header
is_guide(s) = strstrt(s, "guide") > 0

# Read the header row of file HF: NCOL columns, HEAD[1..NCOL] their names.  Use:  HF = f; eval HEADER
HEADER = 'stats HF every ::0::0 using (0) nooutput; NCOL = STATS_columns; array HEAD[NCOL]; ' . \
         'stats HF every ::0::0 using (sum [hk=1:NCOL] (HEAD[hk] = strcol(hk), 0)) nooutput'

# Files of blocks (two blank lines between them, one block a method or driver): NBLK blocks,
# BNAME[i] (column 1 of the block's first row) and, when present, BLAB[i] and BKIND[i] (columns 2, 3).
# Use:  BF = f; eval BLOCKS     (the file has a header row)
BLOCKS = 'set datafile columnheaders; stats BF using (1) nooutput; NBLK = STATS_blocks; ' . \
         'array BNAME[NBLK]; array BLAB[NBLK]; array BKIND[NBLK]; ' . \
         'do for [bi=1:NBLK] { stats BF index (bi - 1) every ::0::0 using (BNAME[bi] = strcol(1), ' . \
         'BLAB[bi] = strcol(2), BKIND[bi] = strcol(3), 0) nooutput }; set datafile nocolumnheaders'
# a colour as the integer `lc rgb variable` takes
rgbint(s) = int("0x".s[2:7])
# The first column of every row of file RF (with a header row): NROW rows, ROW[1..NROW].
# Use:  RF = f; eval ROWS
ROWS = 'set datafile columnheaders; stats RF using (1) nooutput; NROW = STATS_records; array ROW[NROW]; ' . \
       'stats RF using (ROW[int(column(0)) + 1] = strcol(1), 0) nooutput; set datafile nocolumnheaders'
# a legend label for a method name ("backward-euler" -> "backward Euler"); other names as they are
mlabel(n) = n eq "euler" ? "forward Euler" : n eq "backward-euler" ? "backward Euler" : n eq "heun" ? "Heun" : \
            n eq "rk4" ? "RK4" : n eq "heun-euler" ? "Heun-Euler pair" : n