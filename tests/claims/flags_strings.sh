# flags_strings.sh: lessons 9-11 (bin/pluck, bin/bow, bin/schelleng) with their flags moved across
# the accepted ranges, the way a class moves them: a fixed seed draws the values (edges, defaults
# and values near the printed thresholds among them), each run is checked for what must hold
# whatever the flags:
#   pluck --reference: the WAV has duration * fs frames at fs; modes > 0 and mode-samples at most
#     modes x samples; the peak finite. pluck --solve (modal): one row a substep count, every status
#     one of ok/blowup/not_run/refused/failed, a blow-up only below the stable step printed from
#     |R(h lambda)| and every run at or above it ok; an ok row's E_wave finite; --fs other than the
#     challenge's with --solve refused at once (exit 2, no file).
#   bow --quick: exit 0, |z| under the bound (18), tau >= 0, the energy residual small, the regime a
#     known one; summary.tsv (bow-zoom's title) equal to the printed row and the flags; "Figure 6b"
#     only at the article's stroke; a Helmholtz stroke's ripples within 25% of L/x_b.
#   schelleng: --cell's slips match its regime (Helmholtz 1, double slips 2); a stand-in sweep of a
#     drawn grid: the per-regime counts sum to the cells, the results file has one row a cell, a
#     boundary fitted only from 4 or more columns, schelleng_measures' title counts every cell.
# The quick sample (make test) runs a few flag sets; CLAIMS_FULL=1 runs a larger one. Its line
# "flag sets: N in S s" says how many and how long.
. "$(dirname "$0")/../lib.sh"
cd "$(dirname "$0")/../.." || exit 1
FULL=${CLAIMS_FULL:-0}
SEED=${CLAIMS_SEED:-2026}
t0=$SECONDS
sets=0
# draw K LO HI [log]: the K-th value of the seeded sequence, uniform (or log-uniform) in [LO, HI]
draw() { awk -v s="$SEED" -v k="$1" -v lo="$2" -v hi="$3" -v lg="${4:-}" 'BEGIN { srand(s + 7919 * k); u = rand()
    if (lg != "") printf "%.4g", exp(log(lo) + u * (log(hi) - log(lo))); else printf "%.4g", lo + u * (hi - lo) }'; }
col() { awk -F'\t' -v c="$2" 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i } NR == 2 { print $h[c] }' "$1"; }
kv() { awk -F'\t' -v k="$2" '$1 == k { print $2 }' "$1"; }

# ---- pluck --reference: rate, length and tolerance moved ------------------------------------
ref_sets="48000:2:1e-10 8000:0.25:1e-3 96000:0.5:1e-16"     # defaults and the edges
[ "$FULL" = 1 ] && for k in 1 2 3 4 5 6; do
    ref_sets="$ref_sets $(printf '%.0f' "$(draw $k 8000 96000)"):$(draw $((k + 50)) 0.05 1):$(draw $((k + 90)) 1e-14 1e-4 log)"
done
for s in $ref_sets; do
    IFS=: read -r fs dur tol <<<"$s"
    # whole samples: round the duration to them
    dur=$(awk -v d="$dur" -v f="$fs" 'BEGIN { printf "%.10g", int(d * f + 0.5) / f }')
    n=$(awk -v d="$dur" -v f="$fs" 'BEGIN { printf "%.0f", d * f }')
    $BIN/pluck --reference --fs "$fs" --duration "$dur" --tol "$tol" --tsv --wav "$TMP/r.wav" --out "$TMP/p" \
        >"$TMP/r.tsv" 2>"$TMP/r.err"
    rc=$?; sets=$((sets + 1))
    frames=$(( $(stat -c %s "$TMP/r.wav" 2>/dev/null || echo 0) ))
    rate=$(od -A n -t u4 -j 24 -N 4 "$TMP/r.wav" 2>/dev/null | tr -d ' ')
    ok=$(awk -F'\t' -v n="$n" 'NR == 2 { print ($1 > 0 && $3 <= $1 * n && $5 + 0 == $5 && $5 < 1e30) }' "$TMP/r.tsv")
    if [ "$rc" -eq 0 ] && [ "$rate" = "$fs" ] && [ "$ok" = 1 ] && [ "$frames" -ge $((n * 4)) ]; then
        pass "pluck --reference --fs $fs --duration $dur --tol $tol: $n samples at $fs Hz, modes and mode-samples consistent"
    else
        fail "pluck --reference --fs $fs --duration $dur --tol $tol: exit $rc, rate '$rate', checks '$ok', $(head -c 200 "$TMP/r.err")"
    fi
