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
# leapfrog (one F a step, a(u, v) read at a predicted v): its T60 from the peaks errs by O(h^2):
# 3.30 s at h = 0.05, a quarter of that at h = 0.025.
$BIN/oscillator --h 0.025 --tsv --out "$TMP/o2" >"$TMP/o2.tsv"
e1=$(awk -v a="$(get leapfrog t60_measured_s)" 'BEGIN { print a - 69.0776 }')
e2=$(awk -v a="$(tsv_get "$TMP/o2.tsv" method leapfrog t60_measured_s)" 'BEGIN { print a - 69.0776 }')
check_num "leapfrog: T60 from its peaks within 5% of the exact one at h = 0.05" "$e1" near 0 3.5
check_num "leapfrog: T60 error falls 4x when h halves (order 2; $e1 s, $e2 s)" "$(awk -v a=$e1 -v b=$e2 'BEGIN { print a / b }')" near 4 0.3
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
late=$(awk -F'\t' 'NR > 1 && $1 >= 5 { a = $14 < 0 ? -$14 : $14; if (a > m) m = a } END { print m }' "$TMP/o/energy.tsv")
early=$(awk -F'\t' 'NR > 1 && $1 < 5 { a = $14 < 0 ? -$14 : $14; if (a > m) m = a } END { print m }' "$TMP/o/energy.tsv")
check_num "leapfrog, undamped: no drift (largest error over 5-10 s vs over 0-5 s: $early)" "$late" near "$early" "$(awk -v e=$early 'BEGIN { print e / 10 }')"
check_num "RK4, undamped: energy drifts down (a slow loss)" "$(get rk4 undamped_H_end_over_H0)" lt 1
check_text "the balance H0 - int 2 sigma0 u'^2 matches H of the exact solution" "$(cat "$TMP/h.txt")" "matches it to 1.6e-12 H0"
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

# Issue 26 item 1: the exact H(T) is the energy of the closed-form solution, positive however small.
# At --sigma0 4.605 (exercise 2) H(10 s) is ~1e-40 H0: every method's ratio is positive and finite,
# and H_end_exact equals the closed form computed here by hand.
for s0 in 4.605 2; do
    $BIN/oscillator --sigma0 $s0 --tsv --out "$TMP/s$s0" >"$TMP/s$s0.tsv"
    awk -F'\t' 'NR > 1 && !($2 > 0 && $2 < 1e300) { bad = bad " " $1 "=" $2 } END { if (bad) print bad; exit bad != "" }' \
        "$TMP/s$s0.tsv" && pass "--sigma0 $s0: every H_end_over_exact positive and finite" \
        || fail "--sigma0 $s0: a ratio not positive and finite"
    hx=$(awk -v s=$s0 'BEGIN { w0 = 8 * atan2(1, 1); w1 = sqrt(w0 * w0 - s * s); T = 10; e = exp(-s * T)
        u = e * (cos(w1 * T) + s * sin(w1 * T) / w1); v = -e * w0 * w0 * sin(w1 * T) / w1
        printf "%.12e", 0.5 * v * v + 0.5 * w0 * w0 * u * u }')
    got=$(tsv_get "$TMP/s$s0/summary.tsv" key H_end_exact value)
    check_num "--sigma0 $s0: exact H(10 s) = the closed form $hx" "$(awk -v a=$got -v b=$hx 'BEGIN { print a / b }')" near 1 1e-8
    check_num "--sigma0 $s0: RK4's H(T) within 3% of the exact H(T)" "$(tsv_get "$TMP/s$s0.tsv" method rk4 H_end_over_exact)" near 1 0.03
done
check_num "--sigma0 4.605: trapezoid's H(T) over the exact H(T) (its decay is 1.03x slower)" \
    "$(tsv_get "$TMP/s4.605.tsv" method trapezoid H_end_over_exact)" near 0.97 0.01
# Issue 26 items 11/12: oscillator_energy's titles come from the run (summary.tsv), the legend
# sits under the panels (below the x label), and the undamped panel draws gains solid and
# losses dashed (signed (H - H0)/H0 in energy.tsv: Heun gains, RK4 loses on the imaginary axis).
$BIN/oscillator --omega0 5 --sigma0 1.5 --h 0.02 --T 4 --out "$TMP/fig" >/dev/null
gnuplot -e "dir='$TMP/fig'; fmt='svg'; outfile='$TMP/fig/e.svg'" plots/oscillator_energy.gp 2>"$TMP/gp.err"
svg=$(cat "$TMP/fig/e.svg")
check_text "oscillator_energy title: h of the run" "$svg" "at h = 0.02 s"
check_text "oscillator_energy title: omega0 of the run" "$svg" "= 5 rad/s"
check_text "oscillator_energy title: sigma0 of the run" "$svg" "= 1.5 1/s"
svgy() { grep -B1 ">$1<" "$TMP/fig/e.svg" | grep -o 'translate([0-9.]*,[0-9.]*)' | head -1 | cut -d, -f2 | tr -d ')'; }
ylab=$(svgy "time t (s)") ykey=$(svgy "forward Euler")
check_num "oscillator_energy: the legend ($ykey) is below the x label ($ylab), off the data" "${ykey:-0}" gt "${ylab:-1e9}"
sgn() { tsv_get "$TMP/o/energy.tsv" t_s 10 "$1, undamped (H - H0)/H0"; }
check_num "energy.tsv: Heun's undamped energy gains (signed, drawn solid)" "$(sgn Heun)" gt 0
check_num "energy.tsv: RK4's undamped energy loses (signed, drawn dashed)" "$(sgn RK4)" lt 0

# Issue 31 item 1: the lesson reads as a small program (its main a list of named steps; see lib.sh).
