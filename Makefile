# ivplab: make run | make test | make plots | make bench | make deps | make clean | make distclean
# Every target that needs the libraries first runs `deps`, which installs what is missing
# (as root) or prints the exact apt-get line; the build itself runs in a sub-make so that
# pkg-config is asked only after the packages are there.

# Debian 12 packages the build, the figures and the sound need.
# libcmark-gfm parses the notebooks, libjs-katex typesets their formulas offline, and
# chromium (headless) checks the rendered pages in the test suite; valgrind runs memcheck there.
# libjansson-dev reads challenge.json (strict JSON, duplicate names refused).
# time (GNU time, /usr/bin/time) measures peak memory in the tests that hold a memory bound
# (a 100 MB INI line, a cell printing 30 MB).
# libsamplerate0-dev brings the bowed string's 200 kHz bridge force to the WAV's 48 kHz
# (and lesson 11's waveforms to 20 kHz): its best sinc converter instead of our own.
DEB_PACKAGES := gcc make libc6-dev pkg-config libpng-dev libgsl-dev libsundials-dev gnuplot-nox \
                libsndfile1-dev libhdf5-dev fonts-dejavu-core libcmark-gfm-dev \
                libcmark-gfm-extensions-dev libjs-katex chromium valgrind libjansson-dev \
                libsamplerate0-dev time

# The page explorers (issue 19): ivplab's C built to WebAssembly by Debian's clang for wasm32-wasi,
# lld and wasi-libc (libclang-rt-14-dev-wasm32: the compiler's builtins for that target). Installed
# with the rest as root; without them (a user who cannot install) the pages say so in place of
# each explorer, and the tests say "skipped: no wasm toolchain".
WASM_PACKAGES := clang lld wasi-libc libclang-rt-14-dev-wasm32

SHELL   := /bin/bash
CC      ?= cc
OPT     ?= -O2
CFLAGS  := -std=c17 $(OPT) -g -Wall -Wextra -MMD -MP
# make test SAN=1: everything built with AddressSanitizer and UndefinedBehaviorSanitizer into
# build/san/, and the whole suite run against those programs.
SANFLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
ifeq ($(SAN),1)
CFLAGS  += -O1 $(SANFLAGS)
LDFLAGS += $(SANFLAGS)
NB_SAN  := $(SANFLAGS)
BUILD   := build/san
BIN     := build/san/bin
else
BUILD   := build
BIN     := bin
endif
PKG_CFLAGS := $(shell pkg-config --cflags gsl sndfile hdf5-serial libcmark-gfm jansson samplerate 2>/dev/null)
# HDF5 is not linked: src/io/h5.c opens it with dlopen when a field is written (start-up of every
# bin/pluck run, issue 14). HDF5_SO is the soname of the library pkg-config names.
PKG_LIBS   := $(shell pkg-config --libs gsl sndfile libcmark-gfm jansson samplerate 2>/dev/null)
HDF5_SO    := $(shell for d in $(patsubst -L%,%,$(shell pkg-config --libs-only-L hdf5-serial 2>/dev/null)) /usr/lib/x86_64-linux-gnu; do \
                [ -e $$d/libhdf5.so ] && { objdump -p $$d/libhdf5.so | awk '/SONAME/ {print $$2}'; break; }; done)
# SUNDIALS: Debian 12's libsundials is compiled without optimisation (debian/rules passes
# -DCMAKE_C_FLAGS=-fcommon, replacing dpkg-buildflags' -O2, and CMAKE_BUILD_TYPE=None adds no -O),
# so `make deps` builds CVODE from Debian's own source of the installed version at -O3
# (src/tools/sundials.sh) into SUN_CACHE, which `make clean` keeps and `make distclean` removes; the
# programs link it with an rpath. Without that build (or with SUNDIALS=system) Debian's library
# is used. Another install (e.g. 7.x):
#   make SUNDIALS_PREFIX=/opt/sundials BUILD=build/sun BIN=build/sun/bin all
SUN_PACKAGES := cmake dpkg-dev
SUN_CACHE    := .deps/sundials
SUN_OWN      := $(abspath $(SUN_CACHE)/$(shell dpkg-query -W -f='$${Version}' libsundials-dev 2>/dev/null))
ifndef SUNDIALS_PREFIX
ifneq ($(SUNDIALS),system)
ifneq ($(wildcard $(SUN_OWN)/.done),)
SUNDIALS_PREFIX := $(SUN_OWN)
endif
endif
endif
SUN_WHICH := $(if $(SUNDIALS_PREFIX),$(SUNDIALS_PREFIX)$(if $(filter $(SUN_OWN),$(SUNDIALS_PREFIX)), (-O3 build of make deps)),the system library (Debian libsundials-dev, built without optimisation))
# A change of library rebuilds the one file that includes SUNDIALS, and so relinks every program.
SUN_STAMP := $(BUILD)/sundials.which
$(shell mkdir -p $(BUILD) && { echo '$(SUN_WHICH)' | cmp -s - $(SUN_STAMP) || echo '$(SUN_WHICH)' > $(SUN_STAMP); })
ifdef SUNDIALS_PREFIX
SUN_CPPFLAGS := -I$(SUNDIALS_PREFIX)/include
SUN_LDFLAGS  := -L$(SUNDIALS_PREFIX)/lib -Wl,-rpath,$(SUNDIALS_PREFIX)/lib
endif
# SUNDIALS 7 moved its core into libsundials_core; 6.4 (Debian 12) has no such library.
SUN_CORE   := $(shell printf 'int main(void){return 0;}\n' | $(CC) -x c - -o /dev/null $(SUN_LDFLAGS) -lsundials_core 2>/dev/null && echo -lsundials_core)
SUN_LIBS   := $(SUN_LDFLAGS) -lsundials_cvode -lsundials_nvecserial -lsundials_sunmatrixdense -lsundials_sunmatrixband \
              -lsundials_sunlinsoldense -lsundials_sunlinsolband -lsundials_sunnonlinsolfixedpoint $(SUN_CORE)
