#include "txgen/power/fst.h"

#include <stdexcept>

#include "fstapi.h"

namespace txgen::power {
namespace {

// "req_vpn_i[11:0]" / "req_vpn_i [11:0]" -> "req_vpn_i", lsb 0; a name with a
// single index ("q[3]", an escaped scalar) is kept whole.
void split_range(const std::string& written, std::string& name, int& lsb) {
  name = written;
  lsb = 0;
  const auto open = written.rfind('[');
  const auto colon = written.rfind(':');
  if (open == std::string::npos || colon == std::string::npos || colon < open || written.back() != ']') return;
  lsb = std::stoi(written.substr(colon + 1, written.size() - colon - 2));
  name = written.substr(0, open);
  while (!name.empty() && name.back() == ' ') name.pop_back();
}

std::string join_scope(const std::vector<std::string>& scopes) {
  std::string path;
  for (const auto& s : scopes) path += (path.empty() ? "" : ".") + s;
  return path;
}

struct ChangeSink {
  const FstFile::Change* change;
};

void on_change(void* user, uint64_t time, fstHandle handle, const unsigned char* value) {
  (*static_cast<ChangeSink*>(user)->change)(time, handle, reinterpret_cast<const char*>(value));
}

}  // namespace

FstFile::FstFile(const std::string& path) : path_(path), ctx_(fstReaderOpen(path.c_str())) {
  if (ctx_ == nullptr) throw std::runtime_error(path + ": not a readable FST waveform");
  std::vector<std::string> scopes;
  while (const fstHier* h = fstReaderIterateHier(ctx_)) {
    if (h->htyp == FST_HT_SCOPE) {
      scopes.emplace_back(h->u.scope.name);
    } else if (h->htyp == FST_HT_UPSCOPE) {
      if (!scopes.empty()) scopes.pop_back();
    } else if (h->htyp == FST_HT_VAR) {
      FstVar v;
      v.scope = join_scope(scopes);
      split_range(h->u.var.name, v.name, v.lsb);
      v.bits = h->u.var.length;
      v.handle = h->u.var.handle;
      v.port = h->u.var.direction == FST_VD_INPUT || h->u.var.direction == FST_VD_OUTPUT ||
               h->u.var.direction == FST_VD_INOUT;
      vars_.push_back(std::move(v));
    }
  }
}

FstFile::~FstFile() {
  if (ctx_ != nullptr) fstReaderClose(ctx_);
}

void FstFile::for_each_change(const std::vector<uint32_t>& handles, const Change& change) {
  fstReaderClrFacProcessMaskAll(ctx_);
  for (uint32_t h : handles) fstReaderSetFacProcessMask(ctx_, h);
  ChangeSink sink{&change};
  if (!fstReaderIterBlocks(ctx_, on_change, &sink, nullptr))
    throw std::runtime_error(path_ + ": the FST waveform's value changes cannot be read");
}

}  // namespace txgen::power
