# onchip -- header-only C + CUDA kit.  `make test` anywhere, `make demo` on a GPU machine.
#   make [all]            examples, benchmarks and tests for ARCH (default 90)
#   make test             host tests, header checks, NVRTC checks, resource check, GPU tests if a device is present
#   make nvrtc-check      every header and generator compiled by NVRTC (run-time compilation, as CuPy does)
#   make bench            run the benchmarks (GPU)           make demo   one example per module (GPU),
#                                                            and examples/python/ssam_cupy.py where CuPy is
#   make fuzz             each libFuzzer target in tests/fuzz/ for FUZZ_SECONDS (default 300) over a
#                         copy of its corpus (clang)
#   make install PREFIX=  headers + pkg-config + CMake package (find_package(onchip))
#   make clean
ARCH    ?= 90
PREFIX  ?= /usr/local
BUILD   ?= build
VERSION := 0.3.0

NVCC ?= $(shell command -v nvcc 2>/dev/null || { test -x /usr/local/cuda/bin/nvcc && echo /usr/local/cuda/bin/nvcc; })
CC   ?= gcc
ifeq ($(CC),cc)
CC := gcc
endif

HOST_CFLAGS := -std=c99 -Wall -Wextra -Werror -pedantic -O2 -Iinclude
NVFLAGS     := -O3 -std=c++17 -Iinclude -Werror all-warnings -Xcompiler -Wall,-Wextra,-Werror
# sm_90 builds are sm_90a builds: ksum's wgmma kernel (ksum/wgmma.cuh) needs the "a" features, and an
# sm_90a binary runs on the H100/H200 like an sm_90 one
GPU_SM      := $(ARCH)$(if $(filter 90,$(ARCH)),a)
GPU_ARCH    := -gencode=arch=compute_$(GPU_SM),code=sm_$(GPU_SM) $(if $(filter 90,$(ARCH)),-DONCHIP_SM90A)
CUDA_HOME   := $(patsubst %/bin/nvcc,%,$(NVCC))

# peers for the benchmarks, when present: NPP (CUDA toolkit), cuDNN (toolkit or the Python wheel)
HAVE_NPP   := $(wildcard $(CUDA_HOME)/include/nppi_filtering_functions.h)
CUDNN_DIR  := $(shell python3 -c "import nvidia.cudnn as m; print(m.__path__[0])" 2>/dev/null)
ifneq ($(CUDNN_DIR),)
CUDNN_FLAGS := -DONCHIP_HAVE_CUDNN -I$(CUDNN_DIR)/include -L$(CUDNN_DIR)/lib -l:libcudnn.so.9 -Xlinker -rpath=$(CUDNN_DIR)/lib
else ifneq ($(wildcard $(CUDA_HOME)/include/cudnn.h),)
CUDNN_FLAGS := -DONCHIP_HAVE_CUDNN -lcudnn
endif
PEER_FLAGS := $(if $(HAVE_NPP),-DONCHIP_HAVE_NPP -lnppif -lnppc) $(CUDNN_FLAGS)
# NCCL, when present (perks/exchange.cuh's NCCL path; its test, examples/heat2d_multi and bench/perks_scale
# run without it on one GPU or on virtual ranks)
HAVE_NCCL  := $(firstword $(wildcard $(CUDA_HOME)/include/nccl.h /usr/local/include/nccl.h /usr/include/nccl.h))
NCCL_LIBS  := $(if $(HAVE_NCCL),-lnccl)
# else the NCCL wheel (nvidia-nccl-cu*: include/nccl.h, lib/libnccl.so.2 with no libnccl.so link), as
# the GPU machines have it beside PyTorch
ifeq ($(HAVE_NCCL),)
NCCL_DIR   := $(shell python3 -c "import nvidia.nccl as m; print(list(m.__path__)[0])" 2>/dev/null)
ifneq ($(wildcard $(NCCL_DIR)/include/nccl.h),)
HAVE_NCCL  := $(NCCL_DIR)/include/nccl.h
NCCL_LIBS  := -I$(NCCL_DIR)/include -L$(NCCL_DIR)/lib -l:libnccl.so.2 -Xlinker -rpath=$(NCCL_DIR)/lib
endif
endif

