# figures.sh: one figure per command (--plot, --show, --figures), every figure taking its series
# from its data (a seventh method gets its own colour), `gnuplot plots/X.gp` alone, the
# "inside one step" data, and each lesson's exercises.
. "$(dirname "$0")/../lib.sh"
ROOT=$(pwd)

# --plot writes the lesson's figures, PNG and SVG, and prints their paths.
$BIN/ivp --method rk4 --plot --out "$TMP/ivp" --figures "$TMP/fig" >"$TMP/ivp.txt" 2>"$TMP/ivp.err"
check_num "ivp --plot: exit status" "$?" near 0 0
for f in ivp.png ivp.svg ivp_step.png ivp_step.svg; do
    check_text "ivp --plot prints the path of $f" "$(cat "$TMP/ivp.txt")" "figure: $TMP/fig/$f"
done
check_text "ivp.png is a PNG" "$(head -c 8 "$TMP/fig/ivp.png" | od -An -c | tr -d ' ')" "211PNG"
check_text "ivp.svg is an SVG" "$(head -c 300 "$TMP/fig/ivp.svg")" "<svg"
check_num "no temporary left beside the figures" "$(find "$TMP/fig" -name '*.tmp.*' | wc -l)" near 0 0
# the method's own colour (RK4 orange), not forward Euler's blue
check_text "ivp.svg draws RK4 in its colour" "$(cat "$TMP/fig/ivp.svg")" "rgb(255, 127,  14)"
# With --tsv the paths go to stderr so that stdout stays the table.
$BIN/ivp --plot --tsv --out "$TMP/ivp2" --figures "$TMP/fig2" >"$TMP/ivp2.tsv" 2>"$TMP/ivp2.err"
check_num "ivp --plot --tsv: stdout is only the table (7 rows + header)" "$(grep -c 'figure:' "$TMP/ivp2.tsv")" near 0 0
check_text "ivp --plot --tsv: paths on stderr" "$(cat "$TMP/ivp2.err")" "figure: $TMP/fig2/ivp.png"

# A data folder whose name has a quote and a space in it is the user's to choose.
q="$TMP/it's a dir"
for p in ivp stiff; do
    $BIN/$p --plot --out "$q/$p" --figures "$q/fig" >/dev/null 2>"$TMP/q.err"
    check_num "$p --plot with --out \"it's a dir\": exit status" "$?" near 0 0
done
check_num "figures drawn from a quoted folder" "$(ls "$q/fig" | wc -l)" near 6 0

