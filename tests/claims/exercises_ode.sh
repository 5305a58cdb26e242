# exercises_ode.sh: every exercise of lessons 1, 2, 3 and 6 (ivp, convergence, stability,
# oscillator) is run by its own check command, read from the program's --help (continuation lines
# joined, the trailing "(then ...)" / "(and ...)" note dropped), in a scratch folder holding the
# student's files (midpoint.tab, the right A), and its output must hold the answer it asks for
# (issue 26 item 15).
. "$(dirname "$0")/../lib.sh"

root=$(pwd)
ex="$TMP/ex"
mkdir -p "$ex/plots/out"
for g in plots/*.gp; do ln -s "$root/$g" "$ex/$g"; done
ln -s "$root/lessons" "$ex/lessons"
printf '# explicit midpoint\n0 |\n1/2 | 1/2\n | 0 1\n' >"$ex/midpoint.tab"
A_RIGHT="0 1 -39.47841760435743 -0.4"
bin_abs=$(cd "$BIN" && pwd)

# checks PROGRAM: one line a check command, "N<TAB>command"
checks() {
    "$BIN/$1" --help | awk '
        /^exercises/ { on = 1; next }
        !on { next }
        /^  [0-9]+\. / { n = $1 + 0; cont = 0; next }
        /^     check: / { sub(/^     check: /, ""); cmd[n] = $0; cont = 1; next }
        cont && /^            / { sub(/^ +/, " "); cmd[n] = cmd[n] $0; next }
        { cont = 0 }
        END { for (i = 1; i <= n; i++) print i "\t" cmd[i] }'
}
# run_check PROGRAM N: the output of check N, run as written (bin/ -> this build's programs)
run_check() {
    local c
    c=$(checks "$1" | awk -F'\t' -v n="$2" '$1 == n { print $2 }' | sed -E 's/ {3,}\(.*\)$//')
    c=${c//bin\//$bin_abs/}
    c=${c//a11 a12 a21 a22/$A_RIGHT}
    [ -n "$c" ] || { echo "NO CHECK"; return; }
    (cd "$ex" && eval "$c" 2>&1)
}
count() { checks "$1" | wc -l; }

check_num "ivp: 3 exercises, each with a check" "$(count ivp)" near 3 0
check_num "convergence: 3 exercises, each with a check" "$(count convergence)" near 3 0
check_num "stability: 4 exercises, each with a check" "$(count stability)" near 4 0
check_num "oscillator: 2 exercises, each with a check" "$(count oscillator)" near 2 0

# ivp 1: the error at T; halving h (0.002 -> 0.001) about halves it (order 1: 2.13, then 2.06).
e1=$(run_check ivp 1)
e2=$($BIN/ivp --method euler --h 0.001 --tsv --out "$TMP/e2" | tail -1 | cut -f4)
check_num "ivp 1: prints forward Euler's error at T ($e1 m), and halving h halves it" "$(awk -v a="$e1" -v b="$e2" 'BEGIN { print a / b }')" near 2 0.2
# ivp 2: the amplitude line: the trapezoid's amplitude over the exact one, far nearer 1 than the Eulers'.
o=$(run_check ivp 2)
check_text "ivp 2: prints the amplitude over the exact one" "$o" "amplitude sqrt(u^2 + (u'/omega0)^2) at t = 6 s"
check_num "ivp 2: the trapezoid keeps the amplitude (ratio)" "$(sed -n 's/.*(ratio \([^)]*\)).*/\1/p' <<<"$o")" near 1 0.5
# ivp 3: runs the student's A: the right one agrees to about 1e-11 m.
check_num "ivp 3: the student's A (the right one) agrees to 1e-11 m" "$(run_check ivp 3)" lt 1e-10
# convergence 1: near the top RK4 has no asymptotic range at these h.
check_text "convergence 1: RK4 on the pendulum from theta0 = 3" "$(run_check convergence 1)" "$(printf 'rk4\tnot asymptotic')"
# convergence 2: the rk4 rows with every pairwise slope and the fitted points.
o=$(run_check convergence 2)
check_text "convergence 2: the pairwise slopes down to 2^-13" "$o" "p(2^-13)"
check_num "convergence 2: both rk4 rows" "$(grep -c ' rk4 ' <<<"$o")" near 2 0
check_text "convergence 2: the pendulum's RK4 fit stops before its floor" "$o" "2^-8..2^-12"
# convergence 3: the student's midpoint.tab measures order 2.
o=$(run_check convergence 3)
check_num "convergence 3: midpoint.tab's order on the oscillator" "$(awk -F'\t' '$1 == "oscillator" && $2 == "midpoint" { print $3 }' <<<"$o")" near 2 0.05
# stability 1: midpoint's imaginary bound (0, as Heun's) and |R(0.5j)| > 1.
o=$(run_check stability 1)
check_num "stability 1: midpoint's imag_bound" "$(awk '$1 == "midpoint" { print $3; exit }' <<<"$o")" near 0 0
check_num "stability 1: midpoint's |R(0.5j)| above 1" "$(awk '$1 == "midpoint" { print $7; exit }' <<<"$o")" gt 1
# stability 2: RK4 on the stiff network is stable at 0.23 ms (its bound 0.23085 ms).
check_text "stability 2: RK4 stable at h = 0.23 ms" "$(run_check stability 2 | awk '$1 == "rk4" { print $6; exit }')" "yes"
check_text "stability 2: and not at 0.24 ms" "$($BIN/stability --problem stiff --h 0.00024 --out "$TMP/s24" | awk '$1 == "rk4" { print $6; exit }')" "no"
# stability 3: RK4 cannot take z = -2.79 (its real bound 2.7853).
check_text "stability 3: RK4 unstable at z = -2.79" "$(run_check stability 3 | awk '$1 == "rk4" { print $8; exit }')" "no"
# stability 4: Radau IIA sends z = -1e6 to about 0, Gauss to about -1.
o=$(run_check stability 4)
check_num "stability 4: Radau IIA |R(-1e6)| near 0" "$(awk '$1 == "radau-iia3" { print $7; exit }' <<<"$o")" lt 1e-5
check_num "stability 4: Gauss |R(-1e6)| near 1" "$(awk '$1 == "gauss2" { print $7; exit }' <<<"$o")" near 1 1e-4
# oscillator 1: at sigma0 = omega0 the two roots meet at -omega0.
check_text "oscillator 1: the roots at sigma0/omega0 = 1" "$(run_check oscillator 1)" "at sigma0/omega0 = 1: s+ = -6.28319 +0j rad/s, s- = -6.28319"
# oscillator 2: T60 = 3.0001 s at sigma0 = 4.605, measured from the peaks as well, and every
# energy ratio of that run positive.
o=$(run_check oscillator 2)
check_text "oscillator 2: T60 = 6 ln 10 / sigma0" "$o" "T60 = 6 ln 10 / sigma0 = 3.0001 s"
check_num "oscillator 2: every H_end_over_exact positive" \
    "$(awk '$1 == "method" { t = 1; next } t && NF == 0 { t = 0 } t && $2 ~ /^-/ { n++ } END { print n + 0 }' <<<"$o")" near 0 0
check_num "oscillator 2: the table's rows read" "$(awk '$1 == "method" { t = 1; next } t && NF == 0 { t = 0 } t { n++ } END { print n + 0 }' <<<"$o")" ge 6
