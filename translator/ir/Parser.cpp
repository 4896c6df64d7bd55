// The reader of printKernel's text (grammar by example in Parser.h). Ops are read line by
// line; a line goes on past a newline inside parentheses or quotes (a multi-line
// `if constexpr` condition). Op kinds are looked up through opKindName and the flags between
// an op's kind and its operands through opWords(), so new kinds and fields need no change here
// as long as they print through those.
#include "ir/Parser.h"
#include "ir/Words.h"

#include "ir/PrintedForm.h"

#include <charconv>
#include <map>
#include <set>

namespace tilec {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

bool startsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

/// The end of the quoted string that starts at s[i] (the index after its closing quote).
size_t skipQuoted(std::string_view s, size_t i) {
  for (++i; i < s.size(); ++i) {
    if (s[i] == '\\')
      ++i;
    else if (s[i] == '"')
      return i + 1;
  }
  return s.size();
}

/// The first position from `from` where `seq` starts outside brackets and quotes; () [] {}
/// nest everywhere, <> outside parentheses (template arguments in types), npos if none.
size_t findTop(std::string_view s, std::string_view seq, size_t from = 0) {
  int paren = 0, other = 0, angle = 0;
  for (size_t i = from; i < s.size();) {
    if (paren == 0 && other == 0 && angle == 0 && s.substr(i, seq.size()) == seq)
      return i;
    char c = s[i];
    if (c == '"') {
      i = skipQuoted(s, i);
      continue;
    }
    if (c == '(')
      ++paren;
    else if (c == ')')
      --paren;
    else if (c == '[' || c == '{')
      ++other;
    else if (c == ']' || c == '}')
      --other;
    else if (c == '<' && paren == 0)
      ++angle;
    else if (c == '>' && paren == 0 && angle > 0)
      --angle;
    ++i;
  }
  return std::string_view::npos;
}

/// The index of the bracket closing the one at s[open], or npos.
size_t matching(std::string_view s, size_t open) {
  char o = s[open], c = o == '(' ? ')' : o == '[' ? ']' : o == '{' ? '}' : '>';
  int depth = 0;
  for (size_t i = open; i < s.size(); ++i) {
    if (s[i] == '"') {
      i = skipQuoted(s, i) - 1;
      continue;
    }
    if (s[i] == o)
      ++depth;
    else if (s[i] == c && --depth == 0)
      return i;
  }
  return std::string_view::npos;
}

/// `s` split at the commas outside brackets, each item trimmed; "" gives no items.
std::vector<std::string_view> splitTop(std::string_view s) {
  std::vector<std::string_view> out;
  if (trim(s).empty())
    return out;
  for (;;) {
    size_t at = findTop(s, ",");
    out.push_back(trim(s.substr(0, at)));
    if (at == std::string_view::npos)
      return out;
    s.remove_prefix(at + 1);
  }
}

std::optional<int64_t> integer(std::string_view s) {
  int64_t v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || s.empty())
    return std::nullopt;
  return v;
}

/// `s` with printKernel's string escapes undone; false if one is malformed.
bool unquote(std::string_view s, std::string &out) {
  if (s.size() < 2 || s.front() != '"' || s.back() != '"')
    return false;
  out.clear();
  for (size_t i = 1; i + 1 < s.size(); ++i) {
    if (s[i] != '\\') {
      out += s[i];
      continue;
    }
    if (++i + 1 >= s.size())
      return false;
    char c = s[i];
    if (c == 'n')
      out += '\n';
    else if (c == 't')
      out += '\t';
    else if (c >= '0' && c <= '7') {
      int v = 0, n = 0;
      for (; n < 3 && i + 1 < s.size() && s[i] >= '0' && s[i] <= '7'; ++n, ++i)
        v = v * 8 + (s[i] - '0');
      --i;
      out += char(v);
    } else
      out += c;
  }
  return true;
}

std::optional<OpKind> kindNamed(std::string_view name) {
  // OpKind has no count: its names run until opKindName answers "?".
  for (int i = 0; i < 4096; ++i) {
    std::string_view n = opKindName(OpKind(i));
    if (n == "?")
      break;
    if (n == name)
      return OpKind(i);
  }
  return std::nullopt;
}

