# oscillator.sh: the claims of bin/oscillator: root locus, T60 and every method's energy.
. "$(dirname "$0")/../lib.sh"

$BIN/oscillator --out "$TMP/h" --ratio 0.5 >"$TMP/h.txt"
check_num "oscillator exits 0" "$?" near 0 0
$BIN/oscillator --tsv --out "$TMP/o" >"$TMP/o.tsv"
get() { tsv_get "$TMP/o.tsv" method "$1" "$2"; }
# Root locus: the roots meet at sigma0 = omega0, on the circle |s| = omega0 before.
check_num "roots meet at sigma0/omega0" "$(get euler meet_ratio)" near 1 0.005
check_text "below the meeting point the roots stay on |s| = omega0" "$(cat "$TMP/h.txt")" "|s|/omega0 - 1 at most 1.1e-16"
check_text "--ratio 0.5: s+ = omega0 (-0.5 + 0.866j)" "$(cat "$TMP/h.txt")" "s+ = -3.14159 +5.4414j rad/s"
awk -F'\t' 'NR > 1 && $1 > 1.005 && ($3 != 0 || $5 != 0) { bad++ } END { exit bad > 0 }' "$TMP/o/locus.tsv" \
    && pass "beyond sigma0 = omega0 both roots are real" || fail "a root off the real axis beyond sigma0 = omega0"
# T60 = 6 ln 10 / sigma0 = 69.08 s at sigma0 = 0.2, and the envelope measured from peaks agrees.
check_num "T60 = 6 ln 10 / 0.2" "$(get euler t60_s)" near 69.0776 1e-4
check_num "T60 measured from the peaks of the RK4 run" "$(get euler t60_measured_s)" near 69.0776 0.01
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
for f in locus envelope energy; do
    [ -s "$TMP/o/$f.tsv" ] && pass "writes $f.tsv" || fail "no $f.tsv"
done
expect_bad_input "--sigma0 above omega0" $BIN/oscillator --sigma0 7 --out "$TMP/out"
expect_bad_input "--ratio 3" $BIN/oscillator --ratio 3 --out "$TMP/out"
expect_bad_input "--h 0.3 (T not a multiple)" $BIN/oscillator --h 0.3 --out "$TMP/out"
help=$($BIN/oscillator --help)
for f in omega0 sigma0 h T ratio ring-h tsv out; do check_text "--help lists --$f" "$help" "--$f"; done
