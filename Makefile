# pairfold build. `make` builds the CPU binary; `make test` runs every test and
# ends with one verdict line "N passed, M failed"; `make CUDA=1` adds the CUDA
# backend (src/cuda, built with nvcc for sm_90a and sm_80).
CC      ?= gcc
CSTD    := -std=c11 -D_GNU_SOURCE
WARN    := -Wall -Wextra -Wno-unused-parameter
OPT     ?= -O2
CFLAGS  += $(CSTD) $(WARN) $(OPT) -g -fopenmp -fno-fast-math -MMD -MP
# OpenBLAS built for OpenMP: it shares pairfold's OpenMP threads (the pthread build
# fights them: 10x slower on 2 cores) and runs serially inside parallel regions.
BLAS_DIR ?= /usr/lib/x86_64-linux-gnu/openblas-openmp
LDLIBS  := -L$(BLAS_DIR) -Wl,-rpath,$(BLAS_DIR) -lopenblas -lcjson -lz -lm -lpthread
BUILD   := build

LIB_SRC  := $(sort $(wildcard src/core/*.c src/backend/*.c src/cpu/*.c src/registry/*.c src/data/*.c src/model/*.c src/optim/*.c src/format/*.c src/train/*.c))
CLI_SRC  := $(sort $(wildcard src/cli/*.c))
TLIB_SRC := tests/testlib.c
GRAD_SRC := $(sort $(wildcard tests/grad_*.c))

f32 = $(patsubst %.c,$(BUILD)/f32/%.o,$(1))
f64 = $(patsubst %.c,$(BUILD)/f64/%.o,$(1))

TEST_BINS := $(BUILD)/test_grad $(BUILD)/test_model
TEST_BINS += $(patsubst tests/%.c,$(BUILD)/%,$(sort $(wildcard tests/test_data*.c tests/test_unit_*.c)))

.PHONY: all test test-asan clean
# keep object files of test programs (no "rm" after the verdict line)
.SECONDARY:
all: pairfold

# Make fragments owned by sub-projects (data pipeline, CUDA backend, fuzzers);
# they may append to LIB_SRC, TEST_BINS, LDLIBS and add targets.
-include $(sort $(wildcard mk/*.mk))

$(BUILD)/f32/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@
$(BUILD)/f64/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -DPF_DOUBLE -c $< -o $@

# `pairfold version` prints the git commit it was built from ("unknown" outside a
# git checkout); $(BUILD)/commit changes only with the commit, so main.o is rebuilt then.
PF_COMMIT := $(shell git rev-parse --short HEAD 2>/dev/null || echo unknown)
$(BUILD)/commit: FORCE
	@mkdir -p $(BUILD); echo '$(PF_COMMIT)' | cmp -s - $@ || echo '$(PF_COMMIT)' > $@
$(BUILD)/f32/src/cli/main.o: $(BUILD)/commit
$(BUILD)/f32/src/cli/main.o: CFLAGS += -DPF_COMMIT='"$(PF_COMMIT)"'
.PHONY: FORCE

pairfold: $(call f32,$(LIB_SRC) $(CLI_SRC)) $(LIB_OBJ_EXTRA)
	$(CC) $(CFLAGS) $^ -o $@ $(LDLIBS)

# float64 gradient checks of every module and block
$(BUILD)/test_grad: $(call f64,$(LIB_SRC) $(TLIB_SRC) $(GRAD_SRC) tests/test_grad.c)
	$(CC) $(CFLAGS) $^ -o $@ $(LDLIBS)
# model-level tests: masks, accumulation, parameter names, checkpoints (float64)
$(BUILD)/test_model: $(call f64,$(LIB_SRC) $(TLIB_SRC) tests/test_model.c)
	$(CC) $(CFLAGS) $^ -o $@ $(LDLIBS)
$(BUILD)/test_data%: $(call f32,$(LIB_SRC) $(TLIB_SRC)) $(BUILD)/f32/tests/test_data%.o
	$(CC) $(CFLAGS) $^ -o $@ $(LDLIBS)
$(BUILD)/test_unit_%: $(call f32,$(LIB_SRC) $(TLIB_SRC)) $(BUILD)/f32/tests/test_unit_%.o
	$(CC) $(CFLAGS) $^ -o $@ $(LDLIBS)

# the bf16 storage floor of test_cuda's IPA d z check, on the CPU (bench/ipa_bf16_floor.c)
$(BUILD)/ipa_bf16_floor: $(call f32,$(LIB_SRC) $(TLIB_SRC) bench/ipa_bf16_floor.c)
	$(CC) $(CFLAGS) $^ -o $@ $(LDLIBS)

# tests/test_op_coverage.sh reads the CUDA test's objects where the ops' cuda_NAME groups are (they compile without CUDA)
CU_OP_TEST_SRC := tests/cuda/test_cuda.c tests/cuda/test_cuda_trimul.c tests/cuda/test_cuda_attn.c
test: pairfold libpairfold.so $(TEST_BINS) $(call f32,$(CU_OP_TEST_SRC))
	@bash tests/run_all.sh $(TEST_BINS)

clean:
	rm -rf $(BUILD) pairfold libpairfold.so python/build python/pairfold.egg-info

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
