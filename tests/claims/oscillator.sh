# oscillator.sh: the claims of bin/oscillator: root locus, T60 and every method's energy.
. "$(dirname "$0")/../lib.sh"

$BIN/oscillator --out "$TMP/h" --ratio 0.5 >"$TMP/h.txt"
check_num "oscillator exits 0" "$?" near 0 0
$BIN/oscillator --tsv --out "$TMP/o" >"$TMP/o.tsv"
get() { tsv_get "$TMP/o.tsv" method "$1" "$2"; }
# Root locus: the roots meet at sigma0 = omega0, on the circle |s| = omega0 before.
sum() { tsv_get "$TMP/o/summary.tsv" key "$1" value; }
check_num "roots meet at sigma0/omega0" "$(sum meet_ratio)" near 1 0.005
check_text "below the meeting point the roots stay on |s| = omega0" "$(cat "$TMP/h.txt")" "|s|/omega0 - 1 at most 1.1e-16"
check_text "--ratio 0.5: s+ = omega0 (-0.5 + 0.866j)" "$(cat "$TMP/h.txt")" "s+ = -3.14159 +5.4414j rad/s"
# --ratio writes the point the locus figure marks (s/omega0); without it the file holds no point.
check_num "--ratio 0.5: ratio.tsv im_plus = sqrt(3)/2" "$(awk -F'\t' 'NR == 2 { print $3 }' "$TMP/h/ratio.tsv")" near 0.866025 1e-6
check_num "--ratio 0.5: ratio.tsv re_minus = -0.5" "$(awk -F'\t' 'NR == 2 { print $4 }' "$TMP/h/ratio.tsv")" near -0.5 1e-9
awk -F'\t' 'NR > 1 && $1 > 1.005 && ($3 != 0 || $5 != 0) { bad++ } END { exit bad > 0 }' "$TMP/o/locus.tsv" \
    && pass "beyond sigma0 = omega0 both roots are real" || fail "a root off the real axis beyond sigma0 = omega0"
# T60 = 6 ln 10 / sigma0 = 69.08 s at sigma0 = 0.2, and the envelope measured from peaks agrees.
check_num "T60 = 6 ln 10 / 0.2" "$(sum t60_exact_s)" near 69.0776 1e-4
check_num "T60 measured from the peaks of the fine RK4 run" "$(sum t60_measured_rk4_fine_s)" near 69.0776 0.01
# Each method's row holds its own T60 at h = 0.05 s: 6 ln 10 / (-ln|R(h lambda)| / h) (independent values
# from R by hand: backward Euler 12.3173, trapezoid 70.7797, Heun 74.5889, RK4 69.0594), and the T60
# measured from the peaks of that method's own damped run agrees; forward Euler's envelope grows.
for mv in backward-euler:12.3173 trapezoid:70.7797 heun:74.5889 rk4:69.0594; do
    m=${mv%%:*} v=${mv##*:}
    check_num "$m: T60 of one step of h" "$(get $m t60_s)" near $v 1e-3
    check_num "$m: T60 from its own peaks agrees" "$(get $m t60_measured_s)" near $v 0.01
done
check_text "forward Euler: T60 of one step: grows (|R| > 1)" "$(get euler t60_s)" "grows"
check_text "forward Euler: its peaks grow" "$(get euler t60_measured_s)" "grows"
check_num "leapfrog: T60 from its peaks near the exact one" "$(get leapfrog t60_measured_s)" near 69.0776 0.1
# Energy: forward Euler gains, backward Euler loses far more than the damper, the trapezoid keeps
# the undamped oscillator's energy to round-off.
check_text "forward Euler gains energy (H(T) > H(0) despite the damper)" "$(get euler gains_energy)" "yes"
check_num "forward Euler: H(T) over the exact H(T)" "$(get euler H_end_over_exact)" gt 10
check_num "backward Euler: H(T) over the exact H(T) (loses too much)" "$(get backward-euler H_end_over_exact)" lt 0.01
for m in backward-euler trapezoid heun rk4 leapfrog; do
    check_text "$m does not end above H(0) on the damped oscillator" "$(get $m gains_energy)" "no"
done
check_num "trapezoid, undamped: largest |H - H0|/H0 (round-off)" "$(get trapezoid max_dev_undamped)" lt 1e-13
check_num "trapezoid, damped: within 10% of the exact balance" "$(get trapezoid H_end_over_exact)" near 1 0.1
# leapfrog, undamped: bounded O(h^2) error, (omega0 h)^2 / 4 = 0.0247 at h = 0.05, no drift.
check_num "leapfrog, undamped: largest |H - H0|/H0 below (omega0 h)^2/2" "$(get leapfrog max_dev_undamped)" lt 0.05
late=$(awk -F'\t' 'NR > 1 && $1 >= 5 && $14 > m { m = $14 } END { print m }' "$TMP/o/energy.tsv")
early=$(awk -F'\t' 'NR > 1 && $1 < 5 && $14 > m { m = $14 } END { print m }' "$TMP/o/energy.tsv")
check_num "leapfrog, undamped: no drift (largest error over 5-10 s vs over 0-5 s: $early)" "$late" near "$early" "$(awk -v e=$early 'BEGIN { print e / 10 }')"
check_num "RK4, undamped: energy drifts down (a slow loss)" "$(get rk4 undamped_H_end_over_H0)" lt 1
check_text "the exact balance matches H of the exact solution" "$(cat "$TMP/h.txt")" "matches H of the exact solution to 1.6e-12 H0"
check_num "no --ratio: ratio.tsv has a header and no point" "$(wc -l <"$TMP/o/ratio.tsv")" near 1 0
for f in locus envelope energy summary; do
    [ -s "$TMP/o/$f.tsv" ] && pass "writes $f.tsv" || fail "no $f.tsv"
done
expect_bad_input "--sigma0 above omega0" $BIN/oscillator --sigma0 7 --out "$TMP/out"
expect_bad_input "--ratio 3" $BIN/oscillator --ratio 3 --out "$TMP/out"
# T not a multiple of h (a class moves --h): the last step is short, the run says so and ends at T.
$BIN/oscillator --h 0.3 --out "$TMP/h3" >"$TMP/h3.txt"
check_num "--h 0.3 (T = 10 s not a multiple): exit status" "$?" near 0 0
check_text "--h 0.3: 33 steps and a short one of 0.1 s" "$(cat "$TMP/h3.txt")" "33 steps of h, the last one short, 0.1 s"
check_num "--h 0.3: energy.tsv ends at T" "$(tail -1 "$TMP/h3/energy.tsv" | cut -f1)" near 10 1e-9
check_num "--h 0.3: 36 rows (header, t = 0, 34 steps)" "$(wc -l <"$TMP/h3/energy.tsv")" near 36 0
help=$($BIN/oscillator --help)
for f in omega0 sigma0 h T ratio ring-h tsv out; do check_text "--help lists --$f" "$help" "--$f"; done
