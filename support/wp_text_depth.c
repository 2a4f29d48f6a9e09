#include "wp_text_depth.h"

size_t wp_text_depth(const char *text, size_t len, size_t limit, size_t *line) {
  size_t depth = 0, max = 0, at_line = 1, cur_line = 1;
  for (size_t i = 0; i < len && max <= limit; i++) {
    char c = text[i];
    switch (c) {
    case '\n':
      cur_line++;
      break;
    case '"': /* a string literal: escapes, no newlines in MLIR's */
      for (i++; i < len && text[i] != '"' && text[i] != '\n'; i++)
        if (text[i] == '\\')
          i++;
      if (i < len && text[i] == '\n')
        cur_line++;
      break;
    case '/':
      if (i + 1 < len && text[i + 1] == '/') {
        while (i < len && text[i] != '\n')
          i++;
        cur_line++;
      }
      break;
    case '(': case '[': case '{': case '<':
      if (++depth > max) {
        max = depth;
        at_line = cur_line;
      }
      break;
    case '>':
      if (i > 0 && text[i - 1] == '-')
        break;
      /* fall through */
    case ')': case ']': case '}':
      if (depth)
        depth--;
      break;
    }
  }
  if (line)
    *line = at_line;
  return max;
}
