// version.h: pairfold's version, one place for the command and the library (src/api).
#ifndef PF_VERSION_H
#define PF_VERSION_H
#define PF_VERSION "0.1.0"
#endif
