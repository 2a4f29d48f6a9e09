// The MLIR pass plugin: stock mlir-opt --load-pass-plugin= calls this entry
// point, which registers weightpack's passes (libweightpack.so, with the
// host's MLIR). The whole of the plugin's C++ is this ABI entry.
#include "weightpack/weightpack.h"

#include <mlir/Tools/Plugins/PassPlugin.h>

extern "C" LLVM_ATTRIBUTE_WEAK mlir::PassPluginLibraryInfo mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "weightpack", WP_VERSION, [] { wpRegisterPasses(); }};
}
