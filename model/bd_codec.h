// Golden reference model of the base-delta tag codec (docs/blocks/bd_codec.md).
// Written from the block document alone; shares only the elaborated widths
// (txgen/elab/bd_codec.h) with the generator, never its emission code.
#pragma once

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "txgen/elab/bd_codec.h"

namespace txgen::model {

// The words of a Bits value: up to kInline words (512 bits) in place, so the
// codec words, tag vectors, I-cache lines and ports that are converted every
// cycle of a co-simulation cost no allocation; wider values (LDS rows) on the
// heap, their buffer reused when a value of the same size is copied in.
class BitWords {
 public:
  using value_type = uint32_t;
  using iterator = uint32_t*;
  using const_iterator = const uint32_t*;
  static constexpr std::size_t kInline = 16;

  BitWords() = default;
  BitWords(std::size_t n, uint32_t value) {
    resize_uninitialised(n);
    std::fill(begin(), end(), value);
  }
  BitWords(const BitWords& o) { *this = o; }
  BitWords(BitWords&& o) noexcept { steal(o); }
  BitWords& operator=(const BitWords& o) {
    if (this != &o) assign(o.begin(), o.size());
    return *this;
  }
  BitWords& operator=(BitWords&& o) noexcept {
    if (this == &o) return *this;
    release();
    steal(o);
    return *this;
  }
  BitWords& operator=(const std::vector<uint32_t>& v) {
    assign(v.data(), v.size());
    return *this;
  }
  void assign_zero(std::size_t n) {  // n words, all zero, the storage kept when n is unchanged
    if (n != size_) {
      release();
      resize_uninitialised(n);
    }
    std::fill(begin(), end(), 0u);
  }
  ~BitWords() { release(); }

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  uint32_t* data() { return size_ <= kInline ? small_ : heap_; }
  const uint32_t* data() const { return size_ <= kInline ? small_ : heap_; }
  uint32_t* begin() { return data(); }
  uint32_t* end() { return data() + size_; }
  const uint32_t* begin() const { return data(); }
  const uint32_t* end() const { return data() + size_; }
  uint32_t& operator[](std::size_t i) { return data()[i]; }
  uint32_t operator[](std::size_t i) const { return data()[i]; }
  uint32_t& back() { return data()[size_ - 1]; }
  uint32_t back() const { return data()[size_ - 1]; }
  bool operator==(const BitWords& o) const { return size_ == o.size_ && std::equal(begin(), end(), o.begin()); }
  bool operator!=(const BitWords& o) const { return !(*this == o); }
  bool operator==(const std::vector<uint32_t>& v) const {
    return size_ == v.size() && std::equal(begin(), end(), v.begin());
  }

 private:
  void assign(const uint32_t* src, std::size_t n) {
    if (n != size_) {
      release();
      resize_uninitialised(n);
    }
    std::copy(src, src + n, begin());
  }
  void resize_uninitialised(std::size_t n) {  // from the empty state
    size_ = n;
    if (n > kInline) heap_ = new uint32_t[n];
  }
  void release() {
    if (size_ > kInline) delete[] heap_;
    size_ = 0;
  }
  void steal(BitWords& o) {
    size_ = o.size_;
    if (size_ > kInline) {
      heap_ = o.heap_;
    } else {
      std::copy(o.small_, o.small_ + size_, small_);
    }
    o.size_ = 0;
  }

  std::size_t size_ = 0;
  union {  // only the first size_ words of small_ are ever read
    uint32_t small_[kInline];
    uint32_t* heap_;
  };
};

// A bit vector of a fixed width, stored as 32-bit words, least significant
// word first (the layout of Verilator's wide signals). Accessors are inline:
// the co-simulation harnesses convert every port through them every cycle.
struct Bits {
  unsigned width = 0;
  BitWords words;

