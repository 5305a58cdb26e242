# work.sh: the claims of bin/work: accuracy per evaluation, from the one record of every run.
. "$(dirname "$0")/../lib.sh"

$BIN/work --tsv --out "$TMP/w" >"$TMP/w.tsv"
check_num "work exits 0" "$?" near 0 0
ev() { tsv_get "$TMP/w.tsv" method "$1" evals_to_target; }
# RK4 needs far fewer evaluations than Heun, Heun far fewer than forward Euler (lecture's figure).
check_num "RK4 reaches 1e-6 with under 5000 evaluations" "$(ev rk4)" lt 5000
check_num "Heun needs over 10x RK4's evaluations for 1e-6" "$(ev heun)" gt "$(awk -v r=$(ev rk4) 'BEGIN { print 10 * r }')"
check_num "forward Euler needs over 100x Heun's evaluations for 1e-6" "$(ev euler)" gt "$(awk -v r=$(ev heun) 'BEGIN { print 100 * r }')"
check_text "RK4's count is interpolated between two runs" "$(tsv_get "$TMP/w.tsv" method rk4 how)" "interpolated"
check_text "forward Euler's is extrapolated (not reached in 40000 steps)" "$(tsv_get "$TMP/w.tsv" method euler how)" "extrapolated"
# The adaptive high-order drivers beat fixed-step RK4.
for d in gsl-rkf45 cvode-adams cvode-bdf; do
    check_num "$d reaches 1e-6 with fewer evaluations than fixed-step RK4 ($(ev rk4))" "$(ev $d)" lt "$(ev rk4)"
    check_text "$d's count is interpolated between two of its runs" "$(tsv_get "$TMP/w.tsv" method $d how)" "interpolated"
done
check_text "the Heun-Euler pair reaches 1e-6" "$(tsv_get "$TMP/w.tsv" method heun-euler how)" "interpolated"
# Dormand-Prince 5(4), the lecture's solve_ivp default, from lessons/methods/dopri54.tab through src/drive/adaptive.c.
check_num "dopri54-adaptive reaches 1e-6 with fewer evaluations than fixed-step RK4 ($(ev rk4))" "$(ev dopri54-adaptive)" lt "$(ev rk4)"
check_text "dopri54-adaptive's count is interpolated between two of its runs" "$(tsv_get "$TMP/w.tsv" method dopri54-adaptive how)" "interpolated"
# The record: every run, every count.
rec="$TMP/w/work.tsv"
check_num "record: 8 methods (dopri54 and radau-iia3 too) x 12 fixed runs + 7 Heun-Euler + 4 x 10 adaptive runs" "$(grep -c -E '	(fixed|adaptive)	' "$rec")" near 143 0
check_text "record header" "$(head -1 "$rec")" "method	label	kind	steps_or_tol	steps	rejected	nfev	njev	evaluations	error"
check_num "record: RK4 at n = 60 made 240 F evaluations" "$(awk -F'\t' '$1 == "rk4" && $4 == 60 { print $7 }' "$rec")" near 240 0
check_num "record: the implicit runs count their Jacobians" "$(awk -F'\t' '$1 == "backward-euler" && $4 == 60 { print $8 }' "$rec")" ge 1
check_num "record: CVODE BDF counts Jacobians" "$(awk -F'\t' '$1 == "cvode-bdf" { s += $8 } END { print s }' "$rec")" gt 0
check_num "record: the Heun-Euler pair's F count is 2 per accepted step + 1 per rejection" \
    "$(awk -F'\t' '$1 == "heun-euler" && $7 != 2 * $5 + $6 { bad++ } END { print bad + 0 }' "$rec")" near 0 0
