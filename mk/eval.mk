# mk/eval.mk: structure comparison (src/eval: superposition, lDDT-Ca, TM-score), part of the library.
LIB_SRC += $(sort $(wildcard src/eval/*.c))
# the writer's fuzz harness (fuzz/fuzz_structwrite.c) needs the writer
FUZZ_EXTRA_structwrite := src/format/struct_write.c
