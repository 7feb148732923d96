# mk/eval.mk: structure comparison (src/eval: superposition, lDDT-Ca, TM-score), part of the library.
LIB_SRC += $(sort $(wildcard src/eval/*.c))
