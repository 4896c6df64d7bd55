// Lowerer: the state of lowering one kernel body (see Frontend.h).
#pragma once

#include "ir/IR.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/Stmt.h>

#include <array>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace tilec {

/// A call's callee as written: `tl::load`, `tl::arange<0, BLOCK>`, a TILEC_FUNC helper.
struct Callee {
  std::string name;
  bool inTl = false;
  const clang::FunctionDecl *helper = nullptr; // a TILEC_FUNC to inline
  std::vector<clang::TemplateArgumentLoc> templateArgs;
};

/// `e` without the temporaries and no-op conversions a call's class result picks up
/// (PairOps.cpp).
const clang::Expr *skipTemporaries(const clang::Expr *e);

/// The elements of a braced list `{a, b}` as written (through std::array's inner braces and
/// the integer conversions to its int64_t elements); nullopt when `e` is no braced list
/// (DescriptorOps.cpp).
std::optional<std::vector<const clang::Expr *>> bracedElements(const clang::Expr *e);

/// tl::half, tl::bfloat16 and the fp8 types (classes in C++); nullopt for other types.
std::optional<ElemType> storageType(clang::QualType t);

class Lowerer {
public:
  Lowerer(clang::ASTContext &ctx, Kernel &kernel) : ctx_(ctx), k_(kernel) {}

  /// Lowers the kernel's parameters and body; false if an error was reported.
  bool lowerKernel(const clang::FunctionDecl *fn);
  /// Reports tile dimensions that no specialization can have (ShapeChecks.cpp).
  void checkTileShapes();
  /// The most elements a tile may have (Triton's TRITON_MAX_TENSOR_NUMEL).
  static constexpr int64_t kMaxTileElems = int64_t(1) << 20;

  // --- diagnostics (DiagnosticsEngine, clang style with a caret) ---
  void error(clang::SourceLocation loc, const std::string &msg);
  void error(const clang::Stmt *s, const std::string &msg);
  bool failed() const { return failed_; }

  // --- declarations the GPU would not honour as the interpreter does (DeclChecks.cpp) ---
  /// False (after an error) when `name` would hide a type or built-in of the generated CUDA.
  bool checkName(clang::SourceLocation loc, const std::string &name, const char *what);
  enum class VarRole { KernelParam, HelperParam, Local };
  /// False (after an error) for non-const references, static locals and names checkName
  /// refuses (those of kernel parameters and locals, which the output spells).
  bool checkVarDecl(const clang::VarDecl *vd, VarRole role);
  /// A declaration checkVarDecl reported: its uses say nothing more.
  bool rejectedDecl(const clang::ValueDecl *d) const;

  // --- types (TypeMapping.cpp) ---
  std::optional<Type> mapType(clang::QualType t, clang::SourceLocation loc);
  std::optional<ElemType> mapElemType(clang::QualType t, clang::SourceLocation loc);
  /// A compile-time integer (literal, template parameter, arithmetic on those).
  std::optional<SymExpr> evalSym(const clang::Expr *e);
  std::optional<SymExpr> templateArgSym(const clang::TemplateArgumentLoc &a);
  std::optional<ElemType> templateArgType(const clang::TemplateArgumentLoc &a);

  // --- statements (StmtLowering.cpp, ControlFlow.cpp) ---
  void lowerStmt(const clang::Stmt *s); // through the nesting limit (Nesting.cpp)
  void lowerIf(const clang::IfStmt *s);
  void lowerFor(const clang::Stmt *s);
  void lowerWhile(const clang::WhileStmt *s);
  /// The loop options of tl::range(..., {...}) (Triton's keyword arguments), set on `loop`;
  /// false after an error.
  bool lowerLoopOptions(const clang::Expr *options, Op *loop);
  /// Variables of the enclosing scope that a loop or branch assigns, and their values before.
  struct Carried {
    std::vector<const clang::ValueDecl *> vars;
    std::vector<Value *> inits;
  };
  Carried carriedBy(std::initializer_list<const clang::Stmt *> parts);
  void startControlFlow(Op *op, const clang::Stmt *s, const Carried &c, std::string srcText);
  /// A new region of `op` on the insertion stack; with `withArgs`, the carried variables are
  /// bound to fresh region arguments (after `leading`, a loop's induction variable).
  Region *openRegion(Op *op, const Carried &c, bool withArgs, Value *leading = nullptr);
  /// Pops the region; with `yield`, it yields the carried variables' current values.
  void closeRegion(Region *r, const Carried &c, bool yield);
  /// The op's results become the carried variables' values after it.
  void finishControlFlow(Op *op, const Carried &c);
  /// `auto [a, b] = pair` and `auto p = pair`; false when the initializer is no pair.
  bool bindPair(const clang::VarDecl *vd);
  /// Rebinds a local variable (assignment, ++, --); false after an error.
  bool assign(const clang::ValueDecl *var, Value *v, const clang::Stmt *at);

