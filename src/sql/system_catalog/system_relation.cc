// The registry of system relations (see system_relation.h): each table's
// columns, as PostgreSQL 15 declares them ("char" is text here, name text
// subscripted as a name, the reg* types oid — regproc's OIDs are
// PostgreSQL's, the names print through a cast, typinput::regproc —,
// pg_node_tree the expression's text), and each view's query.
#include "sql/system_catalog/system_relation.h"

#include <cassert>
#include <map>

#include "common/types.h"

namespace paceline::sql {

namespace {

// "oid oid, relname name, conkey int2[]" → columns, and which are `name`.
std::vector<ResultColumn> ParseColumns(std::string_view text, std::vector<bool>* name_columns) {
  std::vector<ResultColumn> out;
  while (!text.empty()) {
    size_t comma = text.find(", ");
    std::string_view item = text.substr(0, comma);
    text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 2);
    const size_t space = item.find(' ');
    std::string_view type_name = item.substr(space + 1);
    name_columns->push_back(type_name == "name");
    if (type_name == "name") type_name = "text";
    const bool array = type_name.ends_with("[]");
    if (array) type_name.remove_suffix(2);
    Type type;
    const Status s = ResolveBuiltinType(type_name, {}, &type);
    assert(s.ok());
    (void)s;
    out.push_back({std::string(item.substr(0, space)), array ? Type::Array(type) : type});
  }
  return out;
}

// pg_stat_user_tables and pg_stat_all_tables (the same rows: Paceline's
// catalogs are not counted).
constexpr std::string_view kTableStatisticsColumns =
    "relid oid, schemaname text, relname text, seq_scan int8, seq_tup_read int8, idx_scan int8, "
    "idx_tup_fetch int8, n_tup_ins int8, n_tup_upd int8, n_tup_del int8, n_tup_hot_upd int8, n_live_tup int8, "
    "n_dead_tup int8, n_mod_since_analyze int8, n_ins_since_vacuum int8, last_vacuum timestamptz, "
    "last_autovacuum timestamptz, last_analyze timestamptz, last_autoanalyze timestamptz, vacuum_count int8, "
    "autovacuum_count int8, analyze_count int8, autoanalyze_count int8";

SystemRelation Table(std::string_view name, uint32_t oid, std::string_view columns,
                     void (*rows)(const SystemInfo&, const SystemRelation&, std::vector<std::vector<Value>>*),
                     std::string_view schema = "pg_catalog") {
  SystemRelation r;
  r.schema = schema;
  r.name = name;
  r.oid = oid;
  r.columns = ParseColumns(columns, &r.name_columns);
  r.rows = rows;
  return r;
}

SystemRelation View(std::string_view schema, std::string_view name, uint32_t oid, std::string_view query) {
  SystemRelation r;
  r.schema = schema;
  r.name = name;
  r.oid = oid;
  r.query = query;
  return r;
}

std::vector<SystemRelation> MakeRelations() {
  return {
      Table("pg_namespace", 2615, "oid oid, nspname name, nspowner oid, nspacl text[]", system_rows::Namespaces),
      Table("pg_class", 1259, "oid oid, relname name, relnamespace oid, reltype oid, reloftype oid, relowner oid, relam oid, relfilenode oid, reltablespace oid, relpages int4, reltuples float4, relallvisible int4, reltoastrelid oid, relhasindex bool, relisshared bool, relpersistence text, relkind text, relnatts int2, relchecks int2, relhasrules bool, relhastriggers bool, relhassubclass bool, relrowsecurity bool, relforcerowsecurity bool, relispopulated bool, relreplident text, relispartition bool, relrewrite oid, relfrozenxid int8, relminmxid int8, relacl text[], reloptions text[], relpartbound text", system_rows::Classes),
      Table("pg_attribute", 1249, "attrelid oid, attname name, atttypid oid, attstattarget int4, attlen int2, attnum int2, attndims int4, attcacheoff int4, atttypmod int4, attbyval bool, attalign text, attstorage text, attcompression text, attnotnull bool, atthasdef bool, atthasmissing bool, attidentity text, attgenerated text, attisdropped bool, attislocal bool, attinhcount int4, attcollation oid, attacl text[], attoptions text[], attfdwoptions text[], attmissingval text", system_rows::Attributes),
      Table("pg_type", 1247, "oid oid, typname name, typnamespace oid, typowner oid, typlen int2, typbyval bool, typtype text, typcategory text, typispreferred bool, typisdefined bool, typdelim text, typrelid oid, typsubscript oid, typelem oid, typarray oid, typinput oid, typoutput oid, typreceive oid, typsend oid, typmodin oid, typmodout oid, typanalyze oid, typalign text, typstorage text, typnotnull bool, typbasetype oid, typtypmod int4, typndims int4, typcollation oid, typdefaultbin text, typdefault text, typacl text[]", system_rows::Types),
      Table("pg_index", 2610, "indexrelid oid, indrelid oid, indnatts int2, indnkeyatts int2, indisunique bool, indnullsnotdistinct bool, indisprimary bool, indisexclusion bool, indimmediate bool, indisclustered bool, indisvalid bool, indcheckxmin bool, indisready bool, indislive bool, indisreplident bool, indkey int2vector, indcollation oidvector, indclass oidvector, indoption int2vector, indexprs text, indpred text", system_rows::Indexes),
      Table("pg_constraint", 2606, "oid oid, conname name, connamespace oid, contype text, condeferrable bool, condeferred bool, convalidated bool, conrelid oid, contypid oid, conindid oid, conparentid oid, confrelid oid, confupdtype text, confdeltype text, confmatchtype text, conislocal bool, coninhcount int4, connoinherit bool, conkey int2[], confkey int2[], conpfeqop oid[], conppeqop oid[], conffeqop oid[], confdelsetcols int2[], conexclop oid[], conbin text", system_rows::Constraints),
      Table("pg_attrdef", 2604, "oid oid, adrelid oid, adnum int2, adbin text", system_rows::AttributeDefaults),
      Table("pg_sequence", 2224, "seqrelid oid, seqtypid oid, seqstart int8, seqincrement int8, seqmax int8, seqmin int8, seqcache int8, seqcycle bool", system_rows::SequenceRows),
      Table("pg_am", 2601, "oid oid, amname name, amhandler oid, amtype text", system_rows::AccessMethods),
      Table("pg_database", 1262, "oid oid, datname name, datdba oid, encoding int4, datlocprovider text, datistemplate bool, datallowconn bool, datconnlimit int4, datfrozenxid int8, datminmxid int8, dattablespace oid, datcollate text, datctype text, daticulocale text, datcollversion text, datacl text[]", system_rows::Databases),
      Table("pg_roles", 12000, "rolname name, rolsuper bool, rolinherit bool, rolcreaterole bool, rolcreatedb bool, rolcanlogin bool, rolreplication bool, rolconnlimit int4, rolpassword text, rolvaliduntil timestamptz, rolbypassrls bool, rolconfig text[], oid oid", system_rows::Roles),
      Table("pg_authid", 1260, "oid oid, rolname name, rolsuper bool, rolinherit bool, rolcreaterole bool, rolcreatedb bool, rolcanlogin bool, rolreplication bool, rolbypassrls bool, rolconnlimit int4, rolpassword text, rolvaliduntil timestamptz", system_rows::Roles),
      Table("pg_settings", 12104, "name text, setting text, unit text, category text, short_desc text, extra_desc text, context text, vartype text, source text, min_val text, max_val text, enumvals text[], boot_val text, reset_val text, sourcefile text, sourceline int4, pending_restart bool", system_rows::Settings),
      Table("pg_stat_activity", 12222,
            "datid oid, datname name, pid int4, leader_pid int4, usesysid oid, usename text, application_name text, "
            "client_addr text, client_hostname text, client_port int4, backend_start timestamptz, "
            "xact_start timestamptz, query_start timestamptz, state_change timestamptz, wait_event_type text, "
            "wait_event text, state text, backend_xid int8, backend_xmin int8, query_id int8, query text, "
            "backend_type text",
            system_rows::Activity),
      Table("pg_locks", 12073,
            "locktype text, database oid, relation oid, page int4, tuple int2, virtualxid text, transactionid int8, "
            "classid oid, objid oid, objsubid int2, virtualtransaction text, pid int4, mode text, granted bool, "
            "fastpath bool, waitstart timestamptz",
            system_rows::Locks),
      Table("pg_stat_user_tables", 12161, kTableStatisticsColumns, system_rows::TableStatistics),
      Table("pg_stat_all_tables", 12142, kTableStatisticsColumns, system_rows::TableStatistics),
      Table("pg_tablespace", 1213, "oid oid, spcname name, spcowner oid, spcacl text[], spcoptions text[]", system_rows::Tablespaces),
      Table("pg_description", 2609, "objoid oid, classoid oid, objsubid int4, description text", system_rows::Descriptions),
      Table("pg_shdescription", 2396, "objoid oid, classoid oid, description text", system_rows::None),
      Table("pg_depend", 2608, "classid oid, objid oid, objsubid int4, refclassid oid, refobjid oid, refobjsubid int4, deptype text", system_rows::Dependencies),
      Table("pg_inherits", 2611, "inhrelid oid, inhparent oid, inhseqno int4, inhdetachpending bool", system_rows::None),
      Table("pg_trigger", 2620, "oid oid, tgrelid oid, tgparentid oid, tgname name, tgfoid oid, tgtype int2, tgenabled text, tgisinternal bool, tgconstrrelid oid, tgconstrindid oid, tgconstraint oid, tgdeferrable bool, tginitdeferred bool, tgnargs int2, tgattr int2vector, tgargs bytea, tgqual text, tgoldtable text, tgnewtable text", system_rows::None),
      Table("pg_policy", 3256, "oid oid, polname name, polrelid oid, polcmd text, polpermissive bool, polroles oid[], polqual text, polwithcheck text", system_rows::None),
      Table("pg_statistic_ext", 3381, "oid oid, stxrelid oid, stxname name, stxnamespace oid, stxowner oid, stxstattarget int4, stxkeys int2vector, stxkind text[], stxexprs text", system_rows::None),
      Table("pg_publication", 6104, "oid oid, pubname name, pubowner oid, puballtables bool, pubinsert bool, pubupdate bool, pubdelete bool, pubtruncate bool, pubviaroot bool", system_rows::None),
      Table("pg_publication_rel", 6106, "oid oid, prpubid oid, prrelid oid, prqual text, prattrs int2vector", system_rows::None),
      Table("pg_publication_namespace", 6237, "oid oid, pnpubid oid, pnnspid oid", system_rows::None),
      Table("pg_opclass", 2616,
            "oid oid, opcmethod oid, opcname name, opcnamespace oid, opcowner oid, opcfamily oid, opcintype oid, "
            "opcdefault bool, opckeytype oid",
            system_rows::None),
      Table("pg_collation", 3456, "oid oid, collname name, collnamespace oid, collowner oid, collprovider text, collisdeterministic bool, collencoding int4, collcollate text, collctype text, colliculocale text, collversion text", system_rows::None),
      Table("pg_auth_members", 1261, "roleid oid, member oid, grantor oid, admin_option bool", system_rows::None),
      Table("pg_extension", 3079, "oid oid, extname name, extowner oid, extnamespace oid, extrelocatable bool, extversion text, extconfig oid[], extcondition text[]", system_rows::None),
      Table("pg_rewrite", 2618, "oid oid, rulename name, ev_class oid, ev_type text, ev_enabled text, is_instead bool, ev_qual text, ev_action text", system_rows::None),
      Table("pg_enum", 3501, "oid oid, enumtypid oid, enumsortorder float4, enumlabel text", system_rows::None),
      Table("pg_range", 3541, "rngtypid oid, rngsubtype oid, rngmultitypid oid, rngcollation oid, rngsubopc oid, rngcanonical text, rngsubdiff text", system_rows::None),
      Table("pg_partitioned_table", 3350,
            "partrelid oid, partstrat text, partnatts int2, partdefid oid, partattrs int2vector, partclass oidvector, "
            "partcollation oidvector, partexprs text",
            system_rows::None),
      Table("pg_proc", 1255, "oid oid, proname name, pronamespace oid, proowner oid, prolang oid, procost float4, prorows float4, provariadic oid, prosupport oid, prokind text, prosecdef bool, proleakproof bool, proisstrict bool, proretset bool, provolatile text, proparallel text, pronargs int2, pronargdefaults int2, prorettype oid, proargtypes oidvector, proallargtypes oid[], proargmodes text[], proargnames text[], proargdefaults text, protrftypes oid[], prosrc text, probin text, prosqlbody text, proconfig text[], proacl text[]", system_rows::Functions),
      Table("pg_language", 2612,
            "oid oid, lanname name, lanowner oid, lanispl bool, lanpltrusted bool, lanplcallfoid oid, "
            "laninline oid, lanvalidator oid, lanacl text[]",
            system_rows::Languages),
      // Objects Paceline has none of (pg_dump reads them all): empty.
      Table("pg_init_privs", 3394, "objoid oid, classoid oid, objsubid int4, privtype text, initprivs text[]", system_rows::InitialPrivileges),
      Table("pg_operator", 2617,
            "oid oid, oprname name, oprnamespace oid, oprowner oid, oprkind text, oprcanmerge bool, oprcanhash bool, "
            "oprleft oid, oprright oid, oprresult oid, oprcom oid, oprnegate oid, oprcode oid, oprrest oid, "
            "oprjoin oid",
            system_rows::None),
      Table("pg_opfamily", 2753, "oid oid, opfmethod oid, opfname name, opfnamespace oid, opfowner oid", system_rows::None),
      Table("pg_amop", 2602,
            "oid oid, amopfamily oid, amoplefttype oid, amoprighttype oid, amopstrategy int2, amoppurpose text, "
            "amopopr oid, amopmethod oid, amopsortfamily oid",
            system_rows::None),
      Table("pg_amproc", 2603,
            "oid oid, amprocfamily oid, amproclefttype oid, amprocrighttype oid, amprocnum int2, amproc oid",
            system_rows::None),
      Table("pg_cast", 2605, "oid oid, castsource oid, casttarget oid, castfunc oid, castcontext text, castmethod text", system_rows::None),
      Table("pg_conversion", 2607,
            "oid oid, conname name, connamespace oid, conowner oid, conforencoding int4, contoencoding int4, "
            "conproc oid, condefault bool",
            system_rows::None),
      Table("pg_transform", 3576, "oid oid, trftype oid, trflang oid, trffromsql oid, trftosql oid", system_rows::None),
      Table("pg_ts_parser", 3601,
            "oid oid, prsname name, prsnamespace oid, prsstart oid, prstoken oid, prsend oid, prsheadline oid, "
            "prslextype oid",
            system_rows::None),
      Table("pg_ts_template", 3764, "oid oid, tmplname name, tmplnamespace oid, tmplinit oid, tmpllexize oid", system_rows::None),
      Table("pg_ts_dict", 3600,
            "oid oid, dictname name, dictnamespace oid, dictowner oid, dicttemplate oid, dictinitoption text",
            system_rows::None),
      Table("pg_ts_config", 3602, "oid oid, cfgname name, cfgnamespace oid, cfgowner oid, cfgparser oid", system_rows::None),
      Table("pg_foreign_data_wrapper", 2328,
            "oid oid, fdwname name, fdwowner oid, fdwhandler oid, fdwvalidator oid, fdwacl text[], fdwoptions text[]",
            system_rows::None),
      Table("pg_foreign_server", 1417,
            "oid oid, srvname name, srvowner oid, srvfdw oid, srvtype text, srvversion text, srvacl text[], "
            "srvoptions text[]",
            system_rows::None),
      Table("pg_user_mapping", 1418, "oid oid, umuser oid, umserver oid, umoptions text[]", system_rows::None),
      Table("pg_foreign_table", 3118, "ftrelid oid, ftserver oid, ftoptions text[]", system_rows::None),
      Table("pg_default_acl", 826, "oid oid, defaclrole oid, defaclnamespace oid, defaclobjtype text, defaclacl text[]", system_rows::None),
      Table("pg_event_trigger", 3466,
            "oid oid, evtname name, evtevent text, evtowner oid, evtfoid oid, evtenabled text, evttags text[]",
            system_rows::None),
      Table("pg_subscription", 6100,
            "oid oid, subdbid oid, subskiplsn text, subname name, subowner oid, subenabled bool, subbinary bool, "
            "substream bool, subtwophasestate text, subdisableonerr bool, subconninfo text, subslotname name, "
            "subsynccommit text, subpublications text[]",
            system_rows::None),
      Table("pg_db_role_setting", 2964, "setdatabase oid, setrole oid, setconfig text[]", system_rows::None),
      Table("pg_largeobject_metadata", 2995, "oid oid, lomowner oid, lomacl text[]", system_rows::None),
      Table("pg_seclabel", 3596, "objoid oid, classoid oid, objsubid int4, provider text, label text", system_rows::None),
      Table("pg_shseclabel", 3592, "objoid oid, classoid oid, provider text, label text", system_rows::None),
      Table("pg_seclabels", 12099,
            "objoid oid, classoid oid, objsubid int4, objtype text, objnamespace oid, objname text, provider text, "
            "label text",
            system_rows::None),
      Table("columns", 13295,
            "table_catalog text, table_schema text, table_name text, column_name text, ordinal_position int4, "
            "column_default text, is_nullable text, data_type text, character_maximum_length int4, "
            "character_octet_length int4, numeric_precision int4, numeric_precision_radix int4, numeric_scale int4, "
            "datetime_precision int4, interval_type text, interval_precision int4, character_set_catalog text, "
            "character_set_schema text, character_set_name text, collation_catalog text, collation_schema text, "
            "collation_name text, domain_catalog text, domain_schema text, domain_name text, udt_catalog text, "
            "udt_schema text, udt_name text, scope_catalog text, scope_schema text, scope_name text, "
            "maximum_cardinality int4, dtd_identifier text, is_self_referencing text, is_identity text, "
            "identity_generation text, identity_start text, identity_increment text, identity_maximum text, "
            "identity_minimum text, identity_cycle text, is_generated text, generation_expression text, "
            "is_updatable text",
            system_rows::InformationSchemaColumns, "information_schema"),
      View("pg_catalog", "pg_tables", 12033,
           "SELECT n.nspname AS schemaname, c.relname AS tablename, pg_get_userbyid(c.relowner) AS tableowner, "
           "NULL::text AS tablespace, c.relhasindex AS hasindexes, c.relhasrules AS hasrules, "
           "c.relhastriggers AS hastriggers, c.relrowsecurity AS rowsecurity "
           "FROM pg_class c LEFT JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.relkind IN ('r', 'p')"),
      View("pg_catalog", "pg_views", 12028,
           "SELECT n.nspname AS schemaname, c.relname AS viewname, pg_get_userbyid(c.relowner) AS viewowner, "
           "pg_get_viewdef(c.oid) AS definition "
           "FROM pg_class c LEFT JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.relkind = 'v'"),
      View("pg_catalog", "pg_indexes", 12043,
           "SELECT n.nspname AS schemaname, c.relname AS tablename, i.relname AS indexname, "
           "NULL::text AS tablespace, pg_get_indexdef(i.oid) AS indexdef "
           "FROM pg_index x JOIN pg_class c ON c.oid = x.indrelid JOIN pg_class i ON i.oid = x.indexrelid "
           "LEFT JOIN pg_namespace n ON n.oid = c.relnamespace "
           "WHERE c.relkind IN ('r', 'm', 'p') AND i.relkind IN ('i', 'I')"),
      View("pg_catalog", "pg_user_mappings", 12327,
           "SELECT u.oid AS umid, s.oid AS srvid, s.srvname, u.umuser, a.rolname AS usename, u.umoptions "
           "FROM pg_user_mapping u JOIN pg_foreign_server s ON u.umserver = s.oid "
           "LEFT JOIN pg_authid a ON a.oid = u.umuser"),
      View("pg_catalog", "pg_user", 12014,
           "SELECT rolname AS usename, oid AS usesysid, rolcreatedb AS usecreatedb, rolsuper AS usesuper, "
           "rolreplication AS userepl, rolbypassrls AS usebypassrls, '********'::text AS passwd, "
           "rolvaliduntil AS valuntil, rolconfig AS useconfig FROM pg_roles WHERE rolcanlogin"),
      View("pg_catalog", "pg_sequences", 12048,
           "SELECT n.nspname AS schemaname, c.relname AS sequencename, pg_get_userbyid(c.relowner) AS sequenceowner, "
           "format_type(s.seqtypid, NULL) AS data_type, s.seqstart AS start_value, s.seqmin AS min_value, "
           "s.seqmax AS max_value, s.seqincrement AS increment_by, s.seqcycle AS cycle, s.seqcache AS cache_size "
           "FROM pg_sequence s JOIN pg_class c ON c.oid = s.seqrelid LEFT JOIN pg_namespace n ON n.oid = c.relnamespace"),
      View("information_schema", "schemata", 13222,
           "SELECT current_database() AS catalog_name, n.nspname AS schema_name, "
           "pg_get_userbyid(n.nspowner) AS schema_owner, NULL::text AS default_character_set_catalog, "
           "NULL::text AS default_character_set_schema, NULL::text AS default_character_set_name, "
           "NULL::text AS sql_path FROM pg_namespace n"),
      View("information_schema", "tables", 13425,
           "SELECT current_database() AS table_catalog, n.nspname AS table_schema, c.relname AS table_name, "
           "CASE WHEN c.relkind IN ('r', 'p') THEN 'BASE TABLE' WHEN c.relkind = 'v' THEN 'VIEW' "
           "WHEN c.relkind = 'f' THEN 'FOREIGN' END AS table_type, "
           "NULL::text AS self_referencing_column_name, NULL::text AS reference_generation, "
           "NULL::text AS user_defined_type_catalog, NULL::text AS user_defined_type_schema, "
           "NULL::text AS user_defined_type_name, "
           "CASE WHEN c.relkind IN ('r', 'p') THEN 'YES' ELSE 'NO' END AS is_insertable_into, "
           "'NO' AS is_typed, NULL::text AS commit_action "
           "FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.relkind IN ('r', 'v', 'f', 'p')"),
      View("information_schema", "views", 13450,
           "SELECT current_database() AS table_catalog, n.nspname AS table_schema, c.relname AS table_name, "
           "pg_get_viewdef(c.oid) AS view_definition, 'NONE' AS check_option, 'NO' AS is_updatable, "
           "'NO' AS is_insertable_into, 'NO' AS is_trigger_updatable, 'NO' AS is_trigger_deletable, "
           "'NO' AS is_trigger_insertable_into "
           "FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.relkind = 'v'"),
      View("information_schema", "sequences", 13400,
           "SELECT current_database() AS sequence_catalog, n.nspname AS sequence_schema, "
           "c.relname AS sequence_name, format_type(s.seqtypid, NULL) AS data_type, "
           "CASE format_type(s.seqtypid, NULL) WHEN 'smallint' THEN 16 WHEN 'integer' THEN 32 ELSE 64 END "
           "AS numeric_precision, 2 AS numeric_precision_radix, 0 AS numeric_scale, "
           "s.seqstart::text AS start_value, s.seqmin::text AS minimum_value, s.seqmax::text AS maximum_value, "
           "s.seqincrement::text AS increment, CASE WHEN s.seqcycle THEN 'YES' ELSE 'NO' END AS cycle_option "
           "FROM pg_sequence s JOIN pg_class c ON c.oid = s.seqrelid JOIN pg_namespace n ON n.oid = c.relnamespace"),
      View("information_schema", "table_constraints", 13380,
           "SELECT current_database() AS constraint_catalog, n.nspname AS constraint_schema, "
           "c.conname AS constraint_name, current_database() AS table_catalog, n.nspname AS table_schema, "
           "r.relname AS table_name, CASE c.contype WHEN 'c' THEN 'CHECK' WHEN 'f' THEN 'FOREIGN KEY' "
           "WHEN 'p' THEN 'PRIMARY KEY' WHEN 'u' THEN 'UNIQUE' END AS constraint_type, "
           "CASE WHEN c.condeferrable THEN 'YES' ELSE 'NO' END AS is_deferrable, "
           "CASE WHEN c.condeferred THEN 'YES' ELSE 'NO' END AS initially_deferred, 'YES' AS enforced, "
           "CASE WHEN c.contype = 'u' THEN 'YES' END AS nulls_distinct "
           "FROM pg_constraint c JOIN pg_class r ON r.oid = c.conrelid "
           "JOIN pg_namespace n ON n.oid = c.connamespace WHERE c.contype IN ('c', 'f', 'p', 'u')"),
      View("information_schema", "referential_constraints", 13370,
           "SELECT current_database() AS constraint_catalog, n.nspname AS constraint_schema, "
           "c.conname AS constraint_name, current_database() AS unique_constraint_catalog, "
           "n.nspname AS unique_constraint_schema, u.conname AS unique_constraint_name, "
           "'NONE' AS match_option, "
           "CASE c.confupdtype WHEN 'c' THEN 'CASCADE' WHEN 'n' THEN 'SET NULL' WHEN 'd' THEN 'SET DEFAULT' "
           "WHEN 'r' THEN 'RESTRICT' ELSE 'NO ACTION' END AS update_rule, "
           "CASE c.confdeltype WHEN 'c' THEN 'CASCADE' WHEN 'n' THEN 'SET NULL' WHEN 'd' THEN 'SET DEFAULT' "
           "WHEN 'r' THEN 'RESTRICT' ELSE 'NO ACTION' END AS delete_rule "
           "FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace "
           "LEFT JOIN pg_constraint u ON u.conindid = c.conindid AND u.contype IN ('p', 'u') "
           "WHERE c.contype = 'f'"),
      Table("key_column_usage", 13360,
            "constraint_catalog text, constraint_schema text, constraint_name text, table_catalog text, "
            "table_schema text, table_name text, column_name text, ordinal_position int4, "
            "position_in_unique_constraint int4",
            system_rows::KeyColumnUsage, "information_schema"),
      Table("constraint_column_usage", 13340,
            "table_catalog text, table_schema text, table_name text, column_name text, constraint_catalog text, "
            "constraint_schema text, constraint_name text",
            system_rows::ConstraintColumnUsage, "information_schema"),
  };
}

}  // namespace

