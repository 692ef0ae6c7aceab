// AcceptDashedFlags: lets a binary's users write flags with dashes
// (--stmt-latency-us=5) though gflags names them with underscores
// (FLAGS_stmt_latency_us). Rewrites, in place, the name part of every
// "--name[=value]" argument before the first "--" alone; values are left as
// they are. Call it before gflags::ParseCommandLineFlags.
#pragma once

namespace paceline::tools {

void AcceptDashedFlags(int argc, char** argv);

}  // namespace paceline::tools
