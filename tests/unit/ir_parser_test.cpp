// The IR parser: printed symbolic expressions and types read back into values that print and
// fold the same; kernels print back identically; bad text and bad IR are reported.
#include "Pipeline.h"
#include "ir/Parser.h"

#include <gtest/gtest.h>

namespace tilec {
namespace {

SymExpr sym(const char *name) { return SymExpr::expr(name, true); }

SymExpr reparsed(const SymExpr &e) {
  auto p = parseSymExpr(e.str());
  EXPECT_TRUE(p.has_value()) << e.str();
  return p ? *p : SymExpr(-12345);
}

TEST(IrParser, SymExprsPrintTheSame) {
  SymExpr b = sym("BLOCK"), n = sym("n_div16");
  std::vector<SymExpr> exprs = {
      SymExpr(0),
      SymExpr(-3),
      SymExpr(SymExpr::kUnbounded),
      b,
      b * 2,
      (b + 1) * 2,
      b - (b + 1),
      SymExpr(16) / (b * 2),
      symPow2Factor(b),
      symMin(sym("L0::VEC"), symGcd(symSelect("x_aligned", 16, 4), symPow2Factor(b) * 4) / 4),
      symMax(b, sym("BN")),
      symSelect("n_div16", symGcd(b, sym("BN")), 1),
      symSelect("a", symSelect("b", 2, 4), 8),
      SymExpr::expr("sizeof(tilec::promote_t<T, float>)", true),
      SymExpr::expr("-tilec::infinity<float>()", true),
      SymExpr::expr("1e-05f", true),
      SymExpr::expr("true", true),
      symGcd(symMin(b, n), symCall("tilec::cmax", SymExpr(2), b)),
  };
  for (const SymExpr &e : exprs) {
    SymExpr p = reparsed(e);
    EXPECT_EQ(p.str(), e.str());
    EXPECT_EQ(p.isConst(), e.isConst()) << e.str();
    EXPECT_EQ(p.operand(), e.operand()) << e.str();
  }
}

TEST(IrParser, SymExprsFoldTheSame) {
  // Folding looks into calls and selects: the parsed expression must keep their structure.
  SymExpr b = sym("BLOCK");
  SymExpr g = symGcd(symSelect("x_aligned", 16, 4), symPow2Factor(b) * 4);
  SymExpr sel = symSelect("c", 16, 4);
  SymExpr m = symMin(b, sym("BN"));
  EXPECT_EQ(symMin(reparsed(g), symSelect("x_aligned", 16, 4)).str(),
            symMin(g, symSelect("x_aligned", 16, 4)).str());
  EXPECT_EQ(symGcd(reparsed(sel), 8).str(), symGcd(sel, 8).str());
  EXPECT_EQ(symGcd(reparsed(sel), 8).str(), "(c ? 8 : 4)");
  EXPECT_EQ((reparsed(sel) * 2).str(), "(c ? 32 : 8)");
  EXPECT_EQ(symMin(reparsed(m), b).str(), "tilec::cmin(BLOCK, BN)");
  EXPECT_EQ(symMin(reparsed(m), b).str(), symMin(m, b).str());
}

TEST(IrParser, TypesPrintTheSame) {
  for (const char *t :
       {"int", "unsigned", "bool", "tl::half", "tl::bfloat16", "tl::float8_e4m3", "double",
        "const float*", "float*", "T", "const T*", "tilec::promote_t<T, float>", "tile<int, BLOCK>",
        "tile<const tl::half*, BM, BK>", "tile<bool, 1, BN>",
        "tile<tilec::promote_t<T, tl::half>, BM * 2, tilec::cmin(A, B), C>"}) {
    auto p = parseType(t);
    ASSERT_TRUE(p.has_value()) << t;
    EXPECT_EQ(p->str(), t);
  }
  EXPECT_TRUE(parseType("const float*")->pointeeConst);
  EXPECT_EQ(parseType("tile<float, A, B>")->shape.size(), 2u);
  EXPECT_EQ(parseType("T*")->elem.form, ElemType::Form::Param);
  EXPECT_FALSE(parseType("tile<float>").has_value());
  EXPECT_FALSE(parseType("").has_value());
}

const char *kLoop = R"(// a comment line, then a kernel
kernel @sums<int BLOCK, bool REV, class T>(const T* x, float* out, int n)
  %0:x = param [0] : const T*
  %1:out = param [1] : float*
  %2:n = param [2] : int
  %3 = arange [0] [BLOCK] : tile<int, BLOCK>  {contig=BLOCK div=1073741824 const=1}
  %4 = constant [0.0f] : float
  %5:acc = splat %4 : tile<float, BLOCK>
  %6 = constant [0] : int
  %7 = constant [1] : int
  %15:acc = for "<" unrolled %6, %2:n, %7, %5:acc
  {
    ^(%8:r : int, %9:acc : tile<float, BLOCK>)
    %10 = addptr %0:x, %3 : tile<const T*, BLOCK>  {contig=BLOCK div=1 const=1}
    %11 = load %10 : tile<T, BLOCK>  {width=1}
    %12 = cast %11 : tile<float, BLOCK>
    %14:acc = if constexpr(REV) %9:acc
    {
      %13:acc = binary "-" %9:acc, %12 : tile<float, BLOCK>
      yield %13:acc
    } else {
      yield %9:acc
    }
    yield %14:acc
  }
  print "sum\t\"%d\"\n" %15:acc
  %16 = addptr %1:out, %3 : tile<float*, BLOCK>  {contig=BLOCK div=1 const=1}
  store %16, %15:acc  {width=1}
)";

TEST(IrParser, KernelPrintsBackTheSame) {
  std::string err;
  auto k = parseKernel(kLoop, err);
  ASSERT_TRUE(k) << err;
  std::string text = kLoop;
  text = text.substr(text.find('\n') + 1); // without the comment
  EXPECT_EQ(printKernel(*k), text) << firstDifference(text, printKernel(*k));
  EXPECT_EQ(verifyKernel(*k), "");

  ASSERT_EQ(k->templateParams.size(), 3u);
  EXPECT_EQ(k->templateParams[1].kind, TemplateParam::Kind::Bool);
  EXPECT_EQ(k->templateParams[2].kind, TemplateParam::Kind::Type);
  ASSERT_EQ(k->params.size(), 3u);
  EXPECT_EQ(k->params[0].type.str(), "const T*");
  const Op &loop = *k->body.ops[8];
  ASSERT_EQ(loop.kind, OpKind::For);
  EXPECT_TRUE(loop.unrolled);
  EXPECT_EQ(loop.opcode, "<");
  EXPECT_EQ(loop.carriedNames, std::vector<std::string>{"acc"});
  EXPECT_EQ(loop.results[0]->type.str(), "tile<float, BLOCK>"); // from its initial value
  EXPECT_EQ(loop.results[0]->def, nullptr);
  EXPECT_EQ(k->values[9]->uses, 3); // two operands of the if (and its else) plus one of the -
  EXPECT_EQ(k->values[12]->def->kind, OpKind::Cast);
  EXPECT_EQ(k->body.ops[9]->opcode, "sum\t\"%d\"\n");
}

TEST(IrParser, SeveralKernelsAndPlaceholders) {
  std::string text = "kernel @a<>()\n  return\nkernel @b<>(int n)\n  %4:n = param [0] : int\n";
  std::vector<std::unique_ptr<Kernel>> ks;
  ASSERT_EQ(parseKernels(text, ks), "");
  ASSERT_EQ(ks.size(), 2u);
  EXPECT_EQ(ks[0]->body.ops[0]->kind, OpKind::Return);
  // Ids that do not appear are kept free, so that new values get the ids they got before.
  EXPECT_EQ(ks[1]->values.size(), 5u);
  EXPECT_EQ(ks[1]->newValue(Type{})->id, 5);
  EXPECT_EQ(printKernel(*ks[0]) + printKernel(*ks[1]), text);
}

TEST(IrParser, ReportsWhereTheTextIsWrong) {
  auto errorOf = [](const std::string &text) {
    std::vector<std::unique_ptr<Kernel>> ks;
    return parseKernels(text, ks);
  };
  EXPECT_EQ(errorOf("kernel @k<>()\n  %0 = bogus : int\n"), "line 2: unknown op 'bogus'");
  EXPECT_EQ(errorOf("\n\nkernel @k<>()\n  %0 = unary \"-\" %7 : int\n"),
            "line 4: %7 is used but not defined");
  EXPECT_EQ(errorOf("kernel @k<>()\n  %0 = constant [1] : int\n  %0 = constant [2] : int\n"),
            "line 3: %0 is defined twice");
  EXPECT_EQ(errorOf("kernel @k<>()\n  %0:a = constant [1] : int\n  %1 = unary \"-\" %0:b : int\n"),
            "line 3: %0 is named 'a' elsewhere");
  EXPECT_EQ(errorOf("kernel @k<>()\n  %0 = constant [1] : tile<int>\n"),
            "line 2: bad type 'tile<int>'");
  EXPECT_EQ(errorOf("kernel @k<>()\n  %0 = constant fancy [1] : int\n"),
            "line 2: unknown word 'fancy' on constant");
  EXPECT_EQ(errorOf("kernel @k<>()\n  %0 = constant [1] : int\n  {\n"),
            "line 3: the text ends inside a region");
  EXPECT_EQ(errorOf("  %0 = constant [1] : int\n"), "line 1: expected 'kernel @name<...>(...)'");
}

TEST(IrParser, CacheHintsAndInlineAsmPrintBackTheSame) {
  const std::string text = R"(kernel @k<>(const float* x, float* y)
  %0:x = param [0] : const float*
  %1:y = param [1] : float*
  %2 = load "evict_last" cache=cg %0:x : float  {width=1}
  %3 = load volatile %0:x : float  {width=1}
  %4 = inline_asm "add.f32 $0, $1, $2; // 100%" constraints(=f,f,f) %2, %3 : float
  %5 = inline_asm "mov.u32 $0, %smid;" constraints(=r) impure : unsigned
  store cache=wt %1:y, %4  {width=1}
)";
  std::string err;
  auto k = parseKernel(text, err);
  ASSERT_TRUE(k) << err;
  EXPECT_EQ(printKernel(*k), text) << firstDifference(text, printKernel(*k));
  EXPECT_EQ(verifyKernel(*k), "");
  EXPECT_EQ(k->body.ops[2]->cache, "cg");
  EXPECT_TRUE(k->body.ops[3]->isVolatile);
  EXPECT_EQ(k->body.ops[4]->asmConstraints, "=f,f,f");
  EXPECT_TRUE(k->body.ops[5]->asmImpure);
  // A cache modifier of the other kind of access does not parse.
  std::vector<std::unique_ptr<Kernel>> ks;
  EXPECT_EQ(parseKernels("kernel @k<>(const float* x)\n  %0:x = param [0] : const float*\n"
                         "  %1 = load cache=wb %0:x : float\n",
                         ks),
            "line 3: bad 'cache' on load");
}

