#!/usr/bin/env bash
# sweep_parts.sh: the Schelleng sweep's results files (bin/schelleng; src/study/sweep, src/bow/plane) on the
# stand-in cell function: parts of --shard K/N, each with its own header, merged by --merge
# into the file of a single-machine run (issue 29 item 1) and refused, with the part and the
# cell named, when torn, doubled, missing, of another grid, model or N, or foreign; a full disk
# cut back to whole rows (issue 27 item 8); a resumed run that retries failed cells and checks
# every field of every row it keeps (issue 27 item 10).
. "$(dirname "$0")/../lib.sh"
S=$BIN/schelleng
G=(--stand_in --what sweep --nx 5 --nf 4)
strip() { cut -f1-19,22- "$1" | sort; }    # the rows without the timing columns (seconds, cpu_seconds)

# --- the parts and their merge ------------------------------------------------------------------
"$S" "${G[@]}" --out "$TMP/one" >/dev/null 2>&1
ONE=$TMP/one/results-stand-in.tsv
for k in 1 2 3; do
    "$S" "${G[@]}" --shard $k/3 --out "$TMP/sh" >/dev/null 2>&1
done
P1=$TMP/sh/results-stand-in-1-of-3.tsv P2=$TMP/sh/results-stand-in-2-of-3.tsv P3=$TMP/sh/results-stand-in-3-of-3.tsv
check_num "shards: every part starts with the header" "$(head -qn1 "$P1" "$P2" "$P3" | grep -c '^i_x')" near 3 0
check_text "shards: part 2's header names its shard" "$(head -1 "$P2")" ", stand-in, shard 2/3"
check_num "shard 2/3 holds cells c with c mod 3 = 1 only" \
    "$(tail -n +2 "$P2" | awk -F'\t' '($2 * 5 + $1) % 3 != 1' | wc -l)" near 0 0
check_num "shards: no part writes boundaries of its own cells alone" \
    "$(find "$TMP/sh" -name '*boundaries*' | wc -l)" near 0 0
"$S" --merge "$P1" "$P2" "$P3" >"$TMP/merge.out" 2>"$TMP/merge.err"
rc=$?
M=$TMP/sh/results-stand-in.tsv
check_num "--merge of the three parts: exit 0" "$rc" near 0 0
check_text "--merge names the merged file (the parts' name without -K-of-N)" "$(cat "$TMP/merge.out")" \
    "merged 3 parts into $M (5 x 4 cells)"
if [ -f "$M" ] && [ "$(head -1 "$M")" = "$(head -1 "$ONE")" ] && [ "$(strip "$M")" = "$(strip "$ONE")" ]; then
    pass "merged parts = the single-machine run: header and 20 rows (timing columns aside)"
else
    fail "merged parts differ from the single-machine run"
fi
if cmp -s "$TMP/sh/results-stand-in-boundaries.tsv" "$TMP/one/results-stand-in-boundaries.tsv"; then
    pass "the merge's boundaries file = the single-machine run's (read off the whole grid)"
else
    fail "the merge's boundaries file differs from the single-machine run's"
fi
check_text "--merge prints the boundary fits" "$(cat "$TMP/merge.out")" "Figure 10's boundaries"
check_num "--merge: rows in cell order" "$(tail -n +2 "$M" | awk -F'\t' '$2 * 5 + $1 != NR - 1' | wc -l)" near 0 0

