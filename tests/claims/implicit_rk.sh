# implicit_rk.sh: the fully implicit Runge-Kutta methods (issue 20 item 13): Radau IIA 3-stage and
# Gauss-Legendre 2-stage from their tableau files, their stages solved together. Measured order,
# L-stability against A-stability, |R(iy)| = 1, the stiff network, and Radau IIA beside CVODE BDF.
. "$(dirname "$0")/../lib.sh"
M=lessons/methods
both="--add-method $M/radau-iia3.tab --add-method $M/gauss2.tab"

# measured convergence order: Radau IIA 5 on the nonlinear pendulum and the oscillator, Gauss 4
$BIN/convergence $both --tsv --out "$TMP/c" >"$TMP/c.tsv"
check_num "convergence with Radau IIA and Gauss: exits 0" "$?" near 0 0
row() { awk -F'\t' -v p="$1" -v m="$2" -v c="$3" 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
        $1 == p && $2 == m { print $h[c] }' "$TMP/c.tsv"; }
for p in pendulum oscillator; do
    check_num "radau-iia3 on the $p: measured order 5" "$(row $p radau-iia3 slope)" near 5 0.1
    check_num "gauss2 on the $p: measured order 4" "$(row $p gauss2 slope)" near 4 0.1
done
check_num "radau-iia3: order conditions give 5" "$(row pendulum radau-iia3 order_conditions)" near 5 0
check_num "gauss2: order conditions give 4" "$(row pendulum gauss2 order_conditions)" near 4 0

# R(z) from the tableau: Radau IIA L-stable (R -> 0 as z -> -inf, like 1/z), Gauss only A-stable
# (|R| -> 1 there); Gauss |R(iy)| = 1 on the imaginary axis (to 1e-12: test_tableau.c)
st() { $BIN/stability $both --z "$1" --tsv --out "$TMP/s" | awk -F'\t' -v m="$2" -v c="$3" \
       'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next } $1 == m { print $h[c] }'; }
r6=$(st -1e6,0 radau-iia3 abs_R_z)
r3=$(st -1e3,0 radau-iia3 abs_R_z)
check_num "radau-iia3: |R(-1e6)| ~ 0 (L-stable)" "$r6" lt 1e-5
check_num "radau-iia3: |R(-1e6)| / |R(-1e3)| ~ 1e-3 (R ~ c/z)" "$(awk -v a="$r6" -v b="$r3" 'BEGIN { print a / b }')" near 1e-3 1e-4
check_num "gauss2: |R(-1e6)| ~ 1 (A-stable, not L-stable)" "$(st -1e6,0 gauss2 abs_R_z)" near 1 1e-4
for y in 0.5 2.83 37.5 1e4; do
    check_num "gauss2: |R(${y}j)| = 1" "$(st 0,$y gauss2 abs_R_z)" near 1 1e-6
done
check_text "radau-iia3: stable on the whole negative real axis" "$(st -1,0 radau-iia3 real_bound)" "inf"
check_num "stability: region_radau-iia3.tsv written, 171 x 171 points" "$(grep -c . "$TMP/s/region_radau-iia3.tsv")" near 29241 0
check_num "stability: region_gauss2.tsv written, 171 x 171 points" "$(grep -c . "$TMP/s/region_gauss2.tsv")" near 29241 0

# the stiff network at 1 ms: RK4 blows up, the fully implicit ones stay bounded; Radau IIA erases
# the fast mode by |R(12.25j)| a step, Gauss keeps its amplitude (|R| = 1) and aliases it
$BIN/stiff --add-method $M/gauss2.tab --tsv --out "$TMP/st" >"$TMP/st.tsv"
sr() { tsv_get "$TMP/st.tsv" method "$1" "$2"; }
check_text "stiff: RK4 at 1 ms blows up" "$(awk -F'\t' '$1 == "rk4" && $2 == 0.001 { print $5 }' "$TMP/st.tsv")" "blew-up"
for m in radau-iia3 gauss2; do
    check_text "stiff: $m at 1 ms is bounded" "$(sr $m status)" "bounded"
    check_num "stiff: $m reaches T = 0.25 s" "$(sr $m t_end_s)" near 0.25 1e-9
    check_num "stiff: $m's measured fast-mode factor is its R(h lambda) (re)" "$(sr $m fast_factor_re)" near "$(sr $m R_re)" 1e-4
    check_num "stiff: $m's measured fast-mode factor is its R(h lambda) (im)" "$(sr $m fast_factor_im)" near "$(sr $m R_im)" 1e-4
done
check_text "stiff: radau-iia3 erases the fast mode" "$(sr radau-iia3 fast_mode)" "erased"
check_num "stiff: gauss2 keeps the fast mode's amplitude" "$(sr gauss2 fast_amp_ratio)" near 1 1e-6
check_text "stiff: gauss2 aliases it" "$(sr gauss2 fast_mode)" "aliased"
check_num "stiff: radau-iia3 on the linear network factors once" "$(sr radau-iia3 nfactor)" near 1 0
check_num "stiff: radau-iia3 one coupled Newton iteration a step (250)" "$(sr radau-iia3 nnewton)" near 250 0
check_num "stiff: radau-iia3 3 F a step (750)" "$(sr radau-iia3 nfev)" near 750 0
$BIN/stiff --out "$TMP/sh" >"$TMP/sh.txt"
check_text "stiff runs Radau IIA by default" "$(cat "$TMP/sh.txt")" "radau-iia3, h = 1 ms: stable"
be=$(sr backward-euler max_err_u1_m)
ra=$(sr radau-iia3 max_err_u1_m)
check_num "stiff: Radau IIA's heavy-mass error at 1 ms over backward Euler's below 1/10" "$(awk -v a="$ra" -v b="$be" 'BEGIN { print a / b }')" lt 0.1
check_text "stiff: prints the two errors as measured" "$(cat "$TMP/sh.txt")" "heavy-mass error
$(printf '%.3e' "$ra") m against $(printf '%.3e' "$be") m"
check_text "stiff: Radau IIA's error is the erased mode's" "$(cat "$TMP/sh.txt")" "error is that mode's, to "
# the printed agreement is the lesson's own measurement; it must be small
agree=$(grep -o "error is that mode's, to [0-9.e+-]* of it" "$TMP/sh.txt" | awk '{ print $6 }')
check_num "stiff: Radau IIA's heavy-mass error agrees with the fast mode's amplitude on it to 1e-3" "$agree" lt 1e-3

# Radau IIA beside CVODE BDF in bin/work: order and cost, measured from the record
$BIN/work --tsv --out "$TMP/w" >"$TMP/w.tsv"
wk() { tsv_get "$TMP/w.tsv" method "$1" "$2"; }
check_num "work: radau-iia3's slope (error against evaluations) is its order 5" "$(wk radau-iia3 slope)" near 5 0.15
check_text "work: radau-iia3 reaches the target between two runs" "$(wk radau-iia3 how)" "interpolated"
check_num "work: cvode-bdf's cost to the target measured" "$(wk cvode-bdf cost_to_target)" gt 0
rec="$TMP/w/work.tsv"
col() { awk -F'\t' -v m="$1" -v p="$2" -v c="$3" 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
        $1 == m && $4 == p { print $h[c]; exit }' "$rec"; }
check_num "work record: radau-iia3 n = 60: 180 F (3 a step)" "$(col radau-iia3 60 nfev)" near 180 0
check_num "work record: radau-iia3 n = 60: one LU for the linear run" "$(col radau-iia3 60 nfactor)" near 1 0
check_num "work record: radau-iia3 n = 60: 60 solves" "$(col radau-iia3 60 nsolve)" near 60 0
$BIN/work --out "$TMP/wh" >"$TMP/wh.txt"
check_text "work: prints Radau IIA's slope and cost beside CVODE BDF's, from the table" "$(cat "$TMP/wh.txt")" \
    "at fixed steps: slope $(wk radau-iia3 slope), to reach 1e-06 $(printf '%.4g' "$(wk radau-iia3 evals_to_target)") evals, cost $(printf '%.4g' "$(wk radau-iia3 cost_to_target)");
CVODE BDF: slope $(wk cvode-bdf slope)"
tab=$($BIN/work --tableau)
check_text "work --tableau: Radau IIA is fully implicit" "$(printf '%s\n' "$tab" | grep -A8 '^radau-iia3')" "fully implicit, all stages one Newton solve together"

# a fully implicit tableau runs wherever --method takes a file
$BIN/ivp --method $M/gauss2.tab --out "$TMP/i" >"$TMP/i.txt" 2>&1
check_num "ivp --method gauss2.tab: exits 0" "$?" near 0 0

# the exercises that use these files: their checking commands run and show the answer
ex=$($BIN/stiff --add-method lessons/methods/gauss2.tab --tsv --out "$TMP/ex1" | cut -f1,14,17)
check_text "stiff exercise 3: Radau IIA erases the fast mode (gain |R(12.25j)| = 0.2568)" "$ex" "radau-iia3	0.2568	erased"
check_text "stiff exercise 3: Gauss keeps its gain 1 and aliases it" "$ex" "gauss2	1.0000	aliased"
check_text "stiff --help: the exercise" "$($BIN/stiff --help)" "check: bin/stiff --add-method lessons/methods/gauss2.tab --tsv | cut -f1,14,17"
check_text "stability --help: the L-stability exercise" "$($BIN/stability --help)" "check: bin/stability --z -1e6,0 --add-method lessons/methods/radau-iia3.tab --add-method"
