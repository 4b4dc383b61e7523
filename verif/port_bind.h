// A lock-step harness's port bindings from the module's port declaration
// (txgen/ports/ports.h): the model's In fields onto the Verilated model's
// inputs, and every output compared with the model's Out fields (an OUT_IF
// output only while the model's valid is set). A field is a bool or an
// integer (a scalar of `bits`), a Bits, or a vector of either (element i at
// [(i+1)*bits-1 : i*bits]); nothing is allocated while the outputs agree.
//
//   TXGEN_DRIVE_PORTS(TXGEN_L1TLB_PORTS, dut, p, in);          // dut.rst_ni = in.rst_n, then every input
//   TXGEN_COMPARE_PORTS(TXGEN_L1TLB_PORTS, session, dut, p, want);
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "cosim_util.h"
#include "txgen/ports/ports.h"

namespace txgen::verif {

// ---- the model's field onto an input port

template <typename Port, typename T, std::enable_if_t<std::is_integral_v<T>, int> = 0>
void drive_port(Port& port, T value, unsigned bits) {
  if constexpr (std::is_integral_v<Port>) {
    to_port(port, bits, static_cast<uint64_t>(value));
  } else {
    to_port(port, bits_from_u64(bits, static_cast<uint64_t>(value)));
  }
}

template <typename Port>
void drive_port(Port& port, const Bits& value, unsigned bits) {
  if (value.width != bits) port_width_mismatch(value.width, bits);
  to_port(port, value);
}

template <typename Port, typename T>
void drive_port(Port& port, const std::vector<T>& values, unsigned bits) {
  if constexpr (std::is_same_v<T, Bits>) {
    check_port_width(bits * static_cast<unsigned>(values.size()), port_bits<Port>());
    clear_port(port);
    for (unsigned i = 0; i < values.size(); ++i)
      for (unsigned b = 0; b < bits; b += 32) {
        const unsigned n = std::min(32u, bits - b);
        set_port_field(port, i * bits + b, n, values[i].field(b, n));
      }
  } else {
    fields_to_port(port, static_cast<unsigned>(values.size()), bits,
                   [&](unsigned i) { return static_cast<uint64_t>(values[i]); });
  }
}

// ---- an output port into a field of the model's Out (a replay that reads the RTL)

template <typename Port, typename T, std::enable_if_t<std::is_integral_v<T>, int> = 0>
void read_port(const Port& port, T& value, unsigned bits) {
  check_port_width(bits, port_bits<Port>());
  value = static_cast<T>(port_field(port, 0, bits));
}

template <typename Port>
void read_port(const Port& port, Bits& value, unsigned bits) {
  check_port_width(bits, port_bits<Port>());
  if (value.width != bits) value = Bits(bits);
  for (unsigned b = 0; b < bits; b += 32) {
    const unsigned n = std::min(32u, bits - b);
    value.set_field(b, n, port_field(port, b, n));
  }
}

// Fills `values` (sized by the caller) from the port.
template <typename Port, typename T>
void read_port(const Port& port, std::vector<T>& values, unsigned bits) {
  check_port_width(bits * static_cast<unsigned>(values.size()), port_bits<Port>());
  for (unsigned i = 0; i < values.size(); ++i) {
    if constexpr (std::is_same_v<T, Bits>) {
      if (values[i].width != bits) values[i] = Bits(bits);
      for (unsigned b = 0; b < bits; b += 32) {
        const unsigned n = std::min(32u, bits - b);
        values[i].set_field(b, n, port_field(port, i * bits + b, n));
      }
    } else {
      values[i] = static_cast<T>(port_field(port, i * bits, bits));
    }
  }
}

// Bulk data (a vector of Bits: LDS rows, instruction lines) that a replay
// moving no data may leave alone.
template <typename T>
constexpr bool kBulkField = false;
template <>
inline constexpr bool kBulkField<std::vector<Bits>> = true;

// ---- an output port against the model's field

template <typename Port, typename T, std::enable_if_t<std::is_integral_v<T>, int> = 0>
void compare_port(CosimSession& s, const char* signal, const Port& port, T want, unsigned bits) {
  check_port_width(bits, port_bits<Port>());
  const uint64_t got = port_field(port, 0, bits);
  if (got != static_cast<uint64_t>(want)) {
    if constexpr (std::is_same_v<T, bool>) s.fail(signal, std::to_string(want), std::to_string(got));
    else s.fail(signal, to_hex(bits, static_cast<uint64_t>(want)), to_hex(bits, got));
  }
}

// Whether the `bits`-bit field at `lsb` of the port equals `want`, 32 bits at a time.
template <typename Port>
bool port_equals(const Port& port, unsigned lsb, const Bits& want, unsigned bits) {
  for (unsigned b = 0; b < bits; b += 32) {
    const unsigned n = std::min(32u, bits - b);
    if (port_field(port, lsb + b, n) != want.field(b, n)) return false;
  }
  return true;
}

template <typename Port>
Bits port_slice(const Port& port, unsigned lsb, unsigned bits) {
  Bits b(bits);
  for (unsigned o = 0; o < bits; o += 32) {
    const unsigned n = std::min(32u, bits - o);
    b.set_field(o, n, port_field(port, lsb + o, n));
  }
  return b;
}

template <typename Port>
void compare_port(CosimSession& s, const char* signal, const Port& port, const Bits& want, unsigned bits) {
  check_port_width(bits, port_bits<Port>());
  if (!port_equals(port, 0, want, bits)) s.fail(signal, to_hex(want), to_hex(port_slice(port, 0, bits)));
}

template <typename Port, typename T>
void compare_port(CosimSession& s, const char* signal, const Port& port, const std::vector<T>& want, unsigned bits) {
  const unsigned n = static_cast<unsigned>(want.size());
  check_port_width(n * bits, port_bits<Port>());
  for (unsigned i = 0; i < n; ++i) {
    if constexpr (std::is_same_v<T, Bits>) {
      if (!port_equals(port, i * bits, want[i], bits))
        s.fail(signal, to_hex(want[i]), to_hex(port_slice(port, i * bits, bits)), "element " + std::to_string(i));
    } else if (port_field(port, i * bits, bits) != static_cast<uint64_t>(want[i])) {
      if (bits == 1) {  // a flag vector: all of it, as one value
        std::vector<uint8_t> got(n);
        entries_from_port(port, 1, got);
        s.fail(signal, to_hex(pack_flags(want)), to_hex(pack_flags(got)));
      }
      s.fail(signal, to_hex(bits, static_cast<uint64_t>(want[i])), to_hex(bits, port_field(port, i * bits, bits)),
             "element " + std::to_string(i));
    }
  }
}

}  // namespace txgen::verif

