// SystemC view of ata_NAME (docs/blocks/ata.md): the golden model as an
// sc_module with the Verilated model's ports (verif/sc/block.h). Per-core and
// per-array fields are flat vectors, element 0 in the low bits.
#pragma once

#include "model/ata.h"
#include "sc/block.h"
#include "txgen/elab/ata.h"

namespace txgen::verif::sc {

struct AtaTraits
    : ModelTraits<elab::AtaParams, model::AtaModel, model::AtaIn, model::AtaOut> {};

#define TXGEN_SC_ATA_PORTS(IN, OUT, OUT_IF)       \
  IN(rst_ni, rst_n, 1)                            \
  IN(req_valid_i, req_valid, 1)                   \
  IN(req_write_i, req_write, 1)                   \
  IN(req_addr_i, req_addr, p.addr_bits)           \
  IN(l2_req_ready_i, l2_req_ready, 1)             \
  IN(l2_resp_valid_i, l2_resp_valid, 1)           \
  OUT(req_ready_o, req_ready, 1)                  \
  OUT(resp_valid_o, resp_valid, 1)                \
  OUT(resp_src_o, resp_src, 2)                    \
  OUT(da_valid_o, da_valid, 1)                    \
  OUT(da_op_o, da_op, 2)                          \
  OUT(da_set_o, da_set, p.set_port_bits)          \
  OUT(da_way_o, da_way, p.way_bits)               \
  OUT(da_sector_o, da_sector, p.sector_port_bits) \
  OUT(da_core_o, da_core, p.core_bits)            \
  OUT(l2_req_valid_o, l2_req_valid, 1)            \
  OUT(l2_req_write_o, l2_req_write, 1)            \
  OUT(l2_req_addr_o, l2_req_addr, p.addr_bits)

TXGEN_SC_BLOCK(AtaSc, AtaTraits, TXGEN_SC_ATA_PORTS)

}  // namespace txgen::verif::sc