std::optional<ElemType> parseElem(std::string_view s) {
  s = trim(s);
  if (s.empty())
    return std::nullopt;
  for (int i = 0; i < 256; ++i) {
    ElemType t = ElemType::known(ScalarKind(i));
    std::string spelled = t.cuda();
    if (spelled == "?")
      break;
    if (s == spelled)
      return t;
  }
  if (startsWith(s, "tilec::promote_t<") && s.back() == '>') {
    auto parts = splitTop(s.substr(17, s.size() - 18));
    if (parts.size() != 2)
      return std::nullopt;
    auto a = parseElem(parts[0]), b = parseElem(parts[1]);
    if (!a || !b)
      return std::nullopt;
    ElemType t;
    t.form = ElemType::Form::Promote;
    t.lhs = std::make_shared<ElemType>(*a);
    t.rhs = std::make_shared<ElemType>(*b);
    return t;
  }
  for (const char *fn : {"tilec::quotient_t<", "tilec::widen_t<"})
    if (startsWith(s, fn) && s.back() == '>') {
      const size_t open = std::string_view(fn).size();
      auto inner = parseElem(s.substr(open, s.size() - open - 1));
      if (!inner)
        return std::nullopt;
      return ElemType::typeParam(std::string(fn) + inner->cuda() + ">");
    }
  for (char c : s)
    if (!(std::isalnum((unsigned char)c) || c == '_' || c == ':'))
      return std::nullopt;
  return ElemType::typeParam(std::string(s));
}

} // namespace

std::optional<SymExpr> parseSymExpr(std::string_view t) {
  t = trim(t);
  if (t.empty())
    return std::nullopt;
  if (auto v = integer(t); v && std::to_string(*v) == t)
    return SymExpr(*v);
  // `(cond ? a : b)`
  if (t.front() == '(' && matching(t, 0) == t.size() - 1) {
    std::string_view inner = t.substr(1, t.size() - 2);
    size_t q = findTop(inner, " ? ");
    size_t c = q == std::string_view::npos ? q : findTop(inner, " : ", q + 3);
    if (c != std::string_view::npos) {
      auto a = parseSymExpr(inner.substr(q + 3, c - q - 3));
      auto b = parseSymExpr(inner.substr(c + 3));
      if (a && b) {
        SymExpr e = symSelect(std::string(inner.substr(0, q)), *a, *b);
        if (e.str() == t)
          return e;
      }
    }
  }
  // The calls that folding looks into.
  for (const char *fn : {"tilec::cmin", "tilec::cmax", "tilec::gcd"}) {
    std::string_view f = fn;
    if (!startsWith(t, f) || t.size() <= f.size() || t[f.size()] != '(' ||
        matching(t, f.size()) != t.size() - 1)
      continue;
    auto args = splitTop(t.substr(f.size() + 1, t.size() - f.size() - 2));
    if (args.size() != 2)
      break;
    auto a = parseSymExpr(args[0]), b = parseSymExpr(args[1]);
    if (!a || !b)
      break;
    SymExpr e = symCall(fn, *a, *b);
    if (e.str() == t)
      return e;
    break;
  }
  // Sums, differences, products and quotients print with spaces around the operator and
  // are not atomic (they get parentheses as operands); everything else is one C++ token or
  // call.
  for (std::string_view op : {" + ", " - ", " * ", " / "})
    if (findTop(t, op) != std::string_view::npos)
      return SymExpr::expr(std::string(t), false);
  return SymExpr::expr(std::string(t), true);
}

std::optional<Type> parseType(std::string_view s) {
  s = trim(s);
  Type t;
  std::string_view elem = s;
  // smem<...>: a tile in shared memory (local_alloc), with the same parts as tile<...>.
  t.shared = startsWith(s, "smem<");
  if ((startsWith(s, "tile<") || t.shared) && s.back() == '>') {
    auto parts = splitTop(s.substr(5, s.size() - 6));
    if (parts.size() < 2)
      return std::nullopt;
    elem = parts[0];
    for (size_t i = 1; i < parts.size(); ++i) {
      auto d = parseSymExpr(parts[i]);
      if (!d)
        return std::nullopt;
      t.shape.push_back(*d);
    }
  }
  if (!elem.empty() && elem.back() == '*') {
    t.pointer = true;
    elem.remove_suffix(1);
    if (startsWith(elem, "const ")) {
      t.pointeeConst = true;
      elem.remove_prefix(6);
    }
  }
  auto e = parseElem(elem);
  if (!e)
    return std::nullopt;
  t.elem = *e;
  if (t.str() != s)
    return std::nullopt;
  return t;
}

