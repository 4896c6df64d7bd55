// Element types and tile types of the tile IR.
//
// An element type is either a known scalar kind or a template type parameter of the kernel
// (`T`), or the promotion of two types one of which is a parameter; those print as C++ that
// the device library resolves when the specialization is compiled (`tilec::promote_t<T, float>`).
#pragma once

#include "ir/SymExpr.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tilec {

// F8E4M3 and F8E5M2 are the fp8 storage types: arithmetic converts them to float first.
enum class ScalarKind {
  Bool,
  I8,
  U8,
  I16,
  U16,
  I32,
  U32,
  I64,
  U64,
  F16,
  BF16,
  F32,
  F64,
  F8E4M3,
  F8E5M2
};

struct ElemType {
  enum class Form { Known, Param, Promote };
  Form form = Form::Known;
  ScalarKind kind = ScalarKind::I32;
  std::string param;                  // Param: the template parameter's name
  std::shared_ptr<ElemType> lhs, rhs; // Promote: operands

  static ElemType known(ScalarKind k) {
    ElemType t;
    t.kind = k;
    return t;
  }
  static ElemType typeParam(std::string name) {
    ElemType t;
    t.form = Form::Param;
    t.param = std::move(name);
    return t;
  }
  bool isKnown() const { return form == Form::Known; }
  bool is(ScalarKind k) const { return isKnown() && kind == k; }
  bool isFloat() const; // false for unknown (parameter) types
  bool isFp8() const;   // float8_e4m3 or float8_e5m2
  bool isInteger() const;
  bool isSigned() const;
  int bits() const;               // 0 when unknown
  std::string cuda() const;       // the C++/CUDA spelling
  std::string sizeofExpr() const; // "4" or "sizeof(T)"
  bool operator==(const ElemType &o) const { return cuda() == o.cuda(); }
};

/// Triton's promotion of two tile element types (both tiles).
ElemType promoteTiles(const ElemType &a, const ElemType &b);
/// C++'s usual arithmetic conversions for two scalars.
ElemType promoteScalars(const ElemType &a, const ElemType &b);
/// A tile combined with a scalar: the tile's type, except an int tile with a float scalar, a
/// bool tile with an integer, and a narrower int tile with a 64-bit integer (rule 0 of
/// tl/promotion.h). With a template parameter on either side, the tile's type.
ElemType promoteTileScalar(const ElemType &tile, const ElemType &scalar);
/// The type `/` and `%` of tiles of type t compute in: float for half and bfloat16;
/// `tilec::quotient_t<T>` where t depends on a template parameter that may be one of them.
ElemType divType(const ElemType &t);
/// Whether promoteTileScalar's answer for these types depends on how a template parameter is
/// instantiated (a T tile with a float scalar is float when T is an integer type); the kernel
/// then asserts that its instantiation keeps the tile's type (tilec::scalar_keeps_tile_type).
bool tileScalarRuleDependent(const ElemType &tile, const ElemType &scalar);
/// The type a value of type t computes in: float for fp8 (a storage type), else t.
ElemType arithmeticType(const ElemType &t);

struct Type {
  ElemType elem;
  bool pointer = false;       // a pointer to `elem`
  bool pointeeConst = false;  // `const T*`
  std::vector<SymExpr> shape; // empty for scalars
  bool shared = false;        // a tile held in shared memory (local_alloc), for tl::dot

  /// A scalar of a known element type.
  static Type scalarOf(ScalarKind kind) {
    Type t;
    t.elem = ElemType::known(kind);
    return t;
  }
  bool isTile() const { return !shape.empty(); }
  bool isScalar() const { return shape.empty(); }
  std::string shapeStr() const; // "[BLOCK]"
  std::string str() const;      // "tile<float*, BLOCK>", "int32", ...
  /// The CUDA spelling of one element: "float", "const float*".
  std::string cudaElem() const;
  /// The CUDA type of a scalar that is never reassigned: "const float", "const float* const"
  /// (the pointer is const, not what it points to: stores may go through it).
  std::string cudaConstScalar() const;
};

bool sameShape(const std::vector<SymExpr> &a, const std::vector<SymExpr> &b);

} // namespace tilec
