#!/usr/bin/env bash
# src/tools/sundials.sh CACHE: build CVODE at -O3 from Debian's own source package of the installed
# libsundials-dev into CACHE/<version>/ (include/, lib/), unless it is there already.
# Debian 12's libsundials is compiled without optimisation: debian/rules passes
# -DCMAKE_C_FLAGS=-fcommon, which replaces dpkg-buildflags' CFLAGS (-g -O2 ...), and debhelper's
# CMAKE_BUILD_TYPE=None adds no -O flag. Here the same source is configured with
# CMAKE_BUILD_TYPE=Release, and the serial vector (whose WRMS norm is CVODE's error norm, taken
# several times a step) with NVEC_FLAGS: its sums may be reassociated into several partial sums,
# unrolled and vectorised, instead of one chain of dependent additions. The library's calls to
# its own functions (CVODE to N_VLinearSum, N_VLinearSum to the serial vector's, a dozen a step on
# vectors of 4 in bin/drop) go straight to them, not through the PLT: LINK_FLAGS (-Bsymbolic) and
# -fno-semantic-interposition, which changes no arithmetic. The deb-src entry lives
# in a private apt state under CACHE/apt/: the machine's apt configuration is never changed, and
# no root is needed. Prints the prefix on stdout; any failure leaves no prefix (the build then
# uses the system library).
set -eu
cache=${1:?usage: src/tools/sundials.sh CACHE}
ver=$(dpkg-query -W -f='${Version}' libsundials-dev 2>/dev/null) || { echo "sundials: libsundials-dev is not installed" >&2; exit 1; }
prefix=$cache/$ver
NVEC_FLAGS="-fno-trapping-math -fno-signed-zeros -fassociative-math"
NVEC_FLAGS="$NVEC_FLAGS -funroll-loops -fvariable-expansion-in-unroller"
LINK_FLAGS="-fno-semantic-interposition; -Wl,-Bsymbolic"
# .done holds the recipe: a build made another way (an earlier recipe) is made again.
recipe="CMAKE_BUILD_TYPE=Release -O3; serial vector: $NVEC_FLAGS; own calls: $LINK_FLAGS"
[ "$(cat "$prefix/.done" 2>/dev/null)" = "$recipe" ] && { echo "$prefix"; exit 0; }
# SUN_PACKAGES (the Makefile's: cmake dpkg-dev) are installed as root; a user who cannot is told.
missing=""
for p in ${SUN_PACKAGES:-}; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing="$missing $p"
done
if [ -n "$missing" ] && [ "$(id -u)" = 0 ]; then
  echo "sundials: installing$missing" >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >/dev/null \
    || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >/dev/null; } \
    || { echo "sundials: apt-get install failed for:$missing; the system library is used" >&2; exit 1; }
elif [ -n "$missing" ]; then
  echo "sundials: Debian's unoptimised library is used; for the -O3 build:  sudo apt-get install -y$missing && make deps" >&2
  exit 1
fi
for c in cmake dpkg-source apt-get; do
  command -v $c >/dev/null || { echo "sundials: no $c (make deps installs cmake and dpkg-dev as root)" >&2; exit 1; }
done
mkdir -p "$cache" && cache=$(cd "$cache" && pwd) && prefix=$cache/$ver
apt=$cache/apt
rm -rf "$apt" "$cache/src" "$prefix"
mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/parts" "$cache/src"
# The deb-src twin of every Debian archive the machine installs from (deb.debian.org otherwise).
suites=$(apt-cache policy libsundials-dev 2>/dev/null | awk '/ http/ {print $2, $3}' | sort -u)
[ -n "$suites" ] || suites="http://deb.debian.org/debian bookworm/main"
echo "$suites" | while read -r uri suite; do
  echo "deb-src $uri ${suite%%/*} ${suite#*/}"
done > "$apt/sources.list"
opts=(-o Dir::Etc::SourceList="$apt/sources.list" -o Dir::Etc::SourceParts="$apt/parts"
      -o Dir::State::Lists="$apt/lists" -o Dir::Cache="$apt/cache" -o APT::Sandbox::User="$(id -un)"
      -o Debug::NoLocking=1)
log=$cache/build.log
: > "$log"
echo "sundials: building CVODE from Debian's source of $ver at -O3" \
     "(CMAKE_BUILD_TYPE=Release; serial vector: $NVEC_FLAGS;" \
     "own calls: $LINK_FLAGS) into $prefix" >&2
fail() { echo "sundials: $1 failed (see $log); the system library is used" >&2; rm -rf "$prefix" "$cache/src"; exit 1; }
apt-get "${opts[@]}" update >>"$log" 2>&1 || fail "apt-get update (private deb-src state)"
(cd "$cache/src" && apt-get "${opts[@]}" source --only-source "sundials=$ver") >>"$log" 2>&1 || fail "apt-get source sundials=$ver"
srcdir=$(find "$cache/src" -mindepth 1 -maxdepth 1 -type d -name 'sundials-*' | head -1)
[ -n "$srcdir" ] || fail "unpacking the source"
# Included after SUNDIALS's project(); run at the end of the top directory, when the target exists.
cat > "$cache/src/nvec.cmake" <<EOF
function(ivplab_nvec_flags)
  set_property(TARGET sundials_nvecserial_obj_shared APPEND PROPERTY COMPILE_OPTIONS $NVEC_FLAGS)
endfunction()
cmake_language(DEFER DIRECTORY "\${CMAKE_SOURCE_DIR}" CALL ivplab_nvec_flags)
EOF
cmake -S "$srcdir" -B "$cache/src/build" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PROJECT_INCLUDE="$cache/src/nvec.cmake" \
  -DCMAKE_C_FLAGS_RELEASE="-O3 -DNDEBUG -fno-semantic-interposition" \
  -DCMAKE_SHARED_LINKER_FLAGS="-Wl,-Bsymbolic" \
  -DCMAKE_INSTALL_PREFIX="$prefix" -DCMAKE_INSTALL_LIBDIR=lib -DBUILD_STATIC_LIBS=OFF -DBUILD_SHARED_LIBS=ON \
  -DBUILD_ARKODE=OFF -DBUILD_CVODES=OFF -DBUILD_IDA=OFF -DBUILD_IDAS=OFF -DBUILD_KINSOL=OFF -DBUILD_CVODE=ON \
  -DEXAMPLES_ENABLE_C=OFF -DEXAMPLES_ENABLE_CXX=OFF -DEXAMPLES_INSTALL=OFF -DBUILD_FORTRAN_MODULE_INTERFACE=OFF \
  >>"$log" 2>&1 || fail "cmake configure"
cmake --build "$cache/src/build" -j "$(nproc)" >>"$log" 2>&1 || fail "cmake build"
cmake --install "$cache/src/build" >>"$log" 2>&1 || fail "cmake install"
cp "$srcdir/debian/rules" "$prefix/debian-rules"   # the evidence for the -O0 build, kept
rm -rf "$cache/src"
echo "$recipe" > "$prefix/.done"
echo "$prefix"
