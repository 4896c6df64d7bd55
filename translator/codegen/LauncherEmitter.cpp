// The launcher header: the generated CUDA embedded as a string, and for each kernel a typed
// host function with the kernel's name and template parameters that launches it through
// tilec::Kernel (NVRTC on first use, cached; or an ahead-of-time build when registered).
#include "analysis/AxisInfo.h"
#include "codegen/Codegen.h"
#include "codegen/LauncherNames.h"
#include "ir/ConstexprGuards.h"
#include "ir/PrintedForm.h"
#include "ir/SpecFacts.h"
#include "ir/Words.h"
#include "transforms/PersistentPrograms.h"

#include <map>
#include <set>
#include <sstream>

namespace tilec {

std::string templateKinds(const Kernel &k) {
  std::string s;
  for (auto &tp : k.templateParams)
    s += tp.kind == TemplateParam::Kind::Type   ? 't'
         : tp.kind == TemplateParam::Kind::Bool ? 'b'
                                                : 'i';
  return s;
}

std::vector<TileDim> symbolicTileDims(const Kernel &k) {
  auto onlyTemplateParams = [&](const std::string &text) {
    return allIdentifiers(text, [&](const std::string &word) {
      for (auto &tp : k.templateParams)
        if (tp.name == word && tp.kind == TemplateParam::Kind::Int)
          return true;
      return false;
    });
  };
  std::vector<TileDim> dims;
  std::map<std::string, GuardSet> where;
  walkGuarded(k, [&](const Op &op, const Guard &guard) {
    std::vector<const Value *> values(op.results.begin(), op.results.end());
    values.push_back(op.result);
    for (const Value *v : values)
      if (v && !v->type.shared)
        for (const SymExpr &d : v->type.shape)
          if (!d.isConst() && onlyTemplateParams(d.str())) {
            if (!where.count(d.str()))
              dims.push_back({d.str(), op.loc, ""});
            where[d.str()].add(guard);
          }
  });
  for (TileDim &d : dims)
    d.guard = where[d.text].condition();
  return dims;
}

std::vector<TileShape> symbolicTileShapes(const Kernel &k) {
  std::set<std::string> symbolic;
  for (const TileDim &d : symbolicTileDims(k))
    symbolic.insert(d.text);
  std::vector<TileShape> shapes;
  std::map<std::vector<std::string>, GuardSet> where;
  walkGuarded(k, [&](const Op &op, const Guard &guard) {
    std::vector<const Value *> values(op.results.begin(), op.results.end());
    values.push_back(op.result);
    for (const Value *v : values) {
      if (!v || v->type.shared || v->type.shape.size() < 2)
        continue;
      std::vector<std::string> dims;
      bool checkable = true, anySymbolic = false;
      for (const SymExpr &d : v->type.shape) {
        checkable &= d.isConst() || symbolic.count(d.str()) > 0;
        anySymbolic |= !d.isConst();
        dims.push_back(d.str());
      }
      if (!checkable || !anySymbolic)
        continue;
      if (!where.count(dims))
        shapes.push_back({dims, op.loc, ""});
      where[dims].add(guard);
    }
  });
  for (TileShape &shape : shapes)
    shape.guard = where[shape.dims].condition();
  return shapes;
}

std::string guardedCheck(const std::string &guard, const std::string &check) {
  return guard.empty() ? check : "!(" + guard + ") || " + check;
}

std::string TileShape::joined() const {
  std::string text;
  for (const std::string &d : dims)
    text += (text.empty() ? "" : ", ") + d;
  return text;
}

std::string tileElemsMessage(const Kernel &k, const TileShape &shape) {
  return "kernel '" + k.name + "': a [" + shape.joined() +
         "] tile has more than 2^20 elements in this specialization (the limit, as in Triton); "
         "use smaller blocks and a loop";
}

std::string tileDimMessage(const Kernel &k, const std::string &dim) {
  return "kernel '" + k.name + "': tile dimension '" + dim +
         "' must be a power of two from 1 to 2^20 in every specialization";
}

/// A raw-string delimiter that does not occur in the text.
static std::string delimiterFor(const std::string &text) {
  std::string d = "tilec_cuda";
  while (text.find(")" + d + "\"") != std::string::npos)
    d += "_";
  return d;
}

/// A tma_map operand as the launcher computes it: the argument, or the constant.
static std::string hostExpr(const Kernel &k, const Value *v) {
  if (v->def && v->def->kind == OpKind::Param)
    return k.params[size_t(v->def->attrs[0].value())].name;
  return v->def->attrs[0].str();
}

int tmaMapCount(const Kernel &k) {
  int n = 0;
  walk(k, [&](const Op &op) { n += op.kind == OpKind::TmaMap; });
  return n;
}

std::string tmaMapEncoding(const Kernel &k, const std::string &maps, const std::string &mapsLive,
                           const std::string &indent, bool declareMaps) {
  int n = tmaMapCount(k);
  if (!n)
    return "";
  std::ostringstream os;
  os << indent << "// Tensor maps for the copy engine (TMA); bit i of " << mapsLive
     << " says map i is encoded (else the kernel copies without it)\n";
  if (declareMaps)
    os << indent << "tilec::TmaMap " << maps << "[" << n << "];\n";
  os << indent << "unsigned " << mapsLive << " = 0;\n";
  int i = 0;
  walk(k, [&](const Op &op) {
    if (op.kind != OpKind::TmaMap)
      return;
    std::string base = hostExpr(k, op.operands[0]);
    // A column stride given as an argument: the copy engine reads adjacent columns only.
    std::string unitColumns =
        op.operands.size() > 4 ? hostExpr(k, op.operands[4]) + " == 1 && " : "";
    // A stack of matrices (attrs[2]): a third dimension, `rows * row stride` apart.
    const char *encode = op.attrs.size() > 2 ? "encode_stacked_tma_map" : "encode_tma_map";
    os << indent << "if (" << unitColumns << "tilec::" << encode << "(" << maps << "[" << i << "], "
       << base << ", int(sizeof(*" << base << ")), " << hostExpr(k, op.operands[1]) << ", "
       << hostExpr(k, op.operands[2]) << ", " << hostExpr(k, op.operands[3]) << ", "
       << op.attrs[0].str() << ", " << op.attrs[1].str() << "))\n"
       << indent << "  " << mapsLive << " |= 1u << " << i << ";\n";
    ++i;
  });
  if (hasProducerWarpgroup(k))
    os << indent << "// bit 31: the producer warpgroup may issue the copies\n"
       << indent << "if (tilec::warp_specialization_allowed())\n"
       << indent << "  " << mapsLive << " |= 1u << 31;\n";
  return os.str();
}

std::string specFactTerms(const Kernel &k, const LauncherNames &n, const std::string &grid) {
  std::string out;
  for (const SpecFact &f : usedSpecFacts(k)) {
    const std::string bit = std::to_string(f.bit);
    if (f.param >= 0)
      out += "\n      | tilec::one_fact(" + k.params[size_t(f.param)].name + ", " + bit + ")";
    else if (f.maps)
      out += "\n      | tilec::maps_fact(" + n.mapsLive + ", " + allMapsLive(k) + ", " + bit + ")";
    else
      out += "\n      | tilec::grid_fact(" + grid + "." + "xyz"[f.axis] + ", " + bit + ")";
  }
  return out;
}

std::string allMapsLive(const Kernel &k) {
  std::string all = std::to_string((1u << tmaMapCount(k)) - 1u) + "u";
  return hasProducerWarpgroup(k) ? "(" + all + " | 1u << 31)" : all;
}

bool hasProducerWarpgroup(const Kernel &k) {
  bool found = false;
  walk(k, [&](const Op &op) { found |= op.kind == OpKind::WarpSpecialized; });
  return found;
}

std::string blockThreads(const Kernel &k, const std::string &threads) {
  if (!hasProducerWarpgroup(k))
    return threads;
  // tilec::producer_threads of the device library, spelled out for the host.
  return threads + " + (" + threads + " + 128 <= 1024 ? 128 : 0)";
}

std::string tmaMapArgs(const Kernel &k, const LauncherNames &n) {
  int count = tmaMapCount(k);
  std::string out;
  for (int i = 0; i < count; ++i)
    out += ", (void*)&" + n.maps + "[" + std::to_string(i) + "]";
  if (count)
    out += ", (void*)&" + n.mapsLive;
  if (hasPersistentPrograms(k))
    out += ", (void*)&" + n.programs;
  return out;
}

std::string persistentSetup(const Kernel &k, const LauncherNames &n, const std::string &grid,
                            const std::string &indent) {
  if (!hasPersistentPrograms(k))
    return "";
  // The maps the producer loads from (a store's map may be missing: it then stores as written).
  unsigned mask = 1u << 31;
  walk(k, [&](const Op &op) {
    if (op.kind == OpKind::TmaCopy || op.kind == OpKind::TmaLoad)
      mask |= 1u << op.attrs[0].value();
  });
  const std::string loaded = "(" + std::to_string(mask & ~(1u << 31)) + "u | 1u << 31)";
  std::ostringstream os;
  os << indent << "// Each block runs programs of the grid in turn: when the producer warpgroup loads,\n"
     << indent << "// the launch may start only as many blocks as the GPU holds at once.\n"
     << indent << "int " << n.programs << " = int(" << grid << ".x);\n"
     << indent << "const bool " << n.persistent << " = (" << n.mapsLive << " & " << loaded
     << ") == " << loaded << ";\n";
  return os.str();
}

std::string persistentLaunchArg(const Kernel &k, const LauncherNames &n) {
  return hasPersistentPrograms(k) ? ", " + n.persistent : "";
}

std::string emitLauncher(const std::vector<const Kernel *> &kernels, const std::string &cuda,
                         const EmitOptions &o) {
  std::ostringstream os;
  std::string ns = "tilec_generated::" + o.ns;
  std::string delim = delimiterFor(cuda);
  os << "// " << o.stem << ".tilec.h: typed launchers for the kernels of " << o.inputName
     << ", generated by tilec.\n"
     << "// Edit " << o.inputName << " and translate again rather than editing this file.\n"
     << "#pragma once\n"
     << "#include <tilec/runtime.h>\n\n"
     << "namespace " << ns << " {\n"
     << "inline constexpr tilec::Source source = {\"" << o.stem << ".cu\", R\"" << delim << "("
     << cuda << ")" << delim << "\"};\n"
     << "} // namespace " << ns << "\n";
  for (const Kernel *k : kernels) {
    LauncherNames n(*k);
    os << "\n/// Launches " << k->name << " over `grid` program instances on `stream`.\n";
    if (!k->templateParams.empty()) {
      os << "template <";
      for (size_t i = 0; i < k->templateParams.size(); ++i) {
        const TemplateParam &tp = k->templateParams[i];
        os << (i ? ", " : "") << tp.cppType << " " << tp.name;
        if (!tp.defaultArg.empty())
          os << " = " << tp.defaultArg;
      }
      os << ">\n";
    }
    os << "inline void " << k->name << "(tilec::Grid " << n.grid << ", tilec::Stream " << n.stream;
    for (auto &p : k->params)
      os << ", " << p.type.cudaElem() << " " << p.name;
    os << ",\n    const tilec::LaunchOptions& " << n.options << " = {}) {\n";
    // (Dimensions of tiles under an `if constexpr` are left to the kernel's own check: its
    // conditions may name what only the kernel defines.)
    for (const TileDim &d : symbolicTileDims(*k))
      if (d.guard.empty())
        os << "  static_assert(tilec::valid_tile_dim(" << d.text << "), \"" << k->name
           << ": tile dimension " << d.text << " must be a power of two <= 2^20\");\n";
    // The kernel's own static_asserts, so that a call with values they refuse does not compile
    // (those in an `if constexpr` branch stay the kernel's: they hold in that branch only).
    walkGuarded(*k, [&](const Op &op, const Guard &guard) {
      if (op.kind == OpKind::StaticAssert && guard.empty())
        os << "  static_assert(" << op.attrs[0].str() << ", " << quoted(k->name + ": " + op.opcode)
           << ");\n";
    });
    os << "  static tilec::Kernel " << n.kernel << "(" << ns << "::source, \"" << k->name
       << "\", \"" << templateKinds(*k) << "\");\n";
    os << "  tilec::SpecKey " << n.key << ";\n";
    for (auto &tp : k->templateParams) {
      if (tp.kind == TemplateParam::Kind::Type)
        os << "  " << n.key << ".push(tilec::type_id<" << tp.name << ">());\n";
      else
        os << "  " << n.key << ".push(int64_t(" << tp.name << "));\n";
    }
    os << "  " << n.key << ".push(" << n.options << ".num_warps);\n  " << n.key << ".push("
       << n.options << ".num_stages);\n";
    os << tmaMapEncoding(*k, n.maps, n.mapsLive, "  ");
    os << "  " << n.key << ".push(tilec::div16_mask(";
    for (size_t i = 0; i < k->params.size() && hasDiv16Bit(i); ++i)
      os << (i ? ", " : "") << k->params[i].name;
    os << ")" << specFactTerms(*k, n, n.grid) << ");\n";
    os << persistentSetup(*k, n, n.grid, "  ");
    os << "  void* " << n.params << "[] = {";
    for (size_t i = 0; i < k->params.size(); ++i)
      os << (i ? ", " : "") << "(void*)&" << k->params[i].name;
    if (k->params.empty())
      os << "nullptr";
    os << tmaMapArgs(*k, n) << "};\n";
    std::string dyn = dynamicSmemBytes(*k, n.options + ".num_stages");
    std::string launch =
        "  " + n.kernel + ".launch(" + n.key + ", " + n.grid + ", " +
        blockThreads(*k, n.options + ".num_warps * " + std::to_string(o.target.warpSize)) + ", ";
    if (dyn.empty()) {
      os << launch << "/*shared_bytes=*/0, " << n.stream << ", " << n.params
         << persistentLaunchArg(*k, n) << ");\n";
    } else {
      os << "  // the stage buffers of its pipelined loops\n";
      os << "  const size_t " << n.sharedBytes << " = size_t(" << dyn << ");\n";
      os << launch << n.sharedBytes << ", " << n.stream << ", " << n.params
         << persistentLaunchArg(*k, n) << ");\n";
    }
    os << "}\n";
  }
  return os.str();
}

} // namespace tilec