int SystemRelation::Column(std::string_view column) const {
  for (size_t i = 0; i < columns.size(); ++i) {
    if (columns[i].name == column) return static_cast<int>(i);
  }
  assert(false && "no such catalog column");
  return 0;
}

const std::vector<SystemRelation>& SystemRelations() {
  static const auto* relations = new std::vector<SystemRelation>(MakeRelations());
  return *relations;
}

const SystemRelation* FindSystemRelation(std::string_view schema, std::string_view name) {
  if (schema.empty()) schema = "pg_catalog";
  for (const SystemRelation& r : SystemRelations()) {
    if (r.schema == schema && r.name == name) return &r;
  }
  return nullptr;
}

const SystemRelation* SystemRelationByOid(uint32_t oid) {
  for (const SystemRelation& r : SystemRelations()) {
    if (r.oid == oid) return &r;
  }
  return nullptr;
}

bool IsKnownSchema(std::string_view schema) {
  return schema == "pg_catalog" || schema == "public" || schema == "information_schema";
}

CatalogRow::CatalogRow(const SystemRelation& relation) : relation_(relation) {
  values_.reserve(relation.columns.size());
  for (const ResultColumn& c : relation.columns) {
    // information_schema says NULL for what does not apply.
    switch (relation.schema == "information_schema" ? TypeId::kUnknown : c.type.id) {
      case TypeId::kBool: values_.push_back(Value::Bool(false)); break;
      case TypeId::kInt16: values_.push_back(Value::Int16(0)); break;
      case TypeId::kInt32: values_.push_back(Value::Int32(0)); break;
      case TypeId::kInt64: values_.push_back(Value::Int64(0)); break;
      case TypeId::kFloat32: values_.push_back(Value::Float32(0)); break;
      case TypeId::kOid: values_.push_back(Value::Oid(0)); break;
      default: values_.push_back(Value::Null(c.type.id)); break;
    }
  }
}

CatalogRow& CatalogRow::Set(std::string_view column, Value v) {
  values_[relation_.Column(column)] = std::move(v);
  return *this;
}

CatalogRow& CatalogRow::Int(std::string_view column, int64_t v) {
  const int i = relation_.Column(column);
  switch (relation_.columns[i].type.id) {
    case TypeId::kInt16: values_[i] = Value::Int16(static_cast<int16_t>(v)); break;
    case TypeId::kInt32: values_[i] = Value::Int32(static_cast<int32_t>(v)); break;
    case TypeId::kOid: values_[i] = Value::Oid(static_cast<uint32_t>(v)); break;
    default: values_[i] = Value::Int64(v); break;
  }
  return *this;
}

}  // namespace paceline::sql
