# flags_ode.sh: lessons 1, 2, 3 and 6 at flag values across their accepted ranges (issue 26, "How
# it is held"): the edges, the defaults, values near each printed threshold and a fixed-seed
# sample, checked against invariants that hold whatever the flags:
#   ivp: a run that stops says "blew up at t"; one that does not prints finite errors and as many
#        trajectory rows as the steps it counts; the figure's label carries the run's h;
#   stability: "stable" exactly when |R| <= 1 (at a point z, and over the problem's h lambda),
#        across the lecture's bounds (RK4 2.8284j and -2.7853, leapfrog 2j, Euler -2);
#   convergence: every printed order lies on >= 4 errors above the floor whose pairwise slopes
#        agree within --agree; fit_points counts the points fit_h names; T in summary.tsv is the run's;
#   oscillator: energies >= 0, every H(T)/H_exact(T) finite and > 0 (or the run "blew up at t",
#        and gains energy, or its H(T) "underflows" below the smallest double), the figure's omega0, sigma0
#        and h (summary.tsv) the run's, the locus and energy files as long as the counts printed.
# make test runs a quick sample; CLAIMS_FULL=1 a larger one. The last line says how many flag sets.
. "$(dirname "$0")/../lib.sh"

full=${CLAIMS_FULL:-0}
nrand=$([ "$full" = 1 ] && echo 40 || echo 3)
sets=0
# rnd SEED N LO HI [log]: N values drawn with a fixed seed, uniform (or log-uniform) in [LO, HI]
rnd() { awk -v s="$1" -v n="$2" -v lo="$3" -v hi="$4" -v lg="${5:-}" 'BEGIN { srand(s)
    for (i = 0; i < n; i++) { u = rand(); printf "%.6g\n", lg ? exp(log(lo) + u * (log(hi) - log(lo))) : lo + u * (hi - lo) } }'; }
bad=""
note() { bad="$bad; $(printf '%s' "$*" | tr '\n' ' ')"; }

# ---- ivp: methods x h (default, near forward Euler's edge 0.0101 s, RK4's 0.45 s, large) ----
hs="0.002 0.0101 0.0102 0.1 0.45 0.46 1 $(rnd 11 $nrand 0.001 2 log)"
methods=$([ "$full" = 1 ] && echo "euler backward-euler trapezoid heun rk4 leapfrog" || echo "euler rk4 leapfrog")
for m in $methods; do
    for h in $hs; do
        sets=$((sets + 1))
        o="$TMP/ivp_${m}_$h"
        $BIN/ivp --method $m --h $h --out "$o" >"$o.txt" 2>"$o.err"
        rc=$?
        if [ $rc -eq 1 ]; then
            grep -q "blew up at t = " "$o.err" || note "ivp $m h=$h: exit 1 without 'blew up at t'"
            continue
        fi
        [ $rc -eq 0 ] || { note "ivp $m h=$h: exit $rc"; continue; }
        steps=$(sed -n 's/.*: \([0-9]*\) steps, .*/\1/p' "$o.txt")
        rows=$(($(wc -l <"$o/trajectory.tsv") - 2))
        [ "$steps" = "$rows" ] || note "ivp $m h=$h: $steps steps printed, $rows in trajectory.tsv"
        grep -q "max |u - exact| = [0-9]" "$o.txt" || note "ivp $m h=$h: error not finite"
        head -1 "$o/trajectory.tsv" | grep -q "h = $h s" || note "ivp $m h=$h: the figure's label is not this h"
    done
done

# ---- stability: z across the lecture's bounds, and the stiff network's h across RK4's ----
zs="0,2.8284 0,2.8285 0,2 0,2.0001 -2.7852,0 -2.7854,0 -2,0 -2.0001,0 0,0 -1e6,0"
for z in $zs $(paste -d, <(rnd 21 $nrand -4 1) <(rnd 22 $nrand -3.5 3.5)); do
    sets=$((sets + 1))
    $BIN/stability --z "$z" --tsv --out "$TMP/st" >"$TMP/st.tsv"
    r=$(awk -F'\t' 'NR > 1 && $1 != "leapfrog" && (($7 <= 1) != ($8 == "yes")) { print $1 "|R|=" $7 "->" $8 }' "$TMP/st.tsv")
    [ -z "$r" ] || note "stability z=$z: verdict not |R| <= 1: $r"
done
for h in 0.00023 0.000231 0.0002308 0.0002309 0.001 $(rnd 31 $nrand 1e-5 1e-3 log); do
    sets=$((sets + 1))
    $BIN/stability --problem stiff --h $h --tsv --out "$TMP/ss" >"$TMP/ss.tsv"
    r=$(awk -F'\t' 'NR > 1 && (($5 <= 1) != ($6 == "yes")) { print $1 " max|R|=" $5 "->" $6 }' "$TMP/ss.tsv")
    [ -z "$r" ] || note "stability stiff h=$h: verdict not max |R| <= 1: $r"
done
# the lecture's bound: RK4 on the imaginary axis to 2.83 (R's own bound, 2.8284)
check_text "stability: RK4 at z = 2.8284j stable" "$($BIN/stability --z 0,2.8284 --tsv --out "$TMP/b" | awk -F'\t' '$1 == "rk4" { print $8 }')" "yes"
check_text "stability: RK4 at z = 2.8285j not" "$($BIN/stability --z 0,2.8285 --tsv --out "$TMP/b" | awk -F'\t' '$1 == "rk4" { print $8 }')" "no"

