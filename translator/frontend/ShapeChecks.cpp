// Tile shapes the GPU cannot have, caught at translation rather than by a static_assert of the
// device library at the first launch: dimensions that are known and not a power of two (or too
// large), and dimensions computed from a bool template parameter (0 or 1 elements: a flag
// passed where a size was meant). Dimensions known only per specialization are checked by the
// launcher (LauncherEmitter's static_asserts).
#include "frontend/Lowerer.h"
#include "ir/Words.h"

#include <set>

namespace tilec {


void Lowerer::checkTileShapes() {
  std::set<std::string> reported; // each dimension once, where it first appears
  walk(k_, [&](const Op &op) {
    std::vector<const Value *> values(op.results.begin(), op.results.end());
    values.push_back(op.result);
    for (const Value *v : values) {
      if (!v || !v->type.isTile())
        continue;
      int64_t elems = 1;
      bool known = true;
      for (const SymExpr &d : v->type.shape) {
        if (!d.isConst()) {
          known = false;
          for (auto &tp : k_.templateParams)
            if (tp.kind == TemplateParam::Kind::Bool && containsWord(d.str(), tp.name) &&
                reported.insert(d.str()).second)
              error(op.loc, "tile dimension '" + d.str() +
                                "' comes from the bool template "
                                "parameter '" +
                                tp.name +
                                "'; give tile sizes as int template "
                                "parameters (template <int BLOCK>)");
          continue;
        }
        elems *= d.value() > 0 ? d.value() : 1;
        if ((d.value() <= 0 || (d.value() & (d.value() - 1))) && reported.insert(d.str()).second)
          error(op.loc, "tile dimension " + d.str() + " (shape " + v->type.shapeStr() +
                            ") is not a power of two; tile dimensions must be powers of two, "
                            "as in Triton");
      }
      if (known && elems > kMaxTileElems && reported.insert(v->type.shapeStr()).second)
        error(op.loc, "a tile of shape " + v->type.shapeStr() + " has " + std::to_string(elems) +
                          " elements, more than the limit of " + std::to_string(kMaxTileElems) +
                          " (as in Triton); use smaller tiles "
                          "and a loop");
    }
  });
}

} // namespace tilec
