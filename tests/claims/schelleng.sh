#!/usr/bin/env bash
# schelleng.sh: the claims of bin/schelleng (lesson 11). The classifier on simulated strokes
# (the Figure 6 point is Helmholtz motion; low forces near the bridge give multiple slips or
# unclassified; very high forces give raucous motion; two points of the Figure 9 gallery),
# the Figure 13 parameter set reaching the model, and the sweep machinery on the stand-in cell
# function (parallel workers, rows appended whole, resume after an interruption; shards and
# their merge in sweep_parts.sh), progress on stderr, and bad input.
. "$(dirname "$0")/../lib.sh"
S=$BIN/schelleng

cell() {  # cell X,F [flags...]: the TSV row of one classified stroke
    local xf=$1; shift
    "$S" --cell "$xf" --tsv "$@" >"$TMP/cell.tsv" 2>"$TMP/cell.err" || { cat "$TMP/cell.err"; return 1; }
}
col() { awk -F'\t' -v c="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i } NR == 2 { print $k }' "$TMP/cell.tsv"; }

# --- simulated strokes --------------------------------------------------------------------
cell 0.075,2.15
check_text "Figure 6 point (x_b/L 0.075, f_b 2.15 N) is Helmholtz motion" "$(col regime)" helmholtz
check_num "Figure 6 point: slips per period" "$(col slips_per_period)" near 1 0.05
check_num "Figure 6 point: f0 within 3% of 98 Hz" "$(col f0_hz)" near 98 2.94
check_num "Figure 6 point: regularity from period to period" "$(col regularity)" gt 0.99
mean_main=$(col mean_N)

cell 0.025,0.24
r=$(col regime)
case $r in multiple_slip|unclassified) pass "low force near the bridge (0.025, 0.24 N): $r";;
    *) fail "low force near the bridge (0.025, 0.24 N): $r, wanted multiple_slip or unclassified";; esac
cell 0.0396,0.577
check_text "low force near the bridge (0.0396, 0.577 N): multiple slips" "$(col regime)" multiple_slip
check_num "(0.0396, 0.577 N): six slips a period" "$(col slips_per_period)" near 6 0.15

cell 0.0995,8
check_text "very high force (0.0995, 8 N): raucous motion" "$(col regime)" raucous
check_num "very high force: not periodic at the nominal period (T/T0 off by > 8%)" \
    "$(awk -v r="$(col period_ratio)" 'BEGIN { d = r - 1; print (d < 0 ? -d : d) }')" gt 0.08

cell 0.0874,0.88
check_text "Figure 9 gallery, 0.88 N: double slips" "$(col regime)" double_slip
cell 0.0874,2.1
check_text "Figure 9 gallery, 2.10 N: Helmholtz motion" "$(col regime)" helmholtz
check_num "Figure 9 gallery, 2.10 N: pitch flattened below 98 Hz" "$(col f0_hz)" lt 98

# S-motion where the article finds it (x_b/L 0.15-0.2): one slip a period at the bow, but a
# second return at the bridge of more than half the main one (a cell of the full sweep); next
# to it at 0.147 the same force is Helmholtz motion with small second returns.
cell 0.175425957,1.05862163
check_text "full-sweep cell (0.1754, 1.06 N): S-motion" "$(col regime)" s_motion
check_num "(0.1754, 1.06 N): one slip a period" "$(col slips_per_period)" near 1 0.05
check_num "(0.1754, 1.06 N): a second return above half the main one" "$(col secondary_ratio)" gt 0.5
check_num "(0.1754, 1.06 N): two or more flybacks a period" "$(col flybacks_per_period)" ge 2
cell 0.14695,1.0586
check_text "(0.147, 1.06 N): Helmholtz motion" "$(col regime)" helmholtz
check_num "(0.147, 1.06 N): second returns small (Schelleng ripples)" "$(col secondary_ratio)" lt 0.3
# The article's Figure 9 example with "stronger ripples" at 4.18 N is Helmholtz motion: its
# second returns stay below the flyback threshold of half the main one.
cell 0.0874,4.18
check_text "Figure 9 gallery, 4.18 N (stronger ripples): Helmholtz motion" "$(col regime)" helmholtz
check_num "Figure 9 gallery, 4.18 N: second returns below half the main one" "$(col secondary_ratio)" lt 0.5
check_text "a classified cell has the reason '-'" "$(col reason)" "-"
cell 0.025,0.24
check_text "an unclassified cell names its reason (0.025, 0.24 N)" "$(col reason)" tiny

