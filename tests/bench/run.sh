#!/usr/bin/env bash
# run.sh: `make bench` (never part of `make test`). Builds the C half of the oscillator's
# work-precision figure against this build of libivplab, then runs the driver, tests/bench/bench.py,
# with Debian's interpreter (/usr/bin/python3 and Debian's python3-numpy, python3-scipy; a pyenv
# python first on PATH would lack them). Arguments go to the driver, e.g.
#     bash tests/bench/run.sh --reps 7 --rows 1,2
# The Makefile passes NB_CC, NB_CFLAGS and NB_LIBS (how the notebooks compile against libivplab)
# and BIN; run by hand, the defaults below do the same for the normal build.
set -euo pipefail
cd "$(dirname "$0")/../.."
PY=/usr/bin/python3
if ! "$PY" -c 'import numpy, scipy' 2>/dev/null; then
    echo "bench: $PY lacks numpy or scipy; run:  sudo apt-get install -y python3-numpy python3-scipy" >&2
    exit 1
fi
CC=${NB_CC:-cc}
CFLAGS=${NB_CFLAGS:-"-std=c17 -O2 -Wall -Isrc -D_DEFAULT_SOURCE"}
LIBS=${NB_LIBS:-"build/libivplab.a -lsundials_cvode -lsundials_nvecserial -lsundials_sunmatrixdense -lsundials_sunmatrixband -lsundials_sunlinsoldense -lsundials_sunlinsolband -lsundials_sunnonlinsolfixedpoint $(pkg-config --libs gsl sndfile) -lm"}
mkdir -p build/bench
# shellcheck disable=SC2086
$CC $CFLAGS -Wextra tests/bench/wp_osc.c $LIBS -o build/bench/wp_osc.tmp && mv build/bench/wp_osc.tmp build/bench/wp_osc
export BIN=${BIN:-bin}
export PYTHONDONTWRITEBYTECODE=1   # no __pycache__ in the checkout
exec "$PY" tests/bench/bench.py "$@"
