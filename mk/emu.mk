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

ifneq ($(wildcard $(EMU_CUDA_INC)/cuda_bf16.h),)
TEST_BINS += $(EMU_TESTS)
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
