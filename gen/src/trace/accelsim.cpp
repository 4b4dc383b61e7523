// Accel-Sim (NVBit tracer) trace directories to txgen traces
// (docs/trace_import.md: the format rules, the mapping onto CUs and
// wavefronts, the errors and the import speed).
#include "txgen/trace/accelsim.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <unordered_map>
#include <vector>

namespace txgen::trace {
namespace {

namespace fs = std::filesystem;

constexpr unsigned kWarpSize = 32;
// SASS instructions are 16 bytes (with their control bits) on Volta and
// later; Accel-Sim assumes 16 for every binary version it simulates.
constexpr uint64_t kSassInstructionBytes = 16;
// The first tracer version whose instruction lines no longer start with the
// thread block and warp ids (trace_parser.cc reads and ignores them below it).
constexpr unsigned kFirstUnprefixedVersion = 3;
// From this version on, fields after the memory operands (a second
// immediate, register values) are not parsed (docs/trace_import.md).
constexpr unsigned kFirstVersionWithValueFields = 6;

// A malformed line: the kernel reader adds the file and the line number.
struct LineError {
  std::string reason;
  bool at_next_line = false;  // a read error: the line being read, not the last one read
};

[[noreturn]] void fail(std::string reason) { throw LineError{std::move(reason)}; }

[[noreturn]] void fail_at(const std::string& file, uint64_t line, const std::string& reason) {
  throw std::runtime_error(file + ":" + std::to_string(line) + ": " + reason);
}

std::string in_quotes(std::string_view s) { return "'" + std::string(s) + "'"; }

// ---------------------------------------------------------------- numbers

bool parse_unsigned(std::string_view s, uint64_t& v, int base) {
  if (s.empty()) return false;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v, base);
  return ec == std::errc() && end == s.data() + s.size();
}

// Hex with or without 0x: the tracer writes PCs and masks bare, addresses with 0x.
bool parse_hex(std::string_view s, uint64_t& v) {
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s.remove_prefix(2);
  return parse_unsigned(s, v, 16);
}

bool parse_decimal(std::string_view s, uint64_t& v) { return parse_unsigned(s, v, 10); }

bool parse_signed(std::string_view s, int64_t& v) {
  if (s.empty()) return false;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v, 10);
  return ec == std::errc() && end == s.data() + s.size();
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

// ---------------------------------------------------------------- reading

// Buffered line reader over a kernel trace: lines as views into its buffer
// (valid until the next call), without the '\n' and a '\r' before it.
class LineReader {
 public:
  explicit LineReader(const std::string& path) : file_(std::fopen(path.c_str(), "rb"), &std::fclose), buf_(1 << 20) {}
  bool is_open() const { return file_ != nullptr; }
  uint64_t bytes() const { return bytes_; }

  bool next(std::string_view& line) {
    for (;;) {
      const char* begin = buf_.data() + start_;
      if (const void* nl = std::memchr(begin, '\n', end_ - start_)) {
        const size_t n = static_cast<size_t>(static_cast<const char*>(nl) - begin);
        line = std::string_view(begin, n);
        start_ += n + 1;
        return true;
      }
      if (eof_) {
        if (start_ == end_) return false;
        line = std::string_view(begin, end_ - start_);  // a last line without '\n'
        start_ = end_;
        return true;
      }
      refill();
    }
  }

 private:
  void refill() {
    if (start_ > 0) {  // keep the partial line at the front
      std::memmove(buf_.data(), buf_.data() + start_, end_ - start_);
      end_ -= start_;
      start_ = 0;
    }
    if (end_ == buf_.size()) buf_.resize(buf_.size() * 2);  // a line longer than the buffer
    const size_t got = std::fread(buf_.data() + end_, 1, buf_.size() - end_, file_.get());
    if (got == 0 && std::ferror(file_.get())) throw LineError{"cannot read the file", true};
    if (got == 0) eof_ = true;
    end_ += got;
    bytes_ += got;
  }

