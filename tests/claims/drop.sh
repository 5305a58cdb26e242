# drop.sh: the claims of lesson 7 (bin/drop): the adaptive run of the ball on the damped oscillator.
. "$(dirname "$0")/../lib.sh"
sum() { tsv_get "$TMP/d/summary.tsv" key "$1" value; }

$BIN/drop --tsv --out "$TMP/d" --sound "$TMP/s" >"$TMP/drop.tsv" 2>"$TMP/drop.err"
check_num "drop: exit status" "$?" near 0 0
check_text "drop --tsv: header" "$(head -1 "$TMP/drop.tsv")" "$(printf 'impact\tstart_s\tend_s\tduration_ms\timpulse_Ns')"

# The ball first hits m1 near 0.17 s: at the free-fall time sqrt(2 h0/g), found by the root function.
first=$(tsv_get "$TMP/drop.tsv" impact 1 start_s)
check_num "first impact near 0.17 s" "$first" near 0.17 0.01
check_num "first impact at the free-fall time sqrt(2 h0/g), to solver accuracy (s)" \
    "$(awk -v a="$first" -v b="$(sum free_fall_s)" 'BEGIN { d = a - b; printf "%.3e", d < 0 ? -d : d }')" lt 1e-8
# A contact lasts about 0.3 ms (the first ones; late contacts of a ball nearly at rest are longer).
for i in 1 2 3; do
    check_num "contact $i lasts about 0.3 ms" "$(tsv_get "$TMP/drop.tsv" impact $i duration_ms)" near 0.3 0.05
done
# Impacts come faster as the ball loses height: more in each quarter of the run, shorter flights.
q="$(sum impacts_quarter1) $(sum impacts_quarter2) $(sum impacts_quarter3) $(sum impacts_quarter4)"
check_num "impacts per quarter of the run rise ($q)" \
    "$(echo $q | awk '{ ok = 1; for (i = 2; i <= NF; i++) if ($i <= $(i-1)) ok = 0; print ok }')" near 1 0
flights=$(awk -F'\t' 'NR > 1 && NR <= 7 { if (p != "") printf "%.6f ", $2 - p; p = $2 }' "$TMP/drop.tsv")
check_num "the first five flights shrink ($flights s)" \
    "$(echo $flights | awk '{ ok = NF == 5; for (i = 2; i <= NF; i++) if ($i >= $(i-1)) ok = 0; print ok }')" near 1 0
# Three time scales: flight ~0.1 s (the first ones 0.25 s and shrinking), period 2.5 ms, contact 0.3 ms.
check_num "period of m1 (ms)" "$(sum period_ms)" near 2.5 0.01
check_num "first flight is of order 0.1 s (s)" "$(sum first_flight_s)" near 0.2 0.1

# The impulse J: from the ball's momentum, confirmed by the trapezoid rule over 1 MHz samples.
check_num "impulse: momentum against trapezoid (relative difference)" \
    "$(awk -v a="$(sum first_impulse_Ns)" -v b="$(sum first_impulse_trapezoid_Ns)" 'BEGIN { d = (a - b) / a; printf "%.3e", d < 0 ? -d : d }')" lt 1e-4
check_num "the table's impulse is the momentum impulse" "$(tsv_get "$TMP/drop.tsv" impact 1 impulse_Ns)" near "$(sum first_impulse_Ns)" 1e-8
# The rebound: restitution e = -v_out/v_in, and the first flight it implies, 2 e sqrt(2 g h0) / g.
e=$(sum first_restitution)
check_num "first impact: restitution (-v_out / v_in)" "$e" near 0.73 0.02
check_num "first flight from the restitution, 2 e sqrt(2 g h0)/g, against the measured one (s)" \
    "$(awk -v e="$e" -v f="$(sum first_flight_s)" 'BEGIN { d = 2 * e * sqrt(2 * 9.81 * 0.15) / 9.81 - f; printf "%.3e", d < 0 ? -d : d }')" lt 5e-4
