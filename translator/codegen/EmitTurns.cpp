// Two warpgroups of a program taking turns at the tensor cores (pingpong-warpgroups): the
// loop's flag, each turn's wait and hand-over, and the last turn taken after the loop. The
// device library (sm90/turns.cuh) does each with a named barrier per warpgroup; a flag that is
// false compiles to nothing.
#include "codegen/KernelEmitter.h"

namespace tilec {
namespace emit {

void KernelEmitter::emitTurns(const Op &op) {
  if (op.kind == OpKind::WarpgroupTurns) {
    // On when every tl::dot that ends a turn of this flag runs on wgmma with each warpgroup
    // holding its own rows (otherwise a turn could hold a barrier of the whole block).
    std::string cond;
    walk(k_, [&](const Op &end) {
      if (end.kind == OpKind::TurnEnd && end.operands[0] == op.result)
        for (size_t i = 1; i < end.operands.size(); ++i)
          cond += " &&\n      " + dotRunsOnWgmma(*end.operands[i]->def);
    });
    comment(op);
    const std::string &flag = nameOf(op.result);
    *out_ << "  // " << flag << ": whether the two warpgroups take turns at the tensor cores: "
          << "one's tl::dots run\n"
          << "  // while the other computes on what its last ones gave\n"
          << "  constexpr bool " << flag << " = THREADS == 2 * tilec::WARPGROUP_THREADS" << cond
          << ";\n"
          << "  tilec::turns_start<" << flag << ">(tid); // the first warpgroup goes first\n";
    return;
  }
  const std::string &flag = nameOf(op.operands[0]);
  switch (op.kind) {
  case OpKind::TurnBegin:
    *out_ << "  tilec::turn_begin<" << flag << ">(tid); // this warpgroup's turn at the tensor "
          << "cores\n";
    return;
  case OpKind::TurnEnd:
    *out_ << "  tilec::turn_end<" << flag << ">(tid); // issued: the other warpgroup's turn\n";
    return;
  default:
    *out_ << "  tilec::turns_finish<" << flag << ">(tid); // the turn passed back last\n";
    return;
  }
}

} // namespace emit
} // namespace tilec
