# mk/lib.mk: libpairfold.so, the engine behind the C API of src/api/pairfold.h
# (used by the Python package in python/).
#   make lib    libpairfold.so: the library sources (LIB_SRC) and src/api built
#               position-independent; exports the pairfold_* functions only
API_SRC  := $(sort $(wildcard src/api/*.c))
pic = $(patsubst %.c,$(BUILD)/pic/%.o,$(1))
PF_SOVERSION := 0

$(BUILD)/pic/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -fPIC -c $< -o $@

# the CUDA objects join the library when built with CUDA=1 (position-independent then)
ifeq ($(CUDA),1)
NVFLAGS += -Xcompiler -fPIC
endif

.PHONY: lib
lib: libpairfold.so
libpairfold.so: $(call pic,$(LIB_SRC) $(API_SRC)) $(LIB_OBJ_EXTRA) mk/libpairfold.map
	$(CC) $(CFLAGS) -shared -Wl,-soname,libpairfold.so.$(PF_SOVERSION) -Wl,--version-script=mk/libpairfold.map \
	  $(filter %.o,$^) -o $@ $(LDLIBS)
