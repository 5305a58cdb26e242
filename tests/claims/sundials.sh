# sundials.sh: which SUNDIALS the programs link (make deps' -O3 build from Debian's source, or
# Debian's unoptimised library), that the build says so, and that the optimised build is optimised.
. "$(dirname "$0")/../lib.sh"

which=$(cat "${BUILD:-build}/sundials.which")
lib=$(ldd "$BIN/pluck" | awk '/libsundials_cvode/ { print $3 }')
check_text "make all names its SUNDIALS" "$(make -n -s BUILD="$TMP/b" BIN="$TMP/b/bin" all 2>&1)" "sundials: $which"
check_text "make SUNDIALS=system: Debian's library, said" \
    "$(make -n -s SUNDIALS=system BUILD="$TMP/s" BIN="$TMP/s/bin" all 2>&1)" "sundials: the system library (Debian libsundials-dev"
case "$which" in
the\ system\ library*)
    check_text "bin/pluck loads the system libsundials_cvode" "$(readlink -f "$lib")" "/lib/"
    echo "note: no .deps build here (make deps as root builds it): the optimised checks below are skipped" ;;
*)
    prefix=${which%% (*}
    check_text "bin/pluck loads the libsundials_cvode of $prefix (rpath)" "$(readlink -f "$lib")" "$prefix/lib/"
    # -O0 code keeps locals on the stack frame (-0x..(%rbp)); the -O3 build does not (its unrolled
    # loops may use %rbp as one more register: lea -0x1(%rbp) is arithmetic, not a local).
    nv="$prefix/lib/libsundials_nvecserial.so"
    spills=$(objdump -d --no-show-raw-insn "$nv" | awk '/<N_VLinearSum_Serial>:/,/^$/' | grep -v '\slea\s' \
        | grep -c -- '-0x[0-9a-f]*(%rbp)')
    insns=$(objdump -d --no-show-raw-insn "$nv" | awk '/<N_VLinearSum_Serial>:/,/^$/' | grep -c '^ ')
    check_num "the build's N_VLinearSum_Serial is compiled ($insns instructions)" "$insns" gt 20
    check_num "... optimised: no local kept on the stack frame" "$spills" near 0 0
    sys=$(readlink -f /usr/lib/x86_64-linux-gnu/libsundials_nvecserial.so)
    a=$(nm -D "$sys" | awk '$3 == "N_VLinearSum_Serial" { print $1 }')
    sys_spills=$(objdump -d --no-show-raw-insn --start-address=0x$a --stop-address=$(printf '0x%x' $((0x$a + 80))) "$sys" \
        | grep -c -- '-0x[0-9a-f]*(%rbp)')
    check_num "Debian's N_VLinearSum_Serial is not (its first 80 bytes store locals on the frame)" "$sys_spills" gt 3
    # CVODE's calls to its own functions (N_VLinearSum and the like, a dozen a step) bind inside
    # the library (-Bsymbolic), not through the PLT.
    check_text "the build's libsundials_cvode binds its own calls (-Bsymbolic: DT_SYMBOLIC)" \
        "$(readelf -d "$prefix/lib/libsundials_cvode.so" | grep -E 'FLAGS.*SYMBOLIC')" "SYMBOLIC"
    check_text "the source package's debian/rules sets CMAKE_C_FLAGS to -fcommon alone (the README's cause)" \
        "$(cat "$prefix/debian-rules")" "-DCMAKE_C_FLAGS=-fcommon"
    ;;
esac
