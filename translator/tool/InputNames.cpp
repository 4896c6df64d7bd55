#include "tool/InputNames.h"

#include "codegen/FileIdentifier.h"

#include <filesystem>
#include <map>

namespace tilec {

namespace fs = std::filesystem;

namespace {

bool writableInCpp(const std::string &s) {
  for (unsigned char c : s)
    if (c == '"' || c == '\\' || c < 0x20 || c == 0x7f)
      return false;
  return true;
}

} // namespace

std::string checkInputNames(const std::vector<std::string> &inputs, bool lineDirectives) {
  std::map<std::string, std::string> byStem, byIdentifier; // -> the input that has it
  for (const std::string &in : inputs) {
    fs::path p(in);
    std::string stem = p.stem().string();
    if (!writableInCpp(p.filename().string()))
      return "'" + in + "': file names with quotes, backslashes or control characters " +
             "cannot be written into the generated code; rename the file";
    if (lineDirectives && !writableInCpp(fs::absolute(p).string()))
      return "'" + in + "': --line-directives writes the file's path into #line, and this " +
             "path has quotes, backslashes or control characters; move the file or leave " +
             "out --line-directives";
    if (auto [it, fresh] = byStem.emplace(stem, in); !fresh)
      return "'" + it->second + "' and '" + in + "' would both be translated into " + stem +
             ".cu and " + stem + ".tilec.h; translate them into different folders (-o)";
    std::string id = fileIdentifier(stem);
    if (auto [it, fresh] = byIdentifier.emplace(id, in); !fresh)
      return "'" + it->second + "' and '" + in + "' would both declare their launchers in " +
             "namespace tilec_generated::" + id + "; rename one of them";
  }
  return "";
}

} // namespace tilec