# Refusals: exit 2, one line naming the part (and the cell), no merged file.
refused() {  # refused DESC WANT PARTS...: --merge refuses, its line holds WANT
    local desc=$1 want=$2; shift 2
    expect_bad_input "--merge refuses $desc" "$S" --merge "$@" --results "$TMP/out/merged.tsv"
    check_text "--merge refuses $desc: says '$want'" "$(cat "$TMP/stderr")" "$want"
}
head -c -10 "$P2" >"$TMP/torn.tsv"
refused "a torn row" "$TMP/torn.tsv:8: a torn row" "$P1" "$TMP/torn.tsv" "$P3"
cell_of() { awk -F'\t' -v n="$2" 'NR == n { print "cell (" $1 ", " $2 ")" }' "$1"; }    # cell_of FILE LINE
{ cat "$P2"; sed -n 2p "$P2"; } >"$TMP/dup.tsv"
refused "a duplicate cell" "$TMP/dup.tsv:9: $(cell_of "$P2" 2) again (first at $TMP/dup.tsv:2)" "$P1" "$TMP/dup.tsv" "$P3"
refused "a missing shard" "shards 2 of 3 missing" "$P1" "$P3"
refused "a part's file not there" "shards 2 of 3 missing" "$P1" "$TMP/sh/none-2-of-3.tsv" "$P3"
refused "a part given twice" "$P3 is shard 3/3 again" "$P1" "$P2" "$P3" "$P3"
grep -v "^4	3	" "$P2" >"$TMP/short.tsv"
refused "an unfinished part" "$TMP/short.tsv lacks cell (4, 3) (an unfinished part)" "$P1" "$TMP/short.tsv" "$P3"
"$S" --stand_in --what sweep --nx 5 --nf 5 --shard 2/3 --out "$TMP/grid" >/dev/null 2>&1
refused "another grid" "$TMP/grid/results-stand-in-2-of-3.tsv is of another grid or model" "$P1" \
    "$TMP/grid/results-stand-in-2-of-3.tsv" "$P3"
"$S" "${G[@]}" --shard 2/3 --set f0=99 --out "$TMP/model" >/dev/null 2>&1
refused "another model" "$TMP/model/results-stand-in-2-of-3.tsv is of another grid or model" "$P1" \
    "$TMP/model/results-stand-in-2-of-3.tsv" "$P3"
"$S" "${G[@]}" --shard 2/4 --out "$TMP/n4" >/dev/null 2>&1
refused "another --shard total" "is shard 2 of 4, $P1 of 3" "$P1" "$TMP/n4/results-stand-in-2-of-4.tsv" "$P3"
printf 'notes for Tuesday\n' >"$TMP/foreign.tsv"
refused "a foreign file" "$TMP/foreign.tsv does not start with a results header of bin/schelleng" \
    "$P1" "$TMP/foreign.tsv" "$P3"
refused "a foreign file first" "$TMP/foreign.tsv does not start with a results header" "$TMP/foreign.tsv" "$P1"
awk -F'\t' -v OFS='\t' 'NR == 3 { $5 = "failed"; $24 = "failed" } 1' "$P2" >"$TMP/failed.tsv"
refused "a failed cell" "$TMP/failed.tsv:3: $(cell_of "$P2" 3) failed" "$P1" "$TMP/failed.tsv" "$P3"
awk -F'\t' -v OFS='\t' 'NR == 3 { $5 = "bogus" } 1' "$P2" >"$TMP/bogus.tsv"
refused "a row of regime 'bogus'" "$TMP/bogus.tsv:3: $(cell_of "$P2" 3): regime 'bogus'" "$P1" "$TMP/bogus.tsv" "$P3"
expect_bad_input "--merge without parts" "$S" --merge --out "$TMP/out"
expect_bad_input "a part without --merge" "$S" "$P1" --out "$TMP/out"

