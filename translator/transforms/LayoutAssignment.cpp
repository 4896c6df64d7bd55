#include "transforms/LayoutAssignment.h"

#include "ir/ConstexprGuards.h"
#include "ir/Rewriter.h"

#include <algorithm>
#include <map>
#include <set>

namespace tilec {

std::string layoutName(int i) { return "L" + std::to_string(i); }

int rank3Axes(const Kernel &k, int i) {
  if (i < 0)
    return 0;
  const Layout &l = k.layouts[size_t(i)];
  if (l.kind == Layout::Kind::Blocked)
    return l.shape.size() == 3 ? 0b111 : 0;
  if (l.kind != Layout::Kind::Slice)
    return 0;
  int axes = rank3Axes(k, l.parent);
  for (int a = 0, n = 0; a < 3; ++a) // drop the parent's dim-th kept axis
    if (axes >> a & 1 && n++ == l.dim)
      return axes & ~(1 << a);
  return 0;
}

namespace {

SymExpr elemBytes(const ElemType &t) {
  return t.bits() ? SymExpr(t.bits() / 8) : SymExpr::expr(t.sizeofExpr(), true);
}

/// Elements in one 16-byte access through `ptrs`.
SymExpr perVector(const Value *ptrs) { return SymExpr(16) / elemBytes(ptrs->type.elem); }

/// The widest run an access through `ptrs` could use: 16 bytes, within a contiguous run.
/// (A run as long as the tile's last dimension needs no bound: runs never exceed it.)
SymExpr widestRun(const Value *ptrs) {
  if (ptrs->info.contiguity.sameAs(ptrs->type.shape.back()))
    return perVector(ptrs);
  return symMin(perVector(ptrs), ptrs->info.contiguity);
}

/// The widest run an access through `ptrs` can load or store at once: its widest run, bounded
/// by the alignment of the run's first address (in this specialization). A thread of a layout
/// should hold runs no longer than that: when the accesses must go one element at a time,
/// runs of several elements per thread put consecutive lanes 16 bytes apart, and every warp
/// store then writes each 32-byte sector in pieces.
SymExpr alignedRun(const Value *ptrs) {
  return symMin(widestRun(ptrs), ptrs->info.divisibility / elemBytes(ptrs->type.elem));
}

/// Atomics that may go several elements per instruction: float, half and bfloat16 adds
/// (`atom.add.v4.f32`, `.v8.bf16` on sm_90; the device library falls back to one element at a
/// time elsewhere).
bool isVectorAtomic(const Op &op) {
  if (op.kind != OpKind::Atomic || op.opcode != "add" || op.operands[0]->type.isScalar())
    return false;
  const ElemType &t = op.operands[0]->type.elem;
  return t.isFloat() && (t.bits() == 32 || t.bits() == 16);
}

/// The accesses through one layout's tiles, for the runs its threads hold.
struct AccessRuns {
  bool seen = false;
  SymExpr widest = 1; // over the loads
  // The writes by run, in program order, each with where it is kept.
  std::vector<std::pair<SymExpr, GuardSet>> writes;