  std::unique_ptr<FILE, int (*)(FILE*)> file_;
  std::vector<char> buf_;
  size_t start_ = 0, end_ = 0;
  bool eof_ = false;
  uint64_t bytes_ = 0;
};

// A field's name for messages, built only when a line is malformed:
// "address" with index 2 of 4 reads "address 3 of 4".
struct What {
  const char* name;
  unsigned index = 0, count = 0;  // count 0: not one of several
  std::string str() const {
    std::string s = name;
    if (count > 0) s += " " + std::to_string(index + 1) + " of " + std::to_string(count);
    return s;
  }
};

// The whitespace-separated fields of one instruction line, each read with
// what it is, so that a short line says which field is missing.
class Fields {
 public:
  explicit Fields(std::string_view line) : rest_(line) {}

  bool next(std::string_view& field) {
    size_t i = 0;
    while (i < rest_.size() && (rest_[i] == ' ' || rest_[i] == '\t')) ++i;
    size_t j = i;
    while (j < rest_.size() && rest_[j] != ' ' && rest_[j] != '\t') ++j;
    field = rest_.substr(i, j - i);
    rest_.remove_prefix(j);
    return !field.empty();
  }
  std::string_view need(What what) {
    std::string_view f;
    if (!next(f)) fail("the line ends before the " + what.str());
    return f;
  }
  uint64_t hex(What what) {
    const std::string_view f = need(what);
    uint64_t v = 0;
    if (!parse_hex(f, v)) fail("bad hex " + what.str() + " " + in_quotes(f));
    return v;
  }
  uint64_t decimal(What what) {
    const std::string_view f = need(what);
    uint64_t v = 0;
    if (!parse_decimal(f, v)) fail("bad decimal " + what.str() + " " + in_quotes(f));
    return v;
  }
  int64_t signed_decimal(What what) {
    const std::string_view f = need(what);
    int64_t v = 0;
    if (!parse_signed(f, v)) fail("bad decimal " + what.str() + " " + in_quotes(f));
    return v;
  }

 private:
  std::string_view rest_;
};

// ---------------------------------------------------------------- opcodes

enum class Access {
  Compute,  // everything not translated: ALU, LDS/STS/ATOMS, LDL/STL, LDC, unknown opcodes
  Global,   // LDG, STG, ATOM, ATOMG, RED, REDG: every active lane is a virtual address
  Generic,  // LD, ST: lanes in the kernel's shared-memory window are not translated
  Ldgsts,   // LDGSTS: the tracer writes two lines, the shared side then the global side
  Opaque,   // TMA bulk copies and GMMA: their operands differ between parser versions; compute
};

std::string_view base_name(std::string_view opcode) { return opcode.substr(0, opcode.find('.')); }

Access access_of(std::string_view opcode) {
  const std::string_view base = base_name(opcode);
  for (std::string_view g : {"LDG", "STG", "ATOM", "ATOMG", "RED", "REDG"})
    if (base == g) return Access::Global;
  if (base == "LD" || base == "ST") return Access::Generic;
  if (base == "LDGSTS") return Access::Ldgsts;
  for (std::string_view t : {"UTMALDG", "UTMASTG", "UTMAPF", "UTMAREDG", "UBLKCP", "UBLKPF", "UBLKRED"})
    if (base == t) return Access::Opaque;
  if (opcode.find("GMMA") != std::string_view::npos) return Access::Opaque;
  return Access::Compute;
}

// ---------------------------------------------------------------- kernel header

struct KernelHeader {
  std::string name;
  unsigned tracer_version = 0;  // absent: 0, the prefixed layout (as trace_parser.cc)
  bool lineinfo = false;
  bool has_block_dim = false;
  uint64_t threads_per_block = 0;
  uint64_t shmem = 0;
  uint64_t shmem_base = 0, local_base = 0;  // the generic-address windows (0: unknown)

