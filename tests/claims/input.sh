# input.sh: what the programs read from a user, refused when a reader cannot trust it (issue 21,
# items 5-10): challenge.json checked whole at load, one flag parser for both flag forms, JSON read
# by jansson, strict INI files, one --params path rule, strict numbers, repeated flags refused.
. "$(dirname "$0")/../lib.sh"
ABS_BIN=$(cd "$BIN" && pwd)
CHAL=challenge.json

# chal_with FILE SED-EXPR: challenge.json with one edit.
chal_with() { sed -e "$2" "$CHAL" >"$1"; }
# no_raw_escape DESC FILE: the file holds no ESC byte (untrusted bytes are printed escaped).
no_raw_escape() {
    if grep -q "$(printf '\033')" "$2"; then fail "$1: a raw ESC byte reached the terminal"; else pass "$1"; fi
}

# ---- item 5: challenge.json values are range-checked at load, like the flags ----
chal_with "$TMP/big.json" 's/"num_samples": 96000/"num_samples": 1000000000/'
expect_bad_input "challenge: num_samples 1e9" $BIN/pluck --reference --challenge "$TMP/big.json" --wav "$TMP/out/r.wav" --out "$TMP/out"
check_text "challenge: num_samples 1e9 names the field" "$(cat "$TMP/stderr")" "output.num_samples"
chal_with "$TMP/field.json" 's/"count": 201/"count": 1000000/; s/"count": 4001/"count": 10000000/'
expect_bad_input "challenge: a 1e6 x 1e7 field" $BIN/pluck --reference --challenge "$TMP/field.json" \
    --field "$TMP/out/f.h5" --wav "$TMP/out/r.wav" --out "$TMP/out"
check_text "challenge: the field's size names the fields" "$(cat "$TMP/stderr")" "fields."
chal_with "$TMP/frame.json" 's/"frame_length": 2048/"frame_length": 131072/'
expect_bad_input "challenge: frame_length longer than the signal (pluck)" $BIN/pluck --reference --challenge "$TMP/frame.json" --wav "$TMP/out/r.wav" --out "$TMP/out"
check_text "challenge: frame_length longer than the signal names it" "$(cat "$TMP/stderr")" "error_measures.E_spec.frame_length"
expect_bad_input "challenge: frame_length longer than the signal (score)" $BIN/score --challenge "$TMP/frame.json" "$TMP/a.wav" "$TMP/b.wav"
chal_with "$TMP/rate.json" 's/"sample_rate": 48000/"sample_rate": 10000000/'
expect_bad_input "challenge: sample_rate above --fs's range" $BIN/pluck --reference --challenge "$TMP/rate.json" --wav "$TMP/out/r.wav" --out "$TMP/out"
chal_with "$TMP/xp.json" 's/"value": 0.1625/"value": 0.003/'
expect_bad_input "challenge: xp within the load's half-width of the end" $BIN/pluck --reference --challenge "$TMP/xp.json" --wav "$TMP/out/r.wav" --out "$TMP/out"
expect_bad_input "--duration shorter than one E_spec frame" $BIN/pluck --solve --duration 0.01 --out "$TMP/out"

# ---- item 6: one flag parser for --flag VALUE and --flag=VALUE, the early scan included ----
expect_bad_input "--challenge=/nonexistent.json" $BIN/pluck --reference --challenge=/nonexistent.json --wav "$TMP/out/r.wav" --out "$TMP/out"
check_text "--challenge=FILE is the file read" "$(cat "$TMP/stderr")" "/nonexistent.json"
expect_bad_input "--challenge=FILE with a bad value in it" $BIN/pluck --reference "--challenge=$TMP/big.json" --wav "$TMP/out/r.wav" --out "$TMP/out"
check_text "--challenge=FILE: its check names the field" "$(cat "$TMP/stderr")" "output.num_samples"

# ---- item 7: JSON as JSON is (jansson): what it is not is refused with the field named ----
for v in -Infinity -nan 0x1p-3 NaN 1e999; do
    chal_with "$TMP/v.json" "s/\"signal_scale\": 2.5/\"signal_scale\": $v/"
    expect_bad_input "challenge: signal_scale $v is not JSON" $BIN/score --challenge "$TMP/v.json" "$TMP/a.wav" "$TMP/b.wav"
    check_text "challenge: signal_scale $v: the field is named" "$(cat "$TMP/stderr")" "output.signal_scale"
