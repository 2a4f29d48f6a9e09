/* The run's record of weight constants mapped from files (bir-lower asks
 * it): attributes noted in any address order are found, others are not,
 * another context starts the record over. */
#include "wp_run.h"
#include "wp_test.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>

#include <stdint.h>

enum { N = 5000 };

int main(void) {
  MlirContext ctx = mlirContextCreate();
  MlirType i64 = mlirIntegerTypeGet(ctx, 64);
  static MlirAttribute attrs[N];
  for (int i = 0; i < N; i++)
    attrs[i] = mlirIntegerAttrGet(i64, i);
  wp_run *run = wp_run_create();
  CHECK(!wp_run_is_mapped(run, attrs[0]));
  /* the even ones, last first: addresses out of order */
  for (int i = N - 2; i >= 0; i -= 2)
    wp_run_note_mapped(run, attrs[i]);
  int wrong = 0;
  for (int i = 0; i < N; i++)
    wrong += wp_run_is_mapped(run, attrs[i]) != (i % 2 == 0);
  CHECK(wrong == 0);
  /* noted after a lookup: found too */
  wp_run_note_mapped(run, attrs[1]);
  CHECK(wp_run_is_mapped(run, attrs[1]) && wp_run_is_mapped(run, attrs[0]));
  CHECK(!wp_run_is_mapped(run, attrs[3]));
  CHECK(!wp_run_is_mapped(NULL, attrs[0]));
  /* another context: what was noted in the first no longer counts */
  MlirContext other = mlirContextCreate();
  MlirAttribute o = mlirIntegerAttrGet(mlirIntegerTypeGet(other, 64), 0);
  CHECK(!wp_run_is_mapped(run, o));
  wp_run_note_mapped(run, o);
  CHECK(wp_run_is_mapped(run, o) && !wp_run_is_mapped(run, attrs[0]));
  wp_run_release(run);
  mlirContextDestroy(other);
  mlirContextDestroy(ctx);
  return wp_test_result("test_run_mapped");
}