  void write(const SymExpr &run, const Guard &guard) {
    for (auto &[r, where] : writes)
      if (r.sameAs(run)) {
        where.add(guard);
        return;
      }
    writes.emplace_back(run, GuardSet());
    writes.back().second.add(guard);
  }
};

/// The widest run the layout's threads should hold: the narrowest write, else the widest load.
/// A write under the user's `if constexpr` bounds only where its guard holds. `none` when
/// nothing accesses the layout.
SymExpr boundedRuns(const AccessRuns &r, const SymExpr &none) {
  std::vector<SymExpr> always;
  std::vector<std::pair<std::string, SymExpr>> guarded;
  for (auto &[run, where] : r.writes)
    if (where.always())
      always.push_back(run);
    else
      guarded.emplace_back(where.condition(), run);
  if (!r.seen && always.empty()) {
    if (guarded.empty())
      return none;
    for (auto &[cond, run] : guarded) // nothing else: they bound every specialization
      always.push_back(run);
    guarded.clear();
  }
  // One guarded write and loads only: its run where kept, the loads' elsewhere.
  if (always.empty() && guarded.size() == 1)
    return symSelect(guarded[0].first, guarded[0].second, r.widest);
  SymExpr bound = always.empty() ? r.widest : always[0];
  for (size_t i = 1; i < always.size(); ++i)
    bound = symMin(bound, always[i]);
  const SymExpr anyRun = SymExpr::expr("tilec::kAnyRun", true);
  for (auto &[cond, run] : guarded)
    bound = symMin(bound, symSelect(cond, run, anyRun));
  return bound;
}

/// The Blocked3D layout that layout `i` is (a slice of), or -1.
int rank3Root(const Kernel &k, int i) {
  const Layout &l = k.layouts[size_t(i)];
  if (l.kind == Layout::Kind::Slice)
    return rank3Root(k, l.parent);
  return l.kind == Layout::Kind::Blocked && l.shape.size() == 3 ? i : -1;
}

bool isUnitRank2(const Type &t) {
  return t.shape.size() == 2 && (t.shape[0].isConst(1) || t.shape[1].isConst(1));
}

bool hasUnitDim(const Type &t) {
  for (auto &d : t.shape)
    if (d.isConst(1))
      return true;
  return false;
}

bool allUnit(const Type &t) {
  for (auto &d : t.shape)
    if (!d.isConst(1))
      return false;
  return true;
}

/// A rank-3 tile can live in a layout of the Blocked3D family only if the layout holds
/// every axis along which the tile is longer than 1 (axes line up with the Blocked3D's).
bool fitsRank3(const Kernel &k, const Type &t, int layout) {
  int axes = rank3Axes(k, layout);
  if (t.shape.size() != 3 || axes == 0)
    return true;
  for (int d = 0; d < 3; ++d)
    if (!t.shape[size_t(d)].isConst(1) && !(axes >> d & 1))
      return false;
  return true;
}

/// A broadcast of a rank-3 tile grows one axis (the frontend broadcasts axis by axis): the
/// axis of the result's layout `p` that its operand's layout drops, or -1 when there is
/// none (a one-element operand, or a result layout that does not hold that axis).
int grownAxis(const Kernel &k, const Op &op, int p) {
  const Type &in = op.operands[0]->type, &out = op.result->type;
  int axes = rank3Axes(k, p), grown = -1;
  if (out.shape.size() != 3 || in.shape.size() != 3 || allUnit(in) || !fitsRank3(k, out, p))
    return -1;
  for (int d = 0; d < 3; ++d)
    if (in.shape[size_t(d)].isConst(1) && !out.shape[size_t(d)].isConst(1))
      grown = grown < 0 ? d : 3;
  if (grown < 0 || grown == 3 || !(axes >> grown & 1))
    return -1;
  return __builtin_popcount(unsigned(axes) & ((1u << grown) - 1));
}

/// An axis reduction of a tl::dot result that runs in the mma layout
/// (templates/tilec/device/sm80/reduce_axis_mma.cuh): sums, maxima and the like. Whole-tile
/// reductions, and those that need indices or element order, take a blocked copy.
bool reducesInMmaLayout(const Op &op) {
  return op.result->type.isTile() && op.opcode != "argmax" && op.opcode != "argmin" &&
         op.opcode != "first" && op.opcode != "last";
}

/// Union-find over value ids.
struct Groups {
  std::map<int, int> parent;
  int find(int v) {
    auto it = parent.find(v);
    if (it == parent.end() || it->second == v)
      return v;
    return it->second = find(it->second);
  }
  void unite(int a, int b) {
    a = find(a), b = find(b);
    if (a != b)
      parent[std::max(a, b)] = std::min(a, b); // smaller id is the root: deterministic
  }
};

bool sharesLayout(OpKind k) {
  switch (k) {
  case OpKind::Binary:
  case OpKind::Unary:
  case OpKind::Ternary:
  case OpKind::Select:
  case OpKind::Cast:
  case OpKind::Bitcast:
  case OpKind::AddPtr:
  case OpKind::Hint:
  case OpKind::Random:
  case OpKind::InlineAsm:
  case OpKind::Load:
  case OpKind::Store:
  case OpKind::Atomic:
    return true;
  default:
    return false;
  }
}

class Assigner {
public:
  explicit Assigner(Kernel &k) : k_(k) {}
  std::string run(const Op **where);

private:
  Kernel &k_;
  Groups g_;
  std::map<int, int> groupLayout_; // group root -> layout index
  const Op *conflictAt_ = nullptr;
  bool defaultsDone_ = false;