HEADERS       := $(shell find include -name '*.h' -o -name '*.cuh' | sort)
HOST_TESTS    := $(patsubst tests/host/%.c,$(BUILD)/tests/host/%,$(wildcard tests/host/test_*.c))
GPU_TESTS     := $(patsubst tests/gpu/%.cu,$(BUILD)/tests/gpu/%,$(wildcard tests/gpu/test_*.cu))
EXAMPLES      := $(patsubst examples/%.cu,$(BUILD)/examples/%,$(wildcard examples/*.cu))
BENCHES       := $(patsubst bench/%.cu,$(BUILD)/bench/%,$(wildcard bench/*.cu))
# sources whose kernels must live in registers: 0 spill bytes, 0 stack frame (tools/check-resources)
# (listed here once; a module's sources join the list when they exist)
REGCHECK_SRCS := $(wildcard tests/gpu/test_cbi.cu tests/gpu/test_ssam_*.cu bench/ssam_conv.cu bench/ssam_designs.cu \
                   bench/ssam_stencil.cu bench/ssam_stencil_half.cu bench/ssam_stencil_tc.cu bench/ssam_temporal.cu bench/ssam_temporal3d.cu bench/ssam_queue3d.cu tests/gpu/test_ksum*.cu bench/ksum_fused.cu tests/gpu/test_perks*.cu bench/perks_stencil.cu)
# examples `make demo` runs, with their arguments (only those whose source exists)
DEMO := cbi_stencil cbi_matmul conv2d_image:-f:gauss conv2d_image:-f:gauss:--half conv_tc box3d_tc dilate:-e:ball heat2d heat2d:--persistent heat2d:--temporal heat3d heat2d_multi life:--size:2048:--gens:64 cg_solve cg_solve:--mixed:--tol:1e-10 cg_poisson:--n:96 cg_darcy:--n:96 cg_multi:--jacobi kde ksum_custom seismic:--n:128:--steps:400
# libraries the benchmarks' peers need (part of every CUDA toolkit)
BENCH_LIBS := -lcublas -lcusparse

.PHONY: all test bench demo install clean check-nvcc host-tests mpi-examples regdepth nvrtc-harness nvrtc-check fuzz fuzz-targets
# a failed link must not leave a half-written program that make then takes as up to date
.DELETE_ON_ERROR:
print-%:
	@echo $($*)
# (the larger programs first: make -j then ends on small ones)
all: check-nvcc $(HOST_TESTS) $(GPU_TESTS) $(BENCHES) $(EXAMPLES) $(BUILD)/tests/gpu/probe

check-nvcc:
	@test -n "$(NVCC)" || { echo "error: nvcc not found on PATH or in /usr/local/cuda/bin;" \
	  "install the CUDA Toolkit or run make NVCC=/path/to/nvcc" >&2; exit 1; }

$(BUILD)/tests/host/%: tests/host/%.c tests/host/check.h $(HEADERS)
	@mkdir -p $(@D)
	$(CC) $(HOST_CFLAGS) $< -o $@ -lm

$(BUILD)/tests/gpu/probe: tests/gpu/probe.cu | check-nvcc
	@mkdir -p $(@D)
	$(NVCC) $(NVFLAGS) $(GPU_ARCH) $< -o $@

# PTXAS_LOGS=1 (tools/run-tests): each GPU program's ptxas -v report goes to $(BUILD)/ptxas/, which
# the resource check reads instead of compiling the source again; a build without it removes the
# report, so a report that exists belongs to the program built
PTXAS_LOG = $(BUILD)/ptxas/$(subst /,_,$<).sm$(ARCH).log
define gpu_cc
@mkdir -p $(@D) $(BUILD)/ptxas
$(if $(PTXAS_LOGS),$(1) -Xptxas -v > $(PTXAS_LOG) 2>&1 || { cat $(PTXAS_LOG); rm -f $(PTXAS_LOG); exit 1; },rm -f $(PTXAS_LOG); $(1))
endef

# tests/common/: what the tests and the benchmarks share (the harness, CPU references, the cbi kernels)
COMMON := $(wildcard tests/common/*.h tests/common/*.cuh tests/host/check.h)

$(BUILD)/tests/gpu/%: tests/gpu/%.cu $(COMMON) $(HEADERS) | check-nvcc
	$(call gpu_cc,$(NVCC) $(NVFLAGS) $(GPU_ARCH) -Itests/common $< -o $@ $(NCCL_LIBS))

$(BUILD)/examples/%: examples/%.cu $(wildcard examples/*.inc) $(HEADERS) | check-nvcc
	$(call gpu_cc,$(NVCC) $(NVFLAGS) $(GPU_ARCH) $< -o $@ $(NCCL_LIBS))

# the examples with an MPI form (--mpi), built with the MPI's C++ compiler as nvcc's host compiler
MPI_EXAMPLES := $(BUILD)/examples/mpi/heat2d_multi
mpi-examples: $(MPI_EXAMPLES)
$(BUILD)/examples/mpi/%: examples/%.cu $(wildcard examples/*.inc) $(HEADERS) | check-nvcc
	@command -v mpicxx >/dev/null || { echo "mpi-examples: needs mpicxx on PATH" >&2; exit 1; }
	@mkdir -p $(@D)
	$(NVCC) -ccbin mpicxx $(NVFLAGS) $(GPU_ARCH) $< -o $@ $(NCCL_LIBS)

$(BUILD)/bench/%: bench/%.cu bench/*.cuh $(COMMON) $(HEADERS) | check-nvcc
	$(call gpu_cc,$(NVCC) $(NVFLAGS) $(GPU_ARCH) -Ibench -Itests/common $< -o $@ $(PEER_FLAGS) $(BENCH_LIBS) $(NCCL_LIBS))

host-tests: $(HOST_TESTS)

# fuzz targets: every tests/fuzz/fuzz_NAME.c, built two ways -- $(BUILD)/fuzz/replay_NAME (gcc, with
# tests/fuzz/replay.c: each file given, or each file of a directory, fed once, as make test replays
# tests/fuzz/corpus/NAME/) and, where clang links -fsanitize=fuzzer, $(BUILD)/fuzz/fuzz_NAME (libFuzzer).
# Both with AddressSanitizer and UBSan; where $(CC) cannot link them, the replays are built without.
FUZZ_NAMES   := $(patsubst tests/fuzz/fuzz_%.c,%,$(wildcard tests/fuzz/fuzz_*.c))
FUZZ_HEADERS := $(wildcard tests/fuzz/*.h)
FUZZ_REPLAYS := $(patsubst %,$(BUILD)/fuzz/replay_%,$(FUZZ_NAMES))
FUZZ_SECONDS ?= 300
FUZZ_CFLAGS  := -std=c99 -Wall -Wextra -Werror -pedantic -g -O1 -Iinclude -Itests/fuzz
CLANG        ?= clang
# probed once, when first used: "yes" when the compiler links a sanitized (or a libFuzzer) program
FUZZ_SAN      = $(eval FUZZ_SAN := $(shell printf 'int main(void){return 0;}\n' | $(CC) -x c - \
                  -fsanitize=address,undefined -o /dev/null >/dev/null 2>&1 && \
                  echo -fsanitize=address,undefined -fno-sanitize-recover=all))$(FUZZ_SAN)
FUZZ_CLANG_OK = $(eval FUZZ_CLANG_OK := $(shell printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, \
                  unsigned long n) { (void)d; (void)n; return 0; }\n' | $(CLANG) -x c - \
                  -fsanitize=fuzzer,address,undefined -o /dev/null >/dev/null 2>&1 && echo yes))$(FUZZ_CLANG_OK)
FUZZERS       = $(if $(FUZZ_CLANG_OK),$(patsubst %,$(BUILD)/fuzz/fuzz_%,$(FUZZ_NAMES)))
# test_mtx shares the reader's invariants with tests/fuzz/fuzz_mtx.c
$(BUILD)/tests/host/test_mtx: tests/fuzz/mtx_invariants.h
$(BUILD)/tests/host/test_props: tests/fuzz/fuzz_plan.c tests/fuzz/fuzz.h

$(BUILD)/fuzz/replay_%: tests/fuzz/fuzz_%.c tests/fuzz/replay.c $(FUZZ_HEADERS) $(HEADERS)
	@mkdir -p $(@D)
	$(CC) $(FUZZ_CFLAGS) $(FUZZ_SAN) tests/fuzz/replay.c $< -o $@ -lm

$(BUILD)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_HEADERS) $(HEADERS)
	@test -n "$(FUZZ_CLANG_OK)" || { echo "error: $(CLANG) cannot link -fsanitize=fuzzer (libFuzzer)" >&2; exit 1; }
	@mkdir -p $(@D)
	$(CLANG) $(FUZZ_CFLAGS) -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all $< -o $@ -lm

fuzz-targets: $(FUZZ_REPLAYS) $(FUZZERS)

# each libFuzzer target for FUZZ_SECONDS over a copy of its corpus in $(BUILD)/fuzz/run/NAME/ (the
# committed corpus is only read); a failing input is left in $(BUILD)/fuzz/run/NAME/ as crash-*,
# leak-*, timeout-* or oom-*: replay it with $(BUILD)/fuzz/replay_NAME FILE, and commit it to
# tests/fuzz/corpus/NAME/ with the fix
fuzz: fuzz-targets
	@test -n "$(FUZZERS)" || { echo "make fuzz: needs $(CLANG) with libFuzzer (-fsanitize=fuzzer)" >&2; exit 1; }
	@for n in $(FUZZ_NAMES); do w=$(BUILD)/fuzz/run/$$n; rm -rf $$w; mkdir -p $$w/corpus || exit 1; \
	  if [ -d tests/fuzz/corpus/$$n ]; then cp -R tests/fuzz/corpus/$$n/. $$w/corpus/ || exit 1; fi; \
	  echo "== fuzz_$$n for $(FUZZ_SECONDS) s over $$w/corpus"; \
	  $(BUILD)/fuzz/fuzz_$$n -max_total_time=$(FUZZ_SECONDS) -rss_limit_mb=2048 -malloc_limit_mb=512 -timeout=10 \
	    -print_final_stats=1 -artifact_prefix=$$w/ $$w/corpus || { echo "make fuzz: fuzz_$$n failed: $$(ls $$w/ | grep -v '^corpus$$' | sed "s|^|$$w/|")" >&2; exit 1; }; \
	done

# NVRTC, the run-time compiler of CuPy's RawModule: tests/nvrtc/nvrtc_compile (plain C, linked with the
# toolkit's libnvrtc) compiles every header and one instantiation of every generator
# (tools/check-nvrtc, part of make test; CPU only)
NVRTC_LIB := $(firstword $(wildcard $(CUDA_HOME)/lib64/libnvrtc.so $(CUDA_HOME)/lib/libnvrtc.so \
                                    $(CUDA_HOME)/targets/*/lib/libnvrtc.so))
