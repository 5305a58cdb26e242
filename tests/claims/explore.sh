# explore.sh: the notebook pages' four live explorers (issue 19) give the numbers the lesson
# programs print at the same settings: a real browser opens a page with the four explorers at
# #selftest, and the C compiled to WebAssembly answers there; without the wasm toolchain the page
# holds a note in place of each explorer (and this test says it skipped the browser part).
. "$(dirname "$0")/../lib.sh"

WASM=build/wasm/explore.wasm
book=tests/fixtures/explore-notebook.md

# Without the module: a note in place of each explorer, no script, and the page still renders.
$BIN/notebook --bin "$BIN" --wasm "$TMP/none.wasm" --out "$TMP/off" "$book" >/dev/null 2>"$TMP/off.err"
check_num "without the module the page renders (see: $(tail -2 "$TMP/off.err" | tr '\n' ' '))" "$?" near 0 0
off=$(cat "$TMP/off/explore-notebook.html" 2>/dev/null)
check_num "without the module: a note in place of each of the 4 explorers" \
    "$(grep -o 'built without the wasm toolchain' <<<"$off" | wc -l)" near 4 0
if grep -q 'id="ivplab-wasm"' <<<"$off"; then fail "without the module: no module embedded"; else pass "without the module: no module embedded"; fi

# A page script that cannot be read, with the module there: bad input, one line.
if [ -s "$WASM" ]; then
    expect_bad_input "--explore-js that cannot be read" $BIN/notebook --bin "$BIN" --explore-js "$TMP/nothing.js" --out "$TMP/out" "$book"
fi
# An unknown explorer stops the run naming it.
printf '# x\n\n```explore pendulum\n```\n' >"$TMP/bad.md"
$BIN/notebook --bin "$BIN" --out "$TMP/bad" "$TMP/bad.md" >/dev/null 2>"$TMP/bad.err"
check_num "an unknown explorer: exit status" "$?" near 1 0
check_text "an unknown explorer is named with what is accepted" "$(cat "$TMP/bad.err")" \
    "explore block 'pendulum': unknown explorer; accepted: oscillator|stability|roots|drop"

if ! printf 'int f(void){return 0;}\n' | clang --target=wasm32-wasi -x c - -nostartfiles -Wl,--no-entry -o /dev/null 2>/dev/null; then
    [ -e "$WASM" ] && fail "no wasm toolchain, yet $WASM is left from an earlier build" || pass "skipped: no wasm toolchain (the browser checks need clang lld wasi-libc libclang-rt-14-dev-wasm32)"
    exit 0
fi
if [ ! -s "$WASM" ]; then
    fail "the wasm toolchain is here but $WASM was not built (make wasm)"
    exit 0