  int blocked(const std::vector<SymExpr> &shape) {
    for (size_t i = 0; i < k_.layouts.size(); ++i)
      if (k_.layouts[i].kind == Layout::Kind::Blocked && sameShape(k_.layouts[i].shape, shape))
        return int(i);
    Layout l;
    l.shape = shape;
    k_.layouts.push_back(l);
    return int(k_.layouts.size()) - 1;
  }
  int mma(const std::vector<SymExpr> &shape) {
    for (size_t i = 0; i < k_.layouts.size(); ++i)
      if (k_.layouts[i].kind == Layout::Kind::Mma && sameShape(k_.layouts[i].shape, shape))
        return int(i);
    Layout l;
    l.kind = Layout::Kind::Mma;
    l.shape = shape;
    k_.layouts.push_back(l);
    return int(k_.layouts.size()) - 1;
  }
  int slice(int parent, int dim) {
    for (size_t i = 0; i < k_.layouts.size(); ++i)
      if (k_.layouts[i].kind == Layout::Kind::Slice && k_.layouts[i].parent == parent &&
          k_.layouts[i].dim == dim)
        return int(i);
    // The same axes of the same Blocked3D reached another way hold the elements alike.
    if (int root = rank3Root(k_, parent); root >= 0) {
      Layout probe;
      probe.kind = Layout::Kind::Slice;
      probe.parent = parent;
      probe.dim = dim;
      k_.layouts.push_back(probe);
      int axes = rank3Axes(k_, int(k_.layouts.size()) - 1);
      k_.layouts.pop_back();
      for (size_t i = 0; i < k_.layouts.size(); ++i)
        if (k_.layouts[i].kind == Layout::Kind::Slice && rank3Root(k_, int(i)) == root &&
            rank3Axes(k_, int(i)) == axes)
          return int(i);
    }
    Layout l;
    l.kind = Layout::Kind::Slice;
    l.parent = parent;
    l.dim = dim;
    l.shape = k_.layouts[size_t(parent)].shape;
    l.shape.erase(l.shape.begin() + dim);
    k_.layouts.push_back(l);
    return int(k_.layouts.size()) - 1;
  }
  /// Gives `v`'s group layout `l`; false (and the op is remembered) on a conflict.
  bool demand(const Value *v, int l, const Op &at) {
    int root = g_.find(v->id);
    auto it = groupLayout_.find(root);
    if (it == groupLayout_.end()) {
      groupLayout_[root] = l;
      return true;
    }
    if (it->second == l)
      return true;
    conflictAt_ = &at;
    return false;
  }
  void resliceResult(Op *op, int layout);
  int layoutOf(const Value *v) {
    auto it = groupLayout_.find(g_.find(v->id));
    return it == groupLayout_.end() ? -1 : it->second;
  }
};

std::string Assigner::run(const Op **where) {
  const std::vector<Value *> live = liveValues(k_); // not the results of ops passes erased
  // 1. Group the values that must share a layout.
  walk(k_, [&](const Op &op) {
    const Value *r = op.result;
    if (!sharesLayout(op.kind))
      return;
    const Value *first = r && r->type.isTile() ? r : nullptr;
    for (const Value *v : op.operands) {
      if (!v->type.isTile())
        continue;
      if (!first)
        first = v;
      else
        g_.unite(first->id, v->id);
    }
  });
  // A gather's result takes its index's layout (element for element); a histogram's mask
  // its values'. (Their sources, and a flip's, are read through shared memory: any layout.)
  walk(k_, [&](const Op &op) {
    if (op.kind == OpKind::Gather)
      g_.unite(op.result->id, op.operands[1]->id);
    if (op.kind == OpKind::Histogram && op.operands.size() > 1)
      g_.unite(op.operands[0]->id, op.operands[1]->id);
  });
  // Carried values share a layout with their inits, region arguments and yields.
  walk(k_, [&](const Op &op) {
    if (op.kind != OpKind::For && op.kind != OpKind::If && op.kind != OpKind::While)
      return;
    size_t firstInit = op.kind == OpKind::For  ? 3
                       : op.kind == OpKind::If ? (op.constexprCond.empty() ? 1 : 0)
                                               : 0;
    size_t firstArg = op.kind == OpKind::For ? 1 : 0;
    for (size_t i = 0; i < op.results.size(); ++i) {
      if (!op.results[i]->type.isTile())
        continue;
      g_.unite(op.results[i]->id, op.operands[firstInit + i]->id);
      for (auto &r : op.regions) {
        if (r->args.size() > firstArg + i)
          g_.unite(op.results[i]->id, r->args[firstArg + i]->id);
        if (r->yields.size() == op.results.size()) // (a while's condition yields its bool)
          g_.unite(op.results[i]->id, r->yields[i]->id);
      }
    }
  });

  // A dot's result is its accumulator updated in place: they share the mma layout, which
  // anchors their group before any blocked layout can.
  walk(k_, [&](const Op &op) {
    if (op.kind != OpKind::Dot)
      return;
    g_.unite(op.result->id, op.operands[2]->id);
    groupLayout_[g_.find(op.result->id)] = mma(op.result->type.shape);
  });

  // 3. Slices (run after the anchors of step 2 below): reductions of a P tile, unit tiles
  //    broadcast into P, and through expand_dims the tiles they came from. Repeated until
  //    nothing changes.
  std::string err;
  auto propagate = [&]() {
    for (bool changed = true; changed && err.empty();) {
      changed = false;
      walk(k_, [&](const Op &op) {
        if (!err.empty())
          return;
        if (op.kind == OpKind::Reduce && op.result && op.result->type.isTile()) {
          // A dot result is reduced where the tensor cores left it: its rows or columns
          // land in a slice of the mma layout (see reducesInMmaLayout).
          int p = layoutOf(op.operands[0]);
          if (p >= 0 && k_.layouts[size_t(p)].kind == Layout::Kind::Mma && !reducesInMmaLayout(op))
            p = blocked(op.operands[0]->type.shape);
          if (p >= 0 && layoutOf(op.result) < 0) {
            groupLayout_[g_.find(op.result->id)] = slice(p, int(op.attrs[0].value()));
            changed = true;
          }
        }
        if (op.kind == OpKind::Broadcast && isUnitRank2(op.operands[0]->type) &&
            !isUnitRank2(op.result->type)) {
          int p = layoutOf(op.result);
          int dim = op.operands[0]->type.shape[0].isConst(1) ? 0 : 1;
          int have = layoutOf(op.operands[0]);
          if (p >= 0 && have < 0) {
            groupLayout_[g_.find(op.operands[0]->id)] = slice(p, dim);
            changed = true;
          }
          // A unit tile that already has another tile's slice layout (broadcast into two
          // tiles of different layouts) is converted in step 5.
        }
        if (op.kind == OpKind::Broadcast && op.result->type.shape.size() == 3) {
          int p = layoutOf(op.result);
          int axis = p >= 0 ? grownAxis(k_, op, p) : -1;
          if (axis >= 0 && layoutOf(op.operands[0]) < 0) {
            groupLayout_[g_.find(op.operands[0]->id)] = slice(p, axis);
            changed = true;
          }
        }
        if (op.kind == OpKind::ExpandDims) {
          int out = layoutOf(op.result), in = layoutOf(op.operands[0]);
          if (out >= 0 && in < 0) {
            groupLayout_[g_.find(op.operands[0]->id)] = out; // the operand adopts it
            changed = true;
          } else if (in >= 0 && out < 0 && defaultsDone_ && fitsRank3(k_, op.result->type, in)) {
            groupLayout_[g_.find(op.result->id)] = in;
            changed = true;
          }
        }
      });
    }
  };
  // 2. Anchors: rank-2 and rank-3 tiles without a unit dimension get the blocked layout of
  //    their shape. Rank-3 tiles first, with their slices (step 3), so that a rank-2 tile
  //    reduced from or expanded into one keeps the slice layout.
  bool rank3 = false;
  for (Value *v : live)
    if (v->type.shape.size() == 3 && !hasUnitDim(v->type) && layoutOf(v) < 0) {
      groupLayout_[g_.find(v->id)] = blocked(v->type.shape);
      rank3 = true;
    }
  if (rank3)
    propagate();
  for (Value *v : live)
    if (v->type.shape.size() == 2 && !isUnitRank2(v->type) && layoutOf(v) < 0)
      groupLayout_[g_.find(v->id)] = blocked(v->type.shape);

  propagate();
  if (!err.empty()) {
    if (where)
      *where = conflictAt_;
    return err;
  }

  // 4. Everything else: rank-1 tiles get blocked layouts by shape; a unit tile nobody
  //    broadcasts keeps the layout of the rank-1 tile it expands.
  for (Value *v : live)
    if (v->type.shape.size() == 1 && layoutOf(v) < 0)
      groupLayout_[g_.find(v->id)] = blocked(v->type.shape);
  defaultsDone_ = true;
  propagate();
  for (Value *v : live)
    if (v->type.isTile() && layoutOf(v) < 0)
      groupLayout_[g_.find(v->id)] = blocked(v->type.shape);
  for (Value *v : live)
    if (v->type.isTile())
      v->layout = layoutOf(v);

  // 5. Conversions where an operand's layout is not the one its user needs: an expand_dims
  //    whose rank-1 tile lives elsewhere; a [M, 1] / [1, N] tile broadcast into tiles of two
  //    layouts (the second gets a converted copy); whole-tile reductions and scans of a slice
  //    (they work on rank-1 blocked layouts).
  std::vector<std::pair<Op *, int>> todo, reslice;
  walkOps(k_, [&](Op &mop) {
    Op *op = &mop;
    const Value *in = op->operands.empty() ? nullptr : op->operands[0];
    bool fromMma = in && in->type.isTile() && in->layout >= 0 &&
                   k_.layouts[size_t(in->layout)].kind == Layout::Kind::Mma;
    bool reorders =
        op->kind == OpKind::Scan || op->kind == OpKind::Trans || op->kind == OpKind::Reshape;
    if (reorders && fromMma && err.empty()) {
      conflictAt_ = op;
      err = "this operation on a tl::dot result (or a tile computed from one) is not "
            "translated yet: scans, trans and reshape need a blocked tile";
    }
    // Whole-tile reductions of a dot result, and the axis reductions that need the elements'
    // indices or order (argmax, argmin, split), work on a blocked copy of it.
    if (op->kind == OpKind::Reduce && fromMma && !reducesInMmaLayout(*op))
      todo.push_back({op, blocked(in->type.shape)});
    // An axis reduction writes the slice of its operand's layout; a result whose group took
    // another layout first (a rank-3 tile's, say) gets a converted copy.
    if (op->kind == OpKind::Reduce && op->result->type.isTile()) {
      int p = fromMma && !reducesInMmaLayout(*op) ? blocked(in->type.shape) : in->layout;
      int want = slice(p, int(op->attrs[0].value()));
      if (op->result->layout != want)
        reslice.push_back({op, want});
    }
    if (op->kind == OpKind::ExpandDims && in->layout != op->result->layout)
      todo.push_back({op, op->result->layout});
    if (op->kind == OpKind::Broadcast && isUnitRank2(in->type) && !isUnitRank2(op->result->type)) {
      int want = slice(op->result->layout, in->type.shape[0].isConst(1) ? 0 : 1);
      if (in->layout != want)
        todo.push_back({op, want});
    }
    if (op->kind == OpKind::Broadcast && op->result->type.shape.size() == 3 && !allUnit(in->type)) {
      int axis = grownAxis(k_, *op, op->result->layout);
      if (axis < 0 && err.empty()) {
        conflictAt_ = op;
        err = "this broadcast of a rank-3 tile needs a layout the translator does not make yet "
              "(broadcast it into a tile without unit dimensions)";
      } else if (axis >= 0 && in->layout != slice(op->result->layout, axis)) {
        todo.push_back({op, slice(op->result->layout, axis)});
      }
    }
    if (op->kind == OpKind::Reduce && op->result->type.isScalar() &&
        k_.layouts[size_t(in->layout)].kind == Layout::Kind::Slice)
      todo.push_back({op, blocked(in->type.shape)});
    // Scans of slices (and of rank-3 tiles) go through shared memory in the result's layout.
    if (op->kind == OpKind::Scan && in->layout != op->result->layout)
      todo.push_back({op, op->result->layout});
  });
  if (!err.empty()) {
    if (where)
      *where = conflictAt_;
    return err;
  }
  // An expand_dims or broadcast operand is converted once, where it is defined: not again in
  // each user, and not inside a loop when the operand comes from before it. But a layout of a
  // tile that exists only in `if constexpr` branches (a dimension that may be 0 where they are
  // discarded) is not made outside them: such a conversion stays at its user.
  std::map<const Op *, Guard> guards;
  std::set<std::string> unguardedDims;
  walkGuarded(k_, [&](const Op &op, const Guard &guard) {
    guards[&op] = guard;
    if (guard.empty() && op.result)
      for (const SymExpr &d : op.result->type.shape)
        unguardedDims.insert(d.str());
  });
  auto onlyInBranches = [&](int layout) {
    while (k_.layouts[size_t(layout)].kind == Layout::Kind::Slice)
      layout = k_.layouts[size_t(layout)].parent;
    for (const SymExpr &d : k_.layouts[size_t(layout)].shape)
      if (!d.isConst() && !unguardedDims.count(d.str()))
        return true;
    return false;
  };
  std::map<std::pair<int, int>, Value *> converted; // (value id, layout) -> converted value
  for (auto &[op, layout] : todo) {
    Value *in = op->operands[0];
    bool hoistable = (op->kind == OpKind::ExpandDims || op->kind == OpKind::Broadcast) &&
                     (!in->def || guards[in->def] == guards[op] || !onlyInBranches(layout));
    if (!hoistable || !in->def || in->def->kind == OpKind::Param) {
      k_.convertBefore(op, in, layout);
      continue;
    }
    Value *&out = converted[{in->id, layout}];
    if (!out)
      out = k_.convertAfterDef(in, layout);
    if (!out) {
      k_.convertBefore(op, in, layout);
      continue;
    }
    op->operands[0] = out;
    out->uses++;
    in->uses--;
  }
  for (auto &[op, layout] : reslice)
    resliceResult(op, layout);
  return "";
}

/// Makes reduction `op` write its result in `layout` and converts it, right after, into the
/// layout its users have.
void Assigner::resliceResult(Op *op, int layout) {
  Value *r = op->result;
  Value *moved = k_.convertAfterDef(r, r->layout);
  if (!moved)
    return;
  moved->name = r->name;
  r->name.clear();
  r->layout = layout;
  // Everything but the conversion reads the moved value.
  replaceAllUses(k_, r, moved, /*except=*/moved->def);
}

} // namespace

std::string runLayoutAssignment(Kernel &k, const Target & /*target*/, const Op **where) {
  std::string err = Assigner(k).run(where);
  if (!err.empty())
    return err;

  // Tiles reduced or scanned along their rows, never along their columns: the rows go to
  // different warps before a row is split over warps, so that the reduction needs only the
  // lanes of a warp (no shared memory, no barrier).
  std::vector<int> axes(k.layouts.size(), 0); // bit 1: along the rows, bit 2: otherwise
  walk(k, [&](const Op &op) {
    if (op.kind != OpKind::Reduce && op.kind != OpKind::Scan)
      return;
    const Value *in = op.operands[0];
    if (in->layout < 0 || in->type.shape.size() != 2)
      return;
    const size_t axisAttr = op.kind == OpKind::Scan ? 1 : 0;
    const bool alongRows = op.result && op.result->type.isTile() && op.attrs.size() > axisAttr &&
                           op.attrs[axisAttr].isConst(1);
    axes[size_t(in->layout)] |= alongRows ? 1 : 2;
  });
  for (size_t i = 0; i < k.layouts.size(); ++i) {
    Layout &l = k.layouts[i];
    l.warpsDown = l.kind == Layout::Kind::Blocked && l.shape.size() == 2 && axes[i] == 1;
  }

  // The widest run a thread should hold: what the widest access of the layout can use, in
  // this specialization (alignment included), but no longer than the narrowest write along the
  // runs can store at once. A load wider than 16 bytes a thread splits into interleaved pieces
  // whose second half the L1 cache serves; a store has no such cache, and its pieces write
  // every 32-byte sector in halves (an fp8 tile loaded 16 a thread and stored as bfloat16 ran at
  // 0.68x Triton, whose stores are capped the same way). Every access is at most as wide as
  // the widest, so the bound is the narrowest write itself.
  // A write under the user's `if constexpr` bounds only the specializations that keep it (Liger's
  // TVD stores a loss per element in one reduction mode and one per row in the others: its
  // unaligned row base held every mode's bfloat16 loads to an element a thread, 0.70x Triton).
  std::vector<AccessRuns> runs(k.layouts.size());
  walkGuarded(k, [&](const Op &op, const Guard &guard) {
    // An atomic that goes one element at a time asks for no run: its lanes are the closer
    // together the shorter the runs.
    if (op.kind != OpKind::Load && op.kind != OpKind::Store && !isVectorAtomic(op))
      return;
    Value *ptrs = op.operands[0];
    if (ptrs->type.isScalar() || k.layouts[size_t(ptrs->layout)].kind != Layout::Kind::Blocked)
      return;
    AccessRuns &r = runs[size_t(ptrs->layout)];
    SymExpr want = alignedRun(ptrs);
    // A write that goes an element at a time anyway (down a column of a row-major buffer)
    // bounds nothing.
    if (op.kind != OpKind::Load && !ptrs->info.contiguity.isConst(1)) {
      // A condition on a constexpr local is not declared where the layout is.
      std::string cond;
      for (const std::string &c : guard)
        cond += c;
      r.write(want, conditionNamesValueOf(k.body, cond) ? Guard() : guard);
    } else {
      r.widest = r.seen ? symMax(r.widest, want) : want;
      r.seen = true;
    }
  });
  for (size_t i = 0; i < k.layouts.size(); ++i)
    k.layouts[i].maxVec = boundedRuns(runs[i], k.layouts[i].maxVec);

  // Access widths, in elements.
  walkOps(k, [&](Op &mop) {
    Op *op = &mop;
    if (op->kind != OpKind::Load && op->kind != OpKind::Store && !isVectorAtomic(*op))
      return;
    Value *ptrs = op->operands[0];
    if (ptrs->type.isScalar())
      return;
    // A tl::dot result stored: its quads may write 16-byte runs (the emitter checks the
    // element size and the runs in each specialization).
    if (op->kind == OpKind::Store && k.layouts[size_t(ptrs->layout)].kind == Layout::Kind::Mma)
      op->quadRuns = true;
    SymExpr vec = SymExpr::expr(layoutName(ptrs->layout) + "::VEC", true);
    // VEC is at most the layout's widest run; bound it by this access's own when narrower.
    const Layout &l = k.layouts[size_t(ptrs->layout)];
    if (l.kind == Layout::Kind::Blocked && l.maxVec.sameAs(alignedRun(ptrs))) {
      op->accessWidth = vec;
      return;
    }
    // VEC never exceeds 16 bytes: only a shorter contiguous run bounds it further.
    SymExpr run = widestRun(ptrs);
    SymExpr w = run.sameAs(perVector(ptrs)) ? vec : symMin(vec, run);
    op->accessWidth = symMin(w, ptrs->info.divisibility / elemBytes(ptrs->type.elem));
  });
  return "";
}

} // namespace tilec