done

# ---- pluck --solve on the Galerkin system: method and substeps moved ------------------------
solve_sets="rk4:1:2 euler:1:2"
[ "$FULL" = 1 ] && solve_sets="$solve_sets heun:1:4 leapfrog:1:4 trapezoid:1:2 backward-euler:1:2 rk4:2:8"
for s in $solve_sets; do
    IFS=: read -r meth m1 m2 <<<"$s"
    $BIN/pluck --solve --space modal --method "$meth" --modes 20 --substeps-min "$m1" --substeps-max "$m2" \
        --cvode-study-time 0 --out "$TMP/ps" >"$TMP/ps.txt" 2>"$TMP/ps.err"
    sets=$((sets + 1))
    k=$(sed -n "s/.*modal M = 20, $meth: stable only for .*(m >= \([0-9]*\) substeps).*/\1/p" "$TMP/ps.txt")
    grep -q "modal M = 20, $meth: stable for every h" "$TMP/ps.txt" && k=0
    want=$(awk -v a="$m1" -v b="$m2" 'BEGIN { n = 0; for (m = a; m <= b; m *= 2) n++; print n }')
    bad=$(awk -v k="${k:-x}" -v meth="$meth" '$1 == "modal" && $3 == meth {
            n++; m = $4; st = $9
            if (st !~ /^(ok|blowup|not_run|refused|failed)$/) b++
            else if (k == "x") b++
            else if (st == "blowup" && m >= k) b++
            else if (m >= k && st != "ok") b++
            else if (st == "ok" && !($5 + 0 >= 0 && $5 + 0 < 1e300)) b++ }
          END { print n + 0, b + 0 }' "$TMP/ps.txt")
    if [ "$bad" = "$want 0" ]; then
        pass "pluck --solve modal M = 20 $meth m = $m1..$m2: $want rows, blow-ups only below the stable m = ${k} from |R|"
    else
        fail "pluck --solve modal M = 20 $meth m = $m1..$m2: rows and violations '$bad' (wanted '$want 0'), stable m '${k:-none printed}'"
    fi
done
fs=$(printf '%.0f' "$(draw 7 8000 47000)")
expect_bad_input "pluck --solve --fs $fs (drawn): refused before any work" $BIN/pluck --solve --fs "$fs" --out "$TMP/out" --wav "$TMP/out/r.wav"
sets=$((sets + 1))

# ---- bow --quick: place and force moved -------------------------------------------------------
bow_sets="0.075:2.15 0.1:2 0.05:4"
[ "$FULL" = 1 ] && for k in 1 2 3 4 5 6 7 8; do
    bow_sets="$bow_sets $(draw $((k + 200)) 0.04 0.2):$(draw $((k + 300)) 0.2 8 log)"
done
for s in $bow_sets; do
    IFS=: read -r xb fb <<<"$s"
    flags=(--quick --out "$TMP/b" --wav "$TMP/b/b.wav")
    [ "$s" = "0.075:2.15" ] || flags+=(--x_b_rel "$xb" --f_b "$fb")
    $BIN/bow "${flags[@]}" --tsv >"$TMP/b.tsv" 2>"$TMP/b.err"
    rc=$?; sets=$((sets + 1))
    sm="$TMP/b/summary.tsv"
    reg=$(col "$TMP/b.tsv" regime)
    why=""
    [ "$rc" -eq 0 ] || why="$why exit $rc;"
    awk -v v="$(col "$TMP/b.tsv" z_max_over_bound)" 'BEGIN { exit !(v < 1) }' || why="$why |z| over the bound;"
    awk -v v="$(col "$TMP/b.tsv" tau_min_k)" 'BEGIN { exit !(v >= 0) }' || why="$why tau < 0;"
    awk -v v="$(col "$TMP/b.tsv" energy_residual)" 'BEGIN { exit !(v < 1e-3) }' || why="$why energy residual;"
    case $reg in helmholtz|double_slip|raucous|multiple_slip|s_motion|multiple_flyback|unclassified) ;;
        *) why="$why regime '$reg';"; esac
    [ "$(kv "$sm" regime)" = "$reg" ] || why="$why summary regime;"
    awk -v a="$(kv "$sm" ripples_per_period)" -v b="$(col "$TMP/b.tsv" ripples_per_period)" \
        'BEGIN { d = a - b; exit !(d < 0.051 && d > -0.051) }' || why="$why summary ripples;"
    awk -v a="$(kv "$sm" x_b_over_L)" -v b="$xb" -v c="$(kv "$sm" f_b_N)" -v d="$fb" \
        'BEGIN { exit !(a == b && c == d) }' || why="$why summary x_b/L, f_b against the flags;"
    [ "$(kv "$sm" article_figure6)" = "$([ "$s" = "0.075:2.15" ] && echo 1 || echo 0)" ] || why="$why Figure 6b;"
    if [ "$reg" = helmholtz ]; then
        awk -v r="$(col "$TMP/b.tsv" ripples_per_period)" -v x="$xb" 'BEGIN { q = 1 / x; d = r - q
            exit !(d < 0.25 * q && d > -0.25 * q) }' || why="$why ripples $(col "$TMP/b.tsv" ripples_per_period) against L/x_b;"
    fi
    if [ -z "$why" ]; then
        pass "bow --quick x_b/L $xb f_b $fb: $reg, bounds, energy, summary (bow-zoom's title) as printed"
    else
        fail "bow --quick x_b/L $xb f_b $fb ($reg):$why $(head -c 200 "$TMP/b.err")"
    fi