done
# ... and memcheck-clean on the way (the old reader printed an uninitialised reason here).
if command -v valgrind >/dev/null && ! ldd "$BIN/score" | grep -q libasan; then
    chal_with "$TMP/v.json" 's/"signal_scale": 2.5/"signal_scale": 0x1p-3/'
    valgrind --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect -q \
        $BIN/score --challenge "$TMP/v.json" "$TMP/a.wav" "$TMP/b.wav" >/dev/null 2>"$TMP/vg.err"
    rc=$?
    if [ "$rc" -eq 2 ] && ! grep -q '==[0-9]*== ' "$TMP/vg.err"; then pass "memcheck clean: bin/score on a hex value (exit 2)"
    else fail "memcheck: bin/score on a hex value: exit $rc: $(grep '==[0-9]*==' "$TMP/vg.err" | head -3 | tr '\n' ' ')"; fi
fi
chal_with "$TMP/dup.json" 's/"signal_scale": 2.5/"signal_scale": 2.5, "signal_scale": 5/'
expect_bad_input "challenge: a duplicate member name" $BIN/score --challenge "$TMP/dup.json" "$TMP/a.wav" "$TMP/b.wav"
check_text "challenge: the duplicate is named" "$(cat "$TMP/stderr")" "signal_scale"
chal_with "$TMP/str.json" 's/"signal_scale": 2.5/"signal_scale": "2.5"/'
expect_bad_input "challenge: a number given as a string" $BIN/score --challenge "$TMP/str.json" "$TMP/a.wav" "$TMP/b.wav"
check_text "challenge: a string for a number names the field and the type" "$(cat "$TMP/stderr")" "output.signal_scale is a string"
printf '{"id": "x' >"$TMP/trunc.json"
expect_bad_input "challenge: a truncated file" $BIN/score --challenge "$TMP/trunc.json" "$TMP/a.wav" "$TMP/b.wav"
mkdir -p "$TMP/chal-dir"
expect_bad_input "challenge: a directory" $BIN/score --challenge "$TMP/chal-dir" "$TMP/a.wav" "$TMP/b.wav"
check_text "challenge: a directory is named so" "$(cat "$TMP/stderr")" "is a directory"
chal_with "$TMP/esc.json" 's/"id": "string-pluck-v1"/"id": "\\u001b[2J"/'
expect_bad_input "challenge: an id with a control character" $BIN/score --challenge "$TMP/esc.json" "$TMP/a.wav" "$TMP/b.wav"
no_raw_escape "challenge: the control character is printed escaped" "$TMP/stderr"

# ---- item 8: INI files: duplicates, malformed lines, directories refused; bytes escaped ----
B=(--out "$TMP/out" --wav "$TMP/out/b.wav")
printf 'mu_s = 0.9\nmu_s = 1.2\n' >"$TMP/dup.ini"
expect_bad_input "--params: a duplicate key" $BIN/bow --params "$TMP/dup.ini" "${B[@]}"
check_text "--params: the duplicate names both lines" "$(cat "$TMP/stderr")" "dup.ini:2: key 'mu_s' given twice (first at line 1)"
printf '[instrument\nmu_s = 0.9\n' >"$TMP/sect.ini"
expect_bad_input "--params: an unclosed [section" $BIN/bow --params "$TMP/sect.ini" "${B[@]}"
check_text "--params: the unclosed section names its line" "$(cat "$TMP/stderr")" "sect.ini:1:"
mkdir -p "$TMP/ini-dir"
expect_bad_input "--params: a directory" $BIN/bow --params "$TMP/ini-dir" "${B[@]}"
check_text "--params: a directory is named so" "$(cat "$TMP/stderr")" "is a directory"
printf 'mu_s = 0.9\0junk\n' >"$TMP/nul.ini"
expect_bad_input "--params: a NUL byte" $BIN/bow --params "$TMP/nul.ini" "${B[@]}"
check_text "--params: a NUL byte is said so" "$(cat "$TMP/stderr")" "NUL byte"
printf '\033[2J\033]0;owned\007 binary\n' >"$TMP/bin.ini"
expect_bad_input "--params: a binary file" $BIN/bow --params "$TMP/bin.ini" "${B[@]}"
no_raw_escape "--params: a binary file's bytes are printed escaped" "$TMP/stderr"
expect_bad_input "--set with an escape sequence" $BIN/bow --set "$(printf 'mu_\033[2Js=1')" "${B[@]}"
no_raw_escape "--set: the key's bytes are printed escaped" "$TMP/stderr"
expect_bad_input "--h with an escape sequence" $BIN/ivp --h "$(printf '\033[2J')" --out "$TMP/out"
no_raw_escape "--h: the value's bytes are printed escaped" "$TMP/stderr"
long="mu_s=$(printf "%0600d" 0)1.2"
expect_bad_input "--set with a 600-digit value, then an unknown flag" $BIN/bow --set "$long" --no-such-flag "${B[@]}"
check_text "--set with a 600-digit value is read whole (not cut to 0)" "$(cat "$TMP/stderr")" "unknown flag --no-such-flag"

