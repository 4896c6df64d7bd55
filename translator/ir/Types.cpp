#include "ir/Types.h"

namespace tilec {

bool ElemType::isFloat() const {
  if (form == Form::Promote)
    return lhs->isFloat() || rhs->isFloat();
  return isKnown() && (kind == ScalarKind::F16 || kind == ScalarKind::BF16 ||
                       kind == ScalarKind::F32 || kind == ScalarKind::F64 || isFp8());
}

bool ElemType::isFp8() const {
  return isKnown() && (kind == ScalarKind::F8E4M3 || kind == ScalarKind::F8E5M2);
}

bool ElemType::isInteger() const { return isKnown() && !isFloat() && kind != ScalarKind::Bool; }

bool ElemType::isSigned() const {
  switch (kind) {
  case ScalarKind::I8:
  case ScalarKind::I16:
  case ScalarKind::I32:
  case ScalarKind::I64:
    return isKnown();
  default:
    return false;
  }
}

int ElemType::bits() const {
  if (!isKnown())
    return 0;
  switch (kind) {
  case ScalarKind::Bool:
  case ScalarKind::I8:
  case ScalarKind::U8:
  case ScalarKind::F8E4M3:
  case ScalarKind::F8E5M2:
    return 8;
  case ScalarKind::I16:
  case ScalarKind::U16:
  case ScalarKind::F16:
  case ScalarKind::BF16:
    return 16;
  case ScalarKind::I32:
  case ScalarKind::U32:
  case ScalarKind::F32:
    return 32;
  case ScalarKind::I64:
  case ScalarKind::U64:
  case ScalarKind::F64:
    return 64;
  }
  return 0;
}

std::string ElemType::cuda() const {
  switch (form) {
  case Form::Param:
    return param;
  case Form::Promote:
    return "tilec::promote_t<" + lhs->cuda() + ", " + rhs->cuda() + ">";
  case Form::Known:
    break;
  }
  switch (kind) {
  case ScalarKind::Bool:
    return "bool";
  case ScalarKind::I8:
    return "int8_t";
  case ScalarKind::U8:
    return "uint8_t";
  case ScalarKind::I16:
    return "int16_t";
  case ScalarKind::U16:
    return "uint16_t";
  case ScalarKind::I32:
    return "int";
  case ScalarKind::U32:
    return "unsigned";
  case ScalarKind::I64:
    return "int64_t";
  case ScalarKind::U64:
    return "uint64_t";
  case ScalarKind::F16:
    return "tl::half";
  case ScalarKind::BF16:
    return "tl::bfloat16";
  case ScalarKind::F8E4M3:
    return "tl::float8_e4m3";
  case ScalarKind::F8E5M2:
    return "tl::float8_e5m2";
  case ScalarKind::F32:
    return "float";
  case ScalarKind::F64:
    return "double";
  }
  return "?";
}

std::string ElemType::sizeofExpr() const {
  int b = bits();
  return b ? std::to_string(b / 8) : "sizeof(" + cuda() + ")";
}

static ElemType promoteWithParam(const ElemType &a, const ElemType &b) {
  if (a == b)
    return a;
  // Promotion is a join: promoting with a type already in a promotion changes nothing
  // (promote_t<promote_t<T, float>, T> is promote_t<T, float>).
  auto absorbs = [](const ElemType &p, const ElemType &t) {
    return p.form == ElemType::Form::Promote && (*p.lhs == t || *p.rhs == t);
  };
  if (absorbs(a, b))
    return a;
  if (absorbs(b, a))
    return b;
  ElemType t;
  t.form = ElemType::Form::Promote;
  t.lhs = std::make_shared<ElemType>(a);
  t.rhs = std::make_shared<ElemType>(b);
  return t;
}

// Rank of the floating types for promotion: bf16 and f16 together give f32.
static int floatRank(ScalarKind k) {
  switch (k) {
  case ScalarKind::F16:
  case ScalarKind::BF16:
    return 1;
  case ScalarKind::F32:
    return 2;
  case ScalarKind::F64:
    return 3;
  default:
    return 0;
  }
}

ElemType promoteTiles(const ElemType &a, const ElemType &b) {
  if (!a.isKnown() || !b.isKnown())
    return promoteWithParam(a, b);
  // fp8 computes in float, even with itself (double wins below).
  if (a.isFp8() || b.isFp8())
    return promoteTiles(arithmeticType(a), arithmeticType(b));
  if (a.kind == b.kind)
    return a;
  if (a.isFloat() || b.isFloat()) {
    // bfloat16 with an integer computes in float (Triton).
    if ((a.is(ScalarKind::BF16) && !b.isFloat()) || (b.is(ScalarKind::BF16) && !a.isFloat()))
      return ElemType::known(ScalarKind::F32);
    if (!b.isFloat())
      return a;
    if (!a.isFloat())
      return b;
    int ra = floatRank(a.kind), rb = floatRank(b.kind);
    if (ra == rb) // f16 with bf16
      return ElemType::known(ScalarKind::F32);
    return ra > rb ? a : b;
  }
  if (a.kind == ScalarKind::Bool)
    return b;
  if (b.kind == ScalarKind::Bool)
    return a;
  if (a.bits() != b.bits())
    return a.bits() > b.bits() ? a : b;
  return a.isSigned() ? b : a; // same width: unsigned wins
}

/// A type that depends on template parameters, resolved by the device library (`fn<t>`).
static ElemType dependent(const std::string &fn, const ElemType &t) {
  return ElemType::typeParam("tilec::" + fn + "<" + t.cuda() + ">");
}

ElemType divType(const ElemType &t) {
  if (t.isKnown())
    return t.is(ScalarKind::F16) || t.is(ScalarKind::BF16) ? ElemType::known(ScalarKind::F32) : t;
  // A promotion with float or double is never 16-bit; the others may be.
  return t.isFloat() ? t : dependent("quotient_t", t);
}

ElemType promoteScalars(const ElemType &a, const ElemType &b) {
  if (!a.isKnown() || !b.isKnown()) {
    // C++ widens a narrow scalar before it computes (half * half is float, int8 + int8 is int,
    // in the interpreter too): unless the other operand is a float or double, which wins
    // over any narrow type anyway, a parameter's type is widened where it is known.
    auto wide = [](const ElemType &o) { return o.is(ScalarKind::F32) || o.is(ScalarKind::F64); };
    auto widenDep = [](const ElemType &t) {
      if (t.isKnown())
        return t.bits() < 32 ? promoteScalars(t, t) : t;
      const bool widened = t.form == ElemType::Form::Param && t.param.rfind("tilec::widen_t<", 0) == 0;
      return t.isFloat() || widened ? t : dependent("widen_t", t);
    };
    if (wide(a) || wide(b))
      return promoteWithParam(a, b);
    return promoteWithParam(widenDep(a), widenDep(b));
  }
  // C++: integers narrower than int become int first.
  auto widen = [](ElemType t) {
    if (t.isInteger() || t.kind == ScalarKind::Bool)
      if (t.bits() < 32)
        return ElemType::known(ScalarKind::I32);
    if (t.kind == ScalarKind::F16 || t.kind == ScalarKind::BF16 || t.isFp8())
      return ElemType::known(ScalarKind::F32);
    return t;
  };
  return promoteTiles(widen(a), widen(b));
}

ElemType promoteTileScalar(const ElemType &tile, const ElemType &scalar) {
  if (tile.isFp8())
    return arithmeticType(tile); // a fp8 tile computes in float, whatever the scalar
  if (tile.isKnown() && scalar.isKnown()) {
    if (!tile.isFloat() && scalar.isFloat())
      return arithmeticType(scalar); // int tile * 0.5f -> float tile, as in Triton
    if (tile.is(ScalarKind::Bool) && scalar.isInteger())
      return scalar; // bool tile + 1 -> int32, + 1u -> uint32, + int64_t(1) -> int64
    if (tile.isInteger() && scalar.isInteger() && scalar.bits() == 64 && tile.bits() < 64)
      return promoteTiles(tile, scalar); // int32 offsets + an int64 scalar -> int64 tile
    return tile;
  }
  return tile;
}

bool tileScalarRuleDependent(const ElemType &tile, const ElemType &scalar) {
  if (tile.isKnown() && scalar.isKnown())
    return false;
  // Whether some instantiation could leave the tile's type: a float tile keeps it whatever the
  // scalar (its kind is the highest), a bool scalar whatever the tile.
  const bool tileMayBeNonFloat = !tile.isFloat();
  const bool scalarMayWiden = !scalar.isKnown() || !scalar.is(ScalarKind::Bool);
  return tileMayBeNonFloat && scalarMayWiden && !(tile == scalar);
}

ElemType arithmeticType(const ElemType &t) {
  return t.isFp8() ? ElemType::known(ScalarKind::F32) : t;
}

std::string Type::shapeStr() const {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? ", " : "") + shape[i].str();
  return s + "]";
}

std::string Type::cudaElem() const {
  if (!pointer)
    return elem.cuda();
  return (pointeeConst ? "const " : "") + elem.cuda() + "*";
}

std::string Type::str() const {
  if (isScalar())
    return cudaElem();
  std::string s = (shared ? "smem<" : "tile<") + cudaElem();
  for (auto &d : shape)
    s += ", " + d.str();
  return s + ">";
}

std::string Type::cudaConstScalar() const {
  return pointer ? cudaElem() + " const" : "const " + cudaElem();
}

bool sameShape(const std::vector<SymExpr> &a, const std::vector<SymExpr> &b) {
  if (a.size() != b.size())
    return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (!a[i].sameAs(b[i]))
      return false;
  return true;
}

} // namespace tilec
