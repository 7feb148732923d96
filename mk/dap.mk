# dap.mk: axial parallelism tests. test_unit_dap (float32) is built by the
# Makefile's test_unit_% rule; this adds its float64 twin.
TEST_BINS += $(BUILD)/test_dap64
$(BUILD)/test_dap64: $(call f64,$(LIB_SRC) $(TLIB_SRC) tests/test_unit_dap.c)
	$(CC) $(CFLAGS) $^ -o $@ $(LDLIBS)
