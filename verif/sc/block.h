// A block's SystemC view, generated from one port list: the golden model as
// an sc_module with the Verilated `--sc` model's ports (same names, same
// types), so either drops into a SystemC virtual platform, plus signal
// bundles for its inputs and outputs and a comparison of two output bundles.
//
// A block provides traits (types Params, Model, In, Out; Model make(p), In
// idle(model, p), void outputs(model, p, in, out&): the model's outputs for
// the inputs, In/Out vectors sized for the configuration) and a
// port-list macro PORTS(IN, OUT, OUT_IF) whose entries are
//   IN(port, field, bits)             input `port` carries In::field
//   OUT(port, field, bits)            output `port` carries Out::field
//   OUT_IF(port, field, bits, valid)  an output that is defined (and compared)
//                                     only while the 1-bit output `valid` is 1
// where `bits` is an expression in `p` (the Params): the bits of one element
// of a vector field, or of the whole field (scalar, Bits). Then
//   TXGEN_SC_BLOCK(Name, Traits, PORTS)
// defines `template <class Dut> struct Name` with Inputs, Outputs, Model and
// bind(); Dut is the Verilated class, used only for the port types.
// Example: verif/sc/walk_sched.h; use: docs/verification.md, "SystemC".
#pragma once

#include <systemc.h>

#include <functional>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

#include "sc/convert.h"

namespace txgen::verif::sc {

// Models whose outputs(in, out) fill an Out sized by make_outputs().
template <class M, class = void>
struct HasMakeOutputs : std::false_type {};
template <class M>
struct HasMakeOutputs<M, std::void_t<decltype(std::declval<const M&>().make_outputs())>> : std::true_type {};

// Models with outputs(in, out&), which fill a caller-owned Out.
template <class M, class In, class Out, class = void>
struct FillsOutputs : std::false_type {};
template <class M, class In, class Out>
struct FillsOutputs<M, In, Out,
                    std::void_t<decltype(std::declval<const M&>().outputs(std::declval<const In&>(),
                                                                          std::declval<Out&>()))>>
    : std::true_type {};

// The model side of the sc_module: the model, the inputs last read, the
// outputs of the current cycle and those of the cycle that ended at the last
// rising edge (what a clocked observer sampled).
template <class Block>
class ModelCore {
 public:
  using Params = typename Block::Params;
  using Model = typename Block::Model;
  using In = typename Block::In;
  using Out = typename Block::Out;
  // Called after every rising edge: the inputs at the edge, the outputs of
  // the cycle it ended, the model after it (events(), state).
  using EdgeHook = std::function<void(const In&, const Out&, const Model&)>;

  explicit ModelCore(const Params& p) : p_(p), model_(Block::make(p_)), in_(Block::idle(model_, p_)) {
    if constexpr (HasMakeOutputs<Model>::value) out_ = model_.make_outputs();
    settle();
    last_ = out_;
  }

  const Params& params() const { return p_; }
  Model& model() { return model_; }
  In& in() { return in_; }
  const Out& out() const { return out_; }
  const Out& last_cycle_out() const { return last_; }
  void on_edge(EdgeHook hook) { hook_ = std::move(hook); }

  void settle() { Block::outputs(model_, p_, in_, out_); }
  void edge() {
    std::swap(out_, last_);
    model_.posedge(in_);
    if (hook_) hook_(in_, last_, model_);
    settle();
  }

 private:
  Params p_;
  Model model_;
  In in_;
  Out out_, last_;
  EdgeHook hook_;
};

// The traits of a model built from its Params alone, with idle_inputs() and
// outputs(in) or outputs(in, out&); a block derives and replaces what differs.
template <class P, class M, class I, class O>
struct ModelTraits {
  using Params = P;
  using Model = M;
  using In = I;
  using Out = O;
  static Model make(const Params& p) { return Model(p); }
  static In idle(const Model& m, const Params&) { return m.idle_inputs(); }
  static void outputs(const Model& m, const Params&, const In& in, Out& out) {
    if constexpr (FillsOutputs<Model, In, Out>::value) m.outputs(in, out);
    else out = m.outputs(in);
  }
};

// One output that differs between two bundles.
struct Difference {
  std::string signal, expected, actual;
};

template <class V>
Difference difference(const char* signal, const V& expected, const V& actual, unsigned width) {
  return {signal, port_hex(expected, width), port_hex(actual, width)};
}

}  // namespace txgen::verif::sc

