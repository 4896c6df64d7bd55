// tilec: translate C++ tile kernels into CUDA. Options follow clang tools; see --help.
#include "Pipeline.h"
#include "tool/LargeStack.h"
#include "tool/Translate.h"

#include <boost/program_options.hpp>
#include <llvm/Config/llvm-config.h>
#include <nvrtc.h>

#include <cstring>
#include <iostream>

namespace po = boost::program_options;

int main(int argc, char **argv) {
  // Everything after `--` goes to clang unchanged.
  int ours = argc;
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--") == 0) {
      ours = i;
      break;
    }
  tilec::TranslateOptions o;
  std::vector<std::string> includes, defines, extra;
  std::string std = "c++20";
  std::string arch = o.target.arch;
  po::options_description desc("usage: tilec [options] <input.cpp>... [-- <clang args>]\noptions");
  desc.add_options()("help,h", "show this help")(
      "version", "print the versions of tilec, of the LLVM it parses with and of NVRTC")(
      "output,o", po::value(&o.outputDir),
      "output folder for <stem>.cu, <stem>.tilec.h (default .)")(
      "include,I", po::value(&includes)->composing(),
      "add an include folder")("define,D", po::value(&defines)->composing(), "define a macro")(
      "std", po::value(&std), "C++ standard of the input (default c++20)")(
      "extra-arg", po::value(&extra)->composing(), "extra argument for clang")(
      "build-dir,p", po::value(&o.buildDir), "folder with compile_commands.json")(
      "dump-after", po::value(&o.dumpAfter),
      "print the tile IR after a pass (listed below), or after each with 'all'")(
      "line-directives", po::bool_switch(&o.lineDirectives),
      "emit #line directives back to the input")(
      "check", po::bool_switch(&o.check),
      "compile the output with NVRTC (optimizing for compile time) and fail if it does not "
      "compile")(
      "arch", po::value(&arch),
      "the target: the family of GPUs the output must run on (sm_80 ... sm_120), and what "
      "--check compiles for (default sm_90a)")(
      "aot", po::value(&o.aotSpecs)->composing(),
      "also write <stem>.aot.cu instantiating 'kernel<args>[:num_warps[:num_stages]]'")(
      "input", po::value(&o.inputs)->composing(), "input files");
  po::options_description hidden; // for tests
  unsigned stackMiB = 1024;       // address space; a kernel of ordinary depth touches a few MiB
  hidden.add_options()("roundtrip-ir", po::bool_switch(&o.roundTripIR),
                       "fail unless the IR after each pass parses back into the same IR")(
      "stack-mib", po::value(&stackMiB), "stack of the translating thread (tests)");
  po::options_description all;
  all.add(desc).add(hidden);
  po::positional_options_description pos;
  pos.add("input", -1);
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(ours, argv).options(all).positional(pos).run(), vm);
    po::notify(vm);
  } catch (const std::exception &e) {
    std::cerr << "tilec: error: " << e.what() << "\n" << desc << "\n";
    return 1;
  }
  if (vm.count("help")) {
    std::cout << desc << "\npasses (--dump-after), in pipeline order:\n" << tilec::passHelp()
              << "\nexamples:\n"
                 "  tilec kernels.cpp -o gen                 writes gen/kernels.cu and gen/kernels.tilec.h\n"
                 "  tilec -p build src/kernels.cpp -o gen    flags from build/compile_commands.json\n"
                 "  tilec k.cpp -- -DBLOCK=256 -Iinclude     clang arguments after --\n"
                 "  tilec --arch=sm_80 --check k.cpp         fail unless the output compiles for sm_80\n"
                 "  tilec --dump-after=pipeline k.cpp        the tile IR after one pass\n"
                 "docs/translator.md has the rest.\n";
    return 0;
  }
  if (vm.count("version")) {
    int major = 0, minor = 0;
    nvrtcVersion(&major, &minor);
    std::cout << "tilec " TILEC_VERSION "\nLLVM " LLVM_VERSION_STRING "\nCUDA (NVRTC) " << major
              << "." << minor << "\n";
    return 0;
  }
  if (o.inputs.empty()) {
    std::cerr << "tilec: error: no input files\n" << desc << "\n";
    return 1;
  }
  if (!o.dumpAfter.empty()) {
    bool known = o.dumpAfter == "all";
    for (auto &p : tilec::passNames())
      known |= p == o.dumpAfter;
    if (!known) {
      std::cerr << "tilec: error: --dump-after: unknown pass '" << o.dumpAfter << "' (known:";
      for (auto &p : tilec::passNames())
        std::cerr << " " << p;
      std::cerr << ", or all)\n";
      return 1;
    }
  }
  if (std::string err = tilec::Target::parse(arch, o.target); !err.empty()) {
    std::cerr << "tilec: error: --arch: " << err << "\n";
    return 1;
  }
  o.clangArgs.push_back("-std=" + std);
  for (auto &i : includes)
    o.clangArgs.push_back("-I" + i);
  for (auto &d : defines)
    o.clangArgs.push_back("-D" + d);
  o.clangArgs.insert(o.clangArgs.end(), extra.begin(), extra.end());
  for (int i = ours + 1; i < argc; ++i)
    o.clangArgs.push_back(argv[i]);
  return tilec::runWithLargeStack(std::size_t(stackMiB) << 20, [&]() -> int {
    try {
      return tilec::translate(o);
    } catch (const std::exception &e) {
      std::cerr << "tilec: error: " << e.what() << "\n";
      return 1;
    }
  });
}