# The cost model counts what an implicit step does besides F: Jacobians (as d F), LU factorizations
# (d/3 F) and solves (1 F each), d = 2. Backward Euler at n = 60 on this linear problem: 60 F, 1 J,
# 1 LU (factored once), 60 solves: cost = 60 + 2 + 2/3 + 60 = 122.667 (by hand), twice its F count.
col() { awk -F'\t' -v m="$1" -v p="$2" -v c="$3" 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
        $1 == m && $4 == p { print $h[c]; exit }' "$rec"; }
check_num "record: backward Euler n = 60 factors once" "$(col backward-euler 60 nfactor)" near 1 0
check_num "record: backward Euler n = 60 solves once a step" "$(col backward-euler 60 nsolve)" near 60 0
check_num "record: backward Euler n = 60 cost by the model" "$(col backward-euler 60 cost)" near 122.667 0.001
check_num "record: RK4 n = 60 costs its 240 F alone" "$(col rk4 60 cost)" near 240 0
check_num "record: CVODE BDF factors (its linear setups)" "$(awk -F'\t' '$1 == "cvode-bdf" { s += $11 } END { print s }' "$rec")" gt 0
check_num "record: CVODE BDF at 1e-6 costs more than its evaluations" "$(col cvode-bdf 1e-06 cost)" gt "$(col cvode-bdf 1e-06 evaluations)"
check_num "record: every run timed (no zero or missing wall time)" \
    "$(awk -F'\t' 'NR > 1 && NF > 1 && !($14 > 0) { bad++ } END { print bad + 0 }' "$rec")" near 0 0
check_num "CVODE BDF: cost to reach 1e-6 above its evaluations" "$(tsv_get "$TMP/w.tsv" method cvode-bdf cost_to_target)" gt "$(ev cvode-bdf)"
check_num "RK4: cost to reach 1e-6 equals its evaluations" "$(tsv_get "$TMP/w.tsv" method rk4 cost_to_target)" near "$(ev rk4)" 0
check_num "RK4: wall time to reach 1e-6 measured (s)" "$(tsv_get "$TMP/w.tsv" method rk4 seconds_to_target)" gt 0
check_text "the cost model is stated for the figure" "$(cat "$TMP/w/target.tsv")" "F + 2 J + 0.667 LU + solves, in F-equivalents"
check_num "record: Dormand-Prince's F count is 6 per accepted step + 6 per rejection + 1 (first same as last)" \
    "$(awk -F'\t' '$1 == "dopri54-adaptive" && $7 != 6 * ($5 + $6) + 1 { bad++ } END { print bad + 0 }' "$rec")" near 0 0
# --tableau: every method's tableau from its table entry, the implicit ones included (issue 20 item 16).
tab=$($BIN/work --tableau)
check_num "--tableau exits 0 (every tableau checks out, its order conditions give the table's order)" "$?" near 0 0
check_num "--tableau: four explicit tableaux (Euler, Heun, RK4, Dormand-Prince), every arrow right or down" "$(printf '%s\n' "$tab" | grep -c 'right or down (A strictly lower triangular): explicit; c_i = sum_j a_ij: yes; sum b = 1$')" near 4 0
check_num "--tableau: two diagonally implicit ones (backward Euler, trapezoid)" "$(printf '%s\n' "$tab" | grep -c 'diagonally implicit, each such stage one Newton solve; c_i = sum_j a_ij: yes; sum b = 1$')" near 2 0
check_text "--tableau: RK4's weights 1/6 1/3 1/3 1/6" "$tab" "|   0.1667   0.3333   0.3333   0.1667"
check_text "--tableau: backward Euler is [1 | 1]" "$(printf '%s\n' "$tab" | grep -A3 '^backward Euler')" "    1.0000 |   1.0000
  ---------+---------
           |   1.0000"
check_text "--tableau: the trapezoid is Lobatto IIIA (0 | 0 0; 1 | 1/2 1/2; b = 1/2 1/2)" "$(printf '%s\n' "$tab" | grep -A5 '^trapezoid')" "    0.0000 |   0.0000   0.0000
    1.0000 |   0.5000   0.5000
  ---------+------------------
           |   0.5000   0.5000"
check_text "--tableau: Dormand-Prince's conditions give order 5, its b-hat order 4" "$(printf '%s\n' "$tab" | grep -A14 '^dopri54')" "order 5 or more
  embedded weights b-hat (second row): order 4"
check_text "--tableau: leapfrog has none (partitioned)" "$tab" "no single Butcher tableau: a partitioned method"
expect_bad_input "--nmin above --nmax" $BIN/work --nmin 500 --nmax 100 --out "$TMP/out"
expect_bad_input "--target 2" $BIN/work --target 2 --out "$TMP/out"
expect_bad_input "--tol-tight looser than --tol-loose" $BIN/work --tol-tight 1e-2 --tol-loose 1e-4 --out "$TMP/out"
help=$($BIN/work --help)
for f in tableau add-method T target nmin nmax tol-loose tol-tight tol-tight-heun tsv out; do check_text "--help lists --$f" "$help" "--$f"; done
# The steps of the adaptive runs at rtol = atol = 1e-6 (the figure work_steps): they add up to T.
st="$TMP/w/steps.tsv"
for d in heun-euler cvode-adams cvode-bdf; do
    check_num "$d at 1e-6: its steps add up to T = 5 s" "$(awk -F'\t' -v d=$d '$1 == d { s += $3 } END { printf "%.9f", s }' "$st")" near 5 1e-6
done
check_num "heun-euler at 1e-6: as many steps in steps.tsv as accepted in the record" \
    "$(awk -F'\t' '$1 == "heun-euler" { n++ } END { print n }' "$st")" near \
    "$(awk -F'\t' '$1 == "heun-euler" && $4 == 1e-06 { print $5 }' "$rec")" 0

# Issue 26 item 15: each exercise's check command prints the answer it asks for.
ex1=$(exercise_output work 1)
check_text "exercise 1's check prints each method's F evaluations to 1e-8 (RK4's row)" "$ex1" "evals_to_target"
check_num "exercise 1's check: a row for every method of the work table" "$(grep -cE '^ *(rk4|dopri54|radau-iia3|cvode-bdf) ' <<<"$ex1")" ge 4
check_text "exercise 2's check prints RK4's weights 1/6, 1/3, 1/3, 1/6" "$(exercise_output work 2)" "|   0.1667   0.3333   0.3333   0.1667"