# make render-plots is bin/plot, the same mechanism as --plot: the same SVG bytes from the same data.
mkdir -p "$TMP/render/ivp"
cp "$TMP/ivp"/*.tsv "$TMP/render/ivp/"
$BIN/plot --data "$TMP/render" --figures "$TMP/render-out" ivp >/dev/null 2>"$TMP/render.err"
check_num "bin/plot ivp: exit status" "$?" near 0 0
if cmp -s "$TMP/render-out/ivp.svg" "$TMP/fig/ivp.svg"; then pass "bin/plot (make render-plots) and --plot give the same ivp.svg"
else fail "bin/plot (make render-plots) and --plot give different ivp.svg"; fi
check_text "make render-plots runs bin/plot" "$(sed -n '/^render-plots:/,/^$/p' Makefile)" '$(BIN)/plot --data build/data'
expect_bad_input "bin/plot of a program without figures" $BIN/plot --figures "$TMP/out" nosuch
check_text "bin/plot without arguments knows every lesson's figures" "$($BIN/plot --data "$TMP/none" --figures "$TMP/none-fig" 2>&1)" "ivp: --plot: data folder"

# `gnuplot plots/X.gp` alone: no variable is required (the figure's name comes from the script).
gnuplot -e "data='$TMP/render'; outdir='$TMP/alone'" plots/ivp.gp 2>"$TMP/alone.err"
check_num "gnuplot plots/ivp.gp without name or fmt: exit status" "$?" near 0 0
check_num "gnuplot plots/ivp.gp alone writes ivp.png" "$(stat -c %s "$TMP/alone/ivp.png" 2>/dev/null || echo 0)" gt 1000

# --show: says why no window opens (no display here; gnuplot-nox has no window terminal).
env -u DISPLAY -u WAYLAND_DISPLAY $BIN/ivp --show --out "$TMP/s1" --figures "$TMP/s1f" >/dev/null 2>"$TMP/s1.err"
check_num "--show without a display: exit status 0 (the figures are written)" "$?" near 0 0
check_text "--show without a display says why" "$(cat "$TMP/s1.err")" "--show: no window opened: no display (neither DISPLAY nor WAYLAND_DISPLAY is set"
check_num "--show writes the figures too" "$(ls "$TMP/s1f"/ivp.png 2>/dev/null | wc -l)" near 1 0
if ! gnuplot -e 'print GPVAL_TERMINALS' 2>&1 | grep -qE ' (qt|wxt|x11) '; then
    DISPLAY=:99 $BIN/ivp --show --out "$TMP/s2" --figures "$TMP/s2f" >/dev/null 2>"$TMP/s2.err"
    check_text "--show with a display but gnuplot-nox names the missing terminal" "$(cat "$TMP/s2.err")" "no window terminal"
    check_text "--show with gnuplot-nox names the packages that give one" "$(cat "$TMP/s2.err")" "install gnuplot-qt or gnuplot-x11"
    check_num "--show with gnuplot-nox: one line on stderr" "$(wc -l <"$TMP/s2.err")" near 1 0
fi
# --show where gnuplot offers a window terminal: a fake gnuplot first on PATH lists qt, logs each
# window it is asked for (and fails one when told to), and hands the files to the real gnuplot.
real_gp=$(command -v gnuplot)
mkdir -p "$TMP/fakebin"
cat >"$TMP/fakebin/gnuplot" <<FAKE
#!/bin/sh
case "\$*" in
    *"print GPVAL_TERMINALS"*) echo " png svg \${FAKE_TERMS:-qt x11} "; exit 0 ;;
    *"fmt='window'"*) echo "\$*" >>"$TMP/windows.log"
        [ -n "\${FAKE_FAIL:-}" ] && { echo "qt.qpa.xcb: could not connect to display :99" >&2; exit 1; }
        exit 0 ;;
esac
exec "$real_gp" "\$@"
FAKE
chmod +x "$TMP/fakebin/gnuplot"
: >"$TMP/windows.log"
PATH="$TMP/fakebin:$PATH" DISPLAY=:99 $BIN/ivp --show --out "$TMP/s3" --figures "$TMP/s3f" >"$TMP/s3.out" 2>"$TMP/s3.err"
check_num "--show with a window terminal: exit status 0" "$?" near 0 0
nfig=$(grep -c '^figure: .*\.png$' "$TMP/s3.out")
check_num "--show: one window a figure ($nfig figures)" "$(grep -c . "$TMP/windows.log")" near "$nfig" 0
check_num "--show: every window asked with -persist and the qt terminal" "$(grep -c -- "-persist .*wterm='qt'" "$TMP/windows.log")" near "$nfig" 0
check_text "--show: names each window it opened" "$(cat "$TMP/s3.out")" "window: ivp_step (gnuplot qt, -persist)"
check_num "--show: the files are written too" "$(ls "$TMP/s3f"/*.png | wc -l)" near "$nfig" 0
: >"$TMP/windows.log"
PATH="$TMP/fakebin:$PATH" DISPLAY=:99 FAKE_FAIL=1 $BIN/ivp --show --out "$TMP/s4" --figures "$TMP/s4f" >/dev/null 2>"$TMP/s4.err"
check_num "--show, a window that cannot open: exit status 0 (the files are written)" "$?" near 0 0
check_text "--show, a window that cannot open: gnuplot's reason" "$(cat "$TMP/s4.err")" "--show: no window for ivp: qt.qpa.xcb: could not connect to display :99"
PATH="$TMP/fakebin:$PATH" FAKE_TERMS=x11 WAYLAND_DISPLAY=wayland-0 env -u DISPLAY $BIN/ivp --show --out "$TMP/s5" --figures "$TMP/s5f" >/dev/null 2>"$TMP/s5.err"
check_text "--show, Wayland and an x11-only gnuplot: says x11 needs DISPLAY" "$(cat "$TMP/s5.err")" "only window terminal is x11 and DISPLAY is not set"

# A figure that cannot be drawn is named, exit 1, and leaves no file.
: >"$TMP/blocker"
$BIN/ivp --plot --out "$TMP/bad" --figures "$TMP/blocker/sub" >/dev/null 2>"$TMP/bad.err"
check_num "--figures under a regular file: exit status 1" "$?" near 1 0
check_text "--figures under a regular file: the message names the flag" "$(cat "$TMP/bad.err")" "--figures $TMP/blocker/sub"

# Every figure takes its series from its data: a seventh method is drawn in its own colour and
# the guides stay guides.
mkdir -p "$TMP/seven/convergence" "$TMP/seven-out"
$BIN/convergence --out "$TMP/conv" --tsv >/dev/null
for q in oscillator pendulum; do
    awk -F'\t' 'BEGIN { OFS = "\t" } NR == 1 { $7 = $7 "\texplicit midpoint: slope 2.00"; print; next }
                { $7 = $7 "\t" $5 * 1.5; print }' "$TMP/conv/errors_$q.tsv" >"$TMP/seven/convergence/errors_$q.tsv"
done
gnuplot -e "fmt='svg'; data='$TMP/seven'; outdir='$TMP/seven-out'" plots/convergence.gp 2>/dev/null
svg=$(cat "$TMP/seven-out/convergence.svg" 2>/dev/null)
check_text "convergence: the seventh method is in the legend" "$svg" "explicit midpoint: slope 2.00"
# the stroke of the seventh method's line: none of the six methods' colours, nor a guide's grey
col=$(awk '/<title>explicit midpoint/ { on = 1 } on && match($0, /stroke=.rgb\([^)]*\)/) { print substr($0, RSTART + 8, RLENGTH - 8); exit }' \
    "$TMP/seven-out/convergence.svg" 2>/dev/null)
case "$col" in
    ""|"rgb( 31, 119, 180)"|"rgb(214,  39,  40)"|"rgb( 44, 160,  44)"|"rgb(148, 103, 189)"|"rgb(255, 127,  14)"|"rgb(140,  86,  75)"|"rgb( 85,  85,  85)")
        fail "convergence: the seventh method is drawn in another's colour or grey: '$col'";;
    *) pass "convergence: the seventh method has a colour of its own: $col";;
esac
check_num "convergence: the slope 4 guide is still drawn and keyed in both panels" "$(grep -c '>slope 4 guide<' <<<"$svg")" ge 2
# work.gp: one block a method; an eleventh block is drawn and keyed
mkdir -p "$TMP/seven/work"
$BIN/work --out "$TMP/work" >/dev/null
cp "$TMP/work"/*.tsv "$TMP/seven/work/"
awk -F'\t' 'BEGIN { OFS = "\t" } $1 == "heun" { $1 = "midpoint"; $2 = "explicit midpoint (fixed h)"; print }' \
    "$TMP/work/work.tsv" | { printf '\n\n'; cat; } >>"$TMP/seven/work/work.tsv"
gnuplot -e "fmt='svg'; data='$TMP/seven'; outdir='$TMP/seven-out'" plots/work.gp 2>/dev/null
check_text "work: an added method is in the legend" "$(cat "$TMP/seven-out/work.svg" 2>/dev/null)" "explicit midpoint (fixed h)"
# stability_regions.gp: a panel for every row of bounds.tsv
mkdir -p "$TMP/seven/stability"
$BIN/stability --out "$TMP/stab" >/dev/null
cp "$TMP/stab"/* "$TMP/seven/stability/"
cp "$TMP/stab/region_heun.tsv" "$TMP/seven/stability/region_midpoint.tsv"
printf 'midpoint\t2.0000\t0.0000\n' >>"$TMP/seven/stability/bounds.tsv"
gnuplot -e "fmt='svg'; data='$TMP/seven'; outdir='$TMP/seven-out'" plots/stability_regions.gp 2>/dev/null
check_text "stability_regions: a seventh panel for a seventh method" "$(cat "$TMP/seven-out/stability_regions.svg" 2>/dev/null)" ">midpoint<"

# Inside one step: RK4's four stages at c = 0, 1/2, 1/2, 1 with weights summing to 1, and the step's
# slope is the weighted sum of the stage slopes.
s="$TMP/ivp/stages.tsv"
check_text "stages.tsv: RK4's nodes" "$(awk -F'\t' '$1 ~ /^[0-9]+$/ { printf "%s ", $3 }' "$s")" "0 0.5 0.5 1 "
check_num "stages.tsv: RK4's weights sum to 1" "$(awk -F'\t' '$1 ~ /^[0-9]+$/ { b += $4 } END { printf "%.6f", b }' "$s")" near 1 1e-5
check_num "stages.tsv: the step's slope is sum b_i k_i" \
    "$(awk -F'\t' '$1 ~ /^[0-9]+$/ { m += $4 * $7 } $1 == "step" { s = $7 } END { printf "%.3e", (m - s < 0 ? s - m : m - s) }' "$s")" lt 1e-5
$BIN/ivp --method backward-euler --out "$TMP/be" >/dev/null
check_text "stages.tsv: backward Euler's one stage reads the slope at the step's end (c = 1)" \
    "$(awk -F'\t' '$1 ~ /^[0-9]+$/ { printf "%s:%s ", $1, $3 }' "$TMP/be/stages.tsv")" "1:1 "
check_num "stages.tsv: backward Euler's stage state is y_{k+1}" \
    "$(awk -F'\t' '$1 == "1" { u = $5 } $1 == "step" { s = $5 } END { d = u - s; printf "%.3e", d < 0 ? -d : d }' "$TMP/be/stages.tsv")" lt 1e-9

# bin/LESSON --plot for lessons 1-8 fits in 2 s of the machine's two cores (CPU time of the
# program and its gnuplots, so a loaded machine does not fail it; the wall time is printed).
for p in ivp convergence stability stiff work oscillator drop audiorate; do
    extra=(); case $p in drop|audiorate) extra=(--sound "$TMP/t-snd");; esac
    # bash's own time (wall, user and system of the program and its children), no /usr/bin/time needed
    TIMEFORMAT='%R %U %S'
    { time $BIN/$p --plot --out "$TMP/t-$p" --figures "$TMP/t-fig" "${extra[@]}" >"$TMP/t-$p.txt" 2>"$TMP/t-$p.err"; } 2>"$TMP/time-$p"
    rc=$?
    check_num "bin/$p --plot: exit status" "$rc" near 0 0
    n=$(grep -c '^figure: ' "$TMP/t-$p.txt"); k=$(grep -l "datadir(\"$p\")" plots/*.gp | wc -l)
    check_num "bin/$p --plot: every figure of the lesson drawn, PNG and SVG (none skipped)" "$n" near $((2 * k)) 0
    read -r wall user sys <"$TMP/time-$p"
    cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
    check_num "bin/$p --plot: CPU seconds (wall $wall s)" "$cpu" le 4.0
done

# Exercises: every lesson's --help ends with two or three, each with a command that checks it.
for p in ivp convergence stability stiff work oscillator drop audiorate pluck bow schelleng; do
    h=$($BIN/$p --help)
    n=$(sed -n '/^exercises/,$p' <<<"$h" | grep -c '^     check: ')
    check_num "$p --help: exercises with a checking command" "$n" ge 1
done
# The checking commands of lessons 1-8 run (those that need files of issue 15, the student's own A, or draw
# are skipped; tests/claims/exercises_ode.sh runs those of lessons 1, 2, 3, 6 with the student's files).
mkdir -p "$TMP/ex"
ln -s "$ROOT/$BIN" "$TMP/ex/bin"
for p in ivp convergence stability stiff work oscillator drop audiorate; do
    $BIN/$p --help | sed -n 's/^     check: //p' | sed 's/   (.*$//' | grep -v -e '--add-method' -e '--plot' -e '--A ' |
    while IFS= read -r cmd; do
        ( cd "$TMP/ex" && bash -o pipefail -c "$cmd" >/dev/null 2>&1 )
        rc=$?
        # a pipeline cut short by head may end with SIGPIPE (141)
        [ "$rc" -eq 141 ] && rc=0
        check_num "exercise check runs: $cmd" "$rc" near 0 0
    done
done

# bin/drop shows the first impacts and the count; --all every row; --tsv keeps all of them.
check_text "drop: the count of impacts" "$(cat "$TMP/t-drop.txt")" "impacts in all (--all prints every row"
rows=$(awk '/^ +impact +start_s/ { on = 1; next } on && /^ +[0-9]+ / { n++ } on && !/^ +[0-9]+ / { on = 0 } END { print n }' "$TMP/t-drop.txt")
check_num "drop: 8 impact rows shown" "$rows" near 8 0
$BIN/drop --all --out "$TMP/drop" --sound "$TMP/drop" >"$TMP/drop-all.txt"
rows_all=$(awk '/^ +impact +start_s/ { on = 1; next } on && /^ +[0-9]+ / { n++ } on && !/^ +[0-9]+ / { on = 0 } END { print n }' "$TMP/drop-all.txt")
check_num "drop --all: every impact row" "$rows_all" near "$(($(wc -l <"$TMP/drop/impacts.tsv") - 1))" 0

# Help lines that are true: a default outside the accepted range is shown as none.
check_text "oscillator --help: --ratio has no default" "$($BIN/oscillator --help | grep -- '--ratio')" "[none]"
check_text "audiorate --help: --fs names its default" "$($BIN/audiorate --help | grep -- '--fs')" "default 44100 Hz"

# Issue 26 item 10: a figure draws exactly the data of the run that made it. A quick bow run in a
# folder that holds a full run's files (a stand-in: the files of Figures 7 and 8d and of the
# convergence study, from an older run) draws its own figures and skips the others, naming them.
mkdir -p "$TMP/bowq"
$BIN/bow --quick --out "$TMP/bowq" >/dev/null 2>&1
for f in fig7.tsv fig7_drops.tsv convergence.tsv conv_traj.tsv pluck.tsv modes.tsv fig4_v.tsv fig4_y.tsv; do
    printf 'old\tdata\n1\t2\n' >"$TMP/bowq/$f"
done
$BIN/bow --quick --plot --out "$TMP/bowq" --figures "$TMP/bowq-fig" >"$TMP/bowq.txt" 2>"$TMP/bowq.err"
check_num "bow --quick --plot over an older run's files: exit status" "$?" near 0 0
for name in bow-firstslip bow-convergence bow-pluck; do
    check_text "bow --quick --plot: $name (an older run's data) is skipped" "$(cat "$TMP/bowq.err")" "figure $name skipped:"
    [ -e "$TMP/bowq-fig/$name.png" ] && fail "bow --quick --plot drew $name from an older run's data" || pass "bow --quick --plot: no $name drawn"
done
check_text "bow --quick --plot: its own figures drawn" "$(cat "$TMP/bowq.txt")" "figure: $TMP/bowq-fig/bow-zoom.png"
# the quick run's own files: those a quick run writes into an empty folder
$BIN/bow --quick --out "$TMP/bowq-own" >/dev/null 2>&1
own=$(cd "$TMP/bowq-own" && ls | grep -vx manifest.txt | sort | tr '\n' ' ')
listed=$(grep -v '^#' "$TMP/bowq/manifest.txt" | sort | tr '\n' ' ')
[ "$listed" = "$own" ] && pass "the manifest lists the quick run's files ($own) and no other" \
    || fail "the manifest lists '$listed', the quick run writes '$own'"
check_num "the quick run writes files" "$(wc -w <<<"$own")" ge 3
# bin/plot (make render-plots) reads the same manifest: the older files are not drawn there either.
mkdir -p "$TMP/rp"; cp -r "$TMP/bowq" "$TMP/rp/bow"
$BIN/plot --data "$TMP/rp" --figures "$TMP/rp-fig" bow >/dev/null 2>"$TMP/rp.err"
check_text "bin/plot bow: the older run's figure is skipped" "$(cat "$TMP/rp.err")" "figure bow-firstslip skipped:"