fi
# The module imports only the WASI stub's six calls (nothing of GSL or SUNDIALS is left undefined).
imports=$(node -e 'const m=new WebAssembly.Module(require("fs").readFileSync(process.argv[1]));
  console.log(WebAssembly.Module.imports(m).map(i=>i.module+"."+i.name).join(" "))' "$WASM" 2>&1)
check_text "the module imports WASI calls only" "$(tr ' ' '\n' <<<"$imports" | grep -v '^wasi_snapshot_preview1\.' | tr '\n' ' ')x" "x"

$BIN/notebook --bin "$BIN" --out "$TMP/on" "$book" >/dev/null 2>"$TMP/on.err"
check_num "with the module the page renders" "$?" near 0 0
page="$TMP/on/explore-notebook.html"
check_num "the module is embedded once" "$(grep -o 'id="ivplab-wasm"' "$page" | wc -l)" near 1 0
if grep -Eq '(src|href)="(https?:)?//' "$page"; then fail "the page refers to a network address"; else pass "no network address in the page"; fi

browser() {
    timeout 120 chromium --headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking \
        --disable-component-update --disable-sync --disable-quic --user-data-dir="$TMP/chrome" \
        --allow-file-access-from-files "$@" 2>/dev/null
}
st=$(browser --virtual-time-budget=20000 --dump-dom "file://$(realpath "$page")#selftest" | grep -o 'id="selftest">SELFTEST [^<]*')
sel() { tr ' ' '\n' <<<"$st" | sed -n "s/^$1=//p"; }
[ -n "$st" ] && pass "the page's self-test ran in the browser" || fail "the page's self-test wrote nothing"

# 1. forward Euler at h = 0.1 s leaves the exact curve by the same amount as bin/ivp (every sample).
$BIN/ivp --method euler --h 0.1 --T 6 --out "$TMP/ivp" >/dev/null
cli=$(awk -F'\t' 'NR > 1 { d = $2 - $4; if (d < 0) d = -d; if (d > m) m = d } END { printf "%.10g", m }' "$TMP/ivp/trajectory.tsv")
page_err=$(sel osc_euler_h0.1_max_err_m)
check_num "forward Euler, h = 0.1 s: max |u - exact| in the page ($page_err m) = bin/ivp's ($cli m)" \
    "$(awk -v a="$page_err" -v b="$cli" 'BEGIN { d = (a - b) / b; print d < 0 ? -d : d }')" le 1e-9
# a student's tableau in the text box runs as bin/ivp runs its file
printf '0 |\n1/2 | 1/2\n | 0 1\n' >"$TMP/mine.tab"
$BIN/ivp --method "$TMP/mine.tab" --h 0.1 --T 6 --out "$TMP/mine" >/dev/null
cli=$(awk -F'\t' 'NR > 1 { d = $2 - $4; if (d < 0) d = -d; if (d > m) m = d } END { printf "%.10g", m }' "$TMP/mine/trajectory.tsv")
own=$(sel own_tableau_h0.1_max_err_m)
check_num "a pasted tableau (explicit midpoint): order $(sel own_tableau_order), max error $own m = bin/ivp's $cli m" \
    "$(awk -v a="$own" -v b="$cli" 'BEGIN { d = (a - b) / b; print d < 0 ? -d : d }')" le 1e-9
check_text "a malformed pasted tableau is refused by the parser, line named" "$(sel bad_tableau)" \
    "mine.tab:2:_c_2_=_1_but_row_2_of_A_sums_to_3"
# issue 26 item 14: the h slider reaches RK4's limit on this oscillator (2.8284/|lambda| = 0.450 s);
# a blown-up run is drawn to where it leaves the plot, and the page says when it blew up.
check_num "the oscillator's h slider reaches 0.5 s (past RK4's 0.45 s)" "$(sel osc_h_max_s)" ge 0.46
check_text "forward Euler at h = 0.3 s: the page says when it blew up (as bin/ivp: t = 5.7 s)" "$(sel osc_euler_h0.3_info)" "blew_up_at_t_=_5.7_s"
check_num "forward Euler at h = 0.3 s: drawn only to where it leaves the plot (3 of 19 samples)" "$(sel osc_euler_h0.3_shown)" le 4
check_num "RK4 at h = 0.45 s: max |R(h lambda)| in the page <= 1" "$(sel osc_rk4_h0.45_max_absR)" le 1
check_num "RK4 at h = 0.46 s: max |R(h lambda)| in the page > 1" "$(sel osc_rk4_h0.46_max_absR)" gt 1
# the implicit methods step in the page by the library's Newton (on the page's dense LU), as in bin/ivp
for m in backward-euler trapezoid rk4; do
    $BIN/ivp --method $m --h 0.1 --T 6 --out "$TMP/ivp-$m" >/dev/null
    cli=$(awk -F'\t' 'NR > 1 { d = $2 - $4; if (d < 0) d = -d; if (d > e) e = d } END { printf "%.10g", e }' "$TMP/ivp-$m/trajectory.tsv")
    got=$(sel "osc_${m}_h0.1_max_err_m")
    check_num "$m, h = 0.1 s: max |u - exact| in the page ($got m) = bin/ivp's ($cli m)" \
        "$(awk -v a="$got" -v b="$cli" 'BEGIN { d = (a - b) / b; print d < 0 ? -d : d }')" le 1e-9
done

# 2. |R(2.8284j)| of RK4 is 1 to 1e-4, as bin/stability --z prints it.
$BIN/stability --z 0,2.8284 --out "$TMP/stab" --tsv >"$TMP/stab.tsv"
cli=$(tsv_get "$TMP/stab.tsv" method rk4 abs_R_z)
absr=$(sel stab_rk4_absR_2.8284j)
check_num "RK4 |R(2.8284j)| in the page ($absr) = bin/stability's ($cli, 6 digits)" \
    "$(awk -v a="$absr" -v b="$cli" 'BEGIN { d = a - b; print d < 0 ? -d : d }')" le 5e-6
check_num "RK4 |R(2.8284j)| is 1 to 1e-4" "$absr" near 1 1e-4

# ... and over the spring network's h lambda (eigenvalues from bin/stability's eigen.tsv at h = 1 s):
# RK4 stable at h = 0.23 ms, not at 0.24 ms, with bin/stability's max |R|
for h in 0.00023 0.00024; do
    $BIN/stability --problem stiff --h $h --out "$TMP/stiff-$h" --tsv >"$TMP/stiff-$h.tsv"
    cli=$(tsv_get "$TMP/stiff-$h.tsv" method rk4 max_abs_R_hlambda)
    got=$(sel "stab_rk4_stiff_h${h}_max_absR")
    check_num "spring network, RK4 at h = $h s: max |R(h lambda)| in the page ($got) = bin/stability's ($cli)" \
        "$(awk -v a="$got" -v b="$cli" 'BEGIN { d = (a - b) / b; print d < 0 ? -d : d }')" le 1e-5
    check_num "spring network, RK4 at h = $h s: stable in the page as in bin/stability ($(tsv_get "$TMP/stiff-$h.tsv" method rk4 problem_stable))" \
        "$(sel "stab_rk4_stiff_h${h}_stable")" near "$([ "$(tsv_get "$TMP/stiff-$h.tsv" method rk4 problem_stable)" = yes ] && echo 1 || echo 0)" 0
done

# 3. the roots for sigma0/omega0 = 1 meet, as bin/oscillator --ratio 1 writes them.
$BIN/oscillator --ratio 1 --T 0.1 --ring-T 0.5 --out "$TMP/osc" >/dev/null
cli=$(awk -F'\t' 'NR == 2 { printf "%s,%s,%s,%s", $2, $3, $4, $5 }' "$TMP/osc/ratio.tsv")
roots=$(sel roots_ratio1)
check_num "roots at sigma0/omega0 = 1 in the page ($roots) = bin/oscillator's ($cli): largest difference" \
    "$(awk -v a="$roots" -v b="$cli" 'BEGIN { split(a, x, ","); split(b, y, ","); m = (length(x) == 4 && length(y) == 4) ? 0 : 1
        for (i = 1; i <= 4; i++) { d = x[i] - y[i]; if (d < 0) d = -d; if (d > m) m = d } print m }')" le 1e-9
