# The matrix-multiplication ladder: build, test, run.  `make help` lists the targets.
#
# Variables you may set on the command line:
#   NVCC=       path to nvcc; empty builds host-only (GPU points are then skipped)
#   ARCH=90     GPU architecture (compute capability without the dot) to build
#               machine code for; default: this machine's GPU (nvidia-smi), else 90
#   PTX=80      also embed PTX for compute_$(PTX), which the driver compiles for any
#               later GPU; empty: none
#   HDF5_CFLAGS, HDF5_LIBS     where HDF5 (with its high-level library) lives;
#                              default from pkg-config hdf5
#   INIH_LIBS, ZLIB_LIBS, CMOCKA_CFLAGS, CMOCKA_LIBS   likewise for inih, zlib and
#                              cmocka
#   FUZZ_SECONDS=60   how long `make fuzz` runs; FUZZ_SEED=N its inputs' sequence
#                     (none: a new one each run); FUZZ_CC=clang its compiler;
#                     FUZZ_TIMEOUT=3 the seconds one input of the results target
#                     may take (it runs in libFuzzer's fork mode); FUZZ_JOBS its
#                     fork mode's jobs (default: one per core)

# ---- variables ---------------------------------------------------------------
CC         ?= cc
NVCC       ?= $(shell command -v nvcc 2>/dev/null)
# The GPU here, as nvidia-smi names its compute capability ("8.9" -> 89); 90 without one.
ifeq ($(origin ARCH),undefined)
  ARCH := $(or $(shell nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null \
                | head -n 1 | tr -d '. '),90)
endif
PTX        ?= 80
comma      := ,
empty      :=
space      := $(empty) $(empty)
CFLAGS     ?= -O2 -g
WARN       := -Wall -Wextra -Wpedantic
CPPFLAGS   += -Ikernels -Iharness -Ibuild
HDF5_CFLAGS ?= $(shell pkg-config --cflags hdf5 2>/dev/null)
HDF5_LIBS   ?= $(shell pkg-config --libs hdf5 2>/dev/null) -lhdf5_hl
INIH_LIBS   ?= -linih
ZLIB_LIBS   ?= $(or $(shell pkg-config --libs zlib 2>/dev/null),-lz)
CMOCKA_CFLAGS ?=
CMOCKA_LIBS   ?= -lcmocka
HOST_OPT_LEVELS := 1 2 3
# The shipped reference runs (data/README.md) that figures and paper are drawn from.
include data/references.mk
export REF_H100 REF_H200 REF_TRANSFERS REF_REPRO REF_SHAPES_H100 REF_SHAPES_H200 REF_PORTABILITY_H100 \
       REF_REPRO_SHAPES_H100 REF_REPRO_TRANSFERS_H100 REF_TRANSFERS_H200 REF_PORTABILITY_H200 \
       REF_REPRO_H200 REF_REPRO_SHAPES_H200 REF_REPRO_TRANSFERS_H200 REF_ESTIMATES_H100 \
       REF_ESTIMATES_H200 REF_HELDOUT_H100 REF_HELDOUT_H200 REF_REPRO_HELDOUT_H100 \
       REF_X2_SHAPES_H100 REF_X2_ONE_SHAPES_H100 REF_KT_HELDOUT_H100 REF_KT_HELDOUT_H200 \
       REF_HELDOUT3_H100 REF_HELDOUT3_H200 REF_KT_HELDOUT3_H100 REF_KT_HELDOUT3_H200
# Host rungs: each level is its own object, so -O is an axis of the experiment.
HOST_KERNEL_CFLAGS := -std=c11 -g $(WARN)
NVCCFLAGS  ?= -O3 -std=c++17 -lineinfo \
              -gencode arch=compute_$(ARCH),code=sm_$(ARCH) \
              $(if $(PTX),-gencode arch=compute_$(PTX)$(comma)code=compute_$(PTX))

# Rungs that use Hopper-only instructions (wgmma, TMA: files named *_tma.cu) are
# built for sm_90a alone; on any other GPU their launch reports the missing image.
SM90A_NVCCFLAGS := -O3 -std=c++17 -lineinfo -gencode arch=compute_90a,code=sm_90a