# _DEFAULT_SOURCE: POSIX calls and M_PI under -std=c17.
CPPFLAGS := -Isrc -D_DEFAULT_SOURCE $(SUN_CPPFLAGS) $(PKG_CFLAGS)
LIB      := $(BUILD)/libivplab.a
$(BUILD)/obj/src/io/h5.o: CPPFLAGS += $(if $(HDF5_SO),-DIVPLAB_HDF5_SO='"$(HDF5_SO)"')
LDLIBS   := $(LIB) $(SUN_LIBS) $(PKG_LIBS) -lm

LIB_SRC  := $(filter-out src/tools/% src/wasm/%,$(wildcard src/*.c src/*/*.c))
LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/obj/%.o)
# The archive's member list, rewritten when a source file comes or goes, so the archive is made
# anew then too (a removed file's object would otherwise stay in it).
LIB_LIST := $(BUILD)/lib.objs
$(shell mkdir -p $(BUILD) && echo '$(LIB_OBJ)' | cmp -s - $(LIB_LIST) || echo '$(LIB_OBJ)' >$(LIB_LIST))
LESSONS  := $(sort $(wildcard lessons/[0-9][0-9]-*.c))
# lessons/01-ivp.c -> bin/ivp
lesson_bin = $(BIN)/$(shell echo $(notdir $(1:.c=)) | sed 's/^[0-9]*-//')
LESSON_BINS := $(foreach l,$(LESSONS),$(call lesson_bin,$(l)))
TOOLS    := $(wildcard src/tools/*.c)
TOOL_BINS := $(patsubst src/tools/%.c,$(BIN)/%,$(TOOLS))
TESTS    := $(wildcard tests/test_*.c)
TEST_BINS := $(patsubst tests/%.c,$(BUILD)/tests/%,$(TESTS))
FUZZ_TARGETS := $(patsubst tests/fuzz/fuzz_%.c,%,$(wildcard tests/fuzz/fuzz_*.c))
REPLAY_BINS := $(FUZZ_TARGETS:%=$(BUILD)/fuzz/replay_%)
FUZZ_SECONDS ?= 60
NOTEBOOKS := $(sort $(wildcard notebooks-c/[0-9][0-9]-*.md))
# How a notebook's C cells are compiled and linked: against this build of libivplab.
NB_ENV = NB_CC='$(CC)' NB_CFLAGS='-std=c17 -O2 -Wall $(NB_SAN) -I$(abspath src) -D_DEFAULT_SOURCE $(PKG_CFLAGS)' \
         NB_LIBS='$(abspath $(LIB)) $(SUN_LIBS) $(PKG_LIBS) -lm'

.PHONY: all run test plots notebooks fuzz deps clean distclean run-lessons render-plots render-notebooks check \
        bench deps-cluster test-cluster
.DEFAULT_GOAL := all

all: $(LIB) $(LESSON_BINS) $(TOOL_BINS) $(TEST_BINS) $(REPLAY_BINS) wasm
	@echo "sundials: $(SUN_WHICH)"

$(BUILD)/obj/src/drive/cvode.o $(BUILD)/obj/src/drive/sun_dense.o: $(SUN_STAMP)
# test_cvode holds make deps' build to its recipe (the serial vector's sums in partial sums).
$(BUILD)/obj/tests/test_cvode.o: $(SUN_STAMP)
$(BUILD)/obj/tests/test_cvode.o: CPPFLAGS += $(if $(filter $(SUN_OWN),$(SUNDIALS_PREFIX)),-DIVPLAB_SUNDIALS_OWN)

# The explorers' module: the part of libivplab the four explorers call, the same source files the
# lessons compile, and src/wasm/: its exports, and its own half of method/lu.h (lu_dense.c: a dense
# LU in place of lu_gsl.c), so implicit methods step there with the lessons' own Newton. Any GSL
# or SUNDIALS call creeping into these files fails the compile or the link. Built only when clang
# can link for wasm32-wasi; the same module for SAN=1.
WASM_CC  := clang --target=wasm32-wasi
WASM_OK  := $(shell printf 'int f(void){return 0;}\n' | $(WASM_CC) -x c - -nostartfiles -Wl,--no-entry -o /dev/null 2>/dev/null && echo yes)
WASM     := build/wasm/explore.wasm
WASM_SRC := src/wasm/explore.c src/wasm/lu_dense.c src/method/lu.c src/method/newton.c src/base/util.c src/base/cli.c src/io/params.c \
            src/problem/ivp.c src/method/list.c src/method/rk.c $(wildcard src/method/tableau_*.c) src/method/euler.c \
            src/method/backward_euler.c src/method/trapezoid.c src/method/heun.c src/method/rk4.c \
            src/method/leapfrog.c src/drive/solve.c src/oscillator/oscillator.c src/ball/ball_model.c \
            src/analysis/stability.c
.PHONY: wasm
ifeq ($(WASM_OK),yes)
wasm: $(WASM)
$(WASM): $(WASM_SRC) $(wildcard src/*.h src/*/*.h)
	@mkdir -p $(dir $@)
	$(WASM_CC) -std=c17 -O2 -Wall -Wextra -Isrc -D_DEFAULT_SOURCE -nostartfiles -Wl,--no-entry -Wl,--strip-all \
	  $(WASM_SRC) -lm -o $@