cell 0.075,2.15 --params schelleng-fig13.ini
check_num "Figure 13 parameters (mu_d = mu_s) change the mean bridge force at the Figure 6 point" \
    "$(awk -v a="$(col mean_N)" -v b="$mean_main" 'BEGIN { d = a - b; print (d < 0 ? -d : d) }')" gt 0.01

# --- the sweep machinery, on the stand-in cells -----------------------------------------------
O=$TMP/sw
"$S" --stand_in --what sweep --nx 5 --nf 4 --jobs 2 --out "$O" >"$TMP/sw.out" 2>"$TMP/sw.err"
R=$O/results-stand-in.tsv
check_num "stand-in sweep 5 x 4: rows" "$(tail -n +2 "$R" | wc -l)" near 20 0
check_text "stand-in sweep: the header names the columns" "$(head -1 "$R")" \
    "x_b_over_L	f_b_N	regime	slips_per_period	f0_hz	mean_N	rms_N	centroid_hz"
check_num "stand-in sweep: every row marked stand-in" "$(tail -n +2 "$R" | awk -F'\t' '$23 == "stand-in"' | wc -l)" near 20 0
check_text "stand-in sweep: stdout says the cells are a stand-in" "$(head -1 "$TMP/sw.out")" "STAND-IN"
check_text "progress bar with ETA on stderr" "$(cat "$TMP/sw.err")" "20/20 cells 100%"
check_text "progress bar with ETA on stderr" "$(cat "$TMP/sw.err")" "ETA"
check_num "stand-in sweep: all 20 cells distinct" "$(tail -n +2 "$R" | cut -f1,2 | sort -u | wc -l)" near 20 0
regimes=$(tail -n +2 "$R" | cut -f5 | sort -u | wc -l)
check_num "stand-in sweep: the stand-in's regimes come back from the classifier (distinct kinds)" "$regimes" ge 4

# Rerun: everything is already there.
"$S" --stand_in --what sweep --nx 5 --nf 4 --out "$O" >"$TMP/sw2.out" 2>/dev/null
check_text "rerun skips the cells already in the file" "$(cat "$TMP/sw2.out")" "20 cells (20 already in the results, 0 computed)"

# An interruption: the file cut after 7 rows plus half a row; the resumed run completes it.
{ head -8 "$R"; tail -1 "$R" | head -c 25; } >"$TMP/cut.tsv"
cp "$TMP/cut.tsv" "$R"
"$S" --stand_in --what sweep --nx 5 --nf 4 --out "$O" >"$TMP/sw3.out" 2>/dev/null
check_text "resume: 7 cells skipped, 13 computed" "$(cat "$TMP/sw3.out")" "20 cells (7 already in the results, 13 computed)"
check_num "resume: 20 whole rows, no half row" "$(tail -n +2 "$R" | awk -F'\t' 'NF == 25' | wc -l)" near 20 0
check_num "resume: no cell twice" "$(tail -n +2 "$R" | cut -f1,2 | sort -u | wc -l)" near 20 0

