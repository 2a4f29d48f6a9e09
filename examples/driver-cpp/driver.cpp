// A compiler driver in C++ on MLIR's own C++ API and weightpack's C API:
// an mlir::MLIRContext, weightpack's dialects, the model read, an
// mlir::PassManager anchored on builtin.module, the pipeline text parsed by
// MLIR, run (docs/driver-cpp.md walks through it).
//   driver-cpp MODEL_DIR OUT.neff [PIPELINE]
// PIPELINE defaults to
//   builtin.module(inline-weights{model-dir=MODEL_DIR},bir-lower,neff-pack{output=OUT.neff})
// and may name MLIR's Transforms passes (canonicalize, cse, ...). Whatever
// the pipeline, the driver fails unless a pass ran and OUT.neff was written.
// Exit 0, 1 on a bad model, pipeline or run (diagnostics on stderr), 2 on
// bad usage.
#include <weightpack/weightpack.h>

#include <llvm/Support/raw_ostream.h>
#include <mlir/CAPI/IR.h>
#include <mlir/IR/Diagnostics.h>
#include <mlir/IR/MLIRContext.h>
#include <mlir/IR/OwningOpRef.h>
#include <mlir/Pass/Pass.h>
#include <mlir/Pass/PassInstrumentation.h>
#include <mlir/Pass/PassManager.h>
#include <mlir/Pass/PassRegistry.h>
#include <mlir/Transforms/Passes.h>

#include <memory>
#include <string>
#include <sys/stat.h>

namespace {

// Every diagnostic, at every severity, as "severity: message".
mlir::LogicalResult printDiagnostic(mlir::Diagnostic &d) {
  static const char *const kinds[] = {"note", "warning", "error", "remark"};
  llvm::errs() << kinds[static_cast<int>(d.getSeverity())] << ": " << d << "\n";
  return mlir::success();
}

// Counts the passes that ran on some operation. A pass manager's nested
// pipelines are passes too, without a name; a pipeline in which nothing
// named ran did not reach the module (its anchor names no operation the
// module is or holds).
struct RanCounter : mlir::PassInstrumentation {
  explicit RanCounter(int *counter) : ran(counter) {}
  void runAfterPass(mlir::Pass *pass, mlir::Operation *) override {
    if (!pass->getArgument().empty())
      ++*ran;
  }
  int *ran;
};

// The file's identity, to tell a NEFF this run wrote from an older one.
struct FileStamp {
  bool exists = false;
  struct stat st = {};
};

FileStamp stampOf(const char *path) {
  FileStamp s;
  s.exists = stat(path, &s.st) == 0;
  return s;
}

bool rewritten(const FileStamp &before, const FileStamp &after) {
  if (!after.exists)
    return false;
  return !before.exists || before.st.st_ino != after.st.st_ino ||
         before.st.st_dev != after.st.st_dev ||
         before.st.st_mtim.tv_sec != after.st.st_mtim.tv_sec ||
         before.st.st_mtim.tv_nsec != after.st.st_mtim.tv_nsec;
}

// TEXT into PM. mlir::parsePassPipeline(text, pm) would add TEXT's
// passes *nested* under PM (builtin.module(...) inside a builtin.module
// pass manager runs on modules the module holds: none); this form reads
// TEXT's own anchor and replaces PM's pipeline with it, as mlir-opt does.
bool parsePipeline(const std::string &text, mlir::PassManager &pm) {
  std::string msg;
  llvm::raw_string_ostream os(msg);
  mlir::FailureOr<mlir::OpPassManager> parsed = mlir::parsePassPipeline(text, os);
  if (mlir::failed(parsed)) {
    llvm::errs() << "error: " << os.str() << "\n";
    return false;
  }
  if (parsed->getOpAnchorName() != pm.getOpAnchorName()) {
    llvm::errs() << "error: the pipeline is anchored on '" << parsed->getOpAnchorName()
                 << "', not on '" << pm.getOpAnchorName() << "': write "
                 << pm.getOpAnchorName() << "(...)\n";
    return false;
  }
  static_cast<mlir::OpPassManager &>(pm) = std::move(*parsed);
  return true;
}

// Runs TEXT on MODULE; false (the reason said) unless a pass ran, the run
// succeeded and OUT was written.
bool runPipeline(mlir::MLIRContext &ctx, mlir::ModuleOp module, const std::string &text,
                 const char *out) {
  mlir::PassManager pm(&ctx, "builtin.module");
  if (!parsePipeline(text, pm))
    return false;
  int ran = 0;
  pm.addInstrumentation(std::make_unique<RanCounter>(&ran));
  FileStamp before = stampOf(out);
  if (mlir::failed(pm.run(module)))
    return false;
  if (ran == 0) {
    llvm::errs() << "error: the pipeline ran no pass: " << text << "\n";
    return false;
  }
  if (!rewritten(before, stampOf(out))) {
    llvm::errs() << "error: the pipeline wrote no " << out << " (no neff-pack{output=" << out
                 << "}?)\n";
    return false;
  }
  return true;
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 3 && argc != 4) {
    llvm::errs() << "usage: " << argv[0] << " MODEL_DIR OUT.neff [PIPELINE]\n";
    return 2;
  }
  std::string text = argc == 4 ? std::string(argv[3])
                               : "builtin.module(inline-weights{model-dir='" +
                                     std::string(argv[1]) + "'},bir-lower,neff-pack{output='" +
                                     argv[2] + "'})";
  // One context per model: the weights stay mapped as long as it lives.
  mlir::MLIRContext ctx;
  ctx.getDiagEngine().registerHandler(printDiagnostic);
  wpRegisterPasses();
  mlir::registerTransformsPasses();
  wp_error err;
  MlirModule cmodule = {nullptr};
  if (wpLoadDialects(wrap(&ctx), &err) ||
      wpOpenModelDir(wrap(&ctx), argv[1], nullptr, &cmodule, &err)) {
    llvm::errs() << "error: " << err.msg << "\n";
    return 1;
  }
  mlir::OwningOpRef<mlir::ModuleOp> module(unwrap(cmodule)); // ours to destroy
  return runPipeline(ctx, *module, text, argv[2]) ? 0 : 1;
}
