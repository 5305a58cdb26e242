#!/usr/bin/env bash
# run.sh: make test-cluster: the cluster tests (tests/cluster/parallel.sh, slurm.sh), each
# timed, their "pass:"/"FAIL:" lines counted, ending with "N passed, N failed". A test that
# cannot run (a package missing, the daemons not starting) fails and says why.
set -u
cd "$(dirname "$0")/../.."
export BIN=${BIN:-bin}
passed=0 failed=0 t_all=$SECONDS
log=$(mktemp)
trap 'rm -f "$log"' EXIT
for s in tests/cluster/parallel.sh tests/cluster/slurm.sh; do
    t0=$SECONDS
    bash "$s" >"$log" 2>&1
    rc=$?
    p=$(grep -c '^pass: ' "$log")
    f=$(grep -c '^FAIL: ' "$log")
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
        echo "FAIL: $s exited with status $rc without a failing check" >>"$log"
        f=1
    fi
    passed=$((passed + p)) failed=$((failed + f))
    printf '== %s: %d passed, %d failed (%ds)\n' "$(basename "$s")" "$p" "$f" $((SECONDS - t0))
    grep -v '^pass: ' "$log" | sed 's/^/   /'
done
echo "cluster tests: $passed passed, $failed failed ($((SECONDS - t_all)) s)"
[ "$failed" -eq 0 ]
