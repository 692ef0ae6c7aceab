// AcceptDashedFlags: lets a binary's users write flags with dashes
// (--stmt-latency-us=5) though gflags names them with underscores
// (FLAGS_stmt_latency_us). Rewrites, in place, the name part of every
// "--name[=value]" argument before the first "--" alone; values are left as
// they are. Call it before gflags::ParseCommandLineFlags.
//
// UnknownFlag: the first argument that names no defined flag ("--nope", or
// "--nofoo" where foo is no boolean flag), as the user wrote it, or "" when
// every one is known (dashes and underscores alike). gflags itself would exit with 1 on it; the
// binaries exit with 2, their code for bad usage, naming it.
#pragma once

#include <string>

namespace paceline::tools {

void AcceptDashedFlags(int argc, char** argv);
std::string UnknownFlag(int argc, char** argv);

}  // namespace paceline::tools