std::string firstDifference(const std::string &expected, const std::string &actual) {
  size_t line = 1, start = 0;
  for (size_t i = 0;; ++i) {
    bool endE = i >= expected.size(), endA = i >= actual.size();
    if (endE && endA)
      return "";
    if (endE || endA || expected[i] != actual[i]) {
      auto lineAt = [&](const std::string &s) {
        if (start >= s.size())
          return std::string("<end>");
        size_t nl = s.find('\n', start);
        return s.substr(start, nl == std::string::npos ? std::string::npos : nl - start);
      };
      return "line " + std::to_string(line) + ":\n  expected: " + lineAt(expected) +
             "\n  got:      " + lineAt(actual);
    }
    if (expected[i] == '\n') {
      ++line;
      start = i + 1;
    }
  }
}

namespace {

/// A position in one logical line of the text.
struct Cursor {
  std::string_view s;
  size_t i = 0;

  bool atEnd() {
    skipSpaces();
    return i >= s.size();
  }
  void skipSpaces() {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r'))
      ++i;
  }
  char peek() {
    skipSpaces();
    return i < s.size() ? s[i] : '\0';
  }
  bool consume(std::string_view p) {
    skipSpaces();
    if (!startsWith(s.substr(i), p))
      return false;
    i += p.size();
    return true;
  }
  std::string_view rest() const { return s.substr(i); }
  /// The bracketed group at the cursor (it must be there), without its brackets.
  std::optional<std::string_view> group() {
    skipSpaces();
    if (i >= s.size())
      return std::nullopt;
    size_t close = matching(s, i);
    if (close == std::string_view::npos)
      return std::nullopt;
    std::string_view inner = s.substr(i + 1, close - i - 1);
    i = close + 1;
    return inner;
  }
};

class Parser {
public:
  explicit Parser(std::string_view text) : text_(text) {}

  std::string run(std::vector<std::unique_ptr<Kernel>> &out) {
    while (nextLine()) {
      if (!startsWith(line_, "kernel @")) {
        error("expected 'kernel @name<...>(...)'");
        return err_;
      }
      auto k = std::make_unique<Kernel>();
      if (!kernel(*k))
        return err_;
      out.push_back(std::move(k));
    }
    return err_;
  }

private:
  std::string_view text_;
  size_t pos_ = 0;
  int lineNo_ = 0, nextNo_ = 1;
  std::string_view line_; // the current logical line, trimmed
  bool pending_ = false;  // line_ was looked at and put back
  std::string err_;

  // Per kernel.
  Kernel *k_ = nullptr;
  std::set<const Value *> defined_;
  std::map<const Value *, int> firstUse_; // line of the first use, for undefined values
  std::set<const Value *> mentioned_;

  bool error(const std::string &msg) {
    if (err_.empty())
      err_ = "line " + std::to_string(lineNo_) + ": " + msg;
    return false;
  }

  /// Reads the next logical line that is not blank or a comment into line_.
  bool nextLine() {
    if (pending_) {
      pending_ = false;
      return true;
    }
    while (pos_ < text_.size()) {
      lineNo_ = nextNo_;
      size_t start = pos_;
      size_t i = pos_;
      while (i < text_.size() && (text_[i] == ' ' || text_[i] == '\t'))
        ++i;
      bool comment = text_.substr(i, 2) == "//";
      int paren = 0;
      for (; i < text_.size(); ++i) {
        char c = text_[i];
        if (c == '\n') {
          ++nextNo_;
          if (comment || paren <= 0)
            break;
        } else if (comment) {
          continue;
        } else if (c == '"') {
          size_t end = skipQuoted(text_, i);
          for (size_t j = i; j < end; ++j)
            nextNo_ += text_[j] == '\n';
          i = end - 1;
        } else if (c == '(') {
          ++paren;
        } else if (c == ')') {
          --paren;
        }
      }
      line_ = trim(text_.substr(start, i - start));
      pos_ = i < text_.size() ? i + 1 : i;
      if (!comment && !line_.empty())
        return true;
    }
    return false;
  }
  void putBack() { pending_ = true; }