  unsigned warps_per_block() const { return static_cast<unsigned>((threads_per_block + kWarpSize - 1) / kWarpSize); }
  bool in_shared_window(uint64_t addr) const {
    return shmem_base != 0 && local_base > shmem_base && addr >= shmem_base && addr < local_base;
  }
};

uint64_t header_decimal(std::string_view key, std::string_view value) {
  uint64_t v = 0;
  if (!parse_decimal(value, v)) fail("bad decimal value " + in_quotes(value) + " of '-" + std::string(key) + "'");
  return v;
}

uint64_t header_hex(std::string_view key, std::string_view value) {
  uint64_t v = 0;
  if (!parse_hex(value, v)) fail("bad hex value " + in_quotes(value) + " of '-" + std::string(key) + "'");
  return v;
}

// "(x,y,z)" -> x*y*z
uint64_t header_dim3_product(std::string_view key, std::string_view value) {
  const std::string bad = "bad value " + in_quotes(value) + " of '-" + std::string(key) + "' (expected '(x,y,z)')";
  if (value.size() < 2 || value.front() != '(' || value.back() != ')') fail(bad);
  std::string_view inner = value.substr(1, value.size() - 2);
  uint64_t product = 1;
  for (int i = 0; i < 3; ++i) {
    const size_t comma = inner.find(',');
    if ((i < 2) != (comma != std::string_view::npos)) fail(bad);
    uint64_t v = 0;
    if (!parse_decimal(trim(inner.substr(0, comma)), v) || v > (uint64_t{1} << 31)) fail(bad);
    product *= v;
    if (product > (uint64_t{1} << 32))
      fail("'-" + std::string(key) + "' " + in_quotes(value) + " has more than 2^32 threads");
    inner = i < 2 ? inner.substr(comma + 1) : std::string_view();
  }
  return product;
}

// One '-key = value' line; unknown keys are ignored (new tracer versions add some).
void parse_header_line(std::string_view line, KernelHeader& h) {
  const size_t eq = line.find('=');
  if (eq == std::string_view::npos) return;
  const std::string_view key = trim(line.substr(1, eq - 1));
  const std::string_view value = trim(line.substr(eq + 1));
  if (key == "kernel name") {
    h.name = std::string(value);
  } else if (key == "block dim") {
    h.threads_per_block = header_dim3_product(key, value);
    if (h.threads_per_block == 0) fail("'-block dim' " + in_quotes(value) + " has no threads");
    h.has_block_dim = true;
  } else if (key == "shmem") {
    h.shmem = header_decimal(key, value);
  } else if (key == "accelsim tracer version") {
    const uint64_t v = header_decimal(key, value);
    h.tracer_version = static_cast<unsigned>(std::min<uint64_t>(v, UINT32_MAX));
  } else if (key == "enable lineinfo") {
    h.lineinfo = header_decimal(key, value) != 0;
  } else if (key == "shmem base_addr") {
    h.shmem_base = header_hex(key, value);
  } else if (key == "local mem base_addr") {
    h.local_base = header_hex(key, value);
  }
}

// ---------------------------------------------------------------- instruction lines

struct ParsedLine {
  uint64_t pc = 0;
  std::string_view opcode;
  Access access = Access::Compute;
  unsigned lanes = 0;                    // addresses in `addr` (one per active lane, in lane order)
  std::array<uint64_t, kWarpSize> addr{};
};

bool is_register(std::string_view f) {  // R12, UR4, P0, UP1
  size_t i = 0;
  while (i < f.size() && f[i] >= 'A' && f[i] <= 'Z') ++i;
  if (i == 0 || i == f.size()) return false;
  for (size_t j = i; j < f.size(); ++j)
    if (f[j] < '0' || f[j] > '9') return false;
  return true;
}

void skip_registers(Fields& f, const char* count_name, const char* register_name) {
  const uint64_t n = f.decimal({count_name});
  for (uint64_t i = 0; i < n; ++i) {
    const What what{register_name, static_cast<unsigned>(i), static_cast<unsigned>(n)};
    const std::string_view r = f.need(what);
    if (!is_register(r)) fail("expected " + what.str() + ", got " + in_quotes(r));
  }
}

// The address-compression modes of tracer_tool.cu / trace_parser.cc:
// 0 one address per active lane, 1 base and stride, 2 base and one delta
// per further active lane (from the previous active lane's address).
void parse_addresses(Fields& f, uint32_t mask, ParsedLine& p) {
  const unsigned lanes = static_cast<unsigned>(__builtin_popcount(mask));
  const uint64_t mode = f.decimal({"address mode"});
  switch (mode) {
    case 0:
      for (unsigned i = 0; i < lanes; ++i) p.addr[i] = f.hex({"address (one per active lane)", i, lanes});
      break;
    case 1: {
      const uint64_t base = f.hex({"base address"});
      const int64_t stride = f.signed_decimal({"stride"});
      for (unsigned i = 0; i < lanes; ++i) p.addr[i] = base + static_cast<uint64_t>(stride) * i;  // modulo 2^64
      break;
    }
    case 2: {
      const uint64_t base = f.hex({"base address"});
      if (lanes > 0) p.addr[0] = base;
      for (unsigned i = 1; i < lanes; ++i) {
        const int64_t delta = f.signed_decimal({"delta (one per further active lane)", i - 1, lanes - 1});
        p.addr[i] = p.addr[i - 1] + static_cast<uint64_t>(delta);
      }
      break;
    }
    default:
      fail("unknown address mode " + std::to_string(mode) + " (0 list, 1 base+stride, 2 base+delta)");
  }
  p.lanes = lanes;
}

// The fields after the memory operands: the immediate (tracer version 5,
// absent in older traces); nothing else up to version 5.
void check_tail(Fields& f, const KernelHeader& h) {
  if (h.tracer_version >= kFirstVersionWithValueFields) return;
  std::string_view extra;
  if (!f.next(extra)) return;
  int64_t imm = 0;
  if (!parse_signed(extra, imm))
    fail("unexpected field " + in_quotes(extra) + " where the immediate or the line end belongs");
  if (f.next(extra)) fail("unexpected field " + in_quotes(extra) + " after the immediate");
}

void parse_instruction(std::string_view line, const KernelHeader& h, ParsedLine& p) {
  Fields f(line);
  if (h.tracer_version < kFirstUnprefixedVersion)
    for (const char* id : {"thread block x", "thread block y", "thread block z", "warp id"}) f.decimal({id});
  if (h.lineinfo) f.decimal({"source line number"});
  p.pc = f.hex({"PC"});
  const std::string_view mask_text = f.need({"active mask"});
  uint64_t mask = 0;
  if (!parse_hex(mask_text, mask)) fail("bad hex active mask " + in_quotes(mask_text));
  if (mask > 0xffffffffu) fail("active mask " + in_quotes(mask_text) + " has more than 32 lanes");
  skip_registers(f, "destination register count", "destination register");
  p.opcode = f.need({"opcode"});
  if (!(p.opcode[0] >= 'A' && p.opcode[0] <= 'Z')) fail("expected an opcode, got " + in_quotes(p.opcode));
  p.access = access_of(p.opcode);
  p.lanes = 0;
  skip_registers(f, "source register count", "source register");
  if (p.access == Access::Opaque) return;
  if (f.decimal({"memory width"}) > 0) parse_addresses(f, static_cast<uint32_t>(mask), p);
  check_tail(f, h);
}

// ---------------------------------------------------------------- one kernel

struct ImportedKernel {
  std::string name;
  Kernel kernel;
};

// Reads one kernel trace and maps it (docs/trace_import.md, "Mapping").
class KernelReader {
 public:
  KernelReader(std::string path, const ImportOptions& o, ImportStats& stats)
      : path_(std::move(path)), o_(o), stats_(stats), page_shift_(shift_of(o.page_bytes)) {
    k_.kernel.per_cu.resize(o.cus);
    k_.kernel.instructions.resize(o.cus);
  }

