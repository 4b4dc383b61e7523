// Values of the SystemC ports of a Verilated `--sc` model and the fields of
// the golden models' In/Out structs. Verilator maps 1-bit ports to bool,
// 2..32 bits to uint32_t, 33..64 to uint64_t and wider ports to sc_bv<W>.
// A field is a scalar (bool or an integer), a Bits, or a vector of either;
// vector element i sits at bits [(i+1)*bits-1 : i*bits] of its port.
#pragma once

#include <systemc.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "cosim_util.h"

namespace txgen::verif::sc {

// The value type of a port member (sc_in<T>& or sc_out<T>& in a Verilated class).
template <class PortMember>
using PortValue = typename std::remove_reference_t<PortMember>::data_type;

template <class V>
inline constexpr bool kWidePort = !std::is_integral_v<V>;  // sc_bv<W>

// ---------------------------------------------------------------------------
// Port value <-> Bits and uint64_t.

template <class V>
void check_wide_port(const V& v, unsigned width) {
  if (width != static_cast<unsigned>(v.length()))
    throw std::logic_error("SystemC port of " + std::to_string(v.length()) + " bits given " + std::to_string(width) +
                           " bits");
}

template <class V>
void set_port(V& v, const Bits& b) {
  if constexpr (kWidePort<V>) {
    check_wide_port(v, b.width);
    for (std::size_t i = 0; i < b.words.size(); ++i) v.set_word(static_cast<int>(i), b.words[i]);
  } else {
    check_port_width(b.width, std::is_same_v<V, bool> ? 1 : 8 * sizeof(V));
    v = static_cast<V>(b.field(0, b.width));
  }
}

template <class V>
Bits port_bits(const V& v, unsigned width) {
  Bits b(width);
  if constexpr (kWidePort<V>) {
    for (std::size_t i = 0; i < b.words.size(); ++i) b.words[i] = v.get_word(static_cast<int>(i));
  } else {
    b.set_field(0, width, static_cast<uint64_t>(v));
  }
  return b;
}

template <class V>
void set_port_u64(V& v, uint64_t x, unsigned width) {
  if constexpr (kWidePort<V>) {
    set_port(v, bits_from_u64(width, x));
  } else {
    if (width < 64 && (x >> width) != 0)
      throw std::logic_error("value " + to_hex(64, x) + " exceeds its " + std::to_string(width) + "-bit port");
    v = static_cast<V>(x);
  }
}

template <class V>
uint64_t port_u64(const V& v) {
  if constexpr (kWidePort<V>) return port_bits(v, 64).field(0, 64);
  else return static_cast<uint64_t>(v);
}

// ---------------------------------------------------------------------------
// Wide ports, a Bits at a time: whole 32-bit words when the Bits starts on a
// word boundary (the LDS rows and I-cache lines), bit by bit otherwise.

template <class V>
void bits_into_port(V& v, unsigned lsb, const Bits& b) {
  if (lsb % 32 == 0) {
    for (std::size_t k = 0; k < b.words.size(); ++k) v.set_word(static_cast<int>(lsb / 32 + k), b.words[k]);
  } else {
    for (unsigned k = 0; k < b.width; ++k) v.set_bit(static_cast<int>(lsb + k), b.get(k) ? sc_dt::Log_1 : sc_dt::Log_0);
  }
}

template <class V>
void bits_from_port(const V& v, unsigned lsb, Bits& b) {
  if (lsb % 32 == 0) {
    for (std::size_t k = 0; k < b.words.size(); ++k) b.words[k] = v.get_word(static_cast<int>(lsb / 32 + k));
    if (b.width % 32 != 0) b.words.back() &= static_cast<uint32_t>(low_mask(b.width % 32));
  } else {
    for (unsigned k = 0; k < b.width; ++k) b.set(k, v.get_bit(static_cast<int>(lsb + k)) != sc_dt::Log_0);
  }
}

// ---------------------------------------------------------------------------
// Field -> port value. `bits`: bits per element (a scalar or a Bits is one).

template <class V, class F>
void field_to_port(V& v, const F& f, unsigned bits) {
  if constexpr (std::is_arithmetic_v<F>) {
    set_port_u64(v, static_cast<uint64_t>(f), bits);
  } else if constexpr (std::is_same_v<F, Bits>) {
    set_port(v, f);
  } else if constexpr (!kWidePort<V>) {  // a vector in at most 64 bits
    uint64_t x = 0;
    for (unsigned i = 0; i < f.size(); ++i) x |= static_cast<uint64_t>(f[i]) << (i * bits);
    set_port_u64(v, x, static_cast<unsigned>(f.size()) * bits);
  } else {
    check_wide_port(v, static_cast<unsigned>(f.size()) * bits);
    for (unsigned i = 0; i < f.size(); ++i) {
      if constexpr (std::is_same_v<typename F::value_type, Bits>) bits_into_port(v, i * bits, f[i]);
      else bits_into_port(v, i * bits, bits_from_u64(bits, static_cast<uint64_t>(f[i])));
    }
  }
}

// ---------------------------------------------------------------------------
// Port value -> field (vectors keep their size, Bits take `bits` bits).

template <class V, class F>
void port_to_field(const V& v, F& f, unsigned bits) {
  if constexpr (std::is_arithmetic_v<F>) {
    f = static_cast<F>(port_u64(v));
  } else if constexpr (std::is_same_v<F, Bits>) {
    if (f.width != bits) f = Bits(bits);
    if constexpr (kWidePort<V>) bits_from_port(v, 0, f);
    else f.set_field(0, bits, static_cast<uint64_t>(v));
  } else if constexpr (!kWidePort<V>) {
    const uint64_t x = port_u64(v);
    using T = typename F::value_type;
    for (unsigned i = 0; i < f.size(); ++i) f[i] = static_cast<T>((x >> (i * bits)) & low_mask(bits));
  } else if constexpr (std::is_same_v<typename F::value_type, Bits>) {
    check_wide_port(v, static_cast<unsigned>(f.size()) * bits);
    for (unsigned i = 0; i < f.size(); ++i) {
      if (f[i].width != bits) f[i] = Bits(bits);
      bits_from_port(v, i * bits, f[i]);
    }
  } else {
    const Bits all = port_bits(v, static_cast<unsigned>(f.size()) * bits);
    for (unsigned i = 0; i < f.size(); ++i) f[i] = static_cast<typename F::value_type>(all.field(i * bits, bits));
  }
}

// The width of a field's port: elements x bits.
template <class F>
unsigned field_width(const F& f, unsigned bits) {
  if constexpr (std::is_arithmetic_v<F> || std::is_same_v<F, Bits>) return bits;
  else return static_cast<unsigned>(f.size()) * bits;
}

template <class V>
std::string port_hex(const V& v, unsigned width) {
  return to_hex(port_bits(v, width));
}

}  // namespace txgen::verif::sc
