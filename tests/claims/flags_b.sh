# flags_b.sh: lessons 4, 5, 7 and 8 when a class moves their flags (issue 26, "How it is held").
# Flag values across the accepted ranges, drawn with a fixed seed (log-uniform), with the edges, the
# defaults and values next to each printed threshold (RK4's stability bound on the network, 0.1 %
# either side). Whatever the flags:
#   - stiff: "stable" exactly when max |R(h lambda)| <= 1, and that maximum is |R| of the method at
#     h times +-j 2 pi f of the run's own modes (RK4's R, backward Euler's, the trapezoid's: here,
#     independently of the program, from the modes as printed: to 1e-4);
#   - every figure title's numbers equal the run's (stiff's modes, audiorate's f0);
#   - every figure draws the data of this run only (the manifest lists exactly the files written,
#     the figure one curve per table row);
#   - every printed count equals the rows it counts (stiff's runs, drop's impacts, work's runs,
#     audiorate's reference impacts).
# make test runs a quick sample (FLAGS_N sets a lesson, default 4, a few seconds each); CLAIMS_FULL=1
# runs 40 sets a lesson. The count of flag sets and the time are printed at the end.
. "$(dirname "$0")/../lib.sh"
N=${FLAGS_N:-4}
[ "${CLAIMS_FULL:-0}" = 1 ] && N=${FLAGS_N:-40}
SEED=${FLAGS_SEED:-26}
t0=$SECONDS
sets=0
# pick K LO HI: K numbers log-uniform in [LO, HI] from the fixed seed
pick() { awk -v k="$1" -v lo="$2" -v hi="$3" -v s="$SEED$4" 'BEGIN { srand(s); for (i = 0; i < k; i++)
    printf "%.4g\n", exp(log(lo) + rand() * (log(hi) - log(lo))) }'; }
col() { awk -F'\t' -v c="$2" 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next } { print $h[c] }' "$1"; }

# --- stiff: h-big across [1e-5, 0.1] s, k2 and m2 across theirs; the RK4 bound on either side ---
bound=$(awk 'BEGIN { print 2.8284271247 / (2 * 3.14159265358979 * 1950.03) }')
{
    echo "--h-big 1e-5 --T 0.02"; echo "--h-big 0.1"; echo ""
    awk -v b="$bound" 'BEGIN { printf "--h-big %.6g\n--h-big %.6g\n", b * 0.999, b * 1.001 }'
    paste -d' ' <(pick "$N" 1e-5 0.02 h) <(pick "$N" 1e5 1e7 k) <(pick "$N" 0.002 0.1 m) |
        awk '{ printf "--h-big %s --k2 %s --m2 %s --T 0.05\n", $1, $2, $3 }'
} >"$TMP/stiff.sets"
k=0
while read -r flags; do
    k=$((k + 1)); d="$TMP/st$k"
    # shellcheck disable=SC2086
    $BIN/stiff $flags --tsv --out "$d" >"$d.tsv" 2>"$d.err" </dev/null || { fail "stiff $flags: exit $? $(head -1 "$d.err")"; continue; }
    sets=$((sets + 1))
    bad=$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
        { R = $h["max_abs_R_hlambda"]; st = $h["stable"]; m = $h["method"]; hh = $h["h_s"]
          if ((R <= 1 + 1e-12) != (st == "stable")) print "verdict " m " " hh " " st " with max|R| " R
          y1 = 2 * 3.14159265358979 * $h["slow_hz"] * hh; y2 = 2 * 3.14159265358979 * $h["fast_hz"] * hh; e = -1
          for (j = 1; j <= 2; j++) { y = j == 1 ? y1 : y2
              if (m == "rk4") r = sqrt(1 - y^6 / 72 + y^8 / 576)
              else if (m == "backward-euler") r = 1 / sqrt(1 + y * y)
              else if (m == "trapezoid") r = 1
              else r = -1
              if (r > e) e = r }
          if (e > 0 && (R - e > 1e-4 * e || e - R > 1e-4 * e)) print "max|R| " m " " hh ": printed " R ", from R(z) " e }' "$d.tsv")
    [ -z "$bad" ] && pass "stiff $flags: stable exactly when max |R(h lambda)| <= 1, max |R| as R(z) gives" ||
        fail "stiff $flags: $bad"
    rows=$(($(wc -l <"$d.tsv") - 1)); files=$(grep -c '^run_' "$d/manifest.txt")
    check_num "stiff $flags: a run file in the manifest for each of the $rows table rows" "$files" near "$rows" 0