  // Throws std::runtime_error naming the file and line; `listed_at` names
  // the kernelslist line when the trace cannot be opened.
  ImportedKernel read(const std::string& list, uint64_t listed_at) {
    std::error_code ec;
    if (fs::is_directory(path_, ec)) fail_at(list, listed_at, "kernel trace " + in_quotes(path_) + " is a directory");
    LineReader in(path_);
    if (!in.is_open()) fail_at(list, listed_at, "cannot open kernel trace " + in_quotes(path_));
    std::string_view line;
    try {
      while (in.next(line)) {
        ++line_no_;
        on_line(trim(line));
      }
    } catch (const LineError& e) {
      fail_at(path_, line_no_ + (e.at_next_line ? 1 : 0), e.reason);
    }
    if (in_tb_) fail_at(path_, tb_line_, "thread block " + tb_label_ + " has no #END_TB before the end of the file");
    stats_.bytes += in.bytes();
    finish();
    if (k_.name.empty()) k_.name = path_;  // as trace_parser.cc: unnamed kernels are their file
    return std::move(k_);
  }

 private:
  static unsigned shift_of(uint64_t page_bytes) {
    unsigned s = 0;
    while ((uint64_t{1} << s) < page_bytes) ++s;
    return s;
  }

  static bool starts_with_word(std::string_view line, std::string_view word) {
    return line.size() >= word.size() && line.compare(0, word.size(), word) == 0 &&
           (line.size() == word.size() || line[word.size()] == ' ' || line[word.size()] == '=' ||
            line[word.size()] == '\t');
  }

