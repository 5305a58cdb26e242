# fuzz.sh: every fuzz target replays its saved corpus (tests/fuzz/corpus/<target>/) without a
# crash; `make fuzz` grows the corpora with libFuzzer.
. "$(dirname "$0")/../lib.sh"
BUILD=${BUILD:-build}
for t in tests/fuzz/fuzz_*.c; do
    name=$(basename "$t" .c); name=${name#fuzz_}
    out=$("$BUILD/fuzz/replay_$name" "tests/fuzz/corpus/$name" 2>&1)
    rc=$?
    if [ "$rc" -eq 0 ]; then pass "fuzz_$name: $(printf '%s' "$out" | tail -1 | sed 's/^pass: //')"
    else fail "fuzz_$name: replay crashed or failed (status $rc): $(printf '%s' "$out" | tail -3)"; fi
done