else
wasm:
	@rm -f $(WASM)
	@echo "wasm: no wasm toolchain (Debian: $(WASM_PACKAGES)); the pages show a note in place of the explorers"
endif

deps:
	@missing=""; \
	for p in $(DEB_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'install ok installed' || missing="$$missing $$p"; \
	done; \
	wmissing=""; \
	for p in $(WASM_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'install ok installed' || wmissing="$$wmissing $$p"; \
	done; \
	if [ "$$(id -u)" = 0 ]; then missing="$$missing$$wmissing"; \
	elif [ -n "$$wmissing" ]; then \
	  echo "deps: no wasm toolchain, the page explorers become notes; to have them:  sudo apt-get install -y$$wmissing" >&2; \
	fi; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "deps: installing$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing >/dev/null \
	      || { echo "deps: apt-get install failed for:$$missing" >&2; exit 1; }; \
	  else \
	    echo "deps: missing Debian packages; run:  sudo apt-get install -y$$missing" >&2; exit 1; \
	  fi; \
	fi
	@$(if $(filter system,$(SUNDIALS)),true,SUN_PACKAGES='$(SUN_PACKAGES)' src/tools/sundials.sh $(SUN_CACHE) >/dev/null || true)

run: deps
	@$(MAKE) --no-print-directory all
	@$(MAKE) --no-print-directory run-lessons render-plots render-notebooks

notebooks: deps
	@$(MAKE) --no-print-directory all
	@$(MAKE) --no-print-directory render-notebooks

# Run every cell of every notebook; pages land in build/notebooks/ (index.html first).
render-notebooks: $(LESSON_BINS) $(TOOL_BINS) wasm
	@$(NB_ENV) $(BIN)/notebook --index --bin $(BIN) --out build/notebooks $(NOTEBOOKS)
	@echo "notebooks: build/notebooks/index.html"

plots: deps
	@$(MAKE) --no-print-directory all
	@$(MAKE) --no-print-directory run-lessons render-plots

test: deps
	@$(MAKE) --no-print-directory all
	@$(MAKE) --no-print-directory check

# Run every lesson with its defaults: data lands in build/data/<program>/, sound in build/sound/.
run-lessons: $(LESSON_BINS)
	@for b in $(LESSON_BINS); do \
	  echo "== $$b"; ./$$b || { echo "$$b failed" >&2; exit 1; }; \
	done

# Every figure of every program from the data of the last runs, by the same mechanism as each
# program's --plot (bin/plot, src/io/plot.c): PNG and SVG in plots/out/.
render-plots: $(BIN)/plot
	@$(BIN)/plot --data build/data >/dev/null || { echo "render-plots: some figures failed (above)" >&2; exit 1; }
	@echo "figures: plots/out/ ($$(ls plots/out/*.png 2>/dev/null | wc -l) figures, PNG and SVG)"

check: all
	@$(NB_ENV) BUILD=$(BUILD) BIN=$(BIN) bash tests/run.sh

# Made anew, never updated in place: no object of a removed source stays in it.
$(LIB): $(LIB_OBJ) $(LIB_LIST)
	@mkdir -p $(dir $@)
	@rm -f $@
	$(AR) rcs $@ $(LIB_OBJ)

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

define lesson_rule
$(call lesson_bin,$(1)): $(BUILD)/obj/$(1:.c=.o) $(LIB)
	@mkdir -p $(BIN)
	$$(CC) $$(LDFLAGS) $$< $$(LDLIBS) -o $$@
endef
$(foreach l,$(LESSONS),$(eval $(call lesson_rule,$(l))))

$(BIN)/%: $(BUILD)/obj/src/tools/%.o $(LIB)
	@mkdir -p $(BIN)
	$(CC) $(LDFLAGS) $< $(LDLIBS) -o $@

# Fuzz targets: replayed over their saved corpora by the test suite (built like the rest) ...
$(BUILD)/fuzz/replay_%: $(BUILD)/obj/tests/fuzz/fuzz_%.o $(BUILD)/obj/tests/fuzz/replay.o $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) $^ $(LDLIBS) -o $@

# ... and fuzzed for FUZZ_SECONDS each by `make fuzz` with libFuzzer (Debian's clang), the
# library compiled in with coverage. New inputs land in build/fuzz/corpus-<target>/.
fuzz: deps
	@command -v clang >/dev/null || { if [ "$$(id -u)" = 0 ]; then apt-get install -y -qq clang >/dev/null; \
	  else echo "fuzz: needs clang; run:  sudo apt-get install -y clang" >&2; exit 1; fi; }
	@mkdir -p build/fuzz
	@for t in $(FUZZ_TARGETS); do \
	  clang -g -O1 -fsanitize=fuzzer,address,undefined $(CPPFLAGS) tests/fuzz/fuzz_$$t.c $(LIB_SRC) \
	    $(SUN_LIBS) $(PKG_LIBS) -lm -o build/fuzz/fuzz_$$t || exit 1; \
	  rm -rf build/fuzz/corpus-$$t; cp -r tests/fuzz/corpus/$$t build/fuzz/corpus-$$t; \
	  echo "== fuzz_$$t for $(FUZZ_SECONDS) s"; \
	  build/fuzz/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 build/fuzz/corpus-$$t 2>&1 \
	    | grep -E '^(stat::number_of_executed_units|stat::new_units_added|==[0-9]+==ERROR|SUMMARY)' ; \
	  [ $${PIPESTATUS[0]} -eq 0 ] || { echo "fuzz_$$t found a crash: see build/fuzz/" >&2; exit 1; }; \
	done

$(BUILD)/tests/%: $(BUILD)/obj/tests/%.o $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) $< $(LDLIBS) -o $@