  // "key = value" -> value
  static std::string_view value_after_equals(std::string_view line, std::string_view key) {
    std::string_view rest = trim(line.substr(key.size()));
    if (rest.empty() || rest.front() != '=') fail("expected '" + std::string(key) + " = ...'");
    return trim(rest.substr(1));
  }

  void on_line(std::string_view line) {
    if (line.empty()) return;
    if (warp_open_ && remaining_ > 0 && (line[0] == '#' || starts_with_word(line, "warp") ||
                                         starts_with_word(line, "insts") || starts_with_word(line, "thread block")))
      fail("warp " + std::to_string(warp_) + " of thread block " + tb_label_ + " ends after " +
           std::to_string(declared_ - remaining_) + " of the " + std::to_string(declared_) +
           " instructions its 'insts' line declares");
    if (line[0] == '-') return on_header(line);
    if (starts_with_word(line, "#BEGIN_TB")) return begin_tb();
    if (starts_with_word(line, "#END_TB")) return end_tb();
    if (line[0] == '#') return;  // "#traces format = ..." and other comments
    if (starts_with_word(line, "thread block")) return on_thread_block(line);
    if (starts_with_word(line, "warp")) return on_warp(line);
    if (starts_with_word(line, "insts")) return on_insts(line);
    if (starts_with_word(line, "cluster")) return;  // cluster id / cta / rank (Hopper traces)
    on_instruction(line);
  }

  void on_header(std::string_view line) {
    if (blocks_ > 0) fail("kernel header line after the first thread block");
    parse_header_line(line, h_);
  }

  void begin_tb() {
    if (in_tb_)
      fail("#BEGIN_TB inside thread block " + tb_label_ + " (begun at line " + std::to_string(tb_line_) +
           ", no #END_TB)");
    if (!h_.has_block_dim) fail("thread block before the '-block dim' header (needed for the warps per block)");
    if (blocks_ == 0) start_body();
    in_tb_ = true;
    tb_line_ = line_no_;
    tb_label_ = "#" + std::to_string(blocks_);
    warp_open_ = false;
    std::fill(seen_warps_.begin(), seen_warps_.end(), false);
    const uint64_t b = blocks_++;
    cu_ = static_cast<unsigned>(b % o_.cus);
    first_wavefront_ = (b / o_.cus) * warps_per_block_;
    blocks_per_cu_[cu_]++;
  }

  void start_body() {
    warps_per_block_ = h_.warps_per_block();
    seen_warps_.assign(warps_per_block_, false);
    blocks_per_cu_.assign(o_.cus, 0);
  }

  void end_tb() {
    if (!in_tb_) fail("#END_TB outside a thread block");
    in_tb_ = false;
    warp_open_ = false;
  }

  void on_thread_block(std::string_view line) {
    if (!in_tb_) fail("'thread block' line outside #BEGIN_TB ... #END_TB");
    tb_label_ = std::string(value_after_equals(line, "thread block"));
  }

  void on_warp(std::string_view line) {
    if (!in_tb_) fail("'warp' line outside a thread block");
    uint64_t w = 0;
    const std::string_view v = value_after_equals(line, "warp");
    if (!parse_decimal(v, w)) fail("bad warp id " + in_quotes(v));
    if (w >= warps_per_block_)
      fail("warp " + std::to_string(w) + " outside the " + std::to_string(warps_per_block_) +
           " warps of a block of " + std::to_string(h_.threads_per_block) + " threads ('-block dim')");
    if (seen_warps_[w]) fail("warp " + std::to_string(w) + " appears twice in thread block " + tb_label_);
    seen_warps_[w] = true;
    const uint64_t wavefront = first_wavefront_ + w;
    if (wavefront > UINT32_MAX) fail("wavefront id " + std::to_string(wavefront) + " does not fit 32 bits");
    warp_ = static_cast<unsigned>(w);
    wavefront_ = static_cast<uint32_t>(wavefront);
    warp_open_ = true;
    insts_seen_ = false;
    remaining_ = declared_ = 0;
    gap_ = 0;
    pending_ldgsts_ = false;
  }