// ---------------------------------------------------------------------------
// Expansions of a port-list entry (used by TXGEN_SC_BLOCK only).

#define TXGEN_SC_NONE(...)
#define TXGEN_SC_VALUE(port) ::txgen::verif::sc::PortValue<decltype(Dut::port)>
#define TXGEN_SC_SIGNAL(port, ...) sc_core::sc_signal<TXGEN_SC_VALUE(port)> port{#port};
#define TXGEN_SC_TRACE(port, ...) sc_core::sc_trace(f, port, port.name());
#define TXGEN_SC_PORT_IN(port, ...) sc_core::sc_in<TXGEN_SC_VALUE(port)> port{#port};
#define TXGEN_SC_PORT_OUT(port, ...) sc_core::sc_out<TXGEN_SC_VALUE(port)> port{#port};
#define TXGEN_SC_SENSE(port, ...) sensitive << port;
#define TXGEN_SC_EVENT(port, ...) || port.event()
#define TXGEN_SC_BIND(port, ...) m.port(signals.port);
#define TXGEN_SC_WRITE(port, value, bits)                                      \
  {                                                                            \
    static TXGEN_SC_VALUE(port) v; /* an sc_bv allocates: one per port */      \
    ::txgen::verif::sc::field_to_port(v, value, (bits));                       \
    port.write(v);                                                             \
  }
// Entries of the old three-argument lists IN(port, field, bits) and
// OUT_IF(port, field, bits, valid), which carry rst_ni themselves.
#define TXGEN_SC_OLD_RESET(X)
#define TXGEN_SC_OLD_WRITE_IN(port, field, bits) TXGEN_SC_WRITE(port, in.field, bits)
#define TXGEN_SC_OLD_WRITE_OUT(port, field, bits) TXGEN_SC_WRITE(port, out.field, bits)
#define TXGEN_SC_OLD_WRITE_OUT_IF(port, field, bits, valid) TXGEN_SC_OLD_WRITE_OUT(port, field, bits)
#define TXGEN_SC_OLD_READ_IN(port, field, bits) ::txgen::verif::sc::port_to_field(port.read(), in.field, (bits));
#define TXGEN_SC_OLD_COMPARE(port, field, bits)                                                \
  if (!(port.read() == want.port.read()))                                                      \
    return ::txgen::verif::sc::difference(#port, want.port.read(), port.read(),               \
                                          ::txgen::verif::sc::field_width(sizes.field, (bits)));
#define TXGEN_SC_OLD_COMPARE_IF(port, field, bits, valid) \
  if (want.valid.read()) {                                \
    TXGEN_SC_OLD_COMPARE(port, field, bits)               \
  }
// Entries of a port declaration (txgen/ports/ports.h), IN(port, field, bits,
// count, meaning) and OUT_IF(port, field, bits, count, valid, meaning), with
// rst_ni (In::rst_n) added in front of the inputs.
#define TXGEN_SC_DECL_RESET(X) X(rst_ni, rst_n, 1, 1, "reset")
#define TXGEN_SC_DECL_WRITE_IN(port, field, bits, ...) TXGEN_SC_OLD_WRITE_IN(port, field, bits)
#define TXGEN_SC_DECL_WRITE_OUT(port, field, bits, ...) TXGEN_SC_OLD_WRITE_OUT(port, field, bits)
#define TXGEN_SC_DECL_WRITE_OUT_IF(port, field, bits, ...) TXGEN_SC_OLD_WRITE_OUT(port, field, bits)
#define TXGEN_SC_DECL_READ_IN(port, field, bits, ...) TXGEN_SC_OLD_READ_IN(port, field, bits)
#define TXGEN_SC_DECL_COMPARE(port, field, bits, ...) TXGEN_SC_OLD_COMPARE(port, field, bits)
#define TXGEN_SC_DECL_COMPARE_IF(port, field, bits, count, valid, ...) TXGEN_SC_OLD_COMPARE_IF(port, field, bits, valid)

