# dap.mk: axial parallelism tests. test_unit_dap (float32) is built by the
# Makefile's test_unit_% rule; this adds its float64 twin.
TEST_BINS += $(BUILD)/test_dap64
$(BUILD)/test_dap64: $(call f64,$(LIB_SRC) $(TLIB_SRC) tests/test_unit_dap.c)
	$(CC) $(CFLAGS) $^ -o $@ $(LDLIBS)

# bench/dap_bench.c: one Pairformer block sharded over the ranks of an mpirun
# (dap = world size) or unsharded, timing, peak memory, and --check against one GPU.
# Built with the library (CUDA=1 for the GPU; MPI from mk/mpi.mk).
$(BUILD)/dap_bench: $(call f32,$(LIB_SRC) bench/dap_bench.c) $(LIB_OBJ_EXTRA)
	$(CC) $(CFLAGS) $^ -o $@ $(LDLIBS)