done <"$TMP/stiff.sets"
# the figure: title from the run, one curve per table row, after a run with more methods in the folder
for flags in "--k2 3e5 --m2 0.02" "--h-big 0.0005 --k2 6e6"; do
    d="$TMP/sf"; $BIN/stiff --add-method lessons/methods/gauss2.tab --add-method lessons/methods/sdirk3.tab --out "$d" >/dev/null
    # shellcheck disable=SC2086
    $BIN/stiff $flags --plot --out "$d" --figures "$d-fig" >/dev/null 2>&1
    # shellcheck disable=SC2086
    $BIN/stiff $flags --tsv --out "$TMP/sf-tsv" >"$TMP/sf.tsv"
    want=$(awk -F'\t' 'NR == 2 { printf "modes %.4g Hz and %.4g Hz", $3, $4 }' "$TMP/sf.tsv")
    check_text "stiff $flags --plot: the title names the run's modes ($want)" "$(cat "$d-fig/stiff.svg")" "$want"
    curves=$(grep -o '<title>[^<]*, h = [^<]*</title>' "$d-fig/stiff.svg" | sort -u | wc -l)
    check_num "stiff $flags --plot: one curve per table row, none of the older run's" "$curves" near "$(($(wc -l <"$TMP/sf.tsv") - 1))" 0
    sets=$((sets + 1))
done

# --- drop: the printed count of impacts equals the rows of impacts.tsv, h0, f0, t60 and T moved ---
{
    echo "--h0 0.01 --T 0.5"; echo ""
    paste -d' ' <(pick "$N" 0.02 1 h0) <(pick "$N" 100 2000 f0) <(pick "$N" 0.2 5 t60) |
        awk '{ printf "--h0 %s --f0 %s --t60 %s --T 1\n", $1, $2, $3 }'
} >"$TMP/drop.sets"
while read -r flags; do
    d="$TMP/dr"
    # shellcheck disable=SC2086
    $BIN/drop $flags --out "$d" --sound "$d" >"$d.txt" 2>"$d.err" </dev/null || { fail "drop $flags: exit $? $(head -1 "$d.err")"; continue; }
    sets=$((sets + 1))
    n=$(sed -n 's/^\([0-9][0-9]*\) impacts\. .*/\1/p; s/^no impact.*/0/p' "$d.txt" | head -1)
    check_num "drop $flags: the printed count of impacts equals the rows of impacts.tsv" "${n:-none}" near "$(($(wc -l <"$d/impacts.tsv") - 1))" 0
done <"$TMP/drop.sets"

# --- audiorate: the reference's count of impacts and the title's f0 ---
{
    echo "--method rk4 --fs 1000 --T 0.5"; echo "--method rk4 --fs 384000 --T 0.3"
    paste -d' ' <(pick "$N" 8000 96000 fs) <(pick "$N" 150 1500 f0) |
        awk '{ printf "--method rk4 --fs %.0f --f0 %s --T 0.8\n", $1, $2 }'
} >"$TMP/ar.sets"
k=0
while read -r flags; do
    k=$((k + 1)); d="$TMP/ar$k"; plot=(); [ "$k" -le 2 ] || [ "$k" -eq 3 ] && plot=(--plot --figures "$d-fig")
    # shellcheck disable=SC2086
    $BIN/audiorate $flags --out "$d" --sound "$d" "${plot[@]}" >"$d.txt" 2>"$d.err" </dev/null
    rc=$?; [ "$rc" -le 1 ] || { fail "audiorate $flags: exit $rc $(head -1 "$d.err")"; continue; }
    sets=$((sets + 1))
    n=$(sed -n 's/^reference: .*), \([0-9][0-9]*\) impacts\.$/\1/p' "$d.txt")
    check_num "audiorate $flags: the reference's printed count of impacts equals its rows in rhythm.tsv" "${n:-none}" near \
        "$(awk -F'\t' '$1 == "0"' "$d/rhythm.tsv" | wc -l)" 0
    if [ ${#plot[@]} -gt 0 ]; then
        f0=$(tsv_get "$d/summary.tsv" key f0_hz value)
        check_text "audiorate $flags --plot: the title names the run's f0 ($f0 Hz)" "$(cat "$d-fig/audiorate.svg" 2>/dev/null)" "of the $f0 Hz oscillator"
    fi
done <"$TMP/ar.sets"

# --- work: the printed count of runs equals the rows of work.tsv ---
$BIN/work --out "$TMP/wk" >"$TMP/wk.txt"
sets=$((sets + 1))
check_num "work: the printed count of runs equals the rows of work.tsv" \
    "$(sed -n 's/.*against work (\([0-9]*\) runs.*/\1/p' "$TMP/wk.txt")" near "$(grep -c '^[a-z]' <(tail -n +2 "$TMP/wk/work.tsv" | grep -v '^method'))" 0
echo "flags_b: $sets flag sets in $((SECONDS - t0)) s (seed $SEED, $N drawn a lesson)"
