# ivp.sh: the claims of lesson 1 (bin/ivp) and the conventions every program keeps.
. "$(dirname "$0")/../lib.sh"

# RK4 at h = 1 ms agrees with the exact solution to better than 1e-8.
$BIN/ivp --method rk4 --h 0.001 --T 2 --tsv --out "$TMP/rk4" >"$TMP/rk4.tsv"
err=$(awk -F'\t' 'NR > 1 && $4 > m { m = $4 } END { printf "%.3e", m }' "$TMP/rk4.tsv")
check_num "rk4 h=0.001 T=2: largest error at the shown times" "$err" lt 1e-8
check_num "rk4 h=0.001 T=2: F evaluations" "$(tail -1 "$TMP/rk4.tsv" | cut -f5)" near 8000 0
traj_err=$(awk -F'\t' 'NR > 1 { d = $2 - $4; if (d < 0) d = -d; if (d > m) m = d } END { printf "%.3e", m }' "$TMP/rk4/trajectory.tsv")
check_num "rk4 h=0.001 T=2: largest error over all 2001 samples" "$traj_err" lt 1e-8

# Forward Euler at h = 0.5 blows up, says so and when, exit status 1.
$BIN/ivp --method euler --h 0.5 --T 50 --out "$TMP/eu" >/dev/null 2>"$TMP/eu.err"
rc=$?
check_num "euler h=0.5 T=50: exit status" "$rc" near 1 0
check_text "euler h=0.5 T=50: reports the blow-up and its time" "$(cat "$TMP/eu.err")" "euler blew up at t = 6.5 s"

# Every method and CVODE run and agree with the exact curve at a small step.
for m in euler backward-euler trapezoid heun rk4 cvode; do
    $BIN/ivp --method $m --h 0.0005 --T 1 --tsv --out "$TMP/$m" >"$TMP/$m.tsv" 2>&1
    e=$(awk -F'\t' 'NR > 1 && $4 > m { m = $4 } END { printf "%.3e", m }' "$TMP/$m.tsv")
    check_num "$m h=0.0005 T=1: largest error" "$e" lt 1e-2
done

# Bad input: one line, exit 2, no file.
expect_bad_input "--h abc" $BIN/ivp --h abc --out "$TMP/out"
expect_bad_input "--h -1" $BIN/ivp --h -1 --out "$TMP/out"
expect_bad_input "--method nope" $BIN/ivp --method nope --out "$TMP/out"
expect_bad_input "--T nan" $BIN/ivp --T nan --out "$TMP/out"
expect_bad_input "--omega0 inf" $BIN/ivp --omega0 inf --out "$TMP/out"
expect_bad_input "unknown flag --hh" $BIN/ivp --hh 1 --out "$TMP/out"

# T not a multiple of h (a class moves --h): the last step is taken short and the run says so.
# Forward Euler, 85 steps of 0.07 s and one of 0.05 s to T = 6 s: u(6) = -141.537118909 (by hand).
$BIN/ivp --h 0.07 --out "$TMP/short" >"$TMP/short.txt"
check_num "--h 0.07 (T = 6 s not a multiple): exit status" "$?" near 0 0
check_text "--h 0.07: says the last step is short" "$(cat "$TMP/short.txt")" "85 steps of h, the last one short, 0.05 s"
check_num "--h 0.07: the run ends at T" "$(tail -1 "$TMP/short/trajectory.tsv" | cut -f1)" near 6 1e-12
check_num "--h 0.07: u(T) after the short step" "$(tail -1 "$TMP/short/trajectory.tsv" | cut -f2)" near -141.537118909 1e-6
check_text "--h 0.07: run.tsv names the method and the short step for the figure" "$(cat "$TMP/short/run.tsv")" "$(printf 'euler\tforward Euler\t0.07\t6\t86\t0.05')"
$BIN/ivp --method cvode --h 0.07 --tsv --out "$TMP/shortc" >"$TMP/shortc.tsv"
check_num "--method cvode --h 0.07: last output at T" "$(tail -1 "$TMP/shortc.tsv" | cut -f1)" near 6 1e-9
check_text "unknown flag names the nearest" "$($BIN/ivp --hh 1 2>&1)" "did you mean --h?"

# --help lists every flag with its unit and default.
help=$($BIN/ivp --help)
for f in method h T omega0 sigma0 u0 v0 tsv out; do
    check_text "--help lists --$f" "$help" "--$f"
done
check_text "--help shows the unit and default of --h" "$help" "[0.002 s]"

# Issue 26 item 14: the default tells the README's story: forward Euler stays near the exact curve
# at the default h (max error 0.081 m) and leaves it at a larger --h (71.6 m at 0.05 s).
$BIN/ivp --out "$TMP/d" >"$TMP/d.txt"
check_num "default: forward Euler's largest error below 0.1 m" "$(sed -n 's/.*max |u - exact| = \([^ ]*\) m.*/\1/p' "$TMP/d.txt")" lt 0.1
$BIN/ivp --h 0.05 --out "$TMP/d5" >"$TMP/d5.txt"
check_num "--h 0.05: forward Euler leaves the exact curve (largest error above 1 m)" "$(sed -n 's/.*max |u - exact| = \([^ ]*\) m.*/\1/p' "$TMP/d5.txt")" gt 1
# Item 15, exercise 3: its check runs the student's A. The right A gives about 1e-11 m at T = 2 s,
# a sign slip in the damper misses by far more.
e_ok=$($BIN/ivp --method rk4 --h 0.001 --T 2 --A "0 1 -39.47841760435743 -0.4" --tsv --out "$TMP/A" | tail -1 | cut -f4)
e_bad=$($BIN/ivp --method rk4 --h 0.001 --T 2 --A "0 1 -39.47841760435743 0.4" --tsv --out "$TMP/A" | tail -1 | cut -f4)
check_num "exercise 3: the right A agrees to about 1e-11 m at T = 2 s" "$e_ok" lt 1e-10
check_num "exercise 3: a wrong A (damper's sign) misses by more than 0.1 m" "$e_bad" gt 0.1
expect_bad_input "--A with three entries" $BIN/ivp --A "0 1 2" --out "$TMP/out"
# Item 8: leapfrog evaluates one F a step on the damped oscillator (the first step two): 3000
# steps, 3001 evaluations, counted where F is called (was 3 a step).
$BIN/ivp --method leapfrog --out "$TMP/lf" >"$TMP/lf.txt"
check_text "leapfrog on the damped oscillator: one F a step" "$(cat "$TMP/lf.txt")" "3000 steps, 3001 F evaluations"
check_num "leapfrog at the default h: order-2 error" "$(sed -n 's/.*max |u - exact| = \([^ ]*\) m.*/\1/p' "$TMP/lf.txt")" lt 1e-3
# Item 17: --help marks a repeatable flag once; the progress line of long work stays out of a
# file that stdout also goes to (2>&1), and still reaches stderr's own file.
check_text "--help: --add-method's (repeatable) once" "$($BIN/convergence --help | grep -c '(repeatable) (repeatable)')" "0"
"$BIN/ivp" --method rk4 --h 1e-6 --T 101 --allow-long --out "$TMP/long" >"$TMP/both.txt" 2>&1 &
pid=$!
sleep 2.6
kill -TERM $pid 2>/dev/null
wait $pid 2>/dev/null
if grep -q "ETA" "$TMP/both.txt"; then fail "progress line written into stdout's file (2>&1)"; else pass "no progress line in stdout's file (2>&1)"; fi

# Issue 31 item 1: the lesson reads as a small program (its main a list of named steps; see lib.sh).
