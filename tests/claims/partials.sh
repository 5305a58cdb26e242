# partials.sh: lesson 9's --partials (what a method does to each partial of the plucked string),
# its figure, its notebook section, and lesson 3's audio-bandwidth line (issue 30).
. "$(dirname "$0")/../lib.sh"

# At 48 kHz (the defaults: modes up to 8 kHz, the pencil on 1200 samples, level 1e-3) for the
# trapezoid, RK4, backward Euler and a tableau file (Kutta's 3/8 rule).
$BIN/pluck --partials --tsv --method all --add-method lessons/methods/kutta38.tab --out "$TMP/p" \
    --plot --figures "$TMP/fig" >"$TMP/p.tsv" 2>"$TMP/p.err"
check_num "--partials: exit status" "$?" near 0 0

# The predicted columns against closed forms computed here from the model (string-pluck-v1:
# alpha_k = sigma0 + kappa beta_k^2/2, omega_k = sqrt(c^2 beta_k^2 - alpha_k^2)): the numerical
# eigenvalue s of one step, s = (2/h) atanh(z/2) for the trapezoid (the bilinear transform:
# undamped, omega -> (2/h) arctan(omega h/2)), s = -ln(1 - z)/h for backward Euler (R = 1/(1 - z)),
# s = ln(1 + z + z^2/2 + z^3/6 + z^4/24)/h for RK4 and the 3/8 rule (every 4-stage order-4 RK).
closed() { # closed METHOD: the largest |cents difference| and |t60 ratio relative difference|, and rows
    awk -F'\t' -v m="$1" '
        function cln(re, im) { LR = 0.5 * log(re * re + im * im); LI = atan2(im, re) }
        NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        $1 == m {
            k = $c["mode"]; h = 1 / 48000; pi = 3.141592653589793
            b = k * pi / 0.65; a = 3 + 0.004 * b * b / 2; w = sqrt(143 * 143 * b * b - a * a)
            zr = -a * h; zi = w * h
            if (m == "trapezoid") {         # atanh(u) = ln((1 + u)/(1 - u))/2, u = z/2
                ur = zr / 2; ui = zi / 2; nr = 1 + ur; ni = ui; dr = 1 - ur; di = -ui; q = dr * dr + di * di
                cln((nr * dr + ni * di) / q, (ni * dr - nr * di) / q); sr = LR / h; si = LI / h
            } else if (m == "backward-euler") {
                cln(1 - zr, -zi); sr = -LR / h; si = -LI / h
            } else {                        # the Taylor polynomial of degree 4
                pr = 1; pi_ = 0; tr = 1; ti = 0
                for (j = 1; j <= 4; j++) { nt = (tr * zr - ti * zi) / j; ti = (tr * zi + ti * zr) / j; tr = nt; pr += tr; pi_ += ti }
                cln(pr, pi_); sr = LR / h; si = LI / h
            }
            cents = 1200 * log(si / w) / log(2); ratio = a / -sr
            dc = cents - $c["cents_predicted"]; if (dc < 0) dc = -dc; dc /= (1e-6 + 1e-7 * (cents < 0 ? -cents : cents))
            dr = ratio / $c["t60_ratio_predicted"] - 1; if (dr < 0) dr = -dr
            if (dc > wc) wc = dc; if (dr > wr) wr = dr; n++
        }
        END { if (n == 0) print "none none 0"; else printf "%.3g %.3g %d", wc, wr, n }' "$TMP/p.tsv"
}
measured() { # measured METHOD: the largest |cents measured - predicted| / (1e-6 + 1e-4 |predicted|),
             # the largest |T60 ratio measured / predicted - 1|, the measured rows, the rows at or
             # above the level not measured (backward Euler: nor unresolved, its upper partials die
             # within a fraction of a beat with their neighbours: PARTIALS_RESOLVED)
    awk -F'\t' -v m="$1" -v be="$([ "$1" = backward-euler ] && echo 1 || echo 0)" '
        NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        $1 == m && $c["status"] == "measured" {
            p = $c["cents_predicted"]; d = $c["cents_measured"] - p; if (d < 0) d = -d; if (p < 0) p = -p
            d /= 1e-6 + 1e-4 * p; if (d > wc) wc = d
            r = $c["t60_ratio_measured"] / $c["t60_ratio_predicted"] - 1; if (r < 0) r = -r; if (r > wr) wr = r; n++ }
        $1 == m && $c["excitation"] >= 1e-3 && $c["status"] != "measured" && ($c["status"] != "unresolved" || !be) { miss++ }
        END { if (n == 0) print "none none 0 none"; else printf "%.3g %.3g %d %d", wc, wr, n, miss }' "$TMP/p.tsv"
}
for m in trapezoid rk4 backward-euler kutta38; do
    read -r wc wr n <<<"$(closed $m)"
    check_num "$m: rows up to 8 kHz (the modes of the Galerkin system)" "$n" near 72 0
    check_num "$m: predicted cents against the closed form, in units of 1e-6 + 1e-7 |cents|" "$wc" le 1
    check_num "$m: predicted T60 ratio against the closed form (relative)" "$wr" le 1e-7
    read -r mc mr nm miss <<<"$(measured $m)"
    # the pencil on a noise-free sum of exponentials errs by round-off (seen: 4e-7 cents, 4e-10 in
    # the ratio at worst); the tolerance, 1e-6 cents + 1e-4 of the predicted error and 1e-4 of the
    # ratio, is 1/5000 of the just-noticeable 5 cents and still tells RK4's 1e-6 cents at 110 Hz
    check_num "$m: measured cents against predicted, in units of 1e-6 + 1e-4 |cents_predicted|" "$mc" le 1
    check_num "$m: measured T60 ratio against predicted (relative)" "$mr" le 1e-4
    check_num "$m: partials at or above the level 1e-3 not measured (backward Euler: nor unresolved)" "$miss" near 0 0
    check_num "$m: partials measured" "$nm" ge "$([ $m = backward-euler ] && echo 10 || echo 50)"
