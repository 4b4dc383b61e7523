// The trace text format (trace.h; docs/verification.md, "Evaluation traces"):
// a strict line reader and a deterministic writer whose output reads back to
// an equal trace.
#include "txgen/trace/trace.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <istream>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <unordered_map>
#include <utility>

#include <zlib.h>

namespace txgen::trace {

uint64_t Trace::requests() const {
  uint64_t n = 0;
  for (const Kernel& k : kernels)
    for (const auto& stream : k.per_cu) n += stream.size();
  return n;
}

uint64_t Trace::instructions() const {
  uint64_t n = 0;
  for (const Kernel& k : kernels)
    for (unsigned cu = 0; cu < k.per_cu.size(); ++cu)
      n += k.has_instructions(cu) ? k.instructions[cu].size() : k.per_cu[cu].size();
  return n;
}

namespace {

template <class Field>
uint64_t largest_of(const Trace& t, Field field) {
  uint64_t m = 0;
  for (const Kernel& k : t.kernels)
    for (const auto& stream : k.per_cu)
      for (const Request& r : stream) m = std::max<uint64_t>(m, field(r));
  return m;
}

}  // namespace

uint64_t largest_vpn(const Trace& t) {
  return largest_of(t, [](const Request& r) { return r.vpn; });
}
uint64_t largest_vmid(const Trace& t) {
  return largest_of(t, [](const Request& r) { return r.vmid; });
}

void validate(const Trace& t) {
  for (const Kernel& k : t.kernels) {
    const std::string where = "trace kernel " + std::to_string(k.id);
    if (k.per_cu.size() > t.cus || k.instructions.size() > t.cus)
      throw std::invalid_argument(where + " has streams for more CUs than cus " + std::to_string(t.cus));
    if (k.wavefronts == 0) throw std::invalid_argument(where + ": wavefronts must be at least 1");
    for (unsigned cu = 0; cu < k.instructions.size(); ++cu) {
      if (!k.has_instructions(cu)) continue;
      uint64_t pages = 0;
      for (const Instruction& i : k.instructions[cu]) {
        if (i.pages == 0)
          throw std::invalid_argument(where + " CU " + std::to_string(cu) + ": an instruction without pages");
        pages += i.pages;
      }
      const uint64_t requests = cu < k.per_cu.size() ? k.per_cu[cu].size() : 0;
      if (pages != requests)
        throw std::invalid_argument(where + " CU " + std::to_string(cu) + ": instructions cover " +
                                    std::to_string(pages) + " pages, the stream has " + std::to_string(requests));
    }
  }
}

// Pages are distinct per address space: (vmid, vpn) pairs.
uint64_t Trace::distinct_pages() const {
  std::vector<std::pair<uint32_t, uint64_t>> pages;
  pages.reserve(requests());
  for (const Kernel& k : kernels)
    for (const auto& stream : k.per_cu)
      for (const Request& r : stream) pages.emplace_back(r.vmid, r.vpn);
  std::sort(pages.begin(), pages.end());
  return static_cast<uint64_t>(std::unique(pages.begin(), pages.end()) - pages.begin());
}

namespace {

constexpr unsigned kMaxCus = 4096;  // bounds the allocation a malformed "cus" line can ask for
constexpr unsigned kMaxWavefronts = 65536;

[[noreturn]] void fail(unsigned line, const std::string& reason) {
  throw std::runtime_error("line " + std::to_string(line) + ": " + reason);
}

std::vector<std::string> split_words(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> words;
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

std::string strip_comment(const std::string& line) {
  const size_t hash = line.find('#');
  return hash == std::string::npos ? line : line.substr(0, hash);
}

// Strict unsigned parse: digits only (no sign, no spaces), no overflow.
bool parse_unsigned(const std::string& text, unsigned base, uint64_t& value) {
  if (text.empty() || text.size() > 20) return false;
  uint64_t v = 0;
  for (char ch : text) {
    unsigned digit = 0;
    if (ch >= '0' && ch <= '9') digit = static_cast<unsigned>(ch - '0');
    else if (base == 16 && ch >= 'a' && ch <= 'f') digit = static_cast<unsigned>(ch - 'a' + 10);
    else if (base == 16 && ch >= 'A' && ch <= 'F') digit = static_cast<unsigned>(ch - 'A' + 10);
    else return false;
    if (v > (UINT64_MAX - digit) / base) return false;
    v = v * base + digit;
  }
  value = v;
  return true;
}

uint64_t decimal(unsigned line, const std::string& what, const std::string& text, uint64_t max) {
  uint64_t v = 0;
  if (!parse_unsigned(text, 10, v)) fail(line, "bad " + what + " '" + text + "': expected a decimal number");
  if (v > max) fail(line, what + " " + text + " is larger than " + std::to_string(max));
  return v;
}

uint64_t hex_vpn(unsigned line, const std::string& text) {
  std::string digits = text;
  if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) digits = digits.substr(2);
  uint64_t v = 0;
  if (digits.size() > 16 || !parse_unsigned(digits, 16, v))
    fail(line, "bad VPN '" + text + "': expected at most 16 hex digits");
  return v;
}

class Reader {
 public:
  void line(unsigned number, const std::string& raw) {
    number_ = number;
    const std::vector<std::string> w = split_words(strip_comment(raw));
    if (w.empty()) return;
    if (version_ == 0) return header(w);
    if (w[0] == "cus") return cus(w);
    if (w[0] == "workload") return workload(raw);
    if (w[0] == "kernel") return kernel(w);
    if (w[0][0] >= '0' && w[0][0] <= '9') return version_ == 1 ? request(w) : instruction(w);
    fail(number_, "unknown keyword '" + w[0] + "'");
  }

