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
expect_bad_input "a 44.1 kHz submission" $BIN/score "$TMP/ref.wav" "$TMP/r44.wav"
check_text "names what is wrong" "$($BIN/score "$TMP/ref.wav" "$TMP/r44.wav" 2>&1)" "sample rate 44100 Hz, expected 48000 Hz; 88200 samples (2 s), expected 96000"
expect_bad_input "one file only" $BIN/score "$TMP/ref.wav"
# A WAV header made here (44 bytes, IEEE float): hdr CHANNELS DATA_BYTES, each as printf escapes.
hdr() { printf 'RIFF\x20\x00\x00\x00WAVEfmt \x10\x00\x00\x00\x03\x00%b\x80\xbb\x00\x00\x00\xee\x02\x00\x04\x00\x20\x00data%b' "$1" "$2"; }
# A sparse file declaring 2^30 - 1 frames (4 GiB of holes): refused from its header at once, not
# after allocating 8 GiB and reading it (issue 21 item 4).
hdr '\x01\x00' '\xfc\xff\xff\xff' >"$TMP/sparse.wav"
truncate -s $((44 + 0xFFFFFFFC)) "$TMP/sparse.wav"
t0=$(date +%s%N)
timeout 20 $BIN/score "$TMP/ref.wav" "$TMP/sparse.wav" >/dev/null 2>"$TMP/sparse.err"; rc=$?
ms=$((($(date +%s%N) - t0) / 1000000))
check_num "a sparse WAV declaring 2^30 frames: exit status" "$rc" near 2 0
check_text "a sparse WAV declaring 2^30 frames: the header's frame count named" "$(cat "$TMP/sparse.err")" \
    "1073741823 samples (22369.6 s), expected 96000"
check_num "a sparse WAV declaring 2^30 frames: refused within (ms)" "$ms" lt 3000
# 65535 channels: libsndfile's own reason, never a stale system error (issue 21 item 11).
{ hdr '\xff\xff' '\x00\x04\x00\x00'; head -c 1024 /dev/zero; } >"$TMP/channels.wav"
$BIN/score "$TMP/ref.wav" "$TMP/channels.wav" 2>"$TMP/channels.err"; rc=$?
check_num "a WAV with 65535 channels: exit status" "$rc" near 2 0
msg=$(cat "$TMP/channels.err")
check_text "a WAV with 65535 channels: the reason is the channel count" "$msg" "Too many channels"
case $msg in *"System error"*) fail "a WAV with 65535 channels: a system error is reported: $msg";;
    *) pass "a WAV with 65535 channels: no stale system error";; esac
# A missing file is said as such, by name.
check_text "a missing submission: named, with the reason" "$($BIN/score "$TMP/ref.wav" "$TMP/nope.wav" 2>&1)" \
    "$TMP/nope.wav: cannot open: No such file or directory"
