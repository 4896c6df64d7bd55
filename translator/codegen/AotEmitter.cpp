// Ahead-of-time builds (tilec_add_kernels MODE nvcc): a CUDA translation unit that includes
// the generated .cu, instantiates the requested specializations and registers them with the
// runtime, which then launches them without NVRTC.
#include "codegen/Codegen.h"
#include "ir/SpecFacts.h"

#include <algorithm>
#include <sstream>

namespace tilec {

static std::string trim(const std::string &s) {
  size_t b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

std::string parseAotSpec(const std::string &text, AotSpec &out) {
  size_t lt = text.find('<'), gt = text.rfind('>');
  if (lt == std::string::npos || gt == std::string::npos || gt < lt)
    return "expected 'kernel<args>' or 'kernel<args>:num_warps:num_stages', got '" + text + "'";
  out.kernel = trim(text.substr(0, lt));
  int depth = 0;
  std::string cur;
  for (size_t i = lt + 1; i < gt; ++i) {
    char c = text[i];
    if (c == '<' || c == '(')
      depth++;
    if (c == '>' || c == ')')
      depth--;
    if (c == ',' && depth == 0) {
      out.templateArgs.push_back(trim(cur));
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!trim(cur).empty())
    out.templateArgs.push_back(trim(cur));
  std::string rest = trim(text.substr(gt + 1));
  if (!rest.empty()) {
    int w = 0, s = 0;
    if (std::sscanf(rest.c_str(), ":%d:%d", &w, &s) == 2) {
      out.numWarps = w;
      out.numStages = s;
    } else if (std::sscanf(rest.c_str(), ":%d", &w) == 1) {
      out.numWarps = w;
    } else {
      return "bad launch options '" + rest + "' (expected ':num_warps[:num_stages]')";
    }
  }
  if (out.numWarps <= 0 || out.numWarps > 32 || (out.numWarps & (out.numWarps - 1)))
    return "num_warps must be a power of two from 1 to 32";
  return "";
}

std::vector<uint64_t> aotDiv16Masks(const Kernel &k) {
  uint64_t pointers = 0, all = 0;
  for (size_t i = 0; i < k.params.size() && hasDiv16Bit(i); ++i) {
    if (k.params[i].type.pointer)
      pointers |= uint64_t(1) << i;
    if (k.params[i].canCarryDiv16())
      all |= uint64_t(1) << i;
  }
  std::vector<uint64_t> masks = {0};
  if (pointers)
    masks.push_back(pointers);
  if (all != pointers)
    masks.push_back(all);
  // The kernel's other facts (ir/SpecFacts.h) hold in the usual launch too: with all of them,
  // the CUDA of their branches is compiled as well.
  uint64_t facts = 0;
  for (const SpecFact &f : usedSpecFacts(k))
    facts |= uint64_t(1) << f.bit;
  if (facts)
    masks.push_back(all | facts);
  // A tl::dot loop copied per set of unit strides (unit-stride-dot-loops): with every fact the
  // first copy is compiled, so each other copy gets a specialization of its own facts (and
  // the ones the kernel's other branches use that are not arguments' 1s).
  uint64_t others = 0;
  for (const SpecFact &f : usedSpecFacts(k))
    others |= f.param < 0 ? uint64_t(1) << f.bit : 0;
  walk(k, [&](const Op &op) {
    if (op.kind != OpKind::If || op.constexprCond.empty() || op.regions.empty())
      return;
    bool dotLoop = false;
    walkRegion(*op.regions[0], [&](const Op &x) { dotLoop |= x.kind == OpKind::Dot; });
    uint64_t version = all | others | specFactBitsIn(k, op.constexprCond);
    if (dotLoop && std::find(masks.begin(), masks.end(), version) == masks.end())
      masks.push_back(version);
  });
  return masks;
}

std::string checkAotArgs(const Kernel &k, AotSpec &s) {
  // The runtime names a specialization with these spellings (tilec::cuda_type_name): an
  // instance registered under another spelling of the same type would never be found.
  static const std::vector<std::pair<std::string, std::string>> types = {
      {"bool", "bool"},
      {"int8_t", "int8_t"},
      {"uint8_t", "uint8_t"},
      {"int16_t", "int16_t"},
      {"uint16_t", "uint16_t"},
      {"int32_t", "int32_t"},
      {"int", "int32_t"},
      {"uint32_t", "uint32_t"},
      {"unsigned", "uint32_t"},
      {"unsigned int", "uint32_t"},
      {"int64_t", "int64_t"},
      {"long long", "int64_t"},
      {"uint64_t", "uint64_t"},
      {"unsigned long long", "uint64_t"},
      {"float", "float"},
      {"double", "double"},
      {"tl::half", "tl::half"},
      {"__half", "tl::half"},
      {"tl::bfloat16", "tl::bfloat16"},
      {"__nv_bfloat16", "tl::bfloat16"},
      {"tl::float8_e4m3", "tl::float8_e4m3"},
      {"tl::float8_e5m2", "tl::float8_e5m2"},
  };
  for (size_t i = 0; i < s.templateArgs.size() && i < k.templateParams.size(); ++i) {
    std::string &a = s.templateArgs[i];
    const TemplateParam &p = k.templateParams[i];
    const std::string where = "template argument '" + a + "' for " + p.name + ": ";
    if (p.kind == TemplateParam::Kind::Type) {
      auto t = std::find_if(types.begin(), types.end(), [&](auto &e) { return e.first == a; });
      if (t == types.end())
        return where +
               "not an element type; use bool, int8_t ... int64_t, uint8_t ... uint64_t, "
               "float, double, tl::half, tl::bfloat16, tl::float8_e4m3 or tl::float8_e5m2";
      a = t->second;
    } else if (p.kind == TemplateParam::Kind::Bool) {
      if (a != "true" && a != "false")
        return where + "write true or false";
    } else {
      size_t digits = a.size() > 1 && a[0] == '-' ? 1 : 0;
      bool literal = digits < a.size() &&
                     std::all_of(a.begin() + long(digits), a.end(), [](char c) {
                       return c >= '0' && c <= '9';
                     });
      if (!literal)
        return where + "write a decimal integer (the runtime names specializations by value)";
    }
  }
  return "";
}

std::string nameExpression(const Kernel &k, const AotSpec &s, uint64_t div16) {
  std::string n = k.name + "<";
  for (auto &a : s.templateArgs)
    n += a + ", ";
  return n + std::to_string(s.numWarps) + ", " + std::to_string(s.numStages) + ", " +
         std::to_string(div16) + "u>";
}

std::string emitAot(const std::vector<const Kernel *> &kernels, const std::vector<AotSpec> &specs,
                    const EmitOptions &o) {
  std::ostringstream os, reg;
  os << "// " << o.stem << ".aot.cu: ahead-of-time instantiations of " << o.stem
     << ".cu for nvcc, generated by tilec.\n";
  // An fp8 element type given only here, as a template argument, needs the device library's
  // fp8 types (declared on request).
  bool fp8 = false;
  for (const AotSpec &s : specs)
    for (const std::string &a : s.templateArgs)
      fp8 = fp8 || a.find("float8_e") != std::string::npos;
  if (fp8)
    os << "#define TILEC_FP8\n";
  os << "#include \"" << o.stem << ".cu\"\n"
     << "#include <cuda_runtime.h>\n\n"
     << "// From <tilec/runtime.h>, declared here because that header's host element types\n"
     << "// (tl::half, ...) differ from the device library's, which this unit already has.\n"
     << "namespace tilec {\n"
     << "void register_aot_kernel(const char* name_expression, void* (*resolve)());\n"
     << "}\n\n"
     << "namespace {\n\n"
     << "template <class Fn> void* function_of(Fn* kernel) {\n"
     << "  cudaFunction_t f = nullptr;\n"
     << "  return cudaGetFuncBySymbol(&f, reinterpret_cast<const void*>(kernel)) == cudaSuccess\n"
     << "             ? reinterpret_cast<void*>(f)\n"
     << "             : nullptr;\n"
     << "}\n\n";
  int n = 0;
  for (auto &s : specs) {
    const Kernel *k = nullptr;
    for (const Kernel *c : kernels)
      if (c->name == s.kernel)
        k = c;
    if (!k)
      continue;
    for (uint64_t mask : aotDiv16Masks(*k)) {
      std::string name = nameExpression(*k, s, mask);
      os << "void* resolve_" << n << "() { return function_of(&" << name << "); }\n";
      reg << "    tilec::register_aot_kernel(\"" << name << "\", &resolve_" << n << ");\n";
      n++;
    }
  }
  os << "\nstruct Registration {\n  Registration() {\n"
     << reg.str() << "  }\n} registration;\n\n"
     << "} // namespace\n";
  return os.str();
}

} // namespace tilec
