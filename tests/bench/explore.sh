#!/usr/bin/env bash
# explore.sh: the page explorers' speed (issue 19), part of `make bench`: the explorers' page
# (tests/fixtures/explore-notebook.md) opened RUNS times at #selftest in headless Chromium; what
# the page measured with performance.now() for each run, then the median of the runs: redraw per
# slider move (median and worst of the moves of one run), a stability method switch (its region
# drawn anew), 2 s of the drop at 44.1 kHz; and the module's size. Skipped without the module.
set -uo pipefail
cd "$(dirname "$0")/../.."
RUNS=${RUNS:-5}
BIN=${BIN:-bin}
WASM=build/wasm/explore.wasm
if [ ! -s "$WASM" ]; then
    echo "bench explore: skipped: no $WASM (no wasm toolchain)"
    exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$BIN/notebook" --bin "$BIN" --out "$tmp/nb" tests/fixtures/explore-notebook.md >/dev/null 2>"$tmp/err" ||
    { echo "bench explore: the page did not render: $(tail -2 "$tmp/err")" >&2; exit 1; }
keys="osc_redraw_ms_median osc_redraw_ms_max stab_redraw_ms_median stab_redraw_ms_max stab_method_switch_ms_median
      stab_method_switch_ms_max roots_redraw_ms_median roots_redraw_ms_max drop_rk4_44100_render_ms"
for r in $(seq "$RUNS"); do
    timeout 120 chromium --headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking \
        --disable-component-update --disable-sync --user-data-dir="$tmp/chrome" --allow-file-access-from-files \
        --virtual-time-budget=20000 --dump-dom "file://$tmp/nb/explore-notebook.html#selftest" 2>/dev/null |
        grep -o 'id="selftest">SELFTEST [^<]*' | tr ' ' '\n' >"$tmp/run$r"
done
printf 'explorer timings over %s page loads (ms, performance.now() in the page; median of the loads)\n' "$RUNS"
for k in $keys; do
    v=$(cat "$tmp"/run* | sed -n "s/^$k=//p" | sort -g | awk '{ a[NR] = $1 } END { print NR ? a[int((NR + 1) / 2)] : "none" }')
    printf '  %-30s %s\n' "$k" "$v"
done
printf '  %-30s %s bytes\n' "module" "$(stat -c %s "$WASM")"
