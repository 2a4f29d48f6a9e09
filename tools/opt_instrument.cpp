// MLIR's pass instrumentation, which only its C++ API offers: opt's
// progress stage for every pass, and times for MLIR's own passes (the
// weightpack passes time themselves in their shell).
#include "opt_instrument.h"

#include "wp_pass.h"

#include <mlir/CAPI/Pass.h>
#include <mlir/Pass/PassInstrumentation.h>
#include <mlir/Pass/PassManager.h>

#include <deque>
#include <string>
#include <time.h>

namespace {

double nowSeconds() {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

class OptInstrumentation : public mlir::PassInstrumentation {
public:
  OptInstrumentation(wp_pass_observer *o, opt_progress *p) : obs(o), progress(p) {}

  void runBeforePass(mlir::Pass *pass, mlir::Operation *op) override {
    // a nested pipeline's passes run inside the adaptor pass that holds them
    if (op->getParentOp())
      return;
    if (progress)
      opt_progress_stage(progress, label(pass).c_str());
    started = nowSeconds();
  }
  void runAfterPass(mlir::Pass *pass, mlir::Operation *op) override { record(pass, op); }
  void runAfterPassFailed(mlir::Pass *pass, mlir::Operation *op) override { record(pass, op); }

private:
  static bool isWeightpack(mlir::Pass *pass) {
    std::string arg = pass->getArgument().str();
    return !arg.empty() && wp_pass_lookup(arg.c_str()) != nullptr;
  }

  // the pass's name in a pipeline: canonicalize; func.func(cse) for a nested one
  static std::string label(mlir::Pass *pass) {
    if (!pass->getArgument().empty())
      return pass->getArgument().str();
    std::string text;
    llvm::raw_string_ostream os(text);
    pass->printAsTextualPipeline(os);
    return os.str();
  }

  void record(mlir::Pass *pass, mlir::Operation *op) {
    const size_t cap = sizeof obs->timing_names / sizeof obs->timing_names[0];
    if (!obs || !obs->timing || op->getParentOp() || isWeightpack(pass) || obs->n_timings >= cap)
      return;
    names.push_back(label(pass));
    obs->timing_names[obs->n_timings] = names.back().c_str();
    obs->timing_peak_kib[obs->n_timings] = wp_pass_peak_rss_kib();
    obs->timing_seconds[obs->n_timings++] = nowSeconds() - started;
  }

  wp_pass_observer *obs;
  opt_progress *progress;
  double started = 0;
  std::deque<std::string> names; // the observer points into these
};

} // namespace

extern "C" void opt_instrument(MlirPassManager pm, wp_pass_observer *obs, opt_progress *progress) {
  unwrap(pm)->addInstrumentation(std::make_unique<OptInstrumentation>(obs, progress));
}

extern "C" size_t opt_pass_count(MlirPassManager pm) { return unwrap(pm)->size(); }