// The inputs of a shootdown request in a port list: sd_valid_i, sd_all_i,
// sd_vpn_i, sd_vmid_i (the same protocol in every block that has one).
#define TXGEN_SC_SHOOTDOWN_IN(IN)     \
  IN(sd_valid_i, sd_valid, 1)         \
  IN(sd_all_i, sd_all, 1)             \
  IN(sd_vpn_i, sd_vpn, p.vpn_bits)    \
  IN(sd_vmid_i, sd_vmid, p.vmid_bits)

// ---------------------------------------------------------------------------

#define TXGEN_SC_BLOCK_OF(K, NAME, TRAITS, PORTS)                                                              \
  template <class DutT>                                                                                 \
  struct NAME {                                                                                         \
    using Block = TRAITS;                                                                               \
    using Dut = DutT;                                                                                   \
    using Params = typename Block::Params;                                                              \
    using In = typename Block::In;                                                                      \
    using Out = typename Block::Out;                                                                    \
                                                                                                        \
    /* A signal per input port. */                                                                      \
    struct Inputs : sc_core::sc_module {                                                                \
      TXGEN_SC_##K##_RESET(TXGEN_SC_SIGNAL) PORTS(TXGEN_SC_SIGNAL, TXGEN_SC_NONE, TXGEN_SC_NONE)                                              \
      explicit Inputs(sc_core::sc_module_name n) : sc_core::sc_module(n) {}                             \
      void write(const In& in, const Params& p) {                                                       \
        TXGEN_SC_##K##_RESET(TXGEN_SC_##K##_WRITE_IN) PORTS(TXGEN_SC_##K##_WRITE_IN, TXGEN_SC_NONE, TXGEN_SC_NONE)(void) p;                                 \
      }                                                                                                 \
      void trace(sc_core::sc_trace_file* f) const { TXGEN_SC_##K##_RESET(TXGEN_SC_TRACE) PORTS(TXGEN_SC_TRACE, TXGEN_SC_NONE, TXGEN_SC_NONE) } \
    };                                                                                                  \
                                                                                                        \
    /* A signal per output port. */                                                                     \
    struct Outputs : sc_core::sc_module {                                                               \
      PORTS(TXGEN_SC_NONE, TXGEN_SC_SIGNAL, TXGEN_SC_SIGNAL)                                            \
      explicit Outputs(sc_core::sc_module_name n) : sc_core::sc_module(n) {}                            \
      void trace(sc_core::sc_trace_file* f) const { PORTS(TXGEN_SC_NONE, TXGEN_SC_TRACE, TXGEN_SC_TRACE) } \
      /* The first output (in port-list order) that differs from `want`, */                             \
      /* an output under OUT_IF only while want's valid is 1. `sizes`: */                               \
      /* an Out of the configuration's vector sizes, for the widths. */                                 \
      std::optional<::txgen::verif::sc::Difference> first_difference(const Outputs& want, const Out& sizes, \
                                                                     const Params& p) const {          \
        PORTS(TXGEN_SC_NONE, TXGEN_SC_##K##_COMPARE, TXGEN_SC_##K##_COMPARE_IF)(void) p;                            \
        (void)sizes;                                                                                    \
        return std::nullopt;                                                                            \
      }                                                                                                 \
    };                                                                                                  \
                                                                                                        \
    /* The golden model with the Verilated model's ports. */                                            \
    class Model : public sc_core::sc_module {                                                           \
     public:                                                                                            \
      sc_core::sc_in<bool> clk_i{"clk_i"};                                                              \
      TXGEN_SC_##K##_RESET(TXGEN_SC_PORT_IN) PORTS(TXGEN_SC_PORT_IN, TXGEN_SC_PORT_OUT, TXGEN_SC_PORT_OUT)                                     \
                                                                                                        \
      SC_HAS_PROCESS(Model);                                                                            \
      Model(sc_core::sc_module_name n, const Params& p) : sc_core::sc_module(n), core_(p) {             \
        SC_METHOD(update); /* one process: every output has one driver */                               \
        sensitive << clk_i.pos();                                                                       \
        TXGEN_SC_##K##_RESET(TXGEN_SC_SENSE) PORTS(TXGEN_SC_SENSE, TXGEN_SC_NONE, TXGEN_SC_NONE)                                             \
      }                                                                                                 \
      ::txgen::verif::sc::ModelCore<Block>& core() { return core_; }                                    \
                                                                                                        \
     private:                                                                                           \
      /* Inputs that change in the edge's own delta are taken by the edge, */                           \
      /* as the Verilated model takes them. */                                                          \
      void update() {                                                                                   \
        const bool edge = clk_i.posedge();                                                              \
        if (!edge || false TXGEN_SC_##K##_RESET(TXGEN_SC_EVENT) PORTS(TXGEN_SC_EVENT, TXGEN_SC_NONE, TXGEN_SC_NONE)) read_inputs();          \
        if (edge) core_.edge();                                                                         \
        else core_.settle();                                                                            \
        write_outputs();                                                                                \
      }                                                                                                 \
      void read_inputs() {                                                                              \
        const Params& p = core_.params();                                                               \
        In& in = core_.in();                                                                            \
        TXGEN_SC_##K##_RESET(TXGEN_SC_##K##_READ_IN) PORTS(TXGEN_SC_##K##_READ_IN, TXGEN_SC_NONE, TXGEN_SC_NONE)(void) p;                                  \
      }                                                                                                 \
      void write_outputs() {                                                                            \
        const Params& p = core_.params();                                                               \
        const Out& out = core_.out();                                                                    \
        PORTS(TXGEN_SC_NONE, TXGEN_SC_##K##_WRITE_OUT, TXGEN_SC_##K##_WRITE_OUT_IF)(void) p;                           \
      }                                                                                                 \
      ::txgen::verif::sc::ModelCore<Block> core_;                                                       \
    };                                                                                                  \
                                                                                                        \
    /* Binds the clock and every port of M (this Model or the Verilated */                              \
    /* Dut) to a clock and two bundles. */                                                              \
    template <class M>                                                                                  \
    static void bind(M& m, sc_core::sc_signal_in_if<bool>& clk, Inputs& inputs, Outputs& outputs) {     \
      m.clk_i(clk);                                                                                     \
      {                                                                                                 \
        Inputs& signals = inputs;                                                                       \
        TXGEN_SC_##K##_RESET(TXGEN_SC_BIND) PORTS(TXGEN_SC_BIND, TXGEN_SC_NONE, TXGEN_SC_NONE)                                              \
      }                                                                                                 \
      Outputs& signals = outputs;                                                                       \
      PORTS(TXGEN_SC_NONE, TXGEN_SC_BIND, TXGEN_SC_BIND)                                                \
    }                                                                                                   \
  };

// The sc_module NAME of a block from its old-style port list, or from its port
// declaration (TXGEN_SC_BLOCK_DECL: the list of txgen/ports/<block>.h).
#define TXGEN_SC_BLOCK(NAME, TRAITS, PORTS) TXGEN_SC_BLOCK_OF(OLD, NAME, TRAITS, PORTS)
#define TXGEN_SC_BLOCK_DECL(NAME, TRAITS, PORTS) TXGEN_SC_BLOCK_OF(DECL, NAME, TRAITS, PORTS)
