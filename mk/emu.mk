# mk/emu.mk: CUDA kernels on the CPU kernel emulator (src/cuda/emu; docs/EMULATOR.md): the
# kernels' .cu files compiled by the host C++ compiler with -DPF_EMU and the CUDA headers (no nvcc,
# no GPU), each CUDA thread a fiber. Its tests join `make test` where the CUDA headers are found.
#   make test-emu        build and run them alone
EMU_CUDA_INC ?= $(firstword $(wildcard $(CUDA_HOME)/include /usr/local/cuda/include))
EMU_CXX      ?= g++
EMU_CXXFLAGS := -std=c++17 -O1 -g -Wall -Wextra -Wno-unused-parameter -Wno-unused-function -Wno-attributes \
                -Wno-unknown-pragmas -ffp-contract=off -DPF_EMU -I$(EMU_CUDA_INC)
EMU_TESTS    := $(patsubst tests/emu/%.cpp,$(BUILD)/emu/%,$(sort $(wildcard tests/emu/test_emu_*.cpp)))
EMU_HDR      := $(wildcard src/cuda/emu/*.h tests/emu/*.h)

# in `make test` where the CUDA headers, a C++ compiler and an x86-64 host (the fiber switch) are there
ifneq ($(wildcard $(EMU_CUDA_INC)/cuda_bf16.h),)
ifneq ($(shell command -v $(EMU_CXX) 2>/dev/null),)
ifeq ($(shell uname -m),x86_64)
TEST_BINS += $(EMU_TESTS)
endif
endif
endif

$(BUILD)/emu/emu_core.o: src/cuda/emu/emu_core.cpp $(EMU_HDR)
	@mkdir -p $(dir $@)
	$(EMU_CXX) $(EMU_CXXFLAGS) -c $< -o $@
# a test includes the kernels' .cu files: any CUDA source may be among them
$(BUILD)/emu/test_emu_%: tests/emu/test_emu_%.cpp $(BUILD)/emu/emu_core.o $(EMU_HDR) $(CU_SRC) $(CU_HDR)
	@mkdir -p $(dir $@)
	$(EMU_CXX) $(EMU_CXXFLAGS) $< $(BUILD)/emu/emu_core.o -o $@

.PHONY: test-emu
test-emu: $(EMU_TESTS)
	@for t in $(EMU_TESTS); do $$t > $$t.log 2>&1; rc=$$?; echo "$$t: $$(tail -n 1 $$t.log)"; \
	  [ $$rc -eq 0 ] || { grep -E 'FAIL|emu:' $$t.log | head -n 20; exit 1; }; done

# test_cuda on the emulator: the whole CUDA backend's sources rewritten by tools/emu_xform.py (launches,
# extern shared memory, inline PTX) into $(BUILD)/emucu, compiled by the host compiler, linked with
# the emulated runtime and cuBLASLt (src/cuda/emu/emu_runtime.cpp) instead of libcudart / libcublasLt.
#   make CUDA=1 BUILD=build/emucuda emu-test-cuda     then build/emucuda/test_cuda_emu --only GROUP
# (a build directory of its own: the C objects need -DPF_WITH_CUDA, as test_cuda's)
EMU_CU     := $(BUILD)/emucu
EMU_CU_HDR_GEN := $(patsubst src/cuda/%,$(EMU_CU)/%,$(wildcard src/cuda/*.cuh src/cuda/*.h))
EMU_CU_GEN := $(patsubst src/cuda/%.cu,$(EMU_CU)/%.cpp,$(CU_SRC)) $(EMU_CU_HDR_GEN)
EMU_CU_OBJ := $(patsubst src/cuda/%.cu,$(EMU_CU)/%.o,$(CU_SRC))
$(EMU_CU)/%.cpp: src/cuda/%.cu tools/emu_xform.py
	@mkdir -p $(dir $@)
	python3 tools/emu_xform.py $< > $@
$(EMU_CU)/%.cuh: src/cuda/%.cuh tools/emu_xform.py
	@mkdir -p $(dir $@)
	python3 tools/emu_xform.py $< > $@
$(EMU_CU)/%.h: src/cuda/%.h tools/emu_xform.py
	@mkdir -p $(dir $@)
	python3 tools/emu_xform.py $< > $@
# test_emu_attn_bwd includes cu_flash_bwd_wg.cu as tools/emu_xform.py rewrites it (its wgmma and named
# barriers are raw asm, not wrappers emu_ptx.h defines): the rewritten file and headers, -Isrc/cuda for their
# "../backend/..." includes; emu_runtime.o for mode 5's tensor maps (as test_emu_tma below)
$(BUILD)/emu/test_emu_attn_bwd: tests/emu/test_emu_attn_bwd.cpp $(BUILD)/emu/emu_core.o $(BUILD)/emu/emu_runtime.o \
                                $(EMU_HDR) $(EMU_CU)/cu_flash_bwd_wg.cpp $(EMU_CU_HDR_GEN)
	@mkdir -p $(dir $@)
	$(EMU_CXX) $(EMU_CXXFLAGS) -Wno-sign-compare -Wno-missing-field-initializers -Wno-psabi -I$(EMU_CU) -Isrc/cuda $< \
	    $(BUILD)/emu/emu_core.o $(BUILD)/emu/emu_runtime.o -o $@
# test_emu_attn_dbias includes cu_flash_bwd_dbias.cu the same way (cu_mma.cuh's raw mma / ldmatrix asm), with
# emu_runtime.o for k_bwd_dbias_tma's tensor maps
$(BUILD)/emu/test_emu_attn_dbias: tests/emu/test_emu_attn_dbias.cpp $(BUILD)/emu/emu_core.o $(BUILD)/emu/emu_runtime.o \
                                  $(EMU_HDR) $(EMU_CU)/cu_flash_bwd_dbias.cpp $(EMU_CU_HDR_GEN)
	@mkdir -p $(dir $@)
	$(EMU_CXX) $(EMU_CXXFLAGS) -Wno-sign-compare -Wno-missing-field-initializers -Wno-psabi -I$(EMU_CU) -Isrc/cuda $< \
	    $(BUILD)/emu/emu_core.o $(BUILD)/emu/emu_runtime.o -o $@
# test_emu_trimul_gdw: k_tm_gdw's TMA form (the attention's) encodes its maps through the emulated runtime too
$(BUILD)/emu/test_emu_trimul_gdw: tests/emu/test_emu_trimul_gdw.cpp $(BUILD)/emu/emu_core.o $(BUILD)/emu/emu_runtime.o \
                                  $(EMU_HDR) $(CU_SRC) $(CU_HDR)
	@mkdir -p $(dir $@)
	$(EMU_CXX) $(EMU_CXXFLAGS) -Wno-psabi $< $(BUILD)/emu/emu_core.o $(BUILD)/emu/emu_runtime.o -o $@
# test_emu_tma runs tests/cuda/tma_probe.cu's kernels; its tensor maps are encoded through the emulated runtime's
# cudaGetDriverEntryPointByVersion (cu_tma.cuh's host helper, unchanged), so it links emu_runtime.o too.
# (-Wno-psabi: the kernels take a CUtensorMap, 128-byte aligned, by value (__grid_constant__), and g++ notes that
# GCC 4.6 changed how such arguments are passed; no call here crosses compilers)
$(BUILD)/emu/test_emu_tma: tests/emu/test_emu_tma.cpp tests/cuda/tma_probe.cu tests/cuda/probe_common.cuh \
                           $(BUILD)/emu/emu_core.o $(BUILD)/emu/emu_runtime.o $(EMU_HDR) $(CU_HDR)
	@mkdir -p $(dir $@)
	$(EMU_CXX) $(EMU_CXXFLAGS) -Wno-psabi $< $(BUILD)/emu/emu_core.o $(BUILD)/emu/emu_runtime.o -o $@
# test_emu_cluster runs tests/cuda/cluster_probe.cu's kernels (clusters, TMA multicast), its maps encoded as test_emu_tma's
$(BUILD)/emu/test_emu_cluster: tests/emu/test_emu_cluster.cpp tests/cuda/cluster_probe.cu tests/cuda/probe_common.cuh \
                               $(BUILD)/emu/emu_core.o $(BUILD)/emu/emu_runtime.o $(EMU_HDR) $(CU_HDR)
	@mkdir -p $(dir $@)
	$(EMU_CXX) $(EMU_CXXFLAGS) -Wno-psabi $< $(BUILD)/emu/emu_core.o $(BUILD)/emu/emu_runtime.o -o $@
# test_emu_attn_fwd runs k_s9_fwd_tma too (PF_ATTN_FWD_BMMA=3), whose maps are encoded the same way
$(BUILD)/emu/test_emu_attn_fwd: tests/emu/test_emu_attn_fwd.cpp $(BUILD)/emu/emu_core.o $(BUILD)/emu/emu_runtime.o \
                                $(EMU_HDR) $(CU_SRC) $(CU_HDR)
	@mkdir -p $(dir $@)
	$(EMU_CXX) $(EMU_CXXFLAGS) -Wno-psabi $< $(BUILD)/emu/emu_core.o $(BUILD)/emu/emu_runtime.o -o $@
# (-Wno-sign-compare, -Wno-missing-field-initializers: device code that nvcc's -Wall does not see, e.g.
# threadIdx.x against an int; the same source is -Wall -Wextra clean under nvcc)
$(EMU_CU)/%.o: $(EMU_CU)/%.cpp $(EMU_CU_GEN) $(EMU_HDR)
	$(EMU_CXX) $(EMU_CXXFLAGS) -Wno-sign-compare -Wno-missing-field-initializers -Isrc/cuda -c $< -o $@
$(BUILD)/emu/emu_runtime.o: src/cuda/emu/emu_runtime.cpp $(EMU_HDR)
	@mkdir -p $(dir $@)
	$(EMU_CXX) $(EMU_CXXFLAGS) -O2 -c $< -o $@
$(BUILD)/test_cuda_emu: $(call f32,$(filter-out src/cuda/%,$(LIB_SRC)) $(TLIB_SRC) $(CU_TEST_SRC)) $(EMU_CU_OBJ) \
                                $(BUILD)/emu/emu_core.o $(BUILD)/emu/emu_runtime.o
	$(CC) $(CFLAGS) $^ -o $@ $(filter-out $(CU_LIBS),$(LDLIBS)) -lstdc++ -ldl
.PHONY: emu-test-cuda
emu-test-cuda: $(BUILD)/test_cuda_emu
# pairfold itself on the emulated backend (`--device cuda` runs the kernels on the CPU): e.g. one af3
# training step at crop 24 (16 min) for the CUDA backend's own memory count (docs/PARALLEL.md)
$(BUILD)/pairfold_emu: $(call f32,$(filter-out src/cuda/%,$(LIB_SRC)) $(CLI_SRC)) $(EMU_CU_OBJ) \
                                $(BUILD)/emu/emu_core.o $(BUILD)/emu/emu_runtime.o
	$(CC) $(CFLAGS) $^ -o $@ $(filter-out $(CU_LIBS),$(LDLIBS)) -lstdc++ -ldl
.PHONY: emu-pairfold
emu-pairfold: $(BUILD)/pairfold_emu