namespace txgen::verif {

// Whether a Verilated model has a port: a port of width 0 does not exist in
// that configuration (txgen/ports/ports.h). `probe` is invocable on the model
// only if the member exists; the bindings below skip a missing port at
// compile time (they expand inside templates on the model's type).
template <class Dut, class Probe>
constexpr bool port_present(const Probe&) {
  return std::is_invocable_v<Probe, const std::remove_reference_t<Dut>&>;
}

}  // namespace txgen::verif

#define TXGEN_PORT_PRESENT(DUT, port) \
  ::txgen::verif::port_present<decltype(DUT)>([](const auto& txgen_x) -> decltype((void)txgen_x.port) {})

#define TXGEN_BIND_DRIVE(port, field, bits, ...) \
  if constexpr (TXGEN_PORT_PRESENT(txgen_d, port)) ::txgen::verif::drive_port(txgen_d.port, txgen_in.field, (bits));
// Drives DUT's rst_ni and every input of LIST from IN (the model's In) for parameters PARAMS.
#define TXGEN_DRIVE_PORTS(LIST, DUT, PARAMS, IN)                 \
  do {                                                           \
    auto& txgen_d = (DUT);                                       \
    [[maybe_unused]] const auto& p = (PARAMS);                   \
    const auto& txgen_in = (IN);                                 \
    txgen_d.rst_ni = txgen_in.rst_n;                             \
    LIST(TXGEN_BIND_DRIVE, TXGEN_PORT_SKIP, TXGEN_PORT_SKIP)     \
  } while (false)

