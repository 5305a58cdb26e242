# bow.sh: the claims of lesson 10 (bin/bow), the bowed string, and its conventions.
. "$(dirname "$0")/../lib.sh"

# The default run: the article's Figure 6 stroke (x_b/L = 0.075, f_b = 2.15 N, 0.5 m/s^2 for
# 200 ms, then 0.1 m/s), the figures' data and the convergence study.
$BIN/bow --tsv --out "$TMP/bow" --wav "$TMP/bow/bow.wav" >"$TMP/bow.tsv" 2>"$TMP/bow.err"
check_num "default run: exit status" "$?" near 0 0
check_text "--tsv: header row with the summary columns" "$(head -1 "$TMP/bow.tsv")" \
    "$(printf 'f0_hz\tslips_per_period\tregime\tpeak_temp_c\tz_max_over_bound\tenergy_residual\trealtime_factor')"
check_num "--tsv: one header row and one data row" "$(wc -l <"$TMP/bow.tsv")" near 2 0
# col FILE NAME: the value of column NAME in the data row
col() { awk -F'\t' -v c="$2" 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i } NR == 2 { print $h[c] }' "$1"; }
get() { col "$TMP/bow.tsv" "$1"; }
check_num "Figure 6: fundamental within 3% of 98 Hz" "$(get f0_hz)" near 98 2.94
check_num "Figure 6: one slip per period (Helmholtz motion)" "$(get slips_per_period)" near 1 0.05
check_text "Figure 6: regime (src/analysis/regime.h's classifier)" "$(get regime)" "helmholtz"
check_num "Figure 6: about L/x_b = 13.3 Schelleng ripples per period" "$(get ripples_per_period)" near 13.3 1.5
check_num "Figure 6: largest |z| below the bound mu_s/sigma0 (18)" "$(get z_max_over_bound)" lt 1
check_num "Figure 6: contact temperature never below ambient (tau >= 0)" "$(get tau_min_k)" ge 0
check_num "Figure 6: peak contact temperature, degC" "$(get peak_temp_c)" near 55.5 3
check_num "Figure 6: energy residual of the fixed-step scheme (O(dt^2))" "$(get energy_residual)" lt 1e-4
check_text "Figure 6f: the f/f_b - v loop runs clockwise" "$(get loop_f_v)" "clockwise"
check_num "Figure 6f: (exactly, not anticlockwise)" "$(get loop_f_v | grep -c anti)" near 0 0
check_text "Figure 6g: the tau - v loop runs anticlockwise" "$(get loop_tau_v)" "anticlockwise"
check_num "Figure 6: first slip during the ramp, s" "$(get first_slip_s)" near 0.057 0.005
# the ramp follows the quasi-static line (89) up to the first slip, a little below it (torsion)
ratio=$(awk -F'\t' 'NR > 1 && $1 > 0.0399 && $1 < 0.0401 { printf "%.4f", $3 / $4; exit }' "$TMP/bow/stroke.tsv")
check_num "Figure 6: bridge force at 40 ms over T v_b t / (2 x_b) (89)" "$ratio" near 0.93 0.04
for f in stroke zoom steady modes fig4_v fig4_y fig7 fig7_drops pluck convergence conv_traj; do
    check_num "data file $f.tsv has rows" "$(wc -l <"$TMP/bow/$f.tsv")" gt 2
done
check_num "Figure 7: transients that slipped (of 9)" \
    "$(awk -F'\t' 'NR == 1 { next } { for (c = 2; c <= NF; c++) if (!d[c] && $c < m[c] - 0.5) d[c] = 1; for (c = 2; c <= NF; c++) if ($c > m[c]) m[c] = $c } END { n = 0; for (c in d) n++; print n }' "$TMP/bow/fig7.tsv")" near 9 0
d7="$TMP/bow/fig7_drops.tsv"
check_num "Figure 7: first slips found (of 9)" "$(awk -F'\t' 'NR > 1 && $3 > 0' "$d7" | wc -l)" near 9 0
check_num "Figure 7: slowest first-slip fall, N/ms (the ramp before it rises at about 0.13 N/ms)" \
    "$(awk -F'\t' 'NR > 1 { if (m == "" || $5 < m) m = $5 } END { print m }' "$d7")" gt 3
