#include "txgen/hdl/lib.h"

#include <algorithm>
#include <cstdint>
#include <string>


namespace txgen::hdl {

using std::to_string;

Value priority(const Cases& cases, const Value& otherwise) {
  Value v = otherwise;
  for (auto c = cases.rbegin(); c != cases.rend(); ++c) v = mux(c->first, c->second, v);
  return v;
}

Value or_of(const std::vector<Value>& terms, const Value& fallback) {
  if (terms.empty()) return fallback;
  Value v = terms[0];
  for (size_t i = 1; i < terms.size(); ++i) v = v | terms[i];
  return v;
}

Value sum_of(const std::vector<Value>& terms) {
  if (terms.empty()) fail("sum of no terms");
  Value v = terms[0];
  for (size_t i = 1; i < terms.size(); ++i) v = v + terms[i];
  return v;
}

Value and_of(const std::vector<Value>& terms, const Value& fallback) {
  if (terms.empty()) return fallback;
  Value v = terms[0];
  for (size_t i = 1; i < terms.size(); ++i) v = v & terms[i];
  return v;
}

Value one_of(unsigned width, const Value& index) { return lit(width, 1) << index; }

Value onehot_select(const Value& onehot, const Value& vec, unsigned count, unsigned width) {
  if (onehot.width() != count || vec.width() != count * width)
    fail("onehot_select of " + to_string(count) + " x " + to_string(width) + " bits from a " +
         to_string(vec.width()) + "-bit vector by a " + to_string(onehot.width()) + "-bit mask");
  std::vector<Value> terms;
  for (unsigned i = 0; i < count; ++i) terms.push_back(gate(onehot.bit(i), vec.field(i, width)));
  return or_of(terms, zero(width));
}

Value onehot_index(const Value& onehot, unsigned width) {
  const unsigned n = onehot.width();
  std::vector<Value> bits;
  for (unsigned b = width; b-- > 0;) {
    std::vector<Value> set;
    for (unsigned i = 0; i < n; ++i)
      if ((i >> b) & 1u) set.push_back(onehot.bit(i));
    bits.push_back(or_of(set, zero(1)));
  }
  return cat(bits);
}

std::vector<Value> bits_of(const Value& v) {
  std::vector<Value> bits;
  for (unsigned i = 0; i < v.width(); ++i) bits.push_back(v.bit(i));
  return bits;
}

std::vector<Value> fields_of(const Value& v, unsigned count, unsigned width) {
  if (v.width() != count * width) fail("fields_of: " + to_string(v.width()) + " bits are not " + to_string(count) +
                                       " x " + to_string(width));
  std::vector<Value> f;
  for (unsigned i = 0; i < count; ++i) f.push_back(v.field(i, width));
  return f;
}

Value cat_lsb_first(const std::vector<Value>& entries) {
  return cat(std::vector<Value>(entries.rbegin(), entries.rend()));
}

Value lowest_one(Scope& s, const std::string& name, const Value& vec) {
  const unsigned width = vec.width();
  Wire out = s.wire(name, width);
  if (width == 1) {
    out.drive(vec);
    return out;
  }
  Value level = s.wire(name + "_or0", vec);
  unsigned step = 0;
  for (unsigned span = 1; span < width; span *= 2, ++step) {
    Wire next = s.wire(name + "_or" + to_string(step + 1), width);
    for (unsigned i = 0; i < width; ++i)
      s.assign(next.bit(i), i >= span ? level.bit(i) | level.bit(i - span) : level.bit(i));
    level = next;
  }
  s.assign(out.bit(0), vec.bit(0));
  for (unsigned i = 1; i < width; ++i) s.assign(out.bit(i), vec.bit(i) & ~level.bit(i - 1));
  s.wire("unused_" + name + "_or", level.bit(width - 1));
  return out;
}

namespace {

Value or_range(const std::vector<Value>& t, size_t lo, size_t hi) {
  if (hi - lo == 1) return t[lo];
  const size_t mid = lo + (hi - lo) / 2;
  return or_range(t, lo, mid) | or_range(t, mid, hi);
}

}  // namespace

Value or_tree(const std::vector<Value>& terms) {
  if (terms.empty()) fail("or_tree of no terms");
  return or_range(terms, 0, terms.size());
}

Value onehot_select_tree(const Value& onehot, const Value& vec, unsigned count, unsigned width) {
  if (vec.width() != count * width)
    fail("onehot_select_tree of " + to_string(count) + " x " + to_string(width) + " bits from a " +
         to_string(vec.width()) + "-bit vector");
  if (count == 1) return vec;
  if (onehot.width() != count) fail("onehot_select_tree by a " + to_string(onehot.width()) + "-bit mask");
  std::vector<Value> terms;
  for (unsigned i = 0; i < count; ++i) terms.push_back(gate(onehot.bit(i), vec.field(i, width)));
  return or_tree(terms);
}

namespace {

struct Lowest {
  Value any, onehot;
};
Lowest lowest_tree(Scope& s, const std::string& name, const Value& v, unsigned lo, unsigned hi) {
  if (hi - lo == 1) return {v.bit(lo), v.bit(lo)};
  const unsigned mid = lo + (hi - lo) / 2;
  const Lowest l = lowest_tree(s, name, v, lo, mid), r = lowest_tree(s, name, v, mid, hi);
  const std::string node = name + "_" + to_string(lo) + "_" + to_string(hi);
  const bool top_half = hi == v.width();  // no lower-half use of its `any`
  return {top_half ? l.any | r.any : s.wire(node + "_any", l.any | r.any),
          s.wire(node, cat({gate(~l.any, r.onehot), l.onehot}))};
}

BelowAll below_all(const Value& x, const Value& v, unsigned lo, unsigned hi) {
  if (hi - lo == 1) return {x.bit(lo) & ~v.bit(lo), v.bit(lo)};
  const unsigned mid = lo + (hi - lo) / 2;
  const BelowAll l = below_all(x, v, lo, mid), r = below_all(x, v, mid, hi);
  return {l.first | (r.first & ~l.any_v), l.any_v | r.any_v};
}

}  // namespace

Value lowest_one_halves(Scope& s, const std::string& name, const Value& vec) {
  return vector_wire(s, name, lowest_tree(s, name, vec, 0, vec.width()).onehot);
}

BelowAll one_hot_below_all(const Value& x, const Value& v) {
  if (x.width() != v.width()) fail("one_hot_below_all of " + to_string(x.width()) + " and " + to_string(v.width()) + " bits");
  return below_all(x, v, 0, v.width());
}

Value or_fields_tree(Scope& s, const std::string& name, const Value& vec, unsigned n, unsigned width) {
  if (n == 0 || (n & (n - 1)) != 0 || vec.width() != n * width)
    fail("or_fields_tree " + name + ": " + to_string(vec.width()) + " bits are not a power of two of " +
         to_string(width) + "-bit fields");
  Value prev = vec;
  for (unsigned level = 1; (n >> level) >= 1; ++level) {
    const std::string cur = name + "_l" + to_string(level);
    const Wire next = s.wire(cur, (n >> level) * width, true);
    s.generate_for("gv_" + cur, n >> level, "g_" + cur, [&](Scope& sc, const Index& g) {
      sc.assign(next.field(g, width), prev.field(2 * g, width) | prev.field(2 * g + 1, width));
    });
    prev = next;
  }
  return s.wire(name, prev);
}

First first_of(Scope& s, const std::string& name, const Value& valid, const Value& data, unsigned index_bits) {
  const unsigned n = valid.width();
  if (data.width() % n != 0) fail("first_of: data is not " + to_string(n) + " fields: " + name);
  const unsigned width = data.width() / n;
  std::vector<First> level;
  for (unsigned i = 0; i < n; ++i) level.push_back({valid.bit(i), Value(), data.field(i, width)});
  // Level d + 1 node k holds entries [k * 2^(d+1), (k + 1) * 2^(d+1)); its index
  // is (right child taken, the child's index), a lone last node takes 0.
  for (unsigned d = 0; level.size() > 1; ++d) {
    std::vector<First> up;
    for (size_t i = 0; i < level.size(); i += 2) {
      const First& l = level[i];
      if (i + 1 == level.size()) {
        up.push_back({l.any, d == 0 ? lit(1, 0) : cat({lit(1, 0), l.index}), l.data});
        continue;
      }
      const First& r = level[i + 1];
      const std::string nm = name + "_" + to_string(d + 1) + "_" + to_string(i / 2);
      Value right = ~l.any;
      Value index = d == 0 ? right : cat({right, mux(l.any, l.index, r.index)});
      up.push_back({s.wire(nm + "_v", l.any | r.any), s.wire(nm + "_x", index), s.wire(nm + "_d", mux(l.any, l.data, r.data))});
    }
    level = up;
  }
  const First& root = level.front();
  if (n > 1 && root.index.width() > index_bits) fail("first_of: index_bits too small: " + name);
  Value index = n == 1 ? lit(index_bits, 0) : zext(root.index, index_bits);
  return {root.any, s.wire(name + "_index", index), s.wire(name + "_data", root.data)};
}

Value vector_wire(Scope& s, const std::string& name, const Value& v) {
  Wire w = s.wire(name, v.width(), true);
  w.drive(v);
  return w;
}

LruAges::LruAges(Module& m, const std::string& prefix, unsigned ways, unsigned sets, unsigned age_bits) {
  const unsigned chunk = std::min(sets, 64u / age_bits);  // sets per register
  const unsigned chunks = (sets + chunk - 1) / chunk;
  for (unsigned w = 0; w < ways; ++w)
    for (unsigned c = 0; c < chunks; ++c) {
      const unsigned n = std::min(chunk, sets - c * chunk);
      uint64_t rv = 0;
      for (unsigned s = 0; s < n; ++s) rv |= uint64_t{ways - 1 - w} << (s * age_bits);
      regs_.push_back(m.reg(prefix + "age_w" + to_string(w) + (chunks > 1 ? "_c" + to_string(c) : ""), n * age_bits, rv));
    }
  all_ = m.wire(prefix + "age", cat(std::vector<Value>(regs_.rbegin(), regs_.rend())));
}

void LruAges::next(const Value& ages) const {
  unsigned off = 0;
  for (const Reg& r : regs_) {
    r.next(ages.slice(off, r.width()));
    off += r.width();
  }
}

// bit i = OR of vec[0..i] (log-depth prefix).
Value prefix_or(Scope& s, const std::string& name, const Value& vec) {
  const unsigned width = vec.width();
  Value level = vec;
  unsigned step = 0;
  for (unsigned span = 1; span < width; span *= 2, ++step) {
    Wire next = s.wire(name + "_p" + to_string(step), width);
    for (unsigned i = 0; i < width; ++i)
      s.assign(next.bit(i), i >= span ? level.bit(i) | level.bit(i - span) : level.bit(i));
    level = next;
  }
  return s.wire(name, level);
}

// Round-robin pick (one-hot) among req starting at the one-hot pointer ptr.
Value round_robin_pick(Scope& s, const std::string& name, const Value& req, const Value& ptr) {
  if (req.width() == 1) return req;
  Value ge = prefix_or(s, name + "_ge", ptr);
  Value masked = s.wire(name + "_masked", req & ge);
  Value hi = hdl::lowest_one(s, name + "_hi", masked);
  Value lo = hdl::lowest_one(s, name + "_lo", req);
  return s.wire(name, mux(any(masked), hi, lo));
}

Value round_robin_bit(const Value& req, const Value& ptr, unsigned k) {
  return req.bit(k) & ~round_robin_ahead(req, ptr, k);
}

Value round_robin_ahead(const Value& req, const Value& ptr, unsigned k) {
  const unsigned n = req.width();
  if (k >= n || ptr.width() != n) fail("round_robin_ahead: bit " + to_string(k) + " of " + to_string(n) + " requests");
  std::vector<Value> ahead;
  for (unsigned i = 0; i < n; ++i) {
    if (i == k) continue;
    std::vector<Value> pointers;  // (k, i] circularly
    for (unsigned p = (k + 1) % n;; p = (p + 1) % n) {
      pointers.push_back(ptr.bit(p));
      if (p == i) break;
    }
    ahead.push_back(req.bit(i) & or_of(pointers, lit(1, 0)));
  }
  return or_of(ahead, lit(1, 0));
}

RoundRobin round_robin_thermo(Scope& s, const std::string& name, const Value& req, const Value& ge) {
  const unsigned n = req.width();
  if (n == 1) return {req, lit(1, 1)};
  Wire grant = s.wire(name, n), below = s.wire(name + "_below", n);
  for (unsigned k = 0; k < n; ++k) {
    std::vector<Value> ahead;  // i is ahead of k (see the header)
    for (unsigned i = 0; i < n; ++i) {
      if (i < k) ahead.push_back(req.bit(i) & (~ge.bit(k) | ge.bit(i)));
      if (i > k) ahead.push_back(req.bit(i) & ge.bit(i) & ~ge.bit(k));
    }
    s.assign(grant.bit(k), req.bit(k) & ~or_of(ahead, lit(1, 0)));
  }
  // the winner is below k: a requester below k at or above the pointer, or,
  // with none at or above it anywhere, any requester below k
  Value hi = s.wire(name + "_hi", req & ge);
  Value any_hi = s.wire(name + "_any_hi", any(hi));
  for (unsigned k = 0; k < n; ++k) {
    std::vector<Value> lower_hi, lower;
    for (unsigned j = 0; j < k; ++j) {
      lower_hi.push_back(hi.bit(j));
      lower.push_back(req.bit(j));
    }
    s.assign(below.bit(k), mux(any_hi, or_of(lower_hi, lit(1, 0)), or_of(lower, lit(1, 0))));
  }
  return {grant, below};
}

Value round_robin_fixed(Scope& s, const std::string& name, const Value& req, unsigned start) {
  const unsigned n = req.width();
  if (start >= n) fail("round_robin_fixed " + name + ": start " + to_string(start) + " of " + to_string(n));
  std::vector<Value> rot;  // rot[k] = req[(start + k) mod n]
  for (unsigned k = 0; k < n; ++k) rot.push_back(req.bit((start + k) % n));
  const Value first = lowest_one(s, name + "_first", cat_lsb_first(rot));
  std::vector<Value> back(n);
  for (unsigned k = 0; k < n; ++k) back[(start + k) % n] = first.bit(k);
  return s.wire(name, cat_lsb_first(back));
}

// The one-hot pointer past the one-hot winner g.
Value rotate_left1(const Value& g) {
  const unsigned n = g.width();
  return n == 1 ? g : cat({g.slice(0, n - 1), g.bit(n - 1)});
}

Value prefix_add(Scope& s, const std::string& name, const Value& a, const Value& b, const Value& cin) {
  const unsigned width = a.width();
  if (width < 2) fail("prefix_add of fewer than two bits: " + name);
  if (b.width() != width || cin.width() != 1) fail("prefix_add operand widths: " + name);
  // Bit 0 of the generate vector folds in the carry-in, so carry i+1 is the
  // group generate of bits i..0.
  Value x = s.wire(name + "_x", a ^ b);
  Wire g0 = s.wire(name + "_g0", width);
  Value p = s.wire(name + "_p0", x);
  for (unsigned i = 0; i < width; ++i) {
    const Value gen = a.bit(i) & b.bit(i);
    s.assign(g0.bit(i), i == 0 ? gen | ((a.bit(i) ^ b.bit(i)) & cin) : gen);
  }
  Value g = g0;
  unsigned step = 0;
  for (unsigned span = 1; span < width; span *= 2, ++step) {
    Wire ng = s.wire(name + "_g" + to_string(step + 1), width);
    Wire np = s.wire(name + "_p" + to_string(step + 1), width);
    for (unsigned i = 0; i < width; ++i) {
      if (i < span) {
        s.assign(ng.bit(i), g.bit(i));
        s.assign(np.bit(i), p.bit(i));
      } else {
        s.assign(ng.bit(i), g.bit(i) | (p.bit(i) & g.bit(i - span)));
        s.assign(np.bit(i), p.bit(i) & p.bit(i - span));
      }
    }
    g = ng;
    p = np;
  }
  s.wire("unused_" + name + "_p", p);
  // carries: c0 = cin, c(i+1) = G[i:0]
  return s.wire(name, cat({g.bit(width - 1), x ^ cat({g.slice(0, width - 1), cin})}));
}

Value sum_tree(Scope& s, const std::string& name, const std::vector<Value>& terms, unsigned width) {
  std::vector<Value> level;
  for (size_t i = 0; i < terms.size(); ++i) level.push_back(s.wire(name + "_t" + to_string(i), terms[i]));
  if (level.empty()) return s.wire(name, zero(width));
  if (level.size() == 1) return s.wire(name, level[0]);
  unsigned n = 0;
  while (level.size() > 2) {  // 3:2 compression of the first three terms
    const std::string c = name + "_c" + to_string(n);
    Value sum = s.wire(name + "_s" + to_string(n), level[0] ^ level[1] ^ level[2]);
    ++n;
    Value full = s.wire(c + "_full", (level[0] & level[1]) | (level[0] & level[2]) | (level[1] & level[2]));
    Value carry = s.wire(c, cat({full.slice(0, width - 1), zero(1)}));
    s.wire("unused_" + c + "_top", full.bit(width - 1));
    level.erase(level.begin(), level.begin() + 3);
    level.push_back(sum);
    level.push_back(carry);
  }
  Value add = prefix_add(s, name + "_add", level[0], level[1], zero(1));
  s.wire("unused_" + name + "_add", add.bit(width));
  return s.wire(name, add.slice(0, width));
}

}  // namespace txgen::hdl
