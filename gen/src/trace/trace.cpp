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
#include <utility>

namespace txgen::trace {

uint64_t Trace::requests() const {
  uint64_t n = 0;
  for (const Kernel& k : kernels)
    for (const auto& stream : k.per_cu) n += stream.size();
  return n;
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
    if (!header_) return header(w);
    if (w[0] == "cus") return cus(w);
    if (w[0] == "workload") return workload(raw);
    if (w[0] == "kernel") return kernel(w);
    if (w[0][0] >= '0' && w[0][0] <= '9') return request(w);
    fail(number_, "unknown keyword '" + w[0] + "'");
  }

  Trace finish(unsigned last_line) {
    if (!header_) fail(last_line + 1, "missing header 'txgen-trace 1' (empty input)");
    if (t_.cus == 0) fail(last_line + 1, "missing 'cus' line");
    return std::move(t_);
  }

 private:
  void header(const std::vector<std::string>& w) {
    if (w[0] != "txgen-trace") fail(number_, "missing header 'txgen-trace 1' before '" + w[0] + "'");
    if (w.size() != 2 || w[1] != "1") fail(number_, "unsupported header: expected 'txgen-trace 1'");
    header_ = true;
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
    if (w.size() != 6 || w[2] != "code_bytes" || w[4] != "lds_segments")
      fail(number_, "expected 'kernel <id> code_bytes <n> lds_segments <n>'");
    if (t_.cus == 0) fail(number_, "kernel before the 'cus' line");
    Kernel k;
    k.id = static_cast<unsigned>(decimal(number_, "kernel id", w[1], UINT32_MAX));
    k.code_bytes = decimal(number_, "code_bytes", w[3], UINT64_MAX);
    k.lds_segments = static_cast<unsigned>(decimal(number_, "lds_segments", w[5], UINT32_MAX));
    k.per_cu.resize(t_.cus);
    t_.kernels.push_back(std::move(k));
  }

  void request(const std::vector<std::string>& w) {
    if (w.size() < 2 || w.size() > 3) fail(number_, "expected '<cu> <vpn in hex> [<vmid>]'");
    if (t_.kernels.empty()) fail(number_, "request before any kernel");
    const uint64_t cu = decimal(number_, "CU index", w[0], UINT32_MAX);
    if (cu >= t_.cus)
      fail(number_, "CU index " + w[0] + " >= cus " + std::to_string(t_.cus));
    Request r;
    r.vpn = hex_vpn(number_, w[1]);
    if (w.size() == 3) r.vmid = static_cast<uint32_t>(decimal(number_, "vmid", w[2], UINT32_MAX));
    t_.kernels.back().per_cu[cu].push_back(r);
  }

  Trace t_;
  bool header_ = false;
  unsigned number_ = 0;
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

Trace read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path + ": cannot read");
  try {
    return read(in);
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(path + ": " + e.what());
  }
}

// Kernel by kernel; inside a kernel the CUs' streams are interleaved one
// request at a time (only each CU's own order carries meaning).
void write(std::ostream& out, const Trace& t) {
  check_label(t.workload);
  out << "txgen-trace 1\ncus " << t.cus << "\n";
  if (!t.workload.empty()) out << "workload " << t.workload << "\n";
  char line[64];
  for (const Kernel& k : t.kernels) {
    if (k.per_cu.size() > t.cus)
      throw std::invalid_argument("trace kernel " + std::to_string(k.id) + " has streams for " +
                                  std::to_string(k.per_cu.size()) + " CUs, more than cus " +
                                  std::to_string(t.cus));
    out << "kernel " << k.id << " code_bytes " << k.code_bytes << " lds_segments " << k.lds_segments << "\n";
    size_t longest = 0;
    for (const auto& stream : k.per_cu) longest = std::max(longest, stream.size());
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
}

// Written to PATH.tmp and renamed, so a failure leaves no partial file.
void write_file(const std::string& path, const Trace& t) {
  std::ostringstream text;
  write(text, t);
  const std::string tmp = path + ".tmp";
  std::error_code ec;
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << text.str();
    out.close();
    if (!out) {
      std::filesystem::remove(tmp, ec);
      throw std::runtime_error(path + ": cannot write");
    }
  }
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    const std::string reason = ec.message();
    std::filesystem::remove(tmp, ec);
    throw std::runtime_error(path + ": cannot write: " + reason);
  }
}

}  // namespace txgen::trace