$(BUILD)/tests/nvrtc/nvrtc_compile: tests/nvrtc/nvrtc_compile.c | check-nvcc
	@test -n "$(NVRTC_LIB)" || { echo "error: no libnvrtc.so under $(CUDA_HOME)" >&2; exit 1; }
	@mkdir -p $(@D)
	$(CC) $(HOST_CFLAGS) -I$(CUDA_HOME)/include $< -o $@ -L$(dir $(NVRTC_LIB)) -lnvrtc -Wl,-rpath,$(dir $(NVRTC_LIB))
nvrtc-harness: $(BUILD)/tests/nvrtc/nvrtc_compile
nvrtc-check: nvrtc-harness
	@NVCC="$(NVCC)" BUILD="$(BUILD)" CUDA_HOME="$(CUDA_HOME)" bash tools/check-nvrtc $(BUILD)/test-logs/nvrtc

# Everything the machine can run; ends with "N passed, N failed".
test: check-nvcc
	@NVCC="$(NVCC)" CC="$(CC)" BUILD="$(BUILD)" ARCH="$(ARCH)" MAKE="$(MAKE)" \
	  REGCHECK_SRCS="$(REGCHECK_SRCS)" bash tools/run-tests

bench: all
	@for b in $(BENCHES); do echo "== $$b"; $$b || exit 1; done