/// `text` parsed (it must parse), then verified.
std::string verifyText(const std::string &text) {
  std::string err;
  auto k = parseKernel(text, err);
  EXPECT_TRUE(k) << err;
  return k ? verifyKernel(*k) : err;
}

TEST(Verifier, OperandsAreDefinedBeforeUse) {
  EXPECT_EQ(verifyText("kernel @k<>()\n  %0 = unary \"-\" %1 : int\n  %1 = constant [1] : int\n"),
            "%1 is used by unary where it is not defined");
  // A value of a region is not visible after it.
  EXPECT_EQ(verifyText("kernel @k<>(int n)\n"
                       "  %0:n = param [0] : int\n"
                       "  %1 = constant [1] : int\n"
                       "  %3 = if %1, %0:n\n"
                       "  {\n"
                       "    %2 = unary \"-\" %0:n : int\n"
                       "    yield %2\n"
                       "  } else {\n"
                       "    yield %0:n\n"
                       "  }\n"
                       "  %4 = unary \"-\" %2 : int\n"),
            "%2 is used by unary where it is not defined");
}

TEST(Verifier, UseCountsAndLayouts) {
  std::string err;
  auto k = parseKernel("kernel @k<>(int n)\n  %0:n = param [0] : int\n"
                       "  %1 = unary \"-\" %0:n : int\n",
                       err);
  ASSERT_TRUE(k) << err;
  EXPECT_EQ(verifyKernel(*k), "");
  k->values[0]->uses = 2;
  EXPECT_EQ(verifyKernel(*k), "%0:n has 2 uses recorded but 1 in the IR");
  k->values[0]->uses = 1;
  EXPECT_EQ(verifyText("kernel @k<>()\n  layout #0 blocked[4] max_vec=4\n"
                       "  %0 = arange [0] [4] : tile<int, 4>  {contig=1 div=1 const=1}\n"),
            "tile %0 has no layout");
  EXPECT_EQ(verifyText("kernel @k<>()\n  layout #0 slice #3 dim=0\n"),
            "layout #0 is a slice of a missing layout");
}