# ---- item 9: --params: a path is a path; a bare name may fall back to lessons/params/ ----
mkdir -p "$TMP/cwd"
printf 'mu_s = -1  # 1; wrong on purpose\n' >"$TMP/cwd/bad.ini"
for p in bow schelleng; do
    (cd "$TMP/cwd" && "$ABS_BIN/$p" --params bad.ini --out "$TMP/out") >/dev/null 2>"$TMP/p.err"
    rc=$?
    check_num "$p --params bad.ini: exit 2" "$rc" near 2 0
    check_text "$p --params bad.ini reads ./bad.ini" "$(cat "$TMP/p.err")" "bad.ini:1: mu_s = -1 is out of range"
    (cd "$TMP/cwd" && "$ABS_BIN/$p" --params schelleng-fig13.ini --no-such-flag) >/dev/null 2>"$TMP/p.err"
    check_text "$p --params schelleng-fig13.ini falls back to lessons/params/" "$(cat "$TMP/p.err")" "unknown flag --no-such-flag"
    (cd "$TMP/cwd" && "$ABS_BIN/$p" --params nothing-here.ini) >/dev/null 2>"$TMP/p.err"
    check_text "$p --params with a missing bare name says both places" "$(cat "$TMP/p.err")" "nor lessons/params/nothing-here.ini"
    check_text "$p --help states the rule" "$("$ABS_BIN/$p" --help)" "a bare name not found here is looked up in lessons/params/"
done

# ---- item 10: numbers are decimal and whole text; a whole fs; grids inside (0, 1); no repeats ----
expect_bad_input "--h ' 0.1' (leading space)" $BIN/ivp --h ' 0.1' --out "$TMP/out"
expect_bad_input "--h '0.1 ' (trailing space)" $BIN/ivp --h '0.1 ' --out "$TMP/out"
expect_bad_input "--h 0x1p-3 (hex)" $BIN/ivp --h 0x1p-3 --out "$TMP/out"
check_text "--h 0x1p-3: says what is accepted" "$(cat "$TMP/stderr")" "decimal"
expect_bad_input "--h -1e-310 (a subnormal)" $BIN/ivp --h -1e-310 --out "$TMP/out"
check_text "--h -1e-310 is a finite number, out of range" "$(cat "$TMP/stderr")" "out of range"
expect_bad_input "--h 1e-400 (underflows to zero)" $BIN/ivp --h 1e-400 --out "$TMP/out"
check_text "--h 1e-400: says it underflows" "$(cat "$TMP/stderr")" "underflows"
expect_bad_input "--h 1e400 (overflows)" $BIN/ivp --h 1e400 --out "$TMP/out"
expect_bad_input "pluck --fs 44100.5" $BIN/pluck --reference --fs 44100.5 --wav "$TMP/out/r.wav" --out "$TMP/out"
check_text "pluck --fs 44100.5: a whole number is asked" "$(cat "$TMP/stderr")" "whole"
expect_bad_input "schelleng --x_min 0.9 --x_max 0.9 --nx 6" $BIN/schelleng --x_min 0.9 --x_max 0.9 --nx 6 --out "$TMP/out"
check_text "schelleng: a degenerate x grid names --nx" "$(cat "$TMP/stderr")" "--nx"
expect_bad_input "schelleng --f_min 2 --f_max 2 --nf 3" $BIN/schelleng --f_min 2 --f_max 2 --nf 3 --out "$TMP/out"
expect_bad_input "a repeated flag --h 0.1 --h 0.2" $BIN/ivp --h 0.1 --h 0.2 --out "$TMP/out"
check_text "a repeated flag is said so" "$(cat "$TMP/stderr")" "--h is given twice"
expect_bad_input "a repeated flag in both forms --h=0.1 --h 0.2" $BIN/ivp --h=0.1 --h 0.2 --out "$TMP/out"
expect_bad_input "a repeated switch --tsv --tsv" $BIN/ivp --tsv --tsv --out "$TMP/out"
expect_bad_input "a repeated --challenge" $BIN/pluck --challenge "$CHAL" --challenge=/nonexistent.json --reference --wav "$TMP/out/r.wav"
check_text "a repeated --challenge is said so" "$(cat "$TMP/stderr")" "--challenge is given twice"
$BIN/bow --set mu_s=0.9 --set mu_d=0.3 --no-such-flag >/dev/null 2>"$TMP/rep.err"
check_text "--set may be repeated (one key each)" "$(cat "$TMP/rep.err")" "unknown flag --no-such-flag"
check_text "--help says repeated flags are refused" "$($BIN/ivp --help)" "a flag given twice is refused"