done
check_text "the pluck point L/4 makes mode 4 a node: marked, not measured" \
    "$(awk -F'\t' '$1 == "trapezoid" && $2 == 4 { print $6 }' "$TMP/p.tsv")" "node"
# The measurement tells methods apart: the trapezoid's measured cents are not RK4's predicted ones.
check_num "trapezoid measured against RK4 predicted: largest difference, cents" "$(awk -F'\t' '
    $1 == "trapezoid" && $6 == "measured" { t[$2] = $8 } $1 == "rk4" { r[$2] = $7 }
    END { for (k in t) { d = t[k] - r[k]; if (d < 0) d = -d; if (d > w) w = d } printf "%.3f", w }' "$TMP/p.tsv")" gt 100
check_text "forward Euler: mode 1 swamped (mode 71 grows by 1e185 over the samples)" \
    "$(awk -F'\t' '$1 == "euler" && $2 == 1 { print $6 }' "$TMP/p.tsv")" "swamped"

# The figure: drawn from this run's data, its title from the run.
check_num "figure pluck_partials drawn (PNG)" "$(stat -c %s "$TMP/fig/pluck_partials.png" 2>/dev/null || echo 0)" gt 10000
check_text "figure's title from the data" "$(cat "$TMP/fig/pluck_partials.svg")" "72 modes up to 8000 Hz"
check_text "figure marks the just-noticeable pitch difference" "$(cat "$TMP/fig/pluck_partials.svg")" "just noticeable, 5 cents"
check_text "the grids' data: FD5 at N = 130 for the 3/8 rule" "$(head -1 "$TMP/p/partials-fd5-kutta38.tsv")" "cents_total"