# A real interruption (SIGTERM mid-sweep): only whole rows, then resumed to the end.
O2=$TMP/int
"$S" --stand_in --what sweep --nx 12 --nf 12 --jobs 2 --out "$O2" >/dev/null 2>&1 &
pid=$!
sleep 1
kill -TERM $pid 2>/dev/null
wait $pid 2>/dev/null
R2=$O2/results-stand-in.tsv
before=$(tail -n +2 "$R2" | wc -l)
bad=$(tail -n +2 "$R2" | awk -F'\t' 'NF != 25' | wc -l)
check_num "SIGTERM mid-sweep: no partial rows ($before rows written)" "$bad" near 0 0
"$S" --stand_in --what sweep --nx 12 --nf 12 --jobs 2 --out "$O2" >"$TMP/int.out" 2>/dev/null
check_num "after SIGTERM, resumed: 144 distinct cells" "$(tail -n +2 "$R2" | cut -f1,2 | sort -u | wc -l)" near 144 0
check_num "after SIGTERM, resumed: 144 rows" "$(tail -n +2 "$R2" | wc -l)" near 144 0

# SIGINT mid-sweep (^C): the cells in flight are finished, the run says how to resume, ends by
# SIGINT; the resumed run computes exactly the rest.
O5=$TMP/sigint
"$S" --stand_in --what sweep --nx 12 --nf 12 --jobs 2 --out "$O5" >/dev/null 2>"$TMP/sigint.err" &
pid=$!
R5=$O5/results-stand-in.tsv
for _ in $(seq 100); do [ -f "$R5" ] && [ "$(wc -l <"$R5")" -gt 5 ] && break; sleep 0.05; done
kill -INT $pid 2>/dev/null
wait $pid
rc=$?
check_num "SIGINT mid-sweep: the program ends by SIGINT (status 130)" "$rc" near 130 0
check_text "SIGINT mid-sweep: says how to resume" "$(tail -1 "$TMP/sigint.err")" "holds whole rows only: the same command resumes it"
kept=$(tail -n +2 "$R5" | wc -l)
check_num "SIGINT mid-sweep: only whole rows ($kept kept)" "$(tail -n +2 "$R5" | awk -F'\t' 'NF != 25' | wc -l)" near 0 0
check_text "SIGINT mid-sweep: the message counts the rows kept" "$(tail -1 "$TMP/sigint.err")" "after $kept of 144 cells"
"$S" --stand_in --what sweep --nx 12 --nf 12 --jobs 2 --out "$O5" >"$TMP/sigint.out" 2>/dev/null
check_text "after SIGINT, resumed: the rest computed" "$(cat "$TMP/sigint.out")" "144 cells ($kept already in the results, $((144 - kept)) computed)"
check_num "after SIGINT, resumed: 144 distinct cells" "$(tail -n +2 "$R5" | cut -f1,2 | sort -u | wc -l)" near 144 0

# A worker killed mid-sweep (SIGKILL): its cell is lost and named, the others go on, exit 1, only
# whole rows; the same command then computes what is missing. (Killed in the instant between two
# cells it loses none: then exit 0 and every row there.)
O6=$TMP/killed
"$S" --stand_in --what sweep --nx 12 --nf 12 --jobs 2 --out "$O6" >/dev/null 2>"$TMP/killed.err" &
pid=$!
kid=""
for _ in $(seq 100); do kid=$(pgrep -P $pid | head -1); [ -n "$kid" ] && [ -s "$O6/results-stand-in.tsv" ] && break; sleep 0.05; done
kill -KILL "$kid"
wait $pid
rc=$?
R6=$O6/results-stand-in.tsv
lost=$(grep -c "was killed by signal 9" "$TMP/killed.err")
rows=$(tail -n +2 "$R6" | wc -l)
check_num "a worker killed mid-sweep: exit status 1 when its cell is lost and named ($lost lost)" "$rc" near "$lost" 0
check_num "a worker killed mid-sweep: rows + cells lost = 144" "$((rows + lost))" near 144 0
check_num "a worker killed mid-sweep: only whole rows" "$(tail -n +2 "$R6" | awk -F'\t' 'NF != 25' | wc -l)" near 0 0
"$S" --stand_in --what sweep --nx 12 --nf 12 --jobs 2 --out "$O6" >"$TMP/killed.out" 2>/dev/null
check_text "after the killed worker, resumed: the lost cells computed" "$(cat "$TMP/killed.out")" "144 cells ($rows already in the results, $lost computed)"