  Trace finish(unsigned last_line) {
    if (version_ == 0) fail(last_line + 1, "missing header 'txgen-trace 2' (empty input)");
    if (t_.cus == 0) fail(last_line + 1, "missing 'cus' line");
    return std::move(t_);
  }

 private:
  void header(const std::vector<std::string>& w) {
    if (w[0] != "txgen-trace") fail(number_, "missing header 'txgen-trace 2' before '" + w[0] + "'");
    if (w.size() != 2 || (w[1] != "1" && w[1] != "2"))
      fail(number_, "unsupported header: expected 'txgen-trace 2' (or 1)");
    version_ = w[1] == "1" ? 1 : 2;
  }

  void cus(const std::vector<std::string>& w) {
    if (w.size() != 2) fail(number_, "expected 'cus <U>'");
    if (t_.cus != 0) fail(number_, "second 'cus' line");
    t_.cus = static_cast<unsigned>(decimal(number_, "cus", w[1], kMaxCus));
    if (t_.cus == 0) fail(number_, "cus must be at least 1");
  }

  // The label is the rest of the line (it may hold spaces), trimmed.
  void workload(const std::string& raw) {
    if (!t_.kernels.empty()) fail(number_, "'workload' after the first kernel");
    if (!t_.workload.empty()) fail(number_, "second 'workload' line");
    const std::string text = strip_comment(raw);
    const size_t start = text.find_first_not_of(" \t\r", text.find("workload") + 8);
    if (start == std::string::npos) fail(number_, "expected 'workload <label>'");
    t_.workload = text.substr(start, text.find_last_not_of(" \t\r") + 1 - start);
  }

  void kernel(const std::vector<std::string>& w) {
    const bool v2 = version_ == 2;
    if (w.size() != (v2 ? 8u : 6u) || w[2] != "code_bytes" || w[4] != "lds_segments" || (v2 && w[6] != "wavefronts"))
      fail(number_, v2 ? "expected 'kernel <id> code_bytes <n> lds_segments <n> wavefronts <n>'"
                       : "expected 'kernel <id> code_bytes <n> lds_segments <n>'");
    if (t_.cus == 0) fail(number_, "kernel before the 'cus' line");
    Kernel k;
    k.id = static_cast<unsigned>(decimal(number_, "kernel id", w[1], UINT32_MAX));
    k.code_bytes = decimal(number_, "code_bytes", w[3], UINT64_MAX);
    k.lds_segments = static_cast<unsigned>(decimal(number_, "lds_segments", w[5], UINT32_MAX));
    if (v2) {
      k.wavefronts = static_cast<unsigned>(decimal(number_, "wavefronts", w[7], kMaxWavefronts));
      if (k.wavefronts == 0) fail(number_, "wavefronts must be at least 1");
    }
    k.per_cu.resize(t_.cus);
    if (v2) k.instructions.resize(t_.cus);
    t_.kernels.push_back(std::move(k));
    last_seq_.clear();
  }

  unsigned cu_index(const std::string& text) {
    if (t_.kernels.empty()) fail(number_, version_ == 1 ? "request before any kernel" : "instruction before any kernel");
    const uint64_t cu = decimal(number_, "CU index", text, UINT32_MAX);
    if (cu >= t_.cus) fail(number_, "CU index " + text + " >= cus " + std::to_string(t_.cus));
    return static_cast<unsigned>(cu);
  }

  void request(const std::vector<std::string>& w) {
    if (w.size() < 2 || w.size() > 3) fail(number_, "expected '<cu> <vpn in hex> [<vmid>]'");
    const unsigned cu = cu_index(w[0]);
    Request r;
    r.vpn = hex_vpn(number_, w[1]);
    if (w.size() == 3) r.vmid = static_cast<uint32_t>(decimal(number_, "vmid", w[2], UINT32_MAX));
    t_.kernels.back().per_cu[cu].push_back(r);
  }

