# mpi.mk: data-parallel training across processes through MPI (mpirun, srun).
# On by default when mpicc is found (setup.sh installs Open MPI); `make MPI=0`
# builds without it (then only single-process runs).
MPICC := $(shell command -v mpicc 2>/dev/null)
MPI ?= $(if $(MPICC),1,0)
ifeq ($(MPI),1)
CFLAGS += -DPF_WITH_MPI $(shell mpicc --showme:compile 2>/dev/null)
LDLIBS += $(shell mpicc --showme:link 2>/dev/null)
endif
