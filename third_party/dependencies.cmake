# Imported targets for the Debian packages Paceline uses (script/setup
# installs them). Packages that ship a CMake config are found by it; those
# that do not (libpg_query, xxhash) get a small imported target here.
# No third-party source is copied into this repository.

find_package(Threads REQUIRED)
find_package(TBB REQUIRED)            # libtbb-dev: TBB::tbb, TBB::tbbmalloc
find_package(libcuckoo REQUIRED)      # libcuckoo-dev: libcuckoo::libcuckoo
find_package(gflags REQUIRED)         # libgflags-dev
find_package(absl REQUIRED)           # libabsl-dev: absl::btree (ordered indexes), absl::flat_hash_set
find_package(OpenSSL REQUIRED)        # libssl-dev: OpenSSL::Crypto (SCRAM-SHA-256 in the server, SQL md5())

# libpg-query-dev: PostgreSQL's parser as a library. Its protobuf output is
# unpacked with the protobuf-c runtime compiled into libpg_query itself; only
# the protobuf-c header comes from libprotobuf-c-dev (we must not link
# libprotobuf-c as well: the symbols would clash).
find_path(PG_QUERY_INCLUDE_DIR pg_query.h REQUIRED)
find_path(PROTOBUF_C_INCLUDE_DIR protobuf-c/protobuf-c.h REQUIRED)
find_library(PG_QUERY_LIBRARY NAMES libpg_query.a pg_query REQUIRED)
add_library(pg_query::pg_query UNKNOWN IMPORTED)
set_target_properties(pg_query::pg_query PROPERTIES
  IMPORTED_LOCATION "${PG_QUERY_LIBRARY}"
  INTERFACE_INCLUDE_DIRECTORIES "${PG_QUERY_INCLUDE_DIR};${PG_QUERY_INCLUDE_DIR}/pg_query;${PROTOBUF_C_INCLUDE_DIR}"
  INTERFACE_LINK_LIBRARIES Threads::Threads)

# libxxhash-dev: fast non-cryptographic hashing (keys, references).
find_path(XXHASH_INCLUDE_DIR xxhash.h REQUIRED)
find_library(XXHASH_LIBRARY NAMES xxhash REQUIRED)
add_library(xxhash::xxhash UNKNOWN IMPORTED)
set_target_properties(xxhash::xxhash PROPERTIES
  IMPORTED_LOCATION "${XXHASH_LIBRARY}"
  INTERFACE_INCLUDE_DIRECTORIES "${XXHASH_INCLUDE_DIR}")

# libre2-dev: regular expressions in linear time (SQL's ~, ~*, !~, !~*), so
# no pattern a client sends can make a statement run away. Found through
# its pkg-config file (Debian's has no CMake config).
find_package(PkgConfig REQUIRED)
pkg_check_modules(RE2 REQUIRED IMPORTED_TARGET re2)

# libasio-dev: standalone Asio (header-only), the server's sockets.
find_path(ASIO_INCLUDE_DIR asio.hpp REQUIRED)
add_library(asio::asio INTERFACE IMPORTED)
set_target_properties(asio::asio PROPERTIES
  INTERFACE_INCLUDE_DIRECTORIES "${ASIO_INCLUDE_DIR}"
  INTERFACE_COMPILE_DEFINITIONS "ASIO_STANDALONE"
  INTERFACE_LINK_LIBRARIES Threads::Threads)

# libcpp-httplib-dev: the HTTP server of paceline-server's --metrics-port
# (Prometheus's /metrics). Debian's is a compiled library, found through
# its pkg-config file (which also gives the feature macros it was built with).
pkg_check_modules(CPP_HTTPLIB REQUIRED IMPORTED_TARGET cpp-httplib)

if(PACELINE_BUILD_TESTS)
  find_package(GTest REQUIRED)        # libgtest-dev, libgmock-dev
endif()
if(PACELINE_BUILD_BENCHMARKS)
  find_package(benchmark REQUIRED)    # libbenchmark-dev
endif()