  void on_insts(std::string_view line) {
    if (!warp_open_ || insts_seen_) fail("'insts' line without a 'warp' line before it");
    const std::string_view v = value_after_equals(line, "insts");
    if (!parse_decimal(v, declared_)) fail("bad instruction count " + in_quotes(v));
    remaining_ = declared_;
    insts_seen_ = true;
  }

  void on_instruction(std::string_view line) {
    if (!in_tb_) fail("instruction line outside a thread block");
    if (!warp_open_ || !insts_seen_) fail("instruction line before the thread block's 'warp' and 'insts' lines");
    if (remaining_ == 0)
      fail("warp " + std::to_string(warp_) + " of thread block " + tb_label_ + " has more instructions than the " +
           std::to_string(declared_) + " its 'insts' line declares");
    --remaining_;
    ++stats_.instructions;
    parse_instruction(line, h_, parsed_);
    note_pc(parsed_.pc);
    account(parsed_);
  }

  void note_pc(uint64_t pc) {
    if (!any_pc_ || pc < min_pc_) min_pc_ = pc;
    if (!any_pc_ || pc > max_pc_) max_pc_ = pc;
    any_pc_ = true;
  }

  // Compute gaps and the LDGSTS pairs: the tracer writes an LDGSTS as two
  // consecutive lines of one PC, its shared destination then its global
  // source; the pair is one instruction.
  void account(const ParsedLine& p) {
    const bool second_of_pair = p.access == Access::Ldgsts && pending_ldgsts_ && pending_pc_ == p.pc;
    pending_ldgsts_ = p.access == Access::Ldgsts && !second_of_pair;
    pending_pc_ = p.pc;
    if (p.access == Access::Ldgsts && !second_of_pair) {
      ++gap_;  // one compute instruction unless its global side follows
      return;
    }
    if (second_of_pair) --gap_;
    const bool translated = p.access == Access::Global || p.access == Access::Generic || second_of_pair;
    if (!translated || !emit(p)) ++gap_;
  }

  // Appends the instruction's distinct pages (lane order, first occurrence);
  // false when no lane needs a translation.
  bool emit(const ParsedLine& p) {
    std::array<uint64_t, kWarpSize> pages;
    unsigned n = 0;
    for (unsigned i = 0; i < p.lanes; ++i) {
      if (p.access == Access::Generic && h_.in_shared_window(p.addr[i])) continue;
      const uint64_t vpn = p.addr[i] >> page_shift_;
      bool seen = false;
      for (unsigned j = 0; j < n && !seen; ++j) seen = pages[j] == vpn;
      if (!seen) pages[n++] = vpn;
    }
    if (n == 0) return false;
    auto& requests = k_.kernel.per_cu[cu_];
    for (unsigned j = 0; j < n; ++j) requests.push_back(Request{pages[j], 0});
    k_.kernel.instructions[cu_].push_back(Instruction{wavefront_, n, seq_++, gap_});
    gap_ = 0;
    ++stats_.global_instructions;
    stats_.requests += n;
    return true;
  }

  // Kernel-wide fields once every thread block is known.
  void finish() {
    Kernel& k = k_.kernel;
    k_.name = h_.name;
    k.code_bytes = any_pc_ ? max_pc_ - min_pc_ + kSassInstructionBytes : 0;
    if (blocks_ == 0) {  // no thread block: nothing runs, one slot
      k.wavefronts = h_.has_block_dim ? std::max(1u, h_.warps_per_block()) : 1;
      k.lds_segments = 0;
      return;
    }
    uint64_t busiest = 0;
    for (uint64_t n : blocks_per_cu_) busiest = std::max(busiest, n);
    const uint64_t fit = std::max<uint64_t>(1, o_.wavefront_slots / warps_per_block_);
    const uint64_t resident = std::min(fit, busiest);  // a CU cannot hold more blocks than it gets
    k.wavefronts = static_cast<unsigned>(std::min<uint64_t>(resident * warps_per_block_, UINT32_MAX));
    uint64_t lds = (h_.shmem * resident + o_.lds_segment_bytes - 1) / o_.lds_segment_bytes;
    if (o_.max_lds_segments != 0) lds = std::min<uint64_t>(lds, o_.max_lds_segments);
    k.lds_segments = static_cast<unsigned>(std::min<uint64_t>(lds, UINT32_MAX));
  }

