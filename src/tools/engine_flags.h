// Engine flags: the command-line flags that paceline-bench and
// paceline-server share for the engine and its scheduler (--workers, --cc,
// --scheduler, --history-*, --state, --reference-sources,
// --reference-multiplicity, --partition-domain, --steal*, --max-retries,
// --max-retry-pause-us, --retry-yield,
// --lock-timeout-ms, --seed), defined once here, and their copy into
// engine::Options.
//
// A binary that links this file has these flags; it may change a flag's
// default before parsing (SetEngineFlagDefault, e.g. the server's default
// scheduler). Library code never sees the flags: EngineOptionsFromFlags
// copies them into Options after gflags has parsed the command line.
// Thread-safety: call from main() only.
#pragma once

#include <gflags/gflags_declare.h>

#include <string>

#include "common/status.h"
#include "engine/options.h"

// The flags, for binaries that report them as given.
DECLARE_int32(workers);
DECLARE_string(cc);
DECLARE_string(scheduler);
DECLARE_string(history_warmup);
DECLARE_string(history_learning);
DECLARE_string(state);
DECLARE_uint64(history_capacity);
DECLARE_int32(history_half_life_ms);
DECLARE_double(exploration);
DECLARE_bool(run_here);
DECLARE_string(reference_sources);
DECLARE_string(reference_multiplicity);
DECLARE_string(partition_domain);
DECLARE_bool(steal);
DECLARE_int32(steal_threshold);
DECLARE_int32(max_retries);
DECLARE_int32(max_retry_pause_us);
DECLARE_bool(retry_yield);
DECLARE_int32(lock_timeout_ms);
DECLARE_bool(parameterize_literals);
DECLARE_string(data_dir);
DECLARE_string(sync);
DECLARE_int32(checkpoint_interval_s);
DECLARE_uint64(checkpoint_log_mb);
DECLARE_bool(checkpoint_on_close);
DECLARE_int32(group_commit_us);
DECLARE_uint64(seed);

namespace paceline::tools {

// Changes the default (and the value, before parsing) of one engine flag;
// `--help` then shows it. Returns false for a flag that is not an engine flag.
bool SetEngineFlagDefault(const std::string& name, const std::string& value);

// Fills options' execution and scheduling fields from the engine flags. An
// invalid value → 22023 with a message that names the flag and says what
// it accepts (the caller prints it and exits with status 2).
Status EngineOptionsFromFlags(engine::Options* options);

}  // namespace paceline::tools
