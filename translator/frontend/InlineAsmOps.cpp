// tl::inline_asm_elementwise -> tile IR: PTX run once per element.
//
//   tl::inline_asm_elementwise<float>("tanh.approx.f32 $0, $1;", "=f,f", x)
//       %7 = inline_asm "tanh.approx.f32 $0, $1;" constraints(=f,f) %6:x : tile<float, B>
//   tl::inline_asm_elementwise<unsigned, false>("mov.u32 $0, %smid;", "=r")
//       %8 = inline_asm "mov.u32 $0, %smid;" constraints(=r) impure : unsigned
//
// The asm and constraints are Triton's; they are checked here against the arguments (one
// result register, one register per argument, of the values' sizes, $N naming operands that
// exist). A last argument tl::host_fallback(f) is the interpreter's and is not lowered.
#include "frontend/Lowerer.h"

#include <algorithm>
#include <tuple>

namespace tilec {

using namespace clang;

namespace {

/// The string literal an argument is, through the conversion to the interpreter's asm_text.
const StringLiteral *stringLiteralIn(const Expr *e) {
  e = skipTemporaries(e->IgnoreImplicit())->IgnoreImplicit();
  if (auto *ce = dyn_cast<CXXConstructExpr>(e); ce && ce->getNumArgs() >= 1)
    e = skipTemporaries(ce->getArg(0)->IgnoreImplicit())->IgnoreImplicit();
  auto *s = dyn_cast<StringLiteral>(e);
  return s && s->isOrdinary() ? s : nullptr;
}

/// Bits of the register a constraint letter names; 0 for a letter that names none.
int registerBits(char letter) {
  switch (letter) {
  case 'h':
    return 16;
  case 'r':
  case 'f':
    return 32;
  case 'l':
  case 'd':
    return 64;
  default:
    return 0;
  }
}

/// The register letters of Triton's constraints ("=r,r,r" -> r r r), the result's first;
/// an error message when they are not one result and then inputs, each one known letter.
std::string parseConstraints(const std::string &text, std::vector<char> &letters) {
  std::vector<std::string> items;
  size_t start = 0;
  for (size_t i = 0; i <= text.size(); ++i)
    if (i == text.size() || text[i] == ',') {
      std::string item = text.substr(start, i - start);
      item.erase(0, item.find_first_not_of(' '));
      item.erase(item.find_last_not_of(' ') + 1);
      items.push_back(item);
      start = i + 1;
    }
  for (size_t k = 0; k < items.size(); ++k) {
    const std::string &item = items[k];
    bool output = !item.empty() && item[0] == '=';
    if (output != (k == 0))
      return k == 0 ? "the constraints must start with the result's register (\"=r\", \"=f\", "
                      "...): tl::inline_asm_elementwise returns one value"
                    : "constraint '" + item +
                          "' is a second result; tl::inline_asm_elementwise "
                          "returns one value";
    std::string letter = output ? item.substr(1) : item;
    if (letter.size() != 1 || !registerBits(letter[0]))
      return "constraint '" + item +
             "' names no register: use h (16 bits), r (32 bits), l "
             "(64 bits), f (float) or d (double)";
    letters.push_back(letter[0]);
  }
  return "";
}

/// An error message when `text` names an operand that does not exist or has a lone '$';
/// `operands` counts the result and the arguments.
std::string checkOperandRefs(const std::string &text, size_t operands) {
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 1 < text.size() && isdigit((unsigned char)text[i + 1]))
      return "the asm names operands as Triton does, $0 (the result), $1, ...; '%" +
             std::string(1, text[i + 1]) + "' would be a PTX name";
    if (text[i] != '$')
      continue;
    if (i + 1 < text.size() && text[i + 1] == '$') {
      ++i;
      continue;
    }
    size_t j = i + 1;
    while (j < text.size() && isdigit((unsigned char)text[j]))
      ++j;
    if (j == i + 1)
      return "a '$' in the asm names an operand ($0 the result, $1, $2, ... the arguments) or "
             "is written $$";
    size_t n = 0;
    for (size_t d = i + 1; d < j; ++d)
      n = std::min<size_t>(n * 10 + size_t(text[d] - '0'), size_t(1) << 20); // no overflow
    if (n >= operands)
      return "the asm names $" + text.substr(i + 1, j - i - 1) + ", but there are only " +
             std::to_string(operands) + " operand" + (operands > 1 ? "s" : "") + " ($0 the result" +
             (operands > 2   ? ", $1 to $" + std::to_string(operands - 1) + " the arguments)"
              : operands > 1 ? ", $1 the argument)"
                             : ", no arguments)");
    i = j - 1;
  }
  return "";
}

std::string sizeProblem(const ElemType &t, char letter, bool result) {
  int bits = t.bits();
  if (!bits || bits == registerBits(letter))
    return "";
  return std::string(result ? "the result type " : "") + t.cuda() + " (" + std::to_string(bits) +
         " bits) does not fit its constraint '" + (result ? "=" : "") + letter + "', a " +
         std::to_string(registerBits(letter)) +
         "-bit register: use a constraint of its size (h 16, r or f 32, l or d 64 bits)" +
         (result ? "" : " or cast it (tl::cast)");
}

} // namespace

bool Lowerer::isHostFallback(const Expr *e) {
  auto *call = dyn_cast<CallExpr>(skipTemporaries(e->IgnoreImplicit()));
  if (!call)
    return false;
  Callee c = resolveCallee(call->getCallee());
  return c.inTl && c.name == "host_fallback";
}