# --- a full disk (8 KiB tmpfs): whole rows only, then resumed elsewhere ------------------------
full=$TMP/full
mkdir -p "$full"
if mount -t tmpfs -o size=8k tmpfs "$full" 2>/dev/null; then
    "$S" --stand_in --what sweep --nx 8 --nf 8 --out "$full" >/dev/null 2>"$TMP/full.err"
    rc=$?
    R=$full/results-stand-in.tsv
    check_num "disk full mid-sweep: exit status 1" "$rc" near 1 0
    check_text "disk full mid-sweep: says so, and that the file holds whole rows" "$(cat "$TMP/full.err")" \
        "cannot append to $R: No space left on device; it holds whole rows only: the same command resumes it"
    check_text "disk full mid-sweep: the last byte is a newline" "$(tail -c1 "$R" | od -An -c)" '\n'
    check_num "disk full mid-sweep: every row whole (25 fields)" "$(tail -n +2 "$R" | awk -F'\t' 'NF != 25' | wc -l)" near 0 0
    kept=$(($(wc -l <"$R") - 1))
    check_num "disk full mid-sweep: some rows kept ($kept)" "$kept" gt 10
    last=$(tr '\r' '\n' <"$TMP/full.err" | grep 'cells' | tail -1)
    case $last in *"64/64"*|*"100%"*) fail "disk full mid-sweep: the progress line claims the end: $last";;
        *) pass "disk full mid-sweep: the progress line stops at the rows written: $last";; esac
    cp "$R" "$TMP/resume.tsv"
    umount "$full"
    "$S" --stand_in --what sweep --nx 8 --nf 8 --results "$TMP/resume.tsv" --out "$TMP/res" >"$TMP/res.out" 2>/dev/null
    check_text "after the full disk, resumed elsewhere: the rest computed" "$(cat "$TMP/res.out")" \
        "64 cells ($kept already in the results, $((64 - kept)) computed)"
    "$S" --stand_in --what sweep --nx 8 --nf 8 --out "$TMP/whole" >/dev/null 2>&1
    if [ "$(strip "$TMP/resume.tsv")" = "$(strip "$TMP/whole/results-stand-in.tsv")" ]; then
        pass "after the full disk, resumed: the rows of an uninterrupted run"
    else
        fail "after the full disk, resumed: rows differ from an uninterrupted run"
    fi
    # full from the start: nothing is left behind, not even an empty results file
    mount -t tmpfs -o size=4k tmpfs "$full"
    head -c 4096 /dev/zero >"$full/filler" 2>/dev/null
    "$S" --stand_in --what sweep --nx 8 --nf 8 --out "$full" >/dev/null 2>"$TMP/full.err"
    rc=$?
    check_num "disk full from the start: exit status 1" "$rc" near 1 0
    check_text "disk full from the start: says so" "$(cat "$TMP/full.err")" "cannot write $full/results-stand-in.tsv: No space"
    check_num "disk full from the start: no results file left" "$(find "$full" -name 'results*' | wc -l)" near 0 0
    umount "$full"
else
    fail "disk full: could not mount an 8 KiB tmpfs to test it (tests run as root)"
fi

# --- resuming: failed cells run again, every field of every kept row checked ----------------------
cp "$ONE" "$TMP/orig.tsv"
awk -F'\t' -v OFS='\t' 'NR == 4 { $5 = "failed"; $24 = "failed" } 1' "$TMP/orig.tsv" >"$ONE"
"$S" "${G[@]}" --out "$TMP/one" >"$TMP/redo.out" 2>"$TMP/redo.err"
rc=$?
check_num "a failed row, resumed: exit 0" "$rc" near 0 0
check_text "a failed row, resumed: its cell computed again" "$(cat "$TMP/redo.out")" \
    "20 cells (19 already in the results, 1 computed)"
check_num "a failed row, resumed: no failed row left" "$(grep -c failed "$ONE")" near 0 0
if [ "$(strip "$ONE")" = "$(strip "$TMP/orig.tsv")" ]; then pass "a failed row, resumed: the rows of the first run"
else fail "a failed row, resumed: rows differ from the first run"; fi
edited() {  # edited DESC AWK WANT: row 3 edited by AWK; the resumed run refuses, the file untouched
    awk -F'\t' -v OFS='\t' "NR == 3 { $2 } 1" "$TMP/orig.tsv" >"$ONE"
    cp "$ONE" "$TMP/edited.tsv"
    "$S" "${G[@]}" --out "$TMP/one" >"$TMP/stdout" 2>"$TMP/stderr"
    local rc=$?
    if [ "$rc" -eq 2 ] && [ "$(wc -l <"$TMP/stderr")" -eq 1 ] && cmp -s "$ONE" "$TMP/edited.tsv"; then
        pass "resume refuses $1: exit 2, one line, file untouched: $(cat "$TMP/stderr")"
    else
        fail "resume refuses $1: exit $rc: $(head -c 300 "$TMP/stderr")"
    fi
    check_text "resume refuses $1: names the line" "$(cat "$TMP/stderr")" "$ONE:3: cell ("
    check_text "resume refuses $1: names the field" "$(cat "$TMP/stderr")" "$3"
}
edited "regime bogus, mean_N nan" '$5 = "bogus"; $8 = "nan"' "mean_N 'nan' is not a finite number"
edited "regime bogus" '$5 = "bogus"' "regime 'bogus' is not one of this program's"
edited "a reason on a classified cell" '$5 = "helmholtz"; $24 = "irregular"' "regime helmholtz with reason irregular"
edited "an RMS of 1x" '$9 = "1x"' "rms_N '1x' is not a finite number"
edited "a cell edge moved" '$16 = "0.5"' "x_lo 0.5 is not the cell's edge"
cp "$TMP/orig.tsv" "$ONE"