done

# ---- schelleng: cells and stand-in grids moved --------------------------------------------------
cell_sets="0.075,2.15 0.1,0.5"
[ "$FULL" = 1 ] && for k in 1 2 3 4 5 6; do
    cell_sets="$cell_sets $(draw $((k + 400)) 0.03 0.25 log),$(draw $((k + 500)) 0.1 8 log)"
done
for c in $cell_sets; do
    $BIN/schelleng --cell "$c" --tsv >"$TMP/c.tsv" 2>"$TMP/c.err"
    rc=$?; sets=$((sets + 1))
    got=$(awk -F'\t' 'NR == 2 { print $3, $4 }' "$TMP/c.tsv")
    if [ "$rc" -eq 0 ] && awk -v r="${got% *}" -v s="${got#* }" 'BEGIN {
            exit !((r != "helmholtz" || (s > 0.95 && s < 1.05)) && (r != "double_slip" || (s > 1.9 && s < 2.1))) }'; then
        pass "schelleng --cell $c: $got (slips as the regime says)"
    else
        fail "schelleng --cell $c: exit $rc, '$got' $(head -c 200 "$TMP/c.err")"
    fi
done
grid_sets="6:6 3:5 2:2"
[ "$FULL" = 1 ] && for k in 1 2 3 4; do
    grid_sets="$grid_sets $(printf '%.0f' "$(draw $((k + 600)) 2 12)"):$(printf '%.0f' "$(draw $((k + 700)) 2 12)")"
done
for g in $grid_sets; do
    IFS=: read -r nx nf <<<"$g"
    rm -rf "$TMP/g"
    $BIN/schelleng --stand_in --what sweep --nx "$nx" --nf "$nf" --tsv --out "$TMP/g" >"$TMP/g.tsv" 2>"$TMP/g.err"
    rc=$?; sets=$((sets + 1))
    cells=$((nx * nf))
    sum=$(awk -F'\t' '$1 == "sweep" && $2 !~ /:/ { s += $3; of = $4 } END { print s + 0, of + 0 }' "$TMP/g.tsv")
    rows=$(($(wc -l <"$TMP/g/results-stand-in.tsv") - 1))
    badfit=$(awk -F'\t' '$1 ~ /^(helmholtz_max|helmholtz_min|double_multiple)$/ && $3 != "nan" && ($2 < 4 || !($4 > 0))' "$TMP/g.tsv" | wc -l)
    cp "$TMP/g/results-stand-in.tsv" "$TMP/g/results.tsv"
    gnuplot -e "fmt='svg'; outfile='$TMP/m.svg'; dir='$TMP/g'" plots/schelleng_measures.gp 2>/dev/null
    drawn=$(grep -o 'simulated, [0-9]* cells' "$TMP/m.svg" | grep -o '[0-9]*')
    if [ "$rc" -eq 0 ] && [ "$sum" = "$cells $cells" ] && [ "$rows" -eq "$cells" ] && [ "$badfit" -eq 0 ] &&
        [ "$drawn" = "$cells" ]; then
        pass "schelleng stand-in $nx x $nf: counts sum to $cells, $rows rows, fits only from 4+ columns, measures title $drawn cells"
    else
        fail "schelleng stand-in $nx x $nf: exit $rc, counts '$sum', rows $rows, bad fits $badfit, title '$drawn' cells"
    fi
done
echo "flag sets: $sets in $((SECONDS - t0)) s (CLAIMS_FULL=$FULL, seed $SEED)"
