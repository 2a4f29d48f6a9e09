// The one pass shell. Every weightpack pass, whoever creates it (opt and
// the C API through wp_pass_create, MLIR's pass registry for textual
// pipelines and mlir-opt's plugin), is this C++ pass around a C body: MLIR
// takes only C++ pass objects into its registry, passes its options only
// through a virtual initializeOptions, and gives a pass its pipeline run
// only through the analysis manager.
#include "weightpack/weightpack.h"
#include "wp_hlo_verify.h"
#include "wp_pass.h"

#include <mlir/CAPI/IR.h>
#include <mlir/CAPI/Pass.h>
#include <mlir/IR/BuiltinOps.h>
#include <mlir/IR/Location.h>
#include <mlir/Pass/Pass.h>
#include <mlir/Pass/PassRegistry.h>
#include <mlir/Support/TypeID.h>

#include <memory>
#include <mutex>
#include <string>
#include <string.h>
#include <time.h>

namespace {

// The run object of one PassManager::run, for passes created without one:
// an analysis of the module lives as long as that run, and says it is
// never invalidated, so an upstream pass between two weightpack passes
// (canonicalize, a nested func.func pipeline) does not end the run.
struct RunAnalysis {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(RunAnalysis)
  explicit RunAnalysis(mlir::Operation *) : run(wp_run_create()) {}
  RunAnalysis(RunAnalysis &&other) noexcept : run(other.run) { other.run = nullptr; }
  RunAnalysis(const RunAnalysis &) = delete;
  ~RunAnalysis() { wp_run_release(run); }
  bool isInvalidated(const mlir::AnalysisManager::PreservedAnalyses &) { return false; }
  wp_run *run;
};

double nowSeconds() {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void printToStderr(MlirStringRef s, void *) { fwrite(s.data, 1, s.length, stderr); }

// Is NAME one of the comma-separated LIST?
bool named(const char *list, const char *name) {
  if (!list)
    return false;
  size_t n = strlen(name);
  for (const char *p = list; *p;) {
    const char *comma = strchr(p, ',');
    size_t len = comma ? (size_t)(comma - p) : strlen(p);
    if (len == n && !strncmp(p, name, n))
      return true;
    p += len + (comma ? 1 : 0);
  }
  return false;
}

// MLIR's own banner for --mlir-print-ir-before/after
void dumpIR(const wp_pass_observer *obs, const wp_pass_info *info, MlirOperation op,
            const char *when) {
  fprintf(stderr, "// -----// IR Dump %s %s (%s) //----- //\n", when, info->title, info->name);
  if (obs->print_flags.ptr == nullptr)
    mlirOperationPrint(op, printToStderr, nullptr);
  else
    mlirOperationPrintWithFlags(op, obs->print_flags, printToStderr, nullptr);
  fputs("\n\n", stderr);
}

class WeightpackPass : public mlir::OperationPass<mlir::ModuleOp> {
public:
  WeightpackPass(const wp_pass_info *passInfo, wp_run *givenRun)
      : OperationPass(mlir::TypeID::getFromOpaquePointer(passInfo)), info(passInfo),
        run(wp_run_retain(givenRun)) {
    showOptions(); // every option, for help
  }
  WeightpackPass(const WeightpackPass &other)
      : OperationPass(other), info(other.info), run(wp_run_retain(other.run)) {
    wp_error err;
    setOptions(other.text, &err); // parsed once already
  }
  ~WeightpackPass() override {
    wp_pass_options_free(&options);
    wp_run_release(run);
  }

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

  // Checks of the pass's own options that need no IR (a directory that is
  // a file, an output that cannot be made): made before any pass of the
  // pipeline runs, in every driver.
  mlir::LogicalResult initialize(mlir::MLIRContext *ctx) override {
    if (!info->check)
      return mlir::success();
    wp_error err;
    if (info->check(&options, run, &err) == 0)
      return mlir::success();
    wp_emit_error(wrap(mlir::Location(mlir::UnknownLoc::get(ctx))), "%s", err.msg);
    return mlir::failure();
  }

  void runOnOperation() override {
    // held for the whole pass: a dynamic pipeline (runNeeded) clears the
    // module's analyses when it ends, the run's among them
    std::unique_ptr<wp_run, void (*)(wp_run *)> held(
        wp_run_retain(run ? run : getAnalysis<RunAnalysis>().run), wp_run_release);
    wp_run *state = held.get();
    markAnalysesPreserved<RunAnalysis>();
    MlirOperation op = wrap(getOperation().getOperation());
    wp_pass_run body = {info, op, &options, state};
    if ((info->prepare && info->prepare(&body)) || mlir::failed(runNeeded(state))) {
      state->failed = true;
      return signalPassFailure();
    }
    wp_pass_observer *obs = state->observer;
    if (obs && (obs->print_ir_before_all || named(obs->print_ir_before, info->name)))
      dumpIR(obs, info, op, "Before");
    double t0 = nowSeconds();
    int rc = info->run(&body);
    if (obs && obs->timing &&
        obs->n_timings < sizeof obs->timing_names / sizeof obs->timing_names[0]) {
      obs->timing_names[obs->n_timings] = info->title;
      obs->timing_peak_kib[obs->n_timings] = wp_pass_peak_rss_kib();
      obs->timing_seconds[obs->n_timings++] = nowSeconds() - t0;
    }
    if (rc != 0) {
      state->failed = true;
      return signalPassFailure();
    }
    wp_run_note_ran(state, info->name);
    // XLA's shape checks on what the pass made (opt --verify-each=false: not)
    if (info->traits.changes_hlo && !(obs && obs->no_hlo_verify) &&
        wp_hlo_verify_ir(mlirModuleFromOperation(op), info->name)) {
      state->failed = true;
      return signalPassFailure();
    }
    if (obs && (obs->print_ir_after_all || named(obs->print_ir_after, info->name)))
      dumpIR(obs, info, op, "After");
    if (obs && obs->verify_roundtrip) {
      wp_error err;
      MlirLocation where;
      if (wp_verify_roundtrip(mlirModuleFromOperation(op), info->name, &where, &err)) {
        wp_emit_error(where, "%s", err.msg);
        state->failed = true;
        signalPassFailure();
      }
    }
  }

  // The passes this one needs that have not run in this run (neff-pack:
  // copy-const-artifacts, dedup-consts), run first on the module as a
  // dynamic pipeline, with this pass's run object: every driver gets
  // them, not only opt.
  mlir::LogicalResult runNeeded(wp_run *state) {
    mlir::OpPassManager needed(mlir::ModuleOp::getOperationName());
    size_t n = 0;
    for (const char *name : info->traits.needs) {
      const wp_pass_info *need = name ? wp_pass_lookup(name) : nullptr;
      if (!need || wp_run_ran(state, name) ||
          (need->done_on && need->done_on(wrap(getOperation().getOperation()), state)))
        continue;
      needed.addPass(std::make_unique<WeightpackPass>(need, state));
      n++;
    }
    if (n == 0)
      return mlir::success();
    if (info->declare) // what the passes it brings should know of it
      info->declare(&options, state);
    mlir::LogicalResult ran = runPipeline(needed, getOperation());
    if (!run) { // the run goes on: the analysis the pipeline cleared holds it again
      RunAnalysis &again = getAnalysis<RunAnalysis>();
      if (again.run != state) {
        wp_run_release(again.run);
        again.run = wp_run_retain(state);
      }
      markAnalysesPreserved<RunAnalysis>();
    }
    return ran;
  }

  // A driver's run object for a pass made without one (by name, from a
  // textual pipeline): as if it had been made for RUN.
  void adopt(wp_run *given) {
    if (run)
      return;
    run = wp_run_retain(given);
    if (info->declare)
      info->declare(&options, run);
  }

  const wp_pass_info *passInfo() const { return info; }

  std::unique_ptr<mlir::Pass> clonePass() const override {
    return std::make_unique<WeightpackPass>(*this);
  }

  int setOptions(const std::string &given, wp_error *err) {
    wp_pass_options parsed;
    if (wp_pass_parse_options(info, given.c_str(), &parsed, err))
      return -1;
    wp_pass_options_free(&options);
    options = parsed;
    text = given;
    showOptions();
    if (run && info->declare)
      info->declare(&options, run);
    return 0;
  }

private:
  // MLIR shows a pass's options (mlir-opt --help) and prints them
  // (--dump-pass-pipeline, the crash reproducer, pipelines printed back)
  // from the Option objects registered on it: one for every option, so
  // that help lists them all, holding a value only when one was given
  // (a list option with no element is not printed), so that a printed
  // pipeline replays the run. Values are parsed and checked by
  // wp_pass_parse_options, never through these.
  void showOptions() {
    for (int i = 0; i < WP_PASS_MAX_OPTIONS && info->options[i].name; i++) {
      auto &shown = shownOptions[i];
      if (!shown)
        shown = std::make_unique<ListOption<std::string>>(*this, info->options[i].name,
                                                          llvm::cl::desc(info->options[i].help));
      shown->clear();
      if (options.values[i])
        shown->push_back(options.values[i]);
    }
  }

  const wp_pass_info *info;
  std::unique_ptr<ListOption<std::string>> shownOptions[WP_PASS_MAX_OPTIONS];
  wp_run *run; // given by the driver (retained), or null: the pipeline run's
  wp_pass_options options = {};
  std::string text; // as given: for clones
};

} // namespace

extern "C" MlirPass wp_pass_create(const wp_pass_info *info, const char *options, wp_run *run,
                                   wp_error *err) {
  auto pass = std::make_unique<WeightpackPass>(info, run);
  if (pass->setOptions(options ? options : "", err))
    return MlirPass{nullptr};
  return wrap(static_cast<mlir::Pass *>(pass.release()));
}

extern "C" int wpRunAdoptPasses(wp_run *run, MlirPassManager pm, wp_error *err) {
  if (!run || !pm.ptr)
    return wp_error_set(err, "wpRunAdoptPasses: a null %s", run ? "pass manager" : "run");
  size_t n = 0;
  const wp_pass_info *const *all = wp_pass_registry(&n);
  for (mlir::Pass &pass : unwrap(pm)->getPasses())
    for (size_t i = 0; i < n; i++)
      if (pass.getTypeID() == mlir::TypeID::getFromOpaquePointer(all[i]))
        static_cast<WeightpackPass &>(pass).adopt(run);
  return 0;
}

extern "C" void wpRegisterPasses(void) {
  static std::once_flag once;
  std::call_once(once, [] {
    size_t n = 0;
    const wp_pass_info *const *all = wp_pass_registry(&n);
    for (size_t i = 0; i < n; i++) {
      const wp_pass_info *info = all[i];
      mlir::registerPass([info] { return std::make_unique<WeightpackPass>(info, nullptr); });
    }
  });
}
