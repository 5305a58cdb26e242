# stiff.sh: the claims of bin/stiff: the two modes, RK4 at 1 ms blows up and says when, the other
# runs stay bounded, and what each does to the fast mode (measured on the light mass).
. "$(dirname "$0")/../lib.sh"

$BIN/stiff --out "$TMP/h" >"$TMP/h.txt"
check_num "stiff exits 0 (the blow-up is the lesson's result)" "$?" near 0 0
$BIN/stiff --tsv --out "$TMP/s" >"$TMP/s.tsv"
row() { awk -F'\t' -v m="$1" -v h="$2" -v c="$3" 'NR == 1 { for (i = 1; i <= NF; i++) k[$i] = i; next }
        $1 == m && $2 == h { print $k[c] }' "$TMP/s.tsv"; }
check_num "slow mode (lecture: 10.5 Hz)" "$(row rk4 0.001 slow_hz)" near 10.5 0.01
check_num "fast mode (lecture: 1950 Hz)" "$(row rk4 0.001 fast_hz)" near 1950 0.5
check_text "human output prints both modes" "$(cat "$TMP/h.txt")" "modes (GSL gensymmv): 10.5010 Hz and 1950.03 Hz"
check_text "RK4 at 1 ms blows up" "$(row rk4 0.001 status)" "blew-up"
check_num "RK4 at 1 ms: blows up within the first 10 ms" "$(row rk4 0.001 t_end_s)" le 0.01
check_text "RK4 at 1 ms: says which method and when" "$(cat "$TMP/h.txt")" "rk4 blew up at t = 0.002 s"
for mh in rk4:0.0002 backward-euler:0.001 trapezoid:0.001; do
    m=${mh%%:*} h=${mh##*:}
    check_text "$m at $h s stays bounded" "$(row $m $h status)" "bounded"
    check_num "$m at $h s reaches T = 0.25 s" "$(row $m $h t_end_s)" near 0.25 1e-9
done
# Backward Euler erases the fast mode: its amplitude on the light mass ends at round-off.
check_num "backward Euler 1 ms: fast-mode amplitude at 0.25 s over exact" "$(row backward-euler 0.001 fast_amp_ratio)" lt 1e-12
check_num "backward Euler 1 ms: fast mode's factor per step, |.| = 1/|1 - 12.25j| = 0.081" \
    "$(awk -v a=$(row backward-euler 0.001 fast_factor_re) -v b=$(row backward-euler 0.001 fast_factor_im) 'BEGIN { printf "%.4f", sqrt(a*a + b*b) }')" near 0.0814 0.001
# The trapezoid keeps it, as a zigzag: amplitude unchanged, factor per step near -1.
check_num "trapezoid 1 ms: fast-mode amplitude at 0.25 s over exact" "$(row trapezoid 0.001 fast_amp_ratio)" near 1 1e-6
check_num "trapezoid 1 ms: fast mode's factor per step, real part (R -> -1: zigzag)" "$(row trapezoid 0.001 fast_factor_re)" lt -0.9
# The measured factor is R(h lambda) of the method table.
for mh in rk4:0.0002 backward-euler:0.001 trapezoid:0.001; do
    m=${mh%%:*} h=${mh##*:}
    check_num "$m at $h: measured factor (re) equals R(h lambda)" "$(row $m $h fast_factor_re)" near "$(row $m $h R_re)" 1e-4
done
# RK4 at 0.2 ms is stable but damps the fast mode too (|R(2.45j)| = 0.5): a finding beyond the lecture.
check_num "RK4 0.2 ms: fast mode's factor per step, real part" "$(row rk4 0.0002 fast_factor_re)" near -0.5 0.01
check_num "RK4 0.2 ms: heavy-mass error below 1e-3 m" "$(row rk4 0.0002 max_err_u1_m)" lt 1e-3
check_num "trapezoid 1 ms: heavy-mass error below 1e-3 m" "$(row trapezoid 0.001 max_err_u1_m)" lt 1e-3
check_num "backward Euler 1 ms: heavy-mass error above 1e-3 m (it damps the slow mode too)" "$(row backward-euler 0.001 max_err_u1_m)" gt 1e-3
for f in exact run_rk4_big run_rk4_small run_backward-euler_big run_trapezoid_big window; do
    [ -s "$TMP/s/$f.tsv" ] && pass "writes $f.tsv" || fail "no $f.tsv"
done
# A parameter from the command line overrides the file: a stiffer k2 raises the fast mode.
$BIN/stiff --tsv --k2 5.9368e6 --out "$TMP/k" >"$TMP/k.tsv"
check_num "--k2 4x: fast mode near 2 x 1950 Hz" "$(awk -F'\t' 'NR == 2 { print $4 }' "$TMP/k.tsv")" near 3900 5
expect_bad_input "--m1 0" $BIN/stiff --m1 0 --out "$TMP/out"
expect_bad_input "--h-big x" $BIN/stiff --h-big x --out "$TMP/out"
# Stable is not accurate: RK4 at 0.2 ms (h lambda = 2.45j, |R| = 0.50 a step) erases the 1950 Hz mode as
# completely as backward Euler; the trapezoid keeps |R| = 1 but turns it 2 atan(6.125) = 2.818 rad a step
# (by hand), so its zigzag is the mode seen at 2.818 / (2 pi 1 ms) = 448.5 Hz.
check_num "RK4 0.2 ms: fast mode's gain per step |R(2.45j)| = 0.500" "$(row rk4 0.0002 fast_gain)" near 0.500 0.001
check_num "RK4 0.2 ms: fast mode erased (amplitude at T over exact)" "$(row rk4 0.0002 fast_amp_ratio)" lt 1e-12
check_text "RK4 0.2 ms: verdict erased" "$(row rk4 0.0002 fast_mode)" "erased"
check_text "backward Euler 1 ms: verdict erased" "$(row backward-euler 0.001 fast_mode)" "erased"
check_num "trapezoid 1 ms: fast mode turns 2 atan(6.125) rad a step" "$(row trapezoid 0.001 fast_turn_rad)" near 2.8180 0.001
check_num "trapezoid 1 ms: zigzag seen at 448.5 Hz" "$(row trapezoid 0.001 fast_seen_hz)" near 448.5 0.5
check_text "trapezoid 1 ms: verdict aliased" "$(row trapezoid 0.001 fast_mode)" "aliased"
check_text "prints: stable is not accurate" "$(cat "$TMP/h.txt")" "Stable is not accurate"
check_text "prints RK4 0.2 ms erasing the mode" "$(cat "$TMP/h.txt")" "a step multiplies the 1950 Hz mode by 0.500"
check_text "prints the trapezoid's alias" "$(cat "$TMP/h.txt")" "aliased: it is seen at 448.5 Hz"
# --method: an adaptive solver on the same network. The fast mode is in the motion, so GSL's rkf45 at
# rtol 1e-6 follows it with many steps a fast period and thousands a slow one, and stays accurate.
$BIN/stiff --method gsl-rkf45 --out "$TMP/m" >"$TMP/m.txt"
ad() { tsv_get "$TMP/m/adaptive.tsv" method gsl-rkf45 "$1"; }
check_num "--method gsl-rkf45: exit status" "$?" near 0 0
check_num "gsl-rkf45: more than 5 steps a fast period" "$(ad steps_per_fast_period)" gt 5
check_num "gsl-rkf45: more than 1000 steps a slow period (the crawl)" "$(ad steps_per_slow_period)" gt 1000
check_num "gsl-rkf45: heavy-mass error below 1e-5 m" "$(ad max_err_u1_m)" lt 1e-5
check_num "gsl-rkf45: no Jacobian" "$(ad njev)" near 0 0
check_text "--method: says the fast mode is in the motion" "$(cat "$TMP/m.txt")" "The release puts the fast mode into the motion (0.00989 m on the light mass"
$BIN/stiff --method cvode-bdf --tsv --out "$TMP/b" >/dev/null
check_num "cvode-bdf: Jacobians evaluated" "$(tsv_get "$TMP/b/adaptive.tsv" method cvode-bdf njev)" gt 0
check_num "cvode-bdf at rtol 1e-6 follows the fast mode too (steps a fast period)" "$(tsv_get "$TMP/b/adaptive.tsv" method cvode-bdf steps_per_fast_period)" gt 5
expect_bad_input "--method nope" $BIN/stiff --method nope --out "$TMP/out"
# T not a multiple of a step (a class moves --h-big): the last step is short and the run says so.
$BIN/stiff --h-big 0.0007 --tsv --out "$TMP/s7" >"$TMP/s7.tsv"
check_num "--h-big 0.0007: exit status" "$?" near 0 0
check_num "--h-big 0.0007: the trapezoid reaches T = 0.25 s" "$(awk -F'\t' '$1 == "trapezoid" { print $6 }' "$TMP/s7.tsv")" near 0.25 1e-12
check_num "--h-big 0.0007: 357 steps and a short one: 716 F evaluations of the trapezoid" \
    "$(tsv_get "$TMP/s7.tsv" method trapezoid nfev)" near 716 0
check_text "--h-big 0.0007: says the last step is short" "$($BIN/stiff --h-big 0.0007 --out "$TMP/s7")" \
    "357 steps of h, the last one short, 0.0001 s"
check_text "--help shows the file's k2" "$($BIN/stiff --help)" "1.4842e+06"

# Issue 26 item 2: stable or unstable from max |R(h lambda)| over the network's eigenvalues, not from
# whether the run crossed the blow-up bound. At 0.231 ms RK4 is just past its bound 2.8284 /
# (2 pi 1950.03 Hz) = 0.23085 ms: unstable although the run stays below the bound to T.
$BIN/stiff --h-big 0.000231 --out "$TMP/b1" >"$TMP/b1.txt"
$BIN/stiff --h-big 0.000231 --tsv --out "$TMP/b1" >"$TMP/b1.tsv"
check_text "--h-big 0.000231: RK4 unstable (|R(h lambda)| = 1.0047 > 1)" "$(tsv_get "$TMP/b1.tsv" h_s 0.000231 stable)" "unstable"
check_num "--h-big 0.000231: RK4's max |R(h lambda)|" "$(tsv_get "$TMP/b1.tsv" h_s 0.000231 max_abs_R_hlambda)" near 1.00475 0.0001
check_text "--h-big 0.000231: says RK4 unstable, with its growth a second" "$(cat "$TMP/b1.txt")" \
    "RK4, h = 0.231 ms: unstable (max |R(h lambda)| = 1.005 > 1: 1950 Hz mode grows x10^8.903 per s)"
check_text "prints RK4's bound 2.8284 / (2 pi 1950.03 Hz) = 0.23085 ms" "$(cat "$TMP/b1.txt")" \
    "RK4 stable bound: h <= 2.8284 / (2 pi 1950.03 Hz) = 0.23085 ms"
check_text "exercise 1's check prints the bound" "$(exercise_output stiff 1)" "RK4 stable bound: h <= 2.8284 / (2 pi 1950.03 Hz) = 0.23085 ms"
check_text "exercise 1's check prints RK4's verdict at 0.25 ms" "$(exercise_output stiff 1)" "unstable"
check_text "exercise 2's check prints backward Euler's factor at 0.125 ms (|R| = 0.547)" "$(exercise_output stiff 2)" \
    "$(printf 'backward-euler\t0.000125\t0.2989\t0.4578')"
check_text "exercise 3's check prints gauss2's fast mode (kept: |R| = 1)" "$(exercise_output stiff 3)" "$(printf 'gauss2\t1.0000\t')"
check_text "exercise 3's check prints Radau's fast mode (erased)" "$(exercise_output stiff 3)" "$(printf 'radau-iia3\t0.2568\terased')"
$BIN/stiff --h-big 0.00023 --tsv --out "$TMP/b2" >"$TMP/b2.tsv"
check_text "--h-big 0.00023 (just inside the bound): RK4 stable" "$(tsv_get "$TMP/b2.tsv" h_s 0.00023 stable)" "stable"
# Item 19: the human table fits 100 columns; --wide and --tsv give every column.
check_num "the human output's widest line (columns)" "$(awk '{ n = length($0) > n ? length($0) : n } END { print n }' "$TMP/b1.txt")" le 100
check_num "--wide: every TSV column in the human table" "$($BIN/stiff --wide --out "$TMP/w" | awk '/^ +method/ { print NF }')" \
    near "$(head -1 "$TMP/s.tsv" | awk -F'\t' '{ print NF }')" 0
# Item 11: the figure's title from the run: --k2 3e5 moves the modes to 10.49 and 879.2 Hz.
$BIN/stiff --k2 3e5 --plot --out "$TMP/k2" --figures "$TMP/k2f" >/dev/null
check_text "--k2 3e5: the figure's title names the run's modes" "$(cat "$TMP/k2f/stiff.svg")" "modes 10.49 Hz and 879.2 Hz"
# Item 10: a figure draws the files of the run that made it: a plain run after an --add-method run
# does not draw the added method's old file.
$BIN/stiff --add-method lessons/methods/gauss2.tab --out "$TMP/g" >/dev/null
$BIN/stiff --plot --out "$TMP/g" --figures "$TMP/gf" >/dev/null
check_num "plain --plot after --add-method gauss2: gauss2 not drawn" "$(grep -c 'gauss' "$TMP/gf/stiff.svg")" near 0 0
check_text "the manifest lists this run's files" "$(cat "$TMP/g/manifest.txt")" "run_radau-iia3_big.tsv"