  // --- expressions (ExprLowering.cpp) ---
  Value *lowerExpr(const clang::Expr *e); // through the nesting limit (Nesting.cpp)
  Value *binary(const std::string &opcode, Value *a, Value *b, const clang::Expr *at);
  /// The element type of a tile combined with a scalar (promoteTileScalar). Where a template
  /// parameter makes the rule depend on the instantiation, the tile's type, and a static_assert
  /// (once per kernel and pair of types) that refuses instantiations where it is not.
  ElemType tileWithScalar(const ElemType &tile, const ElemType &scalar, const clang::Expr *at);
  /// `c ? a : b` with a scalar condition and tile arms (lowered after `beforeArms`): a select
  /// of the two, or an error when an arm has effects that C++ would skip.
  Value *selectTiles(Value *c, Value *a, Value *b, const Op *beforeArms,
                     const clang::ConditionalOperator *co);
  Value *unary(const std::string &opcode, Value *a, const clang::Expr *at);
  /// Made of constants and template parameters only, so that the C++ compiler folds it.
  static bool isFoldable(const Value *v);
  Value *castTo(Value *v, const ElemType &t, const clang::Expr *at);
  /// `mask` itself when it is bool (scalar or tile); otherwise a located error and null. The
  /// interpreter tests a number against zero, the device code takes bool masks.
  Value *boolMask(Value *mask, const clang::Expr *at);
  Value *constant(SymExpr value, ElemType t, const clang::Expr *at);
  /// Broadcasts a tile to `shape` (NumPy rules); scalars pass through; null after an error.
  Value *broadcastTo(Value *v, const std::vector<SymExpr> &shape, const clang::Expr *at);
  /// Makes two operands' shapes agree (size-1 tiles broadcast); null after an error.
  bool broadcastPair(Value *&a, Value *&b, const clang::Expr *at);
  Callee resolveCallee(const clang::Expr *callee);

  // --- tl:: calls and helpers (Builtins.cpp) ---
  Value *lowerCall(const clang::CallExpr *call, const Callee &callee);
  Value *inlineHelper(const clang::CallExpr *call, const Callee &callee);
  /// Lowers a helper's body with its parameters bound to `args`; the returned value or null.
  Value *inlineBody(const clang::FunctionDecl *fd, const std::vector<Value *> &args,
                    const clang::Expr *at);

  /// Arguments a call gives (without the header's defaults clang spells out in resolved calls).
  static unsigned givenArgs(const clang::CallExpr *call);
  /// Reports "tl::f takes lo to hi arguments, n given" and returns false when the count is off.
  bool wantArgs(const clang::CallExpr *call, const Callee &c, unsigned lo, unsigned hi);
  bool wantTemplateArgCount(const clang::CallExpr *call, const Callee &c, size_t count);

  // --- cache hints of tl::load / tl::store (MemoryHints.cpp) ---
  struct AccessHints {
    std::string eviction; // "evict_first", "evict_last" or ""
    std::string cache;    // "cg" ... or ""
    bool isVolatile = false;
    bool given = false; // any hint written, evict_normal included
  };
  /// Takes the trailing hints of tl::`fn` ("load" or "store") off `nargs`; false after an
  /// error (a hint the access does not take, or hints PTX cannot combine).
  bool peelAccessHints(const clang::CallExpr *call, const std::string &fn, unsigned &nargs,
                       AccessHints &hints);
  /// False (after an error) when a tl:: call other than a load or store is given a hint.
  bool rejectMisplacedHints(const clang::CallExpr *call, const std::string &fn);

  // --- tl::inline_asm_elementwise (InlineAsmOps.cpp) ---
  Value *lowerInlineAsm(const clang::CallExpr *call, const Callee &callee);
  /// Whether `e` is tl::host_fallback(...), the interpreter's stand-in for the asm.
  bool isHostFallback(const clang::Expr *e);

  // --- shape operations (ShapeOps.cpp) ---
  static bool isShapeOpName(const std::string &name);
  Value *lowerShapeOp(const clang::CallExpr *call, const Callee &callee);
  Value *lowerJoin(const clang::CallExpr *call, Value *a, Value *b);
  Value *lowerPermute3(const clang::CallExpr *call, const Callee &c, Value *v);

  // --- tl::flip, tl::gather, tl::histogram (IndexedOps.cpp) ---
  static bool isIndexedOpName(const std::string &name);
  Value *lowerSort(const clang::CallExpr *call, const Callee &c);
  Value *lowerIndexedOp(const clang::CallExpr *call, const Callee &callee);
  std::optional<int> indexedAxis(const clang::CallExpr *call, const Callee &c, size_t rank,
                                 std::optional<int> dflt);