  explicit Bits(unsigned w = 0) : width(w), words((w + 31) / 32, 0u) {}
  // As *this = Bits(w), without an allocation when the word count is unchanged.
  void assign_zero(unsigned w) {
    width = w;
    words.assign_zero((w + 31) / 32);
  }
  bool get(unsigned bit) const {
    if (bit >= width) throw std::out_of_range("Bits::get beyond width");
    return (words[bit / 32] >> (bit % 32)) & 1u;
  }
  void set(unsigned bit, bool value) {
    if (bit >= width) throw std::out_of_range("Bits::set beyond width");
    const uint32_t mask = 1u << (bit % 32);
    words[bit / 32] = value ? words[bit / 32] | mask : words[bit / 32] & ~mask;
  }
  uint64_t field(unsigned lsb, unsigned bits) const {  // bits <= 64
    if (bits > 64) throw std::out_of_range("Bits::field wider than 64");
    if (bits == 0) return 0;
    if (lsb + bits > width) throw std::out_of_range("Bits::get beyond width");
    // At most three words hold the field; read the ones it reaches.
    const unsigned w = lsb / 32, offset = lsb % 32;
    uint64_t value = words[w] >> offset;
    unsigned got = 32 - offset;
    for (unsigned next = w + 1; got < bits; ++next, got += 32) value |= uint64_t{words[next]} << got;
    return bits == 64 ? value : value & ((uint64_t{1} << bits) - 1);
  }
  void set_field(unsigned lsb, unsigned bits, uint64_t value) {  // bits <= 64
    if (bits > 64) throw std::out_of_range("Bits::set_field wider than 64");
    if (bits > 0 && lsb + bits > width) throw std::out_of_range("Bits::set beyond width");
    unsigned w = lsb / 32, offset = lsb % 32;
    for (unsigned put = 0; put < bits; offset = 0, ++w) {
      const unsigned take = std::min(32 - offset, bits - put);
      const uint32_t mask = static_cast<uint32_t>(((uint64_t{1} << take) - 1) << offset);
      words[w] = (words[w] & ~mask) | (static_cast<uint32_t>((value >> put) << offset) & mask);
      put += take;
    }
  }
  bool operator==(const Bits& o) const { return width == o.width && words == o.words; }
  bool operator!=(const Bits& o) const { return !(*this == o); }
};

struct BdTag {
  bool valid = false;
  uint32_t lru = 0;
  uint32_t vmid = 0;
  uint32_t vrf = 0;
  uint64_t va = 0;
  bool operator==(const BdTag& o) const {
    return valid == o.valid && lru == o.lru && vmid == o.vmid && vrf == o.vrf && va == o.va;
  }
};

struct BdCompressed {
  Bits packed;
  bool fits = true;
  uint32_t dropped = 0;  // bit i: valid entry i did not fit and was left out
};

// Untimed functions: the compression and decompression rules.
class BdCodecModel {
 public:
  explicit BdCodecModel(const elab::BdCodecParams& p);
  BdCompressed compress(const std::vector<BdTag>& tags) const;  // tags.size() == N
  std::vector<BdTag> decompress(const Bits& packed) const;      // packed.width == W
  void decompress(const Bits& packed, std::vector<BdTag>& tags) const;  // into tags, sized N
  const elab::BdCodecParams& params() const { return p_; }

 private:
  elab::BdCodecParams p_;
};

// Cycle models of the valid/ready stages (bd_codec_NAME_comp / _decomp).
// Per cycle the harness calls outputs(in) with the inputs held before the rising
// edge (asynchronous reset applies when in.rst_n is false), compares, then
// calls posedge(in) for the edge.
struct BdCompIn {
  bool rst_n = true;
  bool in_valid = false;
  std::vector<BdTag> tags;  // N entries
  bool out_ready = false;
};
struct BdCompOut {
  bool in_ready = false;
  bool out_valid = false;
  BdCompressed result;
};

class BdCompStage {
 public:
  explicit BdCompStage(const elab::BdCodecParams& p);
  BdCompOut outputs(const BdCompIn& in);
  void outputs(const BdCompIn& in, BdCompOut& out);  // into out's storage
  void posedge(const BdCompIn& in);

 private:
  BdCodecModel codec_;
  bool out_valid_q_ = false;
  BdCompressed data_q_;
};

struct BdDecompIn {
  bool rst_n = true;
  bool in_valid = false;
  Bits packed;  // width W
  bool out_ready = false;
};
struct BdDecompOut {
  bool in_ready = false;
  bool out_valid = false;
  std::vector<BdTag> tags;  // N entries
};

class BdDecompStage {
 public:
  explicit BdDecompStage(const elab::BdCodecParams& p);
  BdDecompOut outputs(const BdDecompIn& in);
  void outputs(const BdDecompIn& in, BdDecompOut& out);  // no allocation once out.tags is sized
  void posedge(const BdDecompIn& in);

 private:
  void reset();
  BdCodecModel codec_;
  bool out_valid_q_ = false;
  std::vector<BdTag> data_q_;
};

}  // namespace txgen::model
