# score.sh: bin/score on real files (the unit test test_score covers every refused format).
. "$(dirname "$0")/../lib.sh"
$BIN/pluck --reference --wav "$TMP/ref.wav" >/dev/null
$BIN/score --tsv "$TMP/ref.wav" "$TMP/ref.wav" >"$TMP/self.tsv"
check_num "a file against itself: E_wave" "$(tsv_get "$TMP/self.tsv" file "$TMP/ref.wav" E_wave)" near 0 0
check_num "a file against itself: E_spec" "$(tsv_get "$TMP/self.tsv" file "$TMP/ref.wav" E_spec)" near 0 0
check_text "--tsv header" "$(head -1 "$TMP/self.tsv")" "file	E_wave	E_spec"
# Several submissions in one call, one row each; a lower --fs file is refused by name.
$BIN/pluck --reference --sigma0 3.03 --wav "$TMP/s1.wav" >/dev/null
$BIN/score --tsv "$TMP/ref.wav" "$TMP/s1.wav" "$TMP/ref.wav" >"$TMP/two.tsv"
check_num "two submissions: rows" "$(($(wc -l <"$TMP/two.tsv") - 1))" near 2 0
check_num "sigma0 1% off: E_wave" "$(tsv_get "$TMP/two.tsv" file "$TMP/s1.wav" E_wave)" gt 1e-4
$BIN/pluck --reference --fs 44100 --duration 2 --wav "$TMP/r44.wav" >/dev/null
expect_bad_input "a 44.1 kHz submission" $BIN/score "$TMP/ref.wav" "$TMP/r44.wav" --out "$TMP/out"
check_text "names what is wrong" "$($BIN/score "$TMP/ref.wav" "$TMP/r44.wav" 2>&1)" "sample rate 44100 Hz, expected 48000 Hz; 88200 samples (2 s), expected 96000"
expect_bad_input "one file only" $BIN/score "$TMP/ref.wav"