  // ---- values ----

  Value *valueAt(int id) {
    while (k_->values.size() <= size_t(id)) {
      k_->values.push_back(std::make_unique<Value>());
      k_->values.back()->id = int(k_->values.size()) - 1;
    }
    return k_->values[size_t(id)].get();
  }

  /// `%12` or `%12:name` at the cursor.
  Value *ref(Cursor &c) {
    if (!c.consume("%"))
      return error("expected a value (%N)"), nullptr;
    size_t start = c.i;
    while (c.i < c.s.size() && std::isdigit((unsigned char)c.s[c.i]))
      ++c.i;
    auto id = integer(c.s.substr(start, c.i - start));
    if (!id || *id < 0 || *id > 100000000)
      return error("expected a value number after '%'"), nullptr;
    std::string name;
    if (c.i < c.s.size() && c.s[c.i] == ':') {
      size_t n = ++c.i;
      while (c.i < c.s.size() && (isIdentifierChar(c.s[c.i]) || c.s[c.i] == '.' || c.s[c.i] == '$'))
        ++c.i;
      name = std::string(c.s.substr(n, c.i - n));
      if (name.empty())
        return error("expected a name after '%" + std::to_string(*id) + ":'"), nullptr;
    }
    Value *v = valueAt(int(*id));
    if (!mentioned_.insert(v).second) {
      if (v->name != name)
        return error("%" + std::to_string(*id) + " is named '" + v->name + "' elsewhere"), nullptr;
    } else {
      v->name = name;
    }
    return v;
  }

  Value *use(Cursor &c) {
    Value *v = ref(c);
    if (v)
      firstUse_.emplace(v, lineNo_);
    return v;
  }

  bool define(Value *v) {
    if (!defined_.insert(v).second)
      return error("%" + std::to_string(v->id) + " is defined twice");
    return true;
  }

  bool info(std::string_view text, Value *v) {
    size_t d = findTop(text, " div="), c = findTop(text, " const=");
    if (!startsWith(text, "contig=") || d == std::string_view::npos ||
        c == std::string_view::npos || c < d)
      return error("expected {contig=... div=... const=...}");
    auto contig = parseSymExpr(text.substr(7, d - 7));
    auto div = parseSymExpr(text.substr(d + 5, c - d - 5));
    auto cst = parseSymExpr(text.substr(c + 7));
    if (!contig || !div || !cst)
      return error("bad expression in {" + std::string(text) + "}");
    v->info = AxisInfo{*contig, *div, *cst};
    return true;
  }

  bool layoutRef(Cursor &c, Value *v) {
    c.consume("#");
    size_t start = c.i;
    while (c.i < c.s.size() && std::isdigit((unsigned char)c.s[c.i]))
      ++c.i;
    auto n = integer(c.s.substr(start, c.i - start));
    if (!n)
      return error("expected a layout number after '#'");
    v->layout = int(*n);
    return true;
  }

  /// ` #2  {contig=...}` after a region argument or a control-flow result (both optional).
  bool annotations(Cursor &c, Value *v) {
    if (c.peek() == '#' && !layoutRef(c, v))
      return false;
    if (c.peek() == '{' && startsWith(c.rest(), "{contig=")) {
      auto g = c.group();
      if (!g || !info(*g, v))
        return error("bad {contig=...}");
    }
    return true;
  }

  // ---- kernel, layouts, regions, ops ----