check_num "Figure 7: more heat conduction b_tau delays the first slip for every mu_d (violations)" \
    "$(awk -F'\t' 'NR > 1 { t[$1 "," $2] = $3; b[$1] = 1; d[$2] = 1 }
        END { n = 0; for (m in d) { if (!(t["0.5," m] < t["1," m] && t["1," m] < t["2," m])) n++ } print n }' "$d7")" near 0 0
# The nine Figure 7 runs are independent tasks on sweep.h's workers: --jobs 4 (results arriving in
# any order) and --jobs 1 write the same Figure 7 files byte for byte, and the same summary.
$BIN/bow --jobs 1 --out "$TMP/bow-j1" --wav "$TMP/bow-j1/bow.wav" >"$TMP/bow-j1.txt" 2>/dev/null
$BIN/bow --jobs 4 --tsv --out "$TMP/bow-j4" --wav "$TMP/bow-j4/bow.wav" >"$TMP/bow-j4.tsv" 2>/dev/null
for f in fig7 fig7_drops; do
    if cmp -s "$TMP/bow-j1/$f.tsv" "$TMP/bow-j4/$f.tsv" && [ -s "$TMP/bow-j1/$f.tsv" ]; then
        pass "--jobs 4 and --jobs 1: the same $f.tsv ($(wc -l <"$TMP/bow-j1/$f.tsv") lines)"
    else
        fail "--jobs 4 and --jobs 1: $f.tsv differs (or is empty)"
    fi
done
expect_bad_input "--jobs 0" $BIN/bow --jobs 0 --out "$TMP/out" --wav "$TMP/out/b.wav"
# Figure 8d, the string alone: held at 1 mm at x/L = 0.104 the bridge feels T u0 / x_p =
# 149.74e-3 / 0.0728 = 2.057 N; after the release the drop reaches it at x_p / c = 0.531 ms
# (c = 2 L f0 = 137.2 m/s; stiffness brings the front a little earlier).
pl="$TMP/bow/pluck.tsv"
check_num "Figure 8d: static bridge force before the release wave arrives, N" \
    "$(awk -F'\t' 'NR > 1 && $1 < 2e-4 { s += $2; n++ } END { printf "%.4f", s / n }' "$pl")" near 2.057 0.04
check_num "Figure 8d: the release reaches the bridge (force below half), ms" \
    "$(awk -F'\t' 'NR > 1 && $1 > 1e-4 && $2 < 1.03 { printf "%.4f", $1 * 1e3; exit }' "$pl")" near 0.531 0.05
check_num "Figure 7: largest |z| over the bound (18) in all nine" \
    "$(awk -F'\t' 'NR > 1 && $6 > m { m = $6 } END { print m }' "$d7")" lt 1
check_num "Figure 7: smallest tau in all nine, K" "$(awk -F'\t' 'NR == 2 { m = $7 } NR > 1 && $7 < m { m = $7 } END { print m }' "$d7")" ge 0
# The eta_F choice: Q_1 = 180, the first-mode Q of the group's fitted loss model.
check_num "Q-factors: Q_1 of (44) with eta_F = 5.5e-3" "$(awk -F'\t' 'NR == 2 { print $3 }' "$TMP/bow/modes.tsv")" near 180 5
check_num "Q-factors: Q_1 of the 2024/2025 loss model" "$(awk -F'\t' 'NR == 2 { print $6 }' "$TMP/bow/modes.tsv")" near 180 5
check_num "Q-factors: torsional Q_T" "$(awk -F'\t' 'NR == 2 { print $5 }' "$TMP/bow/modes.tsv")" near 30 0
check_num "the WAV is at 48 kHz" "$(od -A n -t u4 -j 24 -N 4 "$TMP/bow/bow.wav" | tr -d ' ')" near 48000 0

