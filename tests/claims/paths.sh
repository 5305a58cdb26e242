# paths.sh: output paths as users give them (issue 13). For every program that writes a file, and
# one file of each: a regular file is replaced whole; a symlink is followed (the link stays a link
# and its target holds the new file); a FIFO's reader receives the same bytes; a device is written
# into and stays a device (a full one: exit 1 naming the path, nothing created or removed); a
# directory is refused with exit 2 and one line. '-' on --wav, --field and --listen writes the same
# bytes as a file to standard output, and bin/score reads '-' as standard input. Two runs into one
# --out at once leave every file whole from one run. Every special file is made in this test's own
# folder (mknod, mkfifo, ln -s), never the real /dev.
. "$(dirname "$0")/../lib.sh"

# A device node needs root (mknod): without it only the device cases are skipped, and said.
if mknod "$TMP/probe" c 1 3 2>/dev/null; then can_mknod=1; rm -f "$TMP/probe"
else can_mknod=0; echo "note: not root (mknod refused): the device cases are skipped, the others run"; fi

# A tiny notebook for bin/notebook (its page is the file).
printf '# Tiny\n\nOne cell.\n\n```sh\necho "hello"\n```\n' >"$TMP/tiny.md"

# PROGRAM-AND-FLAGS|FILE: @ is the case's own folder; FILE is one file the command writes.
cases=(
    "ivp --T 1 --out @|@/trajectory.tsv"
    "convergence --out @|@/errors_oscillator.tsv"
    "stability --out @|@/bounds.tsv"
    "stiff --out @|@/exact.tsv"
    "work --out @|@/target.tsv"
    "oscillator --out @|@/locus.tsv"
    "drop --T 0.2 --out @ --sound @|@/drop.wav"
    "audiorate --method rk4 --T 0.3 --out @ --sound @|@/audiorate-rk4-44100.wav"
    "pluck --reference --out @ --wav @/ref.wav|@/ref.wav"
    "pluck --reference --out @ --wav @/ref.wav --field @/u.h5|@/u.h5"
    "pluck --reference --out @ --wav @/ref.wav --listen @/ear.wav|@/ear.wav"
    "pluck --solve --space modal --method rk4 --modes 100 --substeps-min 2 --substeps-max 2 --out @|@/wav/reference.wav"
    "bow --quick --duration 0.2 --out @ --wav @/bow.wav|@/bow.wav"
    "schelleng --stand_in --what examples --out @|@/examples.tsv"
    "notebook --bin $BIN --out @ $TMP/tiny.md|@/tiny.html"
)
run_case() {  # run_case DIR CMD: run CMD with @ replaced by DIR; stdout and stderr to DIR.stdout/.err
    local dir=$1 cmd=${2//@/$1}
    # shellcheck disable=SC2086
    timeout 120 "$BIN"/$cmd >"$dir.stdout" 2>"$dir.err" </dev/null
}
temporaries() { find "$1" -name '*.tmp.*' 2>/dev/null | wc -l; }
# The lines of a case's stderr, without bin/notebook's progress lines ("notebook: NAME: cell K (LANG)").
errlines() { grep -cv '^notebook: [^ ]*: cell [0-9]* (' "$1"; }

i=0
for c in "${cases[@]}"; do
    i=$((i + 1))
    cmd=${c%%|*} file=${c#*|}
    what="bin/${cmd%% *} ${file#@/}"
    base=$TMP/c$i
    mkdir -p "$base"

    # a regular file: the bytes every other kind is compared with
    mkdir -p "$base/reg"
    run_case "$base/reg" "$cmd"; rc=$?
    ref=${file//@/$base/reg}
    if [ "$rc" -ne 0 ] || [ ! -f "$ref" ]; then
        fail "$what: the plain run failed (exit $rc): $(head -c 300 "$base/reg.err")"; continue
    fi

    # a symlink to an existing file in another folder: followed, the link kept
    mkdir -p "$base/lnk" "$base/elsewhere"
    t=${file//@/$base/lnk}
    mkdir -p "${t%/*}"
    echo "the student's old file" >"$base/elsewhere/real"
    ln -s "$base/elsewhere/real" "$t"
    run_case "$base/lnk" "$cmd"; rc=$?
    if [ "$rc" -eq 0 ] && [ -L "$t" ] && [ "$(readlink "$t")" = "$base/elsewhere/real" ] && [ -f "$base/elsewhere/real" ] &&
        cmp -s "$base/elsewhere/real" "$ref" && [ "$(temporaries "$base")" -eq 0 ]; then
        pass "$what: a symlink stays a link and its target holds the new file"
    else
        fail "$what: symlink: exit $rc, link $(readlink "$t" 2>&1), target $(stat -c %F "$base/elsewhere/real" 2>&1): $(head -c 200 "$base/lnk.err")"
    fi

    # a FIFO: the reader receives the same bytes; the FIFO stays a FIFO
    mkdir -p "$base/fifo"
    t=${file//@/$base/fifo}
    mkdir -p "${t%/*}"
    mkfifo "$t"
    timeout 120 cat "$t" >"$base/fifo.got" &
    reader=$!
    run_case "$base/fifo" "$cmd"; rc=$?
    wait "$reader"
    if [ "$rc" -eq 0 ] && [ -p "$t" ] && cmp -s "$base/fifo.got" "$ref" && [ "$(temporaries "$base")" -eq 0 ]; then
        pass "$what: a FIFO's reader gets the same bytes; the FIFO stays a FIFO"
    else
        fail "$what: FIFO: exit $rc, $(stat -c %F "$t" 2>&1), $(wc -c <"$base/fifo.got") bytes read of $(wc -c <"$ref"): $(head -c 200 "$base/fifo.err")"
    fi

    # a directory where the file goes: exit 2, one line naming it
    mkdir -p "$base/dir"
    t=${file//@/$base/dir}
    mkdir -p "${t%/*}"
    mkdir -p "$t"
    run_case "$base/dir" "$cmd"; rc=$?
    if [ "$rc" -eq 2 ] && [ "$(errlines "$base/dir.err")" -eq 1 ] && grep -q -- "$t.* is a directory; accepted: " "$base/dir.err" &&
        [ -d "$t" ]; then
        pass "$what: a directory is refused, exit 2, one line: $(tail -1 "$base/dir.err")"
    else
        fail "$what: directory: exit $rc, $(wc -l <"$base/dir.err") lines: $(head -c 300 "$base/dir.err")"
    fi

    [ "$can_mknod" -eq 1 ] || continue
    # a full device (1, 7 = /dev/full): exit 1, one line with the path and the reason; still a device
    mkdir -p "$base/full"
    t=${file//@/$base/full}
    mkdir -p "${t%/*}"
    mknod "$t" c 1 7
    run_case "$base/full" "$cmd"; rc=$?
    if [ "$rc" -eq 1 ] && [ -c "$t" ] && [ "$(stat -c %t,%T "$t")" = 1,7 ] && [ "$(errlines "$base/full.err")" -eq 1 ] &&
        grep -q -- "$t: No space left on device" "$base/full.err" && [ "$(temporaries "$base")" -eq 0 ]; then
        pass "$what: a full device stays a device; exit 1: $(tail -1 "$base/full.err")"
    else
        fail "$what: full device: exit $rc, now $(stat -c %F "$t" 2>&1): $(head -c 300 "$base/full.err")"
    fi
    # a null device (1, 3): written into, exit 0, still a device (one program per way of writing:
    # a data file, a WAV, the HDF5 field, a page)
    case $what in "bin/ivp "*|"bin/pluck ref.wav"|"bin/pluck u.h5"|"bin/notebook "*) ;; *) continue;; esac
    mkdir -p "$base/null"
    t=${file//@/$base/null}
    mkdir -p "${t%/*}"
    mknod "$t" c 1 3
    run_case "$base/null" "$cmd"; rc=$?
    if [ "$rc" -eq 0 ] && [ -c "$t" ] && [ "$(temporaries "$base")" -eq 0 ]; then
        pass "$what: a null device is written into and stays a device"
    else
        fail "$what: null device: exit $rc, now $(stat -c %F "$t" 2>&1): $(head -c 300 "$base/null.err")"
    fi
done

# A file where a folder goes (--out FILE): the user's input, exit 2, one line.
echo "notes" >"$TMP/a-file"
expect_bad_input "bin/ivp --out a regular file" "$BIN/ivp" --T 1 --out "$TMP/a-file"
expect_bad_input "bin/drop --sound a regular file" "$BIN/drop" --T 0.2 --out "$TMP/out" --sound "$TMP/a-file"
check_text "--out a regular file: said so" "$("$BIN/ivp" --T 1 --out "$TMP/a-file" 2>&1)" "is a file, not a folder"
check_text "--out a regular file: the file untouched" "$(cat "$TMP/a-file")" "notes"

# A dangling symlink: the file is made where it points, the link kept.
mkdir -p "$TMP/dangle/out"
ln -s ../made/here.tsv "$TMP/dangle/out/trajectory.tsv"
"$BIN/ivp" --T 1 --out "$TMP/dangle/out" >/dev/null 2>&1
if [ -L "$TMP/dangle/out/trajectory.tsv" ] && cmp -s "$TMP/dangle/made/here.tsv" "$TMP/c1/reg/trajectory.tsv"; then
    pass "a dangling symlink: the new file is made at its target, the link kept"
else fail "a dangling symlink: $(ls -l "$TMP/dangle/out" "$TMP/dangle/made" 2>&1 | head -5)"; fi

# A socket: connected to and written into (a listener made here, if python3 is there).
if command -v python3 >/dev/null; then
    mkdir -p "$TMP/sock"
    python3 -c '
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM); s.bind(sys.argv[1]); s.listen(1)
open(sys.argv[1] + ".ready", "w").close()
c, _ = s.accept(); out = open(sys.argv[2], "wb")
while True:
    b = c.recv(65536)
    if not b: break
    out.write(b)
' "$TMP/sock/trajectory.tsv" "$TMP/sock.got" &
    listener=$!
    for _ in $(seq 50); do [ -e "$TMP/sock/trajectory.tsv.ready" ] && break; sleep 0.1; done
    rm -f "$TMP/sock/trajectory.tsv.ready"
    "$BIN/ivp" --T 1 --out "$TMP/sock" >/dev/null 2>"$TMP/sock.err"; rc=$?
    wait "$listener"
    if [ "$rc" -eq 0 ] && [ -S "$TMP/sock/trajectory.tsv" ] && cmp -s "$TMP/sock.got" "$TMP/c1/reg/trajectory.tsv"; then
        pass "a socket is connected to and written into; it stays a socket"
    else fail "socket: exit $rc: $(head -c 200 "$TMP/sock.err")"; fi
else
    echo "note: no python3 to listen on a socket: the socket case is skipped"
fi

# '-': the same bytes as a file on standard output, and nothing else there; the report on stderr.
dash() {  # dash DESC FILE CMD...: CMD with '-' gives on stdout the bytes of FILE
    local desc=$1 want=$2; shift 2
    "$@" >"$TMP/dash.out" 2>"$TMP/dash.err"; local rc=$?
    if [ "$rc" -eq 0 ] && cmp -s "$TMP/dash.out" "$want"; then pass "$desc: '-' writes the same bytes as a file"
    else fail "$desc: '-': exit $rc, $(wc -c <"$TMP/dash.out") bytes: $(head -c 200 "$TMP/dash.err")"; fi
}
P=$TMP/c9/reg B=$TMP/c13/reg
dash "bin/pluck --wav" "$P/ref.wav" "$BIN/pluck" --reference --out "$TMP/d1" --wav -
dash "bin/pluck --field" "$TMP/c10/reg/u.h5" "$BIN/pluck" --reference --out "$TMP/d2" --wav "$TMP/d2.wav" --field -
dash "bin/pluck --listen" "$TMP/c11/reg/ear.wav" "$BIN/pluck" --reference --out "$TMP/d3" --wav "$TMP/d3.wav" --listen -
dash "bin/bow --wav" "$B/bow.wav" "$BIN/bow" --quick --duration 0.2 --out "$TMP/d4" --wav -
check_text "bin/pluck --wav -: the report goes to standard error" \
    "$("$BIN/pluck" --reference --out "$TMP/d5" --wav - 2>&1 >/dev/null)" "written to -"
expect_bad_input "two outputs on standard output" "$BIN/pluck" --reference --out "$TMP/out" --wav - --field -
expect_bad_input "--wav a directory (checked before any work)" "$BIN/pluck" --reference --out "$TMP/out" --wav "$TMP"
help=$("$BIN/pluck" --help)
for f in wav field listen; do
    check_text "bin/pluck --help says --$f accepts -" "$(printf '%s\n' "$help" | grep -- "--$f ")" "or - (standard output"
done
check_text "bin/bow --help says --wav accepts -" "$("$BIN/bow" --help | grep -- '--wav ')" "or - (standard output"

# The issue's pipe: a WAV on standard output that bin/score reads from standard input.
"$BIN/pluck" --reference --out "$TMP/d6" --wav - 2>/dev/null | "$BIN/score" --tsv "$P/ref.wav" - >"$TMP/pipe.tsv" 2>"$TMP/pipe.err"
check_num "bin/pluck --wav - | bin/score REF -: E_wave" "$(tsv_get "$TMP/pipe.tsv" file - E_wave)" near 0 0
check_num "bin/pluck --wav - | bin/score REF -: E_spec" "$(tsv_get "$TMP/pipe.tsv" file - E_spec)" near 0 0
# bin/score as the reader of a FIFO bin/pluck writes into.
mkfifo "$TMP/play"
"$BIN/score" --tsv "$P/ref.wav" "$TMP/play" >"$TMP/fifo-score.tsv" 2>"$TMP/fifo-score.err" &
scorer=$!
"$BIN/pluck" --reference --out "$TMP/d7" --wav "$TMP/play" >/dev/null 2>&1
wait "$scorer"; rc=$?
check_num "bin/score reading the FIFO bin/pluck writes: exit status" "$rc" near 0 0
check_num "bin/score reading the FIFO bin/pluck writes: E_wave" "$(tsv_get "$TMP/fifo-score.tsv" file "$TMP/play" E_wave)" near 0 0
expect_bad_input "bin/score with - twice" "$BIN/score" - -

# Two runs into one --out at once, in either order: every file is one whole run's file.
mkdir -p "$TMP/solo-a" "$TMP/solo-b"
"$BIN/ivp" --method rk4 --h 1e-4 --T 8 --out "$TMP/solo-a" >/dev/null
"$BIN/ivp" --method heun --h 1e-4 --T 8 --out "$TMP/solo-b" >/dev/null
whole=0 mixed=0
for round in 1 2 3 4; do
    S=$TMP/shared-$round
    "$BIN/ivp" --method rk4 --h 1e-4 --T 8 --out "$S" >/dev/null &
    "$BIN/ivp" --method heun --h 1e-4 --T 8 --out "$S" >/dev/null &
    wait
    for f in trajectory.tsv exact.tsv; do
        if cmp -s "$S/$f" "$TMP/solo-a/$f" || cmp -s "$S/$f" "$TMP/solo-b/$f"; then whole=$((whole + 1))
        else mixed=$((mixed + 1)); fi
    done
    [ "$(temporaries "$S")" -eq 0 ] || mixed=$((mixed + 1))
done
check_num "two bin/ivp runs into one --out at once, 4 rounds: files that are one whole run's" "$whole" near 8 0
check_num "two bin/ivp runs into one --out at once: mixed files or temporaries left" "$mixed" near 0 0
# The WAV and the field too, and bin/pluck --solve scores against its own reference even when the
# other run replaces the shared files while it works.
solve=(--solve --space modal --method rk4 --modes 100 --substeps-min 2 --substeps-max 2 --tsv)
"$BIN/pluck" "${solve[@]}" --out "$TMP/ps-a" >"$TMP/ps-a.tsv" 2>/dev/null
"$BIN/pluck" "${solve[@]}" --sigma0 4 --out "$TMP/ps-b" >"$TMP/ps-b.tsv" 2>/dev/null
"$BIN/pluck" --reference --wav "$TMP/pa.wav" --field "$TMP/pa.h5" >/dev/null
"$BIN/pluck" --reference --sigma0 4 --wav "$TMP/pb.wav" --field "$TMP/pb.h5" >/dev/null
scores() { cut -f1-6 "$1"; }
bad=0
for round in 1; do
    S=$TMP/pshared-$round
    "$BIN/pluck" "${solve[@]}" --out "$S" >"$S-a.tsv" 2>/dev/null &
    "$BIN/pluck" "${solve[@]}" --sigma0 4 --out "$S" >"$S-b.tsv" 2>/dev/null &
    "$BIN/pluck" --reference --wav "$S.wav" --field "$S.h5" >/dev/null &
    "$BIN/pluck" --reference --sigma0 4 --wav "$S.wav" --field "$S.h5" >/dev/null &
    wait
    [ "$(scores "$S-a.tsv")" = "$(scores "$TMP/ps-a.tsv")" ] || bad=$((bad + 1))
    [ "$(scores "$S-b.tsv")" = "$(scores "$TMP/ps-b.tsv")" ] || bad=$((bad + 1))
    { cmp -s "$S.wav" "$TMP/pa.wav" || cmp -s "$S.wav" "$TMP/pb.wav"; } || bad=$((bad + 1))
    { cmp -s "$S.h5" "$TMP/pa.h5" || cmp -s "$S.h5" "$TMP/pb.h5"; } || bad=$((bad + 1))
    for f in "$S"/wav/*.wav; do
        n=${f#"$S"/}
        { cmp -s "$f" "$TMP/ps-a/$n" || cmp -s "$f" "$TMP/ps-b/$n"; } || bad=$((bad + 1))
    done
done
check_num "four bin/pluck runs sharing --out, --wav and --field at once: mixed files or wrong scores" "$bad" near 0 0
