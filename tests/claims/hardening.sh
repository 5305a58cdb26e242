# hardening.sh: what every program owes a user in class: --help, one-line refusals of bad input,
# nothing half-written when interrupted or when the disk is full, the same bytes on every run,
# and a clean memcheck.
. "$(dirname "$0")/../lib.sh"

# Every program: --help exits 0 and names its flags with defaults; an unknown flag is one line, exit 2.
for b in "$BIN"/*; do
    [ -x "$b" ] || continue
    name=$(basename "$b")
    out=$("$b" --help 2>&1); rc=$?
    if [ "$rc" -eq 0 ] && printf '%s' "$out" | grep -q -- '--help' && printf '%s' "$out" | grep -q '^usage: '; then
        pass "$name --help: exit 0 with usage and flags"
    else
        fail "$name --help: exit $rc: $(printf '%s' "$out" | head -2)"
    fi
    expect_bad_input "$name --no-such-flag" "$b" --no-such-flag 1
done

# Interrupted: SIGINT or SIGTERM during a long run leaves neither the file nor a temporary.
for sig in INT TERM; do
    dir="$TMP/sig-$sig"
    "$BIN/ivp" --method rk4 --h 1e-5 --T 900 --out "$dir" >/dev/null 2>&1 &
    pid=$!
    sleep 0.5
    kill -s "$sig" "$pid"
    wait "$pid" 2>/dev/null
    left=$(find "$dir" -type f 2>/dev/null | wc -l)
    check_num "SIG$sig during a run leaves no file or temporary in --out" "$left" near 0 0
done

# A full disk: the write fails with the path named, exit 1, and nothing is left behind.
full="$TMP/full"
mkdir -p "$full"
if mount -t tmpfs -o size=16k tmpfs "$full" 2>/dev/null; then
    "$BIN/ivp" --method rk4 --h 1e-4 --T 10 --out "$full/data" >/dev/null 2>"$TMP/full.err"
    rc=$?
    check_num "disk full: exit status" "$rc" near 1 0
    check_text "disk full: the message names the path" "$(cat "$TMP/full.err")" "$full/data"
    left=$(find "$full" -type f | wc -l)
    check_num "disk full: no partial file or temporary left" "$left" near 0 0
    # The shared open/commit-or-exit of the lessons' data files (bin/oscillator, bin/drop).
    for prog in oscillator drop; do
        extra=(); [ "$prog" = drop ] && extra=(--sound "$full/$prog")
        "$BIN/$prog" --out "$full/$prog" "${extra[@]}" >/dev/null 2>"$TMP/full.err" </dev/null
        rc=$?
        check_num "disk full: bin/$prog exit status" "$rc" near 1 0
        check_text "disk full: bin/$prog names the path" "$(cat "$TMP/full.err")" "$prog: cannot write $full/$prog/"
        check_num "disk full: bin/$prog says it in one line" "$(wc -l <"$TMP/full.err")" near 1 0
        check_num "disk full: bin/$prog leaves nothing" "$(find "$full" -type f | wc -l)" near 0 0
    done
    # The HDF5 field on a full disk says why (issue 21 item 11), and leaves nothing.
    "$BIN/pluck" --reference --wav "$TMP/full-ref.wav" --field "$full/u.h5" >/dev/null 2>"$TMP/full.err"
    rc=$?
    check_num "disk full under --field: exit status" "$rc" near 1 0
    check_text "disk full under --field: the path and the reason" "$(cat "$TMP/full.err")" \
        "cannot write the HDF5 file $full/u.h5: No space left on device"
    check_num "disk full under --field: nothing left" "$(find "$full" -type f | wc -l)" near 0 0
    umount "$full"
else
    fail "disk full: could not mount a 16 KiB tmpfs to test it (tests run as root)"
fi

# The same command twice gives byte-identical output files.
"$BIN/ivp" --method trapezoid --T 3 --out "$TMP/det1" >"$TMP/det1.txt"
"$BIN/ivp" --method trapezoid --T 3 --out "$TMP/det2" >"$TMP/det2.txt"
if cmp -s "$TMP/det1/trajectory.tsv" "$TMP/det2/trajectory.tsv" && cmp -s "$TMP/det1.txt" "$TMP/det2.txt"; then
    pass "two runs of bin/ivp give byte-identical files and tables"
else
    fail "two runs of bin/ivp differ"
fi

# The HDF5 field too: no object times, so two runs give the same bytes (issue 21 item 12).
"$BIN/pluck" --reference --wav "$TMP/h1.wav" --field "$TMP/h1.h5" >/dev/null
sleep 1.1     # the object times HDF5 stores by default have a resolution of one second
"$BIN/pluck" --reference --wav "$TMP/h2.wav" --field "$TMP/h2.h5" >/dev/null
if cmp -s "$TMP/h1.h5" "$TMP/h2.h5"; then pass "two runs of bin/pluck --field give byte-identical HDF5 files"
else fail "two runs of bin/pluck --field differ in $(cmp -l "$TMP/h1.h5" "$TMP/h2.h5" | wc -l) bytes"; fi

# A results file with a row not of bin/schelleng: one line on stderr, exit 2, and nothing on stdout
# (not the table's header first; issue 21 item 11).
"$BIN/schelleng" --stand_in --what sweep --nx 2 --nf 2 --out "$TMP/res" >/dev/null 2>&1
printf 'not\ta row\n' >>"$TMP/res/results-stand-in.tsv"
"$BIN/schelleng" --stand_in --what sweep --nx 2 --nf 2 --out "$TMP/res" >"$TMP/res.out" 2>"$TMP/res.err"; rc=$?
check_num "a bad row in a results file: exit status" "$rc" near 2 0
check_num "a bad row in a results file: bytes on stdout" "$(wc -c <"$TMP/res.out")" near 0 0
check_text "a bad row in a results file: the line named" "$(cat "$TMP/res.err")" "results-stand-in.tsv:6: not a results row"

# memcheck: a fixed-step run, a CVODE run and a notebook run are clean (no errors, no leaks).
if command -v valgrind >/dev/null && [ -z "${SAN_BUILD:-}" ] && ! ldd "$BIN/ivp" | grep -q libasan; then
    memcheck() {
        local desc=$1; shift
        valgrind --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect -q "$@" \
            >/dev/null 2>"$TMP/vg.err"
        local rc=$?
        if [ "$rc" -ne 99 ] && ! grep -q '==[0-9]*== ' "$TMP/vg.err"; then pass "memcheck clean: $desc"
        else fail "memcheck: $desc: $(grep '==[0-9]*==' "$TMP/vg.err" | head -5 | tr '\n' ' ')"; fi
    }
    memcheck "bin/ivp, backward Euler (Newton on GSL LU)" "$BIN/ivp" --method backward-euler --T 1 --out "$TMP/vg1"
    memcheck "bin/ivp, CVODE BDF" "$BIN/ivp" --method cvode --T 1 --out "$TMP/vg2"
    memcheck "bin/notebook on the broken fixture" "$BIN/notebook" --bin "$BIN" --out "$TMP/vg3" tests/fixtures/broken-notebook.md
else
    echo "note: memcheck is left to the plain build (ASan and valgrind do not mix)"
fi

# Output files get the usual permissions (0666 less the umask), not a temporary's private 0600.
(umask 022; "$BIN/ivp" --T 1 --out "$TMP/perm" >/dev/null)
check_text "output files are readable by others under umask 022" "$(stat -c %a "$TMP/perm/trajectory.tsv")" "644"

# WAVs too: the same drop twice gives the same bytes (no time-stamped PEAK chunk).
"$BIN/drop" --T 0.5 --out "$TMP/w1" --sound "$TMP/w1" >/dev/null
"$BIN/drop" --T 0.5 --out "$TMP/w2" --sound "$TMP/w2" >/dev/null
if cmp -s "$TMP/w1/drop.wav" "$TMP/w2/drop.wav"; then pass "two runs of bin/drop give byte-identical WAVs"
else fail "two runs of bin/drop give different WAV bytes"; fi
