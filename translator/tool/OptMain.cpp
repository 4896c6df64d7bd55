// tilec-opt: runs passes of the pipeline on tile IR read from a file (the text that
// `tilec --dump-after` prints) and prints the IR after them, as triton-opt does for Triton's
// IR; tests/passes/ checks single passes with it. No clang is involved: the file holds all
// of each kernel (name, template parameters, parameters, layouts, ops).
#include "Pipeline.h"
#include "ir/Parser.h"

#include <boost/program_options.hpp>

#include <fstream>
#include <iostream>
#include <sstream>

namespace po = boost::program_options;

int main(int argc, char **argv) {
  std::vector<std::string> passLists;
  std::string input, output, arch = tilec::Target::defaultTarget().arch;
  po::options_description desc("usage: tilec-opt [options] <input.ir | ->\noptions");
  desc.add_options()("help,h", "show this help")(
      "run-pass", po::value(&passLists)->composing(),
      "passes to run, in order: name[,name...] (repeatable; 'all': the whole pipeline)")(
      "output,o", po::value(&output), "write the IR here (default: standard output)")(
      "arch", po::value(&arch), "the target the passes assume (default sm_90a)");
  po::options_description hidden;
  hidden.add_options()("input", po::value(&input));
  po::options_description all;
  all.add(desc).add(hidden);
  po::positional_options_description pos;
  pos.add("input", 1);
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(argc, argv).options(all).positional(pos).run(), vm);
    po::notify(vm);
  } catch (const std::exception &e) {
    std::cerr << "tilec-opt: error: " << e.what() << "\n";
    return 1;
  }
  if (vm.count("help")) {
    std::cout << desc << "\npasses, in pipeline order:\n" << tilec::passHelp();
    return 0;
  }
  if (input.empty()) {
    std::cerr << "tilec-opt: error: no input file\n" << desc << "\n";
    return 1;
  }
  tilec::Target target;
  if (std::string err = tilec::Target::parse(arch, target); !err.empty()) {
    std::cerr << "tilec-opt: error: --arch: " << err << "\n";
    return 1;
  }

  std::vector<std::string> passes;
  for (const std::string &list : passLists) {
    std::stringstream ss(list);
    for (std::string name; std::getline(ss, name, ',');) {
      if (name == "all") {
        for (const tilec::PassInfo &p : tilec::passTable())
          passes.push_back(p.name);
      } else if (!tilec::findPass(name)) {
        std::cerr << "tilec-opt: error: --run-pass: unknown pass '" << name << "'\n";
        return 1;
      } else {
        passes.push_back(name);
      }
    }
  }

  std::stringstream text;
  if (input == "-") {
    text << std::cin.rdbuf();
  } else {
    std::ifstream f(input, std::ios::binary);
    if (!f) {
      std::cerr << "tilec-opt: error: cannot read '" << input << "'\n";
      return 1;
    }
    text << f.rdbuf();
  }
  std::vector<std::unique_ptr<tilec::Kernel>> kernels;
  if (std::string err = tilec::parseKernels(text.str(), kernels); !err.empty()) {
    size_t colon = err.find(": "); // "line N: message" -> "file:N: error: message"
    std::cerr << input << ":" << err.substr(5, colon - 5) << ": error: " << err.substr(colon + 2)
              << "\n";
    return 1;
  }
  std::string out;
  for (auto &k : kernels) {
    std::string err = tilec::verifyAfter(*k, "parsing");
    if (err.empty())
      err = tilec::runPassList(*k, target, passes);
    if (!err.empty()) {
      std::cerr << input << ": error: kernel '" << k->name << "': " << err << "\n";
      return 1;
    }
    out += tilec::printKernel(*k);
  }
  if (output.empty()) {
    std::cout << out;
    return 0;
  }
  std::ofstream f(output, std::ios::binary);
  f << out;
  if (!f.good()) {
    std::cerr << "tilec-opt: error: cannot write '" << output << "'\n";
    return 1;
  }
  return 0;
}