  // <cu> <wavefront> <seq> <gap> <vpn> [<vpn> ...] [vmid <n>]
  void instruction(const std::vector<std::string>& w) {
    size_t end = w.size();
    uint32_t vmid = 0;
    if (end >= 2 && w[end - 2] == "vmid") {
      vmid = static_cast<uint32_t>(decimal(number_, "vmid", w[end - 1], UINT32_MAX));
      end -= 2;
    }
    if (end < 5) fail(number_, "expected '<cu> <wavefront> <seq> <gap> <vpn> [<vpn> ...] [vmid <n>]'");
    const unsigned cu = cu_index(w[0]);
    Instruction ins;
    ins.wavefront = static_cast<uint32_t>(decimal(number_, "wavefront", w[1], UINT32_MAX));
    ins.seq = decimal(number_, "sequence number", w[2], UINT64_MAX);
    ins.compute_gap = decimal(number_, "compute gap", w[3], UINT32_MAX);
    ins.pages = static_cast<uint32_t>(end - 4);
    check_sequence(cu, ins);
    Kernel& k = t_.kernels.back();
    const size_t first = k.per_cu[cu].size();
    for (size_t i = 4; i < end; ++i) {
      const uint64_t vpn = hex_vpn(number_, w[i]);
      for (size_t j = first; j < k.per_cu[cu].size(); ++j)
        if (k.per_cu[cu][j].vpn == vpn) fail(number_, "page " + w[i] + " twice in one instruction");
      k.per_cu[cu].push_back({vpn, vmid});
    }
    k.instructions[cu].push_back(ins);
  }

  // A wavefront's instructions come in program order.
  void check_sequence(unsigned cu, const Instruction& ins) {
    const uint64_t key = (uint64_t{cu} << 32) | ins.wavefront;
    const auto [it, first] = last_seq_.emplace(key, ins.seq);
    if (!first && ins.seq <= it->second)
      fail(number_, "sequence number " + std::to_string(ins.seq) + " of CU " + std::to_string(cu) + " wavefront " +
                        std::to_string(ins.wavefront) + " is not above its previous " + std::to_string(it->second));
    it->second = ins.seq;
  }

  Trace t_;
  unsigned version_ = 0;  // 0 until the header
  unsigned number_ = 0;
  std::unordered_map<uint64_t, uint64_t> last_seq_;  // (cu, wavefront) -> its last sequence number, this kernel
};

// A label the reader gives back unchanged: one line, no comment, trimmed.
void check_label(const std::string& label) {
  if (label.find_first_of("#\n\r") != std::string::npos ||
      (!label.empty() && (std::isspace(static_cast<unsigned char>(label.front())) ||
                          std::isspace(static_cast<unsigned char>(label.back())))))
    throw std::invalid_argument("trace workload label '" + label +
                                "' cannot be written: it must be one line without '#' and without "
                                "leading or trailing spaces");
}

}  // namespace

Trace read(std::istream& in) {
  Reader reader;
  unsigned number = 0;
  for (std::string raw; std::getline(in, raw);) reader.line(++number, raw);
  if (in.bad()) throw std::runtime_error("line " + std::to_string(number + 1) + ": read error");
  return reader.finish(number);
}

namespace {

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// Line by line through zlib (which reads uncompressed files unchanged too).
Trace read_gzip(const std::string& path) {
  gzFile in = gzopen(path.c_str(), "rb");
  if (!in) throw std::runtime_error(path + ": cannot read");
  Reader reader;
  unsigned number = 0;
  std::string raw;
  char buf[4096];
  try {
    while (gzgets(in, buf, sizeof buf)) {
      raw += buf;
      if (raw.back() != '\n' && !gzeof(in)) continue;  // a line longer than the buffer
      if (raw.back() == '\n') raw.pop_back();
      reader.line(++number, raw);
      raw.clear();
    }
    int code = Z_OK;
    gzerror(in, &code);
    if (code != Z_OK && code != Z_STREAM_END) fail(number + 1, "read error (corrupt gzip data)");
    gzclose(in);
    return reader.finish(number);
  } catch (const std::runtime_error& e) {
    gzclose(in);
    throw std::runtime_error(path + ": " + e.what());
  }
}

}  // namespace

Trace read_file(const std::string& path) {
  if (ends_with(path, ".gz")) return read_gzip(path);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path + ": cannot read");
  try {
    return read(in);
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(path + ": " + e.what());
  }
}