# Shards, their merge (--merge), a full disk and resuming over failed or edited rows:
# tests/claims/sweep_parts.sh.

# Unclassified is a finding: every unclassified row names its reason, every classified row "-".
check_num "every unclassified row has a reason, every classified one '-'" \
    "$(tail -n +2 "$R" | awk -F'\t' '($5 == "unclassified") != ($24 != "-")' | wc -l)" near 0 0
check_text "the reasons are counted in the summary" "$(cat "$TMP/sw.out")" "unclassified:"
nu=$(tail -n +2 "$R" | awk -F'\t' '$5 == "unclassified"' | wc -l)
nr=$(awk '$2 ~ /^unclassified:/ { s += $3 } END { print s + 0 }' "$TMP/sw.out")
check_num "the reasons' counts add up to the unclassified cells ($nu)" "$nr" near "$nu" 0

# --redo_unclassified: a second run over only the cells the first left unclassified (e.g. with
# a longer hold) computes exactly those.
"$S" --stand_in --what sweep --nx 5 --nf 4 --out "$O" --redo_unclassified "$R" --results "$TMP/redo.tsv" >/dev/null 2>&1
check_text "--redo_unclassified: the same cells as the unclassified rows ($nu)" \
    "$(tail -n +2 "$TMP/redo.tsv" | cut -f1,2 | sort)" "$(tail -n +2 "$R" | awk -F'\t' '$5 == "unclassified"' | cut -f1,2 | sort)"
check_num "the stand-in sweep has unclassified cells to redo" "$nu" gt 0
check_num "--redo_unclassified: $nu rows" "$(tail -n +2 "$TMP/redo.tsv" | wc -l)" near "$nu" 0
expect_bad_input "--redo_unclassified of a missing file" "$S" --stand_in --what sweep --nx 5 --nf 4 \
    --redo_unclassified "$TMP/none.tsv" --out "$TMP/out"

# Figure 10's boundaries: the slopes printed are a least-squares fit in log-log of the edge
# above the highest (below the lowest) Helmholtz cell of each column, recomputed here from the
# results file alone.
O3=$TMP/bd
"$S" --stand_in --what sweep --nx 8 --nf 8 --tsv --out "$O3" >"$TMP/bd.tsv" 2>/dev/null
for e in helmholtz_max helmholtz_min; do
    want=$(awk -F'\t' -v e=$e 'NR > 1 && $5 != "" {
            i = $1; j = $2; x[i] = $3; f[j] = $4; if ($5 == "helmholtz") { if (!(i in lo) || j < lo[i]) lo[i] = j; if (!(i in hi) || j > hi[i]) hi[i] = j }
            if (i > ni) ni = i; if (j > nj) nj = j }
        END { for (i = 0; i <= ni; i++) {
                if (e == "helmholtz_max" && (i in hi) && hi[i] < nj) y = sqrt(f[hi[i]] * f[hi[i] + 1]);
                else if (e == "helmholtz_min" && (i in lo) && lo[i] > 0) y = sqrt(f[lo[i] - 1] * f[lo[i]]);
                else continue
                X = log(x[i]) / log(10); Y = log(y) / log(10); n++; sx += X; sy += Y; sxx += X * X; sxy += X * Y }
              printf "%.3f", (n * sxy - sx * sy) / (n * sxx - sx * sx) }' "$O3/results-stand-in.tsv")
    got=$(awk -F'\t' -v e=$e '$1 == e { print $3 }' "$TMP/bd.tsv")
    check_num "boundary $e: printed slope = least squares of the edges recomputed from the TSV ($want)" "$got" near "$want" 0.0015