# The harness: one folder per layer (harness/README.md), each file of a folder
# compiled alone.
HARNESS_SRC := $(filter-out harness/cli/main.c harness/device/gpu_none.c,$(wildcard harness/*/*.c))
HARNESS_H   := $(wildcard harness/*/*.h)
HOST_KERNELS := $(wildcard kernels/host/*.c)
GPU_KERNELS  := $(wildcard kernels/gpu/*.cu)
TEST_SRC     := $(filter-out tests/sanitize_one.c tests/big_run.c,$(wildcard tests/*.c))

HOST_KERNEL_OBJ := $(foreach o,$(HOST_OPT_LEVELS),$(patsubst kernels/host/%.c,build/host/%.O$(o).o,$(HOST_KERNELS)))
HARNESS_OBJ := $(patsubst harness/%.c,build/harness/%.o,$(HARNESS_SRC))

ifneq ($(strip $(NVCC)),)
  CUDA_HOME  := $(patsubst %/bin/nvcc,%,$(realpath $(NVCC)))
  GPU_OBJ    := $(patsubst kernels/gpu/%.cu,build/gpu/%.o,$(GPU_KERNELS)) build/harness/device/gpu.o \
                build/harness/device/gpu_open.o build/harness/device/kernel_timer.o
  # test-only binaries with the wrong-on-purpose kernels (tests/faulty_kernels.cu)
  TEST_BINS  := build/tests/mmladder-faulty build/tests/sanitize-one
  # the stream-K plan walked on the host (tests/stream_k_plan.cu), for test_plan.c
  TEST_CU_OBJ := build/tests/stream_k_plan.o
  CPPFLAGS   += -DMM_HAVE_CUDA=1
  LINK       := $(NVCC)
  # CUPTI (the second timer) is part of the toolkit; older layouts keep it in extras/CUPTI.
  CUPTI_DIRS := $(CUDA_HOME)/lib64 $(CUDA_HOME)/extras/CUPTI/lib64
  LINK_LIBS  := -lcublas $(addprefix -L,$(CUPTI_DIRS)) -lcupti \
                $(foreach d,$(CUPTI_DIRS),-Xlinker -rpath=$(d))
else
  # Without nvcc each kernel file is compiled as C for its configurations alone
  # (kernels/rung_config.h): the plan and the results need them.
  GPU_OBJ    := build/harness/device/gpu_none.o $(patsubst kernels/gpu/%.cu,build/gpuconf/%.o,$(GPU_KERNELS))
  CPPFLAGS   += -DMM_HAVE_CUDA=0
  LINK       := $(CC)
  LINK_LIBS  :=
endif
# The kernels' plain C: the configuration tables' lookups and the dispatch model.
KERNEL_C_OBJ := build/kernels/rung_config.o build/kernels/dispatch_model.o \
                build/kernels/dispatch_model_table.o
LIB_OBJ := $(HARNESS_OBJ) $(HOST_KERNEL_OBJ) $(GPU_OBJ) $(KERNEL_C_OBJ)
# Recursive (=), not simple (:=): HDF5_LIBS asks pkg-config, which `make deps`
# may only just have installed.
LIBS     = $(HDF5_LIBS) $(INIH_LIBS) $(ZLIB_LIBS) $(LINK_LIBS) -ldl -lpthread -lm

# ---- user-facing targets -------------------------------------------------------
.PHONY: all help test test-built test-slurm deps deps-slurm deps-paper figures figures-built paper check-claims readme \
        claims-history \
        reproduce archs \
        reproduce-built quick run-paper shapes host transfers autotune sanitize fuzz deps-fuzz clean \
        bench-readers same-outputs same-outputs-capture FORCE
all: bin/mmladder                        ## build the harness (GPU build when nvcc is found)

help:                                    ## list the targets
	@grep -hE '^[a-z-]+:.*## ' Makefile | sed -E 's/:.*## /\t/' | expand -t 14

deps:                                    ## install missing Debian packages (as root) or say how
	@CC="$(CC)" NVCC="$(NVCC)" CFLAGS="$(HDF5_CFLAGS) $(CMOCKA_CFLAGS)" \
	  LIBS="$(HDF5_LIBS) $(INIH_LIBS) $(ZLIB_LIBS) $(CMOCKA_LIBS)" scripts/deps.sh

# Targets that need the Debian packages run `deps` first and then a fresh make
# for the rest, which reads the compiler and linker flags that pkg-config (maybe
# installed by deps a moment ago) gives; `make X-built` skips the deps step.
test: deps                               ## unit and end-to-end tests (GPU tests skip without a GPU)
	@$(MAKE) --no-print-directory test-built

test-built: bin/mmladder build/tests/run_tests $(TEST_BINS)
	MMLADDER=bin/mmladder build/tests/run_tests

# The Slurm tests (tests/test_slurm.c) on a one-box cluster that this target
# starts and stops again (one already up is used and left up); `make test`
# skips them when no such cluster is up.
test-slurm: deps deps-slurm              ## scripts/slurm-shards.sh against a real one-box Slurm (as root; CI)
	@$(MAKE) --no-print-directory bin/mmladder build/tests/run_tests
	@if scripts/slurm-local.sh status >/dev/null 2>&1; then started=0; \
	 else scripts/slurm-local.sh start || exit 1; started=1; fi; \
	 MMLADDER=bin/mmladder MM_TESTS='slurm_*' build/tests/run_tests; rc=$$?; \
	 if [ $$started = 1 ]; then scripts/slurm-local.sh stop || rc=1; fi; exit $$rc

deps-slurm:                              ## install Slurm and munge (Debian's) when root, or say how
	@scripts/deps.sh --slurm

# Every GPU kernel compiled (not linked) for each architecture the project
# supports, as nvcc sees them: a kernel that does not build for one fails here.
ARCHS ?= 80 86 89 90 100 120
archs:                                   ## compile every GPU kernel for each of ARCHS (CI)
	@[ -n "$(NVCC)" ] || { echo "make archs: no nvcc (NVCC=...)" >&2; exit 2; }
	@for a in $(ARCHS); do \
	  mkdir -p build/archs/sm_$$a; start=$$(date +%s); \
	  for f in $(filter-out %_tma.cu,$(GPU_KERNELS)) harness/device/gpu.cu harness/device/gpu_open.cu; do \
	    $(NVCC) -O3 -std=c++17 -gencode arch=compute_$$a,code=sm_$$a -Ikernels -Iharness -Ibuild \
	      -DMM_HAVE_CUDA=1 -c $$f -o build/archs/sm_$$a/$$(basename $$f .cu).o || exit 1; \
	  done; echo "archs: sm_$$a: every kernel built in $$(( $$(date +%s) - start )) s"; \
	done
	@echo "archs: the sm_90a kernels ($(notdir $(filter %_tma.cu,$(GPU_KERNELS)))) are built by every build"

sanitize: bin/mmladder build/tests/sanitize-one  ## compute-sanitizer over every GPU rung (1-3 configurations each) -> data/sanitizer-<gpu>.tsv
	scripts/sanitize.sh

fuzz: deps-fuzz                          ## fuzz the experiment parser, the results reader, the claims, the views and the command line, FUZZ_SECONDS each
	$(MAKE) build/fuzz/fuzz_experiment build/fuzz/fuzz_results build/fuzz/fuzz_claims \
	  build/fuzz/fuzz_derive
	$(MAKE) build/fuzz/fuzz_cli
	scripts/fuzz.sh build/fuzz/fuzz_experiment tests/fuzz/experiment build/fuzz/experiment $(FUZZ_SECONDS) $(FUZZ_SEED)
	FUZZ_TIMEOUT=$(FUZZ_TIMEOUT) FUZZ_JOBS=$(FUZZ_JOBS) scripts/fuzz.sh --fork build/fuzz/fuzz_results tests/fuzz/results build/fuzz/results $(FUZZ_SECONDS) $(FUZZ_SEED)
	scripts/fuzz.sh build/fuzz/fuzz_claims tests/fuzz/claims build/fuzz/claims $(FUZZ_SECONDS) $(FUZZ_SEED)
	scripts/fuzz.sh build/fuzz/fuzz_derive tests/fuzz/derive build/fuzz/derive $(FUZZ_SECONDS) $(FUZZ_SEED)
	scripts/fuzz.sh build/fuzz/fuzz_cli tests/fuzz/cli build/fuzz/cli $(FUZZ_SECONDS) $(FUZZ_SEED)

deps-fuzz:                               ## install clang with libFuzzer (Debian's) when root, or say how
	@FUZZ_CC="$(FUZZ_CC)" scripts/deps.sh --fuzz

figures: deps                            ## every figure from the shipped data, into build/figures/
	@$(MAKE) --no-print-directory figures-built

figures-built: bin/mmladder
	scripts/figures.sh -o build/figures -p $(REF_H100) -c $(REF_H200) \
	  $(if $(REF_TRANSFERS),-t $(REF_TRANSFERS)) $(if $(REF_REPRO),-r $(REF_H100) -n $(REF_REPRO)) \
	  $(if $(REF_REPRO_H200),-R $(REF_H200) -N $(REF_REPRO_H200)) \
	  $(if $(REF_SHAPES_H100),-s $(REF_SHAPES_H100)) $(if $(FIG_HELDOUT_H100),-H $(FIG_HELDOUT_H100)) \
	  $(if $(FIG_HELDOUT_H200),-J $(FIG_HELDOUT_H200))

# The held-out figures draw the newest draw data/references.mk names: the
# third (experiments/heldout-v3.ini) where its H100 run is given, else the first.
FIG_HELDOUT_H100 = $(if $(REF_HELDOUT3_H100),$(REF_HELDOUT3_H100),$(REF_HELDOUT_H100))
FIG_HELDOUT_H200 = $(if $(REF_HELDOUT3_H100),$(REF_HELDOUT3_H200),$(REF_HELDOUT_H200))

# The roles the claims and the paper's keys name, and the reference runs they are.
REF_RUNS = h100=$(REF_H100) h200=$(REF_H200) $(if $(REF_TRANSFERS),transfers=$(REF_TRANSFERS)) \
           $(if $(REF_REPRO),repro=$(REF_REPRO)) \
           $(if $(REF_SHAPES_H100),shapes_h100=$(REF_SHAPES_H100)) \
           $(if $(REF_SHAPES_H200),shapes_h200=$(REF_SHAPES_H200)) \
           $(if $(REF_PORTABILITY_H100),portability_h100=$(REF_PORTABILITY_H100)) \
           $(if $(REF_REPRO_SHAPES_H100),repro_shapes_h100=$(REF_REPRO_SHAPES_H100)) \
           $(if $(REF_REPRO_TRANSFERS_H100),repro_transfers_h100=$(REF_REPRO_TRANSFERS_H100)) \
           $(if $(REF_TRANSFERS_H200),transfers_h200=$(REF_TRANSFERS_H200)) \
           $(if $(REF_PORTABILITY_H200),portability_h200=$(REF_PORTABILITY_H200)) \
           $(if $(REF_REPRO_H200),repro_h200=$(REF_REPRO_H200)) \
           $(if $(REF_REPRO_SHAPES_H200),repro_shapes_h200=$(REF_REPRO_SHAPES_H200)) \
           $(if $(REF_REPRO_TRANSFERS_H200),repro_transfers_h200=$(REF_REPRO_TRANSFERS_H200)) \
           $(if $(REF_ESTIMATES_H100),estimates_h100=$(REF_ESTIMATES_H100)) \
           $(if $(REF_ESTIMATES_H200),estimates_h200=$(REF_ESTIMATES_H200)) \
           $(if $(REF_HELDOUT_H100),heldout_h100=$(REF_HELDOUT_H100)) \
           $(if $(REF_HELDOUT_H200),heldout_h200=$(REF_HELDOUT_H200)) \
           $(if $(REF_REPRO_HELDOUT_H100),repro_heldout_h100=$(REF_REPRO_HELDOUT_H100)) \
           $(if $(REF_KT_HELDOUT_H100),kt_heldout_h100=$(REF_KT_HELDOUT_H100)) \
           $(if $(REF_KT_HELDOUT_H200),kt_heldout_h200=$(REF_KT_HELDOUT_H200)) \
           $(if $(REF_X2_SHAPES_H100),x2_shapes_h100=$(REF_X2_SHAPES_H100)) \
           $(if $(REF_X2_ONE_SHAPES_H100),x2_one_shapes_h100=$(REF_X2_ONE_SHAPES_H100)) \
           $(if $(REF_HELDOUT3_H100),heldout3_h100=$(REF_HELDOUT3_H100)) \
           $(if $(REF_HELDOUT3_H200),heldout3_h200=$(REF_HELDOUT3_H200)) \
           $(if $(REF_KT_HELDOUT3_H100),kt_heldout3_h100=$(REF_KT_HELDOUT3_H100)) \
           $(if $(REF_KT_HELDOUT3_H200),kt_heldout3_h200=$(REF_KT_HELDOUT3_H200))

# The roles whose runs are declared but not made yet (empty in
# data/references.mk): the claims waiting for them are reported, not failed.
PENDING_ROLES = $(subst $(space),$(comma),$(strip \
                $(if $(REF_HELDOUT3_H100),,heldout3_h100) $(if $(REF_HELDOUT3_H200),,heldout3_h200) \
                $(if $(REF_KT_HELDOUT3_H100),,kt_heldout3_h100) \
                $(if $(REF_KT_HELDOUT3_H200),,kt_heldout3_h200) \
                $(if $(REF_X2_SHAPES_H100),,x2_shapes_h100) \
                $(if $(REF_X2_ONE_SHAPES_H100),,x2_one_shapes_h100)))
CLAIMS_PENDING = $(if $(PENDING_ROLES),--pending $(PENDING_ROLES))

# When each claim's band was stated, from git (scripts/claim-history.sh), kept
# beside the claims so that every build reads the same history; a test holds
# it to git's.
CLAIMS_HISTORY := paper/claims-history.tsv
check-claims: bin/mmladder               ## every claim of README and paper checked against data/
	bin/mmladder claims paper/claims.ini --history $(CLAIMS_HISTORY) $(CLAIMS_PENDING) $(REF_RUNS)

# Every output a user sees of the binary (scripts/same-outputs.sh lists them),
# for a change that must change none: captured into DIR before, compared byte
# for byte after (naming each that differs).
same-outputs-capture: bin/mmladder       ## capture every output users see of bin/mmladder into DIR
	BIN=bin/mmladder REF_RUNS="$(REF_RUNS)" PENDING="$(CLAIMS_PENDING)" HISTORY=$(CLAIMS_HISTORY) scripts/same-outputs.sh capture $(DIR)

same-outputs: bin/mmladder               ## compare them byte for byte with those captured in DIR
	BIN=bin/mmladder REF_RUNS="$(REF_RUNS)" PENDING="$(CLAIMS_PENDING)" HISTORY=$(CLAIMS_HISTORY) scripts/same-outputs.sh compare $(DIR)

claims-history:                          ## rewrite paper/claims-history.tsv: when each claim's band was stated
	scripts/claim-history.sh paper/claims.ini > $(CLAIMS_HISTORY).tmp && mv $(CLAIMS_HISTORY).tmp $(CLAIMS_HISTORY)

readme: bin/mmladder                     ## rewrite the READMEs' generated blocks (headline, rungs, claims)
	BIN=bin/mmladder REF_RUNS="$(REF_RUNS)" PENDING="$(CLAIMS_PENDING)" HISTORY=$(CLAIMS_HISTORY) scripts/readme.sh

paper: deps-paper figures                ## the paper from data/ into build/paper/main.pdf
	@# Every figure is placed at its own size (paper/main.tex, \placefig, stops on
	@# one of another width): its lettering prints as drawn, and none under 7 pt.
	scripts/check-lettering.sh -m 7 build/figures/*.pdf
	@mkdir -p build/paper
	bin/mmladder values --claims paper/claims.ini --history $(CLAIMS_HISTORY) \
	  --out build/paper/values.tex --tables build/paper $(REF_RUNS) -- paper/*.tex
	@# max_print_line: the log's lines unwrapped, file names and warnings whole
	max_print_line=10000 latexmk -pdf -interaction=nonstopmode -halt-on-error -outdir=build/paper \
	  paper/main.tex
	@# Only outline fonts (Type 1, TrueType): a bitmap Type 3 font prints blurred.
	@if pdffonts build/paper/main.pdf | grep -q 'Type 3'; then \
	  echo "paper: build/paper/main.pdf embeds bitmap (Type 3) fonts:" >&2; \
	  pdffonts build/paper/main.pdf >&2; exit 1; fi
	@# No box past the margin, no ?? for a reference, every entry with its
	@# author, year and URL, the PDF's title and author in its metadata; the
	@# body (to \label{body-end}) within 14 pages, and no sentence of 12 words
	@# or more printed twice (numbers aside; the figures' own lettering left out).
	scripts/check-paper.sh -l build/paper/main.log -b paper/references.bib -p build/paper/main.pdf \
	  -a build/paper/main.aux -n 14 -r 12 -F build/figures

deps-paper:                              ## install LaTeX (Debian's texlive) when root, or say how
	@scripts/deps.sh --paper

# The binary is built on every core first: a serial build of the CUDA kernels
# alone is a minute or more of make reproduce's six.
reproduce: deps                          ## re-run the paper matrix here, redraw, compare with data/
	@$(MAKE) --no-print-directory -j$$(nproc 2>/dev/null || echo 1) bin/mmladder
	@$(MAKE) --no-print-directory reproduce-built

reproduce-built: bin/mmladder
	scripts/reproduce.sh

quick: bin/mmladder                      ## run experiments/quick.ini into data/ (no GPU: its host points; exit 3)
	bin/mmladder run experiments/quick.ini

run-paper: bin/mmladder                  ## run experiments/paper.ini into data/ (time: bin/mmladder plan)
	bin/mmladder run experiments/paper.ini

shapes: bin/mmladder                     ## run experiments/shapes.ini (the shape suite) into data/ (time: bin/mmladder plan)
	bin/mmladder run experiments/shapes.ini

host: bin/mmladder                       ## run experiments/host.ini (host rungs only) into data/
	bin/mmladder run experiments/host.ini

transfers: bin/mmladder                  ## run experiments/transfers.ini (copies + kernel) into data/
	bin/mmladder run experiments/transfers.ini

autotune: bin/mmladder                   ## run experiments/autotune.ini (rungs past the seeds) into data/
	bin/mmladder run experiments/autotune.ini

clean:                                   ## remove build outputs (never data/)
	rm -rf build bin

# ---- rules ---------------------------------------------------------------------
# The parser alone (and what it calls), instrumented for libFuzzer; inih is Debian's.
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
FUZZ_TIMEOUT ?= 3
FUZZ_JOBS    ?=
FUZZ_FLAGS   := -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
                -fsanitize-coverage-ignorelist=tests/fuzz/coverage-ignore.txt \
                -fno-omit-frame-pointer $(WARN)
build/fuzz/fuzz_experiment: tests/fuzz/fuzz_experiment.c $(wildcard harness/experiment/*.c) \
                            harness/core/sampling.c harness/util/files.c harness/core/corpus.c \
                            harness/core/inputs.c $(HARNESS_H)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_FLAGS) -Iharness -Ikernels -o $@ $(filter %.c,$^) $(INIH_LIBS) -lm

# Three targets share the readers of results files, derive and its tables (with
# the registry; the kernels as their configuration tables and the dispatch
# model alone, no CUDA; HDF5
# is Debian's), and each adds its own code: fuzz_results the report code that
# takes what the readers read (summary, exports), fuzz_claims the claims
# (evaluated over runs held in memory), fuzz_derive nothing (every view over
# rows it makes).
FUZZ_CONF_OBJ := $(HOST_KERNEL_OBJ) $(patsubst kernels/gpu/%.cu,build/gpuconf/%.o,$(GPU_KERNELS)) \
                 $(KERNEL_C_OBJ)
FUZZ_DERIVE_SRC := harness/results/results.c harness/results/results_read.c \
                   harness/results/results_wire.c harness/results/results_h5.c harness/results/trust.c \
                   harness/results/outname.c harness/util/files.c harness/core/sampling.c \
                   $(wildcard harness/views/derive*.c) harness/views/estimates.c \
                   harness/core/registry.c harness/util/numtext.c
FUZZ_DERIVE_BINS := build/fuzz/fuzz_results build/fuzz/fuzz_claims build/fuzz/fuzz_derive
build/fuzz/fuzz_results: tests/fuzz/fuzz_results.c harness/views/report.c
# fuzz_results reads each file in its own process, not in a child (results/results_wire.c:
# RESULTS_READ_IN_PROCESS), so that libFuzzer sees the reader's coverage.
build/fuzz/fuzz_results: FUZZ_DEFS := -DRESULTS_READ_IN_PROCESS
build/fuzz/fuzz_claims: tests/fuzz/fuzz_claims.c harness/claims/claims.c harness/claims/claims_eval.c
build/fuzz/fuzz_derive: tests/fuzz/fuzz_derive.c
$(FUZZ_DERIVE_BINS): $(FUZZ_DERIVE_SRC) $(FUZZ_CONF_OBJ) $(HARNESS_H) $(wildcard tests/fuzz/*.h)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_FLAGS) $(FUZZ_DEFS) -DMM_HAVE_CUDA=0 -Iharness -Ikernels $(HDF5_CFLAGS) -o $@ \
	  $(filter %.c %.o,$^) $(HDF5_LIBS) $(ZLIB_LIBS) -lpthread -lm

# The command line in-process (cli_main): every harness module but cli/main.c,
# as the host-only build has them (device/gpu_none.c, the kernels' configurations, no
# CUDA); the target copies files from this tree, named here.
FUZZ_CLI_SRC := $(filter-out harness/cli/main.c,$(wildcard harness/*/*.c))
build/fuzz/fuzz_cli: tests/fuzz/fuzz_cli.c $(FUZZ_CLI_SRC) $(FUZZ_CONF_OBJ) build/buildinfo.h \
                     $(HARNESS_H) data/references.mk
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_FLAGS) -DMM_HAVE_CUDA=0 -Iharness -Ikernels -Ibuild $(HDF5_CFLAGS) \
	  -DFUZZ_CLI_REPO='"$(CURDIR)"' -DFUZZ_CLI_GPU_RUN='"$(REF_PORTABILITY_H100)"' -o $@ \
	  $(filter %.c %.o,$^) $(HDF5_LIBS) $(INIH_LIBS) $(ZLIB_LIBS) -ldl -lpthread -lm