namespace {

void write_kernel_line(std::ostream& out, const Kernel& k, unsigned version) {
  out << "kernel " << k.id << " code_bytes " << k.code_bytes << " lds_segments " << k.lds_segments;
  if (version == 2) out << " wavefronts " << k.wavefronts;
  out << "\n";
}

void write_page(std::ostream& out, const Request& r) {
  char text[24];
  std::snprintf(text, sizeof text, " %llx", static_cast<unsigned long long>(r.vpn));
  out << text;
}

// One CU's stream as instruction lines; a CU without instructions as
// one-page instructions of wavefront 0.
class InstructionLines {
 public:
  InstructionLines(const Kernel& k, unsigned cu) : k_(k), cu_(cu) {}
  bool done() const { return next_ >= k_.per_cu[cu_].size(); }
  void write_next(std::ostream& out) {
    const std::vector<Request>& stream = k_.per_cu[cu_];
    Instruction ins;
    if (k_.has_instructions(cu_)) {
      ins = k_.instructions[cu_][index_++];
    } else {
      ins.seq = index_++;
    }
    out << cu_ << " " << ins.wavefront << " " << ins.seq << " " << ins.compute_gap;
    const uint32_t vmid = stream[next_].vmid;
    for (uint32_t i = 0; i < ins.pages; ++i) {
      if (stream[next_ + i].vmid != vmid)
        throw std::invalid_argument("trace kernel " + std::to_string(k_.id) + " CU " + std::to_string(cu_) +
                                    ": an instruction's pages lie in two address spaces");
      write_page(out, stream[next_ + i]);
    }
    next_ += ins.pages;
    if (vmid != 0) out << " vmid " << vmid;
    out << "\n";
  }

 private:
  const Kernel& k_;
  unsigned cu_;
  size_t next_ = 0, index_ = 0;
};

void write_v2_kernel(std::ostream& out, const Kernel& k) {
  std::vector<InstructionLines> cus;
  for (unsigned cu = 0; cu < k.per_cu.size(); ++cu) cus.emplace_back(k, cu);
  for (bool more = true; more;) {
    more = false;
    for (InstructionLines& c : cus)
      if (!c.done()) {
        c.write_next(out);
        more = true;
      }
  }
}

void write_v1_kernel(std::ostream& out, const Kernel& k) {
  size_t longest = 0;
  for (const auto& stream : k.per_cu) longest = std::max(longest, stream.size());
  char line[64];
  for (size_t i = 0; i < longest; ++i)
    for (size_t cu = 0; cu < k.per_cu.size(); ++cu) {
      if (i >= k.per_cu[cu].size()) continue;
      const Request& r = k.per_cu[cu][i];
      if (r.vmid == 0)
        std::snprintf(line, sizeof line, "%zu %llx\n", cu, static_cast<unsigned long long>(r.vpn));
      else
        std::snprintf(line, sizeof line, "%zu %llx %u\n", cu, static_cast<unsigned long long>(r.vpn),
                      static_cast<unsigned>(r.vmid));
      out << line;
    }
}

}  // namespace

// Kernel by kernel; inside a kernel the CUs' streams are interleaved one
// request (version 1) or one instruction (version 2) at a time: only each
// CU's own order carries meaning.
void write(std::ostream& out, const Trace& t, unsigned version) {
  if (version != 1 && version != 2) throw std::invalid_argument("trace version must be 1 or 2");
  check_label(t.workload);
  validate(t);
  out << "txgen-trace " << version << "\ncus " << t.cus << "\n";
  if (!t.workload.empty()) out << "workload " << t.workload << "\n";
  for (const Kernel& k : t.kernels) {
    write_kernel_line(out, k, version);
    if (version == 2) write_v2_kernel(out, k);
    else write_v1_kernel(out, k);
  }
}

namespace {

bool write_bytes(const std::string& path, const std::string& bytes, bool gzip) {
  if (!gzip) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << bytes;
    out.close();
    return static_cast<bool>(out);
  }
  gzFile out = gzopen(path.c_str(), "wb6");
  if (!out) return false;
  const bool wrote = bytes.empty() || gzwrite(out, bytes.data(), static_cast<unsigned>(bytes.size())) > 0;
  return gzclose(out) == Z_OK && wrote;
}

}  // namespace

// Written to PATH.tmp (gzip-compressed when PATH ends in .gz) and renamed, so a failure leaves no partial file.
void write_file(const std::string& path, const Trace& t, unsigned version) {
  std::ostringstream text;
  write(text, t, version);
  const std::string tmp = path + ".tmp";
  std::error_code ec;
  if (!write_bytes(tmp, text.str(), ends_with(path, ".gz"))) {
    std::filesystem::remove(tmp, ec);
    throw std::runtime_error(path + ": cannot write");
  }
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    const std::string reason = ec.message();
    std::filesystem::remove(tmp, ec);
    throw std::runtime_error(path + ": cannot write: " + reason);
  }
}

}  // namespace txgen::trace