  const std::string path_;
  const ImportOptions& o_;
  ImportStats& stats_;
  const unsigned page_shift_;
  ImportedKernel k_;
  KernelHeader h_;
  ParsedLine parsed_;
  uint64_t line_no_ = 0;

  // thread blocks
  uint64_t blocks_ = 0;
  unsigned warps_per_block_ = 0;
  std::vector<uint64_t> blocks_per_cu_;
  bool in_tb_ = false;
  uint64_t tb_line_ = 0;
  std::string tb_label_;
  std::vector<bool> seen_warps_;
  unsigned cu_ = 0;
  uint64_t first_wavefront_ = 0;

  // the current warp
  bool warp_open_ = false, insts_seen_ = false;
  unsigned warp_ = 0;
  uint32_t wavefront_ = 0;
  uint64_t declared_ = 0, remaining_ = 0;
  uint64_t gap_ = 0;
  bool pending_ldgsts_ = false;
  uint64_t pending_pc_ = 0;

  // kernel-wide
  uint64_t seq_ = 0;
  bool any_pc_ = false;
  uint64_t min_pc_ = 0, max_pc_ = 0;
};

// ---------------------------------------------------------------- options and the list

void validate(const ImportOptions& o) {
  if (o.cus < 1 || o.cus > 4096)
    throw std::invalid_argument("ImportOptions::cus must be 1..4096 (got " + std::to_string(o.cus) + ")");
  if (o.page_bytes < 512 || (o.page_bytes & (o.page_bytes - 1)) != 0)
    throw std::invalid_argument("ImportOptions::page_bytes must be a power of two >= 512 (got " +
                                std::to_string(o.page_bytes) + ")");
  if (o.wavefront_slots < 1) throw std::invalid_argument("ImportOptions::wavefront_slots must be at least 1 (got 0)");
  if (o.lds_segment_bytes < 1)
    throw std::invalid_argument("ImportOptions::lds_segment_bytes must be at least 1 (got 0)");
}

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// The tracer writes APP/ARGS/traces/kernelslist.g: "traces" names nothing,
// so its parent's name is the label.
std::string directory_name(const std::string& kernelslist) {
  std::error_code ec;
  fs::path dir = fs::absolute(fs::path(kernelslist), ec).lexically_normal().parent_path();
  if (dir.filename() == "traces" && dir.has_parent_path() && !dir.parent_path().filename().empty())
    return dir.parent_path().filename().string();
  return dir.filename().string();
}

}  // namespace

Trace import_accelsim(const std::string& kernelslist, const ImportOptions& o, ImportStats* stats) {
  validate(o);
  std::ifstream list(kernelslist);
  if (!list) throw std::runtime_error(kernelslist + ": cannot open the kernel list");
  const fs::path dir = fs::path(kernelslist).parent_path();

  Trace t;
  t.cus = o.cus;
  t.workload = o.workload.empty() ? directory_name(kernelslist) : o.workload;
  ImportStats s;
  std::unordered_map<std::string, unsigned> id_of_name;
  std::string line;
  for (uint64_t line_no = 1; std::getline(list, line); ++line_no) {
    const std::string_view entry = trim(line);
    if (entry.empty()) continue;
    if (entry.compare(0, 6, "Memcpy") == 0) {  // MemcpyHtoD / MemcpyDtoH: no translations
      ++s.memcpy_lines;
      continue;
    }
    if (ends_with(entry, ".xz"))
      fail_at(kernelslist, line_no, "compressed kernel trace " + in_quotes(entry) + ": decompress it first (xz -d)");
    const fs::path name{std::string(entry)};
    const std::string path = (name.is_absolute() ? name : dir / name).string();
    ImportedKernel k = KernelReader(path, o, s).read(kernelslist, line_no);
    const auto [it, first] = id_of_name.emplace(k.name, static_cast<unsigned>(id_of_name.size()));
    k.kernel.id = it->second;
    t.kernels.push_back(std::move(k.kernel));
    ++s.kernels;
  }
  if (stats) *stats = s;
  return t;
}

}  // namespace txgen::trace
