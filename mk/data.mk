# mk/data.mk: the real-data pipeline (src/data), included by the Makefile.
#   make test-asan   the data tests (parsers, cache, sampler) built with clang
#                    under AddressSanitizer + UndefinedBehaviorSanitizer
#   make fuzz        one libFuzzer harness per reader: $(BUILD)/fuzz/fuzz_*
#   make fuzz-run    each harness for FUZZ_SECONDS (default 20) from a seed
#                    corpus of ../shared/data files (copied to $(BUILD)/fuzz/corpus_*)
#                    (CI: make fuzz-run FUZZ_SECONDS=3)
SAN_CC     ?= clang
SAN_FLAGS  := -std=c11 -D_GNU_SOURCE -g -O1 -fno-omit-frame-pointer -Wall -Wextra -Wno-unused-parameter \
              -fsanitize=address,undefined -fno-sanitize-recover=all
DATA_SRC   := $(sort $(wildcard src/data/*.c)) src/core/util.c src/core/rng.c src/backend/residue_geometry.c
DATA_HDR   := $(wildcard src/data/*.h) src/core/util.h src/core/rng.h src/core/real.h src/backend/residue_geometry.h
DATA_TESTS := $(patsubst tests/%.c,%,$(sort $(wildcard tests/test_data*.c)))
SAN_ENV    := ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:detect_stack_use_after_return=1 \
              UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

# Each source is compiled once per flavour (asan: the tests; fuzz: with libFuzzer's coverage
# hooks) and linked into every program that needs it: compiling the sources per program took
# 13 x the compile in CI (7 min of fuzz-run's build on 2 cores).
SAN_DEPS   := -MMD -MP
asan_obj    = $(patsubst %.c,$(BUILD)/asan/obj/%.o,$(1))
fuzz_obj    = $(patsubst %.c,$(BUILD)/fuzz/obj/%.o,$(1))
$(BUILD)/asan/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(SAN_CC) $(SAN_FLAGS) $(SAN_DEPS) -c $< -o $@
$(BUILD)/fuzz/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(SAN_CC) $(SAN_FLAGS) -fsanitize=fuzzer-no-link $(SAN_DEPS) -c $< -o $@
-include $(wildcard $(BUILD)/asan/obj/*/*.d $(BUILD)/asan/obj/*/*/*.d $(BUILD)/fuzz/obj/*/*.d $(BUILD)/fuzz/obj/*/*/*.d)

$(BUILD)/asan/test_data%: $(call asan_obj,tests/test_data%.c $(DATA_SRC) tests/testlib.c)
	@mkdir -p $(dir $@)
	$(SAN_CC) $(SAN_FLAGS) $^ -o $@ -lcjson -lz -lm -lpthread

.PHONY: test-asan fuzz fuzz-run
test-asan: $(addprefix $(BUILD)/asan/,$(DATA_TESTS))
	@set -e; for t in $^; do echo "== $$t (ASan+UBSan)"; rc=0; $(SAN_ENV) $$t > $$t.log 2>&1 || rc=$$?; \
	  grep -E "FAIL|ERROR|runtime error" $$t.log | head -n 20 || true; tail -n 1 $$t.log; \
	  if [ $$rc -ne 0 ]; then echo "$$t: exit status $$rc (log: $$t.log)"; exit 1; fi; done

FUZZERS    := $(patsubst fuzz/%.c,$(BUILD)/fuzz/%,$(sort $(wildcard fuzz/fuzz_*.c)))
FUZZ_SECONDS ?= 20
# harnesses of readers outside src/data: their extra sources
FUZZ_EXTRA_safetensors := src/format/safetensors.c
FUZZ_EXTRA_config      := src/model/config.c src/backend/device.c
FUZZ_EXTRA_hello       := src/train/tcp_group.c
.SECONDEXPANSION:
$(BUILD)/fuzz/fuzz_%: $$(call fuzz_obj,fuzz/fuzz_%.c $(DATA_SRC) $$(FUZZ_EXTRA_$$*))
	@mkdir -p $(dir $@)
	$(SAN_CC) $(SAN_FLAGS) -fsanitize=fuzzer $^ -o $@ -lcjson -lz -lm -lpthread

fuzz: $(FUZZERS)
	@echo "fuzz: $(words $(FUZZERS)) harnesses in $(BUILD)/fuzz (run: make fuzz-run FUZZ_SECONDS=60)"

fuzz-run: $(FUZZERS)
	@set -e; for f in $(FUZZERS); do n=$$(basename $$f); c=$(BUILD)/fuzz/corpus_$${n#fuzz_}; mkdir -p $$c; \
	  bash fuzz/seed_corpus.sh $${n#fuzz_} $$c; echo "== $$n ($(FUZZ_SECONDS) s)"; \
	  rc=0; $(SAN_ENV) $$f -max_total_time=$(FUZZ_SECONDS) -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
	    -artifact_prefix=$(BUILD)/fuzz/crash_$${n#fuzz_}_ $$c > $(BUILD)/fuzz/$$n.log 2>&1 || rc=$$?; \
	  tail -n 2 $(BUILD)/fuzz/$$n.log; if [ $$rc -ne 0 ]; then echo "$$n: exit status $$rc"; exit 1; fi; done