  bool kernel(Kernel &k) {
    k_ = &k;
    defined_.clear();
    firstUse_.clear();
    mentioned_.clear();
    Cursor c{line_, 8};
    size_t lt = findTop(c.rest(), "<");
    if (lt == std::string_view::npos)
      return error("expected '<' after the kernel name");
    k.name = std::string(trim(c.rest().substr(0, lt)));
    c.i += lt;
    auto tparams = c.group();
    if (k.name.empty() || !tparams)
      return error("bad kernel header");
    for (std::string_view p : splitTop(*tparams)) {
      size_t sp = p.rfind(' ');
      if (sp == std::string_view::npos)
        return error("expected '<type> <name>' for a template parameter");
      TemplateParam tp;
      tp.cppType = std::string(trim(p.substr(0, sp)));
      tp.name = std::string(p.substr(sp + 1));
      tp.kind = tp.cppType == "class" || tp.cppType == "typename" ? TemplateParam::Kind::Type
                : tp.cppType == "bool"                            ? TemplateParam::Kind::Bool
                                                                  : TemplateParam::Kind::Int;
      k.templateParams.push_back(tp);
    }
    bool haveParams = c.peek() == '(';
    if (haveParams) {
      auto params = c.group();
      if (!params)
        return error("unbalanced parameter list");
      for (std::string_view p : splitTop(*params)) {
        size_t sp = p.rfind(' ');
        auto t = sp == std::string_view::npos ? std::nullopt : parseType(p.substr(0, sp));
        if (!t)
          return error("expected '<type> <name>' for a kernel parameter: '" + std::string(p) + "'");
        k.params.push_back({std::string(p.substr(sp + 1)), *t});
      }
    }
    if (!c.atEnd())
      return error("unexpected '" + std::string(c.rest()) + "' after the kernel header");

    while (nextLine()) {
      if (startsWith(line_, "dynamic_smem ")) {
        Cursor d{line_, 13};
        auto g = d.group();
        auto bytes = g ? parseSymExpr(*g) : std::nullopt;
        if (!bytes || !d.atEnd())
          return error("expected 'dynamic_smem [bytes]'");
        k.dynamicSmemBytes = *bytes;
        continue;
      }
      if (line_ == "tiles_transposed") {
        k.tilesTransposed = true;
        continue;
      }
      if (!startsWith(line_, "layout #")) {
        putBack();
        break;
      }
      if (!layout(k))
        return false;
    }
    if (!region(k.body, /*nested=*/false))
      return false;
    for (auto &[v, line] : firstUse_)
      if (!defined_.count(v)) {
        lineNo_ = line;
        return error("%" + std::to_string(v->id) + " is used but not defined");
      }
    for (auto &v : k.values)
      v->uses = 0;
    walk(k, [](const Op &op) {
      for (Value *v : op.operands)
        v->uses++;
      for (auto &r : op.regions)
        for (Value *y : r->yields)
          y->uses++;
    });
    if (!haveParams) // an older dump: the parameters are those of the param ops
      walk(k, [&](const Op &op) {
        if (op.kind == OpKind::Param && op.result && !op.attrs.empty() && op.attrs[0].isConst() &&
            op.attrs[0].value() >= 0) {
          size_t i = size_t(op.attrs[0].value());
          if (k.params.size() <= i)
            k.params.resize(i + 1);
          k.params[i] = {op.result->name, op.result->type};
        }
      });
    return true;
  }

  bool layout(Kernel &k) {
    Cursor c{line_, 8};
    size_t start = c.i;
    while (c.i < c.s.size() && std::isdigit((unsigned char)c.s[c.i]))
      ++c.i;
    auto n = integer(c.s.substr(start, c.i - start));
    if (!n || size_t(*n) != k.layouts.size())
      return error("layouts must be numbered #0, #1, ... in order");
    Layout l;
    auto shape = [&]() {
      if (c.peek() != '[')
        return error("expected a shape [..]");
      auto g = c.group();
      if (!g)
        return error("unbalanced shape");
      for (std::string_view d : splitTop(*g)) {
        auto e = parseSymExpr(d);
        if (!e)
          return error("bad dimension '" + std::string(d) + "'");
        l.shape.push_back(*e);
      }
      return true;
    };
    if (c.consume("blocked")) {
      if (!shape())
        return error("expected 'blocked[...] max_vec=N'");
      l.warpsDown = c.consume("warps_down");
      if (!c.consume("max_vec="))
        return error("expected 'blocked[...] max_vec=N'");
      auto v = parseSymExpr(c.rest());
      if (!v)
        return error("bad max_vec");
      l.maxVec = *v;
      c.i = c.s.size();
    } else if (c.consume("mma")) {
      l.kind = Layout::Kind::Mma;
      if (!shape())
        return false;
    } else if (c.consume("slice")) {
      l.kind = Layout::Kind::Slice;
      Value tmp;
      if (c.peek() != '#' || !layoutRef(c, &tmp) || !c.consume("dim="))
        return error("expected 'slice #P dim=D'");
      l.parent = tmp.layout;
      auto d = integer(trim(c.rest()));
      if (!d)
        return error("bad dim");
      l.dim = int(*d);
      c.i = c.s.size();
    } else {
      return error("unknown layout '" + std::string(c.rest()) + "'");
    }
    if (!c.atEnd())
      return error("unexpected '" + std::string(c.rest()) + "' after the layout");
    k.layouts.push_back(l);
    return true;
  }