TEST(PassTable, DrivesNamesAndHelp) {
  const auto &names = passNames();
  ASSERT_EQ(names.size(), passTable().size() + 1);
  EXPECT_EQ(names[0], "frontend");
  std::string help = passHelp();
  for (size_t i = 0; i < passTable().size(); ++i) {
    EXPECT_EQ(names[i + 1], passTable()[i].name);
    EXPECT_EQ(findPass(names[i + 1]), &passTable()[i]);
    EXPECT_NE(help.find(passTable()[i].description), std::string::npos);
  }
  EXPECT_EQ(findPass("frontend"), nullptr);
  EXPECT_NE(findPass("layout"), nullptr);
  EXPECT_NE(findPass("axis-info"), nullptr);
}

TEST(PassTable, RunPassesDumpsAllAndRoundTrips) {
  std::string err;
  auto k = parseKernel(kLoop, err);
  ASSERT_TRUE(k) << err;
  std::string dump;
  std::vector<std::string> printed;
  ASSERT_EQ(runPasses(*k, Target::defaultTarget(), "all", dump, nullptr, &printed), "");
  ASSERT_EQ(printed.size(), passNames().size());
  size_t at = 0;
  for (size_t i = 0; i < printed.size(); ++i) {
    std::string banner = dumpBanner(passNames()[i]);
    ASSERT_EQ(dump.compare(at, banner.size(), banner), 0) << banner;
    at += banner.size();
    ASSERT_EQ(dump.compare(at, printed[i].size(), printed[i]), 0);
    at += printed[i].size();
  }
  EXPECT_EQ(at, dump.size());
  EXPECT_EQ(checkRoundTrip(printed, Target::defaultTarget()), "");
  // A text that is not what the passes give is reported.
  printed.back() += "  return\n";
  EXPECT_NE(checkRoundTrip(printed, Target::defaultTarget()), "");
}

TEST(PassTable, RunPassListRejectsUnknownNames) {
  std::string err;
  auto k = parseKernel(kLoop, err);
  ASSERT_TRUE(k) << err;
  EXPECT_EQ(runPassList(*k, Target::defaultTarget(), {"axis-info", "layout"}), "");
  EXPECT_FALSE(k->layouts.empty());
  EXPECT_EQ(runPassList(*k, Target::defaultTarget(), {"bogus"}), "unknown pass 'bogus'");
}

} // namespace
} // namespace tilec
