# layout.sh: nothing of a figure is hidden (issue 26 item 12). Each figure is drawn at 1280 x 720
# twice from the same data, once as it is (an opaque legend box) and once with a see-through legend;
# the dark pixels (every channel below 200: data, labels, text; not the light grid) the opaque box
# hides are the difference of the two counts: a legend over data, or over an axis label, shows here.
# Ink on the image's outermost 2 pixels is a title or label clipped by the canvas. Generic: any
# plots/NAME.gp, drawn from its program's run at the defaults.
# make test draws the figures of LAYOUT_RUNS (default: stiff with three more tableaus, and work); LAYOUT_ALL=1
# (or CLAIMS_FULL=1) draws every program's at its defaults (minutes: pluck, bow and schelleng run).
. "$(dirname "$0")/../lib.sh"
HIDDEN_MAX=${HIDDEN_MAX:-20}     # dark pixels a legend may cover (antialiasing at its border)
# The runs whose figures are drawn, one a line: a program and its flags (the stiff network with
# three more tableaus: a legend of 4 rows that once covered the x label).
if [ "${LAYOUT_ALL:-${CLAIMS_FULL:-0}}" = 1 ]; then
    runs=$(grep -ho 'datadir("[a-z_0-9-]*")\|data\."/[a-z_0-9-]*/' plots/*.gp | sed -E 's/^datadir\("([^"]*)"\)$/\1/; s/^data\."\/([^/]*)\/$/\1/' | sort -u)
else
    runs=${LAYOUT_RUNS:-"stiff --add-method lessons/methods/gauss2.tab --add-method lessons/methods/sdirk3.tab --add-method lessons/methods/kutta38.tab
work"}
fi

# dark PNG: the dark pixels of a PNG and those on its outermost 2 pixels, "N B"
dark() {
    gnuplot -e "set table '$1.txt'; plot '$1' binary filetype=png with rgbimage" 2>/dev/null
    awk 'NF >= 6 && $1 ~ /^[0-9]/ && $3 < 200 && $4 < 200 && $5 < 200 {
             n++; b += $1 < 2 || $2 < 2 || $1 > 1277 || $2 > 717 }
         END { printf "%d %d\n", n, b }' "$1.txt"
    rm -f "$1.txt"
}

while read -r p flags; do
    extra=(); case $p in drop|audiorate) extra=(--sound "$TMP/snd");; bow|pluck) extra=(--wav "$TMP/$p.wav");; esac
    rm -rf "$TMP/data"; mkdir -p "$TMP/data"
    # shellcheck disable=SC2086
    $BIN/$p $flags --out "$TMP/data/$p" "${extra[@]}" >/dev/null 2>"$TMP/$p.err" </dev/null
    for gp in $(grep -l "datadir(\"$p\")\|data\.\"/$p/" plots/*.gp); do
        name=$(basename "$gp" .gp)
        for k in 0 1; do
            gnuplot -e "force_width = 1280; force_height = 720; force_fontsize = 13; key_see_through = $k; data = '$TMP/data'; dir = '$TMP/data/$p/'; \
                        outfile = '$TMP/$name-$k.png'; name = '$name'" "$gp" 2>"$TMP/$name.gperr"
        done
        if [ ! -s "$TMP/$name-0.png" ] || [ ! -s "$TMP/$name-1.png" ]; then
            fail "$name: not drawn at 1280 x 720 from bin/$p's defaults: $(grep -v arning "$TMP/$name.gperr" | head -2 | tr '\n' ' ')"
            continue
        fi
        read -r n0 b0 < <(dark "$TMP/$name-0.png")
        if cmp -s "$TMP/$name-0.png" "$TMP/$name-1.png"; then n1=$n0; else read -r n1 _ < <(dark "$TMP/$name-1.png"); fi
        check_num "$name (bin/$p $flags): dark pixels under its legend (data or labels it hides)" "$((n1 - n0))" le "$HIDDEN_MAX"
        check_num "$name (bin/$p $flags): ink on the image's edge (a clipped title or label)" "$b0" near 0 0
        rm -f "$TMP/$name-0.png" "$TMP/$name-1.png"
    done
done <<<"$runs"
