// WithStatementLatency: makes a stored procedure wait after each statement,
// holding everything its transaction holds meanwhile (locks under 2PL, a
// longer window between read and validation under OCC).
//
// This models the interactive (network) regime, where a client sends one
// statement per round trip and the transaction stays open between them; and
// it lets a 2-core machine show the conflicts of a large one, because
// transactions overlap in time while the cores are free. The worker thread
// sleeps (it does not spin), so `latency` × statements bounds a worker's
// throughput: a transaction of s statements takes at least s × latency.
//
// Thread-safety: the returned procedure is as thread-safe as `procedure`.
#pragma once

#include <chrono>

#include "engine/procedure.h"

namespace paceline::workloads {

// `procedure` unchanged when latency is 0.
engine::Procedure WithStatementLatency(engine::Procedure procedure, std::chrono::microseconds latency);

}  // namespace paceline::workloads
