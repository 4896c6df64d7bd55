// Element types and Triton's promotion rules (SPEC.md section 2).
#include "ir/Types.h"

#include <gtest/gtest.h>

namespace tilec {
namespace {

ElemType k(ScalarKind s) { return ElemType::known(s); }
using S = ScalarKind;

TEST(ElemType, Spellings) {
  EXPECT_EQ(k(S::I32).cuda(), "int");
  EXPECT_EQ(k(S::U32).cuda(), "unsigned");
  EXPECT_EQ(k(S::I64).cuda(), "int64_t");
  EXPECT_EQ(k(S::F16).cuda(), "tl::half");
  EXPECT_EQ(k(S::BF16).cuda(), "tl::bfloat16");
  EXPECT_EQ(ElemType::typeParam("T").cuda(), "T");
  EXPECT_EQ(k(S::F16).sizeofExpr(), "2");
  EXPECT_EQ(k(S::F64).sizeofExpr(), "8");
  EXPECT_EQ(ElemType::typeParam("T").sizeofExpr(), "sizeof(T)");
}

TEST(ElemType, Classification) {
  EXPECT_TRUE(k(S::BF16).isFloat());
  EXPECT_FALSE(k(S::Bool).isInteger());
  EXPECT_TRUE(k(S::U8).isInteger());
  EXPECT_TRUE(k(S::I16).isSigned());
  EXPECT_FALSE(k(S::U64).isSigned());
  EXPECT_FALSE(k(S::F32).isInteger());
  // A type parameter is neither until specialized.
  EXPECT_FALSE(ElemType::typeParam("T").isFloat());
  EXPECT_FALSE(ElemType::typeParam("T").isInteger());
  EXPECT_EQ(ElemType::typeParam("T").bits(), 0);
}

TEST(Promotion, TilesFloatWins) {
  EXPECT_EQ(promoteTiles(k(S::I32), k(S::F16)), k(S::F16));
  EXPECT_EQ(promoteTiles(k(S::F16), k(S::F32)), k(S::F32));
  EXPECT_EQ(promoteTiles(k(S::F64), k(S::F32)), k(S::F64));
  // fp16 with bf16: neither holds the other.
  EXPECT_EQ(promoteTiles(k(S::F16), k(S::BF16)), k(S::F32));
  EXPECT_EQ(promoteTiles(k(S::BF16), k(S::BF16)), k(S::BF16));
}

TEST(Promotion, TilesIntegers) {
  EXPECT_EQ(promoteTiles(k(S::I8), k(S::I32)), k(S::I32));
  EXPECT_EQ(promoteTiles(k(S::U8), k(S::I16)), k(S::I16));
  // Same width: unsigned wins.
  EXPECT_EQ(promoteTiles(k(S::I32), k(S::U32)), k(S::U32));
  EXPECT_EQ(promoteTiles(k(S::U64), k(S::I64)), k(S::U64));
  // bool gives way to anything.
  EXPECT_EQ(promoteTiles(k(S::Bool), k(S::I8)), k(S::I8));
  EXPECT_EQ(promoteTiles(k(S::U16), k(S::Bool)), k(S::U16));
}

TEST(Promotion, TilesWithTypeParameterDeferToDevice) {
  ElemType t = promoteTiles(ElemType::typeParam("T"), k(S::F32));
  EXPECT_EQ(t.form, ElemType::Form::Promote);
  EXPECT_EQ(t.cuda(), "tilec::promote_t<T, float>");
  EXPECT_TRUE(t.isFloat()); // one side is float, so the result is
  EXPECT_EQ(promoteTiles(ElemType::typeParam("T"), ElemType::typeParam("T")).cuda(), "T");
}

TEST(Promotion, ScalarsFollowCpp) {
  // Integral promotion first: narrow integers become int.
  EXPECT_EQ(promoteScalars(k(S::I8), k(S::I8)), k(S::I32));
  EXPECT_EQ(promoteScalars(k(S::U8), k(S::I16)), k(S::I32));
  EXPECT_EQ(promoteScalars(k(S::Bool), k(S::Bool)), k(S::I32));
  EXPECT_EQ(promoteScalars(k(S::I32), k(S::U32)), k(S::U32));
  EXPECT_EQ(promoteScalars(k(S::I64), k(S::U32)), k(S::I64));
  EXPECT_EQ(promoteScalars(k(S::I32), k(S::F32)), k(S::F32));
  EXPECT_EQ(promoteScalars(k(S::F32), k(S::F64)), k(S::F64));
}

TEST(Promotion, ScalarDoesNotWidenTile) {
  EXPECT_EQ(promoteTileScalar(k(S::F16), k(S::F32)), k(S::F16));
  EXPECT_EQ(promoteTileScalar(k(S::BF16), k(S::F64)), k(S::BF16));
  EXPECT_EQ(promoteTileScalar(k(S::I8), k(S::I32)), k(S::I8));
  EXPECT_EQ(promoteTileScalar(k(S::F32), k(S::I64)), k(S::F32));
  // Except an integer tile with a floating scalar, which takes the scalar's type (as in
  // Triton), and a bool tile with an integer, which takes the integer's type (as the
  // interpreter does).
  EXPECT_EQ(promoteTileScalar(k(S::I32), k(S::F32)), k(S::F32));
  EXPECT_EQ(promoteTileScalar(k(S::U8), k(S::F64)), k(S::F64));
  EXPECT_EQ(promoteTileScalar(k(S::Bool), k(S::I32)), k(S::I32));
  EXPECT_EQ(promoteTileScalar(k(S::Bool), k(S::U8)), k(S::U8));
  EXPECT_EQ(promoteTileScalar(k(S::Bool), k(S::I64)), k(S::I64));
  EXPECT_EQ(promoteTileScalar(ElemType::typeParam("T"), k(S::F32)).cuda(), "T");
  // And a 64-bit integer with a narrower integer tile: offsets built on an int64 program id
  // or argument must not wrap at 2^31 (Triton weakens only literals, which are int here).
  EXPECT_EQ(promoteTileScalar(k(S::I32), k(S::I64)), k(S::I64));
  EXPECT_EQ(promoteTileScalar(k(S::I8), k(S::I64)), k(S::I64));
  EXPECT_EQ(promoteTileScalar(k(S::I32), k(S::U64)), k(S::U64));
  EXPECT_EQ(promoteTileScalar(k(S::U32), k(S::I64)), k(S::I64));
  EXPECT_EQ(promoteTileScalar(k(S::I64), k(S::I32)), k(S::I64));
  EXPECT_EQ(promoteTileScalar(k(S::U64), k(S::I64)), k(S::U64));
}

// `/` of tiles: 16-bit floats compute in float; a parameter's type is resolved on the device.
TEST(Promotion, DivisionType) {
  EXPECT_EQ(divType(k(S::F16)), k(S::F32));
  EXPECT_EQ(divType(k(S::BF16)), k(S::F32));
  EXPECT_EQ(divType(k(S::I8)), k(S::I8));
  EXPECT_EQ(divType(ElemType::typeParam("T")).cuda(), "tilec::quotient_t<T>");
  EXPECT_EQ(divType(promoteTiles(ElemType::typeParam("T"), k(S::F32))).cuda(),
            "tilec::promote_t<T, float>");
  // Scalars of a parameter's type widen as C++'s do, unless float or double wins anyway.
  const ElemType T = ElemType::typeParam("T");
  EXPECT_EQ(promoteScalars(T, T).cuda(), "tilec::widen_t<T>");
  EXPECT_EQ(promoteScalars(promoteScalars(T, T), T).cuda(), "tilec::widen_t<T>");
  EXPECT_EQ(promoteScalars(T, k(S::F32)).cuda(), "tilec::promote_t<T, float>");
  EXPECT_EQ(promoteScalars(T, k(S::I8)).cuda(), "tilec::promote_t<tilec::widen_t<T>, int>");
}

// With a template parameter the rule depends on the instantiation unless the tile is floating
// or the scalar is bool: the kernel asserts the tile's type then (tileWithScalar).
TEST(Promotion, TileScalarRuleDependence) {
  const ElemType T = ElemType::typeParam("T");
  EXPECT_TRUE(tileScalarRuleDependent(T, k(S::F32)));
  EXPECT_TRUE(tileScalarRuleDependent(T, k(S::I32))); // a bool T becomes int
  EXPECT_TRUE(tileScalarRuleDependent(k(S::I32), T));
  EXPECT_FALSE(tileScalarRuleDependent(T, T));
  EXPECT_FALSE(tileScalarRuleDependent(T, k(S::Bool)));
  EXPECT_FALSE(tileScalarRuleDependent(k(S::F16), T));
  EXPECT_FALSE(tileScalarRuleDependent(promoteTiles(T, k(S::F32)), k(S::F64)));
  EXPECT_FALSE(tileScalarRuleDependent(k(S::I32), k(S::F32)));
}

// fp8 is a storage type: it computes in float, with anything but double (itself included).
TEST(Promotion, Fp8ComputesInFloat) {
  EXPECT_EQ(k(S::F8E4M3).cuda(), "tl::float8_e4m3");
  EXPECT_EQ(k(S::F8E5M2).cuda(), "tl::float8_e5m2");
  EXPECT_EQ(k(S::F8E5M2).sizeofExpr(), "1");
  EXPECT_TRUE(k(S::F8E4M3).isFloat() && k(S::F8E4M3).isFp8());
  EXPECT_FALSE(k(S::F8E4M3).isInteger() || k(S::F16).isFp8() || k(S::U8).isFp8());
  EXPECT_EQ(promoteTiles(k(S::F8E4M3), k(S::F8E4M3)), k(S::F32));
  EXPECT_EQ(promoteTiles(k(S::F8E4M3), k(S::F8E5M2)), k(S::F32));
  EXPECT_EQ(promoteTiles(k(S::F16), k(S::F8E5M2)), k(S::F32));
  EXPECT_EQ(promoteTiles(k(S::I8), k(S::F8E4M3)), k(S::F32));
  EXPECT_EQ(promoteTiles(k(S::F8E4M3), k(S::F64)), k(S::F64));
  EXPECT_EQ(promoteTileScalar(k(S::F8E4M3), k(S::F32)), k(S::F32));
  EXPECT_EQ(promoteTileScalar(k(S::F8E5M2), k(S::F64)), k(S::F32)); // a scalar never widens
  EXPECT_EQ(promoteTileScalar(k(S::F8E5M2), k(S::I32)), k(S::F32));
  EXPECT_EQ(promoteTileScalar(k(S::I32), k(S::F8E5M2)), k(S::F32)); // not an fp8 tile
  EXPECT_EQ(promoteScalars(k(S::F8E4M3), k(S::F8E4M3)), k(S::F32));
  EXPECT_EQ(arithmeticType(k(S::F8E5M2)), k(S::F32));
  EXPECT_EQ(arithmeticType(k(S::F16)), k(S::F16));
  // With a type parameter the device library decides (tilec::promote_t maps fp8 to float).
  EXPECT_EQ(promoteTiles(ElemType::typeParam("T"), k(S::F8E4M3)).cuda(),
            "tilec::promote_t<T, tl::float8_e4m3>");
}

TEST(Type, Printing) {
  Type tile{k(S::F32), false, false, {SymExpr::expr("BLOCK", true)}};
  EXPECT_EQ(tile.str(), "tile<float, BLOCK>");
  EXPECT_EQ(tile.shapeStr(), "[BLOCK]");
  Type ptrs{k(S::F16), true, true, {SymExpr(128)}};
  EXPECT_EQ(ptrs.str(), "tile<const tl::half*, 128>");
  Type scalar{k(S::I64), false, false, {}};
  EXPECT_TRUE(scalar.isScalar());
  EXPECT_EQ(scalar.str(), "int64_t");
}

TEST(Type, SameShapeComparesSymbolically) {
  SymExpr b = SymExpr::expr("BLOCK", true);
  EXPECT_TRUE(sameShape({b}, {SymExpr::expr("BLOCK", true)}));
  EXPECT_FALSE(sameShape({b}, {b * 2}));
  EXPECT_FALSE(sameShape({b}, {b, b}));
  EXPECT_TRUE(sameShape({SymExpr(64)}, {SymExpr(32) * 2}));
}

} // namespace
} // namespace tilec