# The fixed-step scheme converges to the CVODE BDF reference through the first slip.
order=$(awk -F'\t' 'NR > 1 { n++; x = log($1); y = log($2); sx += x; sy += y; sxx += x * x; sxy += x * y }
    END { printf "%.3f", (n * sxy - sx * sy) / (n * sxx - sx * sx) }' "$TMP/bow/convergence.tsv")
check_num "convergence against CVODE: least-squares order" "$order" gt 1.5
# The printed order is the measurement: the fit and the neighbours' slopes of convergence.tsv.
printed=$(sed -n 's/.*measured order \([0-9.]*\) .*/\1/p' "$TMP/bow-j1.txt")
check_num "printed order = least-squares slope of convergence.tsv" "$printed" near "$order" 0.006
pairs=$(awk -F'\t' 'NR > 1 { if (n++) printf "%s%.2f", (n > 2 ? " " : ""), log($2 / e) / log($1 / h); h = $1; e = $2 }' \
    "$TMP/bow/convergence.tsv")
check_text "printed slopes between neighbouring dt = those of convergence.tsv" "$(cat "$TMP/bow-j1.txt")" \
    "between neighbours $pairs)"
check_text "the order's gap from 2 is said (the friction law's kinks)" "$(cat "$TMP/bow-j1.txt")" \
    "a kink in dz/dt at every slip and stick"
check_text "README states the measured order" "$(cat "$(dirname "$0")/../../README.md")" "measured order $printed"
check_num "convergence against CVODE: finest error relative to the peak force" \
    "$(tail -1 "$TMP/bow/convergence.tsv" | cut -f2)" lt 1e-4
check_num "convergence: error at dt = 5 us relative to the peak force" \
    "$(awk -F'\t' '$1 == 5e-06 { print $2 }' "$TMP/bow/convergence.tsv")" lt 1e-3

# CVODE BDF on the same stroke: the energy balance (64) to its tolerance.
$BIN/bow --solver cvode --rtol 1e-8 --set f_max=1500 --duration 0.06 --quick --tsv --out "$TMP/cv" \
    --wav "$TMP/cv/b.wav" >"$TMP/cv.tsv"
check_num "CVODE: energy residual at rtol 1e-8" "$(col "$TMP/cv.tsv" energy_residual)" lt 1e-6
check_num "CVODE: |z| below the bound (18)" "$(col "$TMP/cv.tsv" z_max_over_bound)" lt 1
check_num "CVODE: first slip as the fixed-step scheme's (s)" "$(col "$TMP/cv.tsv" first_slip_s)" near 0.0535 0.002

# A changing bowing force: the load-change power of (64) keeps the balance.
$BIN/bow --solver cvode --set f_max=1500 --force 0:1,0.06:3 --duration 0.06 --quick --tsv --out "$TMP/cf" \
    --wav "$TMP/cf/b.wav" >"$TMP/cf.tsv"
check_num "CVODE, force ramp 1 -> 3 N: energy residual" "$(col "$TMP/cf.tsv" energy_residual)" lt 1e-6
expect_bad_input "--force reaching 0 N" $BIN/bow --force 0:1,0.06:0 --out "$TMP/out" --wav "$TMP/out/b.wav"

# What the source leaves open, said where the student meets it: Figure 6 peaks near 66 degC in the
# article, our reconstructed thermal parameters give about 55.5 degC.
$BIN/bow --quick --duration 0.3 --out "$TMP/q" --wav "$TMP/q/b.wav" >"$TMP/q.txt"
check_text "bow names the article's Figure 6 peak and why ours differs" "$(cat "$TMP/q.txt")" \
    "the article's Figure 6 peaks at about 66 degC: our thermal parameters (a_tau, b_tau, c_tau, tau_g) are reconstructed"
check_text "bow prints its own peak beside it" "$(cat "$TMP/q.txt")" "peak contact temperature 55.5 degC"
check_num "a moved stroke is not compared with Figure 6" \
    "$($BIN/bow --quick --duration 0.05 --f_b 2 --out "$TMP/q2" --wav "$TMP/q2/b.wav" | grep -c "Figure 6 peaks")" near 0 0
# Without torsion the ramp follows (89) closely: torsion is the divergence the article names.
$BIN/bow --quick --duration 0.045 --set K_T=1 --tsv --out "$TMP/kt" --wav "$TMP/kt/b.wav" >/dev/null
ratio=$(awk -F'\t' 'NR > 1 && $1 > 0.0399 && $1 < 0.0401 { printf "%.4f", $3 / $4; exit }' "$TMP/kt/stroke.tsv")
check_num "no torsional modes (K_T = 1 N m^2): bridge force over (89) at 40 ms" "$ratio" near 1.0 0.05

# More modes change nothing that the summary claims.
$BIN/bow --quick --set f_max=24000 --tsv --out "$TMP/more" --wav "$TMP/more/b.wav" >"$TMP/more.tsv"
more() { col "$TMP/more.tsv" "$1"; }
check_num "modes to 24 kHz: fundamental as to 20 kHz" "$(more f0_hz)" near "$(get f0_hz)" 0.3
check_num "modes to 24 kHz: slips per period" "$(more slips_per_period)" near 1 0.05
check_num "modes to 24 kHz: peak temperature as to 20 kHz" "$(more peak_temp_c)" near "$(get peak_temp_c)" 1

# Bad input: one line, exit 2, no file.
expect_bad_input "--set with an unknown key" $BIN/bow --set mu_q=1 --out "$TMP/out" --wav "$TMP/out/b.wav"
expect_bad_input "--set out of range" $BIN/bow --set mu_s=-1 --out "$TMP/out" --wav "$TMP/out/b.wav"
expect_bad_input "--set without =" $BIN/bow --set mu_s --out "$TMP/out" --wav "$TMP/out/b.wav"
expect_bad_input "--params missing file" $BIN/bow --params /nonexistent.ini --out "$TMP/out" --wav "$TMP/out/b.wav"
expect_bad_input "--x_b_rel 2" $BIN/bow --x_b_rel 2 --out "$TMP/out" --wav "$TMP/out/b.wav"
expect_bad_input "--velocity bad" $BIN/bow --velocity 0:0,0.1 --out "$TMP/out" --wav "$TMP/out/b.wav"
expect_bad_input "--solver nope" $BIN/bow --solver nope --out "$TMP/out" --wav "$TMP/out/b.wav"
expect_bad_input "bow off the string" $BIN/bow --x_b_rel 0.001 --out "$TMP/out" --wav "$TMP/out/b.wav"
expect_bad_input "mu_d above mu_s" $BIN/bow --set mu_d=2 --out "$TMP/out" --wav "$TMP/out/b.wav"
printf 'mu_s = 1.2  # 1; test\nsigma0 = 2e6  # 1/m; test\n' >"$TMP/alt.ini"
$BIN/bow --params "$TMP/alt.ini" --quick --duration 0.03 --tsv --out "$TMP/alt" --wav "$TMP/alt/b.wav" >"$TMP/alt.tsv"
check_num "--params FILE: read (a subset of the keys)" "$?" near 0 0

# --list shows the instrument values, --set changes them.
check_text "--list: the tension from cello-g.ini" "$($BIN/bow --list --tsv)" "$(printf 'T\t149.74\tN')"
check_text "--list after --set: the new value" "$($BIN/bow --set mu_s=1.2 --list --tsv)" "$(printf 'mu_s\t1.2\t1')"

# --help lists every flag with its unit and default.
help=$($BIN/bow --help)
for f in set params accel v_hold t_hold decel f_b x_b_rel velocity force duration solver rtol atol wav list quick tsv out; do
    check_text "--help lists --$f" "$help" "--$f"
done
check_text "--help shows the default stroke's force from stroke-fig6.ini" "$help" "2.15 N"

# Schelleng ripples counted as bow-zoom shows them (about L/x_b a period; sub-wiggles at half the
# ripple period are not counted): at several bow positions, the force scaled as beta^-1.5 to stay
# inside Helmholtz motion.
for b in 0.05 0.075 0.1 0.125; do
    f=$(awk -v b=$b 'BEGIN { printf "%.3f", 2.15 * (0.075 / b) ^ 1.5 }')
    $BIN/bow --quick --f_b "$f" --x_b_rel $b --tsv --out "$TMP/rip" --wav "$TMP/rip/b.wav" >"$TMP/rip.tsv" 2>/dev/null
    check_num "ripples per period at x_b/L = $b, f_b = $f N, against L/x_b (15%)" \
        "$(col "$TMP/rip.tsv" ripples_per_period)" near "$(awk -v b=$b 'BEGIN { print 1 / b }')" \
        "$(awk -v b=$b 'BEGIN { print 0.15 / b }')"
done

# bow-zoom's title is the run's: its regime, place, force and ripple count; "Figure 6b" only for
# the article's stroke (exercise 1's gesture is not Figure 6).
$BIN/bow --quick --f_b 2 --x_b_rel 0.1 --out "$TMP/z" --wav "$TMP/z/b.wav" --plot --figures "$TMP/zf" >"$TMP/z.txt" 2>&1
title=$(grep -o 'three periods[^<]*' "$TMP/zf/bow-zoom.svg" | head -1)
rip=$(sed -n 's/^Schelleng ripples per period: \([0-9.]*\) .*/\1/p' "$TMP/z.txt")
reg=$(sed -n 's/^regime: \([^(]*[^( ]\) (.*/\1/p' "$TMP/z.txt")
check_text "bow-zoom title: the run's regime, x_b/L, f_b and printed ripple count" "$title" \
    "three periods of $reg, x_b/L = 0.1, f_b = 2 N: $rip ripples a period"
check_num "bow-zoom title of a moved stroke does not say Figure 6b" "$(printf '%s' "$title" | grep -c 'Figure 6b')" near 0 0
check_text "bow (Figure 6's panels) title: the run's x_b/L and f_b" "$(cat "$TMP/zf/bow.svg")" "x_b/L = 0.1, f_b = 2 N"
check_num "bow and bow-loop titles of a moved stroke do not say Figure 6" \
    "$(cat "$TMP/zf/bow.svg" "$TMP/zf/bow-loop.svg" | grep -c 'Figure 6')" near 0 0

# Each exercise's check command (the end of --help), run as printed with its outputs in scratch:
# it prints the answer its question asks for.
mapfile -t checks < <($BIN/bow --help | sed -n 's/^ *check: //p')
check_num "bow --help: two exercise check commands" "${#checks[@]}" near 2 0
for k in 0 1; do
    ${checks[$k]/#bin\//$BIN/} --out "$TMP/ex$k" --wav "$TMP/ex$k/b.wav" >"$TMP/ex$k.txt" 2>/dev/null
    ${checks[$k]/#bin\//$BIN/} --tsv --out "$TMP/ex$k" --wav "$TMP/ex$k/b.wav" >"$TMP/ex$k.tsv" 2>/dev/null
done
check_text "exercise 1 (x_b/L 0.1, 2 N): Helmholtz motion, said" "$(cat "$TMP/ex0.txt")" "regime: Helmholtz motion"
check_num "exercise 1: one slip a period" "$(col "$TMP/ex0.tsv" slips_per_period)" near 1 0.05
check_num "exercise 1: its pitch, Hz" "$(col "$TMP/ex0.tsv" f0_hz)" near 98 3
check_text "exercise 2 (0.5 N): Helmholtz motion gives way to double slips, said" "$(cat "$TMP/ex1.txt")" \
    "regime: double slips"
check_num "exercise 2: about two slips a period" "$(col "$TMP/ex1.tsv" slips_per_period)" near 2 0.1
check_num "exercise 2: the contact is cooler than in exercise 1, degC" "$(col "$TMP/ex1.tsv" peak_temp_c)" lt \
    "$(col "$TMP/ex0.tsv" peak_temp_c)"

# Every cross check of flags before any work or file: an instrument the stroke takes but one of
# the figures' strokes does not (L = 0.4 m, hair 5 cm: Figure 7's bow at x_b/L 0.05 is over the
# bridge) is refused at once, exit 2, nothing written (was: the stroke's files, then exit 2).
expect_bad_input "--set L=0.4 --set W_b=0.05: Figure 7's strokes refused before the stroke" \
    $BIN/bow --set L=0.4 --set W_b=0.05 --out "$TMP/out" --wav "$TMP/out/b.wav"
$BIN/bow --quick --duration 0.05 --set L=0.4 --set W_b=0.05 --out "$TMP/lq" --wav "$TMP/lq/b.wav" >/dev/null 2>&1
check_num "the same instrument with --quick (no Figure 7): runs" "$?" near 0 0
