// The MLIR pass plugin: stock mlir-opt --load-pass-plugin= calls this entry
// point, which registers weightpack's passes (libweightpack.so, with the
// host's MLIR). The plugin's C++ is this ABI entry and the pass flags.
#include "weightpack/weightpack.h"

#include <llvm/Support/CommandLine.h>
#include <mlir/Tools/Plugins/PassPlugin.h>

#include <string>

namespace {

// mlir-opt makes a flag of every pass it knows before it reads the
// command line, and loads plugins while reading it: a plugin's passes are
// no flags. Each pass gets a flag here, --NAME[=OPTIONS], which appends
// NAME{OPTIONS} to mlir-opt's --pass-pipeline (builtin.module(...)), so
// that `mlir-opt --load-pass-plugin=P in.mlir --inline-weights=model-dir=D
// --bir-lower ...` runs as the pipeline form does.
void appendToPipeline(const std::string &name, const std::string &options) {
  auto &registered = llvm::cl::getRegisteredOptions();
  auto found = registered.find("pass-pipeline");
  if (found == registered.end()) // not mlir-opt: --pass-pipeline is its option
    return;
  // mlir::PassPipelineCLParser's --pass-pipeline is a cl::opt<std::string>
  auto *pipeline = static_cast<llvm::cl::opt<std::string> *>(found->second);
  std::string item = options.empty() ? name : name + "{" + options + "}";
  if (pipeline->getNumOccurrences() == 0) {
    pipeline->addOccurrence(0, "pass-pipeline", "builtin.module(" + item + ")");
    return;
  }
  std::string text = pipeline->getValue();
  size_t close = text.rfind(')');
  if (close == std::string::npos || close == 0)
    return;
  bool empty = text.compare(close - 1, 1, "(") == 0;
  text.insert(close, empty ? item : "," + item);
  pipeline->setValue(text);
}

void registerPassFlags() {
  for (size_t i = 0; i < wpPassCount(); i++) {
    std::string name = wpPassName(i); // static storage: the flag keeps a reference
    if (llvm::cl::getRegisteredOptions().count(name))
      continue; // loaded twice, or a name taken
    auto *flag = new llvm::cl::opt<std::string>( // lives as long as the process, as LLVM's
        llvm::StringRef(wpPassName(i)), llvm::cl::desc(wpPassDescription(i)),
        llvm::cl::ValueOptional, llvm::cl::Hidden);
    flag->setCallback([name](const std::string &options) { appendToPipeline(name, options); });
  }
}

} // namespace

extern "C" LLVM_ATTRIBUTE_WEAK mlir::PassPluginLibraryInfo mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "weightpack", WP_VERSION, [] {
            wpRegisterPasses();
            registerPassFlags();
          }};
}