# --listen: the method's copy and the reference's, the same length, both written.
$BIN/pluck --partials --method trapezoid --partials-max-hz 2000 --listen "$TMP/l.wav" \
    --listen-reference "$TMP/r.wav" --out "$TMP/l" >"$TMP/l.txt"
check_num "--listen: the method's copy, bytes (2 s float32)" "$(stat -c %s "$TMP/l.wav")" near 384080 0
check_num "--listen: the reference's copy, bytes" "$(stat -c %s "$TMP/r.wav")" near 384080 0
check_text "--listen: says the gain and the limiter are the same" "$(cat "$TMP/l.txt")" "the same limiter at 0.98"

# Bad input: one line, exit 2, no file.
bad() { # bad WORDS ARGS...: exit 2, one line, no file, and the line says WORDS
    local words=$1; shift
    expect_bad_input "$*" $BIN/pluck "$@" --out "$TMP/out"
    check_text "$*: names it" "$(cat "$TMP/stderr")" "$words"
}
bad "--partials with --solve" --partials --solve
bad "--method leapfrog with --partials" --partials --method leapfrog
bad "--partials-max-hz 30000 above the Nyquist" --partials --partials-max-hz 30000
bad "--listen with --partials and --method all" --partials --listen "$TMP/out/x.wav"
bad "--partials-samples 300 for 72 modes" --partials --partials-samples 300

# bin/stability's audio bandwidth: against closed forms found here by bisection (a partial of
# T60 = 1 s, alpha = 6 ln 10; 48 kHz): the trapezoid's pitch limit, (2/h) atan(omega h/2) 1 cent
# flat (damping aside: alpha h = 3e-4), and backward Euler's T60 limit, alpha / (ln|1 - z|/h) = 0.9.
$BIN/stability --out "$TMP/s" --add-method lessons/methods/kutta38.tab >"$TMP/s.txt"
check_text "stability prints the audio bandwidth" "$(cat "$TMP/s.txt")" "audio bandwidth at fs = 48000 Hz"
bw() { awk -F'\t' -v m="$1" '$1 == m { print $5 }' "$TMP/s/bandwidth.tsv"; }
tb=$(awk 'BEGIN { h = 1 / 48000; lo = 1; hi = 24000
    for (i = 0; i < 100; i++) { f = (lo + hi) / 2; x = 3.141592653589793 * f * h
        if (1200 * log(atan2(x, 1) / x) / log(2) > -1) lo = f; else hi = f }
    printf "%.3f", lo }')
check_num "trapezoid's bandwidth against (2/h) atan(omega h/2), Hz" "$(bw trapezoid)" near "$tb" 0.5
bb=$(awk 'BEGIN { h = 1 / 48000; a = 6 * log(10); lo = 1; hi = 24000
    for (i = 0; i < 100; i++) { f = (lo + hi) / 2; w = 2 * 3.141592653589793 * f
        d = 0.5 * log((1 + a * h) ^ 2 + (w * h) ^ 2) / h
        if (a / d > 0.9) lo = f; else hi = f }
    printf "%.3f", lo }')
check_num "backward Euler's bandwidth against its T60 closed form, Hz" "$(bw backward-euler)" near "$bb" 0.05
check_num "the 3/8 rule has RK4's R, so RK4's bandwidth, Hz" "$(bw kutta38)" near "$(bw rk4)" 1e-3
check_text "leapfrog: no T60 to read" "$(cat "$TMP/s.txt")" "leapfrog         n/a"

# The notebook of lesson 9: the section, the figure, the two players, the warping formula.
nb=notebooks-c/02-string-pluck.md
check_text "notebook: the section" "$(cat $nb)" "## What the method does to each partial"
check_text "notebook: the figure" "$(cat $nb)" "pluck_partials"
check_text "notebook: the two players (a cell writes both WAVs)" "$(cat $nb)" "--listen-reference exact-partials.wav"
check_text "notebook: the bilinear warping" "$(cat $nb)" "arctan"