build/fuzz/fuzz_experiment $(FUZZ_DERIVE_BINS) build/fuzz/fuzz_cli: tests/fuzz/coverage-ignore.txt

bin/mmladder: build/harness/cli/main.o $(LIB_OBJ)
	@mkdir -p $(@D)
	$(LINK) -o $@ $^ $(LIBS)

build/tests/run_tests: $(patsubst tests/%.c,build/tests/%.o,$(TEST_SRC)) $(TEST_CU_OBJ) $(LIB_OBJ)
	@mkdir -p $(@D)
	$(LINK) -o $@ $^ $(LIBS) $(CMOCKA_LIBS)

# The harness with the test-only kernels in its registry, and the one-kernel
# driver that scripts/sanitize.sh runs under compute-sanitizer.
FAULTY_OBJ := build/tests/registry_faulty.o build/tests/faulty_kernels.o
build/tests/mmladder-faulty: build/harness/cli/main.o $(filter-out build/harness/core/registry.o,$(LIB_OBJ)) \
                             $(FAULTY_OBJ)
	@mkdir -p $(@D)
	$(LINK) -o $@ $^ $(LIBS)

build/tests/sanitize-one: build/tests/sanitize_one.o $(filter-out build/harness/core/registry.o,$(LIB_OBJ)) \
                          $(FAULTY_OBJ)
	@mkdir -p $(@D)
	$(LINK) -o $@ $^ $(LIBS)