  // --- tl::dot (DotOps.cpp) ---
  Value *lowerDot(const clang::CallExpr *call, const Callee &callee);

  // --- calls returning a pair: tl::swizzle2d (PairOps.cpp) ---
  using ValuePair = std::array<Value *, 2>;
  /// The two values of `e` when it is a pair (a tl::swizzle2d call or a local holding one),
  /// {null, null} after an error; nullopt when `e` is no pair (nothing reported).
  std::optional<ValuePair> lowerPair(const clang::Expr *e);
  ValuePair lowerSwizzle2d(const clang::CallExpr *call, const Callee &callee);
  ValuePair lowerSplit(const clang::CallExpr *call, const Callee &callee);
  /// `p.first` / `p.second` of a pair; null after an error.
  Value *lowerPairMember(const clang::Expr *base, const std::string &member, const clang::Expr *at);

  // --- boxes of strided tensors: what descriptors and block pointers access (DescriptorOps.cpp) ---
  struct Box {
    Value *base = nullptr;
    std::vector<Value *> shape, strides, corner; // per dimension; corner: the box's offsets
    std::vector<SymExpr> block;
    std::vector<bool> checked; // the dimensions the mask keeps inside the tensor
    std::string name;          // names the index tiles and mask: name_rows, name_inside
    std::string what;          // "descriptor", "block pointer": for errors
  };
  /// Loads the box (the tile; zero outside the checked dimensions) or stores `val` to it
  /// (`valExpr` locates its errors; null result). The box becomes an index tile per
  /// dimension, a pointer tile and a mask, as a kernel would write them by hand.
  Value *lowerBoxAccess(const Box &b, bool load, Value *val, const clang::CallExpr *call,
                        const clang::Expr *valExpr);

  // --- tensor descriptors: tl::make_tensor_descriptor, .load, .store (DescriptorOps.cpp) ---
  /// A local holding a descriptor: its parts, lowered where it was made. The IR has no
  /// descriptor type: each .load / .store becomes the pointer tile and mask of its box.
  struct Descriptor {
    Value *base = nullptr;
    std::vector<Value *> shape, strides;
    std::vector<SymExpr> block;
  };
  /// `auto d = tl::make_tensor_descriptor<...>(...)`; false when the initializer is none.
  bool bindDescriptor(const clang::VarDecl *vd);
  /// `d.load({...})` / `d.store({...}, v)` when `object` names a descriptor; nullopt when it
  /// names none (nothing reported). The loaded tile, or null (a store, or after an error).
  std::optional<Value *> lowerDescriptorCall(const clang::Expr *object, const std::string &member,
                                            const clang::CallExpr *call);

  // --- block pointers: tl::make_block_ptr, tl::advance, tl::load / tl::store (BlockPtrOps.cpp) ---
  /// A block pointer's value: the tensor (fixed where it is made) and the box's offsets.
  struct BlockPtr {
    Value *base = nullptr; // null after an error (reported)
    std::vector<Value *> shape, strides, offsets;
    std::vector<SymExpr> block;
    std::string name; // the local's, or "block"
  };
  /// The block pointer `e` is (a local holding one, tl::make_block_ptr, tl::advance); nullopt
  /// when `e` is none (nothing reported), a null base after an error.
  std::optional<BlockPtr> lowerBlockPtr(const clang::Expr *e);
  /// `auto p = <block pointer>`; false when the initializer is none.
  bool bindBlockPtr(const clang::VarDecl *vd);
  /// `p = <block pointer>` when `var` holds one; false when it does not (nothing reported).
  bool assignBlockPtr(const clang::ValueDecl *var, const clang::Expr *rhs, const clang::Stmt *at);
  /// tl::load / tl::store / tl::advance / tl::make_block_ptr when they take or make a block
  /// pointer; nullopt otherwise. The loaded tile, or null (a store, or after an error).
  std::optional<Value *> lowerBlockPtrCall(const clang::CallExpr *call, const Callee &c);
  /// When `d` is a block pointer that `part` assigns: the locals standing for the offsets the
  /// assignments may change (what loops and branches carry).
  void addBlockPtrOffsets(const clang::ValueDecl *d, const clang::Stmt *part,
                          std::vector<const clang::ValueDecl *> &out);

  // --- tl::device_print, tl::device_assert (DebugOps.cpp) ---
  static bool isDebugOpName(const std::string &name);
  void lowerDebugOp(const clang::CallExpr *call, const Callee &callee);
  void lowerStaticAssert(const clang::StaticAssertDecl *sa);
  bool foldConstant(const clang::Expr *x, const clang::Expr *at, Value *&out);