# Between impacts m1 rings as the free oscillator struck by J.
check_num "u1 after the first impact follows -J/(m1 w1) e^(-s0 t) sin(w1 t) (error of the amplitude)" "$(sum formula_error_rel)" lt 0.02
# Same pitch after every bounce: the spectrum of u1 over 2 s peaks at 400 Hz.
check_num "spectrum peak (Hz)" "$(sum spectrum_peak_Hz)" near 400 0.5
# The FFT runs on a fast length: the samples zero-padded to the next 2-3-5-smooth length.
nfft=$(sum spectrum_fft_length)
check_num "spectrum: FFT length is at least the samples" "$nfft" ge "$(sum spectrum_samples)"
check_num "spectrum: FFT length $nfft has no prime factor above 5" \
    "$(awk -v n="$nfft" 'BEGIN { while (n % 2 == 0) n /= 2; while (n % 3 == 0) n /= 3; while (n % 5 == 0) n /= 5; print n }')" near 1 0
check_num "spectrum: FFT length is the next such length (90000 for 88201 samples)" "$nfft" near 90000 0
# The solver's own solve time is reported, and is part of the run.
check_num "solve time reported (s)" "$(sum solve_s)" gt 0
# Energy never increases.
check_num "largest energy increase, relative to the initial energy" "$(sum energy_rise_rel)" lt 1e-8
check_num "energy falls: final over initial" "$(awk -v a="$(sum energy_final_J)" -v b="$(sum energy0_J)" 'BEGIN { printf "%.3e", a / b }')" lt 0.01
# The step controller: capped in free fall, shorter while ringing, shorter again in each contact.
check_num "median step in free fall is the cap (s)" "$(sum h_fall_s)" near 1e-3 1e-9
check_num "median step while ringing, below the cap (s)" "$(sum h_ring_s)" lt 1e-4
check_num "median step in a contact, below the ringing step (s)" "$(sum h_contact_s)" lt "$(sum h_ring_s)"
check_num "CVODE statistics: events found (two per impact)" "$(sum nevents)" ge $((2 * $(sum impacts)))
check_num "CVODE statistics: Jacobians evaluated" "$(sum njev)" gt 0
# The sound of u1: 2 s at 44.1 kHz, 32-bit float.
check_num "drop.wav size (bytes, 88201 float samples)" "$(stat -c %s "$TMP/s/drop.wav" 2>/dev/null || echo 0)" ge 352804

# Flags override the parameter file: a lower drop hits sooner.
$BIN/drop --h0 0.05 --T 0.5 --tsv --out "$TMP/d2" --sound "$TMP/s" >"$TMP/d2.tsv"
check_num "--h0 0.05: first impact at sqrt(2 * 0.05 / 9.81) = 0.100964 s" "$(tsv_get "$TMP/d2.tsv" impact 1 start_s)" near 0.100964 1e-6

# Bad input: one line, exit 2, no file.
# What the source leaves open, said where the student meets it: the lecture's "about 0.002" for
# sigma0/omega0 is 6 ln 10 / (1.5 s 2 pi 400 Hz) = 0.003665 from its own f0 and T60.
check_num "sigma0/omega0 from f0 and T60" "$(sum sigma0_over_omega0)" near 0.0036647 1e-6
$BIN/drop --T 0.2 --out "$TMP/d3" --sound "$TMP/s" >"$TMP/d3.txt"
check_text "drop quotes the lecture's 0.002" "$(cat "$TMP/d3.txt")" \
    'The lecture says sigma0/omega0 is "about 0.002" for f0 = 400 Hz, T60 = 1.5 s;'
check_text "drop says it is 0.00366 from the lecture's own numbers" "$(cat "$TMP/d3.txt")" \
    'those give 6 ln 10 / (T60 2 pi f0) = 0.00366'
# --method: adaptive explicit or implicit? Every solver on the same drop, side by side; GSL's explicit
# pairs find the first impact at the free-fall time too (contact roots by bisection).
$BIN/drop --method all --T 1 --out "$TMP/all" --sound "$TMP/s" >"$TMP/all.txt"
check_num "--method all: exit status" "$?" near 0 0
sv="$TMP/all/solvers.tsv"
check_num "--method all: a row per solver (CVODE BDF, Adams, four GSL pairs)" "$(($(wc -l <"$sv") - 1))" near 6 0
svc() { tsv_get "$sv" method "$1" "$2"; }
check_num "CVODE BDF: as many steps as the run's own" "$(svc cvode-bdf steps)" near "$(tsv_get "$TMP/all/summary.tsv" key steps value)" 0
check_num "CVODE BDF agrees with itself on every impact" "$(svc cvode-bdf agree)" near "$(tsv_get "$TMP/all/summary.tsv" key impacts value)" 0
for m in cvode-adams gsl-rkf45 gsl-rk8pd; do
    check_num "$m: the leading impacts agree with CVODE BDF's (the chaos horizon, at least 3)" "$(svc $m agree)" ge 3
