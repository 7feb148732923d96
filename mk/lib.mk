# mk/lib.mk: libpairfold.so, the engine behind the C API of src/api/pairfold.h
# (used by the Python package in python/).
#   make lib    libpairfold.so: the library sources (LIB_SRC) and src/api built
#               position-independent; exports the pairfold_* functions only
#   make lib CUDA=1   the same with the CUDA backend (src/cuda objects, -DPF_WITH_CUDA):
#               its C objects go to their own folder (pic-cuda: make does not track
#               flags), and the library is relinked whenever the flavour changes
API_SRC  := $(sort $(wildcard src/api/*.c))
PF_LIB_FLAVOR := $(if $(filter 1,$(CUDA)),cuda,cpu)
PIC_DIR := $(BUILD)/pic$(if $(filter 1,$(CUDA)),-cuda)
pic = $(patsubst %.c,$(PIC_DIR)/%.o,$(1))
PF_SOVERSION := 0

$(PIC_DIR)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -fPIC -c $< -o $@

# the CUDA objects join the library when built with CUDA=1 (position-independent then)
ifeq ($(CUDA),1)
NVFLAGS += -Xcompiler -fPIC
endif

$(BUILD)/lib.flavor: FORCE
	@mkdir -p $(BUILD); echo '$(PF_LIB_FLAVOR)' | cmp -s - $@ || echo '$(PF_LIB_FLAVOR)' > $@

.PHONY: lib
lib: libpairfold.so
libpairfold.so: $(call pic,$(LIB_SRC) $(API_SRC)) $(LIB_OBJ_EXTRA) mk/libpairfold.map $(BUILD)/lib.flavor
	$(CC) $(CFLAGS) -shared -Wl,-soname,libpairfold.so.$(PF_SOVERSION) -Wl,--version-script=mk/libpairfold.map \
	  $(filter %.o,$^) -o $@ $(LDLIBS)
	@echo "libpairfold.so: $(PF_LIB_FLAVOR) build"

# make install PREFIX=/usr/local [DESTDIR=...]: the binary, the library (with its
# soname link), the header, the man page and the bash completion (both generated
# from the binary's --help by tools/gen_cli_docs.py), plot.py for `pairfold plot` and import_openfold.py for `pairfold import-openfold`.
PREFIX ?= /usr/local
INSTALL_ROOT = $(DESTDIR)$(PREFIX)
.PHONY: install docs-cli
$(BUILD)/pairfold.1: pairfold tools/gen_cli_docs.py
	@mkdir -p $(BUILD)
	python3 tools/gen_cli_docs.py man ./pairfold > $@.tmp && mv $@.tmp $@
$(BUILD)/pairfold.bash: pairfold tools/gen_cli_docs.py
	@mkdir -p $(BUILD)
	python3 tools/gen_cli_docs.py bash ./pairfold > $@.tmp && mv $@.tmp $@
docs-cli: $(BUILD)/pairfold.1 $(BUILD)/pairfold.bash
install: pairfold libpairfold.so docs-cli
	install -d $(INSTALL_ROOT)/bin $(INSTALL_ROOT)/lib $(INSTALL_ROOT)/include $(INSTALL_ROOT)/share/man/man1 \
	  $(INSTALL_ROOT)/share/pairfold $(INSTALL_ROOT)/share/bash-completion/completions
	install -m 755 pairfold $(INSTALL_ROOT)/bin/pairfold
	install -m 755 libpairfold.so $(INSTALL_ROOT)/lib/libpairfold.so.$(PF_SOVERSION)
	ln -sf libpairfold.so.$(PF_SOVERSION) $(INSTALL_ROOT)/lib/libpairfold.so
	install -m 644 src/api/pairfold.h $(INSTALL_ROOT)/include/pairfold.h
	install -m 644 $(BUILD)/pairfold.1 $(INSTALL_ROOT)/share/man/man1/pairfold.1
	install -m 644 $(BUILD)/pairfold.bash $(INSTALL_ROOT)/share/bash-completion/completions/pairfold
	install -m 644 tools/plot.py $(INSTALL_ROOT)/share/pairfold/plot.py
	install -m 644 tools/import_openfold.py $(INSTALL_ROOT)/share/pairfold/import_openfold.py
	@echo "installed pairfold into $(INSTALL_ROOT)"