done
check_text "the boundaries table names Schelleng's slopes" "$(awk -F'\t' '$1 == "helmholtz_max" { print $6 }' "$TMP/bd.tsv")" "-1"
check_num "boundaries file: one edge row per column" "$(awk 'NF == 0 { exit } NR > 1' "$O3/results-stand-in-boundaries.tsv" | wc -l)" near 8 0
# A fit is printed only from 4 or more columns with an edge (enough to estimate its error): on 3
# columns none is (was "slope -1.903 +- 0.000" on the default 6 x 6 grid), and a printed error is
# never 0 (it counts the grid's resolution).
"$S" --stand_in --what sweep --nx 3 --nf 6 --tsv --out "$TMP/b3" >"$TMP/b3.tsv" 2>/dev/null
check_text "3 columns: no boundary fitted (slope, slope_se, f_b_at_1_N nan)" \
    "$(awk -F'\t' 'NR > 1 { printf "%s %s %s %s;", $1, $3, $4, $5 }' "$TMP/b3.tsv")" \
    "helmholtz_max nan nan nan;helmholtz_min nan nan nan;double_multiple nan nan nan;"
check_num "8 x 8: every printed fit has 4 or more columns and an error above 0 (violations)" \
    "$(awk -F'\t' 'NR > 1 && $3 != "nan" && ($2 < 4 || !($4 > 0))' "$TMP/bd.tsv" | wc -l)" near 0 0
"$S" --stand_in --what sweep --nx 3 --nf 6 --out "$TMP/b3h" >"$TMP/b3h.txt" 2>/dev/null
check_text "the human table says when a boundary is fitted" "$(cat "$TMP/b3h.txt")" "fitted from 4 or more columns"

# Figures drawn from this data say what it holds: schelleng_measures counts every cell (36 of a
# 6 x 6 grid, not the 18 inside a range), Figure 13 labels its lines as the main sweep's fits, and
# its title fits beside the outside key (half its width, at gnuplot's character width, inside the
# canvas from the plot's centre).
F=$TMP/fig; mkdir -p "$F"
"$S" --stand_in --what sweep --nx 6 --nf 6 --tsv --out "$F" >/dev/null 2>&1
"$S" --stand_in --what fig13 --nx 6 --nf 6 --tsv --out "$F" >/dev/null 2>&1
for k in "" -boundaries; do cp "$F/results-stand-in$k.tsv" "$F/results$k.tsv"; done
cp "$F/results-fig13-stand-in.tsv" "$F/results-fig13.tsv"
gnuplot -e "fmt='svg'; outfile='$TMP/m.svg'; dir='$F'" plots/schelleng_measures.gp 2>/dev/null
check_text "schelleng_measures title: the 36 cells drawn" "$(cat "$TMP/m.svg")" "simulated, 36 cells"
gnuplot -e "fmt='svg'; outfile='$TMP/sb.svg'; dir='$F'" plots/schelleng_boundaries.gp 2>/dev/null
check_num "schelleng_boundaries: a boundary not fitted says so, no 'slope nan' in its key" \
    "$(grep -c 'slope nan' "$TMP/sb.svg")" near 0 0
gnuplot -e "fmt='svg'; outfile='$TMP/f13.svg'; dir='$F'" plots/schelleng_fig13.gp - <<'GP' >"$TMP/f13.txt" 2>&1
print sprintf("%d %d %g", GPVAL_TERM_XMIN, GPVAL_TERM_XMAX, 1.0 * GPVAL_TERM_HCHAR / GPVAL_TERM_SCALE)
print heading
GP
check_text "Figure 13 labels its lines as the main sweep's" "$(cat "$TMP/f13.svg")" "main sweep's"
check_text "Figure 13 title: the run's mu_s (fig13-params.tsv), not typed" "$(sed -n 2p "$TMP/f13.txt")" \
    "{/Symbol m}_s = $(awk -F'\t' '$1 == "mu_s" { print $2 }' "$F/fig13-params.tsv")"
