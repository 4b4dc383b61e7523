// A module's ports from its declaration (txgen/ports/ports.h): a struct of
// typed handles, one per port (a Value per input, a Wire per output), and the
// declaration of every port of the list on an hdl::Module in list order, with
// its meaning as the port's comment.
//
//   TXGEN_PORT_HANDLES(TopPorts, TXGEN_L1TLB_PORTS)   // struct TopPorts { Value req_valid_i; Wire ... };
//   TopPorts io;
//   TXGEN_DECLARE_PORTS(TXGEN_L1TLB_PORTS, m, p, io);  // after m.clock_and_reset()
#pragma once

#include "txgen/hdl/module.h"
#include "txgen/ports/ports.h"

#define TXGEN_PORT_HANDLE_IN(port, ...) ::txgen::hdl::Value port;
#define TXGEN_PORT_HANDLE_OUT(port, ...) ::txgen::hdl::Wire port;
#define TXGEN_PORT_HANDLES(NAME, LIST) \
  struct NAME {                        \
    LIST(TXGEN_PORT_HANDLE_IN, TXGEN_PORT_HANDLE_OUT, TXGEN_PORT_HANDLE_OUT)  \
  };

#define TXGEN_PORT_DECLARE_IN(port, field, bits, count, meaning) \
  if ((bits) * (count) > 0) txgen_io.port = txgen_m.input(#port, (bits) * (count), meaning);
#define TXGEN_PORT_DECLARE_OUT(port, field, bits, count, meaning) \
  if ((bits) * (count) > 0) txgen_io.port = txgen_m.output(#port, (bits) * (count), meaning);
#define TXGEN_PORT_DECLARE_OUT_IF(port, field, bits, count, valid, meaning) \
  TXGEN_PORT_DECLARE_OUT(port, field, bits, count, meaning)
// Declares every port of LIST on MODULE (an hdl::Module) for parameters PARAMS
// (the list's `p`) into HANDLES (a TXGEN_PORT_HANDLES struct).
#define TXGEN_DECLARE_PORTS(LIST, MODULE, PARAMS, HANDLES)                                \
  do {                                                                                    \
    ::txgen::hdl::Module& txgen_m = (MODULE);                                             \
    [[maybe_unused]] const auto& p = (PARAMS);                                            \
    auto& txgen_io = (HANDLES);                                                           \
    LIST(TXGEN_PORT_DECLARE_IN, TXGEN_PORT_DECLARE_OUT, TXGEN_PORT_DECLARE_OUT_IF)        \
  } while (false)