demo: $(EXAMPLES) $(BUILD)/tests/gpu/probe
	@$(BUILD)/tests/gpu/probe >/dev/null || { echo "demo: needs a CUDA device" >&2; exit 1; }
	@for d in $(DEMO); do e=$${d%%:*}; a=$$(echo "$$d:" | cut -d: -f2- | tr ':' ' '); \
	  test -f examples/$$e.cu || continue; echo "== $(BUILD)/examples/$$e $$a"; \
	  $(BUILD)/examples/$$e $$a || exit 1; done
	@if python3 -c "import cupy" >/dev/null 2>&1; then echo "== python3 examples/python/ssam_cupy.py"; \
	  CUDA_PATH="$${CUDA_PATH:-$(CUDA_HOME)}" python3 examples/python/ssam_cupy.py || exit 1; \
	  else echo "python example: skipped (no cupy)"; fi

# the largest spill-free register-cache depth of a PERKS generator (paper §4.1.4), e.g.
#   make regdepth DEF='PERKS_STENCIL2D_DEFINE(k, float, ONCHIP_SHAPE_STAR2D_R1, perks_stencil2d_policy<256, 8, DEPTH>)'
regdepth: check-nvcc
	@test -n "$(DEF)" || { echo "usage: make regdepth DEF='GENERATOR(..., DEPTH, ...)' [ARCH=90]" >&2; exit 2; }
	@NVCC="$(NVCC)" tools/perks-regdepth --arch $(ARCH) $(REGDEPTH_FLAGS) '$(DEF)'

install:
	@for d in $$(cd include && ls -d */); do \
	  mkdir -p "$(DESTDIR)$(PREFIX)/include/$$d" && cp -pR include/$$d. "$(DESTDIR)$(PREFIX)/include/$$d" || exit 1; done
	@mkdir -p "$(DESTDIR)$(PREFIX)/lib/pkgconfig" "$(DESTDIR)$(PREFIX)/lib/cmake/onchip"
	@sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(VERSION)|g' tools/onchip.pc.in \
	  > "$(DESTDIR)$(PREFIX)/lib/pkgconfig/onchip.pc"
	@cp tools/onchipConfig.cmake "$(DESTDIR)$(PREFIX)/lib/cmake/onchip/onchipConfig.cmake"
	@sed -e 's|@VERSION@|$(VERSION)|g' tools/onchipConfigVersion.cmake.in \
	  > "$(DESTDIR)$(PREFIX)/lib/cmake/onchip/onchipConfigVersion.cmake"
	@echo "installed onchip $(VERSION) headers, pkg-config and CMake package under $(DESTDIR)$(PREFIX)"

clean:
	rm -rf $(BUILD)
