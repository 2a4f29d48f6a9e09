/* Why: building the IR of a model with 100,000 tensors touches hundreds of
 * MiB of fresh heap, and on a VM every first touch of a 4 KiB page is a
 * fault that traps to the hypervisor: it was the largest single cost of
 * such a run. glibc's malloc asks the kernel for 2 MiB pages (where the
 * system allows them on request: transparent_hugepage "madvise" or
 * "always") only when told so at startup, through GLIBC_TUNABLES; a
 * running process cannot turn it on. So opt restarts itself once, early,
 * with these tunables added to the environment:
 *
 *   glibc.malloc.hugetlb=1           madvise(MADV_HUGEPAGE) the heap
 *   glibc.malloc.mmap_threshold=64M  blocks up to 64 MiB from that heap
 *   glibc.malloc.top_pad=32M         and grow it 32 MiB at a time
 *
 * 100,000 small weights: 4.3 s -> 3.7 s. The price of the restart is
 * 60-100 ms (a second exec and whole huge pages to clear), which a small
 * model or one big weight never wins back (the 384 MiB mixed model: 1.13
 * -> 1.23 s; one 4 GiB weight: no change), so opt restarts only for an
 * input whose IR will be large: a model file, or the model directory's
 * metadata.json and model files (not the weights), of
 * OPT_HUGE_PAGES_MIN_INPUT bytes or more (about 15,000 instructions or
 * weights). WP_NO_HUGE_PAGES=1 (or a GLIBC_TUNABLES that already sets
 * glibc.malloc.hugetlb, or an address-space limit) keeps the process as
 * it was started.
 *
 * It restarts at most once: WP_HUGE_PAGES_RESTARTED marks the restarted
 * process, which puts GLIBC_TUNABLES back as it was (glibc read it at
 * startup already) so programs opt starts do not inherit it. Not in secure
 * mode (setuid: glibc drops the tunables, so each restart would look like
 * the first), and not when started through the dynamic loader by hand
 * ("ld.so opt ...": /proc/self/exe is then the loader). */
#include "opt_hugepages.h"

#include <dirent.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#define RESTARTED "WP_HUGE_PAGES_RESTARTED" /* "-": GLIBC_TUNABLES was unset; "=V": it was V */
#define OPT_TUNABLES \
  "glibc.malloc.hugetlb=1:glibc.malloc.mmap_threshold=67108864:glibc.malloc.top_pad=33554432"

#if !defined(__SANITIZE_ADDRESS__)
#define OPT_HUGE_PAGES_MIN_INPUT ((uint64_t)2 << 20)

/* Will INPUT's IR be large? Its size, or for a model directory the size
 * of metadata.json (it grows with the weight count) and of the model
 * files beside it (.pb, .mlir: they grow with the instruction count);
 * other files there (an earlier NEFF, notes) say nothing. */
static bool input_is_large(const char *input) {
  struct stat st;
  if (!input || stat(input, &st) != 0)
    return false;
  if (!S_ISDIR(st.st_mode))
    return S_ISREG(st.st_mode) && (uint64_t)st.st_size >= OPT_HUGE_PAGES_MIN_INPUT;
  DIR *d = opendir(input);
  if (!d)
    return false;
  uint64_t total = 0;
  char path[4096];
  for (struct dirent *e; (e = readdir(d)) && total < OPT_HUGE_PAGES_MIN_INPUT;) {
    size_t n = strlen(e->d_name);
    bool model = strcmp(e->d_name, "metadata.json") == 0 ||
                 (n > 3 && strcmp(e->d_name + n - 3, ".pb") == 0) ||
                 (n > 5 && strcmp(e->d_name + n - 5, ".mlir") == 0);
    if (!model)
      continue;
    if (snprintf(path, sizeof path, "%s/%s", input, e->d_name) < (int)sizeof path &&
        stat(path, &st) == 0 && S_ISREG(st.st_mode))
      total += (uint64_t)st.st_size;
  }
  closedir(d);
  return total >= OPT_HUGE_PAGES_MIN_INPUT;
}

/* Does the kernel hand out huge pages on request? */
static bool huge_pages_on_request(void) {
  FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
  if (!f)
    return false;
  char line[128] = "";
  bool ok = fgets(line, sizeof line, f) &&
            (strstr(line, "[madvise]") != NULL || strstr(line, "[always]") != NULL);
  fclose(f);
  return ok;
}
#endif

bool opt_exec_with_huge_pages(char **argv, const char *input) {
#if defined(__SANITIZE_ADDRESS__)
  (void)argv; /* the sanitizer's allocator is not glibc's */
  (void)input;
  return false;
#else
  const char *restarted = getenv(RESTARTED);
  if (restarted) {
    if (restarted[0] == '=')
      setenv("GLIBC_TUNABLES", restarted + 1, 1);
    else
      unsetenv("GLIBC_TUNABLES");
    unsetenv(RESTARTED);
    return true;
  }
  const char *off = getenv("WP_NO_HUGE_PAGES");
  const char *old = getenv("GLIBC_TUNABLES");
  /* under an address-space limit (ulimit -v) the 64 MiB heap blocks and
   * 2 MiB alignments spend it: a run that fits without them would not */
  struct rlimit as;
  bool as_limited = getrlimit(RLIMIT_AS, &as) == 0 && as.rlim_cur != RLIM_INFINITY;
  if ((off && *off && strcmp(off, "0") != 0) || (old && strstr(old, "glibc.malloc.hugetlb")) ||
      getauxval(AT_SECURE) || getauxval(AT_BASE) == 0 || as_limited ||
      !huge_pages_on_request() || !input_is_large(input))
    return false;
  size_t n = (old ? strlen(old) : 0) + sizeof OPT_TUNABLES + 1;
  char *value = malloc(n), *marker = malloc(n + 1);
  char *saved = old ? strdup(old) : NULL;
  if (!value || !marker || (old && !saved))
    goto out;
  snprintf(value, n, "%s%s%s", old && *old ? old : "", old && *old ? ":" : "", OPT_TUNABLES);
  snprintf(marker, n + 1, "%s%s", old ? "=" : "-", old ? old : "");
  if (setenv(RESTARTED, marker, 1) != 0 || setenv("GLIBC_TUNABLES", value, 1) != 0)
    goto restore;
  execv("/proc/self/exe", argv);
restore: /* could not restart (no /proc?): go on as started */
  if (saved)
    setenv("GLIBC_TUNABLES", saved, 1);
  else
    unsetenv("GLIBC_TUNABLES");
  unsetenv(RESTARTED);
out:
  free(value);
  free(marker);
  free(saved);
  return false;
#endif
}
