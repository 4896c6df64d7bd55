// Rewriter: the mutations passes make to the IR, keeping use counts and program order valid.
//
// Passes change the IR only through these functions (or by setting an op's own fields):
//   walkOps            visits every op, mutable, nested regions right after their op
//   locate             the region and position of an op
//   Builder            creates ops right before (or after) a given op, or at the end of a region
//   moveBefore         moves an op to right before another op of the same region
//   addOperand         gives an op one more operand
//   setOperand         makes one operand of an op read another value
//   replaceAllUses     makes every reader of a value (operands, region yields) read another
//   eraseOp            removes an op whose result nobody reads
//   eraseIfDead        removes the side-effect-free op defining a value nobody reads, and
//                      then the ones that fed only it
//   recountUses        recomputes every value's use count from scratch
//   dotOperandReads    how many times each value is read as a tl::dot's a or b
//   dotStagesNothing   a tl::dot that stages no operand through the scratch buffer
//   cloneRegion        copies a region's ops (nested regions too) to the end of another
//   cloneOps           copies some ops (nested regions too) to the end of a region
//   versionLoop        puts a loop under `if constexpr`: a copy of it, else the loop itself
//   holdsDot           whether a region has a tl::dot, nested regions included
//   outermostDotLoops  the outermost for loops with a tl::dot inside
#pragma once

#include "ir/IR.h"

#include <functional>
#include <map>
#include <memory>

namespace tilec {

/// Every op of `r` and its nested regions in program order; `fn` may change the op it is
/// given but not insert or remove ops.
void walkOps(Region &r, const std::function<void(Op &)> &fn);
inline void walkOps(Kernel &k, const std::function<void(Op &)> &fn) { walkOps(k.body, fn); }

/// Where an op lives: its region and index there. Null region when it is not in `k`.
struct OpPosition {
  Region *region = nullptr;
  size_t index = 0;
};
OpPosition locate(Kernel &k, const Op *op);

/// The op defining `v` when it is of `kind`; null otherwise (or for region arguments).
inline const Op *defOf(const Value *v, OpKind kind) {
  return v && v->def && v->def->kind == kind ? v->def : nullptr;
}

/// A zero constant (a literal 0, or a floating zero as the frontend spells it), possibly cast
/// and splat to a tile.
bool isZeroConstant(const Value *v);

/// Ops that compute values from values in registers, with no memory, barrier or control:
/// what pointers, masks and indices are made of.
bool isRegisterArithmetic(OpKind kind);

/// True for ops without effects on memory or control (their result is all they do): the
/// register arithmetic, the kernel's inputs, and the relayouts (they use shared memory, but
/// only as scratch).
bool isSideEffectFree(OpKind kind);

/// Creates ops next to an anchor op, in the anchor's region, in the order they are created.
class Builder {
public:
  /// Inserts before `anchor` (or right after it when `after`).
  Builder(Kernel &k, Op *anchor, bool after = false);
  /// Appends to the end of `r` (a region being built); ops get the location of `locFrom`.
  Builder(Kernel &k, Region &r, const Op &locFrom);
  /// A new op of `kind` reading `operands` (their use counts grow), with a result of type
  /// `type` unless `hasResult` is false. Its location is the anchor's.
  Op *create(OpKind kind, std::vector<Value *> operands, Type type, bool hasResult = true);
  /// A copy of `op` (kind, opcode, attributes, flags; not regions) reading `operands`,
  /// with a result of type `type`.
  Op *clone(const Op &op, std::vector<Value *> operands, Type type);

private:
  Kernel &k_;
  const Op *anchor_;
  OpPosition pos_;
  size_t next_;
};

/// Moves `op` to right before `anchor`, both in the same region; the caller makes sure that
/// what `op` reads is defined before `anchor` and nothing between reads `op`'s result.
void moveBefore(Kernel &k, Op *op, Op *anchor);

/// Appends `v` to `op`'s operands (its use count grows).
void addOperand(Op *op, Value *v);

/// Makes operand `i` of `op` read `v` (use counts follow).
void setOperand(Op *op, size_t i, Value *v);

/// Makes every operand and region yield that reads `from` read `to` instead, except the
/// operands of `except`. Use counts follow.
void replaceAllUses(Kernel &k, Value *from, Value *to, const Op *except = nullptr);

/// Removes `op` (its result must be unused); its operands lose a use.
void eraseOp(Kernel &k, Op *op);

/// Removes the op defining `v` when nobody reads `v` and the op has no other effect, then does
/// the same for its operands (a rewrite's leftovers; the user's own dead code stays).
void eraseIfDead(Kernel &k, Value *v);

/// The values the kernel's ops define (results, region arguments), in id order: what
/// `k.values` holds minus the results of erased ops.
std::vector<Value *> liveValues(Kernel &k);

/// Recomputes `uses` of every value from the operands and yields that read it.
void recountUses(Kernel &k);

/// How many times each value is read as a tl::dot's a or b operand: a value read that often
/// in all (its `uses`, yields included) is read by nothing else.
std::map<const Value *, int> dotOperandReads(Kernel &k);

/// A tl::dot whose operands are in shared memory already (or A in registers, which wgmma
/// reads there): it stages nothing through the scratch buffer, so it has no block barrier
/// inside.
bool dotStagesNothing(const Op &op);

/// Appends copies of `src`'s ops (with their nested regions, results named as the originals)
/// to `dst`. `map` takes values of `src` to the values the copies read instead: on entry, at
/// least `src`'s arguments; values it does not hold (defined outside `src`) are read as they
/// are. On return it also maps every value `src` defines, and `dst`'s yields are `src`'s
/// mapped.
void cloneRegion(Kernel &k, const Region &src, Region &dst, std::map<const Value *, Value *> &map);

/// cloneRegion for a list of ops (in the order given, from anywhere in the kernel), without
/// yields: `map` as for cloneRegion.
void cloneOps(Kernel &k, const std::vector<const Op *> &ops, Region &dst,
              std::map<const Value *, Value *> &map);

/// Replaces the for loop `loop` by `if constexpr (cond) { a copy of the loop } else { the
/// loop }`; the If carries the loop's results that are read after it, and reads as `says` at
/// `line` in comments. Returns the If and sets `copy` to the copy. Use counts are recounted.
Op *versionLoop(Kernel &k, Op &loop, const std::string &cond, const std::string &says,
                unsigned line, Op *&copy);

/// Whether `r` or a region nested in it has a tl::dot.
bool holdsDot(const Region &r);

/// The outermost for loops of `r` with a tl::dot inside. Other ops' regions are searched
/// where `enter(op, region index)` says so (every one without it).
std::vector<Op *> outermostDotLoops(Region &r,
                                    const std::function<bool(const Op &, size_t)> &enter = {});

} // namespace tilec