// The same without the bulk-data inputs (kBulkField) unless WITH_BULK.
#define TXGEN_BIND_DRIVE_SOME(port, field, bits, ...)                                                 \
  if constexpr (TXGEN_PORT_PRESENT(txgen_d, port))                                                   \
    if (txgen_bulk || !::txgen::verif::kBulkField<std::decay_t<decltype(txgen_in.field)>>)           \
      ::txgen::verif::drive_port(txgen_d.port, txgen_in.field, (bits));
#define TXGEN_DRIVE_PORTS_SOME(LIST, DUT, PARAMS, IN, WITH_BULK)   \
  do {                                                             \
    auto& txgen_d = (DUT);                                         \
    [[maybe_unused]] const auto& p = (PARAMS);                     \
    const auto& txgen_in = (IN);                                   \
    const bool txgen_bulk = (WITH_BULK);                           \
    txgen_d.rst_ni = txgen_in.rst_n;                               \
    LIST(TXGEN_BIND_DRIVE_SOME, TXGEN_PORT_SKIP, TXGEN_PORT_SKIP)   \
  } while (false)

// Reads every output of LIST on DUT into OUT (the model's Out, its vectors
// sized), the bulk-data outputs only if WITH_BULK.
#define TXGEN_BIND_READ(port, field, bits, ...)                                                        \
  if constexpr (TXGEN_PORT_PRESENT(txgen_d, port))                                                    \
    if (txgen_bulk || !::txgen::verif::kBulkField<std::decay_t<decltype(txgen_out.field)>>)           \
      ::txgen::verif::read_port(txgen_d.port, txgen_out.field, (bits));
#define TXGEN_READ_PORTS(LIST, DUT, PARAMS, OUT, WITH_BULK)        \
  do {                                                             \
    const auto& txgen_d = (DUT);                                   \
    [[maybe_unused]] const auto& p = (PARAMS);                     \
    auto& txgen_out = (OUT);                                       \
    const bool txgen_bulk = (WITH_BULK);                           \
    LIST(TXGEN_PORT_SKIP, TXGEN_BIND_READ, TXGEN_BIND_READ)         \
  } while (false)

#define TXGEN_BIND_WANT(port, field, ...) [[maybe_unused]] const auto& txgen_want_##port = txgen_want.field;
#define TXGEN_BIND_COMPARE(port, field, bits, ...)  \
  if constexpr (TXGEN_PORT_PRESENT(txgen_d, port)) \
    ::txgen::verif::compare_port(txgen_s, #port, txgen_d.port, txgen_want.field, (bits));
#define TXGEN_BIND_COMPARE_IF(port, field, bits, count, valid, ...) \
  if (txgen_want_##valid) TXGEN_BIND_COMPARE(port, field, bits)
// Compares every output of LIST on DUT with WANT (the model's Out) in list
// order, through SESSION (a CosimSession: the first difference fails the run).
#define TXGEN_COMPARE_PORTS(LIST, SESSION, DUT, PARAMS, WANT)             \
  do {                                                                    \
    ::txgen::verif::CosimSession& txgen_s = (SESSION);                    \
    const auto& txgen_d = (DUT);                                          \
    [[maybe_unused]] const auto& p = (PARAMS);                            \
    const auto& txgen_want = (WANT);                                      \
    LIST(TXGEN_PORT_SKIP, TXGEN_BIND_WANT, TXGEN_BIND_WANT)               \
    LIST(TXGEN_PORT_SKIP, TXGEN_BIND_COMPARE, TXGEN_BIND_COMPARE_IF)      \
  } while (false)
