# mk/cuda.mk: the CUDA backend (src/cuda), included by the Makefile.
#   make CUDA=1          pairfold with the CPU and CUDA backends (-DPF_WITH_CUDA)
#   make test-cuda       every op on the GPU against the CPU reference, then the
#                        same program (small sizes) under compute-sanitizer memcheck
#   make cuda-check      compile the CUDA sources only (CI: nvcc, no GPU; .ci/run passes
#                        CU_ARCH with sm_90a only and its own BUILD)
# Machine code for sm_90a (Hopper) and sm_80 (Ampere); no PTX JIT at run time.
NVCC       ?= nvcc
CUDA_HOME  ?= $(patsubst %/bin/nvcc,%,$(shell command -v $(NVCC) 2>/dev/null))
CU_ARCH    := -gencode arch=compute_90a,code=sm_90a -gencode arch=compute_80,code=sm_80
# NV_CHECK: more device flags; .ci/run's cuda-check passes -Ofc=max (a compile check: the front end and ptxas's parse
# of every inline wgmma / TMA instruction stay, the device optimisations that cost most of its CPU go; never for a
# build that runs)
NVFLAGS    ?= -O3 -std=c++17 -lineinfo $(CU_ARCH) $(NV_CHECK) -Xcompiler -Wall,-Wno-unused-parameter,-Wno-unused-function
CU_SRC     := $(sort $(wildcard src/cuda/*.cu))
CU_HDR     := $(wildcard src/cuda/*.cuh src/cuda/*.h) $(wildcard src/backend/*.h src/backend/*.def)
CU_OBJ     := $(patsubst %.cu,$(BUILD)/cu/%.o,$(CU_SRC))
CU_LIBS    := -L$(CUDA_HOME)/lib64 -Wl,-rpath,$(CUDA_HOME)/lib64 -lcudart -lcublasLt -lcublas -lstdc++ -ldl

ifeq ($(CUDA),1)
LIB_OBJ_EXTRA += $(CU_OBJ)
CFLAGS += -DPF_WITH_CUDA
LDLIBS += $(CU_LIBS)
endif

# header dependencies from nvcc -MMD (the .d files are included by the Makefile), so
# editing one header rebuilds only the objects that include it
$(BUILD)/cu/%.o: %.cu
	@mkdir -p $(dir $@)
	$(NVCC) $(NVFLAGS) -MMD -MP -c $< -o $@

CU_TEST_SRC := $(sort $(wildcard tests/cuda/*.c))
$(BUILD)/test_cuda: $(call f32,$(filter-out src/cuda/%,$(LIB_SRC)) $(TLIB_SRC) $(CU_TEST_SRC)) $(CU_OBJ)
	$(CC) $(CFLAGS) -DPF_WITH_CUDA $^ -o $@ $(filter-out $(CU_LIBS),$(LDLIBS)) $(CU_LIBS)

.PHONY: test-cuda cuda-check
cuda-check: $(CU_OBJ)
	@echo "cuda-check: $(words $(CU_OBJ)) CUDA objects compiled"

test-cuda: $(BUILD)/test_cuda
	$(BUILD)/test_cuda
	@if command -v compute-sanitizer >/dev/null 2>&1; then \
	  compute-sanitizer --tool memcheck --error-exitcode 3 $(BUILD)/test_cuda --quick; \
	else echo "compute-sanitizer not found: memcheck run skipped"; fi

# op-level benchmark of the CUDA backend (bench/cuda_ops_bench.c)
$(BUILD)/bench_cuda_ops: bench/cuda_ops_bench.c $(call f32,src/core/util.c src/core/rng.c src/core/env_names.c) $(CU_OBJ)
	$(CC) $(CFLAGS) -I$(CUDA_HOME)/include $(filter %.c %.o,$^) -o $@ -lm $(CU_LIBS)

# attention forward check and timing on the GPU (bench/attn_fwd_check.cu, docs/ATTENTION_SM90.md):
# the bench with the attention sources only (no cuBLAS), cudart static
ATTN_SRC := $(sort $(wildcard src/cuda/cu_flash*.cu)) src/cuda/cu_launch_watch.cu
$(BUILD)/attn_fwd_check: bench/attn_fwd_check.cu $(ATTN_SRC) $(CU_HDR)
	@mkdir -p $(dir $@)
	$(NVCC) $(NVFLAGS) bench/attn_fwd_check.cu $(ATTN_SRC) -o $@
.PHONY: bench-attn-fwd
bench-attn-fwd: $(BUILD)/attn_fwd_check

# attention backward check and timing on the GPU (bench/attn_bwd_check.cu, docs/ATTENTION_BWD.md):
# the attention sources (ATTN_SRC above) only, cudart static
$(BUILD)/attn_bwd_check: bench/attn_bwd_check.cu $(ATTN_SRC) $(CU_HDR)
	@mkdir -p $(dir $@)
	$(NVCC) $(NVFLAGS) bench/attn_bwd_check.cu $(ATTN_SRC) -o $@
.PHONY: bench-attn-bwd
bench-attn-bwd: $(BUILD)/attn_bwd_check

# TMA tensor maps and swizzled wgmma operands on the GPU (tests/cuda/tma_probe.cu, src/cuda/cu_tma.cuh;
# docs/EMULATOR.md): a standalone program, cudart static, sm_90a code only (TMA and wgmma); it says so on other cards
#   make CUDA=1 MPI=0 BUILD=build/devpack build/devpack/tma_probe && build/devpack/tma_probe
$(BUILD)/tma_probe: CU_ARCH := -gencode arch=compute_90a,code=sm_90a
$(BUILD)/tma_probe: tests/cuda/tma_probe.cu tests/cuda/probe_common.cuh $(CU_HDR)
	@mkdir -p $(dir $@)
	$(NVCC) $(NVFLAGS) tests/cuda/tma_probe.cu -o $@

# thread-block clusters and TMA multicast on the GPU (tests/cuda/cluster_probe.cu, src/cuda/cu_cluster.cuh;
# docs/EMULATOR.md "Thread-block clusters"): standalone as tma_probe, sm_90a code only; it says so on other cards
#   make CUDA=1 MPI=0 BUILD=build/devpack build/devpack/cluster_probe && build/devpack/cluster_probe
$(BUILD)/cluster_probe: CU_ARCH := -gencode arch=compute_90a,code=sm_90a
$(BUILD)/cluster_probe: tests/cuda/cluster_probe.cu tests/cuda/probe_common.cuh $(CU_HDR)
	@mkdir -p $(dir $@)
	$(NVCC) $(NVFLAGS) tests/cuda/cluster_probe.cu -o $@

# the block's memory plan on the CUDA backend's sizes, no GPU needed (bench/mem_plan.cu):
#   make CUDA=1 build/mem_plan && build/mem_plan 2048 6144
$(BUILD)/mem_plan: bench/mem_plan.cu $(call f32,$(filter-out src/cuda/%,$(LIB_SRC))) $(CU_OBJ) $(CU_HDR)
	@mkdir -p $(BUILD)/cu/bench
	$(NVCC) $(NVFLAGS) -c bench/mem_plan.cu -o $(BUILD)/cu/bench/mem_plan.o
	$(CC) $(CFLAGS) $(BUILD)/cu/bench/mem_plan.o $(filter %.o,$^) -o $@ $(filter-out $(CU_LIBS),$(LDLIBS)) $(CU_LIBS)