"$S" --stand_in --what fig13 --nx 3 --nf 3 --set mu_s=1.2 --tsv --out "$TMP/f13b" >/dev/null 2>&1
cp "$TMP/f13b/results-fig13-stand-in.tsv" "$TMP/f13b/results-fig13.tsv"
gnuplot -e "fmt='svg'; outfile='$TMP/f13b.svg'; dir='$TMP/f13b'" plots/schelleng_fig13.gp - <<'GP' >"$TMP/f13b.txt" 2>&1
print heading
GP
check_text "Figure 13 title after --set mu_s=1.2: the values run, no 'no Stribeck effect'" "$(cat "$TMP/f13b.txt")" \
    "Figure 13 sweep: {/Symbol m}_d = 1.05, {/Symbol m}_s = 1.2"
read -r xmin xmax hchar < <(head -1 "$TMP/f13.txt")
chars=$(sed -n 2p "$TMP/f13.txt" | sed -e 's|{/Symbol ||g' -e 's/[{}_^]//g' | awk '{ print length($0) }')
check_num "Figure 13 title: from the plot's centre, half its width fits in the canvas (px to spare)" \
    "$(awk -v a="$xmin" -v b="$xmax" -v h="$hchar" -v n="$chars" 'BEGIN { print (a + b) / 2 - n * h / 2 }')" ge 0

# --keep: a rerun into another results file classifies the kept windows instead of simulating
# (the same rows, in a fraction of the time); a kept window from other parameters is not used.
O4=$TMP/keep
"$S" --what sweep --nx 2 --nf 1 --x_min 0.075 --x_max 0.1 --f_min 2.15 --f_max 2.15 --keep "$O4/k" --out "$O4" >/dev/null 2>&1
"$S" --what sweep --nx 2 --nf 1 --x_min 0.075 --x_max 0.1 --f_min 2.15 --f_max 2.15 --keep "$O4/k" --out "$O4" \
    --results "$O4/again.tsv" >/dev/null 2>&1
check_num "--keep: two windows kept" "$(ls "$O4/k" | wc -l)" near 2 0
if [ "$(cut -f1-18 "$O4/results.tsv" | sort)" = "$(cut -f1-18 "$O4/again.tsv" | sort)" ]; then
    pass "--keep: reclassified rows equal the simulated ones"
else
    fail "--keep: reclassified rows differ from the simulated ones"
fi
check_num "--keep: reclassifying took under 0.05 s CPU a cell" \
    "$(tail -n +2 "$O4/again.tsv" | awk -F'\t' '{ s += $21 } END { print s / NR }')" lt 0.05
"$S" --what sweep --nx 2 --nf 1 --x_min 0.075 --x_max 0.1 --f_min 2.15 --f_max 2.15 --keep "$O4/k" --out "$O4" \
    --set mu_d=0.31 --results "$O4/other.tsv" >/dev/null 2>&1
check_num "--keep: another instrument simulates again (CPU per cell > 0.05 s)" \
    "$(tail -n +2 "$O4/other.tsv" | awk -F'\t' '{ s += $21 } END { print s / NR }')" gt 0.05

# A results file from another grid is refused.
"$S" --stand_in --what sweep --nx 4 --nf 4 --out "$O" >/dev/null 2>"$TMP/grid.err"
rc=$?
check_num "a results file of another grid: exit 2" "$rc" near 2 0
check_text "a results file of another grid: says so" "$(cat "$TMP/grid.err")" "is not on this grid"

# --- bad input ----------------------------------------------------------------------------------
expect_bad_input "--shard 3/2" "$S" --shard 3/2 --out "$TMP/out"
expect_bad_input "--shard 0/2" "$S" --shard 0/2 --out "$TMP/out"
expect_bad_input "--shard x" "$S" --shard x --out "$TMP/out"
expect_bad_input "--nx 0" "$S" --nx 0 --out "$TMP/out"
expect_bad_input "--x_min above --x_max" "$S" --x_min 0.3 --x_max 0.2 --out "$TMP/out"
expect_bad_input "--cell 2,1 (x_b/L out of range)" "$S" --cell 2,1 --out "$TMP/out"
expect_bad_input "--what bogus" "$S" --what bogus --out "$TMP/out"
expect_bad_input "--set mu_d=-1" "$S" --set mu_d=-1 --out "$TMP/out"
expect_bad_input "--settle longer than the hold" "$S" --settle 0.3 --t_hold 0.3 --out "$TMP/out"
help=$("$S" --help)
check_text "--help lists --shard" "$help" "--shard"
check_text "--help lists --full" "$help" "--full"
check_text "--help shows units" "$help" "[0.1 m/s]"

