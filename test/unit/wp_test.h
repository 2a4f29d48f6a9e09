/* A minimal unit-test harness: CHECK records a failure and continues;
 * main returns wp_test_failures() so CTest sees the result. */
#ifndef WP_TEST_H
#define WP_TEST_H

#include <stdio.h>
#include <string.h>

static int wp_test_failed;

#define CHECK(cond)                                                              \
  do {                                                                           \
    if (!(cond)) {                                                               \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);   \
      wp_test_failed++;                                                          \
    }                                                                            \
  } while (0)

#define CHECK_STR(a, b)                                                          \
  do {                                                                           \
    const char *wp_a_ = (a), *wp_b_ = (b);                                       \
    if (!wp_a_ || !wp_b_ || strcmp(wp_a_, wp_b_) != 0) {                         \
      fprintf(stderr, "%s:%d: CHECK_STR failed: \"%s\" != \"%s\"\n", __FILE__,   \
              __LINE__, wp_a_ ? wp_a_ : "(null)", wp_b_ ? wp_b_ : "(null)");      \
      wp_test_failed++;                                                          \
    }                                                                            \
  } while (0)

#define CHECK_CONTAINS(hay, needle)                                              \
  do {                                                                           \
    const char *wp_h_ = (hay), *wp_n_ = (needle);                                \
    if (!wp_h_ || !strstr(wp_h_, wp_n_)) {                                       \
      fprintf(stderr, "%s:%d: \"%s\" does not contain \"%s\"\n", __FILE__,       \
              __LINE__, wp_h_ ? wp_h_ : "(null)", wp_n_);                        \
      wp_test_failed++;                                                          \
    }                                                                            \
  } while (0)

static inline int wp_test_result(const char *name) {
  if (wp_test_failed)
    fprintf(stderr, "%s: %d check(s) failed\n", name, wp_test_failed);
  else
    printf("%s: all checks passed\n", name);
  return wp_test_failed ? 1 : 0;
}

#endif
