#include "txgen/emit/structures.h"

#include <stdexcept>
#include <string>

namespace txgen::emit {

using std::string;
using std::to_string;

namespace {

string bit_of(const string& vec, unsigned i, unsigned width) { return width == 1 ? vec : slice(vec, i, 1); }

}  // namespace

void lowest_one(Module& m, const string& out, const string& vec, unsigned width) {
  m.wire(out, width);
  if (width == 1) return m.assign(out, vec);
  string level = out + "_or0";
  m.wire_assign(level, width, vec);
  unsigned step = 0;
  for (unsigned span = 1; span < width; span *= 2, ++step) {
    const string next = out + "_or" + to_string(step + 1);
    m.wire(next, width);
    for (unsigned i = 0; i < width; ++i)
      m.assign(slice(next, i, 1), i >= span ? slice(level, i, 1) + " | " + slice(level, i - span, 1)
                                            : slice(level, i, 1));
    level = next;
  }
  m.assign(slice(out, 0, 1), slice(vec, 0, 1));
  for (unsigned i = 1; i < width; ++i)
    m.assign(slice(out, i, 1), slice(vec, i, 1) + " & ~" + slice(level, i - 1, 1));
  m.wire_assign("unused_" + out + "_or", 1, slice(level, width - 1, 1));
}

void prefix_add(Module& m, const string& out, const string& a, const string& b, const string& cin,
                unsigned width) {
  if (width < 2) throw std::logic_error("prefix_add of fewer than two bits: " + out);
  // Bit 0 of the generate vector folds in the carry-in, so carry i+1 is the
  // group generate of bits i..0.
  string g = out + "_g0", p = out + "_p0";
  m.wire_assign(out + "_x", width, a + " ^ " + b);
  m.wire(g, width);
  m.wire_assign(p, width, out + "_x");
  for (unsigned i = 0; i < width; ++i) {
    const string ai = bit_of(a, i, width), bi = bit_of(b, i, width);
    const string gen = "(" + ai + " & " + bi + ")";
    m.assign(slice(g, i, 1), i == 0 ? gen + " | ((" + ai + " ^ " + bi + ") & " + cin + ")" : gen);
  }
  unsigned step = 0;
  for (unsigned span = 1; span < width; span *= 2, ++step) {
    const string ng = out + "_g" + to_string(step + 1), np = out + "_p" + to_string(step + 1);
    m.wire(ng, width);
    m.wire(np, width);
    for (unsigned i = 0; i < width; ++i) {
      if (i < span) {
        m.assign(slice(ng, i, 1), slice(g, i, 1));
        m.assign(slice(np, i, 1), slice(p, i, 1));
      } else {
        m.assign(slice(ng, i, 1), slice(g, i, 1) + " | (" + slice(p, i, 1) + " & " + slice(g, i - span, 1) + ")");
        m.assign(slice(np, i, 1), slice(p, i, 1) + " & " + slice(p, i - span, 1));
      }
    }
    g = ng;
    p = np;
  }
  m.wire_assign("unused_" + out + "_p", width, p);
  // carries: c0 = cin, c(i+1) = G[i:0]
  m.wire_assign(out, width + 1,
                concat({bit_of(g, width - 1, width),
                        out + "_x ^ " + concat({slice(g, 0, width - 1), cin})}));
}

}  // namespace txgen::emit