  bool isRegionEnd(std::string_view l) const {
    return l == "}" || l == "} else {" || l == "} do {";
  }

  /// Reads ops into `r` up to the line that closes it (left in line_), or up to the next
  /// kernel or the end for the kernel's body.
  bool region(Region &r, bool nested) {
    bool first = true;
    while (nextLine()) {
      if (isRegionEnd(line_)) {
        if (!nested)
          return error("'}' outside a region");
        return true;
      }
      if (startsWith(line_, "kernel @")) {
        if (nested)
          return error("the kernel ends inside a region");
        putBack();
        return true;
      }
      if (startsWith(line_, "^(")) {
        if (!first || !nested)
          return error("region arguments must open a region");
        if (!regionArgs(r))
          return false;
      } else if (line_ == "yield" || startsWith(line_, "yield ")) {
        if (!nested)
          return error("'yield' outside a region");
        Cursor c{line_, 5};
        while (!c.atEnd()) {
          Value *v = use(c);
          if (!v)
            return false;
          r.yields.push_back(v);
          if (!c.atEnd() && !c.consume(","))
            return error("expected ',' between yielded values");
        }
        if (!nextLine() || !isRegionEnd(line_))
          return error("'yield' must end its region");
        return true;
      } else if (!op(r)) {
        return false;
      }
      first = false;
    }
    if (nested)
      return error("the text ends inside a region");
    return true;
  }

  bool regionArgs(Region &r) {
    Cursor c{line_, 1};
    auto g = c.group();
    if (!g || !c.atEnd())
      return error("bad region arguments");
    for (std::string_view item : splitTop(*g)) {
      Cursor a{item, 0};
      Value *v = ref(a);
      if (!v || !a.consume(":"))
        return error("expected '%N : type' in the region arguments");
      size_t end = std::min(findTop(a.rest(), "#"), findTop(a.rest(), "{"));
      auto t = parseType(a.rest().substr(0, end));
      if (!t)
        return error("bad type in '" + std::string(item) + "'");
      v->type = *t;
      a.i += end == std::string_view::npos ? a.rest().size() : end;
      if (!annotations(a, v) || !a.atEnd())
        return error("unexpected text in '" + std::string(item) + "'");
      if (!define(v))
        return false;
      r.args.push_back(v);
    }
    return true;
  }

