# refusals.sh: input that used to be accepted with a wrong result, or refused with a misleading
# message (issue 27 items 11, 12, 13 and 15). Each refusal: exit 2, one line, nothing written.
. "$(dirname "$0")/../lib.sh"

one_line_has() {   # DESC NEEDLE CMD...: exit 2, one line on stderr holding NEEDLE, no file in $TMP/out
    local desc=$1 needle=$2; shift 2
    expect_bad_input "$desc" "$@"
    check_text "$desc: the message" "$(cat "$TMP/stderr")" "$needle"
}

# Item 11: a signal_scale that puts samples beyond float32 is refused before the WAV is written,
# with the bound max|s| / FLT_MAX; a sample beyond float32 is never written as inf.
sed 's/"signal_scale": 2.5/"signal_scale": 1e-40/' challenge.json >"$TMP/tiny.json"
one_line_has "signal_scale 1e-40 (peak sample 1.17e40 > FLT_MAX)" \
    "output.signal_scale = 1e-40 m/s makes the peak sample 1.17e+40, beyond float32's largest 3.403e+38; accepted: signal_scale >= max |s| / FLT_MAX = 1.172 m/s / 3.403e+38 = 3.44e-39 m/s" \
    "$BIN/pluck" --reference --challenge "$TMP/tiny.json" --wav "$TMP/out/r.wav"
sed 's/"signal_scale": 2.5/"signal_scale": 1e-38/' challenge.json >"$TMP/small.json"
"$BIN/pluck" --reference --challenge "$TMP/small.json" --wav "$TMP/small.wav" --tsv >"$TMP/small.tsv" 2>&1
rc=$?
check_num "signal_scale 1e-38 (above the bound): exit status" "$rc" near 0 0
peak=$(tsv_get "$TMP/small.tsv" modes "$(awk -F'\t' 'NR == 2 {print $1}' "$TMP/small.tsv")" peak_sample)
check_num "signal_scale 1e-38: the peak sample, finite and below FLT_MAX" "$peak" lt 3.4028234e38

# Item 12: an adaptive pair whose b-hat equals b estimates every error as 0: refused at its line.
printf '0 |\n1 | 1\n--\n| 0.5 0.5\n| 0.5 0.5\n' >"$TMP/samehat.tab"
one_line_has "a pair whose b-hat equals b" "samehat.tab:5: b-hat equals b: no error estimate" \
    "$BIN/work" --add-method "$TMP/samehat.tab" --out "$TMP/out"

# Item 13: a tableau file name that a --tsv row cannot carry (a tab, a newline) is refused.
printf '0 |\n1 | 1\n--\n| 0.5 0.5\n| 1 0\n' >"$TMP/tab	bed.tab"
one_line_has "a tableau named with a tab" "the file's name holds a control character (byte 0x09)" \
    "$BIN/work" --add-method "$TMP/tab	bed.tab" --tsv --out "$TMP/out"
printf '0 |\n1 | 1\n--\n| 0.5 0.5\n' >"$TMP/new
line.tab"
one_line_has "a tableau named with a newline" "(byte 0x0a)" \
    "$BIN/stability" --add-method "$TMP/new
line.tab" --tsv --out "$TMP/out"

# Item 15: messages say what is wrong.
printf '0 |\n1 | 1\x00\n--\n| 0.5 0.5\n' >"$TMP/nul.tab"
one_line_has "a tableau with a NUL byte" "nul.tab:2: a NUL byte at column 6" \
    "$BIN/stability" --add-method "$TMP/nul.tab" --out "$TMP/out"
printf '\xef\xbb\xbf0 |\n1 | 1\n--\n| 0.5 0.5\n' >"$TMP/bom.tab"
"$BIN/stability" --add-method "$TMP/bom.tab" --tsv --out "$TMP/bomtab" >"$TMP/bom.tsv" 2>"$TMP/bom.err"
rc=$?
check_num "a tableau opening with a byte-order mark is read (the mark skipped): exit status" "$rc" near 0 0
check_text "a tableau opening with a byte-order mark: its method is in the table" "$(cat "$TMP/bom.tsv")" "bom"
printf '\xef\xbb\xbfN = 8\n' >"$TMP/bom.ini"
"$BIN/bow" --list --params "$TMP/bom.ini" >"$TMP/bomini.out" 2>"$TMP/bomini.err"
rc=$?
check_num "an INI opening with a byte-order mark is read (the mark skipped): exit status" "$rc" near 0 0
check_num "an INI opening with a byte-order mark: its value N = 8 is taken" \
    "$(awk '$1 == "N" {print $2}' "$TMP/bomini.out")" near 8 0
printf '# contact points\nN = 4.5\n' >"$TMP/n45.ini"
one_line_has "N = 4.5 in an INI" "n45.ini:2: N = 4.5 is not a whole number (N takes 1 to 64)" \
    "$BIN/bow" --quick --params "$TMP/n45.ini" --out "$TMP/out"
printf 'N = 4\x000\n' >"$TMP/nul.ini"
one_line_has "a NUL byte in an INI" "nul.ini:1: a NUL byte at column 6" \
    "$BIN/bow" --quick --params "$TMP/nul.ini" --out "$TMP/out"
check_num "a NUL byte in an INI: '; accepted:' said once" "$(grep -o '; accepted:' "$TMP/stderr" | wc -l)" near 1 0
head -c 100000000 /dev/zero | tr '\0' 'a' >"$TMP/long.ini"
/usr/bin/time -f '%M' -o "$TMP/long.rss" "$BIN/bow" --quick --params "$TMP/long.ini" --out "$TMP/out" \
    >/dev/null 2>"$TMP/long.err"
check_text "a 100 MB one-line INI: refused at the line limit" "$(cat "$TMP/long.err")" \
    "long.ini:1: line longer than 4096 characters"
check_num "a 100 MB one-line INI: peak RSS, kB (not read whole)" "$(tail -1 "$TMP/long.rss")" lt 20000
rm -f "$TMP/long.ini"
one_line_has "bin/score --out (it never wrote there)" "unknown flag --out" \
    "$BIN/score" --out "$TMP/out" "$TMP/a.wav" "$TMP/b.wav"