# --- a results file that is not this sweep's is refused and left untouched (issue 21 item 1) ---
untouched() {  # untouched DESC FILE [flags...]: exit 2, one line naming the file, the file byte-identical
    local desc=$1 f=$2; shift 2
    cp "$f" "$TMP/before"
    "$S" --stand_in --what sweep --nx 2 --nf 2 --jobs 1 --results "$f" "$@" --out "$TMP/ut" >"$TMP/ut.out" 2>"$TMP/ut.err"
    local rc=$?
    if [ "$rc" -eq 2 ] && [ "$(wc -l <"$TMP/ut.err")" -eq 1 ] && grep -q "$f" "$TMP/ut.err" && cmp -s "$f" "$TMP/before" &&
        [ ! -s "$TMP/ut.out" ]; then
        pass "$desc: exit 2, nothing on stdout, file untouched: $(cat "$TMP/ut.err")"
    else
        fail "$desc: exit $rc, $(wc -c <"$f") bytes (was $(wc -c <"$TMP/before")), stdout $(wc -c <"$TMP/ut.out") B: $(head -c 300 "$TMP/ut.err")"
    fi
}
printf 'notes for Tuesday: bring the cello\n' >"$TMP/note.txt"
untouched "a 35-byte note" "$TMP/note.txt"
printf 'RIFF\044\000\000\000WAVEfmt \020\000\000\000\001\000\001\000' >"$TMP/sound.wav"
head -c 4000 /bin/sh >>"$TMP/sound.wav"
untouched "binary bytes (a WAV header, NULs)" "$TMP/sound.wav"
printf 'no newline at all' >"$TMP/nonl.txt"
untouched "a first line without a newline" "$TMP/nonl.txt"
awk 'BEGIN { s = ""; for (i = 0; i < 3000; i++) s = s "x"; print s }' >"$TMP/long.txt"
untouched "a first line over 2047 characters" "$TMP/long.txt"
"$S" --stand_in --what sweep --nx 2 --nf 2 --jobs 1 --results "$TMP/own.tsv" --out "$TMP/ut" >/dev/null 2>&1
untouched "this program's file for another model (--set mu_d)" "$TMP/own.tsv" --set mu_d=0.4
check_text "another model: says its header differs" "$(cat "$TMP/ut.err")" "is not on this grid and model"
untouched "this program's file for another grid (--f_max)" "$TMP/own.tsv" --f_max 7
{ head -1 "$TMP/own.tsv" | sed 's/\tbin\/schelleng results v1.*$//'; tail -n +2 "$TMP/own.tsv"; } >"$TMP/old.tsv"
untouched "a file of an earlier bin/schelleng (no grid or model in its header)" "$TMP/old.tsv"
check_text "an earlier file: says so" "$(cat "$TMP/ut.err")" "made by an earlier bin/schelleng"
mkdir -p "$TMP/adir"
"$S" --stand_in --what sweep --nx 2 --nf 2 --jobs 1 --results "$TMP/adir" --out "$TMP/ut" >/dev/null 2>"$TMP/ut.err"
check_num "a directory as --results: exit 2" "$?" near 2 0
check_text "a directory as --results: says it is not a regular file" "$(cat "$TMP/ut.err")" "not a regular file"
: >"$TMP/empty.tsv"
"$S" --stand_in --what sweep --nx 2 --nf 2 --jobs 1 --results "$TMP/empty.tsv" --out "$TMP/ut" >/dev/null 2>&1
check_num "an empty file is filled: 4 rows under the header" "$(tail -n +2 "$TMP/empty.tsv" | wc -l)" near 4 0
check_text "the header names the grid and the model" "$(head -1 "$TMP/empty.tsv")" "bin/schelleng results v1: x 0.025-0.25 (2), f 0.1-8 N (2), model "

