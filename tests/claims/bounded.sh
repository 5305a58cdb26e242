#!/usr/bin/env bash
# bounded.sh: every search ends and every cost is estimated (issue 27 items 1-5). An iterative
# search stops at a relative tolerance or an iteration cap; a run whose work (steps x the measured
# cost of a step, impacts, FFT frames) or memory is above a cap refuses before it starts, with
# the estimate and --allow-long; a run that reaches a cap ends with exit 1 naming it.
. "$(dirname "$0")/../lib.sh"
O=$TMP/out

# 1. The theta-method (theta = 0.5001) is stable on the real axis up to 2/(2 theta - 1) = 1e4:
# the bisection of the bound ends (it used to bisect to an absolute 1e-12, finer than the doubles
# there, for ever).
printf '0 |\n1 | 0.5001 0.4999\n--\n| 0.5001 0.4999\n' >"$TMP/theta.tab"
timeout 10 "$BIN/stability" --add-method "$TMP/theta.tab" --tsv >"$TMP/theta.tsv" 2>"$TMP/theta.err"
rc=$?
check_num "bin/stability --add-method theta.tab ends (exit status)" "$rc" near 0
check_num "theta-method real_bound = 2/(2 theta - 1)" "$(tsv_get "$TMP/theta.tsv" method theta real_bound)" near 10000 1e-6
