// The one C++ file: MLIR's pass registry (what mlirParsePassPipeline and
// mlir-opt style textual pipelines look passes up in) takes only C++ pass
// objects, and a pass's options reach it only through a virtual
// initializeOptions. Each registered pass is a thin shell around the same
// C pass body that wpCreatePass runs.
#include "weightpack/weightpack.h"
#include "wp_pass.h"

#include <mlir/CAPI/IR.h>
#include <mlir/IR/BuiltinOps.h>
#include <mlir/Pass/Pass.h>
#include <mlir/Pass/PassRegistry.h>

#include <memory>
#include <mutex>
#include <string>

namespace {

class RegisteredPass : public mlir::OperationPass<mlir::ModuleOp> {
public:
  explicit RegisteredPass(const wp_pass_info *pass_info)
      : OperationPass(mlir::TypeID::getFromOpaquePointer(pass_info)), info(pass_info) {}
  RegisteredPass(const RegisteredPass &other) : OperationPass(other), info(other.info) {
    setOptions(other.text);
  }
  ~RegisteredPass() override { wp_pass_options_free(&options); }

  llvm::StringRef getName() const override { return info->title; }
  llvm::StringRef getArgument() const override { return info->name; }
  llvm::StringRef getDescription() const override { return info->description; }

  mlir::LogicalResult
  initializeOptions(llvm::StringRef given,
                    llvm::function_ref<mlir::LogicalResult(const llvm::Twine &)> errorHandler)
      override {
    wp_error err;
    if (setOptions(given.str(), &err))
      return errorHandler(err.msg);
    return mlir::success();
  }

  void runOnOperation() override {
    if (wp_pass_run_plain(info, &options, wrap(getOperation().getOperation())))
      signalPassFailure();
  }

  std::unique_ptr<mlir::Pass> clonePass() const override {
    return std::make_unique<RegisteredPass>(*this);
  }

private:
  int setOptions(const std::string &given, wp_error *err = nullptr) {
    wp_pass_options parsed;
    wp_error local;
    if (wp_pass_parse_options(info, given.c_str(), &parsed, err ? err : &local))
      return -1;
    wp_pass_options_free(&options);
    options = parsed;
    text = given;
    return 0;
  }

  const wp_pass_info *info;
  wp_pass_options options = {};
  std::string text; // as given, for clones
};

} // namespace

extern "C" void wpRegisterPasses(void) {
  static std::once_flag once;
  std::call_once(once, [] {
    size_t n = 0;
    const wp_pass_info *const *all = wp_pass_registry(&n);
    for (size_t i = 0; i < n; i++) {
      const wp_pass_info *info = all[i];
      mlir::registerPass([info] { return std::make_unique<RegisteredPass>(info); });
    }
  });
}