# --- two runs on one results file at once: the second is refused, each cell once (issue 13 item 4) ---
R3=$TMP/two/results.tsv
"$S" --stand_in --what sweep --nx 4 --nf 4 --jobs 1 --results "$R3" --out "$TMP/two" >/dev/null 2>&1 &
first=$!
for _ in $(seq 50); do [ -s "$R3" ] && break; sleep 0.05; done
"$S" --stand_in --what sweep --nx 4 --nf 4 --jobs 1 --results "$R3" --out "$TMP/two" >"$TMP/two.out" 2>"$TMP/two.err"
rc=$?
wait $first
check_num "a second run on a results file in use: exit 2" "$rc" near 2 0
check_text "a second run: says the file is in use" "$(cat "$TMP/two.err")" "in use by another bin/schelleng run"
check_num "two runs at once: 16 rows" "$(tail -n +2 "$R3" | wc -l)" near 16 0
check_num "two runs at once: each cell once" "$(tail -n +2 "$R3" | cut -f1,2 | sort -u | wc -l)" near 16 0

# --- workers end with the program on SIGTERM, SIGHUP and SIGINT (issue 21 item 2) ---
# alive PID: the process exists and is not a zombie (an ended worker whose new parent has not reaped it)
alive() { local st; st=$(ps -o stat= -p "$1" 2>/dev/null) && [ -n "$st" ] && [ "${st#Z}" = "$st" ]; }
# ends_with_parent DESC SIG CMD...: start CMD, wait for its workers, send SIG, check none is left
ends_with_parent() {
    local desc=$1 sig=$2; shift 2
    "$@" >/dev/null 2>&1 &
    local parent=$! kids="" left=0
    for _ in $(seq 100); do kids=$(pgrep -P $parent); [ -n "$kids" ] && break; sleep 0.05; done
    kill -s "$sig" $parent
    wait $parent 2>/dev/null
    sleep 0.3
    for k in $kids; do alive "$k" && left=$((left + 1)) && kill -9 "$k"; done
    if [ -n "$kids" ] && [ "$left" -eq 0 ]; then pass "SIG$sig to $desc: its workers ($(echo $kids)) end with it"
    else fail "SIG$sig to $desc: $left of its workers ($(echo $kids)) still running"; fi
}
for sig in TERM HUP INT; do
    ends_with_parent "bin/schelleng --what gallery" $sig "$S" --what gallery --jobs 2 --t_hold 2 --out "$TMP/gal-$sig"
done
ends_with_parent "a sweep" HUP "$S" --stand_in --what sweep --nx 6 --nf 6 --jobs 2 --out "$TMP/hup"

# The exercise's check command (the end of --help), run as printed: it prints the answer its
# question asks for (not the default cell: below the minimum force, double slips).
chk=$($S --help | sed -n 's/^ *check: //p')
check_num "schelleng --help: one exercise check command" "$(printf '%s\n' "$chk" | grep -c .)" near 1 0
${chk/#bin\/schelleng/$S} >"$TMP/ex.txt" 2>&1
check_text "exercise 1 (x_b/L 0.1, 0.5 N): the classifier finds double slips" "$(cat "$TMP/ex.txt")" "double slips:"
check_text "exercise 1: with two slips a period" "$(cat "$TMP/ex.txt")" "2 slips and 2 flybacks per period"
${chk/#bin\/schelleng/$S} --tsv >"$TMP/ex.tsv" 2>/dev/null
check_num "exercise 1: not the default Figure 6 cell (x_b/L)" "$(awk -F'\t' 'NR == 2 { print $1 }' "$TMP/ex.tsv")" near 0.1 0