Value *Lowerer::lowerInlineAsm(const CallExpr *call, const Callee &c) {
  const std::string spelled = "tl::inline_asm_elementwise";
  if (c.templateArgs.empty() || c.templateArgs.size() > 3) {
    error(call, spelled +
                    " takes the result type (Triton's dtype), then optionally is_pure and "
                    "pack, as template arguments: " +
                    spelled + "<float>(\"...\", \"=f,f\", x)");
    return nullptr;
  }
  auto dtype = templateArgType(c.templateArgs[0]);
  if (!dtype)
    return nullptr;
  bool pure = true;
  if (c.templateArgs.size() >= 2) {
    auto p = templateArgSym(c.templateArgs[1]);
    if (!p)
      return nullptr;
    if (!p->isConst()) {
      error(c.templateArgs[1].getLocation(), "is_pure of " + spelled + " must be true or false");
      return nullptr;
    }
    pure = p->value() != 0;
  }
  if (c.templateArgs.size() == 3) {
    auto pack = templateArgSym(c.templateArgs[2]);
    if (!pack)
      return nullptr;
    if (!pack->isConst(1)) {
      error(c.templateArgs[2].getLocation(),
            spelled + " runs its asm on one element at a time (pack = 1); write the asm for "
                      "one element, or pack elements yourself (tl::join, tl::bitcast)");
      return nullptr;
    }
  }
  unsigned nargs = givenArgs(call);
  if (nargs > 2 && isHostFallback(call->getArg(nargs - 1)))
    --nargs; // the interpreter's stand-in for the asm
  if (nargs < 2) {
    error(call, spelled + " takes the asm, the constraints and then the arguments");
    return nullptr;
  }
  const StringLiteral *text = stringLiteralIn(call->getArg(0));
  const StringLiteral *constraints = stringLiteralIn(call->getArg(1));
  for (auto [lit, e, what] : {std::tuple{text, call->getArg(0), "asm"},
                              std::tuple{constraints, call->getArg(1), "constraints"}})
    if (!lit) {
      error(e, spelled + " needs its " + what + " as a string literal");
      return nullptr;
    }
  std::vector<char> letters;
  if (std::string why = parseConstraints(constraints->getString().str(), letters); !why.empty()) {
    error(call->getArg(1), why);
    return nullptr;
  }
  size_t given = nargs - 2;
  if (letters.size() - 1 != given) {
    error(call->getArg(1), "the constraints \"" + constraints->getString().str() + "\" give " +
                               std::to_string(letters.size() - 1) + " argument register" +
                               (letters.size() == 2 ? "" : "s") + ", but " + spelled + " has " +
                               std::to_string(given) + " argument" + (given == 1 ? "" : "s") +
                               ": one register per argument, after the result's");
    return nullptr;
  }
  if (std::string why = checkOperandRefs(text->getString().str(), letters.size()); !why.empty()) {
    error(call->getArg(0), why);
    return nullptr;
  }
  if (std::string why = sizeProblem(*dtype, letters[0], true); !why.empty()) {
    error(call->getArg(1), why);
    return nullptr;
  }
  // The arguments, broadcast together: the result has their shape.
  std::vector<Value *> args;
  std::vector<SymExpr> shape;
  bool tile = false;
  for (unsigned k = 2; k < nargs; ++k) {
    const Expr *e = call->getArg(k);
    Value *v = lowerExpr(e);
    if (!v)
      return nullptr;
    if (v->type.pointer || v->type.shared) {
      error(e, spelled + " takes numbers (tiles or scalars), not " + v->type.str());
      return nullptr;
    }
    if (std::string why = sizeProblem(v->type.elem, letters[k - 1], false); !why.empty()) {
      error(e, why);
      return nullptr;
    }
    args.push_back(v);
    if (!v->type.isTile())
      continue;
    if (!tile) {
      shape = v->type.shape;
      tile = true;
      continue;
    }
    auto a = shape, b = v->type.shape;
    while (a.size() < b.size())
      a.insert(a.begin(), SymExpr(1));
    while (b.size() < a.size())
      b.insert(b.begin(), SymExpr(1));
    for (size_t d = 0; d < a.size(); ++d) {
      if (b[d].isConst(1) || a[d].sameAs(b[d]))
        continue;
      if (!a[d].isConst(1)) {
        error(e, "the arguments of " + spelled + " do not broadcast together: " +
                     Type{v->type.elem, false, false, shape}.shapeStr() + " and " +
                     v->type.shapeStr());
        return nullptr;
      }
      a[d] = b[d];
    }
    shape = a;
  }
  for (unsigned k = 0; k < args.size(); ++k)
    if (args[k]->type.isTile() && !sameShape(args[k]->type.shape, shape)) {
      args[k] = broadcastTo(args[k], shape, call->getArg(k + 2));
      if (!args[k])
        return nullptr;
    }
  Op *op = emit(OpKind::InlineAsm, args, Type{*dtype, false, false, shape}, call);
  op->opcode = text->getString().str();
  std::string regs = std::string("=") + letters[0];
  for (size_t k = 1; k < letters.size(); ++k)
    regs += std::string(",") + letters[k];
  op->asmConstraints = regs; // without spaces
  op->asmImpure = !pure;
  return op->result;
}

} // namespace tilec
