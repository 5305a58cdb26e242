#!/usr/bin/env bash
# record.sh OUTDIR: records what a user sees of this checkout's programs, for a check that a
# change keeps every output byte-identical (issue 31): the default run of every lesson (stdout,
# stderr, exit status, --help, every file written under build/data and build/sound, binary
# files as SHA-256) and the full output of every unit and claims test (pass lines, with their
# measured numbers, included). Run `make all` first; compare two recordings with compare.py.
# It rewrites build/data and build/sound and takes about as long as make test and make run.
set -u
cd "$(dirname "$0")/../.."
out=$1
rm -rf "$out"; mkdir -p "$out/run/files" "$out/tests"
rm -rf build/data build/sound
for b in bin/ivp bin/convergence bin/stability bin/stiff bin/work bin/oscillator bin/drop \
         bin/audiorate bin/pluck bin/bow bin/schelleng; do
    n=$(basename "$b")
    "$b" >"$out/run/$n.out" 2>"$out/run/$n.err"; echo "rc=$?" >>"$out/run/$n.out"
    "$b" --help >"$out/run/$n.help" 2>&1
done
find build/data build/sound -type f 2>/dev/null | sort | while read -r f; do
    case "$f" in
        *.wav|*.h5|*.png|*.bin) sha256sum "$f" >>"$out/run/binary.sha";;
        *) mkdir -p "$out/run/files/$(dirname "$f")"; cp "$f" "$out/run/files/$f";;
    esac
done
eval "export $(make -s --no-print-directory --eval='nbenv: ; @printf "%s\n" "$(NB_ENV)"' nbenv)"
for t in build/tests/test_*; do
    [ -x "$t" ] && "$t" >"$out/tests/$(basename "$t").log" 2>&1
done
for s in tests/claims/*.sh; do
    BIN=bin BUILD=build bash "$s" >"$out/tests/$(basename "$s").log" 2>&1
done