check_num "the roots meet at sigma0/omega0 = 1: |s+ - s-| in the page" "$(sel roots_ratio1_gap)" near 0 0

# 4. the drop at 11025 Hz has bin/audiorate's impact times, to the sample.
$BIN/audiorate --method rk4 --fs 11025 --out "$TMP/ar" --sound "$TMP/snd" >/dev/null
awk -F'\t' '$1 == 1 { print $4 }' "$TMP/ar/rhythm.tsv" >"$TMP/cli_starts"
sel drop_rk4_11025_starts | tr ',' '\n' >"$TMP/page_starts"
check_num "RK4 at 11025 Hz: impacts in the page = bin/audiorate's ($(wc -l <"$TMP/cli_starts"))" \
    "$(wc -l <"$TMP/page_starts")" near "$(wc -l <"$TMP/cli_starts")" 0
worst=$(paste "$TMP/cli_starts" "$TMP/page_starts" | awk -F'\t' '{ d = ($1 - $2) * 11025; if (d < 0) d = -d; if (d > m) m = d }
    END { printf "%.6g", NR ? m : 1e9 }')
check_num "RK4 at 11025 Hz: every impact start within one sample of bin/audiorate's (worst, in samples)" "$worst" lt 1
# an implicit method on the nonlinear ball: the trapezoid at 11025 Hz, Newton on the contact every step
$BIN/audiorate --method trapezoid --fs 11025 --out "$TMP/art" --sound "$TMP/snd" >/dev/null
awk -F'\t' '$1 == 1 { print $4 }' "$TMP/art/rhythm.tsv" >"$TMP/cli_tstarts"
sel drop_trapezoid_11025_starts | tr ',' '\n' >"$TMP/page_tstarts"
worst=$(paste "$TMP/cli_tstarts" "$TMP/page_tstarts" | awk -F'\t' '{ d = ($1 - $2) * 11025; if (d < 0) d = -d; if (d > m) m = d }
    END { printf "%.6g", NR ? m : 1e9 }')
check_num "trapezoid at 11025 Hz: impacts in the page = bin/audiorate's ($(wc -l <"$TMP/cli_tstarts"))" \
    "$(wc -l <"$TMP/page_tstarts")" near "$(wc -l <"$TMP/cli_tstarts")" 0
check_num "trapezoid at 11025 Hz: every impact start within one sample of bin/audiorate's (worst, in samples)" "$worst" lt 1
check_num "the page renders 2 s at 44.1 kHz: 88201 samples" "$(sel drop_rk4_44100_samples)" near 88201 0
# the drop explorer's reference row (issue 26 item 14): bin/drop's impacts, and the run's first 4 against them
$BIN/drop --tsv --out "$TMP/dref" --sound "$TMP/snd" >"$TMP/dref.tsv"
check_num "drop explorer: a reference row with bin/drop's impacts" "$(sel drop_reference_impacts)" near "$(($(wc -l <"$TMP/dref.tsv") - 1))" 0
e4=$(paste <(sed -n 2,5p "$TMP/dref.tsv" | cut -f2) <(head -4 "$TMP/cli_starts") | awk '{ d = $1 - $2; if (d < 0) d = -d; printf "%s%.6f", (NR > 1 ? "," : ""), 1e3 * d }')
check_num "drop explorer: the 4 reference errors computed here" "$(tr , "\n" <<<"$e4" | grep -c .)" near 4 0
check_text "drop explorer: RK4 11025 Hz's first 4 impacts against the reference, ms, as bin/drop and bin/audiorate give" \
    "$(sel drop_rk4_11025_ref_err_ms)" "$e4"

# Speed is make bench's to judge; the times the page measured are shown, not asserted.
echo "explore: module $(sel wasm_bytes) bytes; redraw per slider move (median/max ms): oscillator" \
     "$(sel osc_redraw_ms_median)/$(sel osc_redraw_ms_max), stability $(sel stab_redraw_ms_median)/$(sel stab_redraw_ms_max) (a method switch, its region drawn anew: $(sel stab_method_switch_ms_median)/$(sel stab_method_switch_ms_max))," \
     "roots $(sel roots_redraw_ms_median)/$(sel roots_redraw_ms_max); drop, 2 s at 44.1 kHz: $(sel drop_rk4_44100_render_ms) ms"

# One screenshot per explorer (build/notebooks/shots/explore-NAME.png, not committed).
mkdir -p build/notebooks/shots
for name in oscillator stability roots drop; do
    shot=build/notebooks/shots/explore-$name.png
    rm -f "$shot"
    browser --window-size=900,760 --virtual-time-budget=10000 --screenshot="$shot" "file://$(realpath "$page")#shot=$name" >/dev/null
    [ -s "$shot" ] && pass "$name explorer: screenshot $shot" || fail "$name explorer: no screenshot"
done
