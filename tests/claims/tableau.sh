# tableau.sh: a student's own method as a Butcher tableau file (lessons/methods/*.tab) runs in every
# lesson that loops over the methods (--add-method) and in every one that takes --method; every
# malformed file is refused with FILE:LINE, one line, exit 2.
. "$(dirname "$0")/../lib.sh"
M=lessons/methods
add_all=""
for f in "$M"/*.tab; do add_all="$add_all --add-method $f"; done

# convergence: each example's measured slope beside its order conditions' order, on both problems.
$BIN/convergence $add_all --tsv --out "$TMP/c" >"$TMP/c.tsv"
check_num "convergence with every example: exits 0" "$?" near 0 0
row() { awk -F'\t' -v p="$1" -v m="$2" -v c="$3" 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
        $1 == p && $2 == m { print $h[c] }' "$TMP/c.tsv"; }
check_num "kutta38 on the oscillator: slope 4 (issue 15's done-when)" "$(row oscillator kutta38 slope)" near 4 0.1
for m in kutta38 ralston2 ralston3 ssprk3 sdirk3 heun-euler-pair; do
    for p in oscillator pendulum; do
        check_num "$m on the $p: measured slope within 0.1 of its order conditions' $(row $p $m order_conditions)" \
            "$(row $p $m slope)" near "$(row $p $m order_conditions)" 0.1
    done
done
# Dormand-Prince's fifth-order error constants are tiny: its errors reach round-off by 2^-10. The
# fit runs over >= 4 points whose pairwise slopes agree within 0.2 (issue 26): on the oscillator
# they dip below 5 before round-off (4.78, 4.82, 4.90), on the pendulum they come down from above.
for p in oscillator pendulum; do
    check_num "dopri54 on the $p: order conditions give 5" "$(row $p dopri54 order_conditions)" near 5 0
    check_num "dopri54 on the $p: measured slope within 0.2 of 5" "$(row $p dopri54 slope)" near 5 0.2
done
check_text "convergence: the example's errors are in the figure's data" "$(head -1 "$TMP/c/errors_oscillator.tsv")" "kutta38: slope 4.00"

# stability: the region of a tableau from its own R(z), and its bounds.
$BIN/stability --add-method $M/sdirk3.tab --add-method $M/ssprk3.tab --add-method $M/kutta38.tab \
    --add-method $M/dopri54.tab --tsv --out "$TMP/s" >"$TMP/s.tsv"
sb() { tsv_get "$TMP/s.tsv" method "$1" "$2"; }
check_text "stability: sdirk3 (A-stable) is stable on the whole negative real axis" "$(sb sdirk3 real_bound)" "inf"
check_text "stability: sdirk3 on the whole imaginary axis" "$(sb sdirk3 imag_bound)" "inf"
check_num "stability: ssprk3's imaginary bound is sqrt(3) (R the cubic Taylor polynomial)" "$(sb ssprk3 imag_bound)" near 1.7321 1e-4
check_num "stability: kutta38's imaginary bound equals RK4's (the same R)" "$(sb kutta38 imag_bound)" near "$(sb rk4 imag_bound)" 0
check_num "stability: dopri54's real bound 3.3066" "$(sb dopri54 real_bound)" near 3.3066 1e-4
check_text "stability: an explicit tableau's region is bounded" "$(sb dopri54 region_bounded)" "yes"
check_num "stability: region_sdirk3.tsv written, 171 x 171 points" "$(grep -c . "$TMP/s/region_sdirk3.tsv")" near 29241 0

# work: the Heun-Euler pair as a file runs through the same controller as the built-in one.
$BIN/work --add-method $M/heun-euler-pair.tab --out "$TMP/w" --tsv >"$TMP/w.tsv"
check_num "work --add-method heun-euler-pair.tab: exits 0" "$?" near 0 0
rec="$TMP/w/work.tsv"
check_text "work: the file's pair takes exactly the built-in pair's steps and F evaluations" \
    "$(awk -F'\t' '$1 == "heun-euler-pair-adaptive" { print $4, $5, $6, $7, $10 }' "$rec")" \
    "$(awk -F'\t' '$1 == "heun-euler" { print $4, $5, $6, $7, $10 }' "$rec")"

# stiff: an A-stable tableau stays bounded at 1 ms where an explicit one blows up.
$BIN/stiff --add-method $M/sdirk3.tab --add-method $M/ssprk3.tab --tsv --out "$TMP/st" >"$TMP/st.tsv"
check_text "stiff: sdirk3 at 1 ms is bounded" "$(tsv_get "$TMP/st.tsv" method sdirk3 status)" "bounded"
check_text "stiff: ssprk3 at 1 ms blows up" "$(tsv_get "$TMP/st.tsv" method ssprk3 status)" "blew-up"
check_num "stiff: sdirk3's fast-mode factor over one step is its R(h lambda) (real parts)" \
    "$(tsv_get "$TMP/st.tsv" method sdirk3 fast_factor_re)" near "$(tsv_get "$TMP/st.tsv" method sdirk3 R_re)" 1e-4

# oscillator: the tableau's energy row.
$BIN/oscillator --add-method $M/ralston3.tab --tsv --out "$TMP/o" >"$TMP/o.tsv"
check_text "oscillator: ralston3 has its row" "$(tsv_get "$TMP/o.tsv" method ralston3 gains_energy)" "no"
check_text "oscillator: ralston3's energy is in the figure's data" "$(head -1 "$TMP/o/energy.tsv")" "ralston3"

# audiorate: --method FILE.tab --fs 8000 writes a WAV (issue 15's done-when).
$BIN/audiorate --method $M/kutta38.tab --fs 8000 --tsv --out "$TMP/a" --sound "$TMP/snd" >"$TMP/a.tsv"
check_num "audiorate --method kutta38.tab --fs 8000: exits 0" "$?" near 0 0
check_text "audiorate: a WAV of the ball at 8 kHz" "$(head -c 4 "$TMP/snd/audiorate-kutta38-8000.wav")" "RIFF"
check_text "audiorate: kutta38's pitch error from its own R(z)" "$(tsv_get "$TMP/a.tsv" method kutta38 pitch_cents)" "-0.136"

# pluck: the modal system; on a linear problem Kutta's 3/8 rule and RK4 have one R(z), one answer.
$BIN/pluck --solve --space modal --method $M/kutta38.tab --substeps-min 4 --substeps-max 4 --tsv --out "$TMP/p" >"$TMP/p.tsv"
$BIN/pluck --solve --space modal --method rk4 --substeps-min 4 --substeps-max 4 --tsv --out "$TMP/p" >"$TMP/p4.tsv"
pe() { awk -F'\t' -v m="$2" 'NR > 1 && $3 == m && $4 == 4 { print $5 }' "$1"; }
check_num "pluck modal: kutta38 at m = 4 scores E_wave below 1e-4" "$(pe "$TMP/p.tsv" kutta38)" lt 1e-4
check_text "pluck modal: kutta38 scores exactly RK4's E_wave (the same R on a linear system)" "$(pe "$TMP/p.tsv" kutta38)" "$(pe "$TMP/p4.tsv" rk4)"

# Every bad file: one line naming FILE:LINE, exit 2, no file written.
bad() { printf "$2" >"$TMP/$1.tab"; }
bad empty ''
bad rowlen '0 |\n1/2 | 1/2 1/2 1/2\n--+--\n | 0 1\n'
bad csum '0 |\n1/3 | 1/2\n--+--\n | 0 1\n'
bad nan '0 |\n1/2 | one\n--+--\n | 0 1\n'
bad bsum '0 |\n1 | 1\n--+--\n | 1/2 1/4\n'
bad wide '0 |\n1/2 | 1/2 0 0 0\n1 | 0 1 0\n--+--\n | 1/6 2/3 1/6\n'
for c in "empty:1:empty" "rowlen:2:row 2 of A has 3 entries" "csum:2:off by -0.167" "nan:2:'one' is not a number" \
         "bsum:4:sum to 0.75, not 1" "wide:2:or 3 (all: fully implicit)"; do
    n=${c%%:*}; rest=${c#*:}; line=${rest%%:*}; why=${rest#*:}
    expect_bad_input "convergence --add-method $n.tab" $BIN/convergence --add-method "$TMP/$n.tab" --out "$TMP/out"
    check_text "$n.tab: the line names $n.tab:$line and says '$why'" "$(cat "$TMP/stderr")" "$TMP/$n.tab:$line: "
    check_text "$n.tab: the reason" "$(cat "$TMP/stderr")" "$why"
done
expect_bad_input "ivp --method with a bad file" $BIN/ivp --method "$TMP/csum.tab" --out "$TMP/out"
expect_bad_input "audiorate --method with a missing file" $BIN/audiorate --method "$TMP/none.tab" --fs 8000 --out "$TMP/out" --sound "$TMP/out"
expect_bad_input "stability --add-method naming a built-in method (heun.tab)" \
    sh -c "cp $M/heun-euler-pair.tab $TMP/heun.tab && exec $BIN/stability --add-method $TMP/heun.tab --out $TMP/out"
expect_bad_input "pluck --method FILE.tab on finite differences (tableau files run on the modal system)" \
    $BIN/pluck --solve --space fd3 --method $M/kutta38.tab --out "$TMP/out"
for p in convergence stability stiff work oscillator audiorate pluck; do
    check_text "$p --help lists --add-method" "$($BIN/$p --help)" "--add-method"
done
expect_bad_input "work --add-method a file named like a driver (heun-euler.tab)" \
    sh -c "cp $M/heun-euler-pair.tab $TMP/heun-euler.tab && exec $BIN/work --add-method $TMP/heun-euler.tab --out $TMP/out"
# A program's method set owns its tableau files (method/set.h): more than the 12 files the old
# fixed slots held load, up to 20 methods in one run (6 built-in + 14); the file after is refused.
many=""
for i in $(seq 1 14); do cp $M/kutta38.tab "$TMP/k$i.tab"; many="$many --add-method $TMP/k$i.tab"; done
$BIN/stability $many --tsv --out "$TMP/many" >"$TMP/many.tsv" 2>"$TMP/many.err"
check_num "stability with 14 tableau files (20 methods): exit status" "$?" near 0 0
check_num "stability with 14 tableau files: a row for each" "$(cut -f1 "$TMP/many.tsv" | grep -c '^k[0-9]*$')" near 14 0
cp $M/kutta38.tab "$TMP/k15.tab"
expect_bad_input "stability with a 15th tableau file (21 methods)" $BIN/stability $many --add-method "$TMP/k15.tab" --out "$TMP/out"
check_text "the 15th file: the limit named" "$(cat "$TMP/stderr")" "at most 20 methods in one run"
