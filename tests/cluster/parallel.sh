#!/usr/bin/env bash
# parallel.sh: the README's GNU parallel block for the Schelleng sweep, run as it stands (its F,
# N, D set here) over the local sshlogin 2/: (no ssh): stand-in cells in 4 parts, part 2 stopped
# by SIGTERM midway; the block fails (parallel's job failed, --merge refuses the unfinished
# part), the same block again reruns only part 2, which resumes, and merges into the file of a
# single-machine run. Then two parts of real-model cells, merged and compared the same way.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib.sh"
S=$BINDIR/schelleng
if ! command -v parallel >/dev/null; then
    fail "GNU parallel is not installed (make deps-cluster installs it)"
    exit 1
fi
block=$(readme_block "tests/cluster/parallel.sh runs this block")
check_text "README: the block sets F, N and D first" "$(head -1 <<<"$block")" 'F="--full" N=8 D=build/data/schelleng'
check_text "README: the block runs parallel and merges" "$block" "parallel --sshloginfile hosts"
rest=$(tail -n +2 <<<"$block")
# The checkout, as the block sees it: $TMP/ivplab with this bin/; the local sshlogin's --workdir
# ivplab is relative to the folder parallel runs in, so ivplab/ivplab is the checkout again.
mkdir -p "$TMP/ivplab"
ln -s "$BINDIR" "$TMP/ivplab/bin"
ln -s . "$TMP/ivplab/ivplab"
echo "2/:" >"$TMP/ivplab/hosts"
run_block() { (cd "$TMP/ivplab" && F=$1 N=$2 D=$3 bash -c "$rest"); }   # run_block F N D

# stand-in cells, part 2 of 4 stopped midway
F="--stand_in --what sweep --nx 12 --nf 8" D=$TMP/stand-in P2=$TMP/stand-in/part-2-of-4.tsv
t0=$SECONDS
run_block "$F" 4 "$D" >"$TMP/run1.out" 2>"$TMP/run1.err" &
job=$!
if pid=$(running_with "$P2" 3) && kill -TERM "$pid"; then pass "part 2 of 4 stopped by SIGTERM midway ($(nrows "$P2") rows)"
else fail "part 2 of 4 could not be stopped midway (it ended first or never started)"; fi
wait $job
rc=$?
kept=$(nrows "$P2")
check_num "the first run fails (the merge refuses): exit 2" "$rc" near 2 0
check_text "the stopped part says how it ends" "$(cat "$TMP/run1.err")" "stopped by SIGTERM after"
check_text "the merge names the unfinished part" "$(cat "$TMP/run1.err")" "$P2 lacks cell"
check_num "the stopped part holds whole rows only, fewer than its 24 cells ($kept)" \
    "$(tail -n +2 "$P2" | awk -F'\t' 'NF != 25' | wc -l)" near 0 0
check_num "the stopped part: fewer rows than its 24 cells" "$kept" lt 24
failed=$(awk -F'\t' 'NR > 1 && ($7 != 0 || $8 != 0) { print $9 }' "$D/parallel.log" | grep -c "shard 2/4")
check_num "parallel's job log: the job of part 2 failed" "$failed" near 1 0
jobs1=$(($(wc -l <"$D/parallel.log") - 1))
run_block "$F" 4 "$D" >"$TMP/run2.out" 2>"$TMP/run2.err"
rc=$?
check_num "the same block again: exit 0" "$rc" near 0 0
check_num "the same block again: only part 2 rerun (jobs in the log $jobs1 -> +1)" \
    "$(($(wc -l <"$D/parallel.log") - 1 - jobs1))" near 1 0
check_text "the same block again: part 2 resumed its rows" "$(cat "$TMP/run2.out")" \
    "24 cells ($kept already in the results, $((24 - kept)) computed)"
check_text "the same block again: merged" "$(cat "$TMP/run2.out")" "merged 4 parts into $D/results-full.tsv (12 x 8 cells)"
"$S" $F --results "$TMP/single.tsv" --out "$TMP/single" >/dev/null 2>&1
same_as_single "stand-in, 4 parts, one stopped and rerun" "$D/results-full.tsv" "$TMP/single.tsv"
echo "stand-in sweep through parallel: $((SECONDS - t0)) s"

# real-model cells: 2 x 2 cells in two parts
F="--what sweep --nx 2 --nf 2" D=$TMP/model
t0=$SECONDS
run_block "$F" 2 "$D" >"$TMP/run3.out" 2>"$TMP/run3.err"
check_num "real-model cells through parallel: exit 0" "$?" near 0 0
"$S" $F --results "$TMP/single-model.tsv" --out "$TMP/single" >/dev/null 2>&1
check_num "real-model cells: 4 simulated rows" "$(tail -n +2 "$D/results-full.tsv" | grep -c simulation)" near 4 0
same_as_single "real-model cells, 2 parts" "$D/results-full.tsv" "$TMP/single-model.tsv"
echo "real-model cells through parallel: $((SECONDS - t0)) s"
