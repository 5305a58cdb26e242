# lib.sh: what the cluster tests share (sourced after tests/lib.sh): the README's blocks, the
# bin/schelleng process of a part, the rows of a results file without its timing columns.
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
case $BIN in /*) BINDIR=$BIN;; *) BINDIR=$ROOT/$BIN;; esac

# readme_block MARKER: the indented block after the README's line holding MARKER, unindented.
readme_block() {
    awk -v m="$1" 'index($0, m) { on = 1; next } on && /^    / { sub(/^    /, ""); print; next }
                   on && /^$/ { print; next } on { exit }' "$ROOT/README.md" | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}'
}

# part_pid RESULTS: the pid of the bin/schelleng run writing RESULTS (not one of its workers).
part_pid() {
    local p
    for p in $(pgrep -f -- "--results $1"); do
        case $(readlink "/proc/$p/exe" 2>/dev/null) in */schelleng) ;; *) continue;; esac
        case $(readlink "/proc/$(awk '{ print $4 }' "/proc/$p/stat" 2>/dev/null)/exe" 2>/dev/null) in
            */schelleng) continue;; esac
        echo "$p"
        return 0
    done
    return 1
}

# rows FILE: its rows (no header) without the timing columns (seconds, cpu_seconds), sorted.
rows() { tail -n +2 "$1" | cut -f1-19,22- | sort; }
# nrows FILE: its whole rows (25 fields), 0 when it does not exist.
nrows() { [ -f "$1" ] && tail -n +2 "$1" | awk -F'\t' 'NF == 25' | wc -l || echo 0; }

# running_with RESULTS ROWS: waits (up to 120 s) until RESULTS holds ROWS whole rows while the
# run writing it goes on; its pid, or status 1 when it ended first or never came.
running_with() {
    local t pid
    for t in $(seq 6000); do
        if [ "$(nrows "$1")" -ge "$2" ] && pid=$(part_pid "$1"); then
            echo "$pid"
            return 0
        fi
        sleep 0.02
    done
    return 1
}

# same_as_single DESC MERGED SINGLE: the merged file equals a single-machine run's.
same_as_single() {
    if [ -f "$2" ] && [ "$(head -1 "$2")" = "$(head -1 "$3")" ] && [ "$(rows "$2")" = "$(rows "$3")" ]; then
        pass "$1: merged = the single-machine run ($(($(wc -l <"$3") - 1)) rows, timing columns aside)"
    else
        fail "$1: merged file differs from the single-machine run"
    fi
    local b2=${2%.tsv}-boundaries.tsv b3=${3%.tsv}-boundaries.tsv
    if [ ! -f "$b3" ] || cmp -s "$b2" "$b3"; then pass "$1: boundaries of the whole grid = the single-machine run's"
    else fail "$1: boundaries differ from the single-machine run's"; fi
}
