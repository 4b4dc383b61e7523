// Ports of ata_NAME (docs/blocks/ata.md, "Ports"): per core (cores), fields of
// model::AtaIn / AtaOut.
#pragma once

#include "txgen/elab/ata.h"
#include "txgen/ports/ports.h"

#define TXGEN_ATA_PORTS(IN, OUT, OUT_IF)                                                                      \
  IN(req_valid_i, req_valid, 1, p.cores, "per core: an L1 request")                                          \
  IN(req_write_i, req_write, 1, p.cores, "per core: the request is a write")                                 \
  IN(req_addr_i, req_addr, p.addr_bits, p.cores, "per core: the request's byte address")                     \
  IN(l2_req_ready_i, l2_req_ready, 1, p.cores, "per core: the L2 takes core i's request")                    \
  IN(l2_resp_valid_i, l2_resp_valid, 1, p.cores, "per core: the read data of core i's L2 request is there")  \
  OUT(da_valid_o, da_valid, 1, p.cores, "per data array: a command (registered pulse)")                      \
  OUT(da_op_o, da_op, 2, p.cores, "per data array: the command (docs/blocks/ata.md, Data arrays)")           \
  OUT(da_set_o, da_set, p.set_port_bits, p.cores, "per data array: the command's set")                       \
  OUT(da_way_o, da_way, p.way_bits, p.cores, "per data array: the command's way")                            \
  OUT(da_sector_o, da_sector, p.sector_port_bits, p.cores, "per data array: the command's sector")           \
  OUT(da_core_o, da_core, p.core_bits, p.cores, "per data array: the core the data goes to")                 \
  OUT(resp_valid_o, resp_valid, 1, p.cores, "per core: the request is answered (registered pulse)")          \
  OUT(resp_src_o, resp_src, 2, p.cores, "per core: where the answer came from (0 local, 1 remote, 2 L2)")    \
  OUT(req_ready_o, req_ready, 1, p.cores, "per core: the request is taken")                                  \
  OUT(l2_req_valid_o, l2_req_valid, 1, p.cores, "per core: a request to the L2")                             \
  OUT(l2_req_write_o, l2_req_write, 1, p.cores, "per core: the L2 request is a write")                       \
  OUT(l2_req_addr_o, l2_req_addr, p.addr_bits, p.cores, "per core: the L2 request's byte address")

namespace txgen::ports {
TXGEN_PORT_LIST_FUNCTION(ata_ports, elab::AtaParams, TXGEN_ATA_PORTS)
}  // namespace txgen::ports