  bool op(Region &r) {
    Cursor c{line_, 0};
    auto op = std::make_unique<Op>();
    std::vector<Value *> lhs;
    if (c.peek() == '%') {
      for (;;) {
        Value *v = ref(c);
        if (!v || !annotations(c, v))
          return false;
        lhs.push_back(v);
        if (!c.consume(","))
          break;
      }
      if (!c.consume("="))
        return error("expected '=' after the results");
    }
    c.skipSpaces();
    size_t start = c.i;
    while (c.i < c.s.size() && isIdentifierChar(c.s[c.i]))
      ++c.i;
    std::string_view kindName = c.s.substr(start, c.i - start);
    auto kind = kindNamed(kindName);
    if (!kind)
      return error("unknown op '" + std::string(kindName) + "'");
    op->kind = *kind;
    op->results = lhs; // until a type says it is a single result
    std::optional<Type> type;
    while (!c.atEnd()) {
      char ch = c.peek();
      if (ch == '"') {
        size_t end = skipQuoted(c.s, c.i);
        if (!unquote(c.s.substr(c.i, end - c.i), op->opcode))
          return error("bad string");
        c.i = end;
      } else if (ch == '%') {
        for (;;) {
          Value *v = use(c);
          if (!v)
            return false;
          op->operands.push_back(v);
          size_t save = c.i;
          if (c.consume(",") && c.peek() == '%')
            continue;
          c.i = save;
          break;
        }
      } else if (ch == '[') {
        auto g = c.group();
        auto e = g ? parseSymExpr(*g) : std::nullopt;
        if (!e)
          return error("bad attribute");
        op->attrs.push_back(*e);
      } else if (ch == ':') {
        c.consume(":");
        size_t end = std::min(findTop(c.rest(), "#"), findTop(c.rest(), "{"));
        std::string_view text = c.rest().substr(0, end);
        type = parseType(text);
        if (!type)
          return error("bad type '" + std::string(trim(text)) + "'");
        c.i += end == std::string_view::npos ? c.rest().size() : end;
      } else if (ch == '#') {
        if (lhs.size() != 1)
          return error("a layout needs a single result");
        if (!layoutRef(c, lhs[0]))
          return false;
      } else if (ch == '{') {
        auto g = c.group();
        if (!g)
          return error("unbalanced '{'");
        if (startsWith(*g, "width=")) {
          auto w = parseSymExpr(g->substr(6));
          if (!w)
            return error("bad width");
          op->accessWidth = *w;
        } else if (startsWith(*g, "contig=")) {
          if (lhs.size() != 1)
            return error("facts need a single result");
          if (!info(*g, lhs[0]))
            return false;
        } else {
          return error("unknown {" + std::string(*g) + "}");
        }
      } else if (!word(c, *op)) {
        return false;
      }
    }
    if (type) {
      if (lhs.size() != 1)
        return error("a typed op has one result");
      op->results.clear();
      op->result = lhs[0];
      op->result->type = *type;
      op->result->def = op.get();
    } else {
      // Control flow: the results are the carried variables, typed as their initial values
      // (the trailing operands).
      if (op->operands.size() < lhs.size())
        return error("more results than operands to type them by");
      for (size_t i = 0; i < lhs.size(); ++i) {
        lhs[i]->type = op->operands[op->operands.size() - lhs.size() + i]->type;
        op->carriedNames.push_back(lhs[i]->name);
      }
    }
    // Regions follow on their own lines: `{`, `} else {` / `} do {`, `}`.
    if (nextLine()) {
      if (line_ == "{") {
        for (;;) {
          op->regions.push_back(std::make_unique<Region>());
          if (!region(*op->regions.back(), /*nested=*/true))
            return false;
          if (line_ == "}")
            break;
        }
      } else {
        putBack();
      }
    }
    // Results are visible after the op and its regions.
    for (Value *v : lhs)
      if (!define(v))
        return false;
    r.ops.push_back(std::move(op));
    return true;
  }

  /// A flag or field of opWords() at the cursor: `word`, `word(arg)` or `word=arg`.
  bool word(Cursor &c, Op &op) {
    size_t start = c.i;
    while (c.i < c.s.size() && c.s[c.i] != ' ' && c.s[c.i] != '(' && c.s[c.i] != '=')
      ++c.i;
    std::string w(c.s.substr(start, c.i - start));
    std::string arg;
    if (c.i < c.s.size() && c.s[c.i] == '(') {
      auto g = c.group();
      if (!g)
        return error("unbalanced '(' after '" + w + "'");
      arg = std::string(*g);
    } else if (c.i < c.s.size() && c.s[c.i] == '=') {
      size_t a = ++c.i;
      while (c.i < c.s.size() && c.s[c.i] != ' ')
        ++c.i;
      arg = std::string(c.s.substr(a, c.i - a));
    }
    for (const OpWord &ow : opWords())
      if (ow.word == w) {
        if (!ow.parse(*k_, op, arg))
          return error("bad '" + w + "' on " + opKindName(op.kind));
        return true;
      }
    return error("unknown word '" + w + "' on " + opKindName(op.kind));
  }
};

} // namespace

std::string parseKernels(std::string_view text, std::vector<std::unique_ptr<Kernel>> &out) {
  return Parser(text).run(out);
}

std::unique_ptr<Kernel> parseKernel(std::string_view text, std::string &err) {
  std::vector<std::unique_ptr<Kernel>> ks;
  err = parseKernels(text, ks);
  if (err.empty() && ks.size() != 1)
    err = "expected one kernel, found " + std::to_string(ks.size());
  if (!err.empty())
    return nullptr;
  return std::move(ks[0]);
}

} // namespace tilec