done
check_num "GSL rkf45 evaluates no Jacobian" "$(svc gsl-rkf45 njev)" near 0 0
check_num "GSL rk8pd takes fewer steps than rkf45 (order 8 against 5)" "$(svc gsl-rk8pd steps)" lt "$(svc gsl-rkf45 steps)"
named=$(sed -n 's/.*shortest wall time: \([a-z0-9-]*\)\..*/\1/p' "$TMP/all.txt")
check_num "--method all: the solver it names as fastest ($named) has the least wall time in solvers.tsv" \
    "$(svc "$named" seconds)" near "$(awk -F'\t' 'NR > 1 && (m == "" || $6 < m) { m = $6 } END { print m }' "$sv")" 0
$BIN/drop --method gsl-rkf45 --T 0.3 --tsv --out "$TMP/g" --sound "$TMP/s" >"$TMP/g.tsv"
check_num "--method gsl-rkf45: first impact at the free-fall time (s)" \
    "$(tsv_get "$TMP/g/summary.tsv" key first_start_s value)" near "$(tsv_get "$TMP/g/summary.tsv" key free_fall_s value)" 1e-9
check_num "--method gsl-rkf45: median free-fall step is the max step (outputs do not cut steps)" \
    "$(tsv_get "$TMP/g/summary.tsv" key h_fall_s value)" near 0.001 1e-9
check_num "--method gsl-rkf45: first impulse as CVODE BDF's (N s)" "$(tsv_get "$TMP/g/summary.tsv" key first_impulse_Ns value)" \
    near "$(sum first_impulse_Ns)" 1e-6
expect_bad_input "--method nope" $BIN/drop --method nope --out "$TMP/out" --sound "$TMP/out"
expect_bad_input "--m1 0" $BIN/drop --m1 0 --out "$TMP/out" --sound "$TMP/out"
expect_bad_input "--h0 abc" $BIN/drop --h0 abc --out "$TMP/out" --sound "$TMP/out"
expect_bad_input "--T -1" $BIN/drop --T -1 --out "$TMP/out" --sound "$TMP/out"
expect_bad_input "--lambda nan" $BIN/drop --lambda nan --out "$TMP/out" --sound "$TMP/out"
expect_bad_input "--f0 0.1 --t60 0.001 (not underdamped)" $BIN/drop --f0 0.1 --t60 0.001 --out "$TMP/out" --sound "$TMP/out"
help=$($BIN/drop --help)
for f in m1 m2 h0 f0 t60 kc lambda g T rtol atol max-step sound tsv out; do
    check_text "drop --help lists --$f" "$help" "--$f"
done
check_text "drop --help shows ball.ini's m1 with its unit" "$help" "[0.1 kg]"

# Issue 26 item 15: each exercise's check command prints the answer it asks for: from h0 = 0.3 m the
# count of impacts in 2 s and the first start (free fall sqrt(2 h0 / g)), not two rows of a table.
$BIN/drop --h0 0.3 --tsv --out "$TMP/x1" --sound "$TMP/x1" >"$TMP/x1.tsv"
n03=$(($(wc -l <"$TMP/x1.tsv") - 1)); t03=$(awk -F'\t' 'NR == 2 { print $2 }' "$TMP/x1.tsv")
check_text "exercise 1's check prints the count of impacts ($n03) and the first start ($t03 s)" "$(exercise_output drop 1)" \
    "$n03 impacts. The first starts at $t03 s"
ex2=$(exercise_output drop 2)
check_num "exercise 2's check prints the start times at both tolerances side by side (3 columns)" \
    "$(awk -F'\t' 'NR == 5 { print NF }' <<<"$ex2")" near 3 0
check_num "exercise 2's check: 11 impacts shown" "$(grep -c '^[0-9]' <<<"$ex2")" near 11 0
