// AcceptDashedFlags: "--a-b=c-d" → "--a_b=c-d".
#include "tools/flag_names.h"

#include <cstring>

namespace paceline::tools {

void AcceptDashedFlags(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    char* arg = argv[i];
    if (std::strcmp(arg, "--") == 0) return;  // the rest are not flags
    if (arg[0] != '-') continue;
    char* name = arg + (arg[1] == '-' ? 2 : 1);
    for (char* p = name; *p != '\0' && *p != '='; ++p) {
      if (*p == '-') *p = '_';
    }
  }
}

}  // namespace paceline::tools
