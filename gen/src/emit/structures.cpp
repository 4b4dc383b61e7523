#include "txgen/emit/structures.h"

#include <stdexcept>
#include <string>

namespace txgen::emit {

using std::string;
using std::to_string;

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
    const string ai = bit(a, i, width), bi = bit(b, i, width);
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
                concat({bit(g, width - 1, width),
                        out + "_x ^ " + concat({slice(g, 0, width - 1), cin})}));
}

void sum_tree(Module& m, const string& out, const std::vector<string>& terms, unsigned width) {
  std::vector<string> level;
  for (std::size_t i = 0; i < terms.size(); ++i) {
    const string t = out + "_t" + to_string(i);
    m.wire_assign(t, width, terms[i]);
    level.push_back(t);
  }
  if (level.empty()) return m.wire_assign(out, width, sized(width, 0));
  if (level.size() == 1) return m.wire_assign(out, width, level[0]);
  unsigned n = 0;
  while (level.size() > 2) {  // 3:2 compression of the first three terms
    const string s = out + "_s" + to_string(n), c = out + "_c" + to_string(n);
    ++n;
    m.wire_assign(s, width, level[0] + " ^ " + level[1] + " ^ " + level[2]);
    m.wire_assign(c + "_full", width, "(" + level[0] + " & " + level[1] + ") | (" + level[0] + " & " + level[2] +
                                          ") | (" + level[1] + " & " + level[2] + ")");
    m.wire_assign(c, width, concat({slice(c + "_full", 0, width - 1), "1'b0"}));
    m.wire_assign("unused_" + c + "_top", 1, slice(c + "_full", width - 1, 1));
    level.erase(level.begin(), level.begin() + 3);
    level.push_back(s);
    level.push_back(c);
  }
  prefix_add(m, out + "_add", level[0], level[1], "1'b0", width);
  m.wire_assign(out, width, slice(out + "_add", 0, width));
  m.wire_assign("unused_" + out + "_add", 1, slice(out + "_add", width, 1));
}

}  // namespace txgen::emit
