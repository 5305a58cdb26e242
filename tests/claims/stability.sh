# stability.sh: the claims of bin/stability (regions and bounds from each method's R(z)).
. "$(dirname "$0")/../lib.sh"

$BIN/stability --tsv --out "$TMP/st" >"$TMP/st.tsv"
check_num "RK4 imaginary bound (lecture: 2.83)" "$(tsv_get "$TMP/st.tsv" method rk4 imag_bound)" near 2.83 0.01
check_num "forward Euler real bound (lecture: h < 2/|lambda|)" "$(tsv_get "$TMP/st.tsv" method euler real_bound)" near 2 1e-4
check_num "forward Euler imaginary bound: none (always grows)" "$(tsv_get "$TMP/st.tsv" method euler imag_bound)" near 0 0
check_num "Heun imaginary bound: none" "$(tsv_get "$TMP/st.tsv" method heun imag_bound)" near 0 0
check_num "leapfrog imaginary bound 2 (class 10: omega0 k < 2)" "$(tsv_get "$TMP/st.tsv" method leapfrog imag_bound)" near 2 1e-4
check_num "RK4 real bound 2.785" "$(tsv_get "$TMP/st.tsv" method rk4 real_bound)" near 2.785 0.001
for m in backward-euler trapezoid; do
    check_text "$m: whole negative real axis stable" "$(tsv_get "$TMP/st.tsv" method $m real_bound)" "inf"
    check_text "$m: whole imaginary axis stable" "$(tsv_get "$TMP/st.tsv" method $m imag_bound)" "inf"
done
for f in bounds eigen region_rk4 region_leapfrog; do
    [ -s "$TMP/st/$f.tsv" ] && pass "writes $f.tsv" || fail "no $f.tsv"
done

# --z: |R| at a point. z = 2.5j: RK4 stable (|R| = 0.508), forward Euler not (|R| = sqrt(7.25)).
$BIN/stability --tsv --z 0,2.5 --out "$TMP/z" >"$TMP/z.tsv"
check_num "--z 0,2.5: RK4 |R|" "$(tsv_get "$TMP/z.tsv" method rk4 abs_R_z)" near 0.508186 1e-5
check_text "--z 0,2.5: RK4 stable" "$(tsv_get "$TMP/z.tsv" method rk4 z_stable)" "yes"
check_num "--z 0,2.5: forward Euler |R| = sqrt(7.25)" "$(tsv_get "$TMP/z.tsv" method euler abs_R_z)" near 2.69258 1e-5
# the phase error of one step is arg R(z) - Im z in (-pi, pi]: RK4 at 2.5j, +0.848 rad (not -5.435)
check_num "--z 0,2.5: RK4 phase error in (-pi, pi]" "$(tsv_get "$TMP/z.tsv" method rk4 arg_R_minus_im_z)" near 0.848033 1e-5
check_text "--z 0,2.5: forward Euler unstable" "$(tsv_get "$TMP/z.tsv" method euler z_stable)" "no"

# --problem stiff: at h = 1 ms the fast mode's h lambda = 12.25j is outside RK4's region; at 0.2 ms inside.
$BIN/stability --tsv --problem stiff --h 0.001 --out "$TMP/s1" >"$TMP/s1.tsv"
$BIN/stability --tsv --problem stiff --h 0.0002 --out "$TMP/s2" >"$TMP/s2.tsv"
check_text "stiff, h = 1 ms: RK4 unstable" "$(tsv_get "$TMP/s1.tsv" method rk4 problem_stable)" "no"
check_text "stiff, h = 1 ms: trapezoid stable" "$(tsv_get "$TMP/s1.tsv" method trapezoid problem_stable)" "yes"
check_text "stiff, h = 0.2 ms: RK4 stable" "$(tsv_get "$TMP/s2.tsv" method rk4 problem_stable)" "yes"
check_num "stiff, h = 1 ms: fast h lambda (2 pi 1950 Hz x 1 ms = 12.25)" \
    "$(awk -F'\t' 'NR > 1 && $2 > m { m = $2 } END { print m }' "$TMP/s1/eigen.tsv")" near 12.25 0.01

