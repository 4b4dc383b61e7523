// The FST library Verilator ships (include/gtkwave), compiled here as its own
// runtime compiles it: as C++, with its configuration header.
#define FST_CONFIG_INCLUDE "fst_config.h"
#include "fastlz.c"
#include "fstapi.c"
#include "lz4.c"