  // --- reductions, scans, random numbers, atomics (TileOps.cpp) ---
  static bool isTileOpName(const std::string &name);
  Value *lowerTileOp(const clang::CallExpr *call, const Callee &callee);
  /// cumsum / cumprod / associative_scan of `t` along `axis` (`reverse` from the template).
  Value *lowerScan(const clang::CallExpr *call, const Callee &callee, Value *t, int axis,
                   const SymExpr &reverse);
  /// A reduction by value of every element of the rank-2 tile `t` (no axis, or
  /// tl::all_axes): its rows, then the row results; `keepDims` gives a [1, 1] tile.
  Value *lowerWholeReduction(const clang::CallExpr *call, const Callee &callee, Value *t,
                             const SymExpr &keepDims);
  /// Builds `op`'s region from a TILEC_FUNC combine(a, b) on scalars of type `t`.
  bool lowerCombine(const clang::Expr *fn, const ElemType &t, Op *op);

  Op *emit(OpKind kind, std::vector<Value *> operands, Type t, const clang::Expr *at,
           bool hasResult = true);
  std::string sourceText(const clang::SourceRange &r) const;
  /// An `if constexpr` condition as text for the .cu, constants from outside the kernel
  /// written as their values (ConstexprCondition.cpp).
  std::string constexprConditionText(const clang::Expr *cond);
  std::string deviceSpelling(const clang::Expr *cond, std::string text);
  /// The error for C++ a kernel may not contain: the construct and what to write instead
  /// (UnsupportedConstructs.cpp).
  std::string unsupported(const clang::Stmt *s);
  Kernel &kernel() { return k_; }
  clang::ASTContext &ctx() { return ctx_; }

  /// How deeply expressions and statements (helpers' bodies included) may nest. Lowering
  /// recurses once per level, so a bound keeps a 20,000-term `a + a + ...` from overflowing
  /// the stack; legitimate kernels stay far below it.
  static constexpr int kMaxNesting = 1000;
  /// How many TILEC_FUNC calls may be inlined one inside another (docs/kernels.md).
  static constexpr int kMaxHelperNesting = 17;

private:
  friend struct HelperScope;
  friend struct NestingScope;
  void lowerStmtNode(const clang::Stmt *s);
  Value *lowerExprNode(const clang::Expr *e);
  int nesting_ = 0;
  std::map<const clang::VarDecl *, bool> checkedDecls_; // checkVarDecl's verdicts
  bool nestingReported_ = false;
  clang::ASTContext &ctx_;
  Kernel &k_;
  bool failed_ = false;
  std::map<const clang::ValueDecl *, Value *> vars_; // lookup only, never iterated
  std::vector<std::string> templateParamNames_;      // the kernel's, by index
  // Locals holding a pair (`auto p = tl::swizzle2d(...)`): read through .first / .second.
  std::map<const clang::ValueDecl *, ValuePair> pairs_;
  // Locals holding a tensor descriptor (an entry with a null base: reported where made).
  std::map<const clang::ValueDecl *, Descriptor> descriptors_;
  // Locals holding a block pointer: its tensor, and locals made up for its offsets (which are
  // what changes; they live in vars_ and are carried like any variable).
  struct BlockPtrLocal {
    BlockPtr ptr; // offsets unused
    std::vector<const clang::ValueDecl *> offsetVars;
  };
  std::map<const clang::ValueDecl *, BlockPtrLocal> blockPtrs_;
  // While a template TILEC_FUNC is inlined: its template parameters' deduced values.
  std::map<const clang::NamedDecl *, SymExpr> symBindings_;
  std::map<const clang::NamedDecl *, ElemType> typeBindings_;
  std::set<std::string> tileScalarAsserts_; // tileWithScalar's conditions, emitted once each
  /// The template parameters of the innermost helper being inlined (canonical parameter
  /// types carry only a position, which then refers to these, not to the kernel's).
  const clang::TemplateParameterList *helperParams_ = nullptr;
  const clang::NamedDecl *templateParamDecl(const clang::TemplateTypeParmType *t) const;
  /// Deduces a helper's template parameters from explicit arguments and argument types.
  bool bindHelperTemplate(const clang::FunctionDecl *fd, const Callee &c,
                          const std::vector<Value *> &args, const clang::Expr *at);
  // The first loop option num_stages of the kernel and where it was given: every loop of a
  // kernel runs with one stage count.
  std::optional<std::pair<SymExpr, clang::SourceLocation>> loopStages_;
  // Inlining TILEC_FUNC helpers: where `return` values go.
  std::vector<Value *> *returnSlot_ = nullptr;
  int inlineDepth_ = 0;
  std::vector<const clang::FunctionDecl *> inlining_; // canonical declarations, outermost first
  /// False (after an error) when inlining `fd` here would recurse or nest too deeply.
  bool helperNestingOk(const clang::FunctionDecl *fd, const clang::Expr *at);
};

} // namespace tilec
