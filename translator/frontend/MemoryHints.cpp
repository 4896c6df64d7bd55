// The trailing cache hints of tl::load and tl::store: Triton's eviction_policy,
// cache_modifier and volatile, checked as PTX can carry them.
//
//   tl::load(p, m, tl::evict_first)             load "evict_first" %p, %m
//   tl::load(p, m, 0.0f, tl::cache::cg)         load cache=cg %p, %m, %o
//   tl::load(flag, tl::is_volatile)             load volatile %flag
//   tl::store(p, v, tl::cache::cs, tl::evict_last)   store "evict_last" cache=cs %p, %v
#include "frontend/Lowerer.h"

namespace tilec {

using namespace clang;

namespace {

/// The declaration a hint argument names, through the conversion to tl::load_hint /
/// tl::store_hint that a resolved call spells out.
const ValueDecl *hintDecl(const Expr *e) {
  e = e->IgnoreImplicit();
  while (true) {
    e = skipTemporaries(e)->IgnoreImplicit();
    if (auto *ce = dyn_cast<CXXConstructExpr>(e); ce && ce->getNumArgs() == 1)
      e = ce->getArg(0);
    else if (auto *fc = dyn_cast<CXXFunctionalCastExpr>(e))
      e = fc->getSubExpr();
    else
      break;
  }
  auto *ref = dyn_cast<DeclRefExpr>(e);
  return ref ? ref->getDecl() : nullptr;
}

bool declaredIn(const Decl *d, llvm::StringRef ns) {
  auto *n = dyn_cast<NamespaceDecl>(d->getDeclContext());
  return n && n->getName() == ns;
}

/// One hint: which kind ("eviction", "cache", "volatile") and its name ("evict_first",
/// "cg"), or nothing when `e` is no hint.
std::optional<std::pair<std::string, std::string>> hintOf(const Expr *e) {
  const ValueDecl *d = hintDecl(e);
  if (!d)
    return std::nullopt;
  std::string name = d->getNameAsString();
  if (auto *c = dyn_cast<EnumConstantDecl>(d)) {
    auto *en = dyn_cast<EnumDecl>(c->getDeclContext());
    if (!en || !declaredIn(en, "tl"))
      return std::nullopt;
    if (en->getName() == "eviction")
      return std::make_pair(std::string("eviction"), "evict_" + name);
    if (en->getName() == "cache")
      return std::make_pair(std::string("cache"), name);
    return std::nullopt;
  }
  if (!isa<VarDecl>(d) || !declaredIn(d, "tl"))
    return std::nullopt;
  if (name == "evict_normal" || name == "evict_first" || name == "evict_last")
    return std::make_pair(std::string("eviction"), name);
  if (name == "is_volatile")
    return std::make_pair(std::string("volatile"), name);
  return std::nullopt;
}

std::string spelled(const std::string &kind, const std::string &name) {
  return kind == "cache" ? "tl::cache::" + name : "tl::" + name;
}

std::string kindWords(const std::string &kind) {
  return kind == "cache"      ? "cache modifier"
         : kind == "eviction" ? "eviction policy"
                              : "tl::is_volatile";
}

std::string cacheList(const std::string &fn) {
  return fn == "load" ? "tl::cache::ca, tl::cache::cg or tl::cache::cv (Triton's \".ca\", "
                        "\".cg\", \".cv\")"
                      : "tl::cache::wb, tl::cache::cg, tl::cache::cs or tl::cache::wt "
                        "(Triton's \".wb\", \".cg\", \".cs\", \".wt\")";
}

} // namespace

bool Lowerer::rejectMisplacedHints(const CallExpr *call, const std::string &fn) {
  for (const Expr *arg : call->arguments())
    if (auto hint = hintOf(arg)) {
      error(arg, spelled(hint->first, hint->second) + " is a cache hint of tl::load and "
                                                      "tl::store; tl::" +
                     fn + " takes none");
      return false;
    }
  return true;
}

bool Lowerer::peelAccessHints(const CallExpr *call, const std::string &fn, unsigned &nargs,
                              AccessHints &h) {
  std::map<std::string, const Expr *> given;
  while (nargs > 1) {
    const Expr *e = call->getArg(nargs - 1);
    auto hint = hintOf(e);
    if (!hint)
      break;
    auto [kind, name] = *hint;
    if (given.count(kind)) {
      error(e, "tl::" + fn + " takes one " + kindWords(kind) + ", not both " + spelled(kind, name) +
                   " and " + spelled(kind, hintOf(given[kind])->second) + "; keep one");
      return false;
    }
    given[kind] = e;
    --nargs;
    h.given = true;
    if (kind == "eviction") {
      h.eviction = name == "evict_normal" ? "" : name;
    } else if (kind == "volatile") {
      if (fn != "load") {
        error(e, "tl::is_volatile applies to loads (Triton's tl.store has no volatile); to "
                 "publish a value that other programs poll, store it with "
                 "tl::atomic_xchg(p, v, tl::sem::release)");
        return false;
      }
      h.isVolatile = true;
    } else {
      OpKind kindOfOp = fn == "load" ? OpKind::Load : OpKind::Store;
      if (!isCacheModifierOf(kindOfOp, name)) {
        std::string other = fn == "load" ? "store" : "load";
        error(e, "tl::cache::" + name + " is a " + other + "'s cache modifier; tl::" + fn +
                     " takes " + cacheList(fn));
        return false;
      }
      h.cache = name;
    }
  }
  // PTX has one cache operator per access (evict_first is .cs) and no volatile access
  // with a cache operator or policy.
  if (h.isVolatile && (!h.cache.empty() || !h.eviction.empty())) {
    bool cache = !h.cache.empty();
    error(given[cache ? "cache" : "eviction"],
          "a volatile load takes no cache modifier or eviction policy (PTX's ld.volatile has "
          "none); drop " +
              spelled(cache ? "cache" : "eviction", cache ? h.cache : h.eviction));
    return false;
  }
  if (h.eviction == "evict_first" && !h.cache.empty()) {
    error(given["eviction"], "tl::evict_first is itself a cache operator (PTX's .cs) and does "
                             "not combine with tl::cache::" +
                                 h.cache + "; keep one of them (tl::evict_last combines with it)");
    return false;
  }
  return true;
}

} // namespace tilec
