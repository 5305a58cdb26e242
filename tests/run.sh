#!/usr/bin/env bash
# run.sh: runs every unit test (build/tests/test_*) and every lesson-claim test
# (tests/claims/*.sh), counts their "pass:" and "FAIL:" lines, and ends with
# "N passed, N failed". A test that exits nonzero without a FAIL line counts as a failure.
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
export BIN=${BIN:-bin}
passed=0 failed=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT
run_one() {
    local name=$1; shift
    local t0=$SECONDS
    "$@" >"$log" 2>&1
    local rc=$?
    local p f
    p=$(grep -c '^pass: ' "$log")
    f=$(grep -c '^FAIL: ' "$log")
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
        echo "FAIL: $name exited with status $rc without a failing check" >>"$log"
        f=1
    fi
    passed=$((passed + p)); failed=$((failed + f))
    printf '== %s: %d passed, %d failed (%ds)\n' "$name" "$p" "$f" $((SECONDS - t0))
    grep -v '^pass: ' "$log" | sed 's/^/   /'
}
for t in "$BUILD"/tests/test_*; do
    [ -x "$t" ] && run_one "$(basename "$t")" "$t"
done
for s in tests/claims/*.sh; do
    [ -f "$s" ] && run_one "$(basename "$s")" bash "$s"
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