# ---- convergence: theta0 (edges, near the top), sigma0, kmin/kmax, fit, agree ----
conv_sets="--theta0=1 --theta0=3 --theta0=-3.1 --theta0=0.01|--kmin=3,--kmax=14|--kmin=0,--kmax=6,--fit=2|--sigma0=0"
[ "$full" = 1 ] && conv_sets="$conv_sets|--agree=0.05|--agree=1|--T=1|--omega0=20|--theta0=2.5,--kmax=14|--kmin=8,--kmax=19"
conv_list=$(tr '|' '\n' <<<"$conv_sets" | tr ' ' '\n')
for th in $(rnd 41 $nrand -3.1 3.1); do conv_list="$conv_list
--theta0=$th"; done
while read -r args; do
    [ -n "$args" ] || continue
    sets=$((sets + 1))
    o="$TMP/cv"
    $BIN/convergence ${args//,/ } --tsv --out "$o" >"$o.tsv" 2>"$o.err"
    rc=$?    # 1: a run failed (at h = 1 s the trapezoid's Newton on the pendulum), each named with its time
    if [ $rc -ne 0 ] && { [ $rc -ne 1 ] || [ ! -s "$o.err" ] || grep -qv ' at t = ' "$o.err"; }; then
        note "convergence $args: exit $rc $(head -c 200 "$o.err")"; continue
    fi
    agree=$(sed -n 's/.*--agree=\([0-9.]*\).*/\1/p' <<<"$args"); agree=${agree:-0.2}
    fo=$(tsv_get "$o/summary.tsv" key floor_oscillator value) fp=$(tsv_get "$o/summary.tsv" key floor_pendulum value)
    r=$(awk -F'\t' -v fo="$fo" -v fp="$fp" -v ag="$agree" 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
        { if ($3 !~ /^[0-9.-]+$/) { if ($h["fit_points"] != 0) print $1 "/" $2 ": no order, points " $h["fit_points"]; next }
          split($h["fit_h"], r, /\.\.2\^-/); a = substr(r[1], 4) + 0; b = r[2] + 0
          if (b - a + 1 != $h["fit_points"] || b - a + 1 < 2) print $1 "/" $2 ": fit_points"
          lo = 1e9; hi = -1e9; fl = ($1 == "oscillator") ? fo : fp
          for (k = a; k < b; k++) { e1 = $h["err_h=2^-" k]; e2 = $h["err_h=2^-" (k + 1)]
              if (!(e1 > fl) || !(e2 > fl)) print $1 "/" $2 ": fitted at the floor"
              s = log(e1 / e2) / log(2); if (s < lo) lo = s; if (s > hi) hi = s }
          if (hi - lo > ag + 1e-9) print $1 "/" $2 ": slopes " lo ".." hi }' "$o.tsv")
    [ -z "$r" ] || note "convergence $args: $r"
    T=$(sed -n 's/.*--T=\([0-9.]*\).*/\1/p' <<<"$args")
    [ "$(tsv_get "$o/summary.tsv" key T_s value)" = "${T:-2}" ] || note "convergence $args: summary T"
done <<<"$conv_list"

# ---- oscillator: sigma0 from tiny to near omega0 (exercise 2's 4.605), h, omega0 ----
osc_list="--sigma0=0.2|--sigma0=4.605|--sigma0=2|--sigma0=1e-6|--sigma0=6.28|--h=0.3|--h=1|--omega0=100,--sigma0=50,--h=0.001,--T=1"
[ "$full" = 1 ] && osc_list="$osc_list|--sigma0=6.2831|--T=1000,--h=0.05|--u0=0,--v0=3|--omega0=0.5,--sigma0=0.4"
osc_list=$(tr '|' '\n' <<<"$osc_list")
for s0 in $(rnd 51 $nrand 0.001 6.2 log); do osc_list="$osc_list
--sigma0=$s0"; done
while read -r args; do
    [ -n "$args" ] || continue
    sets=$((sets + 1))
    o="$TMP/os"
    $BIN/oscillator ${args//,/ } --tsv --out "$o" >"$o.tsv" 2>"$o.err" || { note "oscillator $args: exit $?"; continue; }
    r=$(awk -F'\t' 'NR > 1 && !($2 > 0 && $2 < 1e300) && $2 !~ /^(blew up at t=[0-9]|H\(T\) underflows)/ { print $1 "=" $2 }
        NR > 1 && $2 ~ /^blew up/ && $3 != "yes" { print $1 " blew up, gains_energy " $3 }' "$o.tsv")
    [ -z "$r" ] || note "oscillator $args: H_end_over_exact $r"
    nm=$(($(wc -l <"$o.tsv") - 1))
    r=$(awk -F'\t' -v nm=$nm 'NR > 1 { for (k = 2; k <= 2 + nm; k++) if ($k < 0) { print "t=" $1 " col " k; exit } }' "$o/energy.tsv")
    [ -z "$r" ] || note "oscillator $args: a negative energy at $r"
    for kv in omega0 sigma0 h; do
        want=$(sed -n "s/.*--$kv=\([^,]*\).*/\1/p" <<<"$args")
        [ -n "$want" ] || continue
        awk -v a="$(tsv_get "$o/summary.tsv" key $kv value)" -v b="$want" 'BEGIN { exit !(a == b + 0) }' \
            || note "oscillator $args: summary $kv is not the run's"
    done
    [ "$(($(wc -l <"$o/locus.tsv") - 1))" = 401 ] || note "oscillator $args: locus rows"
done <<<"$osc_list"

check_text "flag sets hold every invariant (problems: ${bad:-none})" "${bad:-none}" "none"
kind="quick sample; CLAIMS_FULL=1 runs more"
[ "$full" = 1 ] && kind="CLAIMS_FULL=1"
pass "flag sets run: $sets ($kind) in ${SECONDS}s"