expect_bad_input "--z without a comma" $BIN/stability --z 3 --out "$TMP/out"
expect_bad_input "--z with a non-number" $BIN/stability --z 1,abc --out "$TMP/out"
expect_bad_input "--problem nope" $BIN/stability --problem nope --out "$TMP/out"
expect_bad_input "--h 0" $BIN/stability --h 0 --out "$TMP/out"
help=$($BIN/stability --help)
for f in z problem h gd-L gd-mu gd-steps tsv out; do check_text "--help lists --$f" "$help" "--$f"; done

# Explicit regions are bounded (lecture: R is a polynomial); the implicit ones here are not.
for m in euler heun rk4 leapfrog; do
    check_text "$m: region bounded" "$(tsv_get "$TMP/st.tsv" method $m region_bounded)" "yes"
done
for m in backward-euler trapezoid; do
    check_text "$m: region unbounded" "$(tsv_get "$TMP/st.tsv" method $m region_bounded)" "no"
done
# On the imaginary axis (z = j): forward Euler grows, backward Euler decays, the trapezoid keeps
# |R| = 1 exactly but its phase is off (a pitch error): arg R(j) - 1 = 2 atan(1/2) - 1.
$BIN/stability --tsv --z 0,1 --out "$TMP/j" >"$TMP/j.tsv"
check_num "z = j: forward Euler |R| = sqrt 2 (grows)" "$(tsv_get "$TMP/j.tsv" method euler abs_R_z)" near 1.41421 1e-5
check_num "z = j: backward Euler |R| = 1/sqrt 2 (decays)" "$(tsv_get "$TMP/j.tsv" method backward-euler abs_R_z)" near 0.707107 1e-6
check_num "z = j: trapezoid |R| = 1" "$(tsv_get "$TMP/j.tsv" method trapezoid abs_R_z)" near 1 1e-12
check_num "z = j: trapezoid phase error 2 atan(1/2) - 1 rad" "$(tsv_get "$TMP/j.tsv" method trapezoid arg_R_minus_im_z)" near -0.0727048 1e-6
# The damped oscillator at h = 0.1 s: leapfrog is read at j h omega0 = 0.628j, inside its segment.
check_text "oscillator h = 0.1: leapfrog stable (j h |lambda| inside |Im z| <= 2)" "$(tsv_get "$TMP/st.tsv" method leapfrog problem_stable)" "yes"
check_text "oscillator h = 0.1: forward Euler unstable" "$(tsv_get "$TMP/st.tsv" method euler problem_stable)" "no"
# Gradient descent as forward Euler (lecture): on f = (x^2 + 10 y^2)/2 the step x - h grad f is forward
# Euler on x' = -grad f, so it converges for h < 2/L = 0.2 and diverges beyond; its contraction per
# step is max |1 - h a_i| of forward Euler's R. By hand: h = 0.1 gives f_end/f_0 = 0.5 0.9^200 / 5.5.
gd="$TMP/st/gd.tsv"
g() { awk -F'\t' -v r="$1" -v c="$2" 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next } $2 == r { print $h[c]; exit }' "$gd"; }
for r in 0.5 0.9 0.99; do check_text "gradient descent at h = $r 2/L converges" "$(g $r converges)" yes; done
for r in 1.01 1.1 1.5; do check_text "gradient descent at h = $r 2/L diverges" "$(g $r converges)" no; done
check_num "gradient descent h = 0.1: f_end/f_0 = 0.5 0.9^200 / 5.5 (by hand)" "$(g 0.5 f_end_over_f0)" near "$(awk 'BEGIN { printf "%.6e", 0.5 * 0.9^200 / 5.5 }')" 1e-14
for r in 0.5 0.99 1.01 1.5; do
    check_num "gradient descent h = $r 2/L: measured rate is forward Euler's max |R(-h a_i)|" "$(g $r measured_rate)" near "$(g $r R_rate)" 1e-6
done
$BIN/stability --gd-L 4 --gd-mu 0.5 --out "$TMP/gd4" >"$TMP/gd4.txt"
check_text "--gd-L 4: the bound is 2/L = 0.5" "$(cat "$TMP/gd4.txt")" "h <= 0.5."
expect_bad_input "--gd-mu above --gd-L" $BIN/stability --gd-mu 20 --out "$TMP/out"

# Issue 31 item 1: the lesson reads as a small program (its main a list of named steps; see lib.sh).