clean:
	rm -rf build bin plots/out

# clean, and the optimised SUNDIALS that make deps built (.deps/).
distclean: clean
	rm -rf .deps

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)

# $(call install_debs,WHO,PACKAGES): the Debian packages of PACKAGES not installed yet, installed
# as root; otherwise the apt-get line to run, and a failure.
install_debs = missing=""; for p in $(2); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'install ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "$(1): installing$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing >/dev/null \
	      || { echo "$(1): apt-get install failed for:$$missing" >&2; exit 1; }; \
	  else \
	    echo "$(1): missing Debian packages; run:  sudo apt-get install -y$$missing" >&2; exit 1; \
	  fi; \
	fi

# make bench: ivplab against the tools a user would pick instead (tests/bench/, README "Benchmarks");
# never part of make test. Its own set-up adds Debian's python3-numpy and python3-scipy for the
# Python peers. BENCH_ARGS go to the driver, e.g. make bench BENCH_ARGS='--reps 9 --rows 1,2'.
BENCH_PACKAGES := python3-numpy python3-scipy
bench: deps
	@$(call install_debs,bench,$(BENCH_PACKAGES))
	@$(MAKE) --no-print-directory all
	@$(NB_ENV) BIN=$(BIN) bash tests/bench/run.sh $(BENCH_ARGS)

# Sweeps beyond one machine (issue 29): the README's GNU parallel block and Slurm job array for
# bin/schelleng, run on this machine (tests/cluster/: parallel with the local sshlogin, and a
# one-node Slurm cluster that the test starts as root in a scratch folder and stops). Debian's
# parallel, slurm-wlm (slurmctld, slurmd, the clients) and munge. CI runs it after make test.
CLUSTER_PACKAGES := parallel slurm-wlm munge
deps-cluster: deps
	@$(call install_debs,deps-cluster,$(CLUSTER_PACKAGES))

test-cluster: deps-cluster
	@$(MAKE) --no-print-directory all
	@BIN=$(BIN) bash tests/cluster/run.sh