# A results file of any size, grown from a real run (tests/big_run.c), and the
# readers timed on one of BENCH_ROWS rows: a measurement, not a test.
build/tests/big-run: build/tests/big_run.o $(LIB_OBJ)
	@mkdir -p $(@D)
	$(LINK) -o $@ $^ $(LIBS)

BENCH_ROWS ?= 1000000
bench-readers: bin/mmladder build/tests/big-run  ## time every reader on a results file of BENCH_ROWS rows
	scripts/bench-readers.sh -n $(BENCH_ROWS) $(REF_HELDOUT_H100)

# What a cuBLAS launch inherits from the launch before it (tests/pairing_probe.cu):
# a measurement to run by hand on a GPU, not a test.
build/tests/pairing-probe: tests/pairing_probe.cu build/gpu/11_gpu_warptiled.o \
                           build/gpu/12_gpu_async_copy.o build/kernels/rung_config.o \
                           build/harness/device/kernel_timer.o
	@mkdir -p $(@D)
	$(NVCC) $(NVCCFLAGS) -Ikernels -Iharness -o $@ $^ $(LINK_LIBS)

build/tests/registry_faulty.o: harness/core/registry.c $(HARNESS_H) $(wildcard kernels/*.h)
	@mkdir -p $(@D)
	$(CC) -std=c11 $(CFLAGS) $(WARN) $(CPPFLAGS) -DMM_TEST_RUNGS=1 -c $< -o $@

build/tests/faulty_kernels.o: tests/faulty_kernels.cu kernels/matmul.h kernels/gpu/launch.cuh
	@mkdir -p $(@D)
	$(NVCC) $(NVCCFLAGS) -Ikernels -c $< -o $@

build/tests/stream_k_plan.o: tests/stream_k_plan.cu kernels/gpu/stream_k.cuh kernels/gpu/split_k.cuh kernels/matmul.h
	@mkdir -p $(@D)
	$(NVCC) $(NVCCFLAGS) -Ikernels -c $< -o $@

build/tests/sanitize_one.o: CPPFLAGS += -I$(CUDA_HOME)/include

build/harness/%.o: harness/%.c build/buildinfo.h $(HARNESS_H) $(wildcard kernels/*.h)
	@mkdir -p $(@D)
	$(CC) -std=c11 $(CFLAGS) $(WARN) $(CPPFLAGS) $(HDF5_CFLAGS) -c $< -o $@

build/tests/%.o: tests/%.c $(HARNESS_H) $(wildcard kernels/*.h tests/*.h)
	@mkdir -p $(@D)
	$(CC) -std=c11 $(CFLAGS) $(WARN) $(CPPFLAGS) $(HDF5_CFLAGS) $(CMOCKA_CFLAGS) -c $< -o $@

define host_kernel_rule
build/host/%.O$(1).o: kernels/host/%.c kernels/matmul.h
	@mkdir -p $$(@D)
	$$(CC) $$(HOST_KERNEL_CFLAGS) -O$(1) -DOPT_LEVEL=$(1) -Ikernels -c $$< -o $$@
endef
$(foreach o,$(HOST_OPT_LEVELS),$(eval $(call host_kernel_rule,$(o))))

build/kernels/%.o: kernels/%.c kernels/rung_config.h kernels/matmul.h kernels/dispatch.h
	@mkdir -p $(@D)
	$(CC) -std=c11 $(CFLAGS) $(WARN) -Ikernels -c $< -o $@

build/gpuconf/%.o: kernels/gpu/%.cu kernels/rung_config.h kernels/matmul.h $(wildcard kernels/gpu/*.cuh)
	@mkdir -p $(@D)
	$(CC) -x c -std=c11 $(CFLAGS) $(WARN) -Ikernels -c $< -o $@

build/gpu/%.o: kernels/gpu/%.cu kernels/matmul.h kernels/rung_config.h $(wildcard kernels/gpu/*.cuh)
	@mkdir -p $(@D)
	$(NVCC) $(NVCCFLAGS) -Ikernels -c $< -o $@

build/gpu/%_tma.o: kernels/gpu/%_tma.cu kernels/matmul.h kernels/rung_config.h $(wildcard kernels/gpu/*.cuh)
	@mkdir -p $(@D)
	$(NVCC) $(SM90A_NVCCFLAGS) -Ikernels -c $< -o $@

build/harness/device/gpu.o build/harness/device/gpu_open.o: build/harness/device/%.o: harness/device/%.cu \
                                                          $(HARNESS_H) $(wildcard kernels/*.h)
	@mkdir -p $(@D)
	$(NVCC) $(NVCCFLAGS) $(CPPFLAGS) -c $< -o $@

build/harness/device/kernel_timer.o: harness/device/kernel_timer.cu harness/device/kernel_timer.h
	@mkdir -p $(@D)
	$(NVCC) $(NVCCFLAGS) -I$(CUDA_HOME)/extras/CUPTI/include -c $< -o $@

# Build provenance, rewritten only when it changes.
build/buildinfo.h: FORCE
	@mkdir -p $(@D)
	@scripts/buildinfo.sh "$(CC)" "-std=c11 $(CFLAGS) $(WARN)" "$(HOST_KERNEL_CFLAGS) -O<level>" \
	  "$(NVCC)" "$(NVCCFLAGS)" > $@.tmp
	@cmp -s $@.tmp $@ || mv $@.tmp $@; rm -f $@.tmp
